import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// SEMANTICS.md, "Fidelity rules": whole transforms interpolate by decomposition (CSS
/// Transforms Level 2, as Core Animation and WebKit do), additive / cumulative / byValue
/// concatenate matrices, and the animations of one property compose in the order they were
/// added.
final class TransformInterpolationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    /// A linear basic animation of `keyPath` added at time 0 of `scene` (duration 1).
    private func animate(_ scene: Scene<CALayer>, _ keyPath: String = "transform", from: Any? = nil, to: Any? = nil,
                         by: Any? = nil, additive: Bool = false, cumulative: Bool = false, repeatCount: Float = 0,
                         key: String = "t") {
        let a = CABasicAnimation(keyPath: keyPath)
        a.fromValue = from; a.toValue = to; a.byValue = by
        a.duration = 1
        a.isAdditive = additive
        a.isCumulative = cumulative
        a.repeatCount = repeatCount
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        CATransaction.begin()
        scene.layer.add(a, forKey: key)
        CATransaction.commit()
    }

    private func assertTransform(_ t: CATransform3D, _ expected: CATransform3D, _ message: String = "",
                                 file: StaticString = #filePath, line: UInt = #line) {
        let a = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
        let b = [expected.m11, expected.m12, expected.m13, expected.m14, expected.m21, expected.m22, expected.m23, expected.m24,
                 expected.m31, expected.m32, expected.m33, expected.m34, expected.m41, expected.m42, expected.m43, expected.m44]
        for i in 0..<16 {
            XCTAssertEqual(Double(a[i]), Double(b[i]), accuracy: 1e-9, "entry \(i): \(message)", file: file, line: line)
        }
    }

    func test_quarterTurnKeepsUnitScaleHalfWay() throws {
        let scene = Scene(CALayer())
        animate(scene, from: CATransform3DIdentity, to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
        scene.frame(at: 0.5)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(.pi / 4, 0, 0, 1),
                        "a 45-degree turn half-way, not the entries' average (which has scale 0.71)")
    }

    func test_halfTurnIsAQuarterTurnHalfWayNotAPoint() throws {
        let scene = Scene(CALayer())
        animate(scene, from: CATransform3DIdentity, to: CATransform3DMakeRotation(.pi, 0, 0, 1))
        scene.frame(at: 0.5)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
    }

    func test_turnAboutYWithScaleAndTranslationInterpolatesEachPart() throws {
        let scene = Scene(CALayer())
        let to = CATransform3DConcat(CATransform3DConcat(CATransform3DMakeScale(3, 3, 1), CATransform3DMakeRotation(.pi / 2, 0, 1, 0)),
                                     CATransform3DMakeTranslation(40, 0, 0))
        animate(scene, from: CATransform3DIdentity, to: to)
        scene.frame(at: 0.5)
        let expected = CATransform3DConcat(CATransform3DConcat(CATransform3DMakeScale(2, 2, 1), CATransform3DMakeRotation(.pi / 4, 0, 1, 0)),
                                           CATransform3DMakeTranslation(20, 0, 0))
        assertTransform(try scene.presented().transform, expected)
    }

    /// Many layers turning at once (the fast engine evaluates full blocks of 8 decomposed
    /// slots in SIMD, the rest one by one): each is its own quarter of the way.
    func test_manyLayersTurningAtOnceEachInterpolateByDecomposition() throws {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        var layers: [CALayer] = []
        withActionsDisabled {
            for _ in 0..<21 { let l = CALayer(); root.addSublayer(l); layers.append(l) }
        }
        renderer.renderFrame(atTime: 0)
        func turn(_ i: Int, _ f: Double) -> CATransform3D {
            // Scale 1 -> 1 + i/10 and a turn of (0.3 + i/10) rad (under half a turn: slerp
            // takes the shorter way) about an axis of the layer's own, with a translation:
            // every part moves.
            let axis = (x: 1.0, y: Double(i % 3), z: 2.0 + Double(i % 5))
            let s = 1 + Double(i) / 10 * f
            let m = CATransform3DConcat(CATransform3DMakeScale(s, s, 1),
                                        CATransform3DMakeRotation((0.3 + Double(i) / 10) * f, axis.x, axis.y, axis.z))
            return CATransform3DConcat(m, CATransform3DMakeTranslation(10 * Double(i) * f, -5 * f, 0))
        }
        CATransaction.begin()
        for (i, l) in layers.enumerated() {
            let a = CABasicAnimation(keyPath: "transform")
            a.fromValue = CATransform3DIdentity
            a.toValue = turn(i, 1)
            a.duration = 1
            l.add(a, forKey: "t")
        }
        CATransaction.commit()
        renderer.renderFrame(atTime: 0.25)
        for (i, l) in layers.enumerated() {
            let t = try XCTUnwrap(l.presentation()).transform
            let e = turn(i, 0.25)
            let got = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
            let want = [e.m11, e.m12, e.m13, e.m14, e.m21, e.m22, e.m23, e.m24, e.m31, e.m32, e.m33, e.m34, e.m41, e.m42, e.m43, e.m44]
            for k in 0..<16 {
                XCTAssertEqual(Double(got[k]), Double(want[k]), accuracy: 1e-9, "layer \(i) entry \(k)")
            }
        }
    }

    func test_translationsInterpolateEntryByEntry() throws {
        let scene = Scene(CALayer())
        animate(scene, from: CATransform3DMakeTranslation(10, 0, 0), to: CATransform3DMakeTranslation(30, -20, 4))
        scene.frame(at: 0.25)
        assertTransform(try scene.presented().transform, CATransform3DMakeTranslation(15, -5, 1))
    }

    func test_matrixThatCannotBeDecomposedSwitchesHalfWay() throws {
        let scene = Scene(CALayer())
        let flat = CATransform3DMakeScale(0, 1, 1)
        let turned = CATransform3DMakeRotation(.pi / 3, 0, 0, 1)
        animate(scene, from: flat, to: turned)
        scene.frame(at: 0.49)
        assertTransform(try scene.presented().transform, flat)
        scene.frame(at: 0.51)
        assertTransform(try scene.presented().transform, turned)
    }

    func test_additiveTransformConcatenatesWithTheModel() throws {
        let scene = Scene(CALayer()) { $0.transform = CATransform3DMakeTranslation(10, 0, 0) }
        animate(scene, from: CATransform3DIdentity, to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1), additive: true)
        scene.frame(at: 0.5)
        assertTransform(try scene.presented().transform,
                        CATransform3DConcat(CATransform3DMakeRotation(.pi / 4, 0, 0, 1), CATransform3DMakeTranslation(10, 0, 0)),
                        "Concat(animated, underlying)")
    }

    func test_byValueConcatenatesOntoFrom() throws {
        let scene = Scene(CALayer())
        let from = CATransform3DMakeTranslation(5, 0, 0)
        let by = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        animate(scene, from: from, by: by)
        scene.frame(at: 2)   // held at the end
        assertTransform(try scene.presented().transform, CATransform3DConcat(by, from), "to = Concat(by, from)")
    }

    func test_cumulativeRepetitionsConcatenateTheEndValue() throws {
        let scene = Scene(CALayer())
        animate(scene, from: CATransform3DIdentity, to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1), cumulative: true, repeatCount: 3)
        scene.frame(at: 1.5)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(.pi * 3 / 4, 0, 0, 1))
        scene.frame(at: 2.5)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(.pi * 5 / 4, 0, 0, 1))
    }

    func test_animationsOfOnePropertyApplyInTheOrderAdded() throws {
        let scene = Scene(CALayer()) { $0.opacity = 0.5 }
        // An additive one added first, then a non-additive one: the second replaces.
        animate(scene, "opacity", from: 0.1, to: 0.1, additive: true, key: "first")
        animate(scene, "opacity", from: 0.2, to: 0.2, key: "second")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.2, accuracy: 1e-6)
        // The other way round: the additive one adds to the value so far.
        let other = Scene(CALayer()) { $0.opacity = 0.5 }
        animate(other, "opacity", from: 0.2, to: 0.2, key: "first")
        animate(other, "opacity", from: 0.1, to: 0.1, additive: true, key: "second")
        other.frame(at: 0.5)
        XCTAssertEqual(Double(try other.presented().opacity), 0.3, accuracy: 1e-6)
    }

    func test_customKeyAnimationsApplyInTheOrderAdded() throws {
        let scene = Scene(CALayer()) { $0.setValue(1.0, forKey: "progress") }
        animate(scene, "progress", from: 2.0, to: 2.0, additive: true, key: "first")
        animate(scene, "progress", from: 5.0, to: 5.0, key: "second")
        scene.frame(at: 0.5)
        XCTAssertEqual(numericValue(try scene.presented().value(forKey: "progress")) ?? .nan, 5, accuracy: 1e-9)
    }
}

