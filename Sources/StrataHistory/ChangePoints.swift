import Foundation
import StrataReportModel

/// Where a series of per-commit figures stepped: the first index of the new level, the
/// medians either side, and how sure the test is.
public struct ChangePoint: Codable, Equatable {
    /// The first index of the new segment (the commit where the step happened).
    public var index: Int
    /// Median of the segment before `index` (from the previous change point or the start).
    public var before: Double
    /// Median of the segment from `index` (to the next change point or the end).
    public var after: Double
    /// after / before - 1; nil when `before` is 0 (a step from nothing, e.g. 0 → 1 malloc).
    public var relativeChange: Double?
    /// The permutation test's p-value when the split was found: (1 + permutations whose
    /// statistic reached the observed one) / (1 + permutations).
    public var pValue: Double

    /// A change point as found.
    public init(index: Int, before: Double, after: Double, relativeChange: Double?, pValue: Double) {
        self.index = index
        self.before = before
        self.after = after
        self.relativeChange = relativeChange
        self.pValue = pValue
    }
}

/// Change-point detection by E-divisive means (Matteson and James, "A Nonparametric Approach
/// for Multiple Change Point Analysis of Multivariate Data", JASA 2014), the way MongoDB's
/// performance CI (signal processing) and Hunter use it on benchmark histories:
///
/// 1. **Statistic.** For a segment x[0..<n] and a split τ into X = x[0..<τ] (m values) and
///    Y = x[τ..<n] (k values), the energy distance with α = 1,
///
///        Ê = 2/(mk) Σᵢ Σⱼ |Xᵢ − Yⱼ| − C(m,2)⁻¹ Σ_{i<j} |Xᵢ − Xⱼ| − C(k,2)⁻¹ Σ_{i<j} |Yᵢ − Yⱼ|,
///
///    scaled to Q̂(τ) = mk/(m+k) · Ê. It is large when the two sides differ in distribution
///    (not only in mean) and makes no assumption about the noise. The candidate is the τ
///    maximizing Q̂ with at least `minimumSegment` values on each side (the earliest τ on a
///    tie); all τ are evaluated in O(n²) from running sums of pairwise distances. (As in
///    Hunter, Y runs to the end of the segment: the paper's extra maximization over Y's end
///    is not used.)
/// 2. **Significance.** The segment's values are shuffled `permutations` times (Fisher–Yates
///    on a SplitMix64 stream seeded from `seed` and the segment's bounds, so results are
///    reproducible and independent of the order segments are visited) and the maximal Q̂ of
///    each shuffle computed; p = (1 + #{Q̂_perm ≥ Q̂_observed}) / (1 + permutations). The split is
///    kept when p ≤ `significance` (with 199 permutations the smallest p is 0.005).
/// 3. **Binary segmentation.** A kept split divides the segment and both sides are searched
///    the same way, until no side has a significant split or is too short (fewer than
///    2 × `minimumSegment` values).
/// 4. **Magnitude.** Segments are summarized by their medians; while the smallest step
///    between adjacent segments is below `minimumRelativeChange` (|after / before − 1|), that
///    change point is dropped and its two segments merged. Deterministic counts that wobble
///    by 0.01% are significant to a rank-like statistic, but not worth a report.
///
/// Values must be finite. Short series find nothing: with 3 + 3 values a perfect split has
/// p ≈ 0.1 (2 of the C(6,3) = 20 partitions are as extreme); from about 12 values a clean step
/// reaches p = 0.005.
public struct ChangePointDetector: Equatable {
    /// Fewest values on either side of a change point.
    public var minimumSegment: Int
    /// Shuffles of the permutation test.
    public var permutations: Int
    /// Largest p-value that counts as a change.
    public var significance: Double
    /// Smallest |after / before − 1| between adjacent segments' medians that is reported.
    public var minimumRelativeChange: Double
    /// Seed of the permutation test.
    public var seed: UInt64

    /// A detector with these settings (the segment and permutations at least 1, the change at
    /// least 0).
    public init(minimumSegment: Int = 3, permutations: Int = 199, significance: Double = 0.05,
                minimumRelativeChange: Double = 0.01, seed: UInt64 = 0x5EED_C4A9) {
        self.minimumSegment = max(1, minimumSegment)
        self.permutations = max(1, permutations)
        self.significance = significance
        self.minimumRelativeChange = max(0, minimumRelativeChange)
        self.seed = seed
    }

