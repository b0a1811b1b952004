import Foundation

/// Compares a head report with a baseline: times by rank test and bootstrap interval,
/// deterministic counts exactly against a tight threshold.
public struct Comparator {
    /// Fewer repetitions than this on either side: "insufficient data", not a verdict.
    public static let minimumRepetitions = 9

    /// Relative change of the median time that matters (0.05 = 5%).
    public var timeThreshold = 0.05
    /// Relative change of an instruction or malloc count that matters.
    public var countThreshold = 0.01
    /// Run-to-run movement of a median on this machine kind even with no code change: the
    /// bootstrap interval must lie wholly beyond it for a time verdict.
    public var noiseFloor = 0.02
    /// Significance level of the Mann–Whitney test.
    public var alpha = 0.01

    public init(timeThreshold: Double = 0.05, countThreshold: Double = 0.01, noiseFloor: Double = 0.02, alpha: Double = 0.01) {
        self.timeThreshold = timeThreshold
        self.countThreshold = countThreshold
        self.noiseFloor = noiseFloor
        self.alpha = alpha
    }

    public func compare(base: StrataBlock, head: StrataBlock, basePath: String, headPath: String) -> Comparison {
        let sameMachine = base.machine.timingKey == head.machine.timingKey
        var notes: [String] = []
        if !sameMachine {
            notes.append("the reports come from different machines or builds (baseline: \(base.machine.cpuModel), \(base.machine.cores) cores, \(base.machine.buildFlags); head: \(head.machine.cpuModel), \(head.machine.cores) cores, \(head.machine.buildFlags)): times are shown but not judged; instruction and malloc counts are compared")
        }
        if base.machine.swiftVersion != head.machine.swiftVersion {
            notes.append("different Swift toolchains: instruction counts may move for that reason alone")
        }
        var rows: [ComparisonRow] = []
        let baseTimes = Dictionary(base.benchmarks.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let headTimes = Dictionary(head.benchmarks.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for h in head.benchmarks {
            guard let b = baseTimes[h.name] else {
                rows.append(ComparisonRow(name: h.name, metric: "time", baseline: nil, head: h.medianNsPerItem, change: nil, verdict: .new))
                continue
            }
            rows.append(compareTime(b, h, sameMachine: sameMachine))
        }
        for b in base.benchmarks where headTimes[b.name] == nil {
            rows.append(ComparisonRow(name: b.name, metric: "time", baseline: b.medianNsPerItem, head: nil, change: nil, verdict: .missing))
        }
        let baseCounts = Dictionary(base.counts.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let headCounts = Dictionary(head.counts.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for h in head.counts {
            guard let b = baseCounts[h.name] else {
                rows.append(ComparisonRow(name: h.name, metric: "instructions", baseline: nil, head: h.instructionsPerItem, change: nil, verdict: .new))
                continue
            }
            if let bi = b.instructionsPerItem, let hi = h.instructionsPerItem {
                rows.append(compareCount(h.name, "instructions", bi, hi))
            } else if b.instructionsPerItem != nil || h.instructionsPerItem != nil {
                notes.append("\(h.name): instruction count missing on one side (valgrind unavailable?)")
            }
            rows.append(compareCount(h.name, "mallocs", b.mallocsPerItem, h.mallocsPerItem))
        }
        for b in base.counts where headCounts[b.name] == nil {
            rows.append(ComparisonRow(name: b.name, metric: "instructions", baseline: b.instructionsPerItem, head: nil, change: nil, verdict: .missing))
        }
        return Comparison(baselinePath: basePath, headPath: headPath, timeThreshold: timeThreshold,
                          countThreshold: countThreshold, sameMachine: sameMachine, notes: notes, rows: rows)
    }

    /// A time verdict needs all three: the change beyond the threshold, the bootstrap
    /// interval beyond the noise floor (same side), and the rank test significant.
    func compareTime(_ b: BenchmarkSummary, _ h: BenchmarkSummary, sameMachine: Bool) -> ComparisonRow {
        if b.error != nil || h.error != nil {
            return ComparisonRow(name: h.name, metric: "time", baseline: b.medianNsPerItem, head: h.medianNsPerItem,
                                 change: nil, verdict: .failed)
        }
        let change = b.medianNsPerItem > 0 ? h.medianNsPerItem / b.medianNsPerItem - 1 : nil
        guard sameMachine else {
            return ComparisonRow(name: h.name, metric: "time", baseline: b.medianNsPerItem, head: h.medianNsPerItem,
                                 change: change, verdict: .differentMachine)
        }
        guard b.samplesNsPerItem.count >= Self.minimumRepetitions, h.samplesNsPerItem.count >= Self.minimumRepetitions else {
            return ComparisonRow(name: h.name, metric: "time", baseline: b.medianNsPerItem, head: h.medianNsPerItem,
                                 change: change, verdict: .insufficientData)
        }
        let p = Statistics.mannWhitneyP(b.samplesNsPerItem, h.samplesNsPerItem)
        let ci = Statistics.bootstrapMedianRatio(base: b.samplesNsPerItem, head: h.samplesNsPerItem)
        var verdict = Verdict.unchanged
        if let c = change, p < alpha {
            if c > timeThreshold && ci.low > noiseFloor { verdict = .regression }
            if c < -timeThreshold && ci.high < -noiseFloor { verdict = .improvement }
        }
        return ComparisonRow(name: h.name, metric: "time", baseline: b.medianNsPerItem, head: h.medianNsPerItem,
                             change: change, ciLow: ci.low, ciHigh: ci.high, pValue: p, verdict: verdict)
    }

    /// Deterministic counts: the change against the count threshold, nothing else (a count
    /// that was zero and is not is a regression however small).
    func compareCount(_ name: String, _ metric: String, _ b: Double, _ h: Double) -> ComparisonRow {
        let change: Double? = b > 0 ? h / b - 1 : (h > 0 ? nil : 0)
        var verdict = Verdict.unchanged
        if b == 0 && h > 0 { verdict = .regression }
        if let c = change, c > countThreshold { verdict = .regression }
        if let c = change, c < -countThreshold { verdict = .improvement }
        return ComparisonRow(name: name, metric: metric, baseline: b, head: h, change: change, verdict: verdict)
    }
}

/// Which verdicts decide the exit status.
public enum Gate: String, CaseIterable {
    /// Times and counts.
    case all
    /// Instruction and malloc counts only (times printed, not acted on): CI on shared machines.
    case counts
    /// Nothing: always 0 unless a run failed.
    case none
}

extension Comparison {
    /// Exit status for CI: 0 fine, 2 a regression, 3 a benchmark failed in the head run,
    /// 4 improvements only. (5, an unreadable baseline, is decided before comparing.)
    public func exitCode(gate: Gate) -> Int32 {
        if rows.contains(where: { $0.verdict == .failed && $0.head != nil }) { return 3 }
        let gated = rows.filter { row in
            switch gate {
            case .all: return true
            case .counts: return row.metric != "time"
            case .none: return false
            }
        }
        if gated.contains(where: { $0.verdict == .regression }) { return 2 }
        if gated.contains(where: { $0.verdict == .improvement }) { return 4 }
        return 0
    }

    /// A plain-text table: regressions first, then improvements, then the rest.
    public func table(all: Bool = false) -> String {
        func pct(_ x: Double?) -> String { x.map { String(format: "%+.1f%%", 100 * $0) } ?? "–" }
        func num(_ x: Double?) -> String { x.map { String(format: $0 >= 100 ? "%.0f" : "%.3g", $0) } ?? "–" }
        let order: [Verdict] = [.regression, .failed, .improvement, .insufficientData, .differentMachine, .new, .missing, .unchanged]
        var lines = ["verdict            metric        change    95% CI               p        baseline     head  name"]
        for v in order {
            // Unchanged rows, and baseline rows a (quick) head run did not include, are
            // counted in the summary line and listed only with `all`.
            for r in rows where r.verdict == v && (all || (v != .unchanged && v != .missing)) {
                let ci = r.ciLow.map { "[\(pct($0)), \(pct(r.ciHigh))]" } ?? "–"
                lines.append(v.rawValue.padding(toLength: 19, withPad: " ", startingAt: 0)
                    + r.metric.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + pct(r.change).padding(toLength: 10, withPad: " ", startingAt: 0)
                    + ci.padding(toLength: 21, withPad: " ", startingAt: 0)
                    + (r.pValue.map { String(format: "%.4f", $0) } ?? "–").padding(toLength: 9, withPad: " ", startingAt: 0)
                    + num(r.baseline).padding(toLength: 13, withPad: " ", startingAt: 0)
                    + num(r.head).padding(toLength: 6, withPad: " ", startingAt: 0) + "  " + r.name)
            }
        }
        let counts = Dictionary(grouping: rows, by: \.verdict).mapValues(\.count)
        lines.append(order.compactMap { v in counts[v].map { "\($0) \(v.rawValue)" } }.joined(separator: ", "))
        return (notes.map { "note: \($0)" } + lines).joined(separator: "\n")
    }
}
