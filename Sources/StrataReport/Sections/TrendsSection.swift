import Foundation
import StrataHistory
import StrataReportModel

/// What the Trends section shows: the headline figures over the last commits of this report's
/// machine, read from the history database (`strata-bench history add`), this run appended
/// when its commit is not in the history yet, and the change points among them.
public struct ReportTrends {
    /// A headline figure: a benchmark (or `scene/NAME`) and one of the history's metrics.
    public struct Figure: Hashable {
        public var name: String
        public var metric: HistoryMetric

        public init(_ name: String, _ metric: HistoryMetric) {
            self.name = name
            self.metric = metric
        }

        /// "commit/implicit/1000 · instructions"
        public var label: String { "\(name) · \(metric.rawValue)" }
        /// The chart's anchor: `trend-` and the label as an id.
        public var chartID: String { "trend-" + Escape.id("\(name) \(metric.rawValue)") }
    }

    /// One figure's points, oldest first.
    public struct FigureTrend {
        public var figure: Figure
        /// The history's last commits (each the median of its runs), then this run when its
        /// commit is not among them; at most `last` points.
        public var points: [HistoryStore.Series.Point]
        /// Change points among `points` (indices into them).
        public var changePoints: [ChangePoint]
        /// The index of this run's point (appended: its commit is not in the history).
        public var thisRun: Int?
        /// The index of this report's commit when the history already has it.
        public var thisCommit: Int?

        public var drawn: Bool { points.count >= 2 }
    }

    /// The fixed set of headline figures: instructions and estimated cycles of four counted
    /// bodies, the time of two large benchmarks, the main scene's p99, and the shipped scenes'
    /// deterministic frame cost (per-frame p50 and p99 of estimated cycles).
    public static let headlineFigures: [Figure] = [
        Figure("commit/implicit/1000", .instructions), Figure("commit/implicit/1000", .estimatedCycles),
        Figure("frame/opacity/shared/basic/1000", .instructions), Figure("frame/opacity/shared/basic/1000", .estimatedCycles),
        Figure("frame/position/own/keyframe/1000", .instructions), Figure("frame/position/own/keyframe/1000", .estimatedCycles),
        Figure("lookup/built-in/interned", .instructions), Figure("lookup/built-in/interned", .estimatedCycles),
        Figure("frame/opacity/shared/basic/10000", .time), Figure("commit/implicit/10000", .time),
        Figure("scene/app-10k", .p99),
        Figure("scene/app-10k", .estimatedCyclesP50), Figure("scene/app-10k", .estimatedCyclesP99),
        Figure("scene/stress-100k", .estimatedCyclesP50), Figure("scene/stress-100k", .estimatedCyclesP99),
    ]

    /// The figures a report's Trends section follows: the headline figures it measured, or,
    /// when it measured none (a package's own benchmarks and scenes), its own: instructions and
    /// estimated cycles, scenes' p99 and per-frame estimated cycles, timed benchmarks' time, at
    /// most `limit`. Strata's own figures appear only when the report or the history has them.
    public static func figures(for report: StrataBlock, limit: Int = 24) -> [Figure] {
        let measured = HistoryStore.figures(of: report).map { Figure($0.name, $0.metric) }
        let have = Set(measured)
        var out = headlineFigures.filter { have.contains($0) }
        // Strata's own run: its headline figures. A package's: its own.
        if !out.isEmpty { return out }
        let followed: [HistoryMetric] = [.instructions, .estimatedCycles, .p99, .estimatedCyclesP50, .estimatedCyclesP99, .time]
        for metric in followed {
            for f in measured where f.metric == metric && !out.contains(f) { out.append(f) }
        }
        return Array(out.prefix(limit))
    }

    /// The database's path, as given.
    public var database: String
    /// This report's machine (`machine.timingKey`) and its short id.
    public var machineKey: String
    public var machineID: String
    /// Commits of this machine in the history (a dirty run counts apart from its clean commit).
    public var commits: Int
    /// Other machines the history has runs of (their series are not shown).
    public var otherMachines: Int
    /// Commits per figure (the newest).
    public var last: Int
    /// One per figure asked for, in that order.
    public var figures: [FigureTrend]
    /// Why the database could not be read (then nothing else is filled in).
    public var problem: String?

