import ArgumentParser
import Foundation
import StrataBench

/// Compares two reports and exits with a status CI can act on.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a head report with a baseline report.",
        discussion: """
        Two reports are unpaired (separate processes, run at different times): a time difference is judged only
        against the band this machine was measured to move by between processes of one build (--noise-bands,
        written by `strata-bench ab`): a regression when the median moved beyond both --threshold and the band,
        the bootstrap 95% interval of the ratio of medians lies beyond the band, and the Mann–Whitney test agrees
        (p < 0.01). With no band measured, differences beyond --threshold are "inconclusive (unpaired)": use
        `strata-bench ab` for time verdicts. Fewer than \(Comparator.minimumRepetitions) repetitions give
        "insufficient-data". Counts (callgrind instructions, estimated cycles from its cache simulation, mallocs):
        exact, against --count-threshold. Different machine fingerprints: no time verdicts.
        A gate never passes on nothing: a gated figure in one report and not the other, or no gated figure in
        both, fails it, naming what is missing; --allow-missing PATTERN lets intended additions and removals
        through.
        Exit status (package-benchmark's, where they overlap): 0 fine, 2 regression, 3 the head run failed or is
        unreadable, or lacks a gated figure of the baseline, 4 improvement only, 5 baseline missing or
        unreadable, or lacking a gated figure of the head, or nothing compared.
        """)

    @Argument(help: "Baseline report (JSON written by `strata-bench run`).") var baseline: String
    @Argument(help: "Head report.") var head: String
    @Option(help: "Time change that matters, e.g. 5% or 0.05.") var threshold = "5%"
    @Option(help: "Count change that matters, e.g. 1%.") var countThreshold = "1%"
    @Option(help: "Run-to-run noise of a median on this machine kind, e.g. 2%.") var noiseFloor = "2%"
    @Option(help: "Verdicts that set the exit status: all, counts (times printed only), none.") var gate = "all"
    @Option(help: ArgumentHelp("Regular expression over benchmark names that may be in one report only (intended additions and removals; `.` for a deliberate subset). The gate still fails when nothing was compared.", valueName: "pattern"))
    var allowMissing: String?
    @Flag(help: "List unchanged rows too.") var all = false
    @Option(help: "Also write the comparison as JSON here.") var json: String?
    @Option(help: "text (a table) or markdown (a summary for a CI step or a pull-request comment).") var format = "text"
    @Option(help: "Noise bands measured on this machine (`strata-bench ab` writes them). Default: reports/noise-bands.json when it exists.")
    var noiseBands: String?
    @Option(help: ArgumentHelp("A thresholds file (`thresholds update` writes one): its tolerances, per benchmark and metric, judge in place of --threshold and --count-threshold where it sets them.", valueName: "file"))
    var thresholds: String?

    func run() throws {
        let gate = try parseGate(gate)
        guard ["text", "markdown"].contains(format) else { throw ValidationError("--format must be text or markdown") }
        var comparator = Comparator(timeThreshold: try fraction(threshold, "--threshold"),
                                    countThreshold: try fraction(countThreshold, "--count-threshold"),
                                    noiseFloor: try fraction(noiseFloor, "--noise-floor"))
        comparator.bands = try loadNoiseBands(noiseBands)
        if let thresholds {
            do { comparator.thresholds = try Thresholds.read(URL(fileURLWithPath: thresholds)) } catch {
                printError("\(error)")
                throw ExitCode(65)
            }
        }
        let base = try readBlock(baseline, label: "baseline", exitCode: 5)
        let headBlock = try readBlock(head, label: "head", exitCode: 3)
        let allowed = try missingPattern(allowMissing)
        let comparison = comparator.compare(base: base, head: headBlock, basePath: baseline, headPath: head)
        print(format == "markdown" ? comparison.markdown(gate: gate, allowMissing: allowed) : comparison.table(all: all))
        if let json { try writeJSON(comparison, to: json) }
        let code = comparison.exitCode(gate: gate, allowMissing: allowed)
        if gate != .none, let problem = comparison.coverage(gate: gate, allowMissing: allowed).problem(gate: gate) {
            print(problem)
        }
        print("exit status \(code) (gate: \(gate.rawValue))")
        if code != 0 { throw ExitCode(code) }
    }
}

/// The noise bands at `path`, else reports/noise-bands.json when it exists; exit 65 for a
/// file that is not one.
func loadNoiseBands(_ path: String?) throws -> NoiseBands? {
    guard let bandsPath = path ?? (FileManager.default.fileExists(atPath: "reports/noise-bands.json") ? "reports/noise-bands.json" : nil) else {
        return nil
    }
    do {
        var bands = try JSONDecoder.snakeCase.decode(NoiseBands.self, from: Data(contentsOf: URL(fileURLWithPath: bandsPath)))
        bands.source += " (\(bandsPath))"
        return bands
    } catch {
        printError("\(bandsPath): not a noise-band file written by `\(commandName) ab` (\(error))")
        throw ExitCode(65)
    }
}

/// `--gate TEXT` as a gate; a usage error naming the gates there are.
func parseGate(_ text: String) throws -> Gate {
    guard let gate = Gate(rawValue: text) else {
        throw ValidationError("--gate must be one of \(Gate.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return gate
}

/// The strata block of the report at `path`. A report that cannot be read is said on stderr,
/// after `label` (`baseline`, `head`, the path), and ends the command with `exitCode`.
func readBlock(_ path: String, label: String, exitCode: Int32) throws -> StrataBlock {
    do { return try ReportBuilder.read(URL(fileURLWithPath: path)).strata } catch {
        printError("\(label): \(error)")
        throw ExitCode(exitCode)
    }
}

/// `--allow-missing PATTERN` as a test of a benchmark name (none: nothing may be missing).
func missingPattern(_ pattern: String?) throws -> (String) -> Bool {
    guard let pattern else { return { _ in false } }
    let re: NSRegularExpression
    do { re = try NSRegularExpression(pattern: pattern) } catch {
        throw ValidationError("--allow-missing '\(pattern)' is not a regular expression: \(error.localizedDescription)")
    }
    return { name in re.matches(name) }
}

/// The name this program was run by (`strata-bench`, or a package's own benchmark executable),
/// for hints that name a command.
var commandName: String { URL(fileURLWithPath: CommandLine.arguments.first ?? "strata-bench").lastPathComponent }

/// Whether console output may be coloured: standard output is a terminal and NO_COLOR
/// (https://no-color.org) is unset or empty.
enum ConsoleColor {
    static var enabled: Bool {
        isatty(STDOUT_FILENO) != 0 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
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

extension JSONDecoder {
    /// The tools' JSON (snake_case keys, as `writeJSON` writes them).
    static var snakeCase: JSONDecoder {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }
}

func printError(_ s: String) {
    FileHandle.standardError.write(Data("strata-bench: \(s)\n".utf8))
}
