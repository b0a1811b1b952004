import XCTest
@testable import Strata

/// Values that arrive as optionals inside `Any` (`values = xs.map { $0 as Any }` of `[Any?]`,
/// a `fromValue` of `someOptional as Any`): their payloads are animated, not refused.
final class OptionalValuesTests: XCTestCase {
    func test_optionalsHeldInAnyAreSeenThrough() {
        onFreshEngine {
            let root = CALayer()
            let renderer = CARenderer(layer: root)
            let l = CALayer()
            withActionsDisabled { root.addSublayer(l) }
            renderer.renderFrame(atTime: 0)
            let fade = CAKeyframeAnimation(keyPath: "opacity")
            let xs: [Any?] = [0.0, 1.0]
            fade.values = xs.map { $0 as Any }
            fade.duration = 1
            let move = CABasicAnimation(keyPath: "position.x")
            let from: Any? = 10.0
            move.fromValue = from as Any
            move.toValue = 30.0
            move.duration = 1
            l.add(fade, forKey: "fade")
            l.add(move, forKey: "move")
            CATransaction.flush()
            renderer.renderFrame(atTime: 0.5)
            XCTAssertEqual(Double(l.presentation()?.opacity ?? -1), 0.5, accuracy: 1e-4)
            XCTAssertEqual(Double(l.presentation()?.position.x ?? -1), 20, accuracy: 1e-4)
        }
    }
}