    /// The figures' last `last` commits on `report`'s machine from `store`, this run appended
    /// when its commit (and dirty flag) is not in the history, change points found among them
    /// (an older commit's report shows the newest commits, its own not among them).
    public static func load(from store: HistoryStore, report: StrataBlock, last: Int, figures: [Figure]? = nil,
                            detector: ChangePointDetector = ChangePointDetector()) throws -> ReportTrends {
        // By default: the report's own figures, and the headline figures this machine's
        // history has a series of (a quick run's report still shows the scenes it skipped).
        var seen = Set<Figure>()
        let asked = (figures ?? (Self.figures(for: report) + headlineFigures)).filter { seen.insert($0).inserted }
        let key = report.machine.timingKey
        let machines = try store.machines()
        let mine = machines.first { $0.key == key }
        let current = HistoryStore.figures(of: report)
        let commit = report.machine.gitCommit, dirty = report.machine.gitDirty
        let n = max(1, last)
        // Each figure's whole series (one query per metric; names matched whole): whether this
        // run's commit is in the history at all decides whether it is appended.
        var series: [Figure: [HistoryStore.Series.Point]] = [:]
        for metric in Order.distinct(asked.map(\.metric.rawValue)) {
            let names = Order.distinct(asked.filter { $0.metric.rawValue == metric }.map(\.name))
            let pattern = try NSRegularExpression(pattern: "^(?:" + names.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|") + ")$")
            for s in try store.series(namePattern: pattern, metric: metric, machineKey: key) {
                if let m = HistoryMetric(rawValue: s.metric) { series[Figure(s.name, m)] = s.points }
            }
        }
        let own = Set(Self.figures(for: report, limit: .max))
        let figures = figures ?? asked.filter { own.contains($0) || !(series[$0] ?? []).isEmpty }
        var out: [FigureTrend] = []
        for figure in figures {
            let all = series[figure] ?? []
            var points = Array(all.suffix(n))
            var thisRun: Int?
            let inHistory = all.contains { $0.commit == commit && $0.dirty == dirty }
            if !inHistory, let value = current.first(where: { $0.name == figure.name && $0.metric == figure.metric })?.value {
                points.append(HistoryStore.Series.Point(commit: commit, dirty: dirty, firstSeen: report.createdAt, value: value, runs: 1))
                if points.count > n { points.removeFirst(points.count - n) }
                thisRun = points.count - 1
            }
            let thisCommit = thisRun == nil ? points.firstIndex { $0.commit == commit && $0.dirty == dirty } : nil
            out.append(FigureTrend(figure: figure, points: points, changePoints: detector.detect(points.map(\.value)),
                                   thisRun: thisRun, thisCommit: thisCommit))
        }
        return ReportTrends(database: store.path, machineKey: key, machineID: HistoryStore.machineID(key), commits: mine?.commits ?? 0,
                            otherMachines: machines.count - (mine == nil ? 0 : 1), last: n, figures: out, problem: nil)
    }

    /// A Trends section that says the database could not be read, and why.
    public static func unavailable(database: String, report: StrataBlock, last: Int, reason: String) -> ReportTrends {
        let key = report.machine.timingKey
        return ReportTrends(database: database, machineKey: key, machineID: HistoryStore.machineID(key), commits: 0, otherMachines: 0,
                            last: last, figures: [], problem: reason)
    }
}

