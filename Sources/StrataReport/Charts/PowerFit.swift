import Foundation
import StrataReportModel

/// y = coefficient · x^exponent: a growth fit drawn as a straight line on log-log axes.
struct PowerFit {
    var exponent: Double
    var coefficient: Double
    var superLinear: Bool
    /// Fitted here from fewer than the report's three sizes (the report had no fit).
    var estimated = false

    func callAsFunction(_ x: Double) -> Double { coefficient * pow(x, exponent) }

    /// Least squares of log y on log x over positive, finite points (at least two distinct x).
    static func leastSquares(_ points: [(x: Double, y: Double)]) -> PowerFit? {
        let p = points.filter { $0.x > 0 && $0.y > 0 && $0.x.isFinite && $0.y.isFinite }
        guard Set(p.map(\.x)).count >= 2 else { return nil }
        let xs = p.map { log($0.x) }, ys = p.map { log($0.y) }
        let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
        var sxy = 0.0, sxx = 0.0
        for (x, y) in zip(xs, ys) { sxy += (x - mx) * (y - my); sxx += (x - mx) * (x - mx) }
        guard sxx > 0 else { return nil }
        let b = sxy / sxx, a = exp(my - b * mx)
        guard b.isFinite, a.isFinite, a > 0 else { return nil }
        return PowerFit(exponent: b, coefficient: a, superLinear: b > 1 + GrowthFit.superLinearMargin)
    }

    /// The report's fit: its exponent (and flag) as reported, the coefficient through its points.
    static func from(_ g: GrowthFit) -> PowerFit? {
        let pts = g.points.compactMap { $0.count >= 2 ? (x: $0[0], y: $0[1]) : nil }
            .filter { $0.x > 0 && $0.y > 0 && $0.x.isFinite && $0.y.isFinite }
        guard !pts.isEmpty, g.exponent.isFinite else { return nil }
        let my = pts.map { log($0.y) }.reduce(0, +) / Double(pts.count)
        let mx = pts.map { log($0.x) }.reduce(0, +) / Double(pts.count)
        let a = exp(my - g.exponent * mx)
        guard a.isFinite, a > 0 else { return nil }
        return PowerFit(exponent: g.exponent, coefficient: a, superLinear: g.superLinear)
    }

    /// `N^1.13`, with the flag spelled out.
    var label: String {
        "N^" + String(format: "%.2f", exponent) + (superLinear ? " super-linear" : "") + (estimated ? " (est.)" : "")
    }
}
