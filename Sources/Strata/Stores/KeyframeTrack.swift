#if canImport(Glibc)
import Glibc
#endif
import Foundation
/// Slot flags of lane and keyframe tracks.
enum SlotFlags {
    /// The value is composed with other animations of the layer property (goes to scratch).
    static let compose: UInt8 = 1
    /// isCumulative: iteration k adds k * span.
    static let cumulative: UInt8 = 2
    /// rotationMode auto / autoReverse: the path tangent turns the layer.
    static let rotate: UInt8 = 4
    static let rotateReverse: UInt8 = 8
    /// A whole-transform slot whose endpoints interpolate by decomposition (its track's
    /// `blends`): evaluated one slot at a time, never in the SIMD block path. On a keyframe
    /// slot: segments that turn interpolate by decomposition, and cumulative repetitions
    /// concatenate the last key.
    static let decompose: UInt8 = 16
}

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

/// Running keyframe and path animations of one property lane range, as columns; keys live
/// in pooled columns (`times`, `curves`, `coefficients`, `arcs`) at per-animation offsets.
/// Evaluation is per animation (the segment differs per animation), branch-light and
/// allocation-free: every column is manually managed memory (no bounds check, retain or
/// uniqueness check in the loop), and each animation remembers its segment, which from one
/// frame to the next is almost always the same or the next, so the segment search is a
/// check of two key times.
final class KeyframeTrack {
    let property: PropertyID
    let propertyWidth: Int
    let offset: Int
    let width: Int

    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var capacity = 0
    /// Slots flagged `decompose` (whole transforms that turn, or cumulative): evaluated again
    /// after the others, so the loop over the others is unchanged.
    @exclusivity(unchecked) private(set) var decomposedSlots = 0
    /// Pooled slots with an inverse arc-length table (paced paths and cubicPaced keyframes
    /// that turn the layer; others share a schedule): while there are none, the loop is a
    /// copy compiled without the inversion.
    @exclusivity(unchecked) private(set) var arcSlots = 0
    @exclusivity(unchecked) var layer: Column<Int32>
    @exclusivity(unchecked) var timing: Column<Int32>
    @exclusivity(unchecked) var record: Column<Int32>
    @exclusivity(unchecked) var flags: Column<UInt8>
    @exclusivity(unchecked) var segmentStart: Column<Int32>   // index into curves; times at timeStart
    @exclusivity(unchecked) var timeStart: Column<Int32>
    @exclusivity(unchecked) var coefficientStart: Column<Int32>
    @exclusivity(unchecked) var arcStart: Column<Int32>       // -1: no arc table
    @exclusivity(unchecked) var segmentCount: Column<Int32>
    /// The segment the animation was in at its last evaluation (the search starts there).
    @exclusivity(unchecked) var lastSegment: Column<Int32>
    @exclusivity(unchecked) var span: Column<Double>          // width per slot
    @exclusivity(unchecked) var scratch: Column<Double>       // width per slot
    /// Tangent angle of rotating slots at the last frame (NaN when not active).
    @exclusivity(unchecked) var angle: Column<Double>
    /// Whole transforms: the slot's first segment blend in `blends` (-1: none).
    @exclusivity(unchecked) var blendStart: Column<Int32>
    /// The slot's shared schedule in `schedules` (-1: its keys are in the pools) and its
    /// member index there.
    @exclusivity(unchecked) var schedule: Column<Int32>
    @exclusivity(unchecked) var member: Column<Int32>
    /// Slots that share key times and curves (`KeyframeSchedule`): every slot that neither
    /// turns nor decomposes (paced ones share only with equal geometry). Freed schedules
    /// are reused from `freeSchedules`; `scheduleIndex` finds a schedule by its keys at
    /// `append`.
    @exclusivity(unchecked) private(set) var schedules: [KeyframeSchedule] = []
    @exclusivity(unchecked) private var scheduleKeys: [KeyframeScheduleKey?] = []
    @exclusivity(unchecked) private var scheduleIndex: [KeyframeScheduleKey: Int32] = [:]
    @exclusivity(unchecked) private var freeSchedules: [Int32] = []
    /// Slots whose keys are in the pools (evaluated one by one, as they were before
    /// schedules).
    @exclusivity(unchecked) private(set) var pooledSlots = 0

