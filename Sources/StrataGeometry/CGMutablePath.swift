import Foundation

/// A path that can be built element by element, spelled as Core Graphics' `CGMutablePath`.
///
/// As in Core Graphics, a line or curve added when there is no current point (an empty
/// path) is ignored, and so is `closeSubpath()` on an empty path.
///
/// ```swift
/// let path = CGMutablePath()
/// path.move(to: .zero); path.addLine(to: CGPoint(x: 10, y: 0)); path.closeSubpath()
/// path.elements.count   // 3
/// ```
public final class CGMutablePath: CGPath {
    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(.moveTo(Self.map(point, transform)))
    }

    /// Adds a straight line from the current point to `point`.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        guard !elements.isEmpty else { return }
        elements.append(.addLine(Self.map(point, transform)))
    }

    /// Adds a quadratic Bézier curve from the current point to `end` with one control point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        guard !elements.isEmpty else { return }
        elements.append(.addQuadCurve(Self.map(end, transform), control: Self.map(control, transform)))
    }

    /// Adds a cubic Bézier curve from the current point to `end` with two control points.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: CGAffineTransform = .identity) {
        guard !elements.isEmpty else { return }
        elements.append(.addCurve(Self.map(end, transform),
                                  control1: Self.map(control1, transform),
                                  control2: Self.map(control2, transform)))
    }

    /// Closes the current subpath with a line back to its start.
    public func closeSubpath() {
        guard !elements.isEmpty else { return }
        elements.append(.closeSubpath)
    }

    /// Adds a closed rectangle as a new subpath: min-min, max-min, max-max, min-max.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        move(to: CGPoint(x: rect.minX, y: rect.minY), transform: transform)
        addLine(to: CGPoint(x: rect.maxX, y: rect.minY), transform: transform)
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY), transform: transform)
        addLine(to: CGPoint(x: rect.minX, y: rect.maxY), transform: transform)
        closeSubpath()
    }

    /// Adds each rectangle as its own closed subpath.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// Moves to the first point and adds lines through the rest; nothing for an empty array.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for point in points.dropFirst() { addLine(to: point, transform: transform) }
    }

    /// Adds a closed ellipse inscribed in `rect` as four cubic arcs (kappa 0.5522847498),
    /// starting at (maxX, midY) and passing (midX, maxY), (minX, midY), (midX, minY), as Core Graphics.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let kappa: CGFloat = 0.5522847498
        let rx = rect.width / 2, ry = rect.height / 2
        let cx = rect.midX, cy = rect.midY
        let ox = rx * kappa, oy = ry * kappa
        let minX = rect.minX, maxX = rect.maxX, minY = rect.minY, maxY = rect.maxY
        move(to: CGPoint(x: maxX, y: cy), transform: transform)
        addCurve(to: CGPoint(x: cx, y: maxY),
                 control1: CGPoint(x: maxX, y: cy + oy), control2: CGPoint(x: cx + ox, y: maxY),
                 transform: transform)
        addCurve(to: CGPoint(x: minX, y: cy),
                 control1: CGPoint(x: cx - ox, y: maxY), control2: CGPoint(x: minX, y: cy + oy),
                 transform: transform)
        addCurve(to: CGPoint(x: cx, y: minY),
                 control1: CGPoint(x: minX, y: cy - oy), control2: CGPoint(x: cx - ox, y: minY),
                 transform: transform)
        addCurve(to: CGPoint(x: maxX, y: cy),
                 control1: CGPoint(x: cx + ox, y: minY), control2: CGPoint(x: maxX, y: cy - oy),
                 transform: transform)
        closeSubpath()
    }

    /// Appends the elements of `path`, each point mapped through `transform`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        if transform.isIdentity {
            elements.append(contentsOf: path.elements)
            return
        }
        for element in path.elements {
            switch element {
            case .moveTo(let p):
                elements.append(.moveTo(p.applying(transform)))
            case .addLine(let p):
                elements.append(.addLine(p.applying(transform)))
            case .addQuadCurve(let p, let c):
                elements.append(.addQuadCurve(p.applying(transform), control: c.applying(transform)))
            case .addCurve(let p, let c1, let c2):
                elements.append(.addCurve(p.applying(transform),
                                          control1: c1.applying(transform),
                                          control2: c2.applying(transform)))
            case .closeSubpath:
                elements.append(.closeSubpath)
            }
        }
    }

    @inline(__always)
    private static func map(_ point: CGPoint, _ transform: CGAffineTransform) -> CGPoint {
        transform.isIdentity ? point : point.applying(transform)
    }
}
