import Foundation

// Core Graphics' arcs, rounded rectangles and element walk on CGPath / CGMutablePath:
// circular arcs become cubic Bézier segments of at most a quarter turn each (control
// distance 4/3 tan(theta / 4) of the radius: within 3e-4 of the radius), as Core Graphics
// builds them.

extension CGMutablePath {
    /// Adds an arc of the circle about `center` from `startAngle` to `endAngle` (radians,
    /// measured from the x axis toward the y axis): `clockwise` false goes toward growing
    /// angles, true toward shrinking ones; a turn of 2 pi or more is a whole circle. A line
    /// joins the current point to the arc's start (a move starts it on an empty path).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
                       transform: CGAffineTransform = .identity) {
        guard radius.isFinite, startAngle.isFinite, endAngle.isFinite, center.x.isFinite, center.y.isFinite else { return }
        var sweep = endAngle - startAngle
        let turn = 2 * CGFloat.pi
        if clockwise {
            if sweep <= -turn { sweep = -turn } else if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) - turn; if sweep <= -turn { sweep += turn } }
        } else {
            if sweep >= turn { sweep = turn } else if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) + turn; if sweep >= turn { sweep -= turn } }
        }
        appendArc(center: center, radius: abs(radius), start: startAngle, sweep: sweep, transform: transform)
    }

    /// Adds an arc about `center` from `startAngle` turning by `delta` (positive toward
    /// growing angles), joined to the current point by a line.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        guard radius.isFinite, startAngle.isFinite, delta.isFinite else { return }
        appendArc(center: center, radius: abs(radius), start: startAngle, sweep: delta, transform: transform)
    }

    /// Adds the arc of `radius` tangent to the line from the current point to `tangent1End`
    /// and to the line from `tangent1End` to `tangent2End`, joined to the current point by a
    /// line (a rounded corner at `tangent1End`). When the three points are on one line, or
    /// the radius is 0, a line to `tangent1End`; on an empty path, a move to `tangent1End`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                       transform: CGAffineTransform = .identity) {
        guard !isEmpty else { move(to: tangent1End, transform: transform); return }
        let inverse = transform.inverted()
        let p0 = transform.isIdentity ? currentPoint : currentPoint.applying(inverse)
        let t1 = tangent1End, t2 = tangent2End
        let v1 = CGPoint(x: p0.x - t1.x, y: p0.y - t1.y), v2 = CGPoint(x: t2.x - t1.x, y: t2.y - t1.y)
        let l1 = (v1.x * v1.x + v1.y * v1.y).squareRoot(), l2 = (v2.x * v2.x + v2.y * v2.y).squareRoot()
        let cross = v1.x * v2.y - v1.y * v2.x
        guard radius > 0, l1 > 0, l2 > 0, abs(cross) > 1e-12 * l1 * l2 else {
            addLine(to: t1, transform: transform)
            return
        }
        let u1 = CGPoint(x: v1.x / l1, y: v1.y / l1), u2 = CGPoint(x: v2.x / l2, y: v2.y / l2)
        let cosine = max(-1, min(1, u1.x * u2.x + u1.y * u2.y))
        let half = acos(cosine) / 2
        let distance = radius / tan(half)
        let start = CGPoint(x: t1.x + u1.x * distance, y: t1.y + u1.y * distance)
        let end = CGPoint(x: t1.x + u2.x * distance, y: t1.y + u2.y * distance)
        let bisector = CGPoint(x: u1.x + u2.x, y: u1.y + u2.y)
        let bl = (bisector.x * bisector.x + bisector.y * bisector.y).squareRoot()
        let reach = radius / sin(half)
        let center = CGPoint(x: t1.x + bisector.x / bl * reach, y: t1.y + bisector.y / bl * reach)
        let a0 = atan2(start.y - center.y, start.x - center.x)
        var sweep = atan2(end.y - center.y, end.x - center.x) - a0
        if sweep > .pi { sweep -= 2 * .pi } else if sweep < -.pi { sweep += 2 * .pi }
        appendArc(center: center, radius: radius, start: a0, sweep: sweep, transform: transform)
    }

    /// Adds a closed rectangle with elliptical corners `cornerWidth` by `cornerHeight`
    /// (each at most half the rectangle's side; 0 gives a plain rectangle), starting at the
    /// minimum-x end of the minimum-y edge and going toward growing x.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        guard !r.isNull, r.width.isFinite, r.height.isFinite else { return }
        let cw = max(0, min(cornerWidth.isFinite ? cornerWidth : 0, r.width / 2))
        let ch = max(0, min(cornerHeight.isFinite ? cornerHeight : 0, r.height / 2))
        guard cw > 0, ch > 0 else { addRect(r, transform: transform); return }
        let k: CGFloat = 0.5522847498
        let (x0, x1, y0, y1) = (r.minX, r.maxX, r.minY, r.maxY)
        move(to: CGPoint(x: x0 + cw, y: y0), transform: transform)
        addLine(to: CGPoint(x: x1 - cw, y: y0), transform: transform)
        addCurve(to: CGPoint(x: x1, y: y0 + ch), control1: CGPoint(x: x1 - cw + cw * k, y: y0),
                 control2: CGPoint(x: x1, y: y0 + ch - ch * k), transform: transform)
        addLine(to: CGPoint(x: x1, y: y1 - ch), transform: transform)
        addCurve(to: CGPoint(x: x1 - cw, y: y1), control1: CGPoint(x: x1, y: y1 - ch + ch * k),
                 control2: CGPoint(x: x1 - cw + cw * k, y: y1), transform: transform)
        addLine(to: CGPoint(x: x0 + cw, y: y1), transform: transform)
        addCurve(to: CGPoint(x: x0, y: y1 - ch), control1: CGPoint(x: x0 + cw - cw * k, y: y1),
                 control2: CGPoint(x: x0, y: y1 - ch + ch * k), transform: transform)
        addLine(to: CGPoint(x: x0, y: y0 + ch), transform: transform)
        addCurve(to: CGPoint(x: x0 + cw, y: y0), control1: CGPoint(x: x0, y: y0 + ch - ch * k),
                 control2: CGPoint(x: x0 + cw - cw * k, y: y0), transform: transform)
        closeSubpath()
    }

    /// The arc from angle `start` turning by `sweep`, in cubic segments of at most a quarter
    /// turn, after a line (or a move, on an empty path) to its first point.
    private func appendArc(center: CGPoint, radius: CGFloat, start: CGFloat, sweep: CGFloat, transform: CGAffineTransform) {
        func point(_ a: CGFloat) -> CGPoint { CGPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a)) }
        let first = point(start)
        if isEmpty { move(to: first, transform: transform) } else { addLine(to: first, transform: transform) }
        guard sweep != 0, radius > 0 else { return }
        let segments = max(1, Int((abs(sweep) / (CGFloat.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / CGFloat(segments)
        let k = 4 / 3 * tan(step / 4) * radius
        var a = start
        for _ in 0..<segments {
            let b = a + step
            let p0 = point(a), p1 = point(b)
            let c1 = CGPoint(x: p0.x - k * sin(a), y: p0.y + k * cos(a))
            let c2 = CGPoint(x: p1.x + k * sin(b), y: p1.y - k * cos(b))
            addCurve(to: p1, control1: c1, control2: c2, transform: transform)
            a = b
        }
    }
}

extension CGPath {
    /// A closed rectangle with elliptical corners (Apple's
    /// `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`); pass nil for no transform.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
                            transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// Calls `block` with each element in order (Apple's `applyWithBlock`): the element's
    /// type and its points (one for moves and lines, two for quadratic curves, the control
    /// points then the end for cubic ones, none for a close), valid during the call only.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let points = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { points.deallocate() }
        points.initialize(repeating: .zero, count: 3)
        for e in elements {
            let type: CGPathElementType
            switch e {
            case .moveTo(let p): type = .moveToPoint; points[0] = p
            case .addLine(let p): type = .addLineToPoint; points[0] = p
            case .addQuadCurve(let p, let c): type = .addQuadCurveToPoint; points[0] = c; points[1] = p
            case .addCurve(let p, let c1, let c2): type = .addCurveToPoint; points[0] = c1; points[1] = c2; points[2] = p
            case .closeSubpath: type = .closeSubpath
            }
            var element = CGPathElement(type: type, points: points)
            withUnsafePointer(to: &element) { block($0) }
        }
    }
}

/// The kind of a path element (Apple's `CGPathElementType`).
public enum CGPathElementType: Int32, Sendable {
    case moveToPoint = 0, addLineToPoint, addQuadCurveToPoint, addCurveToPoint, closeSubpath
}

/// One element as `CGPath.applyWithBlock` hands it: its type and its points.
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>
    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}
