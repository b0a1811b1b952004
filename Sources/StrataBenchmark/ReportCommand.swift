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

    func run() throws {
        let head: (googleBenchmark: [String: Any], strata: StrataBlock)
        do { head = try ReportBuilder.read(URL(fileURLWithPath: input)) } catch {
            printError("\(error)")
            throw ExitCode(3)
        }
        var base: StrataBlock?
        var comparison: Comparison?
        if let baseline {
            do { base = try ReportBuilder.read(URL(fileURLWithPath: baseline)).strata } catch {
                printError("baseline: \(error)")
                throw ExitCode(5)
            }
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
        try writeHTML(head.strata, head.googleBenchmark, baseline: base, comparison: comparison, flameGraph: flame, to: html)
        print("wrote \(html)")
    }
}

/// Renders and writes the HTML report.
func writeHTML(_ block: StrataBlock, _ googleBenchmark: [String: Any], baseline: StrataBlock?, comparison: Comparison?,
               flameGraph: ReportFlameGraph? = nil, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try HTMLReport.render(report: block, googleBenchmark: googleBenchmark, baseline: baseline, comparison: comparison,
                          flameGraph: flameGraph)
        .write(to: url, atomically: true, encoding: .utf8)
}

/// A profiler flame graph as the report embeds it.
func reportFlameGraph(_ graph: FlameGraph, source: String) -> ReportFlameGraph {
    ReportFlameGraph(svg: graph.svg(title: "flame graph", asChart: "flame-graph"), chartID: "flame-graph",
                     searchBox: FlameGraph.searchBox, script: FlameGraph.script, source: source,
                     samples: graph.totalSamples)
}