/// The headline figures per commit from the history: a small line chart each, change points
/// marked, this run at the right end.
enum TrendsSection {
    static func render(_ trends: ReportTrends?, report: StrataBlock) -> Section? {
        guard let trends else { return nil }
        var intro = ""
        if let problem = trends.problem {
            intro += paragraph("No trends: the history database \(trends.database) could not be read: \(problem)", cls: "note warn")
            return .make(id: "trends", title: "Trends", intro: intro, charts: [])
        }
        let drawn = trends.figures.filter(\.drawn)
        let machine = "this machine (\(trends.machineID): \(report.machine.cpuModel), \(report.machine.cores) cores, \(report.machine.buildConfiguration))"
        if trends.commits < 2 {
            let have = trends.commits == 0 ? "no commits" : "only 1 commit"
            intro += paragraph("The history \(trends.database) has \(have) of \(machine): a trend needs at least 2. "
                               + "Add each run's report with `strata-bench history add REPORT.json --db \(trends.database)`.", cls: "note warn")
        }
        if trends.otherMachines > 0 {
            intro += paragraph("The history also has runs of \(trends.otherMachines) other machine\(trends.otherMachines == 1 ? "" : "s"), not shown: a trend compares one machine's figures (CPU, cores, flags, Swift version, build).")
        }
        if !drawn.isEmpty {
            let appended = drawn.contains { $0.thisRun != nil }
            intro += paragraph("The headline figures over up to the last \(trends.last) commits of \(machine) in \(trends.database): one point per commit (the median of its runs), oldest on the left. "
                               + "A dashed vertical line marks a change point, where a new level starts (E-divisive means, permutation test at p ≤ 0.05, steps of 1% or more)"
                               + (appended ? "; the hollow diamond at the right is this run, whose commit is not in the history yet." : "."))
        }
        let charts = drawn.compactMap { chart($0, trends: trends, report: report) }
        var outro = ""
        let skipped = trends.figures.filter { !$0.drawn }
        if !skipped.isEmpty {
            outro = paragraph("Not drawn (fewer than 2 points): " + skipped.map { f in
                f.figure.label + (f.points.isEmpty ? " (not measured)" : f.thisRun != nil ? " (this run only)" : " (1 commit)")
            }.joined(separator: "; ") + ".")
        }
        return .make(id: "trends", title: "Trends", intro: intro, charts: charts, outro: outro)
    }

    /// "step +12.3% at abc1234" (the commit where the new level starts).
    static func stepLabel(_ change: ChangePoint, at point: HistoryStore.Series.Point?) -> String {
        "step \(change.relativeChange.map { Format.change($0) } ?? "from 0") at \(point?.label ?? "#\(change.index)")"
    }

