import Foundation

/// One piece of a keyframe animation between two key times, as a function of a local
/// parameter s in 0...1. Every component is computed the same way.
enum KeyframeSegment {
    /// A constant value (discrete keyframes, a single keyframe).
    case hold([Double])
    /// A straight line.
    case line([Double], [Double])
    /// A cubic Hermite piece: from p0 with tangent m0 to p1 with tangent m1.
    case hermite(p0: [Double], m0: [Double], p1: [Double], m1: [Double])
    /// A quadratic Bézier curve.
    case quadratic([Double], control: [Double], [Double])
    /// A cubic Bézier curve.
    case cubic([Double], control1: [Double], control2: [Double], [Double])

    func value(at s: Double) -> [Double] {
        switch self {
        case .hold(let p):
            return p
        case .line(let a, let b):
            return zip(a, b).map { a, b in a + (b - a) * s }
        case .hermite(let p0, let m0, let p1, let m1):
            let s2 = s * s, s3 = s2 * s
            let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s
            let h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
            return (0..<p0.count).map { h00 * p0[$0] + h10 * m0[$0] + h01 * p1[$0] + h11 * m1[$0] }
        case .quadratic(let p0, let c, let p1):
            let u = 1 - s
            return (0..<p0.count).map { u * u * p0[$0] + 2 * u * s * c[$0] + s * s * p1[$0] }
        case .cubic(let p0, let c1, let c2, let p1):
            let u = 1 - s
            return (0..<p0.count).map {
                u * u * u * p0[$0] + 3 * u * u * s * c1[$0] + 3 * u * s * s * c2[$0] + s * s * s * p1[$0]
            }
        }
    }

    /// The two keys a keyframe segment runs between, exactly (nil: a held value or a path's
    /// curve).
    var keys: ([Double], [Double])? {
        switch self {
        case .line(let a, let b): return (a, b)
        case .hermite(let p0, _, let p1, _): return (p0, p1)
        default: return nil
        }
    }

    /// d value / ds.
    func derivative(at s: Double) -> [Double] {
        switch self {
        case .hold(let p):
            return [Double](repeating: 0, count: p.count)
        case .line(let a, let b):
            return zip(a, b).map { a, b in b - a }
        case .hermite(let p0, let m0, let p1, let m1):
            let s2 = s * s
            let d00 = 6 * s2 - 6 * s, d10 = 3 * s2 - 4 * s + 1
            let d01 = -6 * s2 + 6 * s, d11 = 3 * s2 - 2 * s
            return (0..<p0.count).map { d00 * p0[$0] + d10 * m0[$0] + d01 * p1[$0] + d11 * m1[$0] }
        case .quadratic(let p0, let c, let p1):
            return (0..<p0.count).map { 2 * (1 - s) * (c[$0] - p0[$0]) + 2 * s * (p1[$0] - c[$0]) }
        case .cubic(let p0, let c1, let c2, let p1):
            let u = 1 - s
            return (0..<p0.count).map {
                3 * u * u * (c1[$0] - p0[$0]) + 6 * u * s * (c2[$0] - c1[$0]) + 3 * s * s * (p1[$0] - c2[$0])
            }
        }
    }

    /// |d value / ds|.
    func speed(at s: Double) -> Double {
        derivative(at: s).reduce(0) { $0 + $1 * $1 }.squareRoot()
    }

    /// Arc length from parameter 0 to `s`: adaptive Simpson quadrature of the speed (the
    /// speed has kinks where it touches zero, which fixed-node rules get wrong).
    func arcLength(to s: Double) -> Double {
        if value(at: 0).count == 1 { return variation(to: s) }
        guard s > 0 else { return 0 }
        func simpson(_ a: Double, _ b: Double, _ fa: Double, _ fm: Double, _ fb: Double) -> Double {
            (b - a) / 6 * (fa + 4 * fm + fb)
        }
        func adaptive(_ a: Double, _ b: Double, _ fa: Double, _ fm: Double, _ fb: Double,
                      _ whole: Double, _ tolerance: Double, _ depth: Int) -> Double {
            let m = (a + b) / 2
            let lm = (a + m) / 2, rm = (m + b) / 2
            let flm = speed(at: lm), frm = speed(at: rm)
            let left = simpson(a, m, fa, flm, fm), right = simpson(m, b, fm, frm, fb)
            if depth <= 0 || !(abs(left + right - whole) > 15 * tolerance) {   // NaN stops too
                return left + right + (left + right - whole) / 15
            }
            return adaptive(a, m, fa, flm, fm, left, tolerance / 2, depth - 1)
                + adaptive(m, b, fm, frm, fb, right, tolerance / 2, depth - 1)
        }
        // Start from 8 pieces so no feature hides between the first samples.
        var total = 0.0
        for j in 0..<8 {
            let a = s * Double(j) / 8, b = s * Double(j + 1) / 8
            let fa = speed(at: a), fm = speed(at: (a + b) / 2), fb = speed(at: b)
            total += adaptive(a, b, fa, fm, fb, simpson(a, b, fa, fm, fb), 1e-11, 40)
        }
        return total
    }

