import XCTest
import StrataReference

final class ReferenceSmokeTests: XCTestCase {
    func test_geometryIsShared() {
        XCTAssertEqual(CGColor(red: 1, green: 0, blue: 0, alpha: 1).components, [1, 0, 0, 1])
    }
}