    // Pools (append; compacted when half is garbage).
    @exclusivity(unchecked) var times = Pool<Double>()
    @exclusivity(unchecked) var curves = Pool<Int32>()
    @exclusivity(unchecked) var coefficients = Pool<Double>()
    @exclusivity(unchecked) var arcs = Pool<Double>()
    @exclusivity(unchecked) var blends = Pool<TransformBlend>()
    /// The keys of whole-transform slots flagged `decompose` (16 lanes each, `keyCount` of
    /// them), from `keyStart`.
    @exclusivity(unchecked) var keys = Pool<Double>()
    @exclusivity(unchecked) var keyStart: Column<Int32>
    @exclusivity(unchecked) var keyCount: Column<Int32>
    @exclusivity(unchecked) private var garbage = 0

    /// Bytes of the slot columns and the key pools (their capacities).
    var bytesAllocated: Int {
        capacity * (4 * 8 + 1 + 8 + 2 * width * 8 + 8 + 4)
            + times.capacity * 8 + curves.capacity * 4 + coefficients.capacity * 8 + arcs.capacity * 8
            + blends.capacity * MemoryLayout<TransformBlend>.stride + keys.capacity * 8 + capacity * 8
            + capacity * 8 + schedules.indices.reduce(0) { $0 + (scheduleKeys[$1] == nil ? 0 : schedules[$1].bytesAllocated) }
    }

    init(property: PropertyID, offset: Int, width: Int) {
        self.property = property
        self.propertyWidth = PropertyTable[property].width
        self.offset = offset
        self.width = width
        let c = 64
        capacity = c
        layer = Column(capacity: c, fill: 0); timing = Column(capacity: c, fill: 0)
        record = Column(capacity: c, fill: -1); flags = Column(capacity: c, fill: 0)
        segmentStart = Column(capacity: c, fill: 0); timeStart = Column(capacity: c, fill: 0)
        coefficientStart = Column(capacity: c, fill: 0); arcStart = Column(capacity: c, fill: -1)
        segmentCount = Column(capacity: c, fill: 0); lastSegment = Column(capacity: c, fill: 0)
        span = Column(capacity: c * width, fill: 0); scratch = Column(capacity: c * width, fill: 0)
        angle = Column(capacity: c, fill: .nan)
        blendStart = Column(capacity: c, fill: -1)
        keyStart = Column(capacity: c, fill: -1); keyCount = Column(capacity: c, fill: 0)
        schedule = Column(capacity: c, fill: -1); member = Column(capacity: c, fill: 0)
    }

    deinit {
        layer.free(); timing.free(); record.free(); flags.free(); segmentStart.free(); timeStart.free()
        coefficientStart.free(); arcStart.free(); segmentCount.free(); lastSegment.free()
        span.free(); scratch.free(); angle.free(); blendStart.free(); keyStart.free(); keyCount.free()
        schedule.free(); member.free()
        for g in schedules.indices where scheduleKeys[g] != nil { schedules[g].free() }
        times.free(); curves.free(); coefficients.free(); arcs.free(); blends.free(); keys.free()
    }

    private func grow() {
        let c = capacity * 2
        layer.grow(to: c, fill: 0); timing.grow(to: c, fill: 0); record.grow(to: c, fill: -1); flags.grow(to: c, fill: 0)
        segmentStart.grow(to: c, fill: 0); timeStart.grow(to: c, fill: 0); coefficientStart.grow(to: c, fill: 0)
        arcStart.grow(to: c, fill: -1); segmentCount.grow(to: c, fill: 0); lastSegment.grow(to: c, fill: 0)
        span.grow(to: c * width, fill: 0); scratch.grow(to: c * width, fill: 0); angle.grow(to: c, fill: .nan)
        blendStart.grow(to: c, fill: -1); keyStart.grow(to: c, fill: -1); keyCount.grow(to: c, fill: 0)
        schedule.grow(to: c, fill: -1); member.grow(to: c, fill: 0)
        capacity = c
    }

