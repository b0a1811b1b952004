import Foundation

/// Turns a `CAKeyframeAnimation` (values or path, key times, timing functions, calculation
/// mode) into `CompiledKeyframes`, once, at `add`. Bad input gets a diagnostic and nil.
enum KeyframeCompiler {
    static func compile(_ a: CAKeyframeAnimation, kind: ValueKind, width: Int, timings: TimingStore) -> CompiledKeyframes? {
        if let path = a.path {
            guard kind == .point && width == 2 else {
                StrataDiagnostics.emit(.wrongValueType,
                    "CAKeyframeAnimation.path needs a point key path; \"\(a.keyPath ?? "")\" is not one; animation not added")
                return nil
            }
            return compilePath(path, a, timings: timings)
        }
        guard let values = a.values, !values.isEmpty else {
            StrataDiagnostics.emit(.invalidArgument, "CAKeyframeAnimation \"\(a.keyPath ?? "")\" has no values and no path; animation not added")
            return nil
        }
        let paced = a.calculationMode == .paced || a.calculationMode == .cubicPaced
        var points: [[Double]] = []
        points.reserveCapacity(values.count)
        for (i, v) in values.enumerated() {
            guard var l = LaneValue.lanes(v, kind: kind, width: width) else {
                StrataDiagnostics.emit(.wrongValueType,
                    "CAKeyframeAnimation values[\(i)] of type \(type(of: v)) does not fit \"\(a.keyPath ?? "")\"; animation not added")
                return nil
            }
            if kind == .color && l.allSatisfy({ $0.isNaN }) { l = [0, 0, 0, 0] }
            guard l.allSatisfy({ $0.isFinite }) else {
                StrataDiagnostics.emit(.nonFiniteValue, "CAKeyframeAnimation values[\(i)] = \(l) is not finite; animation not added")
                return nil
            }
            if paced && l.contains(where: { abs($0) > CGPath.pacedCoordinateLimit }) {
                StrataDiagnostics.emit(.invalidArgument, "CAKeyframeAnimation values[\(i)] = \(l) is beyond ±1e150: "
                    + "a paced animation's length cannot be measured there; animation not added")
                return nil
            }
            points.append(l)
        }
        guard var k = compile(points: points, a, timings: timings) else { return nil }
        if kind == .transform && width == 16 { k.keys = points.flatMap { $0 } }
        if kind == .transform && width == 16 && a.calculationMode != .discrete && points.count > 1 {
            // Whole transforms (SEMANTICS.md): a segment between keys that turn, shear or
            // have perspective interpolates by decomposition; kept only if one does.
            let blends = (0..<(points.count - 1)).map { i in
                points[i].withUnsafeBufferPointer { f in
                    points[i + 1].withUnsafeBufferPointer { t in
                        TransformBlend(from: LaneValue.transform(f.baseAddress!), to: LaneValue.transform(t.baseAddress!))
                    }
                }
            }
            if blends.contains(where: { $0.mode != .linear }) { k.blends = blends }
        }
        return k
    }

    /// Keyframes through `points` (lane lists of one width, already validated) at the
    /// animation's key times, timing functions and calculation mode.
    static func compile(points: [[Double]], _ a: CAKeyframeAnimation, timings: TimingStore) -> CompiledKeyframes? {
        let n = points.count
        let width = points[0].count
        let mode = a.calculationMode
        let paced = mode == .paced || mode == .cubicPaced
        let discrete = mode == .discrete
        let cubic = mode == .cubic || mode == .cubicPaced   // (modes are strings: compared once)
        let segments = discrete ? n : max(n - 1, 1)
        var k = CompiledKeyframes()
        k.span = zip(points[n - 1], points[0]).map { $0 - $1 }

        // Segment polynomials, appended one coefficient at a time into storage reserved
        // once (an array literal of four each was an allocation, and the growth a few more).
        k.coefficients.reserveCapacity(segments * width * 4)
        func append(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
            k.coefficients.append(a); k.coefficients.append(b); k.coefficients.append(c); k.coefficients.append(d)
        }
        for i in 0..<segments {
            let p0 = points[min(i, n - 1)]
            let p1 = points[min(i + 1, n - 1)]
            for c in 0..<width {
                if discrete || n == 1 {
                    append(0, 0, 0, p0[c])
                } else if cubic {
                    let m0 = tangent(points, i, c), m1 = tangent(points, i + 1, c)
                    append(2 * p0[c] + m0 - 2 * p1[c] + m1, -3 * p0[c] - 2 * m0 + 3 * p1[c] - m1, m0, p0[c])
                } else {
                    append(0, 0, p1[c] - p0[c], p0[c])
                }
            }
        }
        // Segment boundaries in progress.
        if paced {
            var lengths: [Double] = []
            if cubic {
                for i in 0..<segments {
                    let (len, table) = arcTable(k.coefficients, segment: i, width: width)
                    lengths.append(len)
                    k.arcTables += table
                }
            } else {
                for i in 0..<segments {
                    let p0 = points[min(i, n - 1)], p1 = points[min(i + 1, n - 1)]
                    lengths.append(zip(p0, p1).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot())
                }
            }
            k.times = cumulativeTimes(lengths)
            k.curves = [Int32](repeating: 0, count: segments)
            return k
        }
        guard let times = keyTimes(a.keyTimes, count: segments + 1, what: "values: \(n), mode \(mode.rawValue)") else { return nil }
        k.times = times
        guard let curves = segmentCurves(a.timingFunctions, segments: segments, timings: timings) else { return nil }
        k.curves = curves
        return k
    }

