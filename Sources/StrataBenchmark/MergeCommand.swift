import ArgumentParser
import Foundation
import StrataBench

/// Merges reports of the same benchmarks (rounds of an interleaved A/B run) into one.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge reports of the same benchmarks into one (repetitions concatenated).")

    @Option(help: "The merged report.") var out: String
    @Argument(help: "Reports to merge (same machine and build).") var reports: [String]

    func run() throws {
        guard !reports.isEmpty else { throw ValidationError("give at least one report") }
        let loaded = try reports.map { try ReportBuilder.read(URL(fileURLWithPath: $0)) }
        let merged = try ReportBuilder.merge(loaded)
        try ReportBuilder.document(merged.googleBenchmark, strata: merged.strata).write(to: URL(fileURLWithPath: out), options: .atomic)
        print("merged \(reports.count) reports (\(merged.strata.benchmarks.count) benchmarks) into \(out)")
    }
}