    func append(layer l: Int32, timing t: Int32, record r: Int32, _ k: CompiledKeyframes, flags f: UInt8) -> Int32 {
        if count == capacity { grow() }
        let s = count
        count += 1
        layer[s] = l; timing[s] = t; record[s] = r; flags[s] = f
        if f & (SlotFlags.rotate | SlotFlags.decompose) == 0 && k.blends.isEmpty && k.segments > 0 {
            let g = scheduleFor(k)
            schedule[s] = g
            member[s] = schedules[Int(g)].append(slot: Int32(s), k.coefficients)
            timeStart[s] = 0; segmentStart[s] = 0; coefficientStart[s] = 0
        } else {
            schedule[s] = -1
            pooledSlots += 1
            timeStart[s] = Int32(times.count); times.append(contentsOf: k.times)
            segmentStart[s] = Int32(curves.count); curves.append(contentsOf: k.curves)
            coefficientStart[s] = Int32(coefficients.count); coefficients.append(contentsOf: k.coefficients)
        }
        if k.arcTables.isEmpty || schedule[s] >= 0 { arcStart[s] = -1 } else {
            arcStart[s] = Int32(arcs.count); arcs.append(contentsOf: k.arcTables)
        }
        if k.blends.isEmpty { blendStart[s] = -1 } else { blendStart[s] = Int32(blends.count); blends.append(contentsOf: k.blends) }
        if f & SlotFlags.decompose == 0 || k.keys.isEmpty { keyStart[s] = -1; keyCount[s] = 0 } else {
            keyStart[s] = Int32(keys.count); keyCount[s] = Int32(k.keys.count / 16); keys.append(contentsOf: k.keys)
        }
        segmentCount[s] = Int32(k.segments)
        lastSegment[s] = 0
        if f & SlotFlags.decompose != 0 { decomposedSlots += 1 }
        if arcStart[s] >= 0 { arcSlots += 1 }
        for c in 0..<width {
            span[s * width + c] = k.span.isEmpty ? 0 : k.span[c]
            scratch[s * width + c] = 0
        }
        angle[s] = .nan
        return Int32(s)
    }

    /// The schedule of k's key times and curves, made if there is none.
    private func scheduleFor(_ k: CompiledKeyframes) -> Int32 {
        let key = KeyframeScheduleKey(k)
        if let g = scheduleIndex[key] { return g }
        let made = KeyframeSchedule(k, width: width)
        let g: Int32
        if let free = freeSchedules.popLast() {
            g = free
            schedules[Int(g)] = made; scheduleKeys[Int(g)] = key
        } else {
            g = Int32(schedules.count)
            schedules.append(made); scheduleKeys.append(key)
        }
        scheduleIndex[key] = g
        return g
    }

    /// Takes slot s out of its schedule, freeing the schedule when s was its last member.
    private func leaveSchedule(_ s: Int) {
        let g = Int(schedule[s])
        let moved = schedules[g].remove(Int(member[s]))
        if moved >= 0 { member[Int(moved)] = member[s] }
        if schedules[g].count == 0, let key = scheduleKeys[g] {
            schedules[g].free()
            scheduleKeys[g] = nil
            scheduleIndex[key] = nil
            freeSchedules.append(Int32(g))
        }
    }

    /// Removes slot s (the last slot moves into it); returns the moved record or -1.
    func remove(_ s: Int32) -> Int32 {
        let s = Int(s), last = count - 1
        if schedule[s] >= 0 {
            leaveSchedule(s)
        } else {
            garbage += Int(segmentCount[s]) * (2 + 4 * width)
            pooledSlots -= 1
        }
        if flags[s] & SlotFlags.decompose != 0 { decomposedSlots -= 1 }
        if arcStart[s] >= 0 { arcSlots -= 1 }
        if s != last {
            layer[s] = layer[last]; timing[s] = timing[last]; record[s] = record[last]; flags[s] = flags[last]
            segmentStart[s] = segmentStart[last]; timeStart[s] = timeStart[last]
            coefficientStart[s] = coefficientStart[last]; arcStart[s] = arcStart[last]
            segmentCount[s] = segmentCount[last]; lastSegment[s] = lastSegment[last]
            blendStart[s] = blendStart[last]; keyStart[s] = keyStart[last]; keyCount[s] = keyCount[last]
            schedule[s] = schedule[last]; member[s] = member[last]
            if schedule[s] >= 0 { schedules[Int(schedule[s])].members[Int(member[s])] = Int32(s) }
            for c in 0..<width {
                span[s * width + c] = span[last * width + c]
                scratch[s * width + c] = scratch[last * width + c]
            }
            angle[s] = angle[last]
        }
        count -= 1
        if garbage > 4096 && garbage * 2 > coefficients.count { compact() }
        return s == last ? -1 : record[s]
    }

