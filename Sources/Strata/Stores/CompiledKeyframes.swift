#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The compiled form of a keyframe or path animation: segment boundaries in the
/// animation's progress, one timing curve per segment, cubic polynomial coefficients per
/// segment and lane (value(s) = ((a s + b) s + c) s + d; linear, discrete, Catmull-Rom and
/// Bézier segments all take this form), and, for constant-speed modes, per-segment
/// arc-length tables mapping distance back to the curve parameter.
struct CompiledKeyframes {
    var times: [Double] = []          // segments + 1
    var curves: [Int32] = []          // segments (0 = linear)
    var coefficients: [Double] = []   // segments * width * 4: (a, b, c, d) per lane
    var arcTables: [Double] = []      // segments * arcStride, or empty
    var span: [Double] = []           // width: last value - first value (isCumulative)
    /// Whole transforms: each segment's blend between its two keys, when one of them turns,
    /// shears or has perspective (else empty: every segment entry by entry), and the keys
    /// (16 lanes each, segments + 1 of them) exactly as given.
    var blends: [TransformBlend] = []
    var keys: [Double] = []
    var segments: Int { curves.count }
    /// Parameters at which a segment's cumulative length is measured when its inverse table
    /// is built.
    static let arcSamples = 64
    /// Intervals of the inverse table: evenly spaced fractions x_j = j / inverseSamples of
    /// the segment's length.
    static let inverseSamples = 64
    /// Per segment: at each x_j, the curve parameter s_j there and its first and second
    /// derivatives in x, scaled by the interval's width and its square (the first negative
    /// when the interval from x_j is solved exactly rather than interpolated); then the
    /// length.
    static let arcStride = 3 * (inverseSamples + 1) + 1

    /// The inverse table of a segment of no length: s = x.
    static let evenInverse: [Double] =
        (0...inverseSamples).flatMap { [Double($0) / Double(inverseSamples), 1 / Double(inverseSamples), 0] } + [0]

    /// Below this error, as a fraction of the segment's length, at a quarter, the middle and
    /// three quarters of an interval the interpolation is used there (1e-9 of a 300-point
    /// path is 3e-7 points).
    static let inverseTolerance = 1e-9

