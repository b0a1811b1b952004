import Foundation

/// Maps data values to pixels along one axis and chooses the tick values.
protocol Scale {
    var lower: Double { get }
    var upper: Double { get }
    /// The pixel of `value` (values outside the domain extrapolate).
    func callAsFunction(_ value: Double) -> Double
    func ticks() -> [Double]
    func contains(_ value: Double) -> Bool
}

extension Scale {
    func contains(_ value: Double) -> Bool {
        let eps = (upper - lower) * 1e-9
        return value.isFinite && value >= lower - eps && value <= upper + eps
    }
    /// `value` clamped into the domain, then mapped.
    func clamped(_ value: Double) -> Double { self(Swift.min(Swift.max(value, lower), upper)) }
}

/// A linear scale with "nice" bounds and ticks (steps of 1, 2 or 5 times a power of ten).
struct LinearScale: Scale {
    let lower: Double
    let upper: Double
    let rangeStart: Double
    let rangeEnd: Double
    let step: Double

    /// `values`' extent (with `including` added, e.g. 0 or a budget line) widened to nice bounds.
    init(values: [Double], including: [Double] = [], range: (Double, Double), targetTicks: Int = 5, nice: Bool = true) {
        let finite = (values + including).filter(\.isFinite)
        var lo = finite.min() ?? 0, hi = finite.max() ?? 1
        if lo == hi { lo -= lo == 0 ? 0 : abs(lo) * 0.5; hi += hi == 0 ? 1 : abs(hi) * 0.5 }
        let step = LinearScale.niceStep((hi - lo) / Double(max(targetTicks, 1)))
        if nice {
            lo = floor(lo / step) * step
            hi = ceil(hi / step) * step
        }
        self.lower = lo
        self.upper = hi
        self.step = step
        self.rangeStart = range.0
        self.rangeEnd = range.1
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw.isFinite, raw > 0 else { return 1 }
        let p = pow(10, floor(log10(raw)))
        let f = raw / p
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p
    }

    func callAsFunction(_ value: Double) -> Double {
        rangeStart + (value - lower) / (upper - lower) * (rangeEnd - rangeStart)
    }

    func ticks() -> [Double] {
        var out: [Double] = []
        var v = ceil(lower / step - 1e-9) * step
        while v <= upper + step * 1e-9 && out.count < 50 {
            out.append(abs(v) < step * 1e-9 ? 0 : v)
            v += step
        }
        return out
    }
}

/// A base-10 logarithmic scale over positive values.
struct LogScale: Scale {
    let lower: Double
    let upper: Double
    let rangeStart: Double
    let rangeEnd: Double

    /// The extent of the positive, finite `values` (and `including`), padded by `padding` on
    /// either side (a factor: 1.25 leaves a quarter of the value as margin).
    init(values: [Double], including: [Double] = [], range: (Double, Double), padding: Double = 1.3) {
        let finite = (values + including).filter { $0.isFinite && $0 > 0 }
        var lo = finite.min() ?? 1, hi = finite.max() ?? 10
        if hi / lo < 3 { let mid = sqrt(lo * hi); lo = mid / 1.8; hi = mid * 1.8 }
        self.lower = lo / padding
        self.upper = hi * padding
        self.rangeStart = range.0
        self.rangeEnd = range.1
    }

    func callAsFunction(_ value: Double) -> Double {
        guard value > 0 else { return rangeStart }
        return rangeStart + (log10(value) - log10(lower)) / (log10(upper) - log10(lower)) * (rangeEnd - rangeStart)
    }

    /// Decades; 1-2-5 within decades when fewer than three decades show; every integer
    /// multiple when even those are too few.
    func ticks() -> [Double] {
        let first = Int(floor(log10(lower))), last = Int(ceil(log10(upper)))
        func candidates(_ multiples: [Double]) -> [Double] {
            var out: [Double] = []
            for e in first...last {
                for m in multiples {
                    let v = m * pow(10, Double(e))
                    if contains(v) { out.append(v) }
                }
            }
            return out
        }
        let decades = candidates([1])
        if decades.count >= 3 {
            // Many decades: thin them so labels do not collide.
            let stride = decades.count > 8 ? 2 : 1
            return decades.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
        }
        let ones = candidates([1, 2, 5])
        if ones.count >= 2 { return ones }
        return candidates([1, 2, 3, 4, 5, 6, 7, 8, 9])
    }
}