    /// Rewrites the pools without the keys of removed animations.
    private func compact() {
        var t = Pool<Double>(), cv = Pool<Int32>(), co = Pool<Double>(), ar = Pool<Double>(), bl = Pool<TransformBlend>()
        var ks = Pool<Double>()
        let arcLen = CompiledKeyframes.arcStride
        for s in 0..<count where schedule[s] < 0 {
            let n = Int(segmentCount[s])
            let ts = Int(timeStart[s]), ss = Int(segmentStart[s]), cs = Int(coefficientStart[s])
            timeStart[s] = Int32(t.count); t.append(from: times, ts, n + 1)
            segmentStart[s] = Int32(cv.count); cv.append(from: curves, ss, n)
            coefficientStart[s] = Int32(co.count); co.append(from: coefficients, cs, n * width * 4)
            if arcStart[s] >= 0 {
                let a = Int(arcStart[s])
                arcStart[s] = Int32(ar.count); ar.append(from: arcs, a, n * arcLen)
            }
            if blendStart[s] >= 0 {
                let b = Int(blendStart[s])
                blendStart[s] = Int32(bl.count); bl.append(from: blends, b, n)
            }
            if keyStart[s] >= 0 {
                let k = Int(keyStart[s])
                keyStart[s] = Int32(ks.count); ks.append(from: keys, k, Int(keyCount[s]) * 16)
            }
        }
        times.free(); curves.free(); coefficients.free(); arcs.free(); blends.free(); keys.free()
        times = t; curves = cv; coefficients = co; arcs = ar; blends = bl; keys = ks
        garbage = 0
    }

    /// The segment and local parameter of progress u in slot s (`arcs`: the track may hold
    /// slots with inverse arc-length tables).
    @inline(__always)
    func locate(_ s: Int, _ u: Double, curveTable: UnsafePointer<UnitBezier>, arcs: Bool = true)
        -> (segment: Int, local: Double) {
        let hint = Int(lastSegment[s])
        let (i, x) = locateSegment(u, times: times.base + Int(timeStart[s]), curves: curves.base + Int(segmentStart[s]),
                                   segments: Int(segmentCount[s]), from: hint, curveTable: curveTable)
        if i != hint { lastSegment[s] = Int32(truncatingIfNeeded: i) }
        return (i, arcs && arcStart[s] >= 0 ? invertArc(s, i, x) : x)
    }

    /// A whole-transform slot flagged `decompose`: segment `i` at parameter `x` by
    /// decomposition when its keys turn, shear or have perspective (else the entries' value
    /// already in `out`, less the cumulative span), then each cumulative repetition
    /// concatenating the last key. Writes the 16 lanes at `out`.
    @inline(never)
    private func evaluateMatrix(_ s: Int, segment i: Int, _ x: Double, iteration k: Double, into out: UnsafeMutablePointer<Double>) {
        // Key j of the slot, exactly as given.
        let keyBase = keys.base + Int(keyStart[s])
        @inline(__always) func key(_ j: Int) -> CATransform3D { LaneValue.transform(keyBase + j * 16) }
        var m: CATransform3D
        if blendStart[s] >= 0, case let blend = blends.base[Int(blendStart[s]) + i], blend.mode != .linear {
            m = blend.value(at: x, from: key(i), to: key(i + 1))
        } else {
            for c in 0..<16 { out[c] -= k * span[s * 16 + c] }
            m = LaneValue.transform(out)
        }
        if k > 0 { m = CATransform3DConcat(m, TransformBlend.power(key(Int(keyCount[s]) - 1), Int(k))) }
        LaneValue.store(m, into: out)
    }

