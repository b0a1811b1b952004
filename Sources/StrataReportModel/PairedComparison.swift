import Foundation

/// Verdicts from paired rounds: the base build and the head build run in the same job, one
/// process each per round, in an order drawn at random per round. A slow drift of the machine
/// (another tenant, thermal state, the second core's load) hits both halves of a round alike,
/// so each round's ratio head / base carries the change and little of the drift.
///
/// Per benchmark (time per item) and per scene (frame-time p50 and p99; the hitch ratio as a
/// difference in ms/s, since it is often 0):
/// - a round's time of a benchmark is the minimum of its repetitions in that process:
///   interference (another tenant, the other core's load) only ever slows a run, so the minimum
///   is the steadiest estimate (Julia's BenchmarkTools judges on minimums for that reason);
///   measured here, the spread of per-process minimums was a few percent where medians moved
///   by 20%. A whole process that runs slow is what the pairing and the median over rounds are
///   for. A scene's figures likewise: the minimum of each over the passes the process ran
///   (`ab --scene-passes`); measured on app-10k (16 processes of 4 passes of 2,000 frames), the
///   spread of the p99 ratio between two processes fell from 19% (one pass) to 8% (the minimum
///   of four), of p50 from 16% to 10%;
/// - the change is the median of the per-round ratios (minus 1), with a seeded percentile
///   bootstrap interval of that median;
/// - the A/A noise band is measured in the same job: each round also runs the base build a
///   second time (the control), so the ratio control / base of a round is what "no change"
///   looks like between two processes of one round. The band is the 95th percentile of the
///   median of as many such ratios (signs drawn at random), and never less than `noiseFloor`.
///   Without control runs, consecutive rounds of each build stand in for them: that band also
///   holds the machine's drift between rounds, so it is wider (safe, less sensitive);
/// - regression: the change beyond `max(threshold, band)` (outside what the A/A control says
///   no change looks like) and the interval wholly above no change (significant); improvement
///   mirrors it. Requiring the whole interval beyond the band as well missed 3 of 4 +10%
///   changes in the first trials here (`scripts/gate-trust paired`), while the band alone kept
///   A/A trials clean; unchanged: the change within `threshold` and the interval
///   within twice the margin; anything else (a change the band cannot tell from noise) is
///   inconclusive. A difference inside the band is never a
///   regression.
public struct PairedJudge {
    /// Fewer paired rounds than this: insufficient data.
    public static let minimumRounds = 5

    /// Relative change that matters (0.02 = 2%).
    public var threshold: Double
    /// The smallest band (relative): below it the machine's band estimate is not trusted.
    public var noiseFloor: Double
    /// The hitch ratio's smallest band and change that matters, ms/s.
    public var hitchFloor: Double
    /// Bootstrap resamples for the interval and the band.
    public var resamples = 2000
    /// Seed of the bootstrap (the same rounds always give the same verdicts).
    public var seed: UInt64 = 0x5eed

    /// A judge with these thresholds.
    public init(threshold: Double = 0.02, noiseFloor: Double = 0.01, hitchFloor: Double = 1) {
        self.threshold = threshold
        self.noiseFloor = noiseFloor
        self.hitchFloor = hitchFloor
    }

    /// Judges every benchmark and scene of the rounds: `base[i]` and `head[i]` are round i's
    /// reports (one repetition each).
    public func judge(base: [StrataBlock], head: [StrataBlock], control: [StrataBlock]? = nil) -> [ComparisonRow] {
        let rounds = min(base.count, head.count, control?.count ?? Int.max)
        guard rounds > 0 else { return [] }
        var rows: [ComparisonRow] = []
        for h in head[0].benchmarks {
            func values(_ side: [StrataBlock]) -> [Double?] {
                side.prefix(rounds).map { r in
                    r.benchmarks.first { $0.name == h.name && $0.error == nil }.map { $0.samplesNsPerItem.min() ?? $0.medianNsPerItem }
                }
            }
            let a = values(base), b = values(head), c = control.map(values)
            if a.allSatisfy({ $0 == nil }) && base[0].benchmarks.contains(where: { $0.name == h.name }) == false {
                rows.append(ComparisonRow(name: h.name, metric: "time", baseline: nil, head: median(b.compactMap { $0 }),
                                          change: nil, verdict: .new, basis: "paired"))
                continue
            }
            rows.append(judge(name: h.name, metric: "time", base: a, head: b, control: c, absolute: false))
        }
        // A scene may run several passes in a round's process (same name): each metric's round
        // figure is its minimum over them, as a benchmark's is over its repetitions.
        var seen = Set<String>()
        for s in head[0].scenes where seen.insert(s.name).inserted {
            func values(_ side: [StrataBlock], _ key: KeyPath<SceneResult, Double>) -> [Double?] {
                side.prefix(rounds).map { r in r.scenes.filter { $0.name == s.name }.map { $0[keyPath: key] }.min() }
            }
            let name = "scene/\(s.name)"
            for (metric, key) in [("p50", \SceneResult.p50), ("p99", \SceneResult.p99), ("hitch", \SceneResult.hitchMsPerSecond)] {
                rows.append(judge(name: name, metric: metric, base: values(base, key), head: values(head, key),
                                  control: control.map { values($0, key) }, absolute: metric == "hitch"))
            }
        }
        return rows
    }

