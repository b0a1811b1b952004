import XCTest
import StrataScript

/// The shrinker keeps a failing script failing while it drops operations and rounds numbers.
final class ShrinkerTests: XCTestCase {
    private func failsWhenOpacityAboveThird(_ s: Script) -> Bool {
        s.ops.contains {
            if case let .set(_, "opacity", .scalar(x)) = $0 { return x > 0.3 }
            return false
        }
    }

    func test_shrink_dropsOperationsAndRoundsNumbers() {
        let script = Script([.makeLayer(id: 3, shape: false), .frame(time: 1.234),
                             .set(layer: 3, keyPath: "opacity", value: .scalar(0.734)),
                             .read(layer: 3, keyPath: "opacity"), .frame(time: 2.5)])
        let shrunk = ScriptShrinker.shrink(script, fails: failsWhenOpacityAboveThird)
        XCTAssertEqual(shrunk.ops, [.set(layer: 0, keyPath: "opacity", value: .scalar(1))])
    }

    func test_generator_isDeterministicPerSeed_andMakesLargeTreesSometimes() {
        XCTAssertEqual(ScriptGenerator.script(seed: 42), ScriptGenerator.script(seed: 42))
        XCTAssertNotEqual(ScriptGenerator.script(seed: 42), ScriptGenerator.script(seed: 43))
        let largest = (1...200).map { seed in
            ScriptGenerator.script(seed: UInt64(seed)).ops.filter { if case .makeLayer = $0 { return true }; return false }.count
        }.max() ?? 0
        XCTAssertGreaterThanOrEqual(largest, 100, "some scripts build trees of hundreds of layers")
    }
}
