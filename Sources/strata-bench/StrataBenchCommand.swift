import ArgumentParser
import Foundation
import StrataBench
import StrataBenchReference
import StrataBenchSuites

/// `strata-bench`: Strata's benchmark suite on Google Benchmark.
@main
struct StrataBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata-bench",
        abstract: "Times Strata's commits, action lookups, per-frame evaluation and large trees on Google Benchmark.",
        subcommands: [RunCommand.self, ListCommand.self, CompareCommand.self, ReportCommand.self, MergeCommand.self, ProfileCommand.self,
                      SceneCommand.self, StressCommand.self, SoakCommand.self, LimitsCommand.self, CountWorker.self],
        defaultSubcommand: RunCommand.self)
}

/// Every benchmark case of both engines, in run order.
enum Catalog {
    /// Suites `run` knows, in order; `scenes` are the frame-time scenes (not Google Benchmark).
    static let suites = Suites.names + ["scenes"]

    static func cases(suites: [String]) -> [BenchmarkCase] {
        var out: [BenchmarkCase] = []
        for s in suites where s != "scenes" {
            out += Suites.cases(s)
            if s == "frame" { out += ReferenceSuite.cases() }
            if s == "snapshot" { out += ReferenceSuite.snapshotCases() }
        }
        return out
    }

    /// Cases selected by suite, `--quick` and a regex over names (searched, as Google
    /// Benchmark's --benchmark_filter does).
    static func select(suites: [String], quick: Bool, filter: String?) throws -> [BenchmarkCase] {
        let re = try filter.map { f -> NSRegularExpression in
            do { return try NSRegularExpression(pattern: f) } catch {
                throw ValidationError("--filter '\(f)' is not a valid regular expression")
            }
        }
        return cases(suites: suites).filter { c in
            (!quick || c.quick)
                && (re.map { $0.firstMatch(in: c.name, range: NSRange(c.name.startIndex..., in: c.name)) != nil } ?? true)
        }
    }

    /// The bodies counted under callgrind and for mallocs: small, fixed workloads.
    static var counted: [BenchmarkCase] {
        let names = Set(Suites.countedNames)
        return cases(suites: Suites.names).filter { names.contains($0.name) }
    }
}

/// Lists the benchmarks `run` would run.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List benchmarks and scenes.")

    @Option(name: .customLong("suite"), help: "Suites to list (repeatable): \(Catalog.suites.joined(separator: ", ")).")
    var suites: [String] = []
    @Option(help: "Regular expression over benchmark names.") var filter: String?
    @Flag(help: "Only the benchmarks of the quick run.") var quick = false

    func run() throws {
        let chosen = suites.isEmpty ? Catalog.suites : suites
        for s in chosen where !Catalog.suites.contains(s) {
            throw ValidationError("unknown suite '\(s)'; suites: \(Catalog.suites.joined(separator: ", "))")
        }
        for c in try Catalog.select(suites: chosen, quick: quick, filter: filter) {
            print("\(c.name)\t\(c.items) \(c.item)\(c.items == 1 ? "" : "s")")
        }
        if chosen.contains("scenes") {
            for s in Scenes.defaultNames { print("scene/\(s)") }
        }
    }
}

/// Runs inside callgrind, started by `run`: counts the instructions of the named bodies.
struct CountWorker: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "count-worker", shouldDisplay: false)

    @Option var iterations = Counts.defaultIterations
    @Argument var names: [String] = []

    func run() throws {
        // The counted bodies by name; any other case of the catalog too, so a kernel can be
        // counted by hand: `valgrind --tool=callgrind --collect-atstart=no strata-bench
        // count-worker frame/position/shared/basic/1000`.
        let counted = Catalog.counted
        let known = Set(counted.map(\.name))
        let others = names.contains { !known.contains($0) } ? Catalog.cases(suites: Suites.names) : []
        let cases = names.compactMap { n in counted.first { $0.name == n } ?? others.first { $0.name == n } }
        let missing = Set(names).subtracting(cases.map(\.name))
        guard missing.isEmpty else { throw ValidationError("no benchmark named \(missing.sorted().joined(separator: ", "))") }
        try Counts.collectInstructions(cases, iterations: iterations)
    }
}