    /// One metric over the rounds (nil where a side has no value in that round); `control`, the
    /// base's second process of each round, measures the band.
    public func judge(name: String, metric: String, base: [Double?], head: [Double?], control: [Double?]? = nil,
                      absolute: Bool) -> ComparisonRow {
        var pairs: [(Double, Double)] = []
        var aa: [Double] = []
        for (i, (a, b)) in zip(base, head).enumerated() {
            guard let a, let b, a.isFinite, b.isFinite, absolute || a > 0 else { continue }
            pairs.append((a, b))
            if let control, i < control.count, let c = control[i], c.isFinite { aa.append(absolute ? c - a : c / a - 1) }
        }
        let a = pairs.map(\.0), b = pairs.map(\.1)
        func diff(_ x: Double, _ y: Double) -> Double { absolute ? y - x : y / x - 1 }
        let baseMedian = a.isEmpty ? nil : median(a), headMedian = b.isEmpty ? nil : median(b)
        guard pairs.count >= Self.minimumRounds else {
            return ComparisonRow(name: name, metric: metric, baseline: baseMedian, head: headMedian,
                                 change: pairs.isEmpty ? nil : median(pairs.map { diff($0.0, $0.1) }),
                                 verdict: pairs.isEmpty ? .failed : .insufficientData, basis: "paired", rounds: pairs.count)
        }
        let d = pairs.map { diff($0.0, $0.1) }
        let change = median(d)
        var rng = SplitMix64(seed: seed)
        let ci = Self.bootstrapMedian(d, resamples: resamples, rng: &rng)
        // What "no change" looks like in this job: the control runs, or else consecutive rounds
        // of one build.
        if control == nil {
            for side in [a, b] where side.count > 1 {
                for i in 1..<side.count where absolute || side[i - 1] > 0 { aa.append(diff(side[i - 1], side[i])) }
            }
        }
        let floor = absolute ? hitchFloor : noiseFloor
        let band = max(floor, Self.noiseBand(aa, draws: d.count, resamples: resamples, rng: &rng))
        let margin = max(absolute ? hitchFloor : threshold, band)
        let verdict: Verdict
        if change > margin && ci.low > 0 { verdict = .regression }
        else if change < -margin && ci.high < 0 { verdict = .improvement }
        else if abs(change) <= (absolute ? hitchFloor : threshold) && ci.low >= -2 * margin && ci.high <= 2 * margin { verdict = .unchanged }
        else { verdict = .inconclusive }
        return ComparisonRow(name: name, metric: metric, baseline: baseMedian, head: headMedian, change: change,
                             ciLow: ci.low, ciHigh: ci.high, pValue: Self.signTestP(d), verdict: verdict,
                             band: band, basis: "paired", rounds: d.count)
    }

    /// Percentile bootstrap 95% interval of the median of `xs`.
    static func bootstrapMedian(_ xs: [Double], resamples: Int, rng: inout SplitMix64) -> (low: Double, high: Double) {
        var medians: [Double] = []
        medians.reserveCapacity(resamples)
        var sample = xs
        for _ in 0..<resamples {
            for k in sample.indices { sample[k] = xs[Int(rng.next() % UInt64(xs.count))] }
            medians.append(median(sample))
        }
        medians.sort()
        let lo = medians[Int(0.025 * Double(medians.count))]
        let hi = medians[min(medians.count - 1, Int(0.975 * Double(medians.count)))]
        return (lo, hi)
    }