    private static func chart(_ f: ReportTrends.FigureTrend, trends: ReportTrends, report: StrataBlock) -> Chart? {
        let item = report.counts.first { $0.name == f.figure.name }?.item ?? report.benchmarks.first { $0.name == f.figure.name }?.item ?? "item"
        let value = valueFormat(f.figure.metric, item: item)
        func describe(_ i: Int) -> String {
            let p = f.points[i]
            if i == f.thisRun { return "this run (commit \(p.label), not in the history yet): \(value(p.value))" }
            return "\(p.label) (\(String(p.firstSeen.prefix(10)))): \(value(p.value)), median of \(p.runs) run\(p.runs == 1 ? "" : "s")"
                + (i == f.thisCommit ? " (this report's commit)" : "")
        }
        let points = f.points.indices.map { i in
            TrendChart.Point(label: i == f.thisRun ? "this run" : f.points[i].label, value: f.points[i].value, tooltip: describe(i),
                             isThisRun: i == f.thisRun)
        }
        let steps = f.changePoints.map { c -> TrendChart.Step in
            let at = f.points.indices.contains(c.index) ? f.points[c.index] : nil
            return TrendChart.Step(index: c.index, label: stepLabel(c, at: at),
                                   tooltip: "\(stepLabel(c, at: at)): median \(value(c.before)) before, \(value(c.after)) from \(at?.label ?? "here") on (p = \(Format.pValue(c.pValue)))")
        }
        let title = f.figure.label
        let chart = TrendChart(points: points, steps: steps, yTitle: axisTitle(f.figure.metric, item: item), yFormat: tickFormat(f.figure.metric))
        guard let svg = chart.render(id: f.figure.chartID, title: title,
                                     description: "\(what(f.figure.metric, item: item)) of \(f.figure.name) over the last \(f.points.count) commits of machine \(trends.machineID), one point per commit, oldest first"
                                        + (f.changePoints.isEmpty ? ", no change point." : ", with \(f.changePoints.count) change point\(f.changePoints.count == 1 ? "" : "s") marked: " + steps.map(\.label).joined(separator: ", ") + ".")) else { return nil }
        var t = Table([.init("commit"), .init("first seen"), .init("runs", numeric: true), .init(f.figure.metric.rawValue, numeric: true), .init("")])
        let starts = Dictionary(f.changePoints.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
        for (i, p) in f.points.enumerated() {
            let note = [i == f.thisRun ? "this run" : i == f.thisCommit ? "this report's commit" : nil,
                        starts[i].map { stepLabel($0, at: p) }].compactMap { $0 }.joined(separator: "; ")
            t.add(text: [p.label, String(p.firstSeen.prefix(10)), "\(p.runs)", value(p.value), note], cls: starts[i] == nil ? nil : "flagged-row")
        }
        let caption = "\(what(f.figure.metric, item: item)) per commit, \(f.points.count) commits"
            + (f.changePoints.isEmpty ? ", no step" : ", " + steps.map(\.label).joined(separator: ", "))
        return Chart(id: f.figure.chartID, title: title, caption: caption, svg: svg, data: t)
    }

    private static func what(_ metric: HistoryMetric, item: String) -> String {
        switch metric {
        case .time: return "Median time per \(item)"
        case .instructions: return "Instructions per \(item)"
        case .estimatedCycles: return "Estimated cycles per \(item)"
        case .l1Misses: return "L1 misses per \(item)"
        case .llMisses: return "LL misses per \(item)"
        case .mallocs: return "Mallocs per \(item)"
        case .p50: return "Frame time p50"
        case .p99: return "Frame time p99"
        case .hitch: return "Hitch time"
        case .instructionsP50: return "Instructions per frame, p50"
        case .instructionsP99: return "Instructions per frame, p99"
        case .estimatedCyclesP50: return "Estimated cycles per frame, p50"
        case .estimatedCyclesP99: return "Estimated cycles per frame, p99"
        }
    }

    private static func axisTitle(_ metric: HistoryMetric, item: String) -> String {
        switch metric {
        case .time: return "time per \(item)"
        case .instructions: return "instructions per \(item)"
        case .estimatedCycles: return "est. cycles per \(item)"
        case .l1Misses, .llMisses: return "misses per \(item)"
        case .mallocs: return "mallocs per \(item)"
        case .p50: return "p50 frame time"
        case .p99: return "p99 frame time"
        case .hitch: return "hitch (ms/s)"
        case .instructionsP50, .instructionsP99: return "instructions per frame"
        case .estimatedCyclesP50, .estimatedCyclesP99: return "est. cycles per frame"
        }
    }

    /// Tick labels with at least three significant digits, more when the ticks need them
    /// (a trend's range is often a few percent of its level).
    static func tickFormat(_ metric: HistoryMetric) -> (Double, Int) -> String {
        switch metric {
        case .time:
            return { x, digits in
                guard x.isFinite else { return Format.dash }
                let a = abs(x)
                let (value, unit) = a < 1e3 ? (x, "ns") : a < 1e6 ? (x / 1e3, "µs") : a < 1e9 ? (x / 1e6, "ms") : (x / 1e9, "s")
                return Format.compact(value, max(3, digits)) + " " + unit
            }
        case .p50, .p99: return { x, digits in Format.compact(x, max(3, digits)) + " ms" }
        default: return { x, digits in Format.compact(x, max(3, digits)) }
        }
    }

    private static func valueFormat(_ metric: HistoryMetric, item: String) -> (Double) -> String {
        switch metric {
        case .time: return { "\(Format.ns($0)) per \(item)" }
        case .instructions: return { "\(Format.perItem($0)) instructions per \(item)" }
        case .estimatedCycles: return { "\(Format.perItem($0)) estimated cycles per \(item)" }
        case .l1Misses, .llMisses: return { "\(Format.perItem($0)) misses per \(item)" }
        case .mallocs: return { "\(Format.perItem($0)) mallocs per \(item)" }
        case .p50, .p99: return { Format.ms($0) }
        case .hitch: return { "\(Format.compact($0)) ms/s" }
        case .instructionsP50, .instructionsP99: return { "\(Format.integer($0)) instructions per frame" }
        case .estimatedCyclesP50, .estimatedCyclesP99: return { "\(Format.integer($0)) estimated cycles per frame" }
        }
    }
}
