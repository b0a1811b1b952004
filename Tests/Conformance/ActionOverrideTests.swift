import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// SEMANTICS.md, "One entry point": every property change, custom key and event asks the
/// layer's `action(forKey:)`, so a subclass that overrides it decides (Apple's documented way
/// of customising a layer's actions), for built-in keys, custom keys and events; `super`
/// gives the chain's answer; under `disableActions` it is not asked.
final class ActionOverrideTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
        super.tearDown()
    }

    /// Runs `body` once for each lookup strategy; `context` names it for messages.
    private func forEachStrategy(_ body: (_ context: String) throws -> Void) rethrows {
        for strategy in ActionLookupStrategy.allCases {
            CATransaction.flush()
            StrataEngine.actionLookupStrategy = strategy
            try body("[lookup strategy .\(strategy.rawValue)]")
        }
        StrataEngine.actionLookupStrategy = .interned
    }

    func test_overrideDecidesBuiltInKeys() {
        forEachStrategy { ctx in
            let scene = Scene(OverridingLayer())
            scene.layer.opacity = 0.5
            XCTAssertEqual(scene.layer.recording.events, ["opacity"], "the override's action ran. \(ctx)")
            XCTAssertIdentical(scene.layer.recording.objects.first, scene.layer, ctx)
            XCTAssertEqual(animationKeys(of: scene.layer), [], "no implicit animation besides it. \(ctx)")
            XCTAssertEqual(scene.layer.opacity, 0.5, "the model changed. \(ctx)")

            scene.layer.position = CGPoint(x: 30, y: 40)
            XCTAssertEqual(animationKeys(of: scene.layer), [], "NSNull from the override: no action. \(ctx)")
            XCTAssertEqual(scene.layer.asked, ["opacity", "position"], ctx)
        }
    }

    func test_superGivesTheChainsActionAndItsChangesApply() throws {
        try forEachStrategy { ctx in
            let scene = Scene(OverridingLayer()) { $0.cornerRadius = 4 }
            scene.frame(at: 1)
            CATransaction.begin()
            scene.layer.cornerRadius = 10
            CATransaction.commit()
            let added = try XCTUnwrap(scene.layer.animation(forKey: "cornerRadius") as? CABasicAnimation, ctx)
            XCTAssertEqual(added.duration, 2, "the override lengthened super's animation. \(ctx)")
            XCTAssertEqual(numericValue(added.fromValue), 4, "from the old value. \(ctx)")
            scene.frame(at: 2)   // committed at 1: half-way, linear (the override's curve)
            XCTAssertEqual(Double(try scene.presented().cornerRadius), 7, accuracy: 1e-9, ctx)

            // Keys the override does not touch get the chain's answer unchanged.
            CATransaction.begin()
            scene.layer.zPosition = 8
            CATransaction.commit()
            XCTAssertEqual(animationKeys(of: scene.layer), ["cornerRadius", "zPosition"], ctx)
            scene.frame(at: 2.125)   // half of the transaction's 0.25 s, on the default curve
            XCTAssertEqual(Double(try scene.presented().zPosition), lerp(0, 8, ReferenceCurve.caDefault.progress(atFraction: 0.5)),
                           accuracy: 1e-6, ctx)
        }
    }

    func test_overrideAnswersCustomKeysAndEvents() {
        forEachStrategy { ctx in
            let parent = CALayer()
            let layer = OverridingLayer()
            layer.setValue(3, forKey: "progress")
            parent.addSublayer(layer)
            layer.removeFromSuperlayer()
            XCTAssertEqual(layer.asked, ["progress", "onOrderIn", "onOrderOut"], ctx)
            XCTAssertEqual(layer.recording.events, ["progress", "onOrderIn"], ctx)
        }
    }

    func test_overrideIsNotAskedWhenActionsAreDisabled() {
        forEachStrategy { ctx in
            let layer = OverridingLayer()
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            layer.opacity = 0.2
            layer.setValue(1, forKey: "progress")
            CALayer().addSublayer(layer)
            CATransaction.commit()
            XCTAssertEqual(layer.asked, [], ctx)
            XCTAssertEqual(layer.recording.events, [], ctx)
        }
    }

    func test_subclassOfAnOverridingClassInheritsTheOverride() {
        forEachStrategy { ctx in
            let layer = InheritingLayer()
            layer.opacity = 0.3
            XCTAssertEqual(layer.asked, ["opacity"], ctx)
            XCTAssertEqual(layer.recording.events, ["opacity"], ctx)
        }
    }

    func test_overrideRunsBeforeTheDelegateCanAnswer() {
        forEachStrategy { ctx in
            let fromDelegate = RecordingAction()
            let delegate = ClosureLayerDelegate { _, _ in fromDelegate }
            let layer = OverridingLayer()
            layer.delegate = delegate
            layer.opacity = 0.4          // the override answers without asking super
            layer.zPosition = 2          // the override calls super: the delegate answers
            XCTAssertEqual(layer.recording.events, ["opacity"], ctx)
            XCTAssertEqual(fromDelegate.events, ["zPosition"], ctx)
            XCTAssertEqual(delegate.askedKeys, ["zPosition"], ctx)
        }
    }

    /// A view's layer whose class overrides `action(forKey:)` is asked first outside
    /// animation blocks too (the lookup's shortcut for views, which answer NSNull there, must
    /// not pass over it); the view's NSNull comes only through `super`.
    func test_viewsLayerOverrideIsAskedOutsideAnimationBlocks() {
        forEachStrategy { ctx in
            let view = OverridingView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            guard let layer = view.layer as? OverridingLayer else { return XCTFail("the view's layerClass. \(ctx)") }
            layer.recording.reset()
            layer.asked = []
            layer.opacity = 0.5          // the override's own action
            layer.zPosition = 3          // super: the view answers NSNull outside blocks
            layer.cornerRadius = 6       // super's animation, which the view's NSNull stops
            XCTAssertEqual(layer.asked, ["opacity", "zPosition", "cornerRadius"], ctx)
            XCTAssertEqual(layer.recording.events, ["opacity"], ctx)
            XCTAssertEqual(animationKeys(of: layer), [], "the view stops super's chain. \(ctx)")
            XCTAssertEqual(layer.zPosition, 3, ctx)
        }
    }

    func test_shapeLayerSubclassOverrideDecidesShapeKeys() {
        forEachStrategy { ctx in
            let layer = OverridingShapeLayer()
            layer.strokeEnd = 0.5
            layer.lineWidth = 3
            XCTAssertEqual(animationKeys(of: layer), ["lineWidth"], "strokeEnd refused by the override. \(ctx)")
        }
    }

    func test_classesOverridingOnlyDefaultActionStillWalkTheChain() {
        forEachStrategy { ctx in
            let layer = DefaultOnlyLayer()
            layer.opacity = 0.5
            XCTAssertEqual(animationKeys(of: layer), [], "defaultAction's NSNull stopped it. \(ctx)")
            layer.zPosition = 3
            XCTAssertEqual(animationKeys(of: layer), ["zPosition"], ctx)
        }
    }
}

