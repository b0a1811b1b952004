import Foundation

/// A path seen as a list of coordinates, for interpolating paths point by point
/// (SEMANTICS.md, "Paths"; Apple's `CAShapeLayer.path`: "If the two paths have a different
/// number of control points or segments, the results are undefined"). Two paths with the same
/// elements (the same count and kinds, in the same order) interpolate every point; paths of
/// different structure do not, and an animation between them switches at half-way.
///
/// The coordinates are x, y of each point in element order; a curve lists its end point, then
/// its control points (`addQuadCurve(p, control:)`: p, control; `addCurve`: p, control1,
/// control2). `closeSubpath` has none. Both engines use this type, so they agree on the order.
///
/// ```swift
/// let a = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
/// let b = CGPath(rect: CGRect(x: 0, y: 0, width: 30, height: 20), transform: nil)
/// PathPoints.sameStructure(a, b)          // true
/// PathPoints.coordinates(a).count         // 8: four corners (closeSubpath has none)
/// ```
package enum PathPoints {
    /// Whether `a` and `b` have the same elements: the same count, and kind by kind.
    package static func sameStructure(_ a: CGPath, _ b: CGPath) -> Bool {
        let x = a.elements, y = b.elements
        guard x.count == y.count else { return false }
        for i in 0..<x.count where kind(x[i]) != kind(y[i]) { return false }
        return true
    }

    /// Whether every path of `paths` has the structure of the first.
    package static func sameStructure(_ paths: [CGPath]) -> Bool {
        guard let first = paths.first else { return true }
        return paths.allSatisfy { sameStructure(first, $0) }
    }

    /// 0 moveTo, 1 line, 2 quadratic curve, 3 cubic curve, 4 closeSubpath.
    package static func kind(_ e: PathElement) -> Int {
        switch e {
        case .moveTo: return 0
        case .addLine: return 1
        case .addQuadCurve: return 2
        case .addCurve: return 3
        case .closeSubpath: return 4
        }
    }

    /// How many coordinates `path` has (2 per point).
    package static func count(_ path: CGPath) -> Int {
        var n = 0
        for e in path.elements {
            switch e {
            case .moveTo, .addLine: n += 2
            case .addQuadCurve: n += 4
            case .addCurve: n += 6
            case .closeSubpath: break
            }
        }
        return n
    }

    /// The coordinates of every point of `path`, in element order.
    package static func coordinates(_ path: CGPath) -> [Double] {
        var c: [Double] = []
        c.reserveCapacity(count(path))
        for e in path.elements { append(e, to: &c) }
        return c
    }

    /// Appends the coordinates of element `e`'s points to `c`.
    private static func append(_ e: PathElement, to c: inout [Double]) {
        switch e {
        case .moveTo(let p), .addLine(let p):
            c += [Double(p.x), Double(p.y)]
        case .addQuadCurve(let p, let q):
            c += [Double(p.x), Double(p.y), Double(q.x), Double(q.y)]
        case .addCurve(let p, let q1, let q2):
            c += [Double(p.x), Double(p.y), Double(q1.x), Double(q1.y), Double(q2.x), Double(q2.y)]
        case .closeSubpath:
            break
        }
    }

    /// A path of `template`'s elements with the coordinates at `c` (`count(template)` of them).
    package static func path(_ template: CGPath, coordinates c: UnsafePointer<Double>) -> CGPath {
        var elements = template.elements
        write(c, into: &elements)
        return CGPath(elements: elements)
    }

    /// A path of `template`'s elements with the coordinates `c`.
    package static func path(_ template: CGPath, coordinates c: [Double]) -> CGPath {
        c.withUnsafeBufferPointer { path(template, coordinates: $0.baseAddress!) }
    }

    /// Replaces the points of `elements`, kinds kept, with the coordinates at `c`.
    package static func write(_ c: UnsafePointer<Double>, into elements: inout [PathElement]) {
        var k = 0
        @inline(__always) func point() -> CGPoint {
            defer { k += 2 }
            return CGPoint(x: c[k], y: c[k + 1])
        }
        for i in 0..<elements.count {
            switch elements[i] {
            case .moveTo: elements[i] = .moveTo(point())
            case .addLine: elements[i] = .addLine(point())
            case .addQuadCurve:
                let p = point()
                elements[i] = .addQuadCurve(p, control: point())
            case .addCurve:
                let p = point(), q1 = point()
                elements[i] = .addCurve(p, control1: q1, control2: point())
            case .closeSubpath: break
            }
        }
    }

    /// The element kinds and coordinates of `path` as one list of numbers (each element's kind,
    /// then its coordinates): what a trace compares.
    package static func trace(_ path: CGPath) -> [Double] {
        var t: [Double] = []
        for e in path.elements {
            t.append(Double(kind(e)))
            append(e, to: &t)
        }
        return t
    }
}
