import ArgumentParser
import Foundation
import StrataBench

/// `strata-bench history add|show|machines`: the benchmark history in a SQLite file.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Keep every report's figures in a SQLite file and show per-commit trends with their change points.",
        discussion: """
        CI adds each run's report (`history add reports/latest.json`); `history show` prints, per benchmark and \
        figure, the last commits' values and the steps among them. Figures kept per run: time (median ns/item of \
        each benchmark that ran), the counted bodies' instructions, estimated-cycles, l1-misses, ll-misses and \
        mallocs per item, and per scene (named scene/NAME) p50 and p99 (ms) and hitch (ms/s). Series are per machine \
        (the fingerprint's timing key: CPU, cores, flags, Swift version, build); several runs of one commit count \
        as their median.
        """,
        subcommands: [HistoryAddCommand.self, HistoryShowCommand.self, HistoryMachinesCommand.self])
}

/// The database option the subcommands share.
struct HistoryDatabaseOption: ParsableArguments {
    @Option(name: .customLong("db"), help: "The history database (SQLite).") var path = "reports/history.sqlite"
}

/// Opens the history for reading; a missing or foreign file ends the command (66, 65).
private func openForReading(_ path: String) throws -> HistoryStore {
    do {
        return try HistoryStore(path: path, mode: .readOnly)
    } catch let e as HistoryError {
        switch e.kind {
        case .missing:
            printError("no history database at \(path): create one with `\(commandName) history add REPORT.json --db \(path)` (CI adds every run's report)")
            throw ExitCode(66)
        case .notAHistoryDatabase, .badReport:
            printError(e.description)
            throw ExitCode(65)
        case .sqlite:
            printError(e.description)
            throw ExitCode(1)
        }
    }
}

