import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// Seed 003 ("implicit and explicit animations"): every code example of its explicit-animation
/// half, ported to Swift as literally as the engine's API allows (UIBezierPath becomes
/// CGMutablePath, UIView becomes View, `-addAnimation:forKey:` becomes `add(_:forKey:)`), with
/// the behaviour the article describes asserted at explicit media times.
///
/// Expected values are worked out here: the seed's cubic Bézier and its tangent by the Bernstein
/// formulas, colours by component-wise interpolation.
final class Seed003Tests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private let blue: [Double] = [0, 0, 1, 1]
    private let red: [Double] = [1, 0, 0, 1]
    private let green: [Double] = [0, 1, 0, 1]
    private let yellow: [Double] = [1, 1, 0, 1]

    private func color(_ c: [Double]) -> CGColor { CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3]) }

    /// The article's setting: a host view (`layerView`) and a 100 x 100 layer in it, blue, at
    /// (150, 150); rendered once at media time 0.
    private func hostedLayer() -> (view: View, layer: CALayer, renderer: CARenderer) {
        let layerView = View(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let renderer = CARenderer(layer: layerView.layer)
        let layer = CALayer()
        withActionsDisabled {
            layer.frame = CGRect(x: 100, y: 100, width: 100, height: 100)
            layer.backgroundColor = color(blue)
            layerView.layer.addSublayer(layer)
        }
        renderer.renderFrame(atTime: 0)
        return (layerView, layer, renderer)
    }

    /// The seed's path: move(0, 150), curve to (300, 150) with controls (75, 0) and (225, 300).
    private func seedBezierPath() -> CGMutablePath {
        let bezierPath = CGMutablePath()
        bezierPath.move(to: CGPoint(x: 0, y: 150))
        bezierPath.addCurve(to: CGPoint(x: 300, y: 150), control1: CGPoint(x: 75, y: 0), control2: CGPoint(x: 225, y: 300))
        return bezierPath
    }

    // MARK: CAKeyframeAnimation: a colour cycle

    func test_seed003_keyframeColourAnimationCyclesBlueRedGreenBlueOverTwoSeconds() throws {
        let (_, layer, renderer) = hostedLayer()

        let animation = CAKeyframeAnimation()
        animation.keyPath = "backgroundColor"
        animation.duration = 2.0
        animation.values = [
            CGColor(red: 0, green: 0, blue: 1, alpha: 1),
            CGColor(red: 1, green: 0, blue: 0, alpha: 1),
            CGColor(red: 0, green: 1, blue: 0, alpha: 1),
            CGColor(red: 0, green: 0, blue: 1, alpha: 1),
        ]
        layer.add(animation, forKey: nil)

        renderer.renderFrame(atTime: 0)  // committed with this frame: starts at 0
        assertColor(layer.presentation()?.backgroundColor, blue, "the first keyframe matches the layer: no jump")
        // Four values over 2 s: keyframes at 0, 2/3, 4/3 and 2 s.
        for (t, expected) in [(1.0 / 3, mix(blue, red, 0.5)), (2.0 / 3, red), (1.0, mix(red, green, 0.5)),
                              (4.0 / 3, green), (1.5, mix(green, blue, 0.25)), (11.0 / 6, mix(green, blue, 0.75))] {
            renderer.renderFrame(atTime: t)
            assertColor(layer.presentation()?.backgroundColor, expected, "at \(t)")
        }
        renderer.renderFrame(atTime: 2)
        assertColor(layer.presentation()?.backgroundColor, blue, "after the last frame: the layer's own colour")
        XCTAssertEqual(animationKeys(of: layer), [])
        assertColor(layer.backgroundColor, blue, "the model never changed")
    }

    // MARK: CAKeyframeAnimation: a Bézier path with rotationMode auto

    func test_seed003_bezierPathAnimationMovesAndTurnsAlongTheCurveForFourSeconds() throws {
        let (_, layer, renderer) = hostedLayer()

        let animation = CAKeyframeAnimation()
        animation.keyPath = "position"
        animation.duration = 4.0
        // set the path
        animation.path = seedBezierPath()
        // turn the layer along the path's tangent
        animation.rotationMode = .rotateAuto
        layer.add(animation, forKey: nil)

        renderer.renderFrame(atTime: 0)
        for t in [0.0, 1, 2, 3, 3.9] {
            renderer.renderFrame(atTime: t)
            let s = t / 4  // one segment, linear mode: the Bézier parameter runs with time
            let p = seedCurve(s), d = seedTangent(s)
            assertPoint(layer.presentation()?.position, p[0], p[1], "at \(t)")
            assertTransform(layer.presentation()?.transform, zRotation(atan2(d[1], d[0])), "at \(t)", accuracy: 1e-6)
        }
        renderer.renderFrame(atTime: 2)
        assertPoint(layer.presentation()?.position, 150, 150, "the curve's midpoint")
        assertTransform(layer.presentation()?.transform, zRotation(atan2(75, 112.5)), "B'(0.5) = 3 (112.5, 75)")

        renderer.renderFrame(atTime: 4)
        assertPoint(layer.presentation()?.position, 150, 150, "back to the model position (the frame's centre)")
        assertTransform(layer.presentation()?.transform, CATransform3DIdentity, "and the model transform")
        XCTAssertEqual(animationKeys(of: layer), [])
    }

    // MARK: CAAnimationGroup: two animations sharing the group's duration

    func test_seed003_groupOfTwoAnimationsRunsThemTogetherForTheGroupsFourSeconds() throws {
        let (_, layer, renderer) = hostedLayer()

        let animation1 = CAKeyframeAnimation()
        animation1.keyPath = "position"
        animation1.path = seedBezierPath()
        animation1.rotationMode = .rotateAuto
        let animation2 = CABasicAnimation()
        animation2.keyPath = "backgroundColor"
        animation2.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

        let groupAnimation = CAAnimationGroup()
        groupAnimation.animations = [animation1, animation2]
        groupAnimation.duration = 4.0
        layer.add(groupAnimation, forKey: "group")

        renderer.renderFrame(atTime: 0)
        XCTAssertEqual(animationKeys(of: layer), ["group"], "one group, not two animations")
        for t in [1.0, 2.5, 3.5] {
            renderer.renderFrame(atTime: t)
            let s = t / 4
            let p = seedCurve(s), d = seedTangent(s)
            assertPoint(layer.presentation()?.position, p[0], p[1], "the path child over the group's 4 s, at \(t)")
            assertTransform(layer.presentation()?.transform, zRotation(atan2(d[1], d[0])), "at \(t)")
            assertColor(layer.presentation()?.backgroundColor, mix(blue, red, s), "the colour child over the same 4 s, at \(t)")
        }
        renderer.renderFrame(atTime: 4)
        XCTAssertEqual(animationKeys(of: layer), [])
        assertColor(layer.presentation()?.backgroundColor, blue)
        assertPoint(layer.presentation()?.position, 150, 150)
    }

    // MARK: CATransition

    func test_seed003_fadeTransitionOnAnImageViewRunsUnderTheTransitionKey() throws {
        let imageView = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let renderer = CARenderer(layer: imageView.layer)
        imageView.layer.contents = FakeImage(name: "old")
        renderer.renderFrame(atTime: 0)
        let image = FakeImage(name: "new")

        let transition = CATransition()
        transition.type = .fade
        // add the transition
        imageView.layer.add(transition, forKey: nil)
        imageView.layer.contents = image  // self.imageView.image = image

        renderer.renderFrame(atTime: 1)  // committed with this frame: starts at 1, the transaction's 0.25 s
        XCTAssertEqual(animationKeys(of: imageView.layer), [kCATransition], "whatever the key, it is kCATransition")
        renderer.renderFrame(atTime: 1.1)
        let state = try XCTUnwrap(imageView.layer.runningTransition)
        XCTAssertEqual(state.type, .fade)
        XCTAssertEqual(state.subtype, .fromLeft, "the default direction")
        XCTAssertEqual(Double(state.progress), 0.4, accuracy: 1e-5, "linear: no timing function")
        XCTAssertIdentical(imageView.layer.presentation()?.contents as AnyObject?, image,
                           "the new image is the content; the renderer cross-fades from the old")
        renderer.renderFrame(atTime: 1.25)
        XCTAssertNil(imageView.layer.runningTransition)
    }

    func test_seed003_pushTransitionOnTheSuperlayerWhenASubviewIsAdded() throws {
        // initialise three views
        let view = View(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        let renderer = CARenderer(layer: view.layer)
        let view1 = View(frame: view.bounds)
        view.addSubview(view1)
        view1.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let view2 = View(frame: view.bounds)
        view2.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        renderer.renderFrame(atTime: 0)

        // add the animation
        let trans = CATransition()
        trans.type = .push
        trans.duration = 3
        // add it to the superlayer
        view.layer.add(trans, forKey: nil)
        view.addSubview(view2)

        renderer.renderFrame(atTime: 0)
        XCTAssertEqual(view.layer.sublayers?.count, 2)
        XCTAssertIdentical(view.layer.sublayers?.last, view2.layer, "the yellow view is on top")
        for t in [0.75, 1.5, 2.7] {
            renderer.renderFrame(atTime: t)
            let state = try XCTUnwrap(view.layer.runningTransition, "at \(t)")
            XCTAssertEqual(state.type, .push)
            XCTAssertEqual(state.subtype, .fromLeft, "the yellow view comes in from the left")
            XCTAssertEqual(Double(state.progress), t / 3, accuracy: 1e-5, "at \(t)")
            XCTAssertEqual(view.layer.presentation()?.runningTransition?.progress, state.progress)
        }
        XCTAssertNil(view1.layer.runningTransition, "the transition is on the superlayer only")
        XCTAssertNil(view2.layer.runningTransition)
        assertColor(view2.layer.presentation()?.backgroundColor, yellow, "a transition changes no property")
        renderer.renderFrame(atTime: 3.5)
        XCTAssertNil(view.layer.runningTransition)
        XCTAssertEqual(animationKeys(of: view.layer), [])
    }

    // MARK: Explicit animations and the model

    func test_seed003_removedOnCompletionFalseAndFillForwardsHoldsTheEndUntilRemoved() throws {
        let view = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let renderer = CARenderer(layer: view.layer)
        view.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        renderer.renderFrame(atTime: 0)

        let animation = CABasicAnimation()
        animation.duration = 2.0
        animation.keyPath = "backgroundColor"
        animation.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        animation.isRemovedOnCompletion = false
        animation.fillMode = .forwards
        view.layer.add(animation, forKey: "colour")
        renderer.renderFrame(atTime: 0)

        renderer.renderFrame(atTime: 1)
        assertColor(view.layer.presentation()?.backgroundColor, mix(blue, red, 0.5))
        renderer.renderFrame(atTime: 2)
        assertColor(view.layer.presentation()?.backgroundColor, red, "stays on the last frame")
        renderer.renderFrame(atTime: 30)
        assertColor(view.layer.presentation()?.backgroundColor, red)
        XCTAssertEqual(animationKeys(of: view.layer), ["colour"], "kept until removed by hand")

        // "while the animation exists, changing the property has no visible effect"
        view.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        renderer.renderFrame(atTime: 31)
        assertColor(view.layer.backgroundColor, yellow)
        assertColor(view.layer.presentation()?.backgroundColor, red)

        // "after removing the animation the view shows its own state"
        view.layer.removeAnimation(forKey: "colour")
        renderer.renderFrame(atTime: 31)
        assertColor(view.layer.presentation()?.backgroundColor, yellow)
    }

    func test_seed003_settingTheModelWithActionsDisabledAfterAddingKeepsTheEndValue() throws {
        let (_, layer, renderer) = hostedLayer()  // a standalone layer: it would animate implicitly
        renderer.renderFrame(atTime: 1)

        let animation = CABasicAnimation()
        animation.duration = 2.0
        animation.keyPath = "backgroundColor"
        animation.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        // the animation's start value
        animation.fromValue = (layer.presentation() ?? layer).value(forKeyPath: animation.keyPath!)
        layer.add(animation, forKey: nil)
        // disable implicit animations, as the documentation advises
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        // set the layer's property to the new value directly
        layer.setValue(animation.toValue, forKeyPath: animation.keyPath!)
        CATransaction.commit()

        renderer.renderFrame(atTime: 1)
        XCTAssertNil(layer.animation(forKey: "backgroundColor"), "no implicit animation")
        assertColor(layer.backgroundColor, red, "the model is red at once")
        assertColor(layer.presentation()?.backgroundColor, blue, "the screen starts from blue")
        renderer.renderFrame(atTime: 1.125)
        assertColor(layer.presentation()?.backgroundColor, mix(blue, red, 0.0625),
                    "the explicit 2 s animation, not a 0.25 s implicit one on top of it")
        renderer.renderFrame(atTime: 2.5)
        assertColor(layer.presentation()?.backgroundColor, mix(blue, red, 0.75))
        renderer.renderFrame(atTime: 3)
        assertColor(layer.presentation()?.backgroundColor, red, "and stays red: the model")
        XCTAssertEqual(animationKeys(of: layer), [])
        renderer.renderFrame(atTime: 4)
        assertColor(layer.presentation()?.backgroundColor, red)
    }

    func test_seed003_removeAnimationSnapsBackToTheModel() throws {
        let (_, layer, renderer) = hostedLayer()
        let recorder = AnimationEventRecorder()

        let animation = CAKeyframeAnimation()
        animation.keyPath = "backgroundColor"
        animation.duration = 2.0
        animation.values = [color(blue), color(red), color(green), color(blue)]
        animation.delegate = recorder
        layer.add(animation, forKey: "cycle")
        renderer.renderFrame(atTime: 0)
        renderer.renderFrame(atTime: 1)
        assertColor(layer.presentation()?.backgroundColor, mix(red, green, 0.5))

        // the animation can be read back, not changed
        let stored = try XCTUnwrap(layer.animation(forKey: "cycle") as? CAKeyframeAnimation)
        XCTAssertFalse(stored === animation)
        XCTAssertEqual(stored.duration, 2)
        XCTAssertEqual(stored.values?.count, 4)

        layer.removeAnimation(forKey: "cycle")
        XCTAssertNil(layer.animation(forKey: "cycle"))
        renderer.renderFrame(atTime: 1)
        assertColor(layer.presentation()?.backgroundColor, blue, "the model's colour at once")
        XCTAssertEqual(recorder.stops, [false])

        layer.add(animation, forKey: "cycle")
        renderer.renderFrame(atTime: 1.5)  // started with this frame
        renderer.renderFrame(atTime: 2)
        assertColor(layer.presentation()?.backgroundColor, mix(blue, red, 0.75))
        layer.removeAllAnimations()
        renderer.renderFrame(atTime: 2)
        assertColor(layer.presentation()?.backgroundColor, blue)
        XCTAssertEqual(animationKeys(of: layer), [])
    }
}

// MARK: - The seed's curve, by the Bernstein formulas

private let seedControlPoints: [[Double]] = [[0, 150], [75, 0], [225, 300], [300, 150]]

private func seedCurve(_ s: Double) -> [Double] {
    let u = 1 - s, p = seedControlPoints
    return (0..<2).map { u * u * u * p[0][$0] + 3 * u * u * s * p[1][$0] + 3 * u * s * s * p[2][$0] + s * s * s * p[3][$0] }
}

private func seedTangent(_ s: Double) -> [Double] {
    let u = 1 - s, p = seedControlPoints
    return (0..<2).map { 3 * u * u * (p[1][$0] - p[0][$0]) + 6 * u * s * (p[2][$0] - p[1][$0]) + 3 * s * s * (p[3][$0] - p[2][$0]) }
}

private func zRotation(_ angle: Double) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = CGFloat(cos(angle))
    t.m12 = CGFloat(sin(angle))
    t.m21 = CGFloat(-sin(angle))
    t.m22 = CGFloat(cos(angle))
    return t
}
