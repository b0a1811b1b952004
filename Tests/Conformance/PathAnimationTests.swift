import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// CAKeyframeAnimation with a `path` for `position`: segments (lines, quadratic and cubic curves,
/// closeSubpath, moves), equal time per segment or explicit keyTimes, constant speed in the paced
/// modes, and rotationMode (SEMANTICS.md "Animations", the path rules of the explicit-animation
/// issue).
///
/// Each test builds its path through `ReferencePath`, which records the same segments for the
/// test's own evaluation (Bézier points, tangents, a finely sampled arc length) as it hands the
/// `CGMutablePath` to the engine.
final class PathAnimationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private func pathAnimation(_ path: ReferencePath, duration: Double = 1, mode: CAAnimationCalculationMode = .linear,
                               keyTimes: [Double]? = nil) -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: "position")
        animation.path = path.cgPath
        animation.duration = duration
        animation.calculationMode = mode
        animation.keyTimes = keyTimes?.map { NSNumber(value: $0) }
        return animation
    }

    private func add(_ animation: CAAnimation, to layer: CALayer, forKey key: String = "follow") {
        inTransaction { layer.add(animation, forKey: key) }
    }

    /// An L-shaped path of two lines with lengths 100 and 300.
    private func elbow() -> ReferencePath {
        var path = ReferencePath()
        path.move(to: 0, 0)
        path.line(to: 100, 0)
        path.line(to: 100, 300)
        return path
    }

    /// A line, a quadratic and a cubic curve.
    private func mixedPath() -> ReferencePath {
        var path = ReferencePath()
        path.move(to: 0, 0)
        path.line(to: 100, 0)
        path.quad(to: 200, 100, control: 200, 0)
        path.curve(to: 0, 200, control1: 200, 250, control2: 50, 300)
        return path
    }

    // MARK: Where the layer is

    func test_linearModeGivesEachSegmentEqualTime() throws {
        let scene = Scene(CALayer())
        add(pathAnimation(elbow()), to: scene.layer)
        scene.frame(at: 0.25)
        assertPoint(try scene.presented().position, 50, 0, "half of the first (short) segment at a quarter of the time")
        scene.frame(at: 0.75)
        assertPoint(try scene.presented().position, 100, 150)
        scene.frame(at: 0.9)
        assertPoint(try scene.presented().position, 100, 240)
    }

    func test_quadraticSegmentFollowsTheBezierParameter() throws {
        var path = ReferencePath()
        path.move(to: 0, 0)
        path.quad(to: 200, 0, control: 100, 100)
        let scene = Scene(CALayer())
        add(pathAnimation(path), to: scene.layer)
        for t in [0.1, 0.5, 0.8] {
            scene.frame(at: t)
            let p = path.point(atProgress: t)
            assertPoint(try scene.presented().position, p[0], p[1], "at \(t)")
        }
        scene.frame(at: 0.5)
        assertPoint(try scene.presented().position, 100, 50, "the midpoint of the quadratic curve")
    }

    func test_cubicSegmentFollowsTheBezierParameter() throws {
        var path = ReferencePath()
        path.move(to: 0, 150)
        path.curve(to: 300, 150, control1: 75, 0, control2: 225, 300)
        let scene = Scene(CALayer())
        add(pathAnimation(path, duration: 4), to: scene.layer)
        for t in [0.4, 1, 2, 3.3] {
            scene.frame(at: t)
            let p = path.point(atProgress: t / 4)
            assertPoint(try scene.presented().position, p[0], p[1], "at \(t)")
        }
        scene.frame(at: 1)
        // B(0.25) by hand: weights 27/64, 27/64, 9/64, 1/64.
        assertPoint(try scene.presented().position, 67.96875, 107.8125, "B(0.25) by hand")
    }

    func test_explicitKeyTimesHaveOneEntryPerSegmentBoundary() throws {
        let path = mixedPath()
        let keyTimes = [0, 0.2, 0.5, 1]
        let scene = Scene(CALayer())
        add(pathAnimation(path, keyTimes: keyTimes), to: scene.layer)
        for t in [0.1, 0.2, 0.35, 0.5, 0.6, 0.95] {
            scene.frame(at: t)
            let p = path.point(atProgress: t, keyTimes: keyTimes)
            assertPoint(try scene.presented().position, p[0], p[1], "at \(t)")
        }
        scene.frame(at: 0.1)
        assertPoint(try scene.presented().position, 50, 0, "the line takes the first fifth")
    }

    func test_closeSubpathIsALineBackToTheSubpathStart() throws {
        var path = ReferencePath()
        path.move(to: 0, 0)
        path.line(to: 100, 0)
        path.line(to: 100, 100)
        path.close()
        XCTAssertEqual(path.segmentCount, 3)
        let scene = Scene(CALayer())
        add(pathAnimation(path, duration: 3), to: scene.layer)
        scene.frame(at: 2.5)
        assertPoint(try scene.presented().position, 50, 50, "halfway along the closing line")
        scene.frame(at: 2.7)
        assertPoint(try scene.presented().position, 30, 30)
    }

    func test_moveInsideAPathJumpsWithoutASegmentAndCloseReturnsToTheNewStart() throws {
        var path = ReferencePath()
        path.move(to: 0, 0)
        path.line(to: 100, 0)
        path.move(to: 200, 200)
        path.line(to: 200, 300)
        path.close()
        XCTAssertEqual(path.segmentCount, 3, "line, line, closing line: the move is no segment")
        let scene = Scene(CALayer())
        add(pathAnimation(path, duration: 3), to: scene.layer)
        scene.frame(at: 0.5)
        assertPoint(try scene.presented().position, 50, 0)
        scene.frame(at: 1.5)
        assertPoint(try scene.presented().position, 200, 250, "the second subpath, no tween across the jump")
        scene.frame(at: 2.25)
        assertPoint(try scene.presented().position, 200, 275, "closing back to (200, 200), not to (0, 0)")
    }

    func test_timingFunctionMapsTimeToPathProgress() throws {
        let scene = Scene(CALayer())
        let animation = pathAnimation(elbow())
        animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        add(animation, to: scene.layer)
        for t in [0.2, 0.5, 0.65] {
            scene.frame(at: t)
            let p = elbow().point(atProgress: ReferenceCurve.easeInEaseOut.progress(atFraction: t))
            assertPoint(try scene.presented().position, p[0], p[1], "at \(t)", accuracy: 1e-4)
        }
    }

    func test_pathTakesPrecedenceOverValues() throws {
        let scene = Scene(CALayer())
        let animation = pathAnimation(elbow())
        animation.values = [CGPoint(x: -50, y: -50), CGPoint(x: -500, y: -500)]
        add(animation, to: scene.layer)
        scene.frame(at: 0.75)
        assertPoint(try scene.presented().position, 100, 150)
    }

    func test_pathAnimationEndsAtTheModelOrHoldsTheEndPoint() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 7, y: 9) }
        let free = pathAnimation(elbow())
        add(free, to: scene.layer)
        scene.frame(at: 1)
        assertPoint(try scene.presented().position, 7, 9, "no fill: back to the model")

        let held = pathAnimation(elbow())
        held.fillMode = .forwards
        held.isRemovedOnCompletion = false
        add(held, to: scene.layer)  // at 1
        scene.frame(at: 2)
        assertPoint(try scene.presented().position, 100, 300, "forwards fill holds the path's end")
        scene.frame(at: 5)
        assertPoint(try scene.presented().position, 100, 300)
        XCTAssertEqual(scene.layer.position, CGPoint(x: 7, y: 9), "the model is untouched")
    }

    // MARK: Constant speed

    func test_pacedModeMovesAtConstantSpeedAlongLines() throws {
        let scene = Scene(CALayer())
        add(pathAnimation(elbow(), mode: .paced), to: scene.layer)
        for (t, x, y) in [(0.125, 50.0, 0.0), (0.25, 100.0, 0.0), (0.5, 100.0, 100.0), (0.9, 100.0, 260.0)] {
            scene.frame(at: t)
            assertPoint(try scene.presented().position, x, y, "at \(t): \(400 * t) of 400 units", accuracy: 0.4)
        }
    }

    func test_pacedModeMovesAtConstantSpeedAlongCurvesIgnoringKeyTimes() throws {
        let path = mixedPath()
        let scene = Scene(CALayer())
        add(pathAnimation(path, mode: .paced, keyTimes: [0, 0.8, 0.9, 1]), to: scene.layer)
        try assertConstantSpeed(scene, along: path)
    }

    func test_cubicPacedModeOnAPathAlsoMovesAtConstantSpeed() throws {
        let path = mixedPath()
        let scene = Scene(CALayer())
        add(pathAnimation(path, mode: .cubicPaced), to: scene.layer)
        try assertConstantSpeed(scene, along: path)
    }

    private func assertConstantSpeed(_ scene: Scene<CALayer>, along path: ReferencePath,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let tolerance = 1e-3 * path.length
        var differsFromUnpaced = false
        for t in [0.05, 0.3, 0.55, 0.8, 0.97] {
            scene.frame(at: t)
            let expected = path.pacedPoint(atProgress: t)
            let got = try scene.presented(file: file, line: line).position
            let error = hypot(Double(got.x) - expected.point[0], Double(got.y) - expected.point[1])
            XCTAssertLessThan(error, tolerance, "at \(t): expected \(expected.point), got \(got)", file: file, line: line)
            let unpaced = path.point(atProgress: t)
            if hypot(unpaced[0] - expected.point[0], unpaced[1] - expected.point[1]) > 10 * tolerance { differsFromUnpaced = true }
        }
        XCTAssertTrue(differsFromUnpaced, "the test's path must tell paced from unpaced", file: file, line: line)
    }

    // MARK: rotationMode

    func test_rotateAutoTurnsTheLayerAlongEachLine() throws {
        let scene = Scene(CALayer())
        let animation = pathAnimation(elbow())
        animation.rotationMode = .rotateAuto
        add(animation, to: scene.layer)
        scene.frame(at: 0.25)
        assertTransform(try scene.presented().transform, CATransform3DIdentity, "heading +x: no turn")
        scene.frame(at: 0.75)
        assertTransform(try scene.presented().transform, zRotation(.pi / 2), "heading +y: a quarter turn")
        assertPoint(try scene.presented().position, 100, 150)
    }

    func test_rotateAutoFollowsTheTangentOfACurve() throws {
        var path = ReferencePath()
        path.move(to: 0, 150)
        path.curve(to: 300, 150, control1: 75, 0, control2: 225, 300)
        let scene = Scene(CALayer())
        let animation = pathAnimation(path, duration: 4)
        animation.rotationMode = .rotateAuto
        add(animation, to: scene.layer)
        for t in [0.0, 0.6, 2, 3.1] {
            scene.frame(at: t)
            let d = path.tangent(atProgress: t / 4)
            assertTransform(try scene.presented().transform, zRotation(atan2(d[1], d[0])), "at \(t)", accuracy: 1e-5)
        }
        scene.frame(at: 2)
        assertTransform(try scene.presented().transform, zRotation(atan2(75, 112.5)), "B'(0.5) = 3 (112.5, 75) by hand",
                        accuracy: 1e-5)
    }

    /// While a transform animation is pending (its transaction open), the turn applies to the
    /// model transform: evaluating the frame again gives the same transform, not one more turn.
    func test_rotateAutoWithAPendingTransformAnimationTurnsOnceHoweverOftenEvaluated() throws {
        let scene = Scene(CALayer())
        let animation = pathAnimation(elbow())
        animation.rotationMode = .rotateAuto
        add(animation, to: scene.layer)
        scene.frame(at: 0.75)
        CATransaction.begin()
        scene.layer.transform = CATransform3DMakeScale(2, 2, 1)   // an implicit animation, pending
        scene.renderer.beginFrame(atTime: 0.75)
        scene.renderer.render()
        let once = try scene.presented().transform
        scene.renderer.render()
        scene.renderer.render()
        let thrice = try scene.presented().transform
        scene.renderer.endFrame()
        CATransaction.commit()
        assertTransform(thrice, once, "the same frame evaluated three times")
        assertTransform(once, CATransform3DConcat(zRotation(.pi / 2), CATransform3DMakeScale(2, 2, 1)),
                        "heading +y: a quarter turn of the model transform")
    }

    func test_rotateAutoReverseAddsHalfATurn() throws {
        var path = ReferencePath()
        path.move(to: 0, 0)
        path.quad(to: 200, 0, control: 100, 100)
        let scene = Scene(CALayer())
        let animation = pathAnimation(path)
        animation.rotationMode = .rotateAutoReverse
        add(animation, to: scene.layer)
        for t in [0.2, 0.5, 0.9] {
            scene.frame(at: t)
            let d = path.tangent(atProgress: t)
            assertTransform(try scene.presented().transform, zRotation(atan2(d[1], d[0]) + .pi), "at \(t)", accuracy: 1e-5)
        }
        scene.frame(at: 0.5)
        assertTransform(try scene.presented().transform, zRotation(.pi), "level at the top, facing backwards")
    }

    /// Rotating animations of several layers added interleaved (A, B, A): each layer turns by
    /// the sum of its own animations' angles, however their slots are ordered.
    func test_interleavedRotatingAnimationsTurnEachLayerByItsOwn() throws {
        let scene = Scene(CALayer())
        let other = CALayer()
        withActionsDisabled { scene.root.addSublayer(other) }
        let backwards = pathAnimation(elbow())
        backwards.rotationMode = .rotateAutoReverse
        add(backwards, to: scene.layer, forKey: "backwards")
        let forwards = pathAnimation(elbow())
        forwards.rotationMode = .rotateAuto
        add(forwards, to: other, forKey: "forwards")
        let again = pathAnimation(elbow())
        again.rotationMode = .rotateAuto
        add(again, to: scene.layer, forKey: "again")
        scene.frame(at: 0.25)
        assertTransform(try scene.presented().transform, zRotation(.pi), "heading +x: a half turn, then none on top")
        assertTransform(try XCTUnwrap(other.presentation()).transform, CATransform3DIdentity, "heading +x: no turn")
        scene.frame(at: 0.75)
        assertTransform(try scene.presented().transform, zRotation(.pi / 2 + .pi + .pi / 2), "heading +y, both turned")
        assertTransform(try XCTUnwrap(other.presentation()).transform, zRotation(.pi / 2), "heading +y: a quarter turn")
    }

    func test_rotateAutoRotatesTheModelTransform() throws {
        let model = CATransform3D(m11: 2, m12: 0, m13: 0, m14: 0, m21: 0, m22: 3, m23: 0, m24: 0,
                                  m31: 0, m32: 0, m33: 1, m34: 0, m41: 10, m42: 20, m43: 0, m44: 1)
        let scene = Scene(CALayer()) { $0.transform = model }
        let animation = pathAnimation(elbow())
        animation.rotationMode = .rotateAuto
        add(animation, to: scene.layer)
        scene.frame(at: 0.75)
        assertTransform(try scene.presented().transform, multiply(zRotation(.pi / 2), model),
                        "CATransform3DRotate(model, pi/2, 0, 0, 1): the rotation applies first")
        assertTransform(scene.layer.transform, model, "the model is untouched")
    }

    func test_pacedRotationUsesTheTangentAtThePacedPoint() throws {
        let path = mixedPath()
        let scene = Scene(CALayer())
        let animation = pathAnimation(path, mode: .paced)
        animation.rotationMode = .rotateAuto
        add(animation, to: scene.layer)
        for t in [0.3, 0.55, 0.8] {
            scene.frame(at: t)
            let expected = path.pacedPoint(atProgress: t)
            let transform = try scene.presented().transform
            let angle = atan2(Double(transform.m12), Double(transform.m11))
            let want = atan2(expected.tangent[1], expected.tangent[0])
            XCTAssertEqual(atan2(sin(angle - want), cos(angle - want)), 0, accuracy: 0.01, "at \(t)")
        }
    }

    /// Where a curve slows almost to a stop its tangent turns fast: at this near-cusp (the
    /// speed falls to 2.5% of its mean near s = 0.7147) the heading turns about 0.01 radians
    /// for 1e-6 of the path's length, so the paced point must be found to about 1e-9.
    /// (A differential fuzzing seed found 0.56 degrees off here.)
    func test_pacedRotationIsExactWhereTheCurveAlmostStops() throws {
        let p0 = (-33.0, 29.198), c1 = (-74.293, -60.249), c2 = (91.0, 74.537), p1 = (-36.0, -17.0)
        func derivative(_ s: Double) -> (Double, Double) {
            let u = 1 - s
            return (3 * u * u * (c1.0 - p0.0) + 6 * u * s * (c2.0 - c1.0) + 3 * s * s * (p1.0 - c2.0),
                    3 * u * u * (c1.1 - p0.1) + 6 * u * s * (c2.1 - c1.1) + 3 * s * s * (p1.1 - c2.1))
        }
        func speed(_ s: Double) -> Double { let d = derivative(s); return (d.0 * d.0 + d.1 * d.1).squareRoot() }
        // Cumulative length on a fine grid (Simpson on each cell), then the parameter of a
        // length by bisection inside its cell.
        let cells = 1 << 14
        func simpson(_ a: Double, _ b: Double, pieces: Int) -> Double {
            let h = (b - a) / Double(pieces)
            var sum = speed(a) + speed(b)
            for j in 1..<pieces { sum += (j % 2 == 1 ? 4 : 2) * speed(a + Double(j) * h) }
            return sum * h / 3
        }
        var cumulative = [0.0]
        for j in 0..<cells { cumulative.append(cumulative[j] + simpson(Double(j) / Double(cells), Double(j + 1) / Double(cells), pieces: 8)) }
        func parameter(atFraction f: Double) -> Double {
            let target = f * cumulative[cells]
            let j = cumulative.lastIndex { $0 <= target } ?? 0
            var lo = Double(j) / Double(cells), hi = Double(j + 1) / Double(cells)
            for _ in 0..<50 {
                let mid = (lo + hi) / 2
                if cumulative[j] + simpson(Double(j) / Double(cells), mid, pieces: 8) < target { lo = mid } else { hi = mid }
            }
            return (lo + hi) / 2
        }
        var path = ReferencePath()
        path.move(to: p0.0, p0.1)
        path.curve(to: p1.0, p1.1, control1: c1.0, c1.1, control2: c2.0, c2.1)
        let scene = Scene(CALayer())
        let animation = pathAnimation(path, mode: .paced)
        animation.rotationMode = .rotateAuto
        add(animation, to: scene.layer)
        for t in [0.5956, 0.5956486, 0.595649, 0.59565, 0.5957] {
            scene.frame(at: t)
            let s = parameter(atFraction: t)
            let d = derivative(s)
            let transform = try scene.presented().transform
            let angle = atan2(Double(transform.m12), Double(transform.m11))
            let want = atan2(d.1, d.0)
            XCTAssertEqual(atan2(sin(angle - want), cos(angle - want)), 0, accuracy: 1e-4,
                           "at \(t): the heading at s = \(s)")
        }
    }

    func test_withoutRotationModeTheTransformIsTheModels() throws {
        let model = CATransform3DMakeScale(2, 2, 1)
        let scene = Scene(CALayer()) { $0.transform = model }
        let animation = pathAnimation(elbow())
        XCTAssertNil(animation.rotationMode)
        add(animation, to: scene.layer)
        scene.frame(at: 0.75)
        assertPoint(try scene.presented().position, 100, 150, "the path animation runs")
        assertTransform(try scene.presented().transform, model, "but does not turn the layer")
    }

    func test_rotationEndsWithTheAnimationOrHoldsTheLastTangent() throws {
        let scene = Scene(CALayer())
        let free = pathAnimation(elbow())
        free.rotationMode = .rotateAuto
        add(free, to: scene.layer, forKey: "free")
        scene.frame(at: 0.9)
        assertTransform(try scene.presented().transform, zRotation(.pi / 2))
        scene.frame(at: 1)
        assertTransform(try scene.presented().transform, CATransform3DIdentity, "no fill: the model transform again")

        let held = pathAnimation(elbow())
        held.rotationMode = .rotateAutoReverse
        held.fillMode = .forwards
        held.isRemovedOnCompletion = false
        add(held, to: scene.layer, forKey: "held")  // at 1
        scene.frame(at: 3)
        assertTransform(try scene.presented().transform, zRotation(.pi / 2 + .pi), "the end tangent, reversed")
        assertPoint(try scene.presented().position, 100, 300)
    }
}