    /// The inverse table of a segment (`arcStride` values) from its cumulative lengths
    /// `cumulative` (unnormalised, at the `arcSamples + 1` evenly spaced parameters) and its
    /// `length` (> 0). Each s_j is solved to full precision and its derivatives follow from
    /// the speed: ds/dx = 1 / v, d2s/dx2 = -v' / v^3 (v the speed over the mean, v' its
    /// derivative in s). An interval is interpolated (quintic Hermite: value, slope and
    /// curvature at both ends) where the curve is not slow in it (a quarter of the mean
    /// speed at its ends and at 8 points between; where the curve stops the derivatives grow
    /// without bound) and the interpolation is within `inverseTolerance`; elsewhere it is
    /// marked for the exact solve.
    static func inverseTable<C: RandomAccessCollection<Double>>(cumulative cum: [Double], length: Double, _ co: C,
                                                                _ base: Int, _ width: Int) -> [Double]
    where C.Index == Int {
        let k = arcSamples, n = inverseSamples
        let h = 1 / Double(k)
        // Intervals of the parameter table where one 5-point Gauss-Legendre rule gives the
        // length to the table's precision (else the adaptive rule).
        let smooth: [Bool] = (0..<k).map { i in
            width == 1 || abs(gaussLength(co, base, width, Double(i) * h, Double(i + 1) * h) - (cum[i + 1] - cum[i]))
                <= 1e-13 * length
        }
        // Length from 0 to s (NaN for a NaN s: an interpolation that overflowed fails its
        // check; a parameter outside [0, 1] measures from the nearest table interval).
        func lengthTo(_ s: Double) -> Double {
            guard !s.isNaN else { return .nan }
            let i = Swift.min(Int(Swift.min(Swift.max(s, 0), 1) * Double(k)), k - 1)
            let s0 = Double(i) * h
            if width == 1 { return cum[i] + length1D(co, base, s0, s) }
            if smooth[i] { return cum[i] + gaussLength(co, base, width, s0, s) }
            return cum[i] + adaptiveLength(co, base, width, s0, s, tolerance: 1e-14 * length)
        }
        // The parameter at length fraction x: Newton's method kept inside the bracket of the
        // parameter table's interval that holds x.
        var i = 0
        func solve(_ x: Double) -> Double {
            let target = x * length
            while i < k - 1 && cum[i + 1] <= target { i += 1 }
            let lo = Double(i) * h, span = cum[i + 1] - cum[i]
            return solveLength(target, lo: lo, hi: lo + h, from: lo + (span > 0 ? (target - cum[i]) / span : 0) * h,
                               iterations: 100, tolerance: 1e-14 * length, lengthTo: lengthTo,
                               speed: { speedAt(co, base, width, $0) })
        }
        let w = 1 / Double(n)
        var table = [Double](repeating: 0, count: arcStride)
        var speed = [Double](repeating: 0, count: n + 1)
        for j in 0...n {
            let s = j == 0 ? 0 : (j == n ? 1 : solve(Double(j) * w))
            // Speed over the mean and its derivative in s: v = |c'| / L, v' = (c' . c'') / (|c'| L).
            let (sq, dot) = derivativeProducts(co, base, width, s)
            let v = sq.squareRoot() / length
            let dv = dot / (sq.squareRoot() * length)
            speed[j] = v
            table[3 * j] = s
            table[3 * j + 1] = w / v
            table[3 * j + 2] = -dv / (v * v * v) * w * w
        }
        table[arcStride - 1] = length
        for j in 0..<n {
            let p = 3 * j
            let s0 = table[p], s1 = table[p + 3]
            var interpolated = speed[j] >= slowSpeed && speed[j + 1] >= slowSpeed
            for q in 1..<9 where interpolated {
                interpolated = speedAt(co, base, width, s0 + (s1 - s0) * Double(q) / 9) / length >= slowSpeed
            }
            for t in [0.25, 0.5, 0.75] where interpolated {
                let s = hermite(table[p], table[p + 1], table[p + 2], table[p + 3], table[p + 4], table[p + 5], t)
                interpolated = abs(lengthTo(s) / length - (Double(j) + t) * w) <= inverseTolerance
            }
            if !interpolated { table[p + 1] = -table[p + 1] }
        }
        return table
    }

    /// The quintic Hermite interpolation at t in [0, 1] between s0 and s1 with slopes m0, m1
    /// and second derivatives a0, a1 (already scaled to the interval).
    @inline(__always)
    static func hermite(_ s0: Double, _ m0: Double, _ a0: Double, _ s1: Double, _ m1: Double, _ a1: Double,
                        _ t: Double) -> Double {
        // Fused multiply-adds (`addingProduct`: Swift does not contract `p * q + r`): 17 of
        // them where the plain form compiled to about 35 multiplications and additions.
        let d = s1 - s0
        let c3 = (10 * d).addingProduct(-6, m0).addingProduct(-4, m1).addingProduct(-1.5, a0).addingProduct(0.5, a1)
        let c4 = (-15 * d).addingProduct(8, m0).addingProduct(7, m1).addingProduct(1.5, a0) - a1
        let c5 = (6 * d).addingProduct(-3, m0 + m1).addingProduct(0.5, a1 - a0)
        // Estrin's scheme: pairs in t, then t^2 (a chain of 3 where Horner's is 5).
        let t2 = t * t
        let e0 = s0.addingProduct(m0, t), e1 = (0.5 * a0).addingProduct(c3, t), e2 = c4.addingProduct(c5, t)
        return e0.addingProduct(t2, e1.addingProduct(t2, e2))
    }

