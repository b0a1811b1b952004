import ArgumentParser
import Foundation
import StrataBench

// Named baselines and a thresholds file kept in the package's own repository, as
// package-benchmark keeps them (`.benchmarkBaselines/`, `Thresholds/`): `swift package strata
// baseline update NAME` (the command plugin) runs these with the package's paths; a benchmark
// executable runs them itself too (`my-app-benchmarks baseline check main`).

/// Where a package keeps its baselines and thresholds.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The folder of named baselines (NAME.json each). Default: .strataBaselines/EXECUTABLE.", valueName: "dir"))
    var baselines: String?
    @Option(help: ArgumentHelp("The thresholds file. Default: Thresholds/EXECUTABLE.json.", valueName: "file"))
    var thresholds: String?
    @Option(help: ArgumentHelp("Where runs write their reports (JSON, HTML, players). Default: reports/EXECUTABLE.", valueName: "dir"))
    var reports: String?

    var reportsDirectory: String { reports ?? "reports/\(commandName)" }

    var baselinesDirectory: String { baselines ?? ".strataBaselines/\(commandName)" }
    var thresholdsPath: String { thresholds ?? "Thresholds/\(commandName).json" }

    func baselinePath(_ name: String) -> String { baselinesDirectory + "/" + name + ".json" }

    /// The names stored, sorted.
    func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: baselinesDirectory)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// A stored baseline's report; exit 5 (package-benchmark's "baseline not found") naming
    /// the ones there are.
    func read(_ name: String) throws -> StrataBlock {
        let path = baselinePath(name)
        guard FileManager.default.fileExists(atPath: path) else {
            let known = names()
            printError("no baseline '\(name)' in \(baselinesDirectory)/ "
                       + (known.isEmpty ? "(none stored yet: `baseline update \(name)` records one)" : "(stored: \(known.joined(separator: ", ")))"))
            throw ExitCode(5)
        }
        return try readBlock(path, label: "baseline '\(name)' (\(path))", exitCode: 65)
    }

    /// The thresholds file, nil when there is none (`required`: exit 5 instead), exit 65 when
    /// it cannot be read as one.
    func readThresholds(required: Bool) throws -> Thresholds? {
        guard FileManager.default.fileExists(atPath: thresholdsPath) else {
            if required {
                printError("no thresholds file at \(thresholdsPath) (`\(commandName) thresholds update` records one)")
                throw ExitCode(5)
            }
            return nil
        }
        do { return try Thresholds.read(URL(fileURLWithPath: thresholdsPath)) } catch {
            printError("\(error)")
            throw ExitCode(65)
        }
    }
}

/// A baseline's name: a file name, nothing that leaves the folder.
func checkBaselineName(_ name: String) throws {
    guard !name.isEmpty, name.count <= 100, !name.hasPrefix("."),
          name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0) }) else {
        throw ValidationError("'\(name)' is not a baseline name: letters, digits, '.', '_' and '-' (not first '.')")
    }
}

/// What the run behind `baseline update|check` and `thresholds update|check` measures: the
/// run options a CI job most often narrows, and anything after `--` as `run` options.
struct RunSelection: ParsableArguments {
    @Flag(help: "The quick subset, 3 repetitions, short scenes (as `run --quick`).") var quick = false
    @Flag(help: "Only the deterministic counts: no timings (as `run --counts-only`).") var countsOnly = false
    @Option(help: "Regular expression over benchmark names (as `run --filter`).") var filter: String?
    @Option(name: .customLong("suite"), help: "Suites to run (repeatable; as `run --suite`).") var suites: [String] = []
    @Option(name: .customLong("scene"), help: ArgumentHelp("Scenes to run (repeatable; as `run --scene`).", valueName: "name")) var scenes: [String] = []
    @Option(help: ArgumentHelp("Heap placements of each counted body (as `run --count-layouts`).", valueName: "n")) var countLayouts: Int?
    @Option(help: ArgumentHelp("Iterations of each counted body (as `run --count-iterations`).", valueName: "n")) var countIterations: Int?
    @Option(help: ArgumentHelp("Heap placements of each scene (as `run --count-scene-layouts`).", valueName: "n")) var countSceneLayouts: Int?
    @Option(help: ArgumentHelp("Frames of each scene counted (as `run --count-frames`).", valueName: "n")) var countFrames: Int?
    @Option(help: ArgumentHelp("Repetitions of each timed benchmark (as `run --repetitions`).", valueName: "n")) var repetitions: Int?
    @Argument(parsing: .postTerminator, help: "Other `run` options, after `--` (not through `swift package`, which keeps `--` for itself).")
    var runOptions: [String] = []

