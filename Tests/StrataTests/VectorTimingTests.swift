import XCTest
@testable import Strata

/// The flat timing pass eases simple entries 8 at a time (a vectorised Newton solve) and
/// sends every other lane to the scalar path. Whatever the mix in a block, each animation must
/// show the value the scalar timing model gives: `TimingStore.localFraction`, then
/// `UnitBezier.solve`.
final class VectorTimingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// One animation's set-up, and what the scalar model says it shows at `t`.
    private struct Case {
        var curve: (Float, Float, Float, Float)?
        var begin: Double
        var duration: Double
        var repeatCount: Float = 0
        var autoreverses = false
        var fillForwards = false
        var speed: Float = 1

        func expected(at t: Double) -> Double? {
            var p = TimingParameters()
            p.duration = duration
            p.repeatCount = Double(repeatCount)
            p.autoreverses = autoreverses
            p.fill = fillForwards ? FillBits.forwards : 0
            p.speed = Double(speed)
            guard let x = TimingStore.localFraction(now: t, begin: begin, p).fraction else { return nil }
            guard let c = curve else { return x }
            let f = CAMediaTimingFunction(controlPoints: c.0, c.1, c.2, c.3)
            return f.curve.solve(x)
        }
    }

    func test_everyLaneOfAMixedBlockMatchesTheScalarModel() throws {
        try check(mixed: true)
    }

    /// Every lane simple: whole blocks take the vector stores.
    func test_wholeBlocksOfSimpleEntriesMatchTheScalarModel() throws {
        try check(mixed: false)
    }

    private func check(mixed: Bool) throws {
        var cases: [Case] = []
        for i in 0..<1_003 {   // not a multiple of 8: a partial last block
            let k = Float(i % 97) / 97
            var c = Case(curve: (0.1 + 0.8 * k, 0.05, 0.9 - 0.5 * k, 1), begin: 0.01 + Double(i % 50) * 0.02,
                         duration: 0.5 + Double(i % 7) * 0.1)
            switch mixed ? i % 11 : -1 {
            case 0: c.curve = nil                                   // linear: progress is x
            case 1: c.repeatCount = 2                               // repeats: the scalar path
            case 2: c.autoreverses = true                           // the scalar path
            case 3: c.fillForwards = true                           // held after the end
            case 4: c.curve = (0, 1, 0, 1)                          // x = t^3: Newton from t = x stalls
            case 5: c.begin = 5                                     // not started in this test
            case 6: c.speed = 2
            case 7: c.curve = (0.42, 0, 1, 1)                       // easeIn
            default: break
            }
            cases.append(c)
        }
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let layers = cases.map { _ in CALayer() }
        withActionsDisabled { layers.forEach(root.addSublayer) }
        renderer.renderFrame(atTime: 0)
        inTransaction {
            for (layer, c) in zip(layers, cases) {
                let a = CABasicAnimation(keyPath: "cornerRadius")
                a.fromValue = 0.0
                a.toValue = 100.0
                a.duration = c.duration
                a.beginTime = c.begin
                a.repeatCount = c.repeatCount
                a.autoreverses = c.autoreverses
                a.speed = c.speed
                if c.fillForwards { a.fillMode = .forwards; a.isRemovedOnCompletion = false }
                if let k = c.curve { a.timingFunction = CAMediaTimingFunction(controlPoints: k.0, k.1, k.2, k.3) }
                layer.add(a, forKey: "r")
            }
        }
        var checked = 0, eased = 0
        for t in stride(from: 0.05, through: 2.5, by: 0.0625) {
            renderer.renderFrame(atTime: t)
            for (n, (layer, c)) in zip(layers, cases).enumerated() {
                let shown = Double(try XCTUnwrap(layer.presentation()).cornerRadius)
                if let e = c.expected(at: t) {
                    XCTAssertEqual(shown, 100 * e, accuracy: 1e-7, "animation \(n) at \(t)")
                    checked += 1
                    if c.curve != nil && e > 0 && e < 1 { eased += 1 }
                } else {
                    XCTAssertEqual(shown, 0, "animation \(n) at \(t): no effect, the model value")
                }
            }
        }
        XCTAssertGreaterThan(checked, 10_000)
        XCTAssertGreaterThan(eased, 5_000, "most checks went through a curve")
    }

    /// Whole blocks of curves of their own ease 8 at a time (`easeListed`: four Newton steps
    /// from t = x, the rest to the scalar solve): over a grid of curves, steep ends (x1 or x2
    /// at 0 or 1) and overshooting y among them, and fractions from near 0 to near 1, every
    /// animation shows what `UnitBezier.solve` gives.
    func test_wholeBlocksMatchTheDoubleSolveOverAGridOfCurves() throws {
        let xs: [Float] = [0, 0.05, 0.25, 0.42, 0.5, 0.58, 0.75, 0.95, 1]
        let ys: [Float] = [-0.4, 0, 0.5, 1, 1.6]
        var curves: [(Float, Float, Float, Float)] = []
        for x1 in xs { for x2 in xs { for (i, y1) in ys.enumerated() { curves.append((x1, y1, x2, ys[(i + 2) % ys.count])) } } }
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let perCurve = 8
        let layers = (0..<curves.count * perCurve).map { _ in CALayer() }
        withActionsDisabled { layers.forEach(root.addSublayer) }
        renderer.renderFrame(atTime: 0)
        // Begin times 1e-3 apart: every animation has its own timing entry, its own x.
        inTransaction {
            for (n, layer) in layers.enumerated() {
                let c = curves[n / perCurve]
                let a = CABasicAnimation(keyPath: "cornerRadius")
                a.fromValue = 0.0
                a.toValue = 100.0
                a.duration = 1
                a.beginTime = Double(n % perCurve) * 1e-3
                a.timingFunction = CAMediaTimingFunction(controlPoints: c.0, c.1, c.2, c.3)
                layer.add(a, forKey: "r")
            }
        }
        var worst = 0.0, eased = 0
        for t in [0.0105, 0.1, 0.2503, 0.5, 0.7, 0.9, 0.99] {
            renderer.renderFrame(atTime: t)
            for (n, layer) in layers.enumerated() {
                let c = curves[n / perCurve]
                let x = t - Double(n % perCurve) * 1e-3
                let e = CAMediaTimingFunction(controlPoints: c.0, c.1, c.2, c.3).curve.solve(x)
                let shown = Double(try XCTUnwrap(layer.presentation()).cornerRadius)
                worst = max(worst, abs(shown - 100 * e))
                if e > 0.01 && e < 0.99 && abs(e - x) > 0.01 { eased += 1 }
            }
        }
        XCTAssertGreaterThan(eased, curves.count * perCurve * 7 / 2, "most checks on a curve, away from its ends")
        XCTAssertLessThan(worst, 1e-7, "the largest difference from the double solve, in points of 100")
    }
}

