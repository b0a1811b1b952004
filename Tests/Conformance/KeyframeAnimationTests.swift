import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// CAKeyframeAnimation with `values`: keyTimes, per-segment timing functions, and the five
/// calculation modes (SEMANTICS.md "Animations", the keyframe rules of the explicit-animation
/// issue). Every expected value comes from `KeyframeReference` below, written from the rules and
/// sharing nothing with the engine.
///
/// Animations are added in an explicit transaction right after the scene's first frame, so they
/// start at media time 0; with no timing function they are linear.
final class KeyframeAnimationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private func keyframe(_ keyPath: String, _ values: [Any], duration: Double = 1, keyTimes: [Double]? = nil,
                          mode: CAAnimationCalculationMode = .linear) -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        animation.values = values
        animation.duration = duration
        animation.keyTimes = keyTimes?.map { NSNumber(value: $0) }
        animation.calculationMode = mode
        return animation
    }

    private func add(_ animation: CAAnimation, to layer: CALayer, forKey key: String = "keyframes") {
        inTransaction { layer.add(animation, forKey: key) }
    }

    private func cornerRadius<L: CALayer>(_ scene: Scene<L>, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        Double(try scene.presented(file: file, line: line).cornerRadius)
    }

    // MARK: Linear mode and keyTimes

    func test_linearModeSpacesDefaultKeyTimesEvenly() throws {
        let scene = Scene(CALayer())
        add(keyframe("cornerRadius", [0.0, 40.0, 10.0], duration: 2), to: scene.layer)
        for t in [0.2, 0.5, 0.9, 1.2, 1.6, 1.99] {
            scene.frame(at: t)
            let expected = KeyframeReference.linear([[0], [40], [10]], keyTimes: [0, 0.5, 1], u: t / 2)[0]
            XCTAssertEqual(try cornerRadius(scene), expected, accuracy: 1e-6, "at \(t)")
        }
        scene.frame(at: 0.5)
        XCTAssertEqual(try cornerRadius(scene), 20, accuracy: 1e-6, "halfway through the first of two equal segments")
    }

    func test_linearModeFollowsExplicitKeyTimes() throws {
        let scene = Scene(CALayer())
        let points = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 50), CGPoint(x: 0, y: 50)]
        let keyTimes = [0, 0.1, 0.5, 1]
        add(keyframe("position", points, keyTimes: keyTimes), to: scene.layer)
        for t in [0.05, 0.3, 0.75, 0.95] {
            scene.frame(at: t)
            let p = KeyframeReference.linear(points.map(lanes), keyTimes: keyTimes, u: t)
            assertPoint(try scene.presented().position, p[0], p[1], "at \(t)")
        }
        scene.frame(at: 0.3)
        assertPoint(try scene.presented().position, 100, 25, "halfway between the keyframes at 0.1 and 0.5")
    }

    func test_keyframeValuesAreReachedExactlyAtTheirKeyTimes() throws {
        let scene = Scene(CALayer())
        let animation = keyframe("cornerRadius", [5.0, -3.0, 12.0, 7.0], keyTimes: [0, 0.25, 0.75, 1])
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        add(animation, to: scene.layer)
        for (t, value) in [(0.0, 5.0), (0.25, -3.0), (0.75, 12.0), (1.0, 7.0), (2.0, 7.0)] {
            scene.frame(at: t)
            XCTAssertEqual(try cornerRadius(scene), value, accuracy: 1e-6, "at \(t)")
        }
    }

    func test_repeatedKeyTimeMakesAnInstantJump() throws {
        let scene = Scene(CALayer())
        add(keyframe("cornerRadius", [0.0, 10.0, 30.0, 40.0], keyTimes: [0, 0.5, 0.5, 1]), to: scene.layer)
        scene.frame(at: 0.499)
        XCTAssertEqual(try cornerRadius(scene), 9.98, accuracy: 1e-6, "approaching the second keyframe")
        scene.frame(at: 0.5)
        XCTAssertEqual(try cornerRadius(scene), 30, accuracy: 1e-6, "the zero-length segment is skipped")
        scene.frame(at: 0.75)
        XCTAssertEqual(try cornerRadius(scene), 35, accuracy: 1e-6)
    }

    // MARK: Timing functions

    func test_perSegmentTimingFunctionsShapeEachSegment() throws {
        let scene = Scene(CALayer())
        let animation = keyframe("cornerRadius", [0.0, 10.0, 30.0])
        animation.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut)]
        add(animation, to: scene.layer)
        for t in [0.1, 0.25, 0.4, 0.6, 0.75, 0.9] {
            scene.frame(at: t)
            let expected = KeyframeReference.linear([[0], [10], [30]], keyTimes: [0, 0.5, 1], u: t,
                                                    functions: [.easeIn, .easeOut])[0]
            XCTAssertEqual(try cornerRadius(scene), expected, accuracy: 1e-5, "at \(t)")
        }
        scene.frame(at: 0.25)
        XCTAssertEqual(try cornerRadius(scene), 10 * ReferenceCurve.easeIn.progress(atFraction: 0.5), accuracy: 1e-5)
    }

    func test_animationTimingFunctionMapsTimeBeforeTheKeyframeLookup() throws {
        let scene = Scene(CALayer())
        let animation = keyframe("cornerRadius", [0.0, 100.0, 300.0])
        animation.timingFunction = CAMediaTimingFunction(name: .easeIn)
        add(animation, to: scene.layer)
        // easeIn is still below 0.5 at 60 % of the time: the first segment, not the second.
        XCTAssertLessThan(ReferenceCurve.easeIn.progress(atFraction: 0.6), 0.5)
        for t in [0.3, 0.6, 0.8] {
            scene.frame(at: t)
            let u = ReferenceCurve.easeIn.progress(atFraction: t)
            let expected = KeyframeReference.linear([[0], [100], [300]], keyTimes: [0, 0.5, 1], u: u)[0]
            XCTAssertEqual(try cornerRadius(scene), expected, accuracy: 1e-4, "at \(t)")
        }
    }

    func test_animationAndSegmentTimingFunctionsCompose() throws {
        let scene = Scene(CALayer())
        let animation = keyframe("cornerRadius", [0.0, 50.0, 60.0])
        animation.timingFunction = CAMediaTimingFunction(name: .easeOut)
        animation.timingFunctions = [CAMediaTimingFunction(name: .easeInEaseOut), CAMediaTimingFunction(name: .linear)]
        add(animation, to: scene.layer)
        for t in [0.2, 0.45, 0.7] {
            scene.frame(at: t)
            let u = ReferenceCurve.easeOut.progress(atFraction: t)
            let expected = KeyframeReference.linear([[0], [50], [60]], keyTimes: [0, 0.5, 1], u: u,
                                                    functions: [.easeInEaseOut, .linear])[0]
            XCTAssertEqual(try cornerRadius(scene), expected, accuracy: 1e-4, "at \(t)")
        }
    }

    // MARK: Discrete mode

    func test_discreteModeHoldsEachValueForAnEqualShare() throws {
        let scene = Scene(CALayer())
        add(keyframe("cornerRadius", [1.0, 2.0, 3.0, 4.0], mode: .discrete), to: scene.layer)
        // n values, default keyTimes i/n: 0, 0.25, 0.5, 0.75 (and 1).
        for (t, value) in [(0.0, 1.0), (0.2, 1.0), (0.25, 2.0), (0.49, 2.0), (0.5, 3.0), (0.74, 3.0), (0.8, 4.0), (0.999, 4.0)] {
            scene.frame(at: t)
            XCTAssertEqual(try cornerRadius(scene), value, accuracy: 1e-9, "at \(t): no interpolation")
        }
    }

    func test_discreteModeUsesExplicitKeyTimesWithOneMoreEntryThanValues() throws {
        let scene = Scene(CALayer())
        let points = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 10), CGPoint(x: 20, y: 20)]
        let keyTimes = [0, 0.1, 0.7, 1]
        add(keyframe("position", points, keyTimes: keyTimes, mode: .discrete), to: scene.layer)
        for t in [0.05, 0.11, 0.4, 0.69, 0.71, 0.95] {
            scene.frame(at: t)
            let p = KeyframeReference.discrete(points.map(lanes), keyTimes: keyTimes, u: t)
            assertPoint(try scene.presented().position, p[0], p[1], "at \(t)")
        }
    }

    func test_discreteModeShowsTheLastValueAtTheEnd() throws {
        let scene = Scene(CALayer())
        let colours = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                       CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        let animation = keyframe("backgroundColor", colours, mode: .discrete)
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        add(animation, to: scene.layer)
        scene.frame(at: 0.5)
        assertColor(try scene.presented().backgroundColor, [0, 1, 0, 1], "colours jump, never blend")
        scene.frame(at: 1)
        assertColor(try scene.presented().backgroundColor, [0, 0, 1, 1], "the last value at u = 1")
        scene.frame(at: 4)
        assertColor(try scene.presented().backgroundColor, [0, 0, 1, 1])
    }

    // MARK: Paced mode

    func test_pacedModeMovesAtConstantSpeedIgnoringKeyTimesAndTimingFunctions() throws {
        let scene = Scene(CALayer())
        // Distances 50 and 150: the keyframes are paced at 0, 0.25, 1.
        let points = [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 40), CGPoint(x: 30, y: 190)]
        let animation = keyframe("position", points, keyTimes: [0, 0.9, 1], mode: .paced)
        animation.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeIn)]
        add(animation, to: scene.layer)
        for t in [0.1, 0.25, 0.5, 0.8] {
            scene.frame(at: t)
            let p = KeyframeReference.paced(points.map(lanes), u: t)
            assertPoint(try scene.presented().position, p[0], p[1], "at \(t)")
        }
        scene.frame(at: 0.5)
        assertPoint(try scene.presented().position, 30, 90, "100 of 200 units along")
    }

    func test_pacedModeMeasuresColourDistanceOverRGBA() throws {
        let scene = Scene(CALayer())
        let colours = [[0.0, 0, 0, 1], [1.0, 0, 0, 1], [1.0, 1, 1, 0]]  // distances 1 and sqrt(3)
        add(keyframe("backgroundColor", colours.map { CGColor(red: $0[0], green: $0[1], blue: $0[2], alpha: $0[3]) },
                     mode: .paced), to: scene.layer)
        for t in [0.2, 1 / (1 + 3.0.squareRoot()), 0.5, 0.9] {
            scene.frame(at: t)
            assertColor(try scene.presented().backgroundColor, KeyframeReference.paced(colours, u: t), "at \(t)")
        }
    }

    func test_pacedModeOnScalarsUsesAbsoluteDifferences() throws {
        let scene = Scene(CALayer())
        // Distances 10, 10, 30: keyframes paced at 0, 0.2, 0.4, 1.
        add(keyframe("cornerRadius", [0.0, 10.0, 0.0, 30.0], mode: .paced), to: scene.layer)
        for (t, value) in [(0.1, 5.0), (0.3, 5.0), (0.5, 5.0), (0.85, 22.5)] {
            scene.frame(at: t)
            XCTAssertEqual(try cornerRadius(scene), value, accuracy: 1e-6, "at \(t)")
        }
    }

    // MARK: Cubic modes

    func test_cubicModeIsCatmullRomThroughEveryKeyframe() throws {
        let scene = Scene(CALayer())
        let values: [[Double]] = [[0], [10], [5], [20]]
        add(keyframe("cornerRadius", values.map { $0[0] }, mode: .cubic), to: scene.layer)
        for t in [0.1, 0.2, 1.0 / 3, 0.5, 0.6, 2.0 / 3, 0.9] {
            scene.frame(at: t)
            let expected = KeyframeReference.cubic(values, keyTimes: [0, 1.0 / 3, 2.0 / 3, 1], u: t)[0]
            XCTAssertEqual(try cornerRadius(scene), expected, accuracy: 1e-6, "at \(t)")
        }
        // By hand, segment 1 at s = 0.5: tangents 2.5 and 5 -> 5 + 0.3125 + 2.5 - 0.625.
        scene.frame(at: 0.5)
        XCTAssertEqual(try cornerRadius(scene), 7.1875, accuracy: 1e-6)
    }

    func test_cubicModeEndTangentsAreOneSidedDifferences() throws {
        let scene = Scene(CALayer())
        add(keyframe("cornerRadius", [0.0, 10.0, 10.0], mode: .cubic), to: scene.layer)
        // m0 = 10, m1 = 5, m2 = 0.
        scene.frame(at: 0.25)
        XCTAssertEqual(try cornerRadius(scene), 5.625, accuracy: 1e-6, "0.125 * 10 + 0.5 * 10 - 0.125 * 5")
        scene.frame(at: 0.75)
        XCTAssertEqual(try cornerRadius(scene), 10.625, accuracy: 1e-6, "the spline overshoots between equal keyframes")
    }

    func test_cubicModeInterpolatesPointsLaneByLaneOverExplicitKeyTimes() throws {
        let scene = Scene(CALayer())
        let points = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 50), CGPoint(x: 200, y: 0), CGPoint(x: 300, y: 80)]
        let keyTimes = [0, 0.2, 0.7, 1]
        add(keyframe("position", points, keyTimes: keyTimes, mode: .cubic), to: scene.layer)
        for t in [0.1, 0.2, 0.45, 0.6, 0.85] {
            scene.frame(at: t)
            let p = KeyframeReference.cubic(points.map(lanes), keyTimes: keyTimes, u: t)
            assertPoint(try scene.presented().position, p[0], p[1], "at \(t)", accuracy: 1e-5)
        }
    }

    func test_cubicPacedModeTravelsTheSplineAtConstantSpeed() throws {
        let scene = Scene(CALayer())
        let points: [[Double]] = [[0, 0], [100, 100], [200, 0], [250, 150]]
        let uniform = [0, 1.0 / 3, 2.0 / 3, 1]
        add(keyframe("position", points.map { CGPoint(x: $0[0], y: $0[1]) }, mode: .cubicPaced), to: scene.layer)
        let spline = KeyframeReference.SampledCurve { u in KeyframeReference.cubic(points, keyTimes: uniform, u: u) }
        let tolerance = 1e-3 * spline.length
        var differsFromCubic = false
        for t in [0.1, 0.35, 0.6, 0.85] {
            scene.frame(at: t)
            let expected = spline.point(atLength: t * spline.length)
            let got = try scene.presented().position
            let error = hypot(Double(got.x) - expected[0], Double(got.y) - expected[1])
            XCTAssertLessThan(error, tolerance, "at \(t): expected \(expected), got \(got)")
            let plain = KeyframeReference.cubic(points, keyTimes: uniform, u: t)
            if hypot(plain[0] - expected[0], plain[1] - expected[1]) > 10 * tolerance { differsFromCubic = true }
        }
        XCTAssertTrue(differsFromCubic, "the test's curve must tell paced from unpaced")
    }

    // MARK: Timing of keyframe animations

    func test_keyframeAnimationRepeatsAndAutoreverses() throws {
        let scene = Scene(CALayer()) { $0.cornerRadius = 3 }
        let animation = keyframe("cornerRadius", [0.0, 10.0, 30.0])
        animation.repeatCount = 2
        animation.autoreverses = true
        add(animation, to: scene.layer)
        for (t, value) in [(0.25, 5.0), (0.75, 20.0), (1.25, 20.0), (1.75, 5.0), (2.25, 5.0), (3.5, 10.0)] {
            scene.frame(at: t)
            XCTAssertEqual(try cornerRadius(scene), value, accuracy: 1e-6, "at \(t)")
        }
        scene.frame(at: 4)
        XCTAssertEqual(try cornerRadius(scene), 3, accuracy: 1e-6, "two forward-and-back iterations end at 4 s")
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_keyframeFillModesHoldFirstAndLastValues() throws {
        let scene = Scene(CALayer()) { layer in
            layer.cornerRadius = 3
            layer.borderWidth = 1
        }
        let removed = keyframe("cornerRadius", [10.0, 20.0, 40.0])
        removed.beginTime = 1
        removed.isRemovedOnCompletion = false
        let held = keyframe("borderWidth", [10.0, 20.0, 40.0])
        held.beginTime = 1
        held.fillMode = .both
        held.isRemovedOnCompletion = false
        add(removed, to: scene.layer, forKey: "removed")
        add(held, to: scene.layer, forKey: "held")
        scene.frame(at: 0.5)
        XCTAssertEqual(try cornerRadius(scene), 3, accuracy: 1e-6, "no fill: the model before the start")
        XCTAssertEqual(Double(try scene.presented().borderWidth), 10, accuracy: 1e-6, "backwards fill: the first value")
        scene.frame(at: 1.75)
        XCTAssertEqual(try cornerRadius(scene), 30, accuracy: 1e-6)
        scene.frame(at: 3)
        XCTAssertEqual(try cornerRadius(scene), 3, accuracy: 1e-6, "no fill: the model after the end")
        XCTAssertEqual(Double(try scene.presented().borderWidth), 40, accuracy: 1e-6, "forwards fill: the last value")
    }

    func test_keyframeWithoutDurationTakesTheTransactionDuration() throws {
        let scene = Scene(CALayer())
        let animation = keyframe("cornerRadius", [0.0, 10.0, 30.0], duration: 0)
        inTransaction(duration: 2) { scene.layer.add(animation, forKey: "keyframes") }
        scene.frame(at: 1.5)
        XCTAssertEqual(try cornerRadius(scene), 20, accuracy: 1e-6, "u = 0.75 of 2 s")
        scene.frame(at: 2)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    // MARK: Values, copies, delegates

    func test_keyframeValuesMayMixEveryAcceptedNumericType() throws {
        let scene = Scene(CALayer())
        let values: [Any] = [0 as Int, NSNumber(value: 5.0), Float(10), CGFloat(2.5), 7.5 as Double]
        add(keyframe("cornerRadius", values), to: scene.layer)
        for (t, value) in [(0.125, 2.5), (0.375, 7.5), (0.625, 6.25), (0.875, 5.0)] {
            scene.frame(at: t)
            XCTAssertEqual(try cornerRadius(scene), value, accuracy: 1e-6, "at \(t)")
        }
    }

    func test_transformKeyframesAreReachedAtTheirKeyTimes() throws {
        let scene = Scene(CALayer())
        let rotation = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let animation = keyframe("transform", [CATransform3DIdentity, CATransform3DMakeScale(3, 3, 1), rotation])
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        add(animation, to: scene.layer)
        scene.frame(at: 0)
        assertTransform(try scene.presented().transform, CATransform3DIdentity)
        scene.frame(at: 0.25)
        assertTransform(try scene.presented().transform, scaleTransform(2, 2, 1), "halfway between identity and scale 3")
        scene.frame(at: 0.5)
        assertTransform(try scene.presented().transform, scaleTransform(3, 3, 1))
        scene.frame(at: 1)
        assertTransform(try scene.presented().transform, zRotation(.pi / 2))
        assertTransform(scene.layer.transform, CATransform3DIdentity, "the model is untouched")
    }

    func test_animationForKeyReturnsACopyWithTheKeyframeSettings() throws {
        let scene = Scene(CALayer())
        let animation = keyframe("cornerRadius", [0.0, 10.0, 30.0], keyTimes: [0, 0.8, 1], mode: .linear)
        animation.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .linear)]
        add(animation, to: scene.layer)
        let stored = try XCTUnwrap(scene.layer.animation(forKey: "keyframes") as? CAKeyframeAnimation)
        XCTAssertFalse(stored === animation)
        XCTAssertEqual(stored.keyPath, "cornerRadius")
        XCTAssertEqual(stored.values?.compactMap(numericValue), [0, 10, 30])
        XCTAssertEqual(stored.keyTimes?.map(\.doubleValue), [0, 0.8, 1])
        XCTAssertEqual(stored.calculationMode, .linear)
        XCTAssertEqual(stored.timingFunctions?.count, 2)

        animation.values = [100.0, 100.0, 100.0]  // changing the original afterwards changes nothing
        animation.keyTimes = [0, 0.5, 1]
        scene.frame(at: 0.4)
        let expected = 10 * ReferenceCurve.easeIn.progress(atFraction: 0.5)
        XCTAssertEqual(try cornerRadius(scene), expected, accuracy: 1e-5)
    }
}

