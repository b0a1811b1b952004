import ArgumentParser
import Foundation
import StrataBench

/// Compares two reports and exits with a status CI can act on.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a head report with a baseline report.",
        discussion: """
        Times: a regression when the median moved more than --threshold, the bootstrap 95% interval of the
        ratio of medians lies beyond the noise floor, and the Mann–Whitney test agrees (p < 0.01); fewer than
        \(Comparator.minimumRepetitions) repetitions give "insufficient-data". Counts (callgrind instructions,
        mallocs): exact, against --count-threshold. Different machine fingerprints: no time verdicts.
        Exit status: 0 fine, 2 regression, 3 the head run failed or is unreadable, 4 improvement only,
        5 baseline missing or unreadable.
        """)

    @Argument(help: "Baseline report (JSON written by `strata-bench run`).") var baseline: String
    @Argument(help: "Head report.") var head: String
    @Option(help: "Time change that matters, e.g. 5% or 0.05.") var threshold = "5%"
    @Option(help: "Count change that matters, e.g. 1%.") var countThreshold = "1%"
    @Option(help: "Run-to-run noise of a median on this machine kind, e.g. 2%.") var noiseFloor = "2%"
    @Option(help: "Verdicts that set the exit status: all, counts (times printed only), none.") var gate = "all"
    @Flag(help: "List unchanged rows too.") var all = false
    @Option(help: "Also write the comparison as JSON here.") var json: String?

    func run() throws {
        guard let gate = Gate(rawValue: gate) else {
            throw ValidationError("--gate must be one of \(Gate.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let comparator = Comparator(timeThreshold: try fraction(threshold, "--threshold"),
                                    countThreshold: try fraction(countThreshold, "--count-threshold"),
                                    noiseFloor: try fraction(noiseFloor, "--noise-floor"))
        let base: StrataBlock
        do { base = try ReportBuilder.read(URL(fileURLWithPath: baseline)).strata } catch {
            printError("baseline: \(error)")
            throw ExitCode(5)
        }
        let headBlock: StrataBlock
        do { headBlock = try ReportBuilder.read(URL(fileURLWithPath: head)).strata } catch {
            printError("head: \(error)")
            throw ExitCode(3)
        }
        let comparison = comparator.compare(base: base, head: headBlock, basePath: baseline, headPath: head)
        print(comparison.table(all: all))
        if let json { try writeJSON(comparison, to: json) }
        let code = comparison.exitCode(gate: gate)
        print("exit status \(code) (gate: \(gate.rawValue))")
        if code != 0 { throw ExitCode(code) }
    }
}

/// "5%" or "0.05" as a fraction.
func fraction(_ text: String, _ option: String) throws -> Double {
    let t = text.trimmingCharacters(in: .whitespaces)
    let value = t.hasSuffix("%") ? Double(t.dropLast()).map { $0 / 100 } : Double(t)
    guard let v = value, v.isFinite, v >= 0 else {
        throw ValidationError("\(option) '\(text)' is not a percentage (5%) or a fraction (0.05)")
    }
    return v
}

func printError(_ s: String) {
    FileHandle.standardError.write(Data("strata-bench: \(s)\n".utf8))
}