/// Springs in the timing store: animations of one transaction with the same spring share one
/// entry; springs of their own are solved 8 at a time (whole blocks in `springListed`, others
/// in `evaluateSpringBlock`), mixed with other lanes, and give the scalar spring's values
/// (`SpringCurve.progress`).
final class SpringTimingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    func test_oneTransactionsEqualSprings_shareOneTimingEntry() {
        onFreshEngine {
            let root = CALayer()
            let layers = (0..<50).map { _ in CALayer() }
            for l in layers { root.addSublayer(l) }
            let renderer = CARenderer(layer: root)
            renderer.renderFrame(atTime: 0)
            let before = EngineContext.current.timings.liveCount
            CATransaction.begin()
            for l in layers {
                let s = CASpringAnimation(keyPath: "opacity")
                s.fromValue = 0; s.toValue = 1; s.duration = 2; s.damping = 4
                l.add(s, forKey: "s")
            }
            CATransaction.commit()
            XCTAssertEqual(EngineContext.current.timings.liveCount - before, 1, "one solve per frame serves them all")
            renderer.renderFrame(atTime: 0.3)
            let s = SpringCurve(mass: 1, stiffness: 100, damping: 4, velocity: 0)!
            for l in layers { XCTAssertEqual(Double(l.presentation()!.opacity), s.progress(0.3), accuracy: 1e-6) }
        }
    }

    func test_vectorSprings_matchTheScalarSolve_inWholeAndMixedBlocks() {
        onFreshEngine {
            let root = CALayer()
            let n = 203   // a partial last block
            let layers = (0..<n).map { _ in CALayer() }
            for l in layers { root.addSublayer(l) }
            let renderer = CARenderer(layer: root)
            renderer.renderFrame(atTime: 0)
            var curves: [SpringCurve?] = []
            CATransaction.begin()
            for (i, l) in layers.enumerated() {
                if i % 13 == 5 {
                    // A basic animation among the springs: its lane takes the scalar path.
                    let b = CABasicAnimation(keyPath: "position.x")
                    b.fromValue = 0; b.toValue = 100; b.duration = 4; b.beginTime = 0.01
                    l.add(b, forKey: "s")
                    curves.append(nil)
                    continue
                }
                let s = CASpringAnimation(keyPath: "position.x")
                s.fromValue = 0; s.toValue = 100; s.duration = 4
                s.stiffness = CGFloat(50 + i); s.damping = CGFloat([0, 2, 9, 30][i % 4]); s.initialVelocity = CGFloat(i % 3)
                s.beginTime = 0.01 + Double(i % 5) * 0.01
                l.add(s, forKey: "s")
                curves.append(SpringCurve(s)!)
            }
            CATransaction.commit()
            // 4.025: in blocks of 8 started springs, the lanes begun at 0.01 and 0.02 have
            // ended (the block is finished lane by lane) and show the model value again.
            for t in [0.02, 0.1, 0.55, 1.3, 3.99, 4.025] {
                renderer.renderFrame(atTime: t)
                for (i, l) in layers.enumerated() {
                    let begin = i % 13 == 5 ? 0.01 : 0.01 + Double(i % 5) * 0.01
                    let x = Double(l.presentation()!.position.x)
                    if t < begin { continue }
                    if t - begin >= 4 {
                        XCTAssertEqual(x, 0, "layer \(i) at \(t): ended, the model value")
                        continue
                    }
                    if let c = curves[i] {
                        XCTAssertEqual(x, 100 * c.progress(t - begin), accuracy: 1e-7, "layer \(i) at \(t)")
                    } else {
                        XCTAssertEqual(x, 100 * (t - begin) / 4, accuracy: 1e-7, "layer \(i) at \(t)")
                    }
                }
            }
            let kinds = EngineContext.current.timings.vectorKind
            XCTAssertEqual((0..<EngineContext.current.timings.highWater).filter { kinds[$0] == 4 }.count, n - (n + 7) / 13,
                           "every spring entry takes the vector spring pass")
        }
    }

    func test_vectorExp_andSpringKernel_matchFoundation() {
        var worst = 0.0
        for i in 0..<4000 {
            let x = -Double(i) * 0.19 - 1e-3 * Double(i % 7)
            let v = SIMD4Exp.exp(SIMD4(repeating: x))[0]
            let e = Foundation.exp(max(x, -708))
            worst = max(worst, abs(v - e) / e)
        }
        // The degree-10 fit holds 4.7e-16 on the reduced range; the reduction and the
        // polynomial's own roundings add about as much again.
        XCTAssertLessThan(worst, 2e-15, "relative error of the vector exp")
        let s = SpringCurve(mass: 1, stiffness: 120, damping: 3, velocity: 2)!
        let t = SIMD8<Double>(0, 0.01, 0.1, 0.5, 1, 2, 7, 30)
        let y = SpringKernel.progress(t: t, a: SIMD8(repeating: s.a), w: SIMD8(repeating: s.w), phi: SIMD8(repeating: atan(s.b)),
                                      r: SIMD8(repeating: (1 + s.b * s.b).squareRoot()), c: SIMD8(repeating: s.c))
        for j in 0..<8 { XCTAssertEqual(y[j], s.progress(t[j]), accuracy: 1e-13, "t = \(t[j])") }
        var worstCos = 0.0
        for i in 0..<20000 {
            let x = Double(i) * 4.7 - 3e4 + 1e-3 * Double(i % 11)
            worstCos = max(worstCos, abs(SIMD4Trig.cos(SIMD4(repeating: x))[0] - Foundation.cos(x)))
        }
        XCTAssertLessThan(worstCos, 1e-13, "the vector cosine within 1e-13 up to |x| = 1e5")
        // Near the origin (a spring's first few swings), where the reduction is nearly exact:
        // the degree-7 fit's 2.2e-15 and its roundings.
        var worstNear = 0.0
        for i in 0..<20000 {
            let x = Double(i) * 1.3e-3 - 13 + 1e-7 * Double(i % 5)
            worstNear = max(worstNear, abs(SIMD4Trig.cos(SIMD4(repeating: x))[0] - Foundation.cos(x)))
        }
        XCTAssertLessThan(worstNear, 4e-15, "the vector cosine within 4e-15 for |x| <= 13")
    }

    /// The transform kernel's sine and cosine (slerp angles: within a few pi) against
    /// Foundation's, in every quadrant and at its boundaries.
    func test_vectorSincos_matchesFoundation() {
        var worstSmall = 0.0, worstLarge = 0.0
        for i in 0..<40000 {
            let x = (Double(i) - 20000) * 1.6e-3 + 1e-7 * Double(i % 13)
            let (s, c) = SIMD4Trig.sincos(SIMD4(x, -x, x + Double.pi / 2, x * 3))
            let expected = [(sin(x), cos(x)), (sin(-x), cos(-x)), (sin(x + Double.pi / 2), cos(x + Double.pi / 2)),
                            (sin(x * 3), cos(x * 3))]
            for j in 0..<4 {
                worstSmall = max(worstSmall, abs(s[j] - expected[j].0), abs(c[j] - expected[j].1))
            }
        }
        for i in 0..<20000 {
            let x = Double(i) * 4.7 - 4.7e4 + 1e-3 * Double(i % 11)
            let (s, c) = SIMD4Trig.sincos(SIMD4(repeating: x))
            worstLarge = max(worstLarge, abs(s[0] - sin(x)), abs(c[0] - cos(x)))
        }
        XCTAssertLessThan(worstSmall, 4e-16, "sine and cosine within 4e-16 for |x| up to 100")
        XCTAssertLessThan(worstLarge, 1e-15, "sine and cosine within 1e-15 up to |x| = 5e4")
    }
}
