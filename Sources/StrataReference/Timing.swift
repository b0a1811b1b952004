import Foundation

/// The current media time of this thread's engine: the time of the frame being rendered
/// (`CARenderer.beginFrame(atTime:)`), 0 before the first frame.
public func CACurrentMediaTime() -> Double { ReferenceEngine.current.now }

/// The reference engine's solver of a ``CAMediaTimingFunction`` (its class is the shared
/// vocabulary, Sources/Strata/Vocabulary/CAMediaTimingFunction.swift): the literal solve,
/// kept apart from the fast engine's so the oracle has arithmetic of its own.
@usableFromInline struct TimingCurve {
    let x1: Double, y1: Double, x2: Double, y2: Double
    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) { self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2 }

    /// Whether the curve is the identity (both control points on the diagonal).
    var isLinear: Bool { x1 == y1 && x2 == y2 }

    /// The curve's y where its x is `fraction`: the standard unit-Bézier solve (as in
    /// WebKit's UnitBezier) — the cubic's coefficients, Newton's method from t = x to 1e-12,
    /// bisection when Newton stalls — then y at the parameter found. The ends map exactly.
    func solve(_ fraction: Double) -> Double {
        if isLinear { return fraction }
        if fraction <= 0 { return 0 }
        if fraction >= 1 { return 1 }
        let cx = 3 * x1
        let bx = 3 * (x2 - x1) - cx
        let ax = 1 - cx - bx
        let cy = 3 * y1
        let by = 3 * (y2 - y1) - cy
        let ay = 1 - cy - by
        func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
        func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
        func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
        let epsilon = 1e-12
        var t = fraction
        for _ in 0..<8 {
            let error = x(t) - fraction
            if abs(error) < epsilon { return y(t) }
            let slope = dx(t)
            if abs(slope) < 1e-9 { break }
            t -= error / slope
        }
        // x(t) is non-decreasing on 0...1 (control x clamped), so bisection always works.
        var lo = 0.0, hi = 1.0
        t = fraction
        while lo < hi {
            let value = x(t)
            if abs(value - fraction) < epsilon { break }
            if fraction > value { lo = t } else { hi = t }
            let mid = (hi - lo) * 0.5 + lo
            if mid == t { break }
            t = mid
        }
        return y(t)
    }
}

extension CAMediaTimingFunction {
    /// Whether the curve is the identity (both control points on the diagonal).
    var isLinear: Bool { curve.isLinear }

    /// The eased progress at linear fraction `fraction`.
    func progress(at fraction: Double) -> Double { curve.solve(fraction) }
}

extension CAMediaTimingFillMode {
    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}
