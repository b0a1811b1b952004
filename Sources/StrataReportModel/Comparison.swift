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
    /// Shown for reading, never judged (cache-miss counts: the estimated cycles carry them).
    case informational
    /// The evidence does not decide: a paired interval that straddles the noise band, or an
    /// unpaired time difference (separate processes, no rounds to pair) inside the band this
    /// machine was measured to move by, or with no band measured (`basis` says which); or an
    /// estimated-cycles change beyond the threshold that the placements' ranges do not separate
    /// (`Comparator.compareCount`).
    case inconclusive
}

/// One row of a comparison: a benchmark's time, a body's count, or a paired scene's figure.
public struct ComparisonRow: Codable, Equatable {
    /// The benchmark or counted body (`scene/NAME` for a scene's figures).
    public var name: String
    /// `time` (ns per item); the counts per item `instructions`, `estimated-cycles`,
    /// `l1-misses`, `ll-misses` and `mallocs`; a paired scene's `p50`, `p99` (ms) and `hitch`
    /// (ms/s).
    public var metric: String
    /// The baseline's figure in the metric's unit (a median for times; nil: only in the head).
    public var baseline: Double?
    /// The head's figure in the metric's unit (nil: only in the baseline).
    public var head: Double?
    /// head / baseline - 1 (of the medians for unpaired times, the median of the rounds'
    /// ratios for paired ones; a difference in ms/s for `hitch`): +0.10 is 10% worse.
    public var change: Double?
    /// Low end of the bootstrap 95% interval of `change` (times and paired figures only).
    public var ciLow: Double?
    /// High end of the bootstrap 95% interval of `change`.
    public var ciHigh: Double?
    /// Two-sided Mann–Whitney U p-value on the repetitions (unpaired times), or the exact
    /// sign test's on the rounds (paired).
    public var pValue: Double?
    /// What the evidence says.
    public var verdict: Verdict
    /// The A/A noise band the verdict was judged against (a relative change, or ms/s for the
    /// hitch ratio): a difference inside it is never a regression. Nil for counts.
    public var band: Double?
    /// `paired` (rounds of both builds interleaved in one job), `unpaired` (two reports), or
    /// nil for counts.
    public var basis: String?
    /// Paired rounds judged.
    public var rounds: Int?

    /// Whether `change`, the interval and the band are differences in the metric's own unit
    /// (the hitch ratio, ms/s: often 0, so no ratio) rather than relative changes.
    public var isAbsolute: Bool { metric == "hitch" }

    /// `+4.2%`, or `+1.50 ms/s` for the hitch ratio; `–` for none.
    public func formatChange(_ x: Double?) -> String {
        guard let x, x.isFinite else { return "–" }
        return isAbsolute ? String(format: "%+.2f ms/s", x) : String(format: "%+.1f%%", 100 * x)
    }

    /// The noise band as `±2.1%` (or `±1.00 ms/s`), `–` without one.
    public var formatBand: String {
        guard let band, band.isFinite else { return "–" }
        return isAbsolute ? String(format: "±%.2f ms/s", band) : String(format: "±%.1f%%", 100 * band)
    }

    /// The verdict as the table prints it: `inconclusive (unpaired)` says why.
    public var verdictLabel: String {
        verdict == .inconclusive && basis == "unpaired" ? "inconclusive (unpaired)" : verdict.rawValue
    }

