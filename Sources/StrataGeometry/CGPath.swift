import Foundation

/// One element of a path: the point it ends at, plus its control points for curves.
public enum PathElement: Equatable, Sendable {
    /// Starts a new subpath at the point.
    case moveTo(CGPoint)
    /// A straight line from the current point to the point.
    case addLine(CGPoint)
    /// A quadratic Bézier curve from the current point to the point.
    case addQuadCurve(CGPoint, control: CGPoint)
    /// A cubic Bézier curve from the current point to the point.
    case addCurve(CGPoint, control1: CGPoint, control2: CGPoint)
    /// A straight line back to the start of the current subpath, which it closes.
    case closeSubpath
}

/// An immutable path of lines and Bézier curves, spelled as Core Graphics' `CGPath`;
/// `CGMutablePath` is its mutable subclass.
///
/// ```swift
/// let path = CGMutablePath()
/// path.move(to: CGPoint(x: 0, y: 150))
/// path.addCurve(to: CGPoint(x: 300, y: 150),
///               control1: CGPoint(x: 75, y: 0), control2: CGPoint(x: 225, y: 300))
/// path.boundingBox          // (0, 0, 300, 300): control points included
/// path.boundingBoxOfPath    // (0, ≈92.3, 300, ≈115.5): the curve only
/// ```
open class CGPath: Equatable {
    /// The path's elements in order.
    public package(set) var elements: [PathElement]

    /// Creates an empty path.
    public init() {
        elements = []
    }

    /// Creates a path holding `elements`.
    package init(elements: [PathElement]) {
        self.elements = elements
    }

    /// Creates a closed rectangular path (Apple's `CGPath(rect:transform:)`); pass `nil` for no transform.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// Creates a closed elliptical path inscribed in `rect` (Apple's `CGPath(ellipseIn:transform:)`).
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(elements: path.elements)
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The point the next element starts from; `.zero` for an empty path. After
    /// `closeSubpath` it is the start of the closed subpath.
    public var currentPoint: CGPoint {
        var index = elements.count - 1
        guard index >= 0 else { return .zero }
        if case .closeSubpath = elements[index] {
            // The start of the subpath: its moveTo, or the start of the path before it.
            while index >= 0 {
                if case .moveTo(let p) = elements[index] { return p }
                index -= 1
            }
            return .zero
        }
        return Self.endPoint(of: elements[index]) ?? .zero
    }

    /// The smallest rectangle holding every point of the path including curve control
    /// points; `CGRect.null` for an empty path.
    public var boundingBox: CGRect {
        var box = BoxAccumulator()
        for element in elements {
            switch element {
            case .moveTo(let p), .addLine(let p):
                box.add(p)
            case .addQuadCurve(let p, let c):
                box.add(c); box.add(p)
            case .addCurve(let p, let c1, let c2):
                box.add(c1); box.add(c2); box.add(p)
            case .closeSubpath:
                break
            }
        }
        return box.rect
    }

    /// The smallest rectangle holding the path's lines and curves themselves (control
    /// points only where the curve reaches them); `CGRect.null` for an empty path.
    public var boundingBoxOfPath: CGRect {
        var box = BoxAccumulator()
        var current = CGPoint.zero
        var subpathStart = CGPoint.zero
        for element in elements {
            switch element {
            case .moveTo(let p):
                box.add(p); current = p; subpathStart = p
            case .addLine(let p):
                box.add(p); current = p
            case .addQuadCurve(let p, let c):
                box.add(p)
                // B'(t) = 0 at t = (p0 - c) / (p0 - 2c + p1), per axis.
                for axis in 0..<2 {
                    let p0 = Self.coordinate(current, axis), p1 = Self.coordinate(c, axis)
                    let p2 = Self.coordinate(p, axis)
                    let denominator = p0 - 2 * p1 + p2
                    if denominator != 0 {
                        let t = (p0 - p1) / denominator
                        if t > 0 && t < 1 {
                            box.add(Self.quadPoint(current, c, p, t))
                        }
                    }
                }
                current = p
            case .addCurve(let p, let c1, let c2):
                box.add(p)
                for axis in 0..<2 {
                    let p0 = Self.coordinate(current, axis), p1 = Self.coordinate(c1, axis)
                    let p2 = Self.coordinate(c2, axis), p3 = Self.coordinate(p, axis)
                    // B'(t)/3 = a t² + b t + c
                    let a = -p0 + 3 * p1 - 3 * p2 + p3
                    let b = 2 * (p0 - 2 * p1 + p2)
                    let c = p1 - p0
                    for t in Self.roots(a: a, b: b, c: c) where t > 0 && t < 1 {
                        box.add(Self.cubicPoint(current, c1, c2, p, t))
                    }
                }
                current = p
            case .closeSubpath:
                current = subpathStart
            }
        }
        return box.rect
    }

