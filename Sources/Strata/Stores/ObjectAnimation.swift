import Foundation

/// What an animation of an object property (contents, mask, paths, filters) shows, kept per
/// record in `AnimationStore.objectValues` (SEMANTICS.md, "Paths").
enum ObjectValues {
    /// Objects that do not interpolate (and paths of different structure): `from` before
    /// progress 0.5, `to` from it on.
    case halves(from: Any?, to: Any?)
    /// Keyframes of objects that do not interpolate (contents' sprite frames, paths of
    /// different structure): `values[i]` shows from key time `times[i]` on.
    case steps([Any], times: [Double])
    /// Paths with the same elements: their points interpolate.
    case morph(PathMorph)

    /// The values a basic animation runs between (what `animation(forKey:)` shows of a
    /// built-in implicit one).
    var endpoints: (from: Any?, to: Any?) {
        switch self {
        case let .halves(f, t): return (f, t)
        case let .steps(v, _): return (v.first, v.last)
        case let .morph(m): return (m.fromPath, m.toPath)
        }
    }

    /// The object shown at `progress` (`morph` evaluates its points, see `PathMorph`).
    @inline(__always)
    func value(at progress: Double, curves: [UnitBezier]) -> Any? {
        switch self {
        case let .halves(f, t):
            return progress < 0.5 ? f : t
        case let .steps(values, times):
            // The last value whose key time the progress has reached.
            var i = 0
            while i + 1 < values.count && progress >= times[i + 1] { i += 1 }
            return values[i]
        case let .morph(m):
            m.evaluate(at: progress, curves: curves)
            return m
        }
    }
}

/// A path whose points interpolate: the coordinates of `template`'s points (`PathPoints`) as
/// one lane each, from a basic animation's endpoints or compiled keyframes. A frame writes the
/// coordinates into `current` (allocating nothing); the `CGPath` is made only when someone
/// reads it (`path`: a presentation copy, the render snapshot), once per evaluation. The
/// layer's animated value is this object until then (`CALayer.presentedObject`).
final class PathMorph {
    let template: CGPath
    /// A basic animation's endpoints (keyframes: empty).
    let from: [Double], delta: [Double]
    let keyframes: CompiledKeyframes?
    /// The paths a basic animation runs between (what `animation(forKey:)` shows).
    let fromPath: CGPath?, toPath: CGPath?
    /// The coordinates of the last evaluation.
    private(set) var current: [Double]
    private var evaluations: UInt64 = 0
    private var made: CGPath?
    private var madeAt: UInt64 = .max

    /// A basic animation from `from` to `to` (paths with the same elements).
    init(from: CGPath, to: CGPath) {
        template = to
        let f = PathPoints.coordinates(from), t = PathPoints.coordinates(to)
        self.from = f
        delta = zip(t, f).map { $0 - $1 }
        keyframes = nil
        fromPath = from; toPath = to
        current = f
    }

    /// Keyframes through paths with `template`'s elements.
    init(template: CGPath, keyframes: CompiledKeyframes) {
        self.template = template
        from = []; delta = []
        self.keyframes = keyframes
        fromPath = nil; toPath = nil
        current = [Double](repeating: 0, count: keyframes.span.count)
    }

    /// Writes the coordinates at `progress` (paths are neither additive nor cumulative).
    func evaluate(at progress: Double, curves: [UnitBezier]) {
        evaluations &+= 1
        let n = current.count
        current.withUnsafeMutableBufferPointer { out in
            let o = out.baseAddress!
            if let k = keyframes {
                k.value(at: progress, width: n, curveTable: curves, into: o)
            } else {
                from.withUnsafeBufferPointer { f in
                    delta.withUnsafeBufferPointer { d in
                        for c in 0..<n { o[c] = f[c] + d[c] * progress }
                    }
                }
            }
        }
    }

    /// The path of the last evaluation (made on the first read after it).
    var path: CGPath {
        if madeAt != evaluations {
            made = current.withUnsafeBufferPointer { PathPoints.path(template, coordinates: $0.baseAddress!) }
            madeAt = evaluations
        }
        return made!
    }
}
