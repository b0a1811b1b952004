import Foundation
import XCTest
@testable import StrataBenchSuites

/// The soak's short version (the test command runs it; `scripts/soak` runs 1,000,000 frames
/// of 100,000 layers): the tree under churn, every invariant checked.
final class SoakTests: XCTestCase {
    func test_shortSoakHoldsEveryInvariant() {
        var c = Soak.Configuration()
        c.layers = 5_000
        c.frames = 3_000
        c.churn = 20
        c.changes = 200
        c.explicit = 20
        c.checkEvery = 500
        c.warmupFrames = 500
        // Under AddressSanitizer (scripts/sanitize sets ASAN_OPTIONS) freed memory waits in
        // the allocator's quarantine (256 MB by default) before reuse, so resident memory
        // measures the quarantine filling; leaks are LeakSanitizer's to find, and the store
        // check below still holds the engine's own memory to its warm-up size.
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil { c.residentSlack = 256 << 20 }
        let r = Soak.run(c)
        XCTAssertTrue(r.passed, r.failures.joined(separator: "\n"))
        XCTAssertEqual(r.transactions, 3_000)
        XCTAssertEqual(r.explicitAdded, 3_000 * 16, "four of every five explicit slots add an animation")
        XCTAssertEqual(r.layersReleased, 3_000 * 20)
        XCTAssertEqual(r.completionsNotRun, 0)
        XCTAssertEqual(r.completionsRunTwice, 0)
        XCTAssertEqual(r.stopsMissing, 0)
        XCTAssertEqual(r.stopsRepeated, 0)
        XCTAssertEqual(r.animationsLeft, 0)
        XCTAssertEqual(r.layersLeaked, 0)
        // Readings at 500, 1000 ... 3000 and after the final frames; the tree stays whole.
        XCTAssertEqual(r.readings.map(\.frame), [500, 1_000, 1_500, 2_000, 2_500, 3_000, 3_060])
        XCTAssertTrue(r.readings.allSatisfy { $0.layers == 5_000 + 1 })
        XCTAssertGreaterThan(r.readings[2].animations, 500, "animations run through the soak")
        XCTAssertEqual(r.readings.last?.animations, 0)
        XCTAssertGreaterThan(r.warmupStoreBytes, 0)
        XCTAssertLessThanOrEqual(Double(r.peakStoreBytes), Double(r.warmupStoreBytes) * 1.05)
    }
}