/// Answers "opacity", "progress" and "onOrderIn" with its own action, "position" with
/// NSNull, and lengthens super's animation of "cornerRadius"; every key it is asked is kept.
private class OverridingLayer: CALayer {
    let recording = RecordingAction()
    var asked: [String] = []

    override func action(forKey event: String) -> CAAction? {
        asked.append(event)
        switch event {
        case "opacity", "progress", "onOrderIn": return recording
        case "position": return NSNull()
        case "cornerRadius":
            let a = super.action(forKey: event) as? CABasicAnimation
            a?.duration = 2
            a?.timingFunction = CAMediaTimingFunction(name: .linear)
            return a
        default: return super.action(forKey: event)
        }
    }
}

private final class InheritingLayer: OverridingLayer {}

private final class OverridingView: View {
    override class var layerClass: CALayer.Type { OverridingLayer.self }
}

private final class OverridingShapeLayer: CAShapeLayer {
    override func action(forKey event: String) -> CAAction? {
        event == "strokeEnd" ? NSNull() : super.action(forKey: event)
    }
}

private final class DefaultOnlyLayer: CALayer {
    override class func defaultAction(forKey event: String) -> CAAction? {
        event == "opacity" ? NSNull() : super.defaultAction(forKey: event)
    }
}

/// Actions found for a change (not only overrides) start at the value shown before it and end
/// at the new model value, whichever of their endpoints they leave nil.
final class ActionEndpointTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    func test_actionWithOnlyFromValueEndsAtTheNewValue() throws {
        let fadeIn = CABasicAnimation(keyPath: "opacity")
        fadeIn.fromValue = 0
        fadeIn.duration = 1
        let scene = Scene(CALayer()) { $0.actions = ["opacity": fadeIn] }
        CATransaction.begin()
        scene.layer.opacity = 0.8
        CATransaction.commit()
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.4, accuracy: 1e-6,
                       "from 0 to the new value, not back to the old one")
        scene.frame(at: 1.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.8, accuracy: 1e-6)
    }

    func test_customKeyActionStartsFromTheOldValue() throws {
        let anim = CABasicAnimation()
        anim.duration = 1
        let scene = Scene(CALayer()) { layer in
            layer.setValue(1.0, forKey: "progress")
            layer.actions = ["progress": anim]
        }
        scene.frame(at: 0.1)
        CATransaction.begin()
        scene.layer.setValue(3.0, forKey: "progress")
        CATransaction.commit()
        scene.frame(at: 0.6)
        XCTAssertEqual(numericValue(try scene.presented().value(forKey: "progress")) ?? .nan, 2, accuracy: 1e-6)
        let added = try XCTUnwrap(scene.layer.animation(forKey: "progress") as? CABasicAnimation)
        XCTAssertEqual(added.keyPath, "progress")
    }
}

/// A host view's animations show where they started, as a plain layer's implicit ones do.
final class ViewAnimationObjectTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    func test_viewAnimationShowsItsFromValue() throws {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let view = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        root.addSublayer(view.layer)
        renderer.renderFrame(atTime: 0)
        View.animate(withDuration: 1, animations: { view.alpha = 0.2 })
        let first = try XCTUnwrap(view.layer.animation(forKey: "opacity") as? CABasicAnimation)
        XCTAssertEqual(numericValue(first.fromValue) ?? .nan, 1, accuracy: 1e-6)
        renderer.renderFrame(atTime: 0.5)
        let shown = Double(try XCTUnwrap(view.layer.presentation()).opacity)
        // Interrupting the running one: the new animation starts from what is shown.
        View.animate(withDuration: 1, animations: { view.alpha = 1 })
        let second = try XCTUnwrap(view.layer.animation(forKey: "opacity") as? CABasicAnimation)
        XCTAssertEqual(numericValue(second.fromValue) ?? .nan, shown, accuracy: 1e-6)
        XCTAssertLessThan(shown, 0.99)
        XCTAssertGreaterThan(shown, 0.21)
    }
}