    /// Catmull-Rom tangent at key i, lane c (one-sided at the ends).
    private static func tangent(_ p: [[Double]], _ i: Int, _ c: Int) -> Double {
        let n = p.count
        if i <= 0 { return p[1][c] - p[0][c] }
        if i >= n - 1 { return p[n - 1][c] - p[n - 2][c] }
        return (p[i + 1][c] - p[i - 1][c]) / 2
    }

    /// Validated key times: `count` entries in 0...1, non-decreasing; evenly spaced if nil.
    /// (`what`, for the diagnostic, is made only for one.)
    static func keyTimes(_ given: [NSNumber]?, count: Int, what: @autoclosure () -> String) -> [Double]? {
        guard let given else { return (0..<count).map { Double($0) / Double(count - 1) } }
        guard given.count == count else {
            StrataDiagnostics.emit(.invalidArgument,
                "CAKeyframeAnimation keyTimes has \(given.count) entries; \(what()) needs \(count); animation not added")
            return nil
        }
        let t = given.map(\.doubleValue)
        for (i, x) in t.enumerated() {
            guard x.isFinite, x >= 0, x <= 1, i == 0 || x >= t[i - 1] else {
                StrataDiagnostics.emit(.invalidArgument,
                    "CAKeyframeAnimation keyTimes must be non-decreasing values in 0...1; got \(t); animation not added")
                return nil
            }
        }
        return t
    }

    static func segmentCurves(_ functions: [CAMediaTimingFunction]?, segments: Int, timings: TimingStore) -> [Int32]? {
        guard let functions else { return [Int32](repeating: 0, count: segments) }
        guard functions.count == segments else {
            StrataDiagnostics.emit(.invalidArgument,
                "CAKeyframeAnimation timingFunctions has \(functions.count) entries; \(segments) segments need \(segments); animation not added")
            return nil
        }
        return functions.map { timings.curveID($0) }
    }

    /// Boundaries proportional to cumulative lengths (evenly spaced when all are zero).
    static func cumulativeTimes(_ lengths: [Double]) -> [Double] {
        let total = lengths.reduce(0, +)
        guard total > 0 else { return (0...lengths.count).map { Double($0) / Double(lengths.count) } }
        var t = [0.0], acc = 0.0
        for l in lengths { acc += l; t.append(acc / total) }
        t[t.count - 1] = 1
        return t
    }

    /// Arc length of segment i and its inverse table (`CompiledKeyframes.inverseTable`), from
    /// `ArcTableCache` when the same segment was compiled recently. Built from the cumulative
    /// length at `arcSamples + 1` evenly spaced
    /// parameters (adaptive 5-point Gauss-Legendre per sub-interval, to about 1e-13 of the
    /// segment's length: where the curve slows almost to a stop, a small error in length is a
    /// large one in the parameter, and in the tangent that rotationMode turns the layer by).
    static func arcTable(_ co: [Double], segment i: Int, width: Int) -> (Double, [Double]) {
        let base = i * width * 4
        let key = ArcTableCache.Key(width: width, coefficients: Array(co[base..<(base + width * 4)]))
        if let cached = ArcTableCache.shared.table(key) { return cached }
        let built = buildArcTable(key.coefficients, width: width)
        ArcTableCache.shared.keep(key, built)
        return built
    }

    private static func buildArcTable(_ co: [Double], width: Int) -> (Double, [Double]) {
        let base = 0
        let k = CompiledKeyframes.arcSamples
        var table = [0.0]
        var acc = 0.0
        if width == 1 {
            for j in 0..<k {
                acc += CompiledKeyframes.length1D(co, base, Double(j) / Double(k), Double(j + 1) / Double(k))
                table.append(acc)
            }
        } else {
            let estimate = CompiledKeyframes.gaussLength(co, base, width, 0, 1)
            for j in 0..<k {
                acc += CompiledKeyframes.adaptiveLength(co, base, width, Double(j) / Double(k), Double(j + 1) / Double(k),
                                                         tolerance: 1e-13 * estimate / Double(k))
                table.append(acc)
            }
        }
        guard acc > 0 else { return (0, CompiledKeyframes.evenInverse) }
        return (acc, CompiledKeyframes.inverseTable(cumulative: table, length: acc, co, base, width))
    }

