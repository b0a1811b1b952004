import Foundation
import XCTest

/// `run`'s default times the headline a catalog names (strata-bench's: its headline patterns,
/// every counted body and the quick subset); `--full`, `--quick` and `--filter` choose from every
/// case, and the report says which.
final class HeadlineTests: TemporaryDirectoryTestCase {
    var exe: String { strataBenchExecutable }
    /// Under scripts/sanitize address the child is an AddressSanitizer build too: Foundation's
    /// Process leaks a weak reference LeakSanitizer reports (not the project's, see
    /// scripts/lib/leak-report.py), which would turn the child's exit status to 1.
    let env = ["ASAN_OPTIONS": "detect_leaks=0"]

    /// The timed benchmarks of a report and its recorded selection.
    private func run(_ arguments: [String], out name: String) throws -> (names: Set<String>, selection: String?) {
        let out = path(name)
        let (status, output) = try runProcess(exe, ["run", "--suite", "lookup", "--no-counts", "--no-players", "--baseline", "none",
                                                    "--repetitions", "1", "--min-time", "0.001", "--out", out] + arguments, environment: env)
        XCTAssertEqual(status, 0, output)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let strata = try XCTUnwrap(doc["strata"] as? [String: Any])
        let names = Set((strata["benchmarks"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        let options = try XCTUnwrap(strata["options"] as? [String: Any])
        return (names, options["selection"] as? String)
    }

    private func listed(_ arguments: [String]) throws -> Set<String> {
        let (status, output) = try runProcess(exe, ["list", "--suite", "lookup"] + arguments, environment: env)
        XCTAssertEqual(status, 0, output)
        return Set(output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
    }

    func test_theDefaultRunTimesTheHeadlineAndFullTimesEveryCase() throws {
        let all = try listed([]), quick = try listed(["--quick"])
        let headline = try run([], out: "headline.json")
        XCTAssertEqual(headline.selection, "headline")
        // The lookup suite's headline is its quick subset and its counted bodies: more than the
        // quick subset, fewer than every case.
        XCTAssertTrue(headline.names.isSuperset(of: quick), "the quick subset is in the headline: \(quick.subtracting(headline.names))")
        XCTAssertTrue(headline.names.isSubset(of: all))
        XCTAssertLessThan(headline.names.count, all.count, "\(headline.names.sorted())")
        XCTAssertTrue(headline.names.contains("lookup/built-in/interned"), "a counted body is timed")

        let full = try run(["--full"], out: "full.json")
        XCTAssertEqual(full.selection, "full")
        XCTAssertEqual(full.names, all, "--full times every case")

        // Against a full baseline, the headline run compares what it ran: the cases it left
        // out are not reported missing.
        let (againstStatus, againstOutput) = try runProcess(exe, ["run", "--suite", "lookup", "--no-counts", "--no-players",
                                                                  "--baseline", path("full.json"), "--repetitions", "1",
                                                                  "--min-time", "0.001", "--out", path("against.json")], environment: env)
        XCTAssertEqual(againstStatus, 0, againstOutput)
        XCTAssertTrue(againstOutput.contains("the headline's figures (\(all.count - headline.names.count) more of the baseline's are in a --full run)"),
                      againstOutput)
        let page = try String(contentsOfFile: path("against.html"), encoding: .utf8)
        XCTAssertFalse(page.contains(">missing<"), "a case the headline left out is shown as missing")
        XCTAssertTrue(page.contains("lookup/built-in/interned"))

        // A filter chooses from every case, not from the headline.
        let outside = try XCTUnwrap(all.subtracting(headline.names).sorted().first)
        let filtered = try run(["--filter", "^\(NSRegularExpression.escapedPattern(for: outside))$"], out: "filter.json")
        XCTAssertEqual(filtered.names, [outside])
        XCTAssertEqual(filtered.selection, "filter")

        let (status, output) = try runProcess(exe, ["run", "--full", "--quick", "--out", path("both.json")], environment: env)
        XCTAssertEqual(status, 64, output)
        XCTAssertTrue(output.contains("--full and --quick"), output)
    }

    /// The headline run leaves the bodies' counts (a callgrind process each) to CI's gate,
    /// --full, --counts-only and --body-counts, and says so.
    func test_theHeadlineRunSaysItDidNotCountTheBodies() throws {
        let out = path("headline.json")
        let (status, output) = try runProcess(exe, ["run", "--suite", "lookup", "--no-players", "--baseline", "none",
                                                    "--repetitions", "1", "--min-time", "0.001", "--out", out], environment: env)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("the counted bodies are not counted in the headline run"), output)
        XCTAssertFalse(output.contains("counting mallocs, instructions"), output)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let strata = try XCTUnwrap(doc["strata"] as? [String: Any])
        XCTAssertEqual((strata["counts"] as? [Any])?.count ?? 0, 0)
    }
}