    /// The 95th percentile of |median of `draws` A/A differences|, each drawn from `aa` with a
    /// random sign (no change is symmetric). 0 with no A/A differences.
    static func noiseBand(_ aa: [Double], draws: Int, resamples: Int, rng: inout SplitMix64) -> Double {
        guard !aa.isEmpty, draws > 0 else { return 0 }
        var medians: [Double] = []
        medians.reserveCapacity(resamples)
        var sample = [Double](repeating: 0, count: draws)
        for _ in 0..<resamples {
            for k in sample.indices {
                let r = rng.next()
                let x = aa[Int((r >> 1) % UInt64(aa.count))]
                sample[k] = r & 1 == 0 ? x : -x
            }
            medians.append(abs(median(sample)))
        }
        medians.sort()
        return medians[min(medians.count - 1, Int(0.95 * Double(medians.count)))]
    }

    /// Exact two-sided sign test on the non-zero differences.
    public static func signTestP(_ d: [Double]) -> Double {
        let positive = d.filter { $0 > 0 }.count, negative = d.filter { $0 < 0 }.count
        let n = positive + negative
        guard n > 0 else { return 1 }
        let k = min(positive, negative)
        // P(X <= k) for X ~ Binomial(n, 1/2), in logs to stay finite for large n.
        var tail = 0.0
        for i in 0...k { tail += exp(logChoose(n, i) - Double(n) * log(2.0)) }
        return min(1, 2 * tail)
    }

    static func logChoose(_ n: Int, _ k: Int) -> Double {
        lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
    }
}

/// How far a benchmark's median moves between separate processes of one build on one machine
/// kind: what an unpaired comparison (`compare` of two reports) must exceed before it may call
/// a time difference a regression. `strata-bench ab` measures it as a by-product (each round
/// is a new process of each build) and can save it for `compare --noise-bands`.
public struct NoiseBands: Codable, Equatable {
    /// The `MachineFingerprint.timingKey` the bands were measured on.
    public var machineKey: String
    /// When they were measured, ISO 8601.
    public var createdAt: String
    /// What measured them (e.g. "strata-bench ab, 9 rounds").
    public var source: String
    /// Processes per build the bands come from.
    public var processes: Int
    /// Benchmark name -> the largest relative move of its time between two processes of one
    /// build (over every pair of processes, both builds); `scene/NAME#p50` and `#p99` for a
    /// scene's frame-time percentiles.
    public var bands: [String: Double]

    /// Bands as measured.
    public init(machineKey: String, createdAt: String, source: String, processes: Int, bands: [String: Double]) {
        self.machineKey = machineKey
        self.createdAt = createdAt
        self.source = source
        self.processes = processes
        self.bands = bands
    }

    /// The bands of `sides`: each side is one build's reports, one per process.
    public static func measure(_ sides: [[StrataBlock]], source: String, createdAt: String) -> NoiseBands? {
        guard let first = sides.first(where: { !$0.isEmpty })?.first else { return nil }
        var bands: [String: Double] = [:]
        for side in sides {
            var values: [String: [Double]] = [:]
            for r in side {
                for b in r.benchmarks where b.error == nil && b.medianNsPerItem > 0 { values[b.name, default: []].append(b.medianNsPerItem) }
                // Scenes' frame-time percentiles, as `scene/NAME#p50` and `#p99`: the band an
                // unpaired compare shows beside them.
                for s in r.scenes {
                    if s.p50 > 0 { values["scene/\(s.name)#p50", default: []].append(s.p50) }
                    if s.p99 > 0 { values["scene/\(s.name)#p99", default: []].append(s.p99) }
                }
            }
            for (name, v) in values where v.count > 1 {
                // The largest move between any two processes: max / min - 1.
                let move = (v.max() ?? 0) / (v.min() ?? 1) - 1
                if move.isFinite { bands[name] = max(bands[name] ?? 0, move) }
            }
        }
        return NoiseBands(machineKey: first.machine.timingKey, createdAt: createdAt, source: source,
                          processes: sides.map(\.count).min() ?? 0, bands: bands)
    }
}
