/// A cubic Bézier from (0,0) to (1,1) with control points (x1,y1), (x2,y2), solved for y at
/// a given x: the timing curve of `CAMediaTimingFunction`. Polynomial coefficients are
/// precomputed; `solve` is Newton's method with a bisection fallback, in `Double` (the
/// approach of WebKit/Chromium's `UnitBezier`).
@usableFromInline
struct UnitBezier: Hashable {
    @usableFromInline let ax, bx, cx, ay, by, cy: Double
    @usableFromInline let isLinear: Bool

    @usableFromInline init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
        isLinear = x1 == y1 && x2 == y2
    }

    @usableFromInline @inline(__always) func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    @usableFromInline @inline(__always) func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @usableFromInline @inline(__always) func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter whose x is `x` (x in 0...1), to within `epsilon`.
    @usableFromInline func solveCurveX(_ x: Double, epsilon: Double = 1e-12) -> Double {
        var t = x
        for _ in 0..<8 {
            let err = sampleX(t) - x
            if abs(err) < epsilon { return t }
            let d = sampleDerivativeX(t)
            if abs(d) < 1e-9 { break }
            t -= err / d
        }
        var lo = 0.0, hi = 1.0
        t = x
        if t < lo { return lo }
        if t > hi { return hi }
        while lo < hi {
            let v = sampleX(t)
            if abs(v - x) < epsilon { return t }
            if x > v { lo = t } else { hi = t }
            let mid = (hi - lo) * 0.5 + lo
            if mid == t { break }
            t = mid
        }
        return t
    }

    /// The eased progress for a linear fraction `x`; the ends map exactly to 0 and 1.
    @inlinable func solve(_ x: Double) -> Double {
        if isLinear { return x }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return sampleY(solveCurveX(x))
    }
}

/// This engine's solver of a ``CAMediaTimingFunction`` (Vocabulary/CAMediaTimingFunction.swift).
@usableFromInline typealias TimingCurve = UnitBezier
