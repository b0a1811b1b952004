import Foundation
import StrataScript
import XCTest
@testable import StrataBench

/// Hostile input to the tools' parsers: every file under Tests/Fixtures/parsers/ (seeds, and
/// any input `scripts/fuzz-parsers` found crashing) is read without a crash, and malformed,
/// truncated, adversarial and huge inputs get a clear error naming the file and what is wrong.
final class ParserFixtureTests: XCTestCase {
    private var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/parsers")
    }

    private func files(_ kind: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: fixtures.appendingPathComponent(kind), includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    func test_everyReportFixtureReadsOrFailsWithAMessage() throws {
        let all = try files("report")
        XCTAssertGreaterThanOrEqual(all.count, 2)
        for url in all {
            let data = try Data(contentsOf: url)
            do {
                let r = try ReportBuilder.read(data, name: url.lastPathComponent)
                let c = Comparator().compare(base: r.strata, head: r.strata, basePath: "a", headPath: "a")
                XCTAssertFalse(c.rows.contains { $0.verdict == .regression }, url.lastPathComponent)
                XCTAssertNoThrow(try ReportBuilder.document(r.googleBenchmark, strata: r.strata))
            } catch let e as BenchmarkError {
                XCTAssertFalse(url.lastPathComponent.hasPrefix("seed-"), "a seed must read: \(e)")
                XCTAssertTrue(e.description.contains(url.lastPathComponent), e.description)
            }
        }
    }

    func test_everyScriptFixtureDecodesAndRoundTripsOrFailsWithAnError() throws {
        let all = try files("script")
        XCTAssertGreaterThanOrEqual(all.count, 1)
        for url in all {
            let data = try Data(contentsOf: url)
            guard let s = try? JSONDecoder().decode(Script.self, from: data) else {
                XCTAssertFalse(url.lastPathComponent.hasPrefix("seed-"), url.lastPathComponent)
                continue
            }
            XCTAssertEqual(try JSONDecoder().decode(Script.self, from: JSONEncoder().encode(s)), s)
        }
    }

    /// A report cut anywhere: refused with the file's name and where the JSON broke.
    func test_truncatedReportsNameTheFileAndThePosition() throws {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("report/seed-small-report.json"))
        for cut in [1, 10, 100, data.count / 3, data.count / 2, data.count - 2] {
            XCTAssertThrowsError(try ReportBuilder.read(data.prefix(cut), name: "cut.json")) { e in
                let text = "\(e)"
                XCTAssertTrue(text.contains("cut.json"), text)
                XCTAssertTrue(text.contains("line") || text.contains("end") || text.contains("`strata` block"), text)
            }
        }
    }

    /// Wrong types, NaN and infinite literals, a missing block, numbers out of range, and
    /// nesting far deeper than any report: each a clear error, none a crash.
    func test_adversarialReportsAreRefusedWithAMessage() throws {
        let cases: [(String, String)] = [
            ("{}", "no `strata` block"),
            ("[1, 2, 3]", "no `strata` block"),
            (#"{"strata": {"schema_version": "one"}}"#, "does not match schema"),
            (#"{"strata": {"schema_version": 1, "benchmarks": [{"name": 7}]}}"#, "does not match schema"),
            (#"{"strata": NaN}"#, "not valid JSON"),
            (#"{"strata": Infinity}"#, "not valid JSON"),
            (#"{"strata": {"schema_version": 1e999}}"#, ""),
            (String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), ""),
            ("\u{FEFF}\u{0}garbage", "not valid JSON"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ReportBuilder.read(Data(text.utf8), name: "bad.json"), String(text.prefix(40))) { e in
                XCTAssertTrue("\(e)".contains("bad.json"), "\(e)")
                if !expected.isEmpty { XCTAssertTrue("\(e)".contains(expected), "\(e)") }
            }
        }
    }

    /// A large report (20,000 benchmarks) reads, and compares with itself.
    func test_aHugeReportReads() throws {
        var doc = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent("report/seed-small-report.json"))) as! [String: Any]
        var block = doc["strata"] as! [String: Any]
        let one = (block["benchmarks"] as! [[String: Any]])[0]
        block["benchmarks"] = (0..<20_000).map { i -> [String: Any] in var b = one; b["name"] = "frame/huge/\(i)"; return b }
        doc["strata"] = block
        let data = try JSONSerialization.data(withJSONObject: doc)
        XCTAssertGreaterThan(data.count, 10_000_000)
        let r = try ReportBuilder.read(data, name: "huge.json")
        XCTAssertEqual(r.strata.benchmarks.count, 20_000)
    }

    /// Scripts: truncated, an unknown operation, a wrong value type: decoding errors, no
    /// crash; a script of 200,000 operations decodes.
    func test_adversarialScriptsAreRefusedAndLargeOnesDecode() throws {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("script/seed-differential.json"))
        for cut in [1, data.count / 2, data.count - 1] {
            XCTAssertThrowsError(try JSONDecoder().decode(Script.self, from: data.prefix(cut)))
        }
        XCTAssertThrowsError(try JSONDecoder().decode(Script.self, from: Data(#"{"ops":[{"teleport":{}}]}"#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(Script.self, from: Data(#"{"ops":[{"makeLayer":{"id":"x","shape":false}}]}"#.utf8)))
        let big = Script(Array(repeating: Op.begin, count: 100_000) + Array(repeating: Op.commit, count: 100_000))
        let decoded = try JSONDecoder().decode(Script.self, from: JSONEncoder().encode(big))
        XCTAssertEqual(decoded.ops.count, 200_000)
    }
}