// MARK: - A reference path, evaluated from the rules

private func zRotation(_ angle: Double) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = CGFloat(cos(angle))
    t.m12 = CGFloat(sin(angle))
    t.m21 = CGFloat(-sin(angle))
    t.m22 = CGFloat(cos(angle))
    return t
}

/// The row-vector product a * b (a applied first), written out.
private func multiply(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    let x = transformEntries(a), y = transformEntries(b)
    var r = [Double](repeating: 0, count: 16)
    for i in 0..<4 {
        for j in 0..<4 {
            for k in 0..<4 { r[i * 4 + j] += x[i * 4 + k] * y[k * 4 + j] }
        }
    }
    let c = r.map { CGFloat($0) }
    return CATransform3D(m11: c[0], m12: c[1], m13: c[2], m14: c[3], m21: c[4], m22: c[5], m23: c[6], m24: c[7],
                         m31: c[8], m32: c[9], m33: c[10], m34: c[11], m41: c[12], m42: c[13], m43: c[14], m44: c[15])
}

private enum ReferenceSegment {
    case line([Double], [Double])
    case quad([Double], [Double], [Double])
    case cubic([Double], [Double], [Double], [Double])

    func point(_ s: Double) -> [Double] {
        let u = 1 - s
        switch self {
        case let .line(a, b):
            return mix(a, b, s)
        case let .quad(a, c, b):
            return (0..<2).map { u * u * a[$0] + 2 * u * s * c[$0] + s * s * b[$0] }
        case let .cubic(a, c1, c2, b):
            return (0..<2).map { u * u * u * a[$0] + 3 * u * u * s * c1[$0] + 3 * u * s * s * c2[$0] + s * s * s * b[$0] }
        }
    }