    /// Exact length of a one-lane cubic between s0 and s1: |v(s1) - v(s0)| summed over the
    /// monotone pieces between the derivative's roots (the speed |v'| has kinks there, which
    /// quadrature handles badly).
    static func length1D<C: RandomAccessCollection<Double>>(_ co: C, _ o: Int, _ s0: Double, _ s1: Double) -> Double
    where C.Index == Int {
        let a = co[o], b = co[o + 1], c = co[o + 2], d = co[o + 3]
        func v(_ s: Double) -> Double { ((a * s + b) * s + c) * s + d }
        // Roots of 3a s^2 + 2b s + c inside (s0, s1).
        var cuts: [Double] = [s0]
        let qa = 3 * a, qb = 2 * b
        if qa != 0 {
            let disc = qb * qb - 4 * qa * c
            if disc > 0 {
                let r = disc.squareRoot()
                for root in [(-qb - r) / (2 * qa), (-qb + r) / (2 * qa)].sorted() where root > s0 && root < s1 { cuts.append(root) }
            }
        } else if qb != 0 {
            let root = -c / qb
            if root > s0 && root < s1 { cuts.append(root) }
        }
        cuts.append(s1)
        var total = 0.0
        for i in 1..<cuts.count { total += abs(v(cuts[i]) - v(cuts[i - 1])) }
        return total
    }

    /// The curve parameter at fraction x of a segment's arc length. Almost everywhere one
    /// quintic Hermite interpolation in the inverse table (an index, 6 values, about 20
    /// operations: no search, no quadrature); in an interval marked exact (the curve slow, or
    /// the interpolation not within `inverseTolerance` there) the parameter solved to full
    /// precision.
    @inline(__always)
    static func invertArc<T: RandomAccessCollection<Double>, C: RandomAccessCollection<Double>>(
        _ x: Double, table: T, tableBase: Int, coefficients co: C, coefficientBase: Int, width: Int) -> Double
    where T.Index == Int, C.Index == Int {
        // The segment's ends exactly (a value at a key is the key, not a rounding of it); NaN
        // gives the start (the interval index below must be in range).
        if !(x > 0) { return 0 }
        if x >= 1 { return 1 }
        // The interval: 0 < f < inverseSamples, so its floor converts exactly through the
        // 2^52 shifter (no trapping conversion's range checks on the hot path).
        let f = x * Double(inverseSamples)
        let fj = f.rounded(.down)
        let j = Int(truncatingIfNeeded: (fj + 4_503_599_627_370_496.0).bitPattern &- (4_503_599_627_370_496.0).bitPattern)
        let t = f - fj
        let p = tableBase &+ 3 &* j
        let s0 = table[p], m0 = table[p &+ 1], s1 = table[p &+ 3]
        if _fastPath(m0 >= 0) {
            let s = hermite(s0, m0, table[p &+ 2], s1, abs(table[p &+ 4]), table[p &+ 5], t)
            return s < 0 ? 0 : (s > 1 ? 1 : s)
        }
        return invertExactArc(x, j: j, s0: s0, s1: s1, length: table[tableBase &+ arcStride &- 1],
                              coefficients: co, coefficientBase: coefficientBase, width: width)
    }

    /// `invertArc` in an interval marked exact: [s0, s1] holds fraction x, and s0 is at
    /// fraction j / inverseSamples exactly.
    @inline(never)
    static func invertExactArc<C: RandomAccessCollection<Double>>(
        _ x: Double, j: Int, s0: Double, s1: Double, length: Double, coefficients co: C, coefficientBase: Int,
        width: Int) -> Double where C.Index == Int {
        let a = Double(j) / Double(inverseSamples)
        guard length > 0 else { return s0 + (x - a) * Double(inverseSamples) * (s1 - s0) }
        if width == 1 {
            // Bisection on the exact length inside the interval.
            var l = s0, h = s1
            let target = (x - a) * length
            for _ in 0..<48 {
                let m = (l + h) / 2
                if length1D(co, coefficientBase, s0, m) < target { l = m } else { h = m }
            }
            return (l + h) / 2
        }
        return invertSlowArc(x, a: a, s0: s0, s1: s1, length: length,
                             coefficients: co, coefficientBase: coefficientBase, width: width)
    }