    /// Runs `run` into `out` (its HTML and players beside it), compared with nothing.
    func run(out: String) throws -> StrataBlock {
        var args = runOptions
        if quick { args.append("--quick") }
        if countsOnly { args.append("--counts-only") }
        if let filter { args += ["--filter", filter] }
        for s in suites { args += ["--suite", s] }
        for s in scenes { args += ["--scene", s] }
        for (option, value) in [("--count-layouts", countLayouts), ("--count-iterations", countIterations),
                                ("--count-scene-layouts", countSceneLayouts), ("--count-frames", countFrames),
                                ("--repetitions", repetitions)] {
            if let value { args += [option, String(value)] }
        }
        args += ["--out", out, "--baseline", "none", "--gate", "none"]
        progress("\(commandName) run \(args.joined(separator: " "))")
        let command: RunCommand
        do { command = try RunCommand.parse(args) } catch {
            printError(RunCommand.message(for: error))
            throw ExitCode(64)
        }
        try command.run()
        return try readBlock(out, label: "the run's report \(out) cannot be read", exitCode: 3)
    }
}

/// How a comparison is written out: the table, Markdown (to stdout or a file, for a pull-request
/// comment), JSON.
struct ComparisonOutput: ParsableArguments {
    @Option(help: "text (a table) or markdown, on stdout.") var format = "text"
    @Option(help: ArgumentHelp("Also write the Markdown summary here (a CI step summary or a pull-request comment).", valueName: "file"))
    var markdown: String?
    @Option(help: ArgumentHelp("Also write the comparison as JSON here.", valueName: "file")) var json: String?
    @Flag(help: "List unchanged rows too.") var all = false

    func validate() throws {
        guard ["text", "markdown"].contains(format) else { throw ValidationError("--format must be text or markdown") }
    }

    func write(_ c: Comparison, title: String, gate: Gate, allowed: (String) -> Bool) throws {
        print(format == "markdown" ? c.markdown(title: title, gate: gate, allowMissing: allowed) : c.table(all: all))
        if let markdown {
            try createParent(of: markdown)
            try Data(c.markdown(title: title, gate: gate, allowMissing: allowed).utf8).write(to: URL(fileURLWithPath: markdown))
        }
        if let json { try writeJSON(c, to: json) }
    }
}

func createParent(of path: String) throws {
    try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
}

/// The gate's verdict on `c`: printed, then thrown as the exit status (package-benchmark's).
func finish(_ c: Comparison, gate: Gate, allowed: (String) -> Bool, against: String) throws {
    if gate != .none, let problem = c.coverage(gate: gate, allowMissing: allowed).problem(gate: gate) { print(problem) }
    let code = c.exitCode(gate: gate, allowMissing: allowed)
    let meaning = [0: "passed", 2: "a regression", 3: "a benchmark failed or a figure is missing from this run",
                   4: "improvements only: update the baseline or thresholds deliberately",
                   5: "a figure of this run is not in \(against), or nothing was compared"][Int(code)] ?? ""
    print("exit status \(code) (gate: \(gate.rawValue), against \(against)): \(meaning)")
    if code != 0 { throw ExitCode(code) }
}

struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Named baselines kept in your repository: update, compare, check, list, read, delete.",
        discussion: """
        As package-benchmark's `baseline` verbs (`swift package strata baseline ...` runs them through the command
        plugin, building the benchmarks in release first). A baseline is a whole run's report, stored as
        .strataBaselines/EXECUTABLE/NAME.json: commit it, or keep it as a CI artifact. `check` gates with
        `compare`'s verdicts and exit status (0 fine, 2 regression, 3 a figure missing from the run, 4 improvements
        only, 5 baseline not found, a figure not in it, or nothing compared), with the tolerances of the thresholds
        file (Thresholds/EXECUTABLE.json) where it sets them.
        """,
        subcommands: [Update.self, Compare.self, Check.self, List.self, Read.self, Delete.self])

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run the benchmarks (or take a report) and store the result as baseline NAME.")
        @Argument(help: "The baseline's name (main, pr-123, 1.0.0 ...).") var name: String
        @Option(help: ArgumentHelp("Store this report instead of running.", valueName: "report")) var from: String?
        @OptionGroup var store: StoreOptions
        @OptionGroup var selection: RunSelection

        func validate() throws { try checkBaselineName(name) }

        func run() throws {
            let report: String
            if let from {
                report = from
                _ = try readBlock(from, label: from, exitCode: 65)
            } else {
                report = store.reportsDirectory + "/baseline-\(name).json"
                _ = try selection.run(out: report)
            }
            let path = store.baselinePath(name)
            try createParent(of: path)
            let existed = FileManager.default.fileExists(atPath: path)
            // (`--from` the stored file itself: nothing to copy.)
            if URL(fileURLWithPath: report).standardizedFileURL != URL(fileURLWithPath: path).standardizedFileURL {
                if existed { try FileManager.default.removeItem(atPath: path) }
                try FileManager.default.copyItem(atPath: report, toPath: path)
            }
            let block = try ReportBuilder.read(URL(fileURLWithPath: path)).strata
            print("baseline '\(name)' \(existed ? "updated" : "stored"): \(path) (\(describe(block)))")
        }
    }

    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare baseline NAME with a new run (or with baseline OTHER): verdicts shown, exit 0 unless something failed.")
        @Argument(help: "The baseline.") var name: String
        @Argument(help: "Another baseline to compare with, instead of a new run.") var other: String?
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: ComparisonOutput
        @OptionGroup var selection: RunSelection

        func validate() throws {
            try checkBaselineName(name)
            if let other { try checkBaselineName(other) }
        }

        func run() throws {
            let (c, against) = try compareWithBaseline(name: name, other: other, store: store, selection: selection)
            try output.write(c, title: "\(commandName): baseline '\(name)'", gate: .none, allowed: { _ in false })
            try finish(c, gate: .none, allowed: { _ in false }, against: against)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare baseline NAME with a new run (or with baseline OTHER) and exit with the gate's status.")
        @Argument(help: "The baseline.") var name: String
        @Argument(help: "Another baseline to check, instead of a new run.") var other: String?
        @Option(help: "Verdicts that set the exit status: counts (the default: times shown, not judged), all, none.") var gate = "counts"
        @Option(help: ArgumentHelp("Benchmark names (a regular expression) that may be in one side only.", valueName: "pattern"))
        var allowMissing: String?
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: ComparisonOutput
        @OptionGroup var selection: RunSelection

        func validate() throws {
            try checkBaselineName(name)
            if let other { try checkBaselineName(other) }
            _ = try parseGate(gate)
            _ = try missingPattern(allowMissing)
        }

        func run() throws {
            let gate = try parseGate(gate)
            let allowed = try missingPattern(allowMissing)
            let (c, against) = try compareWithBaseline(name: name, other: other, store: store, selection: selection)
            try output.write(c, title: "\(commandName): check against baseline '\(name)'", gate: gate, allowed: allowed)
            try finish(c, gate: gate, allowed: allowed, against: against)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The stored baselines: name, when, what they hold.")
        @OptionGroup var store: StoreOptions

        func run() throws {
            let names = store.names()
            if names.isEmpty { print("no baselines in \(store.baselinesDirectory)/ (`\(commandName) baseline update NAME` stores one)") }
            for n in names {
                let summary = (try? ReportBuilder.read(URL(fileURLWithPath: store.baselinePath(n))).strata).map(describe) ?? "unreadable"
                print("\(n)\t\(summary)")
            }
        }
    }

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a stored baseline's figures.")
        @Argument(help: "The baseline.") var name: String
        @OptionGroup var store: StoreOptions

        func validate() throws { try checkBaselineName(name) }

        func run() throws {
            let block = try store.read(name)
            print("baseline '\(name)': \(describe(block))")
            print("metric                  value          name")
            for f in Thresholds.figures(of: block) {
                print(f.metric.padding(toLength: 24, withPad: " ", startingAt: 0)
                      + String(format: "%.6g", f.value).padding(toLength: 15, withPad: " ", startingAt: 0) + f.name)
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete stored baselines.")
        @Argument(help: "The baselines.") var names: [String]
        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard !names.isEmpty else { throw ValidationError("name the baselines to delete") }
            for n in names { try checkBaselineName(n) }
        }

        func run() throws {
            for n in names {
                _ = try store.read(n)
                try FileManager.default.removeItem(atPath: store.baselinePath(n))
                print("baseline '\(n)' deleted")
            }
        }
    }
}