    /// For a single lane the arc length is the total variation: |v(b) - v(a)| summed over the
    /// pieces between the zeros of v' (found by sampling for sign changes, then bisection),
    /// exact where quadrature of |v'| would stumble on its kinks.
    func variation(to s: Double) -> Double {
        guard s > 0 else { return 0 }
        let samples = 64
        var cuts = [0.0]
        var previous = derivative(at: 0)[0]
        for j in 1...samples {
            let x = s * Double(j) / Double(samples)
            let d = derivative(at: x)[0]
            if (previous < 0 && d > 0) || (previous > 0 && d < 0) {
                var lo = s * Double(j - 1) / Double(samples), hi = x
                for _ in 0..<60 {
                    let mid = (lo + hi) / 2
                    let dm = derivative(at: mid)[0]
                    if (dm < 0) == (previous < 0) { lo = mid } else { hi = mid }
                }
                cuts.append((lo + hi) / 2)
            }
            if d != 0 { previous = d }
        }
        cuts.append(s)
        var total = 0.0
        for i in 1..<cuts.count { total += abs(value(at: cuts[i])[0] - value(at: cuts[i - 1])[0]) }
        return total
    }

    /// The parameter at which the arc length reaches `fraction` of `length` (the segment's
    /// whole length): Newton's method on the arc length, kept inside a bisection bracket.
    func parameter(atArcFraction fraction: Double, length: Double) -> Double {
        guard length > 0 else { return fraction }
        if fraction <= 0 { return 0 }
        if fraction >= 1 { return 1 }
        let target = fraction * length
        var lo = 0.0, hi = 1.0, s = fraction
        for _ in 0..<60 {
            let error = arcLength(to: s) - target
            if abs(error) <= 1e-13 * length { break }
            if error > 0 { hi = s } else { lo = s }
            let d = speed(at: s)
            var next = d > 0 ? s - error / d : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            if next == s { break }
            s = next
        }
        return s
    }
}

/// A keyframe or path animation resolved when it is added: its segments, the key times
/// bounding them (in the animation's progress), one timing function per segment, and
/// whether segments are traversed at constant speed.
final class KeyframeSequence {
    let segments: [KeyframeSegment]
    /// segments.count + 1 boundaries, non-decreasing, 0...1.
    let times: [Double]
    let timingFunctions: [CAMediaTimingFunction?]
    /// Arc length of each segment when segments run at constant speed (paced curves).
    let constantSpeedLengths: [Double]?
    /// Last value minus first value (what each cumulative repeat adds).
    let span: [Double]

    init(segments: [KeyframeSegment], times: [Double], timingFunctions: [CAMediaTimingFunction?],
         constantSpeedLengths: [Double]?, span: [Double]) {
        self.segments = segments
        self.times = times
        self.timingFunctions = timingFunctions
        self.constantSpeedLengths = constantSpeedLengths
        self.span = span
    }

    /// The value at progress `u` of the animation, and the tangent (first two components)
    /// there, for rotation along a path.
    func sample(at u: Double) -> (value: [Double], tangent: (Double, Double)) {
        let (i, x) = locate(u)
        let segment = segments[i]
        let value = segment.value(at: x)
        guard value.count >= 2 else { return (value, (0, 0)) }
        var d = segment.derivative(at: x)
        if d[0] == 0 && d[1] == 0 {
            // A cusp (a control point on its end point): look just inside the segment.
            d = segment.derivative(at: x < 0.5 ? 1e-6 : 1 - 1e-6)
        }
        return (value, (d[0], d[1]))
    }

    /// The segment holding progress `u` (the last one whose start key time u has reached)
    /// and the parameter there: eased by the segment's timing function, at constant speed
    /// for paced curves.
    func locate(_ u: Double) -> (segment: Int, parameter: Double) {
        var i = 0
        while i + 1 < segments.count && u >= times[i + 1] { i += 1 }
        let t0 = times[i], t1 = times[i + 1]
        var x: Double
        if t1 > t0 {
            x = (u - t0) / (t1 - t0)
        } else {
            x = u >= t1 ? 1 : 0
        }
        x = min(max(x, 0), 1)
        if let f = timingFunctions[i] { x = f.progress(at: x) }
        if let lengths = constantSpeedLengths {
            x = segments[i].parameter(atArcFraction: x, length: lengths[i])
        }
        return (i, x)
    }

