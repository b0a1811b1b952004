import Foundation

/// The current media time of this thread's engine: the time of the frame being rendered
/// (`CARenderer.beginFrame(atTime:)`), 0 before the first frame.
public func CACurrentMediaTime() -> Double { ReferenceEngine.current.now }

/// A timing curve: a cubic Bézier from (0,0) to (1,1) through two control points, mapping an
/// animation's linear time fraction to its progress.
///
///     let f = CAMediaTimingFunction(name: .easeInEaseOut)
///     var p: [Float] = [0, 0]; f.getControlPoint(at: 1, values: &p)   // p == [0.42, 0]
open class CAMediaTimingFunction: NSObject {
    private let c1x: Float, c1y: Float, c2x: Float, c2y: Float

    /// One of the predefined curves; an unknown name gives `default`'s curve.
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .linear: self.init(controlPoints: 0, 0, 1, 1)
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        }
    }

    /// A curve through the control points (c1x, c1y) and (c2x, c2y). The x coordinates are
    /// clamped to 0...1 so the curve is a function of time; a non-finite coordinate gives the
    /// linear curve and a diagnostic.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        var points = [c1x, c1y, c2x, c2y]
        if !points.allSatisfy({ $0.isFinite }) {
            StrataDiagnostics.emit(.nonFiniteValue,
                "CAMediaTimingFunction control points must be finite; got \(points); using linear")
            points = [0, 0, 1, 1]
        }
        self.c1x = min(max(points[0], 0), 1)
        self.c1y = points[1]
        self.c2x = min(max(points[2], 0), 1)
        self.c2y = points[3]
        super.init()
    }

    /// Control point `index` (0...3: (0,0), c1, c2, (1,1)) written to `values[0]`, `values[1]`.
    public func getControlPoint(at index: Int, values ptr: UnsafeMutablePointer<Float>) {
        switch index {
        case 0: ptr[0] = 0; ptr[1] = 0
        case 1: ptr[0] = c1x; ptr[1] = c1y
        case 2: ptr[0] = c2x; ptr[1] = c2y
        case 3: ptr[0] = 1; ptr[1] = 1
        default:
            StrataDiagnostics.emit(.invalidArgument, "getControlPoint(at: \(index)): index must be 0...3")
        }
    }

    /// The eased progress at linear fraction `x` (a Strata extension, used by tests and tools).
    public func evaluate(at x: Double) -> Double { progress(at: x) }

    /// Whether the curve is the identity (both control points on the diagonal).
    var isLinear: Bool { c1x == c1y && c2x == c2y }

    /// The curve's y where its x is `fraction`: the standard unit-Bézier solve (as in
    /// WebKit's UnitBezier) — the cubic's coefficients, Newton's method from t = x to 1e-12,
    /// bisection when Newton stalls — then y at the parameter found. The ends map exactly.
    func progress(at fraction: Double) -> Double {
        if isLinear { return fraction }
        if fraction <= 0 { return 0 }
        if fraction >= 1 { return 1 }
        let x1 = Double(c1x), x2 = Double(c2x), y1 = Double(c1y), y2 = Double(c2y)
        let cx = 3 * x1
        let bx = 3 * (x2 - x1) - cx
        let ax = 1 - cx - bx
        let cy = 3 * y1
        let by = 3 * (y2 - y1) - cy
        let ay = 1 - cy - by
        func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
        func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
        func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
        let epsilon = 1e-12
        var t = fraction
        for _ in 0..<8 {
            let error = x(t) - fraction
            if abs(error) < epsilon { return y(t) }
            let slope = dx(t)
            if abs(slope) < 1e-9 { break }
            t -= error / slope
        }
        // x(t) is non-decreasing on 0...1 (control x clamped), so bisection always works.
        var lo = 0.0, hi = 1.0
        t = fraction
        while lo < hi {
            let value = x(t)
            if abs(value - fraction) < epsilon { break }
            if fraction > value { lo = t } else { hi = t }
            let mid = (hi - lo) * 0.5 + lo
            if mid == t { break }
            t = mid
        }
        return y(t)
    }

    /// Two timing functions are equal when their control points are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CAMediaTimingFunction else { return false }
        return c1x == other.c1x && c1y == other.c1y && c2x == other.c2x && c2y == other.c2y
    }

    open override var hash: Int { [c1x, c1y, c2x, c2y].hashValue }

    open override var description: String { "CAMediaTimingFunction(\(c1x), \(c1y), \(c2x), \(c2y))" }
}

extension CAMediaTimingFillMode {
    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}