/// A report in a line: when, which commit, what it holds.
func describe(_ b: StrataBlock) -> String {
    let figures = Thresholds.figures(of: b)
    let counted = Set(figures.filter { !Thresholds.isTime($0.metric) }.map(\.name)).count
    return "\(b.createdAt), commit \(b.machine.gitCommit.prefix(12)), \(b.benchmarks.count) timed benchmarks, \(b.scenes.count) scenes, \(counted) counted"
}

/// Baseline `name` against a new run (or baseline `other`), with the thresholds file's
/// tolerances and the machine's noise bands when there are any.
func compareWithBaseline(name: String, other: String?, store: StoreOptions, selection: RunSelection) throws -> (Comparison, String) {
    let base = try store.read(name)
    let head: StrataBlock, headPath: String
    if let other {
        head = try store.read(other)
        headPath = store.baselinePath(other)
    } else {
        headPath = store.reportsDirectory + "/latest.json"
        head = try selection.run(out: headPath)
    }
    var comparator = Comparator()
    comparator.thresholds = try store.readThresholds(required: false)
    comparator.bands = try loadNoiseBands(nil)
    if comparator.thresholds != nil { progress("tolerances from \(store.thresholdsPath) where it sets them") }
    let c = comparator.compare(base: base, head: head, basePath: store.baselinePath(name), headPath: headPath)
    return (c, "baseline '\(name)'")
}