    /// A whole transform's value at progress `u` (SEMANTICS.md, "Whole transforms"): a
    /// segment between two keys that turn, shear or have perspective interpolates by
    /// decomposition, as a basic animation between them does; a segment between keys that
    /// only scale and translate follows the calculation mode entry by entry (the cubic spline
    /// too); discrete segments hold.
    func transformValue(at u: Double) -> [Double] {
        let (i, x) = locate(u)
        let segment = segments[i]
        guard let (k0, k1) = segment.keys else { return segment.value(at: x) }
        let a = Boxing.transform(k0), b = Boxing.transform(k1)
        let blend = TransformBlend(from: a, to: b)
        guard blend.mode != .linear else { return segment.value(at: x) }
        return Boxing.components(of: blend.value(at: x, from: a, to: b))
    }

    /// The last key (what each cumulative repetition of a whole transform concatenates).
    var lastValue: [Double] { segments[segments.count - 1].keys?.1 ?? segments[segments.count - 1].value(at: 1) }
}

/// Turns a CAKeyframeAnimation into a KeyframeSequence; bad input gets a diagnostic and nil.
enum KeyframeBuilder {
    static func build(_ animation: CAKeyframeAnimation, kind: ValueKind, width: Int) -> KeyframeSequence? {
        let mode = animation.calculationMode
        let paced = mode == .paced || mode == .cubicPaced
        if let path = animation.path {
            guard kind == .point && width == 2 else {
                StrataDiagnostics.emit(.wrongValueType,
                    "CAKeyframeAnimation.path needs a point key path; \"\(animation.keyPath ?? "")\" is not one; animation not added")
                return nil
            }
            return buildPath(path, animation)
        }
        guard let values = animation.values, !values.isEmpty else {
            StrataDiagnostics.emit(.invalidArgument,
                "CAKeyframeAnimation \"\(animation.keyPath ?? "")\" has no values and no path; animation not added")
            return nil
        }
        var points: [[Double]] = []
        for (i, v) in values.enumerated() {
            guard var c = Boxing.components(v, kind: kind, width: width) else {
                StrataDiagnostics.emit(.wrongValueType,
                    "CAKeyframeAnimation values[\(i)] of type \(type(of: v)) does not fit \"\(animation.keyPath ?? "")\"; animation not added")
                return nil
            }
            // A nil colour interpolates as transparent black.
            if kind == .color && c.allSatisfy({ $0.isNaN }) { c = [0, 0, 0, 0] }
            guard c.allSatisfy({ $0.isFinite }) else {
                StrataDiagnostics.emit(.nonFiniteValue, "CAKeyframeAnimation values[\(i)] = \(c) is not finite; animation not added")
                return nil
            }
            if paced && c.contains(where: { abs($0) > CGPath.pacedCoordinateLimit }) {
                StrataDiagnostics.emit(.invalidArgument, "CAKeyframeAnimation values[\(i)] = \(c) is beyond ±1e150: "
                    + "a paced animation's length cannot be measured there; animation not added")
                return nil
            }
            points.append(c)
        }
        return build(animation, points: points)
    }

    /// The sequence through `points` (lists of components of one width, already validated)
    /// at the animation's key times, timing functions and calculation mode.
    static func build(_ animation: CAKeyframeAnimation, points: [[Double]]) -> KeyframeSequence? {
        let mode = animation.calculationMode
        let paced = mode == .paced || mode == .cubicPaced
        let n = points.count
        var segments: [KeyframeSegment] = []
        if mode == .discrete {
            segments = points.map { .hold($0) }
        } else if n == 1 {
            segments = [.hold(points[0])]
        } else if mode == .cubic || mode == .cubicPaced {
            // Uniform Catmull-Rom tangents; one-sided at the ends.
            func tangent(_ i: Int) -> [Double] {
                if i == 0 { return zip(points[1], points[0]).map { $0 - $1 } }
                if i == n - 1 { return zip(points[n - 1], points[n - 2]).map { $0 - $1 } }
                return zip(points[i + 1], points[i - 1]).map { ($0 - $1) / 2 }
            }
            for i in 0..<(n - 1) {
                segments.append(.hermite(p0: points[i], m0: tangent(i), p1: points[i + 1], m1: tangent(i + 1)))
            }
        } else {
            for i in 0..<(n - 1) { segments.append(.line(points[i], points[i + 1])) }
        }
        let span = zip(points[n - 1], points[0]).map { $0 - $1 }
        if paced {
            let lengths: [Double]
            if mode == .cubicPaced {
                lengths = segments.map { $0.arcLength(to: 1) }
            } else {
                lengths = segments.map { segment -> Double in
                    if case .line(let a, let b) = segment {
                        return zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
                    }
                    return 0
                }
            }
            return KeyframeSequence(segments: segments, times: pacedTimes(lengths),
                                    timingFunctions: Array(repeating: nil, count: segments.count),
                                    constantSpeedLengths: mode == .cubicPaced ? lengths : nil, span: span)
        }
        guard let times = keyTimes(animation, count: segments.count + 1,
                                   what: "values: \(n), mode \(mode.rawValue)"),
              let functions = timingFunctions(animation, segments: segments.count) else { return nil }
        return KeyframeSequence(segments: segments, times: times, timingFunctions: functions,
                                constantSpeedLengths: nil, span: span)
    }