    @inline(__always)
    private func invertArc(_ s: Int, _ i: Int, _ x: Double) -> Double {
        CompiledKeyframes.invertArc(x, table: UnsafeBufferPointer(start: arcs.base, count: arcs.count),
                                    tableBase: Int(arcStart[s]) + i * CompiledKeyframes.arcStride,
                                    coefficients: UnsafeBufferPointer(start: coefficients.base, count: coefficients.count),
                                    coefficientBase: Int(coefficientStart[s]) + i * width * 4, width: width)
    }

    /// Evaluates every slot at its entry's progress; writes presentation lanes (or scratch
    /// for composed slots) and tangent angles for rotating slots.
    func evaluate(progress prog: UnsafeMutablePointer<Double>, phase: UnsafeMutablePointer<UInt8>,
                  iteration: UnsafeMutablePointer<Double>, curveTable: [UnitBezier],
                  presentation pres: UnsafeMutablePointer<Double>, model: UnsafeMutablePointer<Double>) {
        curveTable.withUnsafeBufferPointer { table in
            if pooledSlots < count { evaluateSchedules(prog, phase, iteration, table.baseAddress!, pres, model) }
            // Two copies of the loop: inlined in the one without tables, the inversion made
            // the keyframe loop 6 instructions longer per slot (139 -> 145).
            if arcSlots > 0 {
                evaluate(prog, phase, iteration, table.baseAddress!, pres, model, arcs: true)
            } else if pooledSlots > 0 {
                evaluate(prog, phase, iteration, table.baseAddress!, pres, model, arcs: false)
            }
            if decomposedSlots > 0 { evaluateDecomposed(prog, phase, iteration, table.baseAddress!, pres) }
        }
    }

    /// The slots flagged `decompose`, again: their entries' values (written by the loop over
    /// every slot) become the decomposed and concatenated transform (`evaluateMatrix`).
    @inline(never)
    private func evaluateDecomposed(_ prog: UnsafeMutablePointer<Double>, _ phase: UnsafeMutablePointer<UInt8>,
                                    _ iteration: UnsafeMutablePointer<Double>, _ curveTable: UnsafePointer<UnitBezier>,
                                    _ pres: UnsafeMutablePointer<Double>) {
        for s in 0..<count where flags[s] & SlotFlags.decompose != 0 {
            let e = Int(timing[s])
            guard phase[e] == TimingPhase.active.rawValue else { continue }
            let (i, x) = locate(s, prog[e], curveTable: curveTable)
            let f = flags[s]
            let k = f & SlotFlags.cumulative != 0 ? iteration[e] : 0
            let out = f & SlotFlags.compose != 0 ? scratch.base + s * width : pres + (Int(layer[s]) * propertyWidth + offset)
            evaluateMatrix(s, segment: i, x, iteration: k, into: out)
        }
    }

    /// The slots of each schedule, member by member: the segment and its local parameter
    /// are found once for each run of members on one timing entry (all of them, for
    /// animations added together), and each member's coefficients are the next in the
    /// segment's slab.
    @inline(never)
    private func evaluateSchedules(_ prog: UnsafeMutablePointer<Double>, _ phase: UnsafeMutablePointer<UInt8>,
                                   _ iteration: UnsafeMutablePointer<Double>, _ curveTable: UnsafePointer<UnitBezier>,
                                   _ pres: UnsafeMutablePointer<Double>, _ model: UnsafeMutablePointer<Double>) {
        let w = width, pw = propertyWidth, off = offset
        let active = TimingPhase.active.rawValue, inactive = TimingPhase.inactive.rawValue
        for g in 0..<schedules.count where schedules[g].count > 0 {
            var sc = schedules[g]
            let stride = sc.stride
            var lastEntry = -1, ph: UInt8 = 0, x = 0.0
            var slab = sc.coefficients
            for m in 0..<sc.count {
                let s = Int(sc.members[m])
                let e = Int(timing[s])
                if e != lastEntry {
                    lastEntry = e
                    ph = phase[e]
                    if ph == active {
                        let (i, local) = sc.locate(prog[e], curveTable: curveTable)
                        x = local
                        slab = sc.coefficients + i &* sc.capacity &* stride
                    }
                }
                let f = flags[s]
                let row = Int(layer[s])
                if ph != active {
                    if ph == inactive && f & SlotFlags.compose == 0 {
                        for c in 0..<w { pres[row &* pw &+ off &+ c] = model[row &* pw &+ off &+ c] }
                    }
                    continue
                }
                let out = f & SlotFlags.compose != 0 ? scratch.base + s &* w : pres + (row &* pw &+ off)
                let q = slab + m &* stride
                if f & SlotFlags.cumulative == 0 {
                    for c in 0..<w {
                        let l = q + c &<< 2
                        out[c] = ((l[0] * x + l[1]) * x + l[2]) * x + l[3]
                    }
                } else {
                    let k = iteration[e], spans = span.base + s &* w
                    for c in 0..<w {
                        let l = q + c &<< 2
                        out[c] = ((l[0] * x + l[1]) * x + l[2]) * x + l[3] + k * spans[c]
                    }
                }
            }
            schedules[g].lastSegment = sc.lastSegment
        }
    }