/// `strata-bench history add REPORT.json... [--db FILE]`
struct HistoryAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add reports (JSON written by `strata-bench run`) to the history.",
        discussion: """
        Each report becomes one run, keyed by its created_at, commit and machine: a report already in the \
        history is not added again. The database and its directory are created when missing. A report that \
        cannot be read does not stop the others.
        Exit status: 0 every report added or already present, 65 a report (or the database) is not what it \
        should be, 66 a report file is missing, 1 SQLite failed.
        """)

    @Argument(help: "Reports to add.") var reports: [String]
    @OptionGroup var database: HistoryDatabaseOption

    func validate() throws {
        guard !reports.isEmpty else { throw ValidationError("give at least one report (JSON written by `strata-bench run`)") }
    }

    func run() throws {
        let path = database.path
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            printError("cannot create \(directory.path): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        let store: HistoryStore
        do { store = try HistoryStore(path: path, mode: .create) } catch let e as HistoryError {
            printError(e.description)
            throw ExitCode(e.kind == .notAHistoryDatabase ? 65 : 1)
        }
        var status: Int32 = 0
        for report in reports {
            guard FileManager.default.fileExists(atPath: report) else {
                printError("\(report): no such file")
                status = max(status, 66)
                continue
            }
            let block: StrataBlock
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: report))
                block = try ReportBuilder.read(data, name: report).strata
            } catch {
                // ReportBuilder's messages start with the path (as given) already.
                let reason = error is BenchmarkError ? "\(error)" : error.localizedDescription
                printError(reason.hasPrefix(report) ? reason : "\(report): \(reason)")
                status = max(status, 65)
                continue
            }
            do {
                let id = HistoryStore.machineID(block.machine.timingKey)
                let commit = String(block.machine.gitCommit.prefix(7)) + (block.machine.gitDirty ? "-dirty" : "")
                switch try store.add(report: block, source: report) {
                case .added(let run, let results):
                    print("\(report): added run \(run): commit \(commit), \(block.createdAt), machine \(id), \(results) figures")
                case .alreadyPresent(let run):
                    print("\(report): already present (run \(run): commit \(commit), \(block.createdAt), machine \(id)); nothing added")
                }
            } catch let e as HistoryError where e.kind == .badReport {
                printError(e.description)
                status = max(status, 65)
            } catch {
                printError("\(report): \(error)")
                throw ExitCode(1)
            }
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// `strata-bench history show [--db FILE] [--benchmark REGEX] [--metric M] [--machine KEY|all] [--last N] [--json FILE]`
struct HistoryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Per-commit trends of the history and the steps in them.",
        discussion: """
        For each benchmark (or scene) and figure: the last commits' values (short commit → median of its runs), \
        then each change point: the commit where the new level starts, the step between the medians of the \
        segments either side and its p-value. Change points are found by E-divisive means (the energy-distance \
        statistic, a seeded 199-permutation test at p ≤ 0.05, binary segmentation, at least --min-segment commits \
        per segment), among the commits shown; steps smaller than --min-step are ignored. A '|' in a trend \
        marks where a change point's segment starts.
        Exit status: 0, 64 usage (bad regular expression, unknown metric or machine), 65 the file is not a \
        history database, 66 no database (create it with `history add`).
        """)

    @OptionGroup var database: HistoryDatabaseOption
    @Option(help: "Regular expression over benchmark names (searched; scenes are scene/NAME).") var benchmark: String?
    @Option(help: "One figure: \(HistoryMetric.allCases.map(\.rawValue).joined(separator: ", ")) (default: all).") var metric: String?
    @Option(help: "A machine's id (from `history machines`, or a prefix of 4+ characters), its whole timing key, or all (default: the machine of the newest run).")
    var machine: String?
    @Option(help: "Commits per series (the newest).") var last = 20
    @Option(help: "Smallest step reported, e.g. 1% or 0.01.") var minStep = "1%"
    @Option(help: "Fewest commits on either side of a change point.") var minSegment = 3
    @Flag(help: "Only the series with a change point.") var changesOnly = false
    @Option(help: "Also write the trends and change points as JSON here.") var json: String?

    func validate() throws {
        guard last >= 1 else { throw ValidationError("--last must be at least 1") }
        guard minSegment >= 1 else { throw ValidationError("--min-segment must be at least 1") }
    }

    func run() throws {
        let pattern = try benchmark.map { b -> NSRegularExpression in
            do { return try NSRegularExpression(pattern: b) } catch {
                throw ValidationError("--benchmark '\(b)' is not a valid regular expression")
            }
        }
        let detector = ChangePointDetector(minimumSegment: minSegment, minimumRelativeChange: try fraction(minStep, "--min-step"))
        let store = try openForReading(database.path)
        do {
            try show(store, pattern: pattern, detector: detector)
        } catch let e as HistoryError {
            printError(e.description)
            throw ExitCode(e.kind == .notAHistoryDatabase ? 65 : 1)
        }
    }

    private func show(_ store: HistoryStore, pattern: NSRegularExpression?, detector: ChangePointDetector) throws {
        let machines = try store.machines()
        guard !machines.isEmpty else {
            print("\(database.path): no runs yet; add reports with `\(commandName) history add REPORT.json --db \(database.path)`")
            if let json { try writeJSON(HistoryShowJSON(database: database.path, machine: nil, last: last, trends: []), to: json) }
            return
        }
        if let metric, !(try store.metrics()).contains(metric) {
            throw ValidationError("no figures of metric '\(metric)' in \(database.path); it has \(try store.metrics().joined(separator: ", "))")
        }
        let machineKey: String?
        switch machine {
        case "all": machineKey = nil
        case nil: machineKey = try store.newestMachineKey()
        case let spec?:
            guard let key = try store.machineKey(matching: spec) else {
                throw ValidationError("no machine '\(spec)' in \(database.path) (or several match); machines: \(machines.map(\.id).joined(separator: ", ")) (see `history machines`)")
            }
            machineKey = key
        }
        let trends = try store.series(namePattern: pattern, metric: metric, machineKey: machineKey)
            .map { HistoryStore.trend($0, last: last, detector: detector) }
        let shown = changesOnly ? trends.filter { !$0.changePoints.isEmpty } : trends

        let describe = machineKey.map { key in
            let m = machines.first { $0.key == key }
            return "machine \(HistoryStore.machineID(key))" + (m.map { " (\($0.hostnames.joined(separator: ", ")); \($0.runs) runs)" } ?? "")
        } ?? "all machines"
        print("\(database.path): \(describe), last \(last) commits, steps of \(percent(detector.minimumRelativeChange)) or more")
        for t in shown { print(""); print(text(t, showMachine: machineKey == nil)) }
        let stepped = trends.filter { !$0.changePoints.isEmpty }.count
        print("")
        let short = trends.filter { $0.changePoints.isEmpty && $0.series.points.count < 2 * minSegment }.count
        print("\(trends.count) series, \(stepped) with change points\(trends.isEmpty ? " (nothing matches: try --machine all, or another --benchmark/--metric)" : "")"
              + (short > 0 ? "; \(short) too short to find one (fewer than \(2 * minSegment) commits: \(minSegment) on each side of a step)" : ""))
        if let json {
            try writeJSON(HistoryShowJSON(database: database.path, machine: machineKey, last: last, trends: shown.map(HistoryTrendJSON.init)),
                          to: json)
        }
    }

    /// A series' header, its trend (wrapped) and its change points.
    private func text(_ t: HistoryStore.Trend, showMachine: Bool) -> String {
        let s = t.series
        let runs = s.points.reduce(0) { $0 + $1.runs }
        var lines = ["\(s.name)  \(s.metric) (\(s.unit)), \(s.points.count) commit\(s.points.count == 1 ? "" : "s"), \(runs) run\(runs == 1 ? "" : "s")"
                     + (showMachine ? ", machine \(HistoryStore.machineID(s.machineKey))" : "")]
        let starts = Set(t.changePoints.map(\.index))
        var line = ""
        for (i, p) in s.points.enumerated() {
            let entry = (starts.contains(i) ? "| " : "") + "\(p.label) \(compact(p.value))"
            if !line.isEmpty && line.count + entry.count + 2 > 100 { lines.append(line); line = "" }
            line += "  " + entry
        }
        if !line.isEmpty { lines.append(line) }
        // No change point: say why, so a step the eye sees is not taken for "none".
        if t.changePoints.isEmpty {
            let n = s.points.count
            lines.append(n < 2 * minSegment
                ? "  no change point can be found: needs at least \(2 * minSegment) commits (\(minSegment) on each side, --min-segment), has \(n)"
                : "  no change point: no step of \(minStep) or more with \(minSegment) or more commits on each side is significant (p ≤ 0.05)")
        }
        for c in t.changePoints {
            let at = t.point(at: c)?.label ?? "#\(c.index)"
            let step = c.relativeChange.map { String(format: "%+.1f%%", $0 * 100) } ?? "from 0"
            lines.append("  step \(step) at \(at) (p=\(String(format: "%.3f", c.pValue)), median \(compact(c.before)) → \(compact(c.after)) \(s.unit))")
        }
        return lines.joined(separator: "\n")
    }
}

