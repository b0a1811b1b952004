import ArgumentParser
import Foundation
import StrataBench
import StrataProfiler
import StrataReport

/// Renders a report (and, with a baseline, its comparison) as one self-contained HTML file.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render a JSON report as a self-contained HTML file (inline SVG, no network).")

    @Argument(help: "Report written by `strata-bench run`.") var input: String
    @Option(help: "Baseline report: adds the verdict table and the change chart.") var baseline: String?
    @Option(help: "Where the HTML goes.") var html: String
    @Option(help: "Time change that matters in the comparison, e.g. 5%.") var threshold = "5%"
    @Option(help: "Folded stacks (`strata-bench profile` writes profile.folded): adds a flame graph.") var flameGraph: String?
    @OptionGroup var trendOptions: TrendOptions

    func run() throws {
        let head: (googleBenchmark: [String: Any], strata: StrataBlock)
        do { head = try ReportBuilder.read(URL(fileURLWithPath: input)) } catch {
            printError("\(error)")
            throw ExitCode(3)
        }
        var base: StrataBlock?
        var comparison: Comparison?
        if let baseline {
            base = try readBlock(baseline, label: "baseline", exitCode: 5)
            comparison = Comparator(timeThreshold: try fraction(threshold, "--threshold"))
                .compare(base: base!, head: head.strata, basePath: baseline, headPath: input)
        }
        var flame: ReportFlameGraph?
        if let flameGraph {
            do {
                let text = try String(contentsOfFile: flameGraph, encoding: .utf8)
                flame = reportFlameGraph(try FlameGraph(folded: text), source: flameGraph)
            } catch {
                printError("\(flameGraph): \(error)")
                throw ExitCode(3)
            }
        }
        try writeHTML(head.strata, head.googleBenchmark, baseline: base, comparison: comparison, flameGraph: flame,
                      history: trendOptions.source, to: html)
        print("wrote \(html)")
    }
}

/// Renders and writes the HTML report; with `history`, its Trends section.
func writeHTML(_ block: StrataBlock, _ googleBenchmark: [String: Any], baseline: StrataBlock?, comparison: Comparison?,
               flameGraph: ReportFlameGraph? = nil, history: HistorySource? = nil, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try HTMLReport.render(report: block, googleBenchmark: googleBenchmark, baseline: baseline, comparison: comparison,
                          flameGraph: flameGraph, trends: history.flatMap { loadTrends($0, for: block) })
        .write(to: url, atomically: true, encoding: .utf8)
}

/// Where the HTML report's trends come from: a history database and how many commits to show.
struct HistorySource {
    var path: String
    var commits: Int
}

/// `--history DB` and `--trend-commits N` (`run`, `report`).
struct TrendOptions: ParsableArguments {
    @Option(help: ArgumentHelp("History database (`strata-bench history add` fills it): the HTML report gains a Trends section, the headline figures over the last commits of this machine (when the file exists).",
                               valueName: "db"))
    var history: String?
    @Option(help: "Commits per trend (the newest), with --history.") var trendCommits = 20

    func validate() throws {
        guard trendCommits >= 2 else { throw ValidationError("--trend-commits must be at least 2 (a trend joins two commits or more)") }
    }

    var source: HistorySource? { history.map { HistorySource(path: $0, commits: trendCommits) } }
}

/// The Trends section's figures from `source`: nil (said on stderr) when there is no such
/// file; a section that says why when the file cannot be read as a history.
func loadTrends(_ source: HistorySource, for block: StrataBlock) -> ReportTrends? {
    guard FileManager.default.fileExists(atPath: source.path) else {
        progress("no history database at \(source.path): the HTML report has no Trends section (`\(commandName) history add REPORT.json --db \(source.path)` creates it)")
        return nil
    }
    do {
        return try ReportTrends.load(from: try HistoryStore(path: source.path, mode: .readOnly), report: block, last: source.commits)
    } catch {
        progress("warning: the history \(source.path) cannot be read: \(error); the Trends section says so")
        return ReportTrends.unavailable(database: source.path, report: block, last: source.commits, reason: "\(error)")
    }
}

/// A profiler flame graph as the report embeds it.
func reportFlameGraph(_ graph: FlameGraph, source: String) -> ReportFlameGraph {
    ReportFlameGraph(svg: graph.svg(title: "flame graph", asChart: "flame-graph"), chartID: "flame-graph",
                     searchBox: FlameGraph.searchBox, script: FlameGraph.script, source: source,
                     samples: graph.totalSamples)
}