/// Transform sub-paths change one part and keep the others, perspective and shears included.
final class TransformSubPathTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    func test_turnAboutYKeepsThePerspective() throws {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let scene = Scene(CALayer()) { $0.transform = perspective }
        let a = CABasicAnimation(keyPath: "transform.rotation.y")
        a.fromValue = 0.0
        a.toValue = Double.pi / 2
        a.duration = 1
        CATransaction.begin()
        scene.layer.add(a, forKey: "flip")
        CATransaction.commit()
        scene.frame(at: 0.5)
        let expected = CATransform3DConcat(CATransform3DMakeRotation(.pi / 4, 0, 1, 0), perspective)
        let t = try scene.presented().transform
        XCTAssertEqual(Double(t.m34), Double(expected.m34), accuracy: 1e-12, "the turn seen in perspective")
        XCTAssertEqual(Double(t.m11), Double(expected.m11), accuracy: 1e-12)
        XCTAssertEqual(Double(t.m14), Double(expected.m14), accuracy: 1e-12)
        XCTAssertEqual(Double(t.m31), Double(expected.m31), accuracy: 1e-12)
    }

    func test_settingScaleKeepsTheShear() {
        let layer = CALayer()
        var sheared = CATransform3DIdentity
        sheared.m21 = 0.5   // x shifts by half of y
        layer.transform = sheared
        layer.setValue(2.0, forKeyPath: "transform.scale.y")
        let t = layer.transform
        // Scale y by 2 applied before the shear: row 2 doubles, the shear stays.
        XCTAssertEqual(Double(t.m21), 1.0, accuracy: 1e-12)
        XCTAssertEqual(Double(t.m22), 2.0, accuracy: 1e-12)
        XCTAssertEqual(Double(t.m11), 1.0, accuracy: 1e-12)
        XCTAssertEqual(Double(t.m12), 0.0, accuracy: 1e-12)
    }
}

