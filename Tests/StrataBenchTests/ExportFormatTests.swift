import Foundation
import XCTest
import StrataBench

/// A report as the services that take Google Benchmark JSON read it: Bencher's `cpp_google`
/// adapter and github-action-benchmark's `googlecpp` tool, re-implemented in
/// scripts/lib/export-check.py (run with /usr/bin/python3, standard library only) from their
/// sources; see reports/README.md, "Sending results to Bencher or github-action-benchmark".
final class ExportFormatTests: TemporaryDirectoryTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/lib/export-check.py").path
    static let baseline = root.appendingPathComponent("reports/baseline.json")


    /// The checker on `path`: its exit status, its summary (stdout, when it printed one) and
    /// everything it printed.
    func check(_ path: String) throws -> (status: Int32, summary: [String: Any], output: String) {
        let (status, output) = try runProcess("/usr/bin/python3", [Self.script, path])
        // The summary is the one JSON object on stdout; problems follow it on stderr.
        var summary: [String: Any] = [:]
        if let start = output.firstIndex(of: "{"), let end = output.range(of: "\n}\n")?.upperBound,
           let object = try? JSONSerialization.jsonObject(with: Data(output[start..<end].utf8)) as? [String: Any] {
            summary = object
        }
        return (status, summary, output)
    }

    func write(_ object: Any, _ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        return url.path
    }

    func test_theCommittedBaselineReadsAsBothServicesReadIt() throws {
        let (googleBenchmark, strata) = try ReportBuilder.read(Self.baseline)
        let entries = try XCTUnwrap(googleBenchmark["benchmarks"] as? [[String: Any]])
        let ran = strata.benchmarks.filter { $0.error == nil }
        let n = ran.count
        XCTAssertGreaterThan(n, 200, "the baseline is a full run")
        XCTAssertEqual(n, strata.benchmarks.count, "no benchmark failed in the baseline")

        let (status, summary, output) = try check(Self.baseline.path)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(summary["problems"] as? [String], [], output)
        // Google Benchmark's layout: a run per repetition, four aggregates per benchmark.
        XCTAssertEqual(summary["entries"] as? Int, entries.count)
        XCTAssertEqual(summary["iterations"] as? Int, ran.reduce(0) { $0 + $1.iterations.count })
        XCTAssertEqual(summary["aggregate_names"] as? [String: Int], ["mean": n, "median": n, "stddev": n, "cv": n])
        XCTAssertEqual(Set((summary["time_units"] as? [String: Int] ?? [:]).keys), ["ns", "us", "ms"])
        // The strata block: skipped by both, and what they read is the same without it.
        XCTAssertEqual(summary["ignored_top_level_keys"] as? [String], ["strata"])
        let bencher = try XCTUnwrap(summary["bencher"] as? [String: Any], output)
        let gab = try XCTUnwrap(summary["github_action_benchmark"] as? [String: Any], output)
        XCTAssertEqual(bencher["same_without_ignored_keys"] as? Bool, true)
        XCTAssertEqual(gab["same_without_ignored_keys"] as? Bool, true)

        // Bencher: one latency (ns) per distinct name; a benchmark's nine repetitions collapse
        // into the last one, and its aggregates are benchmarks of their own.
        let latency = try XCTUnwrap(bencher["latency_ns"] as? [String: Double])
        XCTAssertEqual(bencher["benchmarks"] as? Int, Set(entries.compactMap { $0["name"] as? String }).count)
        XCTAssertEqual(latency.count, n * 5)
        for b in ran {
            let items = Double(b.itemsPerIteration)
            // Google Benchmark's name: the case's, with `/iterations:N` when its iterations
            // are pinned (commit/retire), as it names the runs.
            let pinned = Set(b.iterations).count == 1 && entries.contains { $0["name"] as? String == "\(b.name)/iterations:\(b.iterations[0])" }
            let gbName = pinned ? "\(b.name)/iterations:\(b.iterations[0])" : b.name
            // NAME_median is Google Benchmark's per-iteration real time: ours per item times
            // the items of an iteration.
            let median = try XCTUnwrap(latency[gbName + "_median"], b.name)
            XCTAssertEqual(median / items, b.medianNsPerItem, accuracy: 1e-9 * b.medianNsPerItem, b.name)
            let last = try XCTUnwrap(latency[gbName], b.name)
            XCTAssertEqual(last / items, try XCTUnwrap(b.samplesNsPerItem.last), accuracy: 1e-9 * last / items, "\(b.name): the last repetition")
            // The coefficient of variation, a fraction, recorded as a time in the benchmark's
            // unit: 0.049 (4.9%) of a benchmark timed in µs becomes 49 ns.
            let cv = try XCTUnwrap(entries.first { $0["name"] as? String == gbName + "_cv" })
            XCTAssertEqual(cv["aggregate_unit"] as? String, "percentage")
            let fraction = try XCTUnwrap(cv["real_time"] as? Double)
            XCTAssertLessThan(fraction, 1, b.name)
            let unit = try XCTUnwrap(["ns": 1.0, "us": 1e3, "ms": 1e6][cv["time_unit"] as? String ?? ""], b.name)
            XCTAssertEqual(try XCTUnwrap(latency[gbName + "_cv"], b.name), fraction * unit, accuracy: 1e-12 * fraction * unit, b.name)
        }
        // A benchmark Google Benchmark timed in µs: converted to ns.
        let commit = try XCTUnwrap(entries.first { $0["name"] as? String == "commit/implicit/10000_median" })
        XCTAssertEqual(commit["time_unit"] as? String, "us")
        let microseconds = try XCTUnwrap(commit["real_time"] as? Double)
        XCTAssertEqual(try XCTUnwrap(latency["commit/implicit/10000_median"]), microseconds * 1_000, accuracy: 1e-9 * microseconds)
        // Its coefficient of variation: the fraction times 1,000 (whatever its size: a quiet
        // run's can be below 0.1%).
        let commitCV = try XCTUnwrap(entries.first { $0["name"] as? String == "commit/implicit/10000_cv" })
        XCTAssertEqual(commitCV["time_unit"] as? String, "us")
        let cvFraction = try XCTUnwrap(commitCV["real_time"] as? Double)
        XCTAssertGreaterThan(cvFraction, 0)
        XCTAssertEqual(try XCTUnwrap(latency["commit/implicit/10000_cv"]), cvFraction * 1_000, accuracy: 1e-12 * cvFraction * 1_000,
                       "a fraction of a µs-timed benchmark, times 1,000")

        // github-action-benchmark: every entry as it is, the unit Google Benchmark's + "/iter";
        // each benchmark's nine repetitions are nine results of one name.
        XCTAssertEqual(gab["results"] as? Int, entries.count)
        XCTAssertEqual(gab["names_more_than_once"] as? Int, n)
        XCTAssertEqual(Set((gab["units"] as? [String: Int] ?? [:]).keys), ["ns/iter", "us/iter", "ms/iter"])
        let first = try XCTUnwrap(gab["first"] as? [String: Any])
        XCTAssertEqual(first["name"] as? String, entries[0]["name"] as? String)
        XCTAssertEqual(try XCTUnwrap(first["value"] as? Double), try XCTUnwrap(entries[0]["real_time"] as? Double), accuracy: 1e-9)
        XCTAssertEqual(first["unit"] as? String, "\(entries[0]["time_unit"] as? String ?? "?")/iter")
        // "iterations: 5489\ncpu: 12626.770449990785 ns\nthreads: 1" (Foundation's JSON reader on
        // Linux can be an ulp off Python's and JavaScript's: the cpu time is compared as a number).
        let extra = try XCTUnwrap(first["extra"] as? String).split(separator: "\n").map(String.init)
        XCTAssertEqual(extra.count, 3)
        XCTAssertEqual(extra[0], "iterations: \(try XCTUnwrap(entries[0]["iterations"] as? Int))")
        let cpu = extra[1].split(separator: " ")
        XCTAssertEqual(cpu.count, 3)
        XCTAssertEqual(try XCTUnwrap(Double(cpu[1])), try XCTUnwrap(entries[0]["cpu_time"] as? Double), accuracy: 1e-9)
        XCTAssertEqual(String(cpu[2]), entries[0]["time_unit"] as? String)
        XCTAssertEqual(extra[2], "threads: 1")
    }

    /// reports/README.md's jq filter (`.benchmarks |= map(select(.aggregate_name == "median"))`):
    /// one figure per benchmark for both services.
    func test_theMediansOnlyLeaveOneFigurePerBenchmark() throws {
        let strata = try ReportBuilder.read(Self.baseline).strata
        var document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.baseline)) as? [String: Any])
        document["benchmarks"] = (document["benchmarks"] as? [[String: Any]] ?? []).filter { $0["aggregate_name"] as? String == "median" }
        XCTAssertNotNil(document["strata"], "the strata block stays")
        let (status, summary, output) = try check(try write(document, "medians.json"))
        XCTAssertEqual(status, 0, output)
        let gab = try XCTUnwrap(summary["github_action_benchmark"] as? [String: Any], output)
        XCTAssertEqual(gab["results"] as? Int, strata.benchmarks.count)
        XCTAssertEqual(gab["names_more_than_once"] as? Int, 0)
        let bencher = try XCTUnwrap(summary["bencher"] as? [String: Any], output)
        let latency = try XCTUnwrap(bencher["latency_ns"] as? [String: Double])
        XCTAssertEqual(latency.count, strata.benchmarks.count)
        let frame = try XCTUnwrap(strata.benchmarks.first { $0.name == "frame/opacity/shared/basic/10000" })
        XCTAssertEqual(try XCTUnwrap(latency["frame/opacity/shared/basic/10000_median"]) / 10_000, frame.medianNsPerItem,
                       accuracy: 1e-9 * frame.medianNsPerItem)
    }

    /// Each rule of the re-implemented parsers is checked on a report that breaks it (so the
    /// clean result above means something), with the services' own wording where they fail.
    func test_theCheckRefusesWhatTheParsersRefuse() throws {
        let (googleBenchmark, _) = try ReportBuilder.read(Self.baseline)
        let context = try XCTUnwrap(googleBenchmark["context"] as? [String: Any])
        let entries = Array(try XCTUnwrap(googleBenchmark["benchmarks"] as? [[String: Any]]).prefix(13))
        XCTAssertEqual(entries.map { $0["run_type"] as? String }.filter { $0 == "aggregate" }.count, 4, "nine repetitions and four aggregates")
        func doc(_ change: (inout [String: Any]) -> Void) -> [String: Any] {
            var d: [String: Any] = ["context": context, "benchmarks": entries, "strata": ["schema_version": 1]]
            change(&d)
            return d
        }
        func entry(_ i: Int, _ change: @escaping (inout [String: Any]) -> Void) -> (inout [String: Any]) -> Void {
            { d in
                var list = d["benchmarks"] as! [[String: Any]]
                change(&list[i])
                d["benchmarks"] = list
            }
        }
        let clean = try check(try write(doc { _ in }, "clean.json"))
        XCTAssertEqual(clean.status, 0, clean.output)

        let cases: [(String, [String: Any], [String])] = [
            ("unit", doc(entry(0) { $0["time_unit"] = "min" }),
             ["bencher cpp_google refuses the file: benchmarks[0].time_unit: failed to parse benchmark units: 'min'",
              "github-action-benchmark: benchmarks[0] ('commit/implicit/100'): unit 'min/iter' is not one of s/iter, ms/iter, us/iter, ns/iter",
              "layout: benchmarks[0] ('commit/implicit/100'): time_unit 'min' is not one of ns, us, ms, s"]),
            ("caches", doc { d in d["context"] = context.filter { $0.key != "caches" } },
             ["bencher cpp_google refuses the file: context: missing field `caches`"]),
            ("string time", doc(entry(2) { $0["real_time"] = "12.5" }),
             ["bencher cpp_google refuses the file: benchmarks[2].real_time: invalid type: string, expected a Decimal",
              "github-action-benchmark: benchmarks[2] ('commit/implicit/100'): real_time '12.5' is not a finite number"]),
            ("no name", doc(entry(1) { $0.removeValue(forKey: "name") }),
             ["bencher cpp_google refuses the file: benchmarks[1]: missing field `name`",
              "github-action-benchmark: benchmarks[1] (None): name is not a non-empty string"]),
            ("empty", doc { d in d["benchmarks"] = [Any]() },
             ["bencher cpp_google refuses the file: no benchmark results",
              "github-action-benchmark googlecpp refuses the file: No benchmark result was found in the output file"]),
            ("no list", doc { d in d.removeValue(forKey: "benchmarks") },
             ["bencher cpp_google refuses the file: report: missing field `benchmarks`",
              "github-action-benchmark googlecpp refuses the file: TypeError: json.benchmarks.map is not a function (benchmarks is undefined)"]),
            ("repeated repetition", doc { d in d["benchmarks"] = entries + [entries[3]] },
             ["layout: benchmarks[13] ('commit/implicit/100'): repetition 3 of 'commit/implicit/100' twice (benchmarks[3])"]),
            ("unnamed aggregate", doc(entry(9) { $0.removeValue(forKey: "aggregate_name") }),
             ["layout: benchmarks[9] ('commit/implicit/100_mean'): an aggregate without an aggregate_name"]),
            ("aggregate as iteration", doc(entry(10) { $0["run_type"] = "iteration" }),
             ["layout: benchmarks[10] ('commit/implicit/100_median'): an iteration with an aggregate_name",
              "layout: benchmarks[10] ('commit/implicit/100_median'): an iteration without a repetition_index"]),
        ]
        for (label, document, messages) in cases {
            let result = try check(try write(document, "\(label.replacingOccurrences(of: " ", with: "-")).json"))
            XCTAssertEqual(result.status, 1, "\(label): \(result.output)")
            for m in messages { XCTAssertTrue(result.output.contains(m), "\(label): expected «\(m)» in\n\(result.output)") }
        }

        // A key given twice: JSON.parse keeps the last, serde refuses a known field twice.
        let twice = directory.appendingPathComponent("twice.json")
        try #"{"context": {"caches": []}, "benchmarks": [{"name": "a", "name": "b", "run_name": "b", "run_type": "iteration", "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 10, "real_time": 5.0, "cpu_time": 5.0, "time_unit": "ns"}]}"#
            .write(to: twice, atomically: true, encoding: .utf8)
        let dup = try check(twice.path)
        XCTAssertEqual(dup.status, 1, dup.output)
        XCTAssertTrue(dup.output.contains("bencher cpp_google refuses the file: benchmarks[0]: duplicate field `name`"), dup.output)
        XCTAssertEqual((dup.summary["github_action_benchmark"] as? [String: Any])?["first"].flatMap { ($0 as? [String: Any])?["name"] as? String }, "b")
        // Not JSON to either: a NaN literal.
        let nan = directory.appendingPathComponent("nan.json")
        try #"{"context": {"caches": []}, "benchmarks": [{"name": "a", "real_time": NaN, "time_unit": "ns"}]}"#.write(to: nan, atomically: true, encoding: .utf8)
        let refused = try check(nan.path)
        XCTAssertEqual(refused.status, 2, refused.output)
        XCTAssertTrue(refused.output.contains("not readable as strict JSON: NaN is not JSON"), refused.output)
    }
}
