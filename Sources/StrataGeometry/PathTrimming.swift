import Foundation

extension CGPath {
    /// The part of the path between fractions `start` and `end` of its length, measured over
    /// every subpath in order as `strokeStart` and `strokeEnd` measure it, as lines: curves
    /// are flattened into `segmentsPerCurve` chords each. The whole path (not flattened) when
    /// the range covers it; no elements when it is empty.
    ///
    /// ```swift
    /// let p = CGMutablePath(); p.move(to: .zero); p.addLine(to: CGPoint(x: 100, y: 0))
    /// p.trimmedElements(from: 0, to: 0.25)   // [.moveTo(0, 0), .addLine(25, 0)]
    /// ```
    package func trimmedElements(from start: CGFloat, to end: CGFloat, segmentsPerCurve: Int = 32) -> [PathElement] {
        let a = Swift.max(0, Swift.min(1, start)), b = Swift.max(0, Swift.min(1, end))
        if a <= 0 && b >= 1 { return elements }
        guard b > a else { return [] }
        // Chords (from, to, starts a subpath) in order.
        var chords: [(CGPoint, CGPoint, Bool)] = []
        var current = CGPoint.zero, first = CGPoint.zero, fresh = true
        func chord(to p: CGPoint) { chords.append((current, p, fresh)); fresh = false; current = p }
        for e in elements {
            switch e {
            case let .moveTo(p):
                current = p; first = p; fresh = true
            case let .addLine(p):
                chord(to: p)
            case let .addQuadCurve(p, c):
                let p0 = current
                for k in 1...segmentsPerCurve {
                    let t = CGFloat(k) / CGFloat(segmentsPerCurve), u = 1 - t
                    chord(to: CGPoint(x: u * u * p0.x + 2 * u * t * c.x + t * t * p.x,
                                      y: u * u * p0.y + 2 * u * t * c.y + t * t * p.y))
                }
            case let .addCurve(p, c1, c2):
                let p0 = current
                for k in 1...segmentsPerCurve {
                    let t = CGFloat(k) / CGFloat(segmentsPerCurve), u = 1 - t
                    let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
                    chord(to: CGPoint(x: w0 * p0.x + w1 * c1.x + w2 * c2.x + w3 * p.x,
                                      y: w0 * p0.y + w1 * c1.y + w2 * c2.y + w3 * p.y))
                }
            case .closeSubpath:
                chord(to: first)
                fresh = true
            }
        }
        let lengths = chords.map { (($0.1.x - $0.0.x) * ($0.1.x - $0.0.x) + ($0.1.y - $0.0.y) * ($0.1.y - $0.0.y)).squareRoot() }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return [] }
        let from = a * total, to = b * total
        var out: [PathElement] = []
        var at: CGFloat = 0, drawing = false
        for (j, c) in chords.enumerated() {
            let len = lengths[j], s0 = at, s1 = at + len
            at = s1
            if c.2 { drawing = false }
            guard s1 > from && s0 < to, len > 0 else { continue }
            let u0 = Swift.max(0, (from - s0) / len), u1 = Swift.min(1, (to - s0) / len)
            let d = CGPoint(x: c.1.x - c.0.x, y: c.1.y - c.0.y)
            if !drawing || u0 > 0 {
                out.append(.moveTo(CGPoint(x: c.0.x + d.x * u0, y: c.0.y + d.y * u0)))
                drawing = true
            }
            out.append(.addLine(CGPoint(x: c.0.x + d.x * u1, y: c.0.y + d.y * u1)))
        }
        return out
    }
}
