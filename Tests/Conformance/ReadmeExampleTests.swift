import XCTest
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif

/// The README's porting example, as written there: it compiles against the public API and
/// does what the README says.
final class ReadmeExampleTests: XCTestCase {
    func test_theReadmesExample() throws {
        CATransaction.flush()
        var done = 0
        let root = CALayer(), dot = CAShapeLayer()
        root.addSublayer(dot)
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)

        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        CATransaction.setCompletionBlock { done += 1 }
        dot.position = CGPoint(x: 100, y: 40)       // implicit: the action lookup finds an animation
        CATransaction.commit()

        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.toValue = Double.pi
        dot.add(spin, forKey: "spin")                  // explicit

        renderer.beginFrame(atTime: 0.25)              // the frame loop: commit, evaluate, retire
        renderer.render()
        let frame = renderer.snapshot()                // every visible layer, struct-of-arrays
        renderer.endFrame()
        let shown = try XCTUnwrap(dot.presentation())
        XCTAssertGreaterThan(shown.position.x, 0)
        XCTAssertLessThan(shown.position.x, 100, "half-way through the 0.5 s implicit animation")
        XCTAssertEqual(frame.count, 2)
        renderer.renderFrame(atTime: 1)
        XCTAssertEqual(done, 1)
        XCTAssertEqual(dot.presentation()?.position, CGPoint(x: 100, y: 40))
    }
}
