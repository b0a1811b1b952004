import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// hitTest(_:), contains(_:) and convert(_:from:/to:) on the model tree and the presentation
/// tree (Apple's geometry: position, anchorPoint, bounds origin, transform, sublayerTransform).
final class HitTestAndConvertTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private final class RoundLayer: CALayer {
        override func contains(_ p: CGPoint) -> Bool {
            let dx = p.x - bounds.midX, dy = p.y - bounds.midY
            return dx * dx + dy * dy <= (bounds.width / 2) * (bounds.width / 2)
        }
    }

    /// root 400 x 400 at the origin; a at (100, 50) 100 x 100; b inside a at (10, 10) 20 x 20,
    /// c on top of a at (50, 50) 40 x 40 (c is added last: it is in front).
    private func tree() -> (root: CALayer, a: CALayer, b: CALayer, c: CALayer) {
        let root = CALayer(), a = CALayer(), b = CALayer(), c = CALayer()
        withActionsDisabled {
            root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
            a.frame = CGRect(x: 100, y: 50, width: 100, height: 100)
            b.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
            c.frame = CGRect(x: 50, y: 50, width: 40, height: 40)
            root.addSublayer(a)
            a.addSublayer(b)
            a.addSublayer(c)
        }
        return (root, a, b, c)
    }

    func test_convertPointsAndRects_betweenLayers() {
        let (root, a, b, c) = tree()
        XCTAssertEqual(b.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 110, y: 60))
        XCTAssertEqual(root.convert(CGPoint(x: 115, y: 65), to: b), CGPoint(x: 5, y: 5))
        XCTAssertEqual(c.convert(CGPoint(x: 5, y: 5), from: b), CGPoint(x: -35, y: -35))
        XCTAssertEqual(a.convert(CGRect(x: 0, y: 0, width: 20, height: 20), from: b), CGRect(x: 10, y: 10, width: 20, height: 20))
        XCTAssertEqual(b.convert(CGRect(x: 1, y: 2, width: 3, height: 4), to: root), CGRect(x: 111, y: 62, width: 3, height: 4))
        // A bounds origin shifts the sublayers' coordinates.
        withActionsDisabled { a.bounds.origin = CGPoint(x: 10, y: 0) }
        XCTAssertEqual(b.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 100, y: 60))
    }

    func test_convert_throughTransforms() {
        let (root, a, b, _) = tree()
        withActionsDisabled { a.transform = CATransform3DMakeScale(2, 2, 1) }   // about a's centre (150, 100)
        let p = b.convert(CGPoint(x: 0, y: 0), to: root)
        XCTAssertEqual(p.x, 150 + 2 * (10 - 50), accuracy: 1e-9)
        XCTAssertEqual(p.y, 100 + 2 * (10 - 50), accuracy: 1e-9)
        let back = root.convert(p, to: b)
        XCTAssertEqual(back.x, 0, accuracy: 1e-9)
        XCTAssertEqual(back.y, 0, accuracy: 1e-9)
        withActionsDisabled {
            a.transform = CATransform3DIdentity
            a.sublayerTransform = CATransform3DMakeTranslation(5, 7, 0)
        }
        XCTAssertEqual(b.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 115, y: 67))
    }

    func test_hitTest_findsTheFrontmostDeepestLayer() {
        let (root, a, b, c) = tree()
        XCTAssertTrue(root.hitTest(CGPoint(x: 115, y: 65)) === b)
        XCTAssertTrue(root.hitTest(CGPoint(x: 160, y: 110)) === c)
        XCTAssertTrue(root.hitTest(CGPoint(x: 190, y: 60)) === a)
        XCTAssertTrue(root.hitTest(CGPoint(x: 300, y: 300)) === root)
        XCTAssertNil(root.hitTest(CGPoint(x: 500, y: 10)))
        XCTAssertTrue(a.contains(CGPoint(x: 99, y: 99)))
        XCTAssertFalse(a.contains(CGPoint(x: 101, y: 5)))
        withActionsDisabled { c.isHidden = true }
        XCTAssertTrue(root.hitTest(CGPoint(x: 160, y: 110)) === a, "hidden layers are not hit")
        // A sublayer outside its superlayer's bounds is hit unless the superlayer masks.
        withActionsDisabled { b.position = CGPoint(x: 150, y: 20) }
        XCTAssertTrue(root.hitTest(CGPoint(x: 250, y: 70)) === b)
        withActionsDisabled { a.masksToBounds = true }
        XCTAssertTrue(root.hitTest(CGPoint(x: 250, y: 70)) === root)
    }

    func test_hitTest_asksContains() {
        let root = CALayer(), round = RoundLayer()
        withActionsDisabled {
            root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
            round.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            root.addSublayer(round)
        }
        XCTAssertTrue(root.hitTest(CGPoint(x: 50, y: 50)) === round)
        XCTAssertTrue(root.hitTest(CGPoint(x: 3, y: 3)) === root, "outside the circle, inside the square")
    }

    func test_presentationTree_andHitTestingOnIt() throws {
        let (root, a, b, _) = tree()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        a.position = CGPoint(x: 350, y: 100)    // from (150, 100)
        CATransaction.commit()
        renderer.renderFrame(atTime: 0.5)
        let pa = try XCTUnwrap(a.presentation())
        XCTAssertEqual(pa.position.x, 250, accuracy: 1e-9)
        let pr = try XCTUnwrap(pa.superlayer, "a presentation copy's superlayer is in the presentation tree")
        XCTAssertTrue(pr.model() === root)
        let subs = try XCTUnwrap(pa.sublayers)
        XCTAssertEqual(subs.count, 2)
        XCTAssertTrue(subs[0].model() === b)
        XCTAssertTrue(subs[0].superlayer?.model() === a)
        // b's presentation sits where a is shown: (200, 50) + (10, 10).
        let corner = subs[0].convert(CGPoint(x: 0, y: 0), to: pr)
        XCTAssertEqual(corner.x, 210, accuracy: 1e-9)
        XCTAssertEqual(corner.y, 60, accuracy: 1e-9)
        let hit = try XCTUnwrap(root.presentation()?.hitTest(CGPoint(x: 215, y: 65)))
        XCTAssertTrue(hit.model() === b, "hit testing the presentation tree finds what is shown")
        XCTAssertTrue(root.hitTest(CGPoint(x: 215, y: 65)) === root, "the model tree has moved on")
    }
}