    /// Below this normalised speed (a quarter of the segment's mean) at either end of an
    /// interval, the inverse's derivative grows fast (without bound where the curve stops):
    /// the interval is solved to full precision.
    @inline(__always) static var slowSpeed: Double { 0.25 }

    /// The parameter at fraction x of the segment's length inside the table interval
    /// [s0, s1] (starting at fraction `a`): Newton's method on the
    /// adaptive length, kept inside a bisection bracket (as the reference engine solves it).
    @inline(never)
    static func invertSlowArc<C: RandomAccessCollection<Double>>(
        _ x: Double, a: Double, s0: Double, s1: Double, length: Double, coefficients co: C,
        coefficientBase base: Int, width: Int) -> Double where C.Index == Int {
        solveLength((x - a) * length, lo: s0, hi: s1, from: (s0 + s1) / 2, iterations: 60, tolerance: 1e-13 * length,
                    lengthTo: { adaptiveLength(co, base, width, s0, $0, tolerance: 1e-14 * length) },
                    speed: { speedAt(co, base, width, $0) })
    }

    /// The parameter in [lo, hi] where `lengthTo` reaches `target` (to `tolerance`): Newton's
    /// method from `start` (the length's derivative is the speed), kept inside a bisection
    /// bracket, at most `iterations` steps.
    @inline(__always)
    static func solveLength(_ target: Double, lo: Double, hi: Double, from start: Double, iterations: Int,
                            tolerance: Double, lengthTo: (Double) -> Double, speed: (Double) -> Double) -> Double {
        var lo = lo, hi = hi, s = start
        for _ in 0..<iterations {
            let error = lengthTo(s) - target
            if abs(error) <= tolerance { break }
            if error > 0 { hi = s } else { lo = s }
            let d = speed(s)
            var next = d > 0 ? s - error / d : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            if next == s { break }
            s = next
        }
        return s
    }

    /// |value'(s)| of a segment's lanes.
    @inline(__always)
    static func speedAt<C: RandomAccessCollection<Double>>(_ co: C, _ base: Int, _ width: Int, _ s: Double) -> Double
    where C.Index == Int {
        var sum = 0.0
        for c in 0..<width {
            let o = base + c * 4
            let d = (3 * co[o] * s + 2 * co[o + 1]) * s + co[o + 2]
            sum += d * d
        }
        return sum.squareRoot()
    }

    /// Length between s0 and s1 by 5-point Gauss-Legendre.
    static func gaussLength<C: RandomAccessCollection<Double>>(_ co: C, _ base: Int, _ width: Int,
                                                               _ s0: Double, _ s1: Double) -> Double
    where C.Index == Int {
        let mid = (s0 + s1) / 2, half = (s1 - s0) / 2
        let x1 = 0.5384693101056831, x2 = 0.9061798459386640
        let sum = 0.5688888888888889 * speedAt(co, base, width, mid)
            + 0.4786286704993665 * (speedAt(co, base, width, mid - half * x1) + speedAt(co, base, width, mid + half * x1))
            + 0.2369268850561891 * (speedAt(co, base, width, mid - half * x2) + speedAt(co, base, width, mid + half * x2))
        return sum * half
    }

    /// Length between s0 and s1 to `tolerance`: Gauss-Legendre halved until the halves agree
    /// with the whole (the speed has a kink where it touches zero; depth is bounded).
    static func adaptiveLength<C: RandomAccessCollection<Double>>(_ co: C, _ base: Int, _ width: Int,
                                                                  _ s0: Double, _ s1: Double, tolerance: Double) -> Double
    where C.Index == Int {
        func refine(_ lo: Double, _ hi: Double, _ whole: Double, _ tolerance: Double, _ depth: Int) -> Double {
            let mid = (lo + hi) / 2
            let left = gaussLength(co, base, width, lo, mid), right = gaussLength(co, base, width, mid, hi)
            // Not `<=`: a NaN difference (an overflowing speed) stops here rather than
            // recursing 2^depth times.
            if depth == 0 || !(abs(left + right - whole) > tolerance) { return left + right }
            return refine(lo, mid, left, tolerance / 2, depth - 1) + refine(mid, hi, right, tolerance / 2, depth - 1)
        }
        guard s1 > s0 else { return 0 }
        // Split where the speed has a minimum inside: near a cusp the speed is a sharp V, and
        // the halving test can take a piece across its point for converged (a near-cusp
        // measured 3.6e-6 of the length short unsplit).
        var total = 0.0, lo = s0
        for m in speedMinima(co, base, width, s0, s1) {
            total += refine(lo, m, gaussLength(co, base, width, lo, m), tolerance / 2, 30)
            lo = m
        }
        return total + refine(lo, s1, gaussLength(co, base, width, lo, s1), tolerance / 2, 30)
    }