    func derivative(_ s: Double) -> [Double] {
        let u = 1 - s
        switch self {
        case let .line(a, b):
            return [b[0] - a[0], b[1] - a[1]]
        case let .quad(a, c, b):
            return (0..<2).map { 2 * u * (c[$0] - a[$0]) + 2 * s * (b[$0] - c[$0]) }
        case let .cubic(a, c1, c2, b):
            return (0..<2).map { 3 * u * u * (c1[$0] - a[$0]) + 6 * u * s * (c2[$0] - c1[$0]) + 3 * s * s * (b[$0] - c2[$0]) }
        }
    }
}

/// Builds a `CGMutablePath` and, from the same calls, the list of segments the rules define:
/// every element after the first move is a segment; close is a line back to the subpath start; a
/// later move jumps.
private struct ReferencePath {
    let cgPath = CGMutablePath()
    private(set) var segments: [ReferenceSegment] = []
    private var current: [Double] = [0, 0]
    private var subpathStart: [Double] = [0, 0]

    var segmentCount: Int { segments.count }

    mutating func move(to x: Double, _ y: Double) {
        cgPath.move(to: CGPoint(x: x, y: y))
        current = [x, y]
        subpathStart = current
    }

    mutating func line(to x: Double, _ y: Double) {
        cgPath.addLine(to: CGPoint(x: x, y: y))
        segments.append(.line(current, [x, y]))
        current = [x, y]
    }