/// Keyframes on transform sub-paths: a shake of `transform.rotation.z`, a pulse of
/// `transform.scale` (everyday Core Animation code).
final class TransformSubPathKeyframeTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private func keyframes(_ keyPath: String, _ values: [Double], on scene: Scene<CALayer>, additive: Bool = false) {
        let a = CAKeyframeAnimation(keyPath: keyPath)
        a.values = values
        a.duration = 1
        a.isAdditive = additive
        CATransaction.begin()
        scene.layer.add(a, forKey: keyPath)
        CATransaction.commit()
    }

    func test_rotationShake() throws {
        let scene = Scene(CALayer())
        keyframes("transform.rotation.z", [0, 0.3, -0.3, 0], on: scene)
        scene.frame(at: 1.0 / 6)
        let angle = try XCTUnwrap(try scene.presented().value(forKeyPath: "transform.rotation.z").flatMap(numericValue))
        XCTAssertEqual(angle, 0.15, accuracy: 1e-9, "half-way through the first of three segments")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().transform.m12), 0, accuracy: 1e-9, "0.3 to -0.3, half-way")
    }

    func test_scalePulseKeepsTheTranslation() throws {
        let scene = Scene(CALayer()) { $0.transform = CATransform3DMakeTranslation(10, 20, 0) }
        keyframes("transform.scale", [1, 1.5, 1], on: scene)
        scene.frame(at: 0.25)
        let t = try scene.presented().transform
        XCTAssertEqual(Double(t.m11), 1.25, accuracy: 1e-9)
        XCTAssertEqual(Double(t.m22), 1.25, accuracy: 1e-9)
        XCTAssertEqual(Double(t.m41), 10, accuracy: 1e-9)
        XCTAssertEqual(Double(t.m42), 20, accuracy: 1e-9)
        scene.frame(at: 1.5)
        XCTAssertEqual(Double(try scene.presented().transform.m11), 1, accuracy: 1e-9, "removed at the end")
    }

    func test_additiveShakeAddsToTheModelAngle() throws {
        let scene = Scene(CALayer()) { $0.setValue(0.5, forKeyPath: "transform.rotation.z") }
        keyframes("transform.rotation.z", [0, 0.2, 0], on: scene, additive: true)
        scene.frame(at: 0.25)
        let angle = try XCTUnwrap(try scene.presented().value(forKeyPath: "transform.rotation.z").flatMap(numericValue))
        XCTAssertEqual(angle, 0.6, accuracy: 1e-9)
    }
}

