import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// The code examples of the seed articles (shared/seeds/), ported to Swift as literally as the
/// engine's API allows, with the behaviour each article describes asserted at explicit times.
///
/// SEMANTICS.md lists them as examples 1–8. Example 8 needs keyframe, path and group
/// animations, which belong to a later issue; only its "transition on the superlayer when a
/// sublayer is added" part, which needs none of them, is here.
///
/// Where a seed picks a random colour (`arc4random()`), the port uses a fixed colour so the
/// expected values can be computed.
final class SeedExampleTests: XCTestCase {
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

    private let blueRGBA: [Double] = [0, 0, 1, 1]
    /// The colour the seeds pick at random.
    private let randomRGBA: [Double] = [0.2, 0.6, 0.4, 1]

    // MARK: Example 1 — seed 001/004: a standalone colour layer

    func test_seed001_standaloneLayerColourChangeAnimatesOverQuarterSecond() throws {
        // viewDidLoad
        let layerView = View(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let renderer = CARenderer(layer: layerView.layer)
        let colorLayer = CALayer()
        colorLayer.frame = CGRect(x: 50.0, y: 50.0, width: 100.0, height: 100.0)
        colorLayer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        layerView.layer.addSublayer(colorLayer)
        renderer.renderFrame(atTime: 0)
        renderer.renderFrame(atTime: 1)  // whatever viewDidLoad started has ended by now
        assertColor(colorLayer.presentation()?.backgroundColor, blueRGBA)

        // changeColor
        let red: CGFloat = 0.2, green: CGFloat = 0.6, blue: CGFloat = 0.4
        colorLayer.backgroundColor = CGColor(red: red, green: green, blue: blue, alpha: 1.0)

        assertColor(colorLayer.backgroundColor, randomRGBA, "the model changes at once")
        renderer.renderFrame(atTime: 2)  // commits the implicit transaction: the fade starts at 2
        XCTAssertEqual(animationKeys(of: colorLayer), ["backgroundColor"])
        assertColor(colorLayer.presentation()?.backgroundColor, blueRGBA, "still the old colour at the start")

        renderer.renderFrame(atTime: 2.1)
        let p = ReferenceCurve.caDefault.progress(atFraction: 0.1 / 0.25)
        assertColor(colorLayer.presentation()?.backgroundColor, mix(blueRGBA, randomRGBA, p))

        renderer.renderFrame(atTime: 2.25)
        assertColor(colorLayer.presentation()?.backgroundColor, randomRGBA, "0.25 s later the fade is over")
        XCTAssertEqual(animationKeys(of: colorLayer), [])
    }

    func test_seed004_colourChangeInOneSecondTransactionAnimatesOverOneSecond() throws {
        let layerView = View(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let renderer = CARenderer(layer: layerView.layer)
        let colorLayer = CALayer()
        colorLayer.frame = CGRect(x: 50.0, y: 50.0, width: 100.0, height: 100.0)
        colorLayer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        layerView.layer.addSublayer(colorLayer)
        renderer.renderFrame(atTime: 0)
        renderer.renderFrame(atTime: 1)

        // begin a new transaction, set the animation duration to 1 second
        CATransaction.begin()
        CATransaction.setAnimationDuration(1.0)
        colorLayer.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 0.4, alpha: 1.0)
        CATransaction.commit()  // at media time 1

        renderer.renderFrame(atTime: 1.25)
        let quarter = ReferenceCurve.caDefault.progress(atFraction: 0.25)
        assertColor(colorLayer.presentation()?.backgroundColor, mix(blueRGBA, randomRGBA, quarter),
                    "a quarter of the way through a 1 s fade, not the end of a 0.25 s one")
        renderer.renderFrame(atTime: 1.5)
        let half = ReferenceCurve.caDefault.progress(atFraction: 0.5)
        assertColor(colorLayer.presentation()?.backgroundColor, mix(blueRGBA, randomRGBA, half))
        renderer.renderFrame(atTime: 2)
        assertColor(colorLayer.presentation()?.backgroundColor, randomRGBA)
        XCTAssertEqual(animationKeys(of: colorLayer), [])
    }

    // MARK: Example 2 — seed 004: a view's backing layer

    func test_seed004_viewBackingLayerDoesNotAnimateOutsideAnimationBlock() throws {
        // Listing 7.4: set the colour of the view's backing layer directly.
        let layerView = View(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let renderer = CARenderer(layer: layerView.layer)
        layerView.layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        renderer.renderFrame(atTime: 0)
        assertColor(layerView.layer.presentation()?.backgroundColor, blueRGBA, "the view's layer never animated")

        CATransaction.begin()
        CATransaction.setAnimationDuration(1.0)
        layerView.layer.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 0.4, alpha: 1.0)
        CATransaction.commit()

        XCTAssertEqual(animationKeys(of: layerView.layer), [], "the view (the layer's delegate) returned NSNull")
        renderer.renderFrame(atTime: 0.5)
        assertColor(layerView.layer.presentation()?.backgroundColor, randomRGBA, "the colour switched at once")
    }

    func test_seed004_viewReturnsNSNullOutsideAndBasicAnimationInsideAnimationBlock() {
        // Listing 7.5: "Outside: <null>", "Inside: <CABasicAnimation>".
        let layerView = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let outside = layerView.action(for: layerView.layer, forKey: "backgroundColor")
        XCTAssertTrue(outside is NSNull, "Outside: \(String(describing: outside))")

        var inside: CAAction?
        View.animate(withDuration: 1.0, animations: {
            inside = layerView.action(for: layerView.layer, forKey: "backgroundColor")
        }, completion: { _ in })
        XCTAssertTrue(inside is CABasicAnimation, "Inside: \(String(describing: inside))")

        let after = layerView.action(for: layerView.layer, forKey: "backgroundColor")
        XCTAssertTrue(after is NSNull, "outside the block again: \(String(describing: after))")
        XCTAssertIdentical(layerView.layer.delegate as AnyObject?, layerView, "a view is its layer's delegate")
    }

    func test_seed004_viewBackingLayerAnimatesInsideAnimationBlockWithEaseInEaseOut() {
        let layerView = View(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let renderer = CARenderer(layer: layerView.layer)
        layerView.layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        renderer.renderFrame(atTime: 0)

        var completions: [Bool] = []
        View.animate(withDuration: 1.0, animations: {
            layerView.layer.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 0.4, alpha: 1.0)
        }, completion: { finished in completions.append(finished) })
        // Whether the block commits its own transaction or the implicit one, it starts at 0.
        renderer.renderFrame(atTime: 0)
        XCTAssertEqual(animationKeys(of: layerView.layer), ["backgroundColor"])
        assertColor(layerView.layer.presentation()?.backgroundColor, blueRGBA)

        renderer.renderFrame(atTime: 0.3)
        let p = ReferenceCurve.easeInEaseOut.progress(atFraction: 0.3)
        assertColor(layerView.layer.presentation()?.backgroundColor, mix(blueRGBA, randomRGBA, p),
                    "a view's animation block uses easeInEaseOut over its duration")
        XCTAssertEqual(completions, [], "completion waits for the animation")

        renderer.renderFrame(atTime: 1.0)
        assertColor(layerView.layer.presentation()?.backgroundColor, randomRGBA)
        XCTAssertEqual(completions, [true])
        renderer.renderFrame(atTime: 2.0)
        XCTAssertEqual(completions, [true], "completion runs once")
    }

    func test_seed004_setDisableActionsStopsStandaloneLayerAnimation() {
        // Listing 7.2 with [CATransaction setDisableActions:YES] after begin.
        let layerView = View(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let renderer = CARenderer(layer: layerView.layer)
        let colorLayer = CALayer()
        colorLayer.frame = CGRect(x: 50.0, y: 50.0, width: 100.0, height: 100.0)
        colorLayer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        layerView.layer.addSublayer(colorLayer)
        renderer.renderFrame(atTime: 0)
        renderer.renderFrame(atTime: 1)

        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.setAnimationDuration(1.0)
        colorLayer.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 0.4, alpha: 1.0)
        CATransaction.commit()

        XCTAssertEqual(animationKeys(of: colorLayer), [])
        renderer.renderFrame(atTime: 1.1)
        assertColor(colorLayer.presentation()?.backgroundColor, randomRGBA)
    }

    // MARK: Example 3 — seed 004 listing 7.6 / seed 003: a push transition as the colour action

    func test_seed004_pushTransitionInActionsReplacesColourFade() throws {
        let layerView = View(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let renderer = CARenderer(layer: layerView.layer)
        // viewDidLoad
        let colorLayer = CALayer()
        colorLayer.frame = CGRect(x: 50.0, y: 50.0, width: 100.0, height: 100.0)
        colorLayer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        // add a custom action
        let transition = CATransition()
        transition.type = .push
        transition.subtype = .fromLeft
        colorLayer.actions = ["backgroundColor": transition]
        layerView.layer.addSublayer(colorLayer)
        renderer.renderFrame(atTime: 0)
        renderer.renderFrame(atTime: 1)

        XCTAssertIdentical(colorLayer.action(forKey: "backgroundColor") as AnyObject?, transition)

        // changeColor
        colorLayer.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 0.4, alpha: 1.0)
        renderer.renderFrame(atTime: 2)

        XCTAssertEqual(animationKeys(of: colorLayer), [kCATransition],
                       "the transition runs under kCATransition, and no colour animation is added")
        let running = try XCTUnwrap(colorLayer.animation(forKey: kCATransition) as? CATransition)
        XCTAssertEqual(running.type, .push)
        XCTAssertEqual(running.subtype, .fromLeft)
        renderer.renderFrame(atTime: 2.1)
        assertColor(colorLayer.presentation()?.backgroundColor, randomRGBA,
                    "the colour itself does not fade: the transition carries the change")
        renderer.renderFrame(atTime: 2.25)
        XCTAssertEqual(animationKeys(of: colorLayer), [], "the transition took the transaction's 0.25 s")
    }

    // MARK: Example 4 — seed 003: a completion block that rotates the layer

    func test_seed003_completionBlockRotatesLayerAfterOneSecondColourChange() throws {
        let host = View(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        let renderer = CARenderer(layer: host.layer)
        let layer = CALayer()
        layer.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        host.layer.addSublayer(layer)
        renderer.renderFrame(atTime: 0)
        renderer.renderFrame(atTime: 1)

        var completionRuns = 0
        // add a new transaction
        CATransaction.begin()
        // set the animation duration to 1 second
        CATransaction.setAnimationDuration(1.0)
        // add the action to run when the animation ends
        CATransaction.setCompletionBlock {
            completionRuns += 1
            // rotate by 90 degrees
            var transform = layer.affineTransform()
            transform = transform.rotated(by: .pi / 2)
            layer.setAffineTransform(transform)
        }
        // set the layer's colour to blue
        layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        // commit the transaction
        CATransaction.commit()  // at media time 1

        renderer.renderFrame(atTime: 1.5)
        XCTAssertEqual(completionRuns, 0)
        assertColor(layer.presentation()?.backgroundColor,
                    mix([1, 0, 0, 1], blueRGBA, ReferenceCurve.caDefault.progress(atFraction: 0.5)))
        assertTransform(layer.transform, CATransform3DIdentity, "no rotation before the colour change ends")

        renderer.renderFrame(atTime: 2)
        XCTAssertEqual(completionRuns, 1, "the block ran when the 1 s colour change ended")
        assertColor(layer.presentation()?.backgroundColor, blueRGBA)
        let model = layer.affineTransform()
        XCTAssertEqual(Double(model.a), 0, accuracy: 1e-9)
        XCTAssertEqual(Double(model.b), 1, accuracy: 1e-9)
        XCTAssertEqual(Double(model.c), -1, accuracy: 1e-9)
        XCTAssertEqual(Double(model.d), 0, accuracy: 1e-9)
        assertTransform(layer.presentation()?.transform, CATransform3DIdentity,
                        "the rotation is not committed yet when the frame that ran the block was rendered")

        // The rotation was made in a new implicit transaction: it animates from the next frame.
        renderer.renderFrame(atTime: 2.5)
        XCTAssertEqual(animationKeys(of: layer), ["transform"])
        assertTransform(layer.presentation()?.transform, CATransform3DIdentity)
        renderer.renderFrame(atTime: 2.75)
        assertTransform(layer.presentation()?.transform, CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
        XCTAssertEqual(completionRuns, 1)
    }

    // MARK: Example 5 — seed 000: NSNull actions on a CAShapeLayer, then an explicit animation

    func test_seed000_nsNullActionsDisableStrokeAndTransformAnimations() throws {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let layer = CAShapeLayer()
        layer.actions = [
            "strokeStart": NSNull(),
            "strokeEnd": NSNull(),
            "transform": NSNull(),
        ]
        root.addSublayer(layer)
        renderer.renderFrame(atTime: 0)

        layer.strokeStart = 0.2
        layer.strokeEnd = 0.7
        layer.transform = CATransform3DMakeScale(2, 2, 1)
        layer.lineWidth = 4  // not disabled: still animates
        renderer.renderFrame(atTime: 1)

        XCTAssertEqual(animationKeys(of: layer), ["lineWidth"])
        let presented = try XCTUnwrap(layer.presentation())
        XCTAssertEqual(Double(presented.strokeStart), 0.2, accuracy: 1e-9)
        XCTAssertEqual(Double(presented.strokeEnd), 0.7, accuracy: 1e-9)
        assertTransform(presented.transform, CATransform3DMakeScale(2, 2, 1))
        XCTAssertEqual(Double(presented.lineWidth), 1, accuracy: 1e-9, "lineWidth starts its fade at 1")
        XCTAssertNil(layer.action(forKey: "strokeStart"))
        XCTAssertTrue(layer.action(forKey: "lineWidth") is CABasicAnimation)
    }

    func test_seed000_explicitStrokeStartAnimationStillRuns() throws {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let layer = CAShapeLayer()
        layer.actions = [
            "strokeStart": NSNull(),
            "strokeEnd": NSNull(),
            "transform": NSNull(),
        ]
        layer.strokeStart = 0.2
        root.addSublayer(layer)
        renderer.renderFrame(atTime: 0)

        let kAnimationToValue: CGFloat = 0.8
        let strokeStart = CABasicAnimation(keyPath: "strokeStart")
        strokeStart.toValue = kAnimationToValue
        strokeStart.duration = 1
        layer.add(strokeStart, forKey: strokeStart.keyPath!)

        renderer.renderFrame(atTime: 1)  // added outside a transaction: starts with this frame
        XCTAssertEqual(animationKeys(of: layer), ["strokeStart"])
        XCTAssertEqual(Double(try XCTUnwrap(layer.presentation()).strokeStart), 0.2, accuracy: 1e-6)
        renderer.renderFrame(atTime: 1.5)
        XCTAssertEqual(Double(try XCTUnwrap(layer.presentation()).strokeStart), lerp(0.2, 0.8, 0.5), accuracy: 1e-6)
        XCTAssertEqual(Double(layer.strokeStart), 0.2, accuracy: 1e-12, "an explicit animation leaves the model alone")
        renderer.renderFrame(atTime: 2)
        XCTAssertEqual(Double(try XCTUnwrap(layer.presentation()).strokeStart), 0.2, accuracy: 1e-6)
        XCTAssertEqual(animationKeys(of: layer), [])
    }

    // MARK: Example 6 — seed 002: a delegate that returns a transition for `contents`

    func test_seed002_delegateReturnsTransitionForContents() throws {
        let view = ContentsTransitionView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let renderer = CARenderer(layer: view.layer)
        renderer.renderFrame(atTime: 0)

        let found = view.layer.action(forKey: "contents")
        XCTAssertTrue(found is CATransition, "the layer's lookup asks the view first: \(String(describing: found))")

        view.layer.contents = FakeImage(name: "next")
        renderer.renderFrame(atTime: 1)
        XCTAssertEqual(animationKeys(of: view.layer), [kCATransition])
        let running = try XCTUnwrap(view.layer.animation(forKey: kCATransition) as? CATransition)
        XCTAssertEqual(running.type, .push)
        XCTAssertEqual(running.subtype, .fromRight)
        XCTAssertEqual(running.duration, 1.0)
        XCTAssertEqual(controlPoints(of: running.timingFunction), [0, 0, 0.42, 0, 1, 1, 1, 1])
        renderer.renderFrame(atTime: 1.9)
        XCTAssertEqual(animationKeys(of: view.layer), [kCATransition], "the transition lasts its own 1 s")
        renderer.renderFrame(atTime: 2)
        XCTAssertEqual(animationKeys(of: view.layer), [])
    }

    func test_seed002_delegateDefersOtherKeysToSuper() {
        let view = ContentsTransitionView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let renderer = CARenderer(layer: view.layer)
        renderer.renderFrame(atTime: 0)

        XCTAssertTrue(view.action(for: view.layer, forKey: "opacity") is NSNull,
                      "super (View) answers NSNull outside an animation block")
        view.layer.opacity = 0.5
        renderer.renderFrame(atTime: 1)
        XCTAssertEqual(animationKeys(of: view.layer), [])
        XCTAssertEqual(Double(view.layer.presentation()?.opacity ?? -1), 0.5, accuracy: 1e-6)

        View.animate(withDuration: 1.0, animations: { view.layer.opacity = 1 }, completion: { _ in })
        renderer.renderFrame(atTime: 1)
        XCTAssertEqual(animationKeys(of: view.layer), ["opacity"], "super (View) answers an animation inside a block")
        renderer.renderFrame(atTime: 1.5)
        let p = ReferenceCurve.easeInEaseOut.progress(atFraction: 0.5)
        XCTAssertEqual(Double(view.layer.presentation()?.opacity ?? -1), lerp(0.5, 1, p), accuracy: 1e-6)
    }

    func test_seed002_disableActionsKeepsRemoveFromSuperlayerSilent() {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let layer = CALayer()
        let orderOut = RecordingAction()
        layer.actions = [kCAOnOrderOut: orderOut]
        root.addSublayer(layer)
        renderer.renderFrame(atTime: 0)

        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.removeFromSuperlayer()  // does not trigger the implicit animation
        CATransaction.commit()

        XCTAssertEqual(orderOut.events, [])
        XCTAssertEqual(root.sublayers?.count ?? 0, 0)
    }

    // MARK: Example 7 — seed 003: explicit animations and the model

    func test_seed003_explicitAnimationSnapsBackToModelWhenDone() {
        // "the view goes from blue to red in 2 s, then jumps back to blue"
        let view = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let renderer = CARenderer(layer: view.layer)
        view.layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        renderer.renderFrame(atTime: 0)

        let animation = CABasicAnimation(keyPath: "backgroundColor")
        animation.duration = 2.0
        animation.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        view.layer.add(animation, forKey: nil)
        renderer.renderFrame(atTime: 0)  // committed with this frame: starts at 0

        renderer.renderFrame(atTime: 1)
        assertColor(view.layer.presentation()?.backgroundColor, [0.5, 0, 0.5, 1], "linear: no timing function")
        assertColor(view.layer.backgroundColor, blueRGBA, "the model never changed")
        renderer.renderFrame(atTime: 2)
        assertColor(view.layer.presentation()?.backgroundColor, blueRGBA, "back to the model colour")
    }

    func test_seed003_removedOnCompletionFalseAndFillForwardsHoldsEndValue() {
        let view = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let renderer = CARenderer(layer: view.layer)
        view.layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        renderer.renderFrame(atTime: 0)

        let animation = CABasicAnimation(keyPath: "backgroundColor")
        animation.duration = 2.0
        animation.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        animation.isRemovedOnCompletion = false
        animation.fillMode = .forwards
        view.layer.add(animation, forKey: nil)
        renderer.renderFrame(atTime: 0)

        renderer.renderFrame(atTime: 2)
        assertColor(view.layer.presentation()?.backgroundColor, [1, 0, 0, 1])
        renderer.renderFrame(atTime: 5)
        assertColor(view.layer.presentation()?.backgroundColor, [1, 0, 0, 1], "held after the end")
        assertColor(view.layer.backgroundColor, blueRGBA, "while the model is still blue")

        // "after removing the animation the view returns to its original state"
        view.layer.removeAllAnimations()
        renderer.renderFrame(atTime: 5)
        assertColor(view.layer.presentation()?.backgroundColor, blueRGBA)
    }

    func test_seed003_settingModelBeforeAddingAnimationKeepsEndValue() throws {
        let view = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let renderer = CARenderer(layer: view.layer)
        view.layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        renderer.renderFrame(atTime: 0)

        let animation = CABasicAnimation(keyPath: "backgroundColor")
        animation.duration = 2.0
        animation.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        // set the animation's start value
        animation.fromValue = (view.layer.presentation() ?? view.layer).value(forKeyPath: animation.keyPath!)
        view.layer.add(animation, forKey: nil)
        // set the layer's property to the new value directly
        view.layer.setValue(animation.toValue, forKeyPath: animation.keyPath!)

        assertColor(try XCTUnwrap(animation.fromValue as? CGColor), blueRGBA, "fromValue read from the presentation layer")
        assertColor(view.layer.backgroundColor, [1, 0, 0, 1], "the model is red at once")
        renderer.renderFrame(atTime: 0)
        assertColor(view.layer.presentation()?.backgroundColor, blueRGBA, "but the screen starts from blue")
        renderer.renderFrame(atTime: 1)
        assertColor(view.layer.presentation()?.backgroundColor, [0.5, 0, 0.5, 1])
        renderer.renderFrame(atTime: 2)
        assertColor(view.layer.presentation()?.backgroundColor, [1, 0, 0, 1], "and it stays red after the end")
        renderer.renderFrame(atTime: 3)
        assertColor(view.layer.presentation()?.backgroundColor, [1, 0, 0, 1])
    }

    // MARK: Example 8 (the part without keyframes, paths or groups) — seed 003

    func test_seed003_transitionOnSuperlayerIsAddedUnderTransitionKey() throws {
        // initialise three views
        let view = View(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        let renderer = CARenderer(layer: view.layer)
        let view1 = View(frame: view.layer.bounds)
        view.addSubview(view1)
        view1.layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let view2 = View(frame: view.layer.bounds)
        view2.layer.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        renderer.renderFrame(atTime: 0)

        // add the animation
        let trans = CATransition()
        trans.type = .push
        trans.duration = 3
        // add it to the superlayer, under any key: it is stored under kCATransition
        view.layer.add(trans, forKey: nil)
        view.addSubview(view2)

        XCTAssertEqual(view.layer.sublayers?.count, 2)
        XCTAssertIdentical(view.layer.sublayers?.last, view2.layer)
        renderer.renderFrame(atTime: 0)
        XCTAssertEqual(animationKeys(of: view.layer), [kCATransition])
        let running = try XCTUnwrap(view.layer.animation(forKey: kCATransition) as? CATransition)
        XCTAssertEqual(running.type, .push)
        renderer.renderFrame(atTime: 2.9)
        XCTAssertEqual(animationKeys(of: view.layer), [kCATransition])
        renderer.renderFrame(atTime: 3)
        XCTAssertEqual(animationKeys(of: view.layer), [])
    }
}

/// Seed 002's view: a `CATransition` for `contents`, the default behaviour for every other key.
private final class ContentsTransitionView: View {
    override func action(for layer: CALayer, forKey event: String) -> CAAction? {
        guard event == "contents" else {
            return super.action(for: layer, forKey: event)
        }

        let anim = CATransition()
        anim.duration = 1.0
        anim.timingFunction = CAMediaTimingFunction(name: .easeIn)
        anim.type = .push
        anim.subtype = .fromRight
        return anim
    }
}