// MARK: - Reference keyframe evaluation, written from the rules

private func lanes(_ p: CGPoint) -> [Double] { [Double(p.x), Double(p.y)] }

private func scaleTransform(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = sx
    t.m22 = sy
    t.m33 = sz
    return t
}

private func zRotation(_ angle: Double) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = CGFloat(cos(angle))
    t.m12 = CGFloat(sin(angle))
    t.m21 = CGFloat(-sin(angle))
    t.m22 = CGFloat(cos(angle))
    return t
}

/// The keyframe rules of the issue, on lane lists (a scalar is one lane, a point two, a colour four).
private enum KeyframeReference {
    /// The segment i with keyTimes[i] <= u < keyTimes[i+1], and the local fraction in it.
    static func segment(_ keyTimes: [Double], _ u: Double) -> (index: Int, s: Double) {
        let last = keyTimes.count - 1
        if u >= keyTimes[last] { return (last - 1, 1) }
        if u <= keyTimes[0] { return (0, 0) }
        var i = 0
        while !(keyTimes[i] <= u && u < keyTimes[i + 1]) { i += 1 }
        return (i, (u - keyTimes[i]) / (keyTimes[i + 1] - keyTimes[i]))
    }

    static func linear(_ values: [[Double]], keyTimes: [Double], u: Double, functions: [ReferenceCurve]? = nil) -> [Double] {
        let (i, s) = segment(keyTimes, u)
        let eased = functions.map { $0[i].progress(atFraction: s) } ?? s
        return mix(values[i], values[i + 1], eased)
    }

