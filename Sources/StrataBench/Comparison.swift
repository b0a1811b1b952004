import Foundation

/// What one metric did between a baseline report and a head report.
public enum Verdict: String, Codable, Equatable, CaseIterable {
    /// Worse beyond the threshold, with the evidence the metric kind requires.
    case regression
    /// Better beyond the threshold, with the same evidence.
    case improvement
    /// Within the threshold, or not shown beyond noise.
    case unchanged
    /// Too few repetitions (fewer than `Comparator.minimumRepetitions`) for a time verdict.
    case insufficientData = "insufficient-data"
    /// The reports come from different machines (fingerprints differ): times are not compared.
    case differentMachine = "different-machine"
    /// Only in the head report.
    case new
    /// Only in the baseline report.
    case missing
    /// The benchmark failed in one of the runs.
    case failed
}

/// One row of a comparison: a benchmark's time, or a body's instruction or malloc count.
public struct ComparisonRow: Codable, Equatable {
    public var name: String
    /// `time` (ns per item), `instructions` or `mallocs` (per item).
    public var metric: String
    public var baseline: Double?
    public var head: Double?
    /// head / baseline - 1 (medians for times): +0.10 is 10% worse.
    public var change: Double?
    /// Bootstrap 95% interval of the ratio of medians, minus 1 (times only).
    public var ciLow: Double?
    public var ciHigh: Double?
    /// Two-sided Mann–Whitney U p-value on the repetitions (times only).
    public var pValue: Double?
    public var verdict: Verdict

    public init(name: String, metric: String, baseline: Double?, head: Double?, change: Double?, ciLow: Double? = nil,
                ciHigh: Double? = nil, pValue: Double? = nil, verdict: Verdict) {
        self.name = name
        self.metric = metric
        self.baseline = baseline
        self.head = head
        self.change = change.flatMap(finite)
        self.ciLow = ciLow.flatMap(finite)
        self.ciHigh = ciHigh.flatMap(finite)
        self.pValue = pValue.flatMap(finite)
        self.verdict = verdict
    }
}

/// A whole comparison, as `compare` prints it and the HTML report draws it.
public struct Comparison: Codable, Equatable {
    public var baselinePath: String
    public var headPath: String
    /// Relative change that counts for times (0.05 = 5%).
    public var timeThreshold: Double
    /// Relative change that counts for deterministic counts (0.01 = 1%).
    public var countThreshold: Double
    /// Both reports come from the same machine kind and build (fingerprint `timingKey`).
    public var sameMachine: Bool
    /// Said plainly when times were not compared, or other caveats.
    public var notes: [String]
    public var rows: [ComparisonRow]

    public init(baselinePath: String, headPath: String, timeThreshold: Double, countThreshold: Double,
                sameMachine: Bool, notes: [String], rows: [ComparisonRow]) {
        self.baselinePath = baselinePath
        self.headPath = headPath
        self.timeThreshold = timeThreshold
        self.countThreshold = countThreshold
        self.sameMachine = sameMachine
        self.notes = notes
        self.rows = rows
    }
}