    mutating func quad(to x: Double, _ y: Double, control cx: Double, _ cy: Double) {
        cgPath.addQuadCurve(to: CGPoint(x: x, y: y), control: CGPoint(x: cx, y: cy))
        segments.append(.quad(current, [cx, cy], [x, y]))
        current = [x, y]
    }

    mutating func curve(to x: Double, _ y: Double, control1 c1x: Double, _ c1y: Double,
                        control2 c2x: Double, _ c2y: Double) {
        cgPath.addCurve(to: CGPoint(x: x, y: y), control1: CGPoint(x: c1x, y: c1y), control2: CGPoint(x: c2x, y: c2y))
        segments.append(.cubic(current, [c1x, c1y], [c2x, c2y], [x, y]))
        current = [x, y]
    }

    mutating func close() {
        cgPath.closeSubpath()
        segments.append(.line(current, subpathStart))
        current = subpathStart
    }

    /// Segment and local parameter at progress u: equal time per segment, or the given keyTimes.
    private func locate(_ u: Double, keyTimes: [Double]?) -> (Int, Double) {
        let n = segments.count
        let kt = keyTimes ?? (0...n).map { Double($0) / Double(n) }
        if u >= kt[n] { return (n - 1, 1) }
        if u <= kt[0] { return (0, 0) }
        var i = 0
        while !(kt[i] <= u && u < kt[i + 1]) { i += 1 }
        return (i, (u - kt[i]) / (kt[i + 1] - kt[i]))
    }

