import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// A view is its layer's delegate (SEMANTICS.md, "Host views"; UIKit's UIView): outside an
/// animation block it answers NSNull and the change is immediate; inside one it answers the
/// block's animation. The engine knows a view's answer outside blocks without asking it, so
/// these pin what must still ask: a view class that overrides `action(for:forKey:)`, a block
/// that is open, and a layer whose view is gone (no delegate: the chain goes on).
final class HostViewLookupTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
        super.tearDown()
    }

    /// Runs `body` once per lookup strategy, on a committed root.
    private func forEachStrategy(_ body: (_ root: CALayer, _ context: String) throws -> Void) rethrows {
        for strategy in ActionLookupStrategy.allCases {
            CATransaction.flush()
            StrataEngine.actionLookupStrategy = strategy
            let root = CALayer()
            let renderer = CARenderer(layer: root)
            renderer.renderFrame(atTime: 0)
            try body(root, "[lookup strategy .\(strategy.rawValue)]")
        }
        StrataEngine.actionLookupStrategy = .interned
    }

    /// A view made by `make` (10 x 10) whose layer is a sublayer of `root`.
    private func mounted<V: View>(_ make: (CGRect) -> V, on root: CALayer) -> V {
        let v = make(CGRect(x: 0, y: 0, width: 10, height: 10))
        root.addSublayer(v.layer)
        return v
    }

    /// A view class with its own answer: an animation of its own for opacity, View's otherwise.
    final class FadingView: View {
        var asked: [String] = []
        override func action(for layer: CALayer, forKey event: String) -> CAAction? {
            asked.append(event)
            if event == "opacity" {
                let a = CABasicAnimation()
                a.duration = 3
                return a
            }
            return super.action(for: layer, forKey: event)
        }
    }

    /// A view class that overrides nothing about actions.
    final class PlainView: View {}

    func test_viewClassThatOverridesTheDelegateMethodIsAskedOutsideBlocks() throws {
        try forEachStrategy { root, ctx in
            let view = mounted(FadingView.init(frame:), on: root)
            CATransaction.flush()
            view.asked = []
            view.layer.opacity = 0.25
            view.layer.position = CGPoint(x: 40, y: 50)
            XCTAssertEqual(view.asked, ["opacity", "position"], "the override is asked for every key. \(ctx)")
            let added = try XCTUnwrap(view.layer.animation(forKey: "opacity") as? CABasicAnimation, ctx)
            XCTAssertEqual(added.duration, 3, "its own animation runs. \(ctx)")
            XCTAssertNil(view.layer.animation(forKey: "position"), "super's NSNull: no action. \(ctx)")
            XCTAssertEqual(view.layer.position, CGPoint(x: 40, y: 50), ctx)
        }
    }

    func test_viewsOutsideBlocksChangeAtOnce_insideTheyAnimate() throws {
        try forEachStrategy { root, ctx in
            let plain = mounted(View.init(frame:), on: root), sub = mounted(PlainView.init(frame:), on: root)
            CATransaction.flush()
            for v in [plain, sub] {
                v.layer.opacity = 0.5
                v.layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 30)
                XCTAssertEqual(v.layer.animationKeys() ?? [], [], "no action outside a block. \(ctx)")
            }
            View.animate(withDuration: 2, animations: {
                plain.layer.opacity = 1
                sub.layer.opacity = 1
            })
            for v in [plain, sub] {
                let a = try XCTUnwrap(v.layer.animation(forKey: "opacity") as? CABasicAnimation, ctx)
                XCTAssertEqual(a.duration, 2, "the block's animation. \(ctx)")
            }
            // After the block, silent again.
            plain.layer.cornerRadius = 3
            XCTAssertNil(plain.layer.animation(forKey: "cornerRadius"), ctx)
        }
    }

    func test_aBlockOpenWhileAnotherViewChangesGivesThatViewTheBlocksAnimation() throws {
        try forEachStrategy { root, ctx in
            let a = mounted(View.init(frame:), on: root), b = mounted(PlainView.init(frame:), on: root)
            CATransaction.flush()
            View.animate(withDuration: 1.5, animations: {
                a.alpha = 0.4
                // Any view changed inside the block animates, not only the block's own.
                b.layer.opacity = 0.6
            })
            XCTAssertEqual((a.layer.animation(forKey: "opacity") as? CABasicAnimation)?.duration, 1.5, ctx)
            XCTAssertEqual((b.layer.animation(forKey: "opacity") as? CABasicAnimation)?.duration, 1.5, ctx)
        }
    }

    func test_layerWhoseViewIsGoneAnimatesImplicitly() throws {
        try forEachStrategy { root, ctx in
            var view: View? = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let layer = try XCTUnwrap(view?.layer)
            root.addSublayer(layer)
            CATransaction.flush()
            layer.opacity = 0.5
            XCTAssertNil(layer.animation(forKey: "opacity"), "the view answers NSNull. \(ctx)")
            view = nil
            XCTAssertNil(layer.delegate, "the delegate is weak. \(ctx)")
            layer.opacity = 0.25
            XCTAssertNotNil(layer.animation(forKey: "opacity"),
                            "no delegate: the built-in implicit animation. \(ctx)")
        }
    }

    func test_layerWhoseViewWasReleasedOnAnotherThreadAnimatesImplicitly() throws {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        final class Box: @unchecked Sendable { var view: View? }
        let box = Box()
        box.view = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let layer = try XCTUnwrap(box.view?.layer)
        root.addSublayer(layer)
        CATransaction.flush()
        layer.opacity = 0.5
        XCTAssertNil(layer.animation(forKey: "opacity"), "the view answers NSNull")
        // The last reference goes on another thread: the view's deinit runs there.
        let done = DispatchSemaphore(value: 0)
        Thread { box.view = nil; done.signal() }.start()
        done.wait()
        XCTAssertNil(layer.delegate)
        layer.opacity = 0.25
        XCTAssertNotNil(layer.animation(forKey: "opacity"), "no delegate: the built-in implicit animation")
        // Views that are there still answer NSNull outside blocks, and animate inside them.
        let other = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        root.addSublayer(other.layer)
        CATransaction.flush()
        other.layer.opacity = 0.5
        XCTAssertNil(other.layer.animation(forKey: "opacity"))
        View.animate(withDuration: 1, animations: { other.layer.opacity = 1 })
        XCTAssertNotNil(other.layer.animation(forKey: "opacity"))
    }

    func test_anotherLayerWhoseDelegateIsAViewFollowsTheViewAndItsAbsence() throws {
        try forEachStrategy { root, ctx in
            var view: View? = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            let other = CALayer()
            other.delegate = view
            root.addSublayer(other)
            CATransaction.flush()
            other.opacity = 0.5
            XCTAssertNil(other.animation(forKey: "opacity"), "the view answers NSNull for any layer. \(ctx)")
            View.animate(withDuration: 2, animations: { other.opacity = 0.7 })
            XCTAssertEqual((other.animation(forKey: "opacity") as? CABasicAnimation)?.duration, 2, ctx)
            other.removeAllAnimations()
            view = nil
            XCTAssertNil(other.delegate, ctx)
            other.opacity = 0.25
            XCTAssertNotNil(other.animation(forKey: "opacity"), "no delegate: the built-in implicit animation. \(ctx)")
        }
    }
}