    /// The change points of `values`, by index.
    public func detect(_ values: [Double]) -> [ChangePoint] {
        var found: [(index: Int, p: Double)] = []
        search(values, 0, values.count, into: &found)
        found.sort { $0.index < $1.index }
        // Drop the smallest steps below the magnitude threshold, merging their segments.
        while true {
            let points = summarize(values, found)
            guard let smallest = points.indices.min(by: { magnitude(points[$0]) < magnitude(points[$1]) }),
                  magnitude(points[smallest]) < minimumRelativeChange else { return points }
            found.remove(at: smallest)
        }
    }

    /// |relative change|, with a step from 0 to anything else infinite and 0 → 0 nothing.
    private func magnitude(_ c: ChangePoint) -> Double {
        if let r = c.relativeChange { return abs(r) }
        return c.after == 0 ? 0 : .infinity
    }

    /// Change points with the medians of the segments they separate.
    private func summarize(_ values: [Double], _ found: [(index: Int, p: Double)]) -> [ChangePoint] {
        let bounds = [0] + found.map(\.index) + [values.count]
        let medians = (0..<(bounds.count - 1)).map { median(Array(values[bounds[$0]..<bounds[$0 + 1]])) }
        return found.enumerated().map { i, f in
            let before = medians[i], after = medians[i + 1]
            return ChangePoint(index: f.index, before: before, after: after,
                               relativeChange: before == 0 ? nil : finite(after / before - 1), pValue: f.p)
        }
    }

    /// Binary segmentation of values[start..<end].
    private func search(_ values: [Double], _ start: Int, _ end: Int, into found: inout [(index: Int, p: Double)]) {
        let segment = Array(values[start..<end])
        guard let best = Self.bestSplit(segment, minimumSegment: minimumSegment), best.q > 0 else { return }
        let p = pValue(segment, observed: best.q, seed: seed ^ (UInt64(start) << 32) ^ UInt64(end))
        guard p <= significance else { return }
        found.append((start + best.tau, p))
        search(values, start, start + best.tau, into: &found)
        search(values, start + best.tau, end, into: &found)
    }

    /// The permutation test's p-value of a maximal statistic `observed` over `segment`.
    private func pValue(_ segment: [Double], observed: Double, seed: UInt64) -> Double {
        var rng = SplitMix64(seed: seed)
        var shuffled = segment
        var reached = 0
        // The same partition in another order sums in another order: equal within rounding.
        let bar = observed - 1e-9 * abs(observed)
        for _ in 0..<permutations {
            for i in stride(from: shuffled.count - 1, to: 0, by: -1) {
                shuffled.swapAt(i, Int(rng.next() % UInt64(i + 1)))
            }
            if let q = Self.bestSplit(shuffled, minimumSegment: minimumSegment)?.q, q >= bar { reached += 1 }
        }
        return Double(1 + reached) / Double(1 + permutations)
    }

    /// The split τ maximizing Q̂(τ) over minimumSegment...n − minimumSegment (the earliest on a
    /// tie), or nil when the segment is too short to split.
    static func bestSplit(_ x: [Double], minimumSegment: Int) -> (tau: Int, q: Double)? {
        let n = x.count
        guard n >= 2 * minimumSegment, n >= 2 else { return nil }
        // toLeft[t] = Σ_{i<t} |x_i − x_t|, toRight[t] = Σ_{j>t} |x_t − x_j|.
        var toLeft = [Double](repeating: 0, count: n), toRight = [Double](repeating: 0, count: n)
        for i in 0..<n {
            for j in (i + 1)..<n {
                let d = abs(x[i] - x[j])
                toRight[i] += d
                toLeft[j] += d
            }
        }
        // withinLeft[τ]: the pairs inside x[0..<τ]; withinRight[τ]: inside x[τ..<n].
        var withinLeft = [Double](repeating: 0, count: n + 1), withinRight = [Double](repeating: 0, count: n + 1)
        for t in 0..<n { withinLeft[t + 1] = withinLeft[t] + toLeft[t] }
        for t in stride(from: n - 1, through: 0, by: -1) { withinRight[t] = withinRight[t + 1] + toRight[t] }
        let total = withinLeft[n]
        var best: (tau: Int, q: Double)?
        for tau in max(minimumSegment, 1)...(n - max(minimumSegment, 1)) {
            let m = Double(tau), k = Double(n - tau)
            let cross = total - withinLeft[tau] - withinRight[tau]
            let left = m > 1 ? withinLeft[tau] * 2 / (m * (m - 1)) : 0
            let right = k > 1 ? withinRight[tau] * 2 / (k * (k - 1)) : 0
            let e = 2 * cross / (m * k) - left - right
            let q = m * k / (m + k) * e
            if q > (best?.q ?? -.infinity) { best = (tau, q) }
        }
        return best
    }
}