    func point(atProgress u: Double, keyTimes: [Double]? = nil) -> [Double] {
        let (i, s) = locate(u, keyTimes: keyTimes)
        return segments[i].point(s)
    }

    func tangent(atProgress u: Double, keyTimes: [Double]? = nil) -> [Double] {
        let (i, s) = locate(u, keyTimes: keyTimes)
        return segments[i].derivative(s)
    }

    /// Fine samples of the whole path: (segment, parameter, cumulative arc length).
    private var samples: [(segment: Int, s: Double, length: Double)] {
        let perSegment = 20_000
        var out: [(Int, Double, Double)] = [(0, 0, 0)]
        var previous = segments[0].point(0)
        var length = 0.0
        for (i, segment) in segments.enumerated() {
            for k in 1...perSegment {
                let s = Double(k) / Double(perSegment)
                let p = segment.point(s)
                length += hypot(p[0] - previous[0], p[1] - previous[1])
                previous = p
                out.append((i, s, length))
            }
        }
        return out
    }

    var length: Double { samples.last!.length }

    /// The point at arc length u * L, and the tangent there.
    func pacedPoint(atProgress u: Double) -> (point: [Double], tangent: [Double]) {
        let all = samples
        let target = u * all[all.count - 1].length
        var lo = 0, hi = all.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if all[mid].length < target { lo = mid } else { hi = mid }
        }
        let a = all[lo], b = all[hi]
        let segment = b.segment
        let sA = a.segment == b.segment ? a.s : 0
        let f = b.length > a.length ? (target - a.length) / (b.length - a.length) : 0
        let s = sA + (b.s - sA) * f
        return (segments[segment].point(s), segments[segment].derivative(s))
    }
}
