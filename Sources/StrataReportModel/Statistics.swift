import Foundation

/// The statistics behind time verdicts: rank tests and bootstrap intervals over the
/// repetitions of two runs. Google Benchmark supplies the repetitions; it has no test for
/// the difference between two runs, so that part lives here.
public enum Statistics {
    /// Two-sided Mann–Whitney U test of "a and b come from the same distribution": the
    /// p-value by the normal approximation with tie correction and continuity correction
    /// (adequate from about 8 samples a side, which verdicts require anyway).
    ///
    ///     Statistics.mannWhitneyP([1, 2, 3, 4, 5, 6, 7, 8, 9], [11, 12, 13, 14, 15, 16, 17, 18, 19])  // ≈ 0.0004
    public static func mannWhitneyP(_ a: [Double], _ b: [Double]) -> Double {
        let n1 = Double(a.count), n2 = Double(b.count)
        guard n1 > 0, n2 > 0 else { return 1 }
        // Midranks over the pooled sample.
        let pooled = (a.map { ($0, 0) } + b.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieTerm = 0.0
        var i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count && pooled[j + 1].0 == pooled[i].0 { j += 1 }
            let r = Double(i + j) / 2 + 1
            for k in i...j { ranks[k] = r }
            let t = Double(j - i + 1)
            tieTerm += t * t * t - t
            i = j + 1
        }
        var r1 = 0.0
        for (k, p) in pooled.enumerated() where p.1 == 0 { r1 += ranks[k] }
        let u1 = r1 - n1 * (n1 + 1) / 2
        let mean = n1 * n2 / 2
        let n = n1 + n2
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return 1 }   // every value tied: no evidence of a difference
        let z = (abs(u1 - mean) - 0.5) / variance.squareRoot()
        return min(1, max(0, 2 * normalUpperTail(max(0, z))))
    }

    /// P(Z > z) for a standard normal Z.
    static func normalUpperTail(_ z: Double) -> Double { 0.5 * erfc(z / 2.0.squareRoot()) }

    /// Percentile bootstrap interval of median(head) / median(base) - 1, from `resamples`
    /// resamples drawn with a fixed seed (the same reports always give the same interval).
    public static func bootstrapMedianRatio(base: [Double], head: [Double], resamples: Int = 2000,
                                            confidence: Double = 0.95, seed: UInt64 = 0x5eed) -> (low: Double, high: Double) {
        guard !base.isEmpty, !head.isEmpty else { return (.nan, .nan) }
        var rng = SplitMix64(seed: seed)
        var ratios: [Double] = []
        ratios.reserveCapacity(resamples)
        var bs = base, hs = head
        for _ in 0..<resamples {
            for k in bs.indices { bs[k] = base[Int(rng.next() % UInt64(base.count))] }
            for k in hs.indices { hs[k] = head[Int(rng.next() % UInt64(head.count))] }
            let m = median(bs)
            if m > 0 { ratios.append(median(hs) / m - 1) }
        }
        guard !ratios.isEmpty else { return (.nan, .nan) }
        ratios.sort()
        let alpha = (1 - confidence) / 2
        let lo = ratios[min(ratios.count - 1, Int((alpha * Double(ratios.count)).rounded(.down)))]
        let hi = ratios[min(ratios.count - 1, Int(((1 - alpha) * Double(ratios.count)).rounded(.down)))]
        return (lo, hi)
    }
}

/// A small, fast, seedable generator (Steele, Lea, Flood: SplitMix64).
public struct SplitMix64 {
    var state: UInt64
    /// A generator whose stream is fixed by `seed`.
    public init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