    @inline(__always)
    private func evaluate(_ prog: UnsafeMutablePointer<Double>, _ phase: UnsafeMutablePointer<UInt8>,
                          _ iteration: UnsafeMutablePointer<Double>, _ curveTable: UnsafePointer<UnitBezier>,
                          _ pres: UnsafeMutablePointer<Double>, _ model: UnsafeMutablePointer<Double>, arcs: Bool) {
        let w = width, pw = propertyWidth, off = offset
        let co = coefficients.base
        for s in 0..<count where schedule[s] < 0 {
            let e = Int(timing[s])
            let ph = phase[e]
            let row = Int(layer[s])
            let f = flags[s]
            if ph != TimingPhase.active.rawValue {
                angle[s] = .nan
                if ph == TimingPhase.inactive.rawValue && f & SlotFlags.compose == 0 {
                    for c in 0..<w { pres[row * pw + off + c] = model[row * pw + off + c] }
                }
                continue
            }
            let (i, x) = locate(s, prog[e], curveTable: curveTable, arcs: arcs)
            // Wrapping index arithmetic: indices are in range by construction, and checked
            // arithmetic was a third of the loop's instructions.
            let base = Int(coefficientStart[s]) &+ i &* (w &<< 2)
            let k = f & SlotFlags.cumulative != 0 ? iteration[e] : 0
            let out = f & SlotFlags.compose != 0 ? scratch.base + s &* w : pres + (row &* pw &+ off)
            let spans = span.base + s &* w
            for c in 0..<w {
                let q = co + (base &+ c &<< 2)
                out[c] = ((q[0] * x + q[1]) * x + q[2]) * x + q[3] + k * spans[c]
            }
            if f & SlotFlags.rotate != 0 && w >= 2 {
                func slope(_ c: Int) -> Double {
                    let a = co[base + c * 4], b = co[base + c * 4 + 1], cc = co[base + c * 4 + 2]
                    return (3 * a * x + 2 * b) * x + cc
                }
                var dx = slope(0), dy = slope(1)
                if dx == 0 && dy == 0 {
                    // A cusp: look just inside the segment.
                    let xe = x < 0.5 ? 1e-6 : 1 - 1e-6
                    let a0 = co[base], b0 = co[base + 1], c0 = co[base + 2]
                    let a1 = co[base + 4], b1 = co[base + 5], c1 = co[base + 6]
                    dx = (3 * a0 * xe + 2 * b0) * xe + c0
                    dy = (3 * a1 * xe + 2 * b1) * xe + c1
                }
                var ang = (dy == 0 && dx == 0) ? 0 : atan2Double(dy, dx)
                if f & SlotFlags.rotateReverse != 0 { ang += Double.pi }
                angle[s] = ang
            }
        }
    }
}

@inline(__always) func atan2Double(_ y: Double, _ x: Double) -> Double {
    #if canImport(Glibc)
    return Glibc.atan2(y, x)
    #else
    return Foundation.atan2(y, x)
    #endif
}
