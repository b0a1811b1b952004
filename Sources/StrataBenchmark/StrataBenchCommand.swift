import ArgumentParser
import Foundation
import StrataBench
import StrataBenchSuites

/// `strata-bench`, and every package's own benchmark executable made with
/// `StrataBenchmark.main()`: the same commands over what is registered.
public struct StrataBenchCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: (CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent }).flatMap { $0.isEmpty ? nil : $0 } ?? "strata-bench",
        abstract: "Times commits, action lookups, per-frame evaluation, scenes and large trees on Google Benchmark.",
        subcommands: [RunCommand.self, ListCommand.self, CompareCommand.self, BaselineCommand.self, ThresholdsCommand.self, AbCommand.self, ReportCommand.self, MergeCommand.self, ProfileCommand.self, ProfileDiffCommand.self,
                      SceneCommand.self, StressCommand.self, SoakCommand.self, LimitsCommand.self, HistoryCommand.self,
                      CountWorker.self, CountScenesWorker.self],
        defaultSubcommand: RunCommand.self)

    public init() {}
}

/// What the commands run: suites of benchmark cases, counted bodies and default scenes, as
/// registered (`StrataBenchmark.register`; strata-bench registers its own).
enum Catalog {
    struct Suite {
        var name: String
        var cases: () -> [BenchmarkCase]
    }
    nonisolated(unsafe) static var registered: [Suite] = []
    nonisolated(unsafe) static var countedNames: Set<String> = []
    /// Scenes `run` times by default: scene files (paths or built-in names) ...
    nonisolated(unsafe) static var defaultSceneFiles: [String] = []
    /// ... and scenes written in Swift.
    nonisolated(unsafe) static var swiftScenes: [SceneBenchmark] = []

    /// Suites `run` knows, in order; `scenes` are the frame-time scenes (not Google Benchmark).
    static var suites: [String] { registered.map(\.name) + ["scenes"] }
    /// The registered Google Benchmark suites.
    static var benchmarkSuites: [String] { registered.map(\.name) }

    static func cases(suites: [String]) -> [BenchmarkCase] {
        suites.flatMap { s in registered.filter { $0.name == s }.flatMap { $0.cases() } }
    }

    /// Cases selected by suite, `--quick` and a regex over names (searched, as Google
    /// Benchmark's --benchmark_filter does); `headlineOnly`: of those, the headline's (when the
    /// catalog names one).
    static func select(suites: [String], quick: Bool, filter: String?, headlineOnly: Bool = false) throws -> [BenchmarkCase] {
        let re = try filter.map { f -> NSRegularExpression in
            do { return try NSRegularExpression(pattern: f) } catch {
                throw ValidationError("--filter '\(f)' is not a valid regular expression")
            }
        }
        return cases(suites: suites).filter { c in
            (!quick || c.quick) && (!headlineOnly || isHeadline(c))
                && (re?.matches(c.name) ?? true)
        }
    }

    /// Regular expressions naming the cases `run` runs by default (`StrataBenchmark.register(headline:)`);
    /// empty: every case.
    nonisolated(unsafe) static var headlinePatterns: [NSRegularExpression] = []

    /// A case of the default run: named by the headline, counted, or in the quick subset (so
    /// the default run times everything CI's quick run and its gate look at).
    static func isHeadline(_ c: BenchmarkCase) -> Bool {
        headlinePatterns.isEmpty || c.quick || countedNames.contains(c.name)
            || headlinePatterns.contains { $0.matches(c.name) }
    }

    /// The bodies counted under callgrind and for mallocs: small, fixed workloads.
    static var counted: [BenchmarkCase] {
        cases(suites: benchmarkSuites).filter { countedNames.contains($0.name) }
    }
}