struct ThresholdsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thresholds",
        abstract: "A checked-in thresholds file: per benchmark, per metric (and percentile), a recorded figure and its tolerance.",
        discussion: """
        As package-benchmark's static thresholds (`swift package strata thresholds update|check|read`). The file
        (Thresholds/EXECUTABLE.json) holds, per benchmark (`scene/NAME` for a scene) and per metric as `compare`
        names it (instructions, estimated-cycles, mallocs; a scene's instructions-p50, instructions-p99,
        estimated-cycles-p50/p99, mallocs, frame-time-p50, frame-time-p99 in ms; a benchmark's time in ns per item),
        the recorded `value` and a tolerance: `relative` (percent) and/or `absolute` (the metric's unit); exceeding
        either is a violation. An entry without a tolerance takes the file's `defaults` for the metric. `update`
        records a run's figures and keeps every tolerance; `check` judges a run against them: exit 0 fine, 2 a
        figure beyond its tolerance, 3 a recorded figure missing from the run, 4 improvements beyond the
        tolerance only, 5 no file, a figure with none recorded, or nothing compared.
        """,
        subcommands: [Update.self, Check.self, Read.self])

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Record a run's figures (or a report's, or a baseline's) in the thresholds file, keeping its tolerances.")
        @Option(help: ArgumentHelp("Record this report's figures instead of running.", valueName: "report")) var from: String?
        @Option(help: ArgumentHelp("Record this stored baseline's figures instead of running.", valueName: "name")) var baseline: String?
        @OptionGroup var store: StoreOptions
        @OptionGroup var selection: RunSelection

        func validate() throws {
            if let baseline { try checkBaselineName(baseline) }
            if from != nil && baseline != nil { throw ValidationError("--from and --baseline: one source at a time") }
        }

        func run() throws {
            let block: StrataBlock
            if let baseline { block = try store.read(baseline) } else if let from {
                block = try readBlock(from, label: from, exitCode: 65)
            } else {
                block = try selection.run(out: store.reportsDirectory + "/thresholds.json")
            }
            let current = try store.readThresholds(required: false) ?? Thresholds()
            let (next, removed) = current.updated(with: block)
            guard !next.benchmarks.isEmpty else {
                printError("the run measured nothing thresholds can hold (no counted body, scene or timed benchmark): \(store.thresholdsPath) left as it was")
                throw ExitCode(5)
            }
            try createParent(of: store.thresholdsPath)
            try next.encoded().write(to: URL(fileURLWithPath: store.thresholdsPath))
            let figures = next.benchmarks.values.reduce(0) { $0 + $1.values.filter { $0.value != nil }.count }
            print("thresholds recorded: \(store.thresholdsPath) (\(figures) figures of \(next.benchmarks.count) benchmarks)"
                  + (removed.isEmpty ? "" : "; dropped, not in this run: \(removed.joined(separator: ", "))"))
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Judge a run (or a report, or a stored baseline) against the thresholds file.")
        @Option(help: ArgumentHelp("Check this report instead of running.", valueName: "report")) var from: String?
        @Option(help: ArgumentHelp("Check this stored baseline instead of running.", valueName: "name")) var baseline: String?
        @Option(help: "Verdicts that set the exit status: all (the default: counts and times), counts, none.") var gate = "all"
        @Option(help: ArgumentHelp("Benchmark names (a regular expression) that may be in one side only.", valueName: "pattern"))
        var allowMissing: String?
        @OptionGroup var store: StoreOptions
        @OptionGroup var output: ComparisonOutput
        @OptionGroup var selection: RunSelection

        func validate() throws {
            if let baseline { try checkBaselineName(baseline) }
            if from != nil && baseline != nil { throw ValidationError("--from and --baseline: one source at a time") }
            _ = try parseGate(gate)
            _ = try missingPattern(allowMissing)
        }

        func run() throws {
            let gate = try parseGate(gate)
            let allowed = try missingPattern(allowMissing)
            guard let thresholds = try store.readThresholds(required: true) else { throw ExitCode(5) }
            let block: StrataBlock, headPath: String
            if let baseline {
                block = try store.read(baseline)
                headPath = store.baselinePath(baseline)
            } else if let from {
                headPath = from
                block = try readBlock(from, label: from, exitCode: 3)
            } else {
                headPath = store.reportsDirectory + "/latest.json"
                block = try selection.run(out: headPath)
            }
            let c = thresholds.check(block, headPath: headPath, thresholdsPath: store.thresholdsPath)
            try output.write(c, title: "\(commandName): thresholds check", gate: gate, allowed: allowed)
            try finish(c, gate: gate, allowed: allowed, against: store.thresholdsPath)
        }
    }

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the thresholds file: each figure and the tolerance it is judged with.")
        @OptionGroup var store: StoreOptions

        func run() throws {
            guard let t = try store.readThresholds(required: true) else { throw ExitCode(5) }
            print("\(store.thresholdsPath):")
            print(t.table())
        }
    }
}
