import Foundation

/// A timing curve: a cubic Bézier from (0,0) to (1,1) mapping an animation's linear time
/// fraction to its progress. Written once for both engines (Vocabulary/ is compiled into
/// StrataReference too); each engine solves the curve with its own `TimingCurve`.
///
///     let f = CAMediaTimingFunction(name: .easeInEaseOut)
///     var p: [Float] = [0, 0]; f.getControlPoint(at: 1, values: &p)   // p == [0.42, 0]
open class CAMediaTimingFunction: NSObject {
    let x1: Float, y1: Float, x2: Float, y2: Float
    /// The curve's solver: each engine's own (`TimingCurve`: this engine's `UnitBezier`,
    /// the reference engine's literal solve), so the oracle keeps its own arithmetic.
    @usableFromInline let curve: TimingCurve

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
    /// clamped to 0...1 (Apple's rule: the curve must be a function of time); a non-finite
    /// coordinate is replaced by the linear curve's and reported.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        var p = [c1x, c1y, c2x, c2y]
        if !p.allSatisfy({ $0.isFinite }) {
            StrataDiagnostics.emit(.nonFiniteValue,
                "CAMediaTimingFunction control points must be finite; got \(p); using linear")
            p = [0, 0, 1, 1]
        }
        x1 = min(max(p[0], 0), 1); y1 = p[1]
        x2 = min(max(p[2], 0), 1); y2 = p[3]
        curve = TimingCurve(Double(x1), Double(y1), Double(x2), Double(y2))
        super.init()
    }

    /// Control point `index` (0...3: (0,0), c1, c2, (1,1)) written to `values[0]`, `values[1]`.
    public func getControlPoint(at index: Int, values ptr: UnsafeMutablePointer<Float>) {
        switch index {
        case 0: ptr[0] = 0; ptr[1] = 0
        case 1: ptr[0] = x1; ptr[1] = y1
        case 2: ptr[0] = x2; ptr[1] = y2
        case 3: ptr[0] = 1; ptr[1] = 1
        default:
            StrataDiagnostics.emit(.invalidArgument, "getControlPoint(at: \(index)): index must be 0...3")
        }
    }

    /// The eased progress at linear fraction `x` (a Strata extension, used by tests and tools).
    public func evaluate(at x: Double) -> Double { curve.solve(x) }

    /// Two timing functions are equal when their control points are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? CAMediaTimingFunction else { return false }
        return x1 == o.x1 && y1 == o.y1 && x2 == o.x2 && y2 == o.y2
    }

    /// A hash of the control points (equal functions hash equally).
    open override var hash: Int { [x1, y1, x2, y2].hashValue }

    /// `CAMediaTimingFunction(x1, y1, x2, y2)`: the two control points.
    open override var description: String { "CAMediaTimingFunction(\(x1), \(y1), \(x2), \(y2))" }


    static let defaultCurve = CAMediaTimingFunction(name: .default)
    static let linearCurve = CAMediaTimingFunction(name: .linear)
    static let easeInEaseOutCurve = CAMediaTimingFunction(name: .easeInEaseOut)
}