/// Lists the benchmarks `run` would run.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List benchmarks and scenes.")

    @Option(name: .customLong("suite"), help: "Suites to list (repeatable): \(Catalog.suites.joined(separator: ", ")).")
    var suites: [String] = []
    @Option(help: "Regular expression over benchmark names.") var filter: String?
    @Flag(help: "Only the benchmarks of the quick run.") var quick = false
    @Flag(help: "The engine's public entry points and the counted bodies that run each (PublicEntryPoints; a test checks it against the module's symbols).")
    var entryPoints = false

    func run() throws {
        if entryPoints {
            for e in PublicEntryPoints.entries {
                let claim = e.kind == .covered ? e.bodies.joined(separator: ", ") : e.kind.rawValue
                print("\(e.patterns.joined(separator: " "))\(e.propertiesOnly ? " (properties)" : "")\t\(claim)\t\(e.note)")
            }
            return
        }
        let chosen = suites.isEmpty ? Catalog.suites : suites
        for s in chosen where !Catalog.suites.contains(s) {
            throw ValidationError("unknown suite '\(s)'; suites: \(Catalog.suites.joined(separator: ", "))")
        }
        for c in try Catalog.select(suites: chosen, quick: quick, filter: filter) {
            print("\(c.name)\t\(c.items) \(c.item)\(c.items == 1 ? "" : "s")")
        }
        if chosen.contains("scenes") {
            for s in Catalog.defaultSceneFiles { print("scene/\(Scenes.path(s).map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? s)") }
            for s in Catalog.swiftScenes { print("scene/\(s.name)") }
        }
    }
}

/// Runs inside callgrind, started by `run`: counts the instructions of the named bodies (with
/// `--mallocs`, natively: their mallocs, in a process of their own).
struct CountWorker: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "count-worker", shouldDisplay: false)

    @Option var iterations = Counts.defaultIterations
    @Option(help: "Placements of each body (Counts.layoutShift); each is dumped as NAME#layoutI.") var layouts = Counts.defaultLayouts
    @Option(help: "Count the bodies' mallocs natively (not under callgrind) and write them to this file as JSON.")
    var mallocs: String?
    @Flag(help: "Read the names on the standard input and count each in a fork of this process (Counts.serve).")
    var serve = false
    @Argument var names: [String] = []

    func run() throws {
        // The counted bodies by name; any other case of the catalog too (made only when a name
        // is not a counted body's), so a kernel can be counted by hand: `valgrind
        // --tool=callgrind --collect-atstart=no strata-bench count-worker frame/position/shared/basic/1000`.
        let counted = Catalog.counted
        var others: [BenchmarkCase]?
        func find(_ name: String) -> BenchmarkCase? {
            if let c = counted.first(where: { $0.name == name }) { return c }
            if others == nil { others = Catalog.cases(suites: Catalog.benchmarkSuites) }
            return others?.first { $0.name == name }
        }
        if serve {
            let status = Counts.serve(iterations: iterations, layouts: layouts, find: find)
            if status != 0 { throw ExitCode(status) }
            return
        }
        let cases = names.compactMap(find)
        let missing = Set(names).subtracting(cases.map(\.name))
        guard missing.isEmpty else { throw ValidationError("no benchmark named \(missing.sorted().joined(separator: ", "))") }
        if let mallocs {
            var counted: [String: Counts.AllocationCounts] = [:]
            for c in cases {
                let a = try Counts.allocations(c, iterations: iterations)
                counted[c.name] = Counts.AllocationCounts(mallocs: a.mallocs, frees: a.frees, bytes: a.bytes)
            }
            try JSONEncoder().encode(counted).write(to: URL(fileURLWithPath: mallocs))
            return
        }
        try Counts.collectInstructions(cases, iterations: iterations, layouts: layouts)
    }
}

extension NSRegularExpression {
    /// Whether the expression matches somewhere in `name` (searched, as Google Benchmark's
    /// --benchmark_filter is): how `--filter`, the headline and `--allow-missing` select names.
    func matches(_ name: String) -> Bool {
        firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    }
}