/// `strata-bench history machines [--db FILE]`
struct HistoryMachinesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "machines",
        abstract: "The machines (timing keys) the history has runs of, the newest first.",
        discussion: "Exit status: 0, 65 the file is not a history database, 66 no database.")

    @OptionGroup var database: HistoryDatabaseOption

    func run() throws {
        let store = try openForReading(database.path)
        let machines: [HistoryStore.Machine]
        do { machines = try store.machines() } catch {
            printError("\(error)")
            throw ExitCode(1)
        }
        if machines.isEmpty { print("\(database.path): no runs yet") }
        for m in machines {
            print("\(m.id)  \(m.runs) run\(m.runs == 1 ? "" : "s") of \(m.commits) commit\(m.commits == 1 ? "" : "s"), \(m.firstRun) … \(m.lastRun), host \(m.hostnames.joined(separator: ", "))")
            print("          \(m.key)")
        }
    }
}

/// What `history show --json` writes.
struct HistoryShowJSON: Encodable {
    var database: String
    /// The machine key shown (nil: all).
    var machine: String?
    var last: Int
    var trends: [HistoryTrendJSON]
}

/// One trend, its change points named by commit.
struct HistoryTrendJSON: Encodable {
    struct Step: Encodable {
        var index: Int
        var commit: String
        var before: Double
        var after: Double
        var relativeChange: Double?
        var pValue: Double
    }
    var name: String
    var metric: String
    var unit: String
    var machineKey: String
    var machineId: String
    var points: [HistoryStore.Series.Point]
    var changePoints: [Step]

    init(_ t: HistoryStore.Trend) {
        name = t.series.name
        metric = t.series.metric
        unit = t.series.unit
        machineKey = t.series.machineKey
        machineId = HistoryStore.machineID(t.series.machineKey)
        points = t.series.points
        changePoints = t.changePoints.map { c in
            Step(index: c.index, commit: t.point(at: c)?.commit ?? "", before: c.before, after: c.after,
                 relativeChange: c.relativeChange, pValue: c.pValue)
        }
    }
}

/// 4 significant digits, no exponent below 10,000; whole numbers above.
private func compact(_ x: Double) -> String {
    abs(x) >= 10_000 ? String(format: "%.0f", x) : String(format: "%.4g", x)
}

private func percent(_ f: Double) -> String {
    let p = f * 100
    return p == p.rounded() ? "\(Int(p))%" : String(format: "%.2g%%", p)
}