    /// c'(s) . c'(s) and c'(s) . c''(s) of a segment's lanes: the squared speed and half its
    /// derivative.
    @inline(__always)
    static func derivativeProducts<C: RandomAccessCollection<Double>>(_ co: C, _ base: Int, _ width: Int,
                                                                      _ s: Double) -> (squared: Double, dot: Double)
    where C.Index == Int {
        var squared = 0.0, dot = 0.0
        for c in 0..<width {
            let o = base + c * 4
            let d1 = (3 * co[o] * s + 2 * co[o + 1]) * s + co[o + 2]
            squared += d1 * d1
            dot += d1 * (6 * co[o] * s + 2 * co[o + 1])
        }
        return (squared, dot)
    }

    /// The minima of a segment's speed strictly inside (s0, s1), in order: where
    /// c'(s) . c''(s), a cubic, turns from negative to positive (16 samples, then bisection).
    static func speedMinima<C: RandomAccessCollection<Double>>(_ co: C, _ base: Int, _ width: Int,
                                                               _ s0: Double, _ s1: Double) -> [Double]
    where C.Index == Int {
        func g(_ s: Double) -> Double { derivativeProducts(co, base, width, s).dot }
        var minima: [Double] = []
        var a = s0, ga = g(s0)
        for q in 1...16 {
            let b = q == 16 ? s1 : s0 + (s1 - s0) * Double(q) / 16, gb = g(b)
            if ga < 0 && gb > 0 {
                var lo = a, hi = b
                for _ in 0..<64 {
                    let m = (lo + hi) / 2
                    if m <= lo || m >= hi { break }
                    if g(m) < 0 { lo = m } else { hi = m }
                }
                let m = (lo + hi) / 2
                if m > s0 && m < s1 { minima.append(m) }
            }
            a = b; ga = gb
        }
        return minima
    }

    /// Lane values at progress u (the scalar path used for custom keys).
    func value(at u: Double, width: Int, curveTable: [UnitBezier]) -> [Double] {
        [Double](unsafeUninitializedCapacity: width) { b, n in
            value(at: u, width: width, curveTable: curveTable, into: b.baseAddress!)
            n = width
        }
    }

    /// The value at progress `u`, written to `out` (`width` lanes).
    func value(at u: Double, width: Int, curveTable: [UnitBezier], into out: UnsafeMutablePointer<Double>) {
        let n = segments
        var i = 0
        while i < n - 1 && u >= times[i + 1] { i += 1 }
        let t0 = times[i], t1 = times[i + 1]
        var x = t1 > t0 ? (u - t0) / (t1 - t0) : (u >= t1 ? 1 : 0)
        x = x < 0 ? 0 : (x > 1 ? 1 : x)
        if curves[i] != 0 { x = curveTable[Int(curves[i])].solve(x) }
        if !arcTables.isEmpty {
            x = CompiledKeyframes.invertArc(x, table: arcTables, tableBase: i * CompiledKeyframes.arcStride,
                                            coefficients: coefficients, coefficientBase: i * width * 4, width: width)
        }
        for c in 0..<width {
            let o = (i * width + c) * 4
            out[c] = ((coefficients[o] * x + coefficients[o + 1]) * x + coefficients[o + 2]) * x + coefficients[o + 3]
        }
    }
}