    /// A row; non-finite figures but `baseline` and `head` become nil.
    public init(name: String, metric: String, baseline: Double?, head: Double?, change: Double?, ciLow: Double? = nil,
                ciHigh: Double? = nil, pValue: Double? = nil, verdict: Verdict, band: Double? = nil, basis: String? = nil,
                rounds: Int? = nil) {
        self.band = band.flatMap(finite)
        self.basis = basis
        self.rounds = rounds
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
    /// The baseline report's path as given (for a paired run, the base build's label).
    public var baselinePath: String
    /// The head report's path as given (for a paired run, the head build's label).
    public var headPath: String
    /// Relative change that counts for times (0.05 = 5%).
    public var timeThreshold: Double
    /// Relative change that counts for deterministic counts (0.01 = 1%).
    public var countThreshold: Double
    /// Both reports come from the same machine kind and build (fingerprint `timingKey`).
    public var sameMachine: Bool
    /// Said plainly when times were not compared, or other caveats.
    public var notes: [String]
    /// One row per metric compared.
    public var rows: [ComparisonRow]

    /// A comparison as made.
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

extension Comparison {
    /// A Markdown summary for a CI step summary or a pull-request comment: regressions and
    /// improvements first, then what could not be decided, with unchanged rows collapsed.
    /// `gate` and `allowMissing` decide what it says of figures on one side only, and of a
    /// comparison that compared nothing.
    public func markdown(title: String = "strata-bench comparison", gate: Gate = .counts,
                         allowMissing: (String) -> Bool = { _ in false }) -> String {
        func num(_ x: Double?) -> String { x.map { String(format: $0 >= 100 ? "%.0f" : "%.3g", $0) } ?? "–" }
        func table(_ rows: [ComparisonRow]) -> [String] {
            ["| verdict | benchmark | metric | change | 95% interval | noise band | baseline | head |",
             "|---|---|---|---|---|---|---|---|"]
                + rows.map { r in
                    let ci = r.ciLow.map { "\(r.formatChange($0)) … \(r.formatChange(r.ciHigh))" } ?? "–"
                    let name = r.name.replacingOccurrences(of: "|", with: "\\|")
                    return "| \(r.verdictLabel) | `\(name)` | \(r.metric) | \(r.formatChange(r.change)) | \(ci) | \(r.formatBand) | \(num(r.baseline)) | \(num(r.head)) |"
                }
        }
        let decided = rows.filter { [.regression, .failed, .improvement].contains($0.verdict) }
            .sorted { ($0.verdict == .improvement ? 1 : 0, $0.name) < ($1.verdict == .improvement ? 1 : 0, $1.name) }
        let undecided = rows.filter { [.inconclusive, .insufficientData, .differentMachine].contains($0.verdict) }
        let unchanged = rows.filter { $0.verdict == .unchanged }
        let counts = Dictionary(grouping: rows.filter { $0.verdict != .informational }, by: \.verdictLabel).mapValues(\.count)
        var lines = ["### \(title)", "",
                     counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: " · "), ""]
        lines += notes.map { "> \($0)" }
        if !notes.isEmpty { lines.append("") }
        // The scenes' frame cost first: one line per scene, its per-frame figures' changes.
        let frameMetrics = ["estimated-cycles-p50", "estimated-cycles-p99", "instructions-p50", "instructions-p99", "mallocs"]
        // Then the frame times (ms), for reading: an unpaired comparison does not judge them.
        let timeMetrics = ["frame-time-p50", "frame-time-p99"]
        let sceneRows = rows.filter { $0.name.hasPrefix("scene/") && (frameMetrics + timeMetrics).contains($0.metric) }
        var scenes: [String] = []
        for r in sceneRows where !scenes.contains(r.name) { scenes.append(r.name) }
        let columns = frameMetrics + timeMetrics.filter { m in sceneRows.contains { $0.metric == m } }
        if !scenes.isEmpty {
            lines.append("| scene frame cost | " + columns.map { timeMetrics.contains($0) ? "\($0) (ms)" : $0 }.joined(separator: " | ") + " |")
            lines.append("|---|" + columns.map { _ in "---:" }.joined(separator: "|") + "|")
            for name in scenes {
                let cells = columns.map { m -> String in
                    guard let r = sceneRows.first(where: { $0.name == name && $0.metric == m }) else { return "–" }
                    if r.verdict == .missing || r.verdict == .new { return r.verdict.rawValue }
                    if r.verdict == .informational {
                        return "\(num(r.baseline)) → \(num(r.head)) (\(r.formatChange(r.change))\(r.band == nil ? "" : ", band \(r.formatBand)"))"
                    }
                    let mark = r.verdict == .regression ? " ✗" : r.verdict == .improvement ? " ✓" : r.verdict == .unchanged ? "" : " ?"
                    return r.formatChange(r.change) + mark
                }
                lines.append("| `\(name)` | " + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        let coverage = coverage(gate: gate == .none ? .all : gate, allowMissing: allowMissing)
        if let problem = coverage.problem(gate: gate == .none ? .all : gate) {
            lines += ["**\(problem.prefix(1).uppercased() + problem.dropFirst())**", ""]
        }
        if decided.isEmpty {
            lines.append(coverage.compared == 0 ? "Nothing compared." : "No regression and no improvement.")
        } else {
            lines += table(decided)
        }
        if !undecided.isEmpty {
            lines += ["", "**Not decided** (the evidence does not separate the change from this machine's noise):", ""]
            lines += table(undecided)
        }
        if !unchanged.isEmpty {
            lines += ["", "<details><summary>\(unchanged.count) unchanged</summary>", ""] + table(unchanged) + ["", "</details>"]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