    /// A path becomes one polynomial segment per element (lines, quadratic and cubic curves;
    /// closeSubpath draws back to the subpath's start; a later moveTo jumps).
    static func compilePath(_ path: CGPath, _ a: CAKeyframeAnimation, timings: TimingStore) -> CompiledKeyframes? {
        if let problem = path.keyframeProblem(paced: a.calculationMode == .paced || a.calculationMode == .cubicPaced) {
            StrataDiagnostics.emit(problem.code, problem.message + "; animation not added")
            return nil
        }
        var co: [Double] = []
        var current = CGPoint.zero, start = CGPoint.zero
        var first: CGPoint?
        func line(_ p: CGPoint) {
            co += [0, 0, Double(p.x - current.x), Double(current.x), 0, 0, Double(p.y - current.y), Double(current.y)]
            current = p
        }
        for e in path.elements {
            switch e {
            case .moveTo(let p):
                current = p; start = p
                if first == nil { first = p }
            case .addLine(let p):
                line(p)
            case .addQuadCurve(let p, let c):
                let x0 = Double(current.x), y0 = Double(current.y)
                co += [0, x0 - 2 * Double(c.x) + Double(p.x), 2 * (Double(c.x) - x0), x0,
                       0, y0 - 2 * Double(c.y) + Double(p.y), 2 * (Double(c.y) - y0), y0]
                current = p
            case .addCurve(let p, let c1, let c2):
                let x = [Double(current.x), Double(c1.x), Double(c2.x), Double(p.x)]
                let y = [Double(current.y), Double(c1.y), Double(c2.y), Double(p.y)]
                for v in [x, y] {
                    co += [-v[0] + 3 * v[1] - 3 * v[2] + v[3], 3 * v[0] - 6 * v[1] + 3 * v[2], -3 * v[0] + 3 * v[1], v[0]]
                }
                current = p
            case .closeSubpath:
                if current != start { line(start) }
                current = start
            }
        }
        var k = CompiledKeyframes()
        if co.isEmpty {
            let p = first ?? .zero
            co = [0, 0, 0, Double(p.x), 0, 0, 0, Double(p.y)]
        }
        let segments = co.count / 8
        let mode = a.calculationMode
        if mode == .discrete {
            // Jump from vertex to vertex: each segment holds its start point.
            for i in 0..<segments { co[i * 8] = 0; co[i * 8 + 1] = 0; co[i * 8 + 2] = 0; co[i * 8 + 4] = 0; co[i * 8 + 5] = 0; co[i * 8 + 6] = 0 }
        }
        k.coefficients = co
        let lastX = co[(segments - 1) * 8] + co[(segments - 1) * 8 + 1] + co[(segments - 1) * 8 + 2] + co[(segments - 1) * 8 + 3]
        let lastY = co[(segments - 1) * 8 + 4] + co[(segments - 1) * 8 + 5] + co[(segments - 1) * 8 + 6] + co[(segments - 1) * 8 + 7]
        k.span = [lastX - co[3], lastY - co[7]]
        if mode == .paced || mode == .cubicPaced {
            var lengths: [Double] = []
            for i in 0..<segments {
                let (len, table) = arcTable(co, segment: i, width: 2)
                lengths.append(len)
                k.arcTables += table
            }
            k.times = cumulativeTimes(lengths)
            k.curves = [Int32](repeating: 0, count: segments)
            return k
        }
        guard let times = keyTimes(a.keyTimes, count: segments + 1, what: "a path of \(segments) segments") else { return nil }
        k.times = times
        guard let curves = segmentCurves(a.timingFunctions, segments: segments, timings: timings) else { return nil }
        k.curves = curves
        return k
    }
}

/// Inverse arc-length tables of recently compiled segments, by their coefficients: apps add
/// one path to many layers (a shared `CGPath`, a staggered animation), and building a table
/// costs about 40 µs (65 parameters solved to full precision, each interval checked). At most
/// `capacity` tables (about 1.5 KB each); when full, it starts again.
final class ArcTableCache: @unchecked Sendable {
    struct Key: Hashable {
        let width: Int
        let coefficients: [Double]
    }

    static let shared = ArcTableCache()
    static let capacity = 256

    private let lock = NSLock()
    private var tables: [Key: (Double, [Double])] = [:]

    func table(_ key: Key) -> (Double, [Double])? {
        lock.lock(); defer { lock.unlock() }
        return tables[key]
    }

    func keep(_ key: Key, _ table: (Double, [Double])) {
        lock.lock(); defer { lock.unlock() }
        if tables.count >= Self.capacity { tables.removeAll(keepingCapacity: true) }
        tables[key] = table
    }
}