/// Keyframes of whole transforms: each segment between keys that turn interpolates by
/// decomposition, as a basic animation between the two keys does (SEMANTICS.md, "Whole
/// transforms"); cumulative repetitions concatenate the last key.
final class TransformKeyframeTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private func assertTransform(_ t: CATransform3D, _ e: CATransform3D, _ message: String = "",
                                 file: StaticString = #filePath, line: UInt = #line) {
        let a = [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44]
        let b = [e.m11, e.m12, e.m13, e.m14, e.m21, e.m22, e.m23, e.m24, e.m31, e.m32, e.m33, e.m34, e.m41, e.m42, e.m43, e.m44]
        for i in 0..<16 {
            XCTAssertEqual(Double(a[i]), Double(b[i]), accuracy: 1e-9, "entry \(i): \(message)", file: file, line: line)
        }
    }

    private func add(_ values: [CATransform3D], mode: CAAnimationCalculationMode = .linear, cumulative: Bool = false,
                     repeatCount: Float = 0, to scene: Scene<CALayer>) {
        let k = CAKeyframeAnimation(keyPath: "transform")
        k.values = values
        k.calculationMode = mode
        k.duration = 1
        k.isCumulative = cumulative
        k.repeatCount = repeatCount
        CATransaction.begin()
        scene.layer.add(k, forKey: "k")
        CATransaction.commit()
    }

    func test_turningKeysInterpolateByDecompositionInEachSegment() throws {
        let scene = Scene(CALayer())
        add([CATransform3DIdentity, CATransform3DMakeRotation(.pi / 2, 0, 0, 1), CATransform3DMakeRotation(.pi, 0, 0, 1)], to: scene)
        scene.frame(at: 0.25)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(.pi / 4, 0, 0, 1), "unit scale half-way")
        scene.frame(at: 0.75)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(3 * .pi / 4, 0, 0, 1))
    }

    func test_cubicModeTurnsByDecompositionToo() throws {
        let scene = Scene(CALayer())
        add([CATransform3DIdentity, CATransform3DMakeRotation(.pi / 2, 0, 1, 0), CATransform3DIdentity], mode: .cubic, to: scene)
        scene.frame(at: 0.25)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(.pi / 4, 0, 1, 0))
    }

    func test_keysThatOnlyScaleAndTranslateFollowTheCubicSpline() throws {
        let scene = Scene(CALayer())
        add([CATransform3DMakeTranslation(0, 0, 0), CATransform3DMakeTranslation(10, 0, 0), CATransform3DMakeTranslation(40, 0, 0)],
            mode: .cubic, to: scene)
        scene.frame(at: 0.25)
        // Catmull-Rom on m41 (keys 0, 10, 40; tangents 10, 20, 30) at half of the first segment:
        // 0.5 * 0 + 0.125 * 10 + 0.5 * 10 - 0.125 * 20 = 3.75.
        XCTAssertEqual(Double(try scene.presented().transform.m41), 3.75, accuracy: 1e-9)
    }

    func test_discreteKeysHold() throws {
        let scene = Scene(CALayer())
        add([CATransform3DIdentity, CATransform3DMakeRotation(.pi / 2, 0, 0, 1)], mode: .discrete, to: scene)
        scene.frame(at: 0.75)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
    }

    func test_cumulativeRepetitionsConcatenateTheLastKey() throws {
        let scene = Scene(CALayer())
        add([CATransform3DIdentity, CATransform3DMakeRotation(.pi / 2, 0, 0, 1)], cumulative: true, repeatCount: 3, to: scene)
        scene.frame(at: 1.5)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(3 * .pi / 4, 0, 0, 1),
                        "a quarter turn, then half of the next")
        scene.frame(at: 2.5)
        assertTransform(try scene.presented().transform, CATransform3DMakeRotation(5 * .pi / 4, 0, 0, 1))
    }

    func test_cumulativeTranslationsConcatenateToo() throws {
        let scene = Scene(CALayer())
        add([CATransform3DMakeTranslation(5, 0, 0), CATransform3DMakeTranslation(10, 0, 0)], cumulative: true, repeatCount: 2, to: scene)
        scene.frame(at: 1.5)
        // Concat(T(7.5), T(10)) = T(17.5): the end value is concatenated, as for basic animations.
        XCTAssertEqual(Double(try scene.presented().transform.m41), 17.5, accuracy: 1e-9)
    }
}