    /// An immutable copy of the path.
    public func copy() -> CGPath? {
        if type(of: self) == CGPath.self { return self }
        return CGPath(elements: elements)
    }

    /// A mutable copy of the path.
    public func mutableCopy() -> CGMutablePath? {
        CGMutablePath(elements: elements)
    }

    /// Whether two paths have the same elements.
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs === rhs || lhs.elements == rhs.elements
    }

    // MARK: Geometry helpers

    /// The point an element ends at; `nil` for `closeSubpath`.
    package static func endPoint(of element: PathElement) -> CGPoint? {
        switch element {
        case .moveTo(let p), .addLine(let p), .addQuadCurve(let p, _), .addCurve(let p, _, _):
            return p
        case .closeSubpath:
            return nil
        }
    }

    private static func coordinate(_ p: CGPoint, _ axis: Int) -> Double {
        axis == 0 ? Double(p.x) : Double(p.y)
    }

    /// The real roots of `a t² + b t + c` (the linear root when `a` is zero).
    private static func roots(a: Double, b: Double, c: Double) -> [Double] {
        let scale = max(abs(a), abs(b), abs(c))
        if scale == 0 { return [] }
        if abs(a) <= scale * 1e-12 {
            return b == 0 ? [] : [-c / b]
        }
        let discriminant = b * b - 4 * a * c
        if discriminant < 0 { return [] }
        let root = discriminant.squareRoot()
        return [(-b + root) / (2 * a), (-b - root) / (2 * a)]
    }

    private static func quadPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ t: Double) -> CGPoint {
        let u = 1 - t
        let w0 = u * u, w1 = 2 * u * t, w2 = t * t
        return CGPoint(x: w0 * Double(p0.x) + w1 * Double(p1.x) + w2 * Double(p2.x),
                       y: w0 * Double(p0.y) + w1 * Double(p1.y) + w2 * Double(p2.y))
    }

    private static func cubicPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint,
                                   _ t: Double) -> CGPoint {
        let u = 1 - t
        let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
        return CGPoint(x: w0 * Double(p0.x) + w1 * Double(p1.x) + w2 * Double(p2.x) + w3 * Double(p3.x),
                       y: w0 * Double(p0.y) + w1 * Double(p1.y) + w2 * Double(p2.y) + w3 * Double(p3.y))
    }
}

/// Grows a min/max box one point at a time; empty means `CGRect.null`.
private struct BoxAccumulator {
    var minX = Double.infinity, minY = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity

    mutating func add(_ p: CGPoint) {
        let x = Double(p.x), y = Double(p.y)
        minX = min(minX, x); maxX = max(maxX, x)
        minY = min(minY, y); maxY = max(maxY, y)
    }

    var rect: CGRect {
        if minX > maxX || minY > maxY { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

extension CGPath {
    /// Beyond this magnitude a path coordinate is refused by paced keyframe animations: the
    /// squared speed of a curve through it overflows, so its length cannot be measured.
    package static let pacedCoordinateLimit = 1e150

    /// Why `CAKeyframeAnimation` cannot move along this path, or nil: a point or control point
    /// that is not finite, or (paced: `calculationMode` paced or cubicPaced) one beyond
    /// ±`pacedCoordinateLimit`. The message names the element; both engines refuse the same
    /// paths with it (and the animation is not added).
    package func keyframeProblem(paced: Bool) -> (code: StrataDiagnosticCode, message: String)? {
        for (i, e) in elements.enumerated() {
            let points: [CGPoint]
            switch e {
            case .moveTo(let p), .addLine(let p): points = [p]
            case .addQuadCurve(let p, let c): points = [c, p]
            case .addCurve(let p, let c1, let c2): points = [c1, c2, p]
            case .closeSubpath: points = []
            }
            for p in points {
                let x = Double(p.x), y = Double(p.y)
                guard x.isFinite && y.isFinite else {
                    return (.nonFiniteValue, "CAKeyframeAnimation.path element \(i) has the point (\(x), \(y)), which is not finite")
                }
                if paced && max(abs(x), abs(y)) > Self.pacedCoordinateLimit {
                    return (.invalidArgument, "CAKeyframeAnimation.path element \(i) has the point (\(x), \(y)), beyond ±1e150: "
                        + "a paced path's length cannot be measured there")
                }
            }
        }
        return nil
    }
}
