import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// Animations of key paths into values (`position.x`, `bounds.size.width`,
/// `transform.rotation.z`, `transform.scale`, `transform.translation.x`) and of custom keys; how
/// several animations of one property compose (`isAdditive`, `isCumulative`); and re-targeting an
/// implicit animation mid-flight from the presentation value, for every value width.
final class KeyPathAndCompositionTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private func basic(_ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil, duration: Double = 1) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.byValue = by
        animation.duration = duration
        return animation
    }

    private func add(_ animation: CAAnimation, to layer: CALayer, forKey key: String) {
        inTransaction { layer.add(animation, forKey: key) }
    }

    /// A layer with the given model transform, rendered once, for comparing key-path setters.
    private func layer(withTransform transform: CATransform3D) -> CALayer {
        let layer = CALayer()
        withActionsDisabled { layer.transform = transform }
        return layer
    }

    // MARK: Key paths into values

    func test_positionXKeyframesAnimateXWhileYFollowsTheModel() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 5, y: 7) }
        let slide = CAKeyframeAnimation(keyPath: "position.x")
        slide.values = [0.0, 100.0, 50.0]
        slide.duration = 1
        add(slide, to: scene.layer, forKey: "slide")
        scene.frame(at: 0.25)
        assertPoint(try scene.presented().position, 50, 7)
        withActionsDisabled { scene.layer.position = CGPoint(x: 5, y: 77) }
        scene.frame(at: 0.75)
        assertPoint(try scene.presented().position, 75, 77, "y is the model's, whatever it becomes")
        scene.frame(at: 1)
        assertPoint(try scene.presented().position, 5, 77)
    }

    func test_boundsSizeWidthAnimatesOnlyTheWidth() throws {
        let scene = Scene(CALayer()) { $0.bounds = CGRect(x: 5, y: 6, width: 100, height: 50) }
        add(basic("bounds.size.width", from: 100.0, to: 300.0), to: scene.layer, forKey: "widen")
        scene.frame(at: 0.5)
        XCTAssertEqual(try scene.presented().bounds, CGRect(x: 5, y: 6, width: 200, height: 50))
        XCTAssertEqual(scene.layer.bounds, CGRect(x: 5, y: 6, width: 100, height: 50), "the model is untouched")
    }

    func test_transformRotationZAnimationMatchesSettingTheKeyPath() throws {
        let model = CATransform3D(m11: 2, m12: 0, m13: 0, m14: 0, m21: 0, m22: 3, m23: 0, m24: 0,
                                  m31: 0, m32: 0, m33: 1, m34: 0, m41: 10, m42: 20, m43: 0, m44: 1)
        let scene = Scene(CALayer()) { $0.transform = model }
        add(basic("transform.rotation.z", from: 0.0, to: Double.pi / 2), to: scene.layer, forKey: "spin")
        for (t, angle) in [(0.5, Double.pi / 4), (0.25, Double.pi / 8)] {
            scene.frame(at: t)
            let reference = layer(withTransform: model)
            reference.setValue(angle, forKeyPath: "transform.rotation.z")
            assertTransform(try scene.presented().transform, reference.transform, "at \(t)", accuracy: 1e-9)
        }
        assertTransform(scene.layer.transform, model, "the model is untouched")
    }

    func test_transformRotationZKeepsTheModelsTranslation() throws {
        let scene = Scene(CALayer()) { $0.transform = CATransform3DMakeTranslation(30, 40, 0) }
        add(basic("transform.rotation.z", from: 0.0, to: Double.pi / 2), to: scene.layer, forKey: "spin")
        scene.frame(at: 0.5)
        var expected = zRotation(.pi / 4)
        expected.m41 = 30
        expected.m42 = 40
        assertTransform(try scene.presented().transform, expected)
    }

    func test_transformRotationZReplacesTheModelsRotation() throws {
        let scene = Scene(CALayer()) { $0.transform = CATransform3DMakeRotation(1, 0, 0, 1) }
        add(basic("transform.rotation.z", from: 0.0, to: 0.5), to: scene.layer, forKey: "spin")
        scene.frame(at: 0.5)
        assertTransform(try scene.presented().transform, zRotation(0.25), "the animated angle, not 1 + 0.25")
        scene.frame(at: 1)
        assertTransform(try scene.presented().transform, zRotation(1), "back to the model's rotation")
    }

    func test_transformScaleAnimationMatchesSettingTheKeyPath() throws {
        let model = CATransform3DMakeTranslation(4, 5, 0)
        let scene = Scene(CALayer()) { $0.transform = model }
        add(basic("transform.scale", from: 1.0, to: 3.0), to: scene.layer, forKey: "grow")
        scene.frame(at: 0.5)
        let presented = try scene.presented().transform
        let reference = layer(withTransform: model)
        reference.setValue(2.0, forKeyPath: "transform.scale")
        assertTransform(presented, reference.transform, accuracy: 1e-9)
        XCTAssertEqual(Double(presented.m11), 2, accuracy: 1e-9)
        XCTAssertEqual(Double(presented.m22), 2, accuracy: 1e-9)
        XCTAssertEqual(Double(presented.m41), 4, accuracy: 1e-9, "the translation stays the model's")
    }

    func test_transformTranslationXAnimationMatchesSettingTheKeyPath() throws {
        let model = CATransform3DMakeRotation(0.3, 0, 0, 1)
        let scene = Scene(CALayer()) { $0.transform = model }
        add(basic("transform.translation.x", from: 0.0, to: 100.0), to: scene.layer, forKey: "shift")
        scene.frame(at: 0.5)
        let presented = try scene.presented().transform
        var expected = zRotation(0.3)
        expected.m41 = 50
        assertTransform(presented, expected)
        let reference = layer(withTransform: model)
        reference.setValue(50.0, forKeyPath: "transform.translation.x")
        assertTransform(presented, reference.transform, accuracy: 1e-9)
    }

    // MARK: Custom keys

    func test_customKeyAnimatesAndKeepsTheModelsSwiftType() throws {
        let scene = Scene(CALayer()) { layer in
            layer.setValue(0.0, forKey: "progress")
            layer.setValue(CGFloat(1), forKey: "weight")
        }
        add(basic("progress", from: 0.0, to: 1.0), to: scene.layer, forKey: "progress")
        add(basic("weight", from: CGFloat(1), to: CGFloat(3)), to: scene.layer, forKey: "weight")
        scene.frame(at: 0.25)
        let progress = try XCTUnwrap(try scene.presented().value(forKey: "progress"))
        XCTAssertTrue(type(of: progress) == Double.self, "a Double model gives a Double: \(type(of: progress))")
        XCTAssertEqual(progress as? Double ?? -1, 0.25, accuracy: 1e-9)
        let weight = try XCTUnwrap(try scene.presented().value(forKey: "weight"))
        XCTAssertTrue(type(of: weight) == CGFloat.self, "a CGFloat model gives a CGFloat: \(type(of: weight))")
        XCTAssertEqual(Double(weight as? CGFloat ?? -1), 1.5, accuracy: 1e-9)
        XCTAssertEqual(scene.layer.value(forKey: "progress") as? Double, 0, "the model is untouched")
        scene.frame(at: 1)
        XCTAssertEqual(try scene.presented().value(forKey: "progress") as? Double, 0, "the model value after the end")
    }

    func test_customKeyAnimationStartsFromTheValueShownNotANewModelValue() throws {
        // SEMANTICS.md's table: `by` (and `to`) alone start from the current value, the one
        // on screen, as for built-in properties: a model change in the same transaction is
        // not yet shown.
        let scene = Scene(CALayer()) { $0.setValue(2.0, forKey: "progress") }
        withActionsDisabled {
            scene.layer.setValue(9.0, forKey: "progress")
            scene.layer.add(basic("progress", by: 4.0), forKey: "nudge")
        }
        scene.frame(at: 0.5)
        XCTAssertEqual(try scene.presented().value(forKey: "progress") as? Double ?? -1, 4, accuracy: 1e-9, "2 -> 6, halfway")
        scene.frame(at: 2)
        XCTAssertEqual(try scene.presented().value(forKey: "progress") as? Double, 9, "the model after the end")
    }

    func test_customKeyActionAnimationStartsFromTheValueShownBeforeTheChange() throws {
        let scene = Scene(CALayer()) { $0.setValue(10.0, forKey: "progress") }
        let delegate = ClosureLayerDelegate { _, key in
            guard key == "progress" else { return nil }
            let a = CABasicAnimation()
            a.duration = 1
            return a
        }
        scene.layer.delegate = delegate
        inTransaction { scene.layer.setValue(20.0, forKey: "progress") }
        scene.frame(at: 0.25)
        XCTAssertEqual(try scene.presented().value(forKey: "progress") as? Double ?? -1, 12.5, accuracy: 1e-9, "10 -> 20, a quarter")
        XCTAssertEqual(delegate.askedKeys, ["progress"])
    }

    func test_customKeyKeyframesInterpolate() throws {
        let scene = Scene(CALayer()) { $0.setValue(0.0, forKey: "progress") }
        let steps = CAKeyframeAnimation(keyPath: "progress")
        steps.values = [0.0, 10.0, 4.0]
        steps.duration = 2
        add(steps, to: scene.layer, forKey: "steps")
        scene.frame(at: 1.5)
        XCTAssertEqual(try scene.presented().value(forKey: "progress") as? Double ?? -1, 7, accuracy: 1e-9)
    }

    // MARK: Additive and cumulative

    func test_additiveAnimationAddsToTheModelValue() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 100, y: 100) }
        let offset = basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 50, y: -20))
        offset.isAdditive = true
        add(offset, to: scene.layer, forKey: "offset")
        scene.frame(at: 0.5)
        assertPoint(try scene.presented().position, 125, 90)
        scene.frame(at: 1)
        assertPoint(try scene.presented().position, 100, 100)
    }

    func test_animationsApplyInKeyOrderSoANonAdditiveOneHidesEarlierAdditiveOnes() throws {
        let scene = Scene(CALayer()) { $0.cornerRadius = 1 }
        let wobble = basic("cornerRadius", from: 0.0, to: 4.0)
        wobble.isAdditive = true
        let nudge = basic("cornerRadius", from: 0.0, to: 2.0)
        nudge.isAdditive = true
        add(wobble, to: scene.layer, forKey: "wobble")
        add(basic("cornerRadius", from: 10.0, to: 20.0), to: scene.layer, forKey: "main")
        add(nudge, to: scene.layer, forKey: "nudge")
        XCTAssertEqual(animationKeys(of: scene.layer), ["wobble", "main", "nudge"])
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 15 + 1, accuracy: 1e-9,
                       "in key order: wobble adds to the model, main replaces that, nudge adds to main's value")
        scene.layer.removeAnimation(forKey: "main")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 1 + 2 + 1, accuracy: 1e-9, "on the model again")
    }

    func test_lastNonAdditiveAnimationWins() throws {
        let scene = Scene(CALayer())
        add(basic("cornerRadius", from: 0.0, to: 10.0), to: scene.layer, forKey: "first")
        add(basic("cornerRadius", from: 100.0, to: 200.0), to: scene.layer, forKey: "second")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 150, accuracy: 1e-9)
        scene.layer.removeAnimation(forKey: "second")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 5, accuracy: 1e-9)
    }

    func test_additiveKeyframeShakeOffsetsTheModelPosition() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 50, y: 60) }
        let shake = CAKeyframeAnimation(keyPath: "position.x")
        shake.values = [0.0, 10.0, -10.0, 0.0]
        shake.duration = 0.6
        shake.isAdditive = true
        add(shake, to: scene.layer, forKey: "shake")
        for (t, x) in [(0.1, 55.0), (0.3, 50.0), (0.35, 45.0), (0.5, 45.0)] {
            scene.frame(at: t)
            assertPoint(try scene.presented().position, x, 60, "at \(t)")
        }
    }

    func test_cumulativeBasicAnimationAddsEachIterationsDelta() throws {
        let scene = Scene(CALayer())
        let climb = basic("cornerRadius", from: 2.0, to: 12.0)
        climb.repeatCount = 3
        climb.isCumulative = true
        climb.fillMode = .forwards
        climb.isRemovedOnCompletion = false
        add(climb, to: scene.layer, forKey: "climb")
        for (t, value) in [(0.5, 7.0), (1.5, 17.0), (2.5, 27.0), (2.99, 31.9)] {
            scene.frame(at: t)
            XCTAssertEqual(Double(try scene.presented().cornerRadius), value, accuracy: 1e-6, "at \(t)")
        }
        scene.frame(at: 4)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 32, accuracy: 1e-6, "the third iteration's end, held")
    }

    func test_cumulativeKeyframeAnimationAddsLastMinusFirst() throws {
        let scene = Scene(CALayer())
        let steps = CAKeyframeAnimation(keyPath: "cornerRadius")
        steps.values = [1.0, 6.0, 4.0]
        steps.duration = 1
        steps.repeatCount = 3
        steps.isCumulative = true
        add(steps, to: scene.layer, forKey: "steps")
        for (t, value) in [(0.25, 3.5), (1.25, 6.5), (2.75, 11.0)] {
            scene.frame(at: t)
            XCTAssertEqual(Double(try scene.presented().cornerRadius), value, accuracy: 1e-6, "at \(t)")
        }
    }

    func test_cumulativePointAnimationAddsPerLane() throws {
        let scene = Scene(CALayer())
        let walk = basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 10, y: 5))
        walk.repeatCount = 2
        walk.isCumulative = true
        add(walk, to: scene.layer, forKey: "walk")
        scene.frame(at: 1.5)
        assertPoint(try scene.presented().position, 15, 7.5)
    }

    // MARK: Re-targeting an implicit animation from the presentation value

    /// The default curve at 0.1 s of a 0.25 s implicit animation.
    private let p1 = ReferenceCurve.caDefault.progress(atFraction: 0.4)
    /// ... and at 0.125 s of the next one.
    private let q = ReferenceCurve.caDefault.progress(atFraction: 0.5)

    func test_retargetingOpacityStartsFromThePresentationValue() throws {
        let scene = Scene(CALayer())
        scene.layer.opacity = 0.2
        scene.frame(at: 0)
        scene.frame(at: 0.1)
        let midway = lerp(1, 0.2, p1)
        XCTAssertEqual(Double(try scene.presented().opacity), midway, accuracy: 1e-6)

        scene.layer.opacity = 0.9
        scene.frame(at: 0.2)
        let retarget = try XCTUnwrap(scene.layer.animation(forKey: "opacity") as? CABasicAnimation)
        XCTAssertEqual(try XCTUnwrap(numericValue(retarget.fromValue)), midway, accuracy: 1e-6)
        XCTAssertEqual(Double(try scene.presented().opacity), midway, accuracy: 1e-6, "no jump")
        scene.frame(at: 0.325)
        XCTAssertEqual(Double(try scene.presented().opacity), lerp(midway, 0.9, q), accuracy: 1e-6)
    }

    func test_retargetingPositionStartsFromThePresentationValue() throws {
        let scene = Scene(CALayer())
        scene.layer.position = CGPoint(x: 100, y: 200)
        scene.frame(at: 0)
        scene.frame(at: 0.1)
        let midway = (lerp(0, 100, p1), lerp(0, 200, p1))
        assertPoint(try scene.presented().position, midway.0, midway.1)

        scene.layer.position = CGPoint(x: 0, y: 300)
        scene.frame(at: 0.2)
        let retarget = try XCTUnwrap(scene.layer.animation(forKey: "position") as? CABasicAnimation)
        assertPoint(retarget.fromValue as? CGPoint, midway.0, midway.1, "fromValue")
        assertPoint(try scene.presented().position, midway.0, midway.1, "no jump")
        scene.frame(at: 0.325)
        assertPoint(try scene.presented().position, lerp(midway.0, 0, q), lerp(midway.1, 300, q))
    }

    func test_retargetingBackgroundColorStartsFromThePresentationValue() throws {
        let scene = Scene(CALayer()) { $0.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
        scene.layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        scene.frame(at: 0)
        scene.frame(at: 0.1)
        let midway = mix([0, 0, 1, 1], [1, 0, 0, 1], p1)
        assertColor(try scene.presented().backgroundColor, midway)

        scene.layer.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)
        scene.frame(at: 0.2)
        let retarget = try XCTUnwrap(scene.layer.animation(forKey: "backgroundColor") as? CABasicAnimation)
        assertColor(retarget.fromValue.flatMap { $0 as? CGColor }, midway, "fromValue")
        assertColor(try scene.presented().backgroundColor, midway, "no jump")
        scene.frame(at: 0.325)
        assertColor(try scene.presented().backgroundColor, mix(midway, [0, 1, 0, 0.5], q))
    }

    func test_retargetingBoundsStartsFromThePresentationValue() throws {
        let scene = Scene(CALayer()) { $0.bounds = CGRect(x: 0, y: 0, width: 10, height: 10) }
        scene.layer.bounds = CGRect(x: 0, y: 0, width: 50, height: 30)
        scene.frame(at: 0)
        scene.frame(at: 0.1)
        let midway = [0, 0, lerp(10, 50, p1), lerp(10, 30, p1)]
        assertRect(try scene.presented().bounds, midway)

        scene.layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        scene.frame(at: 0.2)
        let retarget = try XCTUnwrap(scene.layer.animation(forKey: "bounds") as? CABasicAnimation)
        assertRect(try XCTUnwrap(retarget.fromValue as? CGRect), midway, "fromValue")
        assertRect(try scene.presented().bounds, midway, "no jump")
        scene.frame(at: 0.325)
        assertRect(try scene.presented().bounds, mix(midway, [0, 0, 100, 100], q))
    }

    func test_retargetingTransformStartsFromThePresentationValue() throws {
        let scene = Scene(CALayer())
        scene.layer.transform = CATransform3DMakeScale(3, 3, 1)
        scene.frame(at: 0)
        scene.frame(at: 0.1)
        let midway = lerp(1, 3, p1)
        assertTransform(try scene.presented().transform, scale(midway))

        scene.layer.transform = CATransform3DMakeScale(0.5, 0.5, 1)
        scene.frame(at: 0.2)
        let retarget = try XCTUnwrap(scene.layer.animation(forKey: "transform") as? CABasicAnimation)
        assertTransform(retarget.fromValue as? CATransform3D, scale(midway), "fromValue")
        assertTransform(try scene.presented().transform, scale(midway), "no jump")
        scene.frame(at: 0.325)
        assertTransform(try scene.presented().transform, scale(lerp(midway, 0.5, q)))
    }

    private func scale(_ s: Double) -> CATransform3D {
        var t = CATransform3DIdentity
        t.m11 = CGFloat(s)
        t.m22 = CGFloat(s)
        return t
    }

    private func assertRect(_ rect: CGRect, _ expected: [Double], _ message: String = "",
                            file: StaticString = #filePath, line: UInt = #line) {
        let got = [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height].map { Double($0) }
        if zip(got, expected).contains(where: { abs($0 - $1) > 1e-6 }) {
            XCTFail("expected rect \(expected), got \(got). \(message)", file: file, line: line)
        }
    }
}

private func zRotation(_ angle: Double) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = CGFloat(cos(angle))
    t.m12 = CGFloat(sin(angle))
    t.m21 = CGFloat(-sin(angle))
    t.m22 = CGFloat(cos(angle))
    return t
}