    /// keyTimes has values.count + 1 entries; value i on [kt[i], kt[i+1]), the last value at u = 1.
    static func discrete(_ values: [[Double]], keyTimes: [Double], u: Double) -> [Double] {
        if u >= 1 { return values[values.count - 1] }
        for i in 0..<values.count where keyTimes[i] <= u && u < keyTimes[i + 1] { return values[i] }
        return values[u < keyTimes[0] ? 0 : values.count - 1]
    }

    /// keyTimes = cumulative Euclidean distance between consecutive values, normalised.
    static func pacedKeyTimes(_ values: [[Double]]) -> [Double] {
        var cumulative = [0.0]
        for i in 1..<values.count {
            let d = zip(values[i], values[i - 1]).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
            cumulative.append(cumulative[i - 1] + d)
        }
        return cumulative.map { $0 / cumulative[cumulative.count - 1] }
    }

    static func paced(_ values: [[Double]], u: Double) -> [Double] {
        linear(values, keyTimes: pacedKeyTimes(values), u: u)
    }

    /// Uniform Catmull-Rom Hermite segments; one-sided tangents at the ends.
    static func cubic(_ values: [[Double]], keyTimes: [Double], u: Double) -> [Double] {
        let n = values.count
        let (i, s) = segment(keyTimes, u)
        func tangent(_ k: Int) -> [Double] {
            if k == 0 { return zip(values[1], values[0]).map { $0 - $1 } }
            if k == n - 1 { return zip(values[n - 1], values[n - 2]).map { $0 - $1 } }
            return zip(values[k + 1], values[k - 1]).map { ($0 - $1) / 2 }
        }
        let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
        let h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s
        let m0 = tangent(i), m1 = tangent(i + 1)
        return (0..<values[i].count).map { c in
            h00 * values[i][c] + h10 * m0[c] + h01 * values[i + 1][c] + h11 * m1[c]
        }
    }

    /// A 2-D curve sampled finely, to find the point at a given arc length.
    struct SampledCurve {
        private var points: [[Double]] = []
        private var lengths: [Double] = []

        init(samples: Int = 60_000, _ curve: (Double) -> [Double]) {
            for k in 0...samples {
                let p = curve(Double(k) / Double(samples))
                if let q = points.last {
                    lengths.append(lengths[lengths.count - 1] + hypot(p[0] - q[0], p[1] - q[1]))
                } else {
                    lengths.append(0)
                }
                points.append(p)
            }
        }

        var length: Double { lengths[lengths.count - 1] }

        func point(atLength target: Double) -> [Double] {
            var lo = 0, hi = lengths.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if lengths[mid] < target { lo = mid } else { hi = mid }
            }
            let span = lengths[hi] - lengths[lo]
            let f = span > 0 ? (target - lengths[lo]) / span : 0
            return mix(points[lo], points[hi], f)
        }
    }
}
