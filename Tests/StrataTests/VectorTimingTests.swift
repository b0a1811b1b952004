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
}
