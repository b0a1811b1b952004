import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// Code the engine calls back into, calling the engine again: a delegate answering a lookup,
/// a completion block, an animation delegate. Each runs to the outcome Core Animation gives,
/// with no crash and no lost callback. Both engines run these tests (the reference engine
/// links this file), so the two agree on every outcome.
final class ReentrancyTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// A delegate that, asked for `opacity`'s action, sets another property of the layer and
    /// adds a sublayer. The nested change is looked up (the delegate is asked for
    /// `position`) and animates in the same transaction; the tree change takes effect; the
    /// opacity change still gets its built-in animation.
    func test_delegateMutatingTheLayerAndTheTreeDuringLookup() throws {
        let scene = Scene(CALayer())
        let child = CALayer()
        CATransaction.flush()   // a new layer opens the implicit transaction: commit it first
        var nested = 0
        let delegate = ClosureLayerDelegate { layer, key in
            if key == "opacity" && nested == 0 {
                nested += 1
                layer.position = CGPoint(x: 40, y: 0)
                layer.addSublayer(child)
            }
            return nil
        }
        scene.layer.delegate = delegate
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        scene.layer.opacity = 0
        CATransaction.commit()
        XCTAssertEqual(delegate.askedKeys.filter { $0 == "opacity" }.count, 1)
        XCTAssertTrue(delegate.askedKeys.contains("position"), "the nested change was looked up")
        XCTAssertEqual(scene.layer.sublayers?.count, 1)
        XCTAssertTrue(child.superlayer === scene.layer)
        XCTAssertEqual(scene.layer.opacity, 0)
        XCTAssertEqual(scene.layer.position, CGPoint(x: 40, y: 0))
        XCTAssertEqual(Set(scene.layer.animationKeys() ?? []), ["opacity", "position"])
        scene.frame(at: 0.5)
        let p = try scene.presented()
        XCTAssertGreaterThan(p.opacity, 0)
        XCTAssertLessThan(p.opacity, 1)
        XCTAssertGreaterThan(p.position.x, 0)
        XCTAssertLessThan(p.position.x, 40)
        scene.frame(at: 1)
        XCTAssertEqual(try scene.presented().opacity, 0)
        XCTAssertEqual(try scene.presented().position.x, 40)
        XCTAssertNil(scene.layer.animationKeys())
    }

    /// An animation delegate that removes its own layer from the tree when the animation
    /// stops: the layer leaves the tree, the other layers' animations run to their end and
    /// every delegate hears exactly one stop.
    func test_animationDelegateRemovingItsLayerInAnimationDidStop() throws {
        let scene = Scene(CALayer())
        let others = (0..<3).map { _ in CALayer() }
        withActionsDisabled { for o in others { scene.root.addSublayer(o) } }
        let recorders = (0..<4).map { _ in AnimationEventRecorder() }
        recorders[0].onStop = { _ in scene.layer.removeFromSuperlayer() }
        for (i, l) in ([scene.layer] + others).enumerated() {
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 1.0
            a.toValue = 0.0
            a.duration = i == 0 ? 0.5 : 1
            a.delegate = recorders[i]
            l.add(a, forKey: "fade")
        }
        CATransaction.flush()
        scene.frame(at: 0.25)
        scene.frame(at: 0.5)
        XCTAssertNil(scene.layer.superlayer, "removed by its delegate")
        XCTAssertEqual(recorders[0].stops, [true])
        for l in others { XCTAssertEqual(l.animationKeys(), ["fade"]) }
        scene.frame(at: 1)
        for r in recorders { XCTAssertEqual(r.stops, [true], "one stop per animation") }
        for l in others { XCTAssertNil(l.animationKeys()) }
    }

    /// An animation delegate that releases the last reference to its layer in
    /// `animationDidStop`: the layer goes away inside the callback; the frame carries on and
    /// the next frames run.
    func test_animationDelegateReleasingItsLayerInAnimationDidStop() {
        let scene = Scene(CALayer())
        weak var gone: CALayer?
        var held: CALayer? = CALayer()
        gone = held
        withActionsDisabled { scene.root.addSublayer(held!) }
        let recorder = AnimationEventRecorder()
        recorder.onStop = { _ in
            held?.removeFromSuperlayer()
            held = nil
        }
        let a = CABasicAnimation(keyPath: "position.x")
        a.fromValue = 0.0
        a.toValue = 10.0
        a.duration = 0.5
        a.delegate = recorder
        held!.add(a, forKey: "move")
        CATransaction.flush()
        scene.frame(at: 0.5)
        XCTAssertNil(gone, "the layer was released in its animation's callback")
        XCTAssertEqual(recorder.stops, [true])
        scene.layer.opacity = 0.5
        scene.frame(at: 0.6)
        scene.frame(at: 2)
        XCTAssertEqual(scene.layer.presentation()?.opacity, 0.5)
    }

    /// Removing a layer from the tree while it and its subtree animate: the animations stay
    /// attached to the layers (Core Animation removes animations from a layer only when asked
    /// or when they finish), they finish, their delegates are told, and the transaction's
    /// completion block runs once.
    func test_removingALayerWhileItsSubtreeAnimates() throws {
        let scene = Scene(CALayer())
        let child = CALayer(), grandchild = CALayer()
        withActionsDisabled {
            scene.layer.addSublayer(child)
            child.addSublayer(grandchild)
        }
        scene.frame(at: 0.1)
        var completions = 0
        let recorder = AnimationEventRecorder()
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setCompletionBlock { completions += 1 }
        child.opacity = 0
        grandchild.position = CGPoint(x: 20, y: 20)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = Double.pi
        spin.delegate = recorder
        grandchild.add(spin, forKey: "spin")
        CATransaction.commit()
        scene.frame(at: 0.5)
        withActionsDisabled { scene.layer.removeFromSuperlayer() }
        XCTAssertNil(scene.layer.superlayer)
        XCTAssertEqual(Set(grandchild.animationKeys() ?? []), ["position", "spin"])
        XCTAssertEqual(child.animationKeys(), ["opacity"])
        scene.frame(at: 0.9)
        XCTAssertEqual(completions, 0)
        scene.frame(at: 1.2)
        XCTAssertEqual(completions, 1, "the block ran once, when the last animation finished")
        XCTAssertEqual(recorder.stops, [true])
        XCTAssertNil(grandchild.animationKeys())
        XCTAssertNil(child.animationKeys())
        scene.frame(at: 2)
        XCTAssertEqual(completions, 1)
    }

    /// A completion block that begins and commits a transaction whose own completion block
    /// begins and commits another, and a delegate stop inside the chain: each block runs once,
    /// in order, and the transaction stack is balanced afterwards.
    func test_completionBlocksChainingTransactions() throws {
        let scene = Scene(CALayer())
        var order: [String] = []
        let recorder = AnimationEventRecorder()
        recorder.onStop = { _ in order.append("stop") }
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.25)
        CATransaction.setCompletionBlock {
            order.append("first")
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.25)
            CATransaction.setCompletionBlock {
                order.append("second")
                CATransaction.begin()
                CATransaction.setCompletionBlock { order.append("third") }   // no animation: at commit
                CATransaction.setDisableActions(true)
                scene.layer.opacity = 1
                CATransaction.commit()
            }
            let a = CABasicAnimation(keyPath: "position.x")
            a.fromValue = 0.0
            a.toValue = 30.0
            a.delegate = recorder
            scene.layer.add(a, forKey: "x")
            CATransaction.commit()
        }
        scene.layer.opacity = 0
        CATransaction.commit()
        scene.frame(at: 0.25)
        XCTAssertEqual(order, ["first"])
        scene.frame(at: 0.5)
        XCTAssertEqual(order, ["first", "stop", "second", "third"])
        XCTAssertEqual(scene.layer.opacity, 1)
        scene.frame(at: 1)
        XCTAssertEqual(order, ["first", "stop", "second", "third"], "no block ran twice")
        CATransaction.begin()
        XCTAssertNil(CATransaction.completionBlock(), "the stack is balanced")
        CATransaction.commit()
    }

    /// Seed 2200000119432 (differential fuzz): a change whose action replaces an animation
    /// releases a completion block that sets the property again. The inner change is a change
    /// of its own: its animation starts from the value shown then, not from the value the
    /// outer change started from.
    func test_aChangeMadeByACompletionBlockTheOuterActionReleased_startsFromTheValueShown() throws {
        let root = CALayer(), layer = AskingSuperLayer()
        let renderer = CARenderer(layer: root)
        withActionsDisabled { root.addSublayer(layer) }
        renderer.renderFrame(atTime: 0)
        var inner: Any?
        CATransaction.setCompletionBlock {
            layer.opacity = 0
            inner = (layer.animation(forKey: "opacity") as? CABasicAnimation)?.fromValue
        }
        let hold = CABasicAnimation(keyPath: "opacity")
        hold.fromValue = 0.0
        hold.toValue = 0.0
        hold.speed = 0   // never ends: its completion block waits until it is replaced
        let group = CAAnimationGroup()
        group.animations = [hold]
        group.speed = 0
        layer.add(group, forKey: "opacity")
        renderer.renderFrame(atTime: 0)
        XCTAssertEqual(Double(try XCTUnwrap(layer.presentation()).opacity), 0, "the group holds 0")
        layer.opacity = 1   // replaces the group (the model value shows), which releases the block
        XCTAssertEqual(numericValue(inner) ?? .nan, 1, accuracy: 1e-12, "from the value shown once the group went")
        XCTAssertEqual(layer.opacity, 0, "the block's change came last")
        renderer.renderFrame(atTime: 0)
        XCTAssertEqual(Double(try XCTUnwrap(layer.presentation()).opacity), 1, accuracy: 1e-12, "its animation at its start")
    }
}

/// Asks `super` for every action (a class that overrides `action(forKey:)`, as apps do).
private final class AskingSuperLayer: CALayer {
    override func action(forKey event: String) -> CAAction? { super.action(forKey: event) }
}