    /// A path becomes one segment per element (lines, quadratic and cubic curves;
    /// closeSubpath draws back to the subpath's start; a later moveTo jumps).
    static func buildPath(_ path: CGPath, _ animation: CAKeyframeAnimation) -> KeyframeSequence? {
        let paced = animation.calculationMode == .paced || animation.calculationMode == .cubicPaced
        if let problem = path.keyframeProblem(paced: paced) {
            StrataDiagnostics.emit(problem.code, problem.message + "; animation not added")
            return nil
        }
        func c(_ p: CGPoint) -> [Double] { [Double(p.x), Double(p.y)] }
        var segments: [KeyframeSegment] = []
        var current = CGPoint.zero, subpathStart = CGPoint.zero
        var first: CGPoint?
        for element in path.elements {
            switch element {
            case .moveTo(let p):
                current = p
                subpathStart = p
                if first == nil { first = p }
            case .addLine(let p):
                segments.append(.line(c(current), c(p)))
                current = p
            case .addQuadCurve(let p, let control):
                segments.append(.quadratic(c(current), control: c(control), c(p)))
                current = p
            case .addCurve(let p, let control1, let control2):
                segments.append(.cubic(c(current), control1: c(control1), control2: c(control2), c(p)))
                current = p
            case .closeSubpath:
                if current != subpathStart { segments.append(.line(c(current), c(subpathStart))) }
                current = subpathStart
            }
        }
        if segments.isEmpty { segments = [.hold(c(first ?? .zero))] }
        let mode = animation.calculationMode
        if mode == .discrete {
            // Jump from vertex to vertex: each segment holds its start point.
            segments = segments.map { .hold($0.value(at: 0)) }
        }
        let start = segments[0].value(at: 0), end = segments[segments.count - 1].value(at: 1)
        let span = zip(end, start).map { $0 - $1 }
        if mode == .paced || mode == .cubicPaced {
            let lengths = segments.map { $0.arcLength(to: 1) }
            return KeyframeSequence(segments: segments, times: pacedTimes(lengths),
                                    timingFunctions: Array(repeating: nil, count: segments.count),
                                    constantSpeedLengths: lengths, span: span)
        }
        guard let times = keyTimes(animation, count: segments.count + 1, what: "a path of \(segments.count) segments"),
              let functions = timingFunctions(animation, segments: segments.count) else { return nil }
        return KeyframeSequence(segments: segments, times: times, timingFunctions: functions,
                                constantSpeedLengths: nil, span: span)
    }

    /// Key times proportional to the cumulative segment lengths (even when all are zero).
    static func pacedTimes(_ lengths: [Double]) -> [Double] {
        let total = lengths.reduce(0, +)
        guard total > 0 else { return (0...lengths.count).map { Double($0) / Double(lengths.count) } }
        var times = [0.0]
        var sum = 0.0
        for length in lengths {
            sum += length
            times.append(sum / total)
        }
        times[times.count - 1] = 1
        return times
    }

    /// The animation's key times, validated: `count` values in 0...1, non-decreasing;
    /// evenly spaced when nil.
    static func keyTimes(_ animation: CAKeyframeAnimation, count: Int, what: String) -> [Double]? {
        guard let given = animation.keyTimes else {
            return (0..<count).map { Double($0) / Double(count - 1) }
        }
        guard given.count == count else {
            StrataDiagnostics.emit(.invalidArgument,
                "CAKeyframeAnimation keyTimes has \(given.count) entries; \(what) needs \(count); animation not added")
            return nil
        }
        let times = given.map { $0.doubleValue }
        for (i, t) in times.enumerated() {
            guard t.isFinite, t >= 0, t <= 1, i == 0 || t >= times[i - 1] else {
                StrataDiagnostics.emit(.invalidArgument,
                    "CAKeyframeAnimation keyTimes must be non-decreasing values in 0...1; got \(times); animation not added")
                return nil
            }
        }
        return times
    }

    /// One timing function per segment (nil = linear), validated.
    static func timingFunctions(_ animation: CAKeyframeAnimation, segments: Int) -> [CAMediaTimingFunction?]? {
        guard let functions = animation.timingFunctions else { return Array(repeating: nil, count: segments) }
        guard functions.count == segments else {
            StrataDiagnostics.emit(.invalidArgument,
                "CAKeyframeAnimation timingFunctions has \(functions.count) entries; \(segments) segments need \(segments); animation not added")
            return nil
        }
        return functions.map { $0.isLinear ? nil : $0 }
    }
}
