import Foundation
import XCTest
@testable import StrataBench

/// The harness on Google Benchmark: registration, one real run, and the report built from it.
final class GoogleBenchmarkTests: XCTestCase {
    /// One process can run Google Benchmark once with a given registry (registration is
    /// global and permanent), so the whole run-and-report path is one test.
    func test_runRegisteredCasesAndBuildTheReport() throws {
        let buffer = UnsafeMutablePointer<Double>.allocate(capacity: 1000)
        buffer.initialize(repeating: 1, count: 1000)
        defer { buffer.deallocate() }
        var builds = 0
        let sum = BenchmarkCase("test/sum/1000", items: 1000, item: "double", parameters: ["n": "1000", "strategy": "fast"]) {
            builds += 1
            return Workload {
                var s = 0.0
                for i in 0..<1000 { s += buffer[i] }
                blackHole(s)
            }
        }
        let chain = BenchmarkCase("test/sum-chain/1000", items: 1000, item: "double", parameters: ["n": "1000", "strategy": "chain"]) {
            Workload {
                var s = 0.0
                for i in 0..<1000 { s += buffer[i] * 1.0000001 }
                blackHole(s)
            }
        }
        var resets = 0
        let withReset = BenchmarkCase("test/reset/1", items: 1, item: "op", resets: true) {
            Workload(reset: { resets += 1 }) { blackHole(resets) }
        }
        let broken = BenchmarkCase("test/broken/1", items: 1, item: "op") {
            throw BenchmarkError("the result was 3, expected 4")
        }
        // Pinned iterations: Google Benchmark names its runs `test/pinned/1/iterations:7`.
        let pinned = BenchmarkCase("test/pinned/1", items: 1, item: "op", iterations: 7) { Workload { blackHole(1) } }
        let runner = GoogleBenchmarkRunner()
        runner.register([sum, chain, withReset, broken, pinned])
        let (json, count) = try runner.run(arguments: ["--benchmark_min_time=0.002", "--benchmark_repetitions=3",
                                                       "--benchmark_filter=^test/"])
        XCTAssertEqual(count, 5)
        // Fixtures are built once per case and reused across Google Benchmark's calls.
        XCTAssertEqual(builds, 1)
        XCTAssertGreaterThan(resets, 0)

        var warnings: [String] = []
        let doc = try ReportBuilder.parseGoogleBenchmark(json, warnings: &warnings)
        XCTAssertNotNil((doc["context"] as? [String: Any])?["library_build_type"])
        let entries = doc["benchmarks"] as? [[String: Any]] ?? []
        let sumRuns = entries.filter { $0["run_name"] as? String == "test/sum/1000" && $0["run_type"] as? String == "iteration" }
        XCTAssertEqual(sumRuns.count, 3)
        XCTAssertEqual(sumRuns.first?["items"] as? Double, 1000)
        XCTAssertNotNil(sumRuns.first?["per_item"] as? Double)

        let summaries = ReportBuilder.summaries(doc, cases: [sum, chain, withReset, broken, pinned])
        let p = try XCTUnwrap(summaries.first { $0.name == "test/pinned/1" }, "a case of pinned iterations is in the report")
        XCTAssertEqual(p.iterations, [7, 7, 7])
        XCTAssertEqual(p.samplesNsPerItem.count, 3)
        let s = try XCTUnwrap(summaries.first { $0.name == "test/sum/1000" })
        XCTAssertEqual(s.samplesNsPerItem.count, 3)
        XCTAssertTrue(s.samplesNsPerItem.allSatisfy { $0 > 0 && $0 < 1000 }, "\(s.samplesNsPerItem)")
        XCTAssertEqual(s.medianNsPerItem, s.samplesNsPerItem.sorted()[1])
        let ratio = try XCTUnwrap(s.ratioToChain)
        XCTAssertEqual(ratio, s.medianNsPerItem / s.chainNsPerItem!, accuracy: 1e-12)
        let b = try XCTUnwrap(summaries.first { $0.name == "test/broken/1" })
        XCTAssertEqual(b.error?.contains("the result was 3, expected 4"), true, b.error ?? "no error")
        XCTAssertTrue(b.samplesNsPerItem.isEmpty)

        let block = StrataBlock(createdAt: "2026-11-23T00:00:00Z", machine: .current(googleBenchmarkBuildType: "debug"),
                                options: RunOptions(quick: true, suites: ["test"], filter: nil, repetitions: 3, minTime: 0.002,
                                                    googleBenchmarkArguments: []),
                                benchmarks: summaries)
        let data = try ReportBuilder.document(doc, strata: block)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-gb-test-\(getpid()).json")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let (gb, back) = try ReportBuilder.read(url)
        XCTAssertEqual(back, block)
        XCTAssertEqual((gb["benchmarks"] as? [Any])?.count, entries.count)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("\"schema_version\" : 1"))
        XCTAssertTrue(text.contains("\"samples_ns_per_item\""))

        // Google Benchmark's own compare.py (Debian's libbenchmark-tools, installed by
        // scripts/setup) reads the report unchanged.
        let (status, printed) = try runProcess("/usr/bin/python3", ["/usr/share/benchmark/compare.py", "benchmarks", url.path, url.path])
        XCTAssertEqual(status, 0, printed)
        XCTAssertTrue(printed.contains("test/sum/1000_pvalue"), printed)
    }

    func test_unknownGoogleBenchmarkFlagIsRefused() {
        // Runs no benchmark: Initialize leaves the unknown flag, the shim refuses it.
        XCTAssertThrowsError(try GoogleBenchmarkRunner().run(arguments: ["--benchmark_no_such_flag=1", "--bogus"])) { error in
            XCTAssertTrue("\(error)".contains("--bogus"), "\(error)")
        }
    }
}

/// The report model alone: strictness, baselines, growth.
final class ReportBuilderTests: XCTestCase {
    func test_nonFiniteValuesFromGoogleBenchmarkBecomeNull() throws {
        var warnings: [String] = []
        let doc = try ReportBuilder.parseGoogleBenchmark(#"{"benchmarks": [{"name": "x", "cv": nan, "y": -inf, "z": 1.5}]}"#,
                                                         warnings: &warnings)
        let e = try XCTUnwrap((doc["benchmarks"] as? [[String: Any]])?.first)
        XCTAssertTrue(e["cv"] is NSNull)
        XCTAssertTrue(e["y"] is NSNull)
        XCTAssertEqual(e["z"] as? Double, 1.5)
        XCTAssertEqual(warnings.count, 1)
    }

    func test_ratiosToFloorAndReferenceComeFromTheSameRun() {
        func summary(_ name: String, _ ns: Double, items: Int, _ p: [String: String]) -> BenchmarkSummary {
            BenchmarkSummary(name: name, suite: "frame", item: "animation", itemsPerIteration: items, parameters: p,
                             samplesNsPerItem: [ns], medianNsPerItem: ns, minNsPerItem: ns, maxNsPerItem: ns, iterations: [1])
        }
        var s = [
            summary("frame/opacity/shared/basic/100", 2, items: 100,
                    ["engine": "strata", "n": "100", "width": "opacity", "bytes": "3200", "floor": "frame/floor/3200"]),
            summary("frame/reference/opacity/shared/basic/100", 500, items: 100,
                    ["engine": "reference", "n": "100", "width": "opacity", "bytes": "3200", "floor": "frame/floor/3200"]),
            summary("frame/floor/3200", 0.025, items: 3200, ["engine": "floor", "n": "3200", "bytes": "3200"]),
        ]
        ReportBuilder.addBaselineRatios(&s)
        // floor per animation = 0.025 ns/byte * 3200 bytes / 100 animations = 0.8 ns.
        XCTAssertEqual(s[0].floorNsPerItem!, 0.8, accuracy: 1e-12)
        XCTAssertEqual(s[0].ratioToFloor!, 2.5, accuracy: 1e-12)
        XCTAssertEqual(s[0].speedupOverReference!, 250, accuracy: 1e-9)
        XCTAssertNil(s[1].speedupOverReference)
    }

    func test_relativeToRatiosNameAnotherBenchmarkOfTheRunAndLeaveGrowthFamiliesWhole() {
        func summary(_ name: String, _ ns: Double, _ p: [String: String]) -> BenchmarkSummary {
            BenchmarkSummary(name: name, suite: "snapshot", item: "layer", itemsPerIteration: Int(p["n"]!)!, parameters: p,
                             samplesNsPerItem: [ns], medianNsPerItem: ns, minNsPerItem: ns, maxNsPerItem: ns, iterations: [1])
        }
        var s: [BenchmarkSummary] = []
        for (i, n) in [1_000, 10_000, 100_000].enumerated() {
            s.append(summary("snapshot/full/fan/\(n)", 20, ["kind": "full", "shape": "fan", "n": "\(n)",
                                                          "relativeTo": "snapshot/presentation/fan/\(n)"]))
            s.append(summary("snapshot/presentation/fan/\(n)", 80 * Double(i + 1), ["kind": "presentation", "shape": "fan", "n": "\(n)"]))
            s.append(summary("snapshot/update/fan/1/\(n)", 0.5, ["kind": "update", "shape": "fan", "n": "\(n)", "animated": "1",
                                                               "relativeTo": "snapshot/full/fan/\(n)"]))
        }
        // One that names a benchmark the run does not have: no ratio, not a guess.
        s.append(summary("snapshot/full/chain/1000", 40, ["kind": "full", "shape": "chain", "n": "1000",
                                                          "relativeTo": "snapshot/presentation/chain/1000"]))
        ReportBuilder.addBaselineRatios(&s)
        XCTAssertEqual(s[0].relativeNsPerItem, 80)
        XCTAssertEqual(s[0].ratioToRelative!, 0.25, accuracy: 1e-12)
        XCTAssertEqual(s[3].ratioToRelative!, 20.0 / 160, accuracy: 1e-12)
        XCTAssertEqual(s[2].ratioToRelative!, 0.025, accuracy: 1e-12)
        XCTAssertNil(s[1].ratioToRelative)
        XCTAssertNil(s.last!.ratioToRelative)
        XCTAssertNil(s.last!.relativeNsPerItem)
        // relativeTo names N: the family is every size of one kind and shape.
        let fits = ReportBuilder.growth(s)
        let full = fits.first { $0.family == "kind=full,shape=fan" }
        XCTAssertEqual(full?.points.count, 3)
        XCTAssertEqual(full?.exponent ?? 0, 1, accuracy: 1e-9)
        XCTAssertEqual(fits.first { $0.family == "animated=1,kind=update,shape=fan" }?.points.count, 3)
    }

    func test_growthFitFindsTheExponentAndFlagsSuperLinearFamilies() {
        func summary(_ n: Int, perItem: Double, shape: String) -> BenchmarkSummary {
            BenchmarkSummary(name: "tree/build/\(shape)/\(n)", suite: "tree", item: "layer", itemsPerIteration: n,
                             parameters: ["n": "\(n)", "shape": shape, "operation": "build"],
                             samplesNsPerItem: [perItem], medianNsPerItem: perItem, minNsPerItem: perItem,
                             maxNsPerItem: perItem, iterations: [1])
        }
        let linear = [1_000, 10_000, 100_000].map { summary($0, perItem: 40, shape: "fan") }
        // Cost per item grows as sqrt(N): total ~ N^1.5.
        let quadratic = [1_000, 10_000, 100_000].map { summary($0, perItem: 40 * (Double($0) / 1000).squareRoot(), shape: "chain") }
        let fits = ReportBuilder.growth(linear + quadratic)
        XCTAssertEqual(fits.count, 2)
        let chain = fits.first { $0.family.contains("shape=chain") }!
        let fan = fits.first { $0.family.contains("shape=fan") }!
        XCTAssertEqual(fan.exponent, 1, accuracy: 1e-9)
        XCTAssertFalse(fan.superLinear)
        XCTAssertEqual(chain.exponent, 1.5, accuracy: 1e-9)
        XCTAssertTrue(chain.superLinear)
        XCTAssertEqual(chain.points.map { $0[0] }, [1_000, 10_000, 100_000])
    }

    func test_readRefusesCorruptAndForeignFilesWithTheirPath() throws {
        let dir = FileManager.default.temporaryDirectory
        let corrupt = dir.appendingPathComponent("strata-corrupt-\(getpid()).json")
        try Data(#"{"benchmarks": [1, 2"#.utf8).write(to: corrupt)
        defer { try? FileManager.default.removeItem(at: corrupt) }
        XCTAssertThrowsError(try ReportBuilder.read(corrupt)) { XCTAssertTrue("\($0)".contains(corrupt.path), "\($0)") }
        let foreign = dir.appendingPathComponent("strata-foreign-\(getpid()).json")
        try Data(#"{"benchmarks": []}"#.utf8).write(to: foreign)
        defer { try? FileManager.default.removeItem(at: foreign) }
        XCTAssertThrowsError(try ReportBuilder.read(foreign)) { XCTAssertTrue("\($0)".contains("no `strata` block"), "\($0)") }
        XCTAssertThrowsError(try ReportBuilder.read(dir.appendingPathComponent("strata-missing-\(getpid()).json")))
    }

    func test_callgrindDumpParsing() {
        let dump = """
        version: 1
        creator: callgrind-3.19.0
        cmd: strata-bench count-worker
        desc: I1 cache:
        desc: Trigger: Client Request: frame/opacity/shared/basic/1000
        events: Ir
        fl=(1) x.c
        fn=(1) f
        3 100
        summary: 123456
        totals: 123456
        """
        let parsed = Counts.parseDump(dump)
        XCTAssertEqual(parsed?.0, "frame/opacity/shared/basic/1000")
        XCTAssertEqual(parsed?.1.ir, 123_456)
        XCTAssertNil(parsed?.1.cache, "no cache simulation in this dump")
        XCTAssertNil(Counts.parseDump("summary: 5"))
    }

    func test_allocationCountsPerItem() throws {
        // Each run allocates exactly one class instance per item (10 items).
        final class Box { var x = 0 }
        let c = BenchmarkCase("test/alloc/10", items: 10, item: "box") {
            Workload { for _ in 0..<10 { blackHole(Box()) } }
        }
        let a = try Counts.allocations(c, iterations: 5)
        XCTAssertEqual(a.mallocs, 1, accuracy: 1e-12)
        XCTAssertEqual(a.frees, 1, accuracy: 1e-12)
        XCTAssertGreaterThanOrEqual(a.bytes, 16)
    }

    /// A body's instruction and simulated-cache counts depend on the body alone: each is
    /// counted in a fork of a serving worker that does nothing between forks
    /// (`count-worker --serve`), so counted third, after two other bodies in the same
    /// workers, a body counts exactly what it counts alone. A name nobody registered fails the
    /// count, naming the body.
    func test_bodyInstructionsAreCountedInAForkOfTheirOwnAndRepeatExactly() throws {
        guard Counts.valgrindAvailable else { return XCTFail("valgrind is not installed (scripts/setup installs it)") }
        let exe = try builtStrataBench()
        let body = "program/kvc/100"
        let alone = try Counts.callgrindEachBody(executable: exe, bodies: [body], iterations: 1, layouts: 1)
        let after = try Counts.callgrindEachBody(executable: exe, bodies: ["program/properties/2", "program/transaction/1000", body],
                                                 iterations: 1, layouts: 1)
        let name = Counts.dumpName(body, layout: 0)
        XCTAssertEqual(Set(alone.keys), [name])
        XCTAssertEqual(Set(after.keys), Set(["program/properties/2", "program/transaction/1000", body].map { Counts.dumpName($0, layout: 0) }))
        let a = try XCTUnwrap(alone[name]), b = try XCTUnwrap(after[name])
        XCTAssertGreaterThan(a.ir, 10_000, "an iteration of 100 KVC writes and reads")
        XCTAssertEqual(a.ir, b.ir, "instructions")
        XCTAssertNotNil(a.estimatedCycles, "the cache simulation ran")
        XCTAssertEqual(a.estimatedCycles, b.estimatedCycles, "estimated cycles (cache misses too)")
        XCTAssertThrowsError(try Counts.callgrindEachBody(executable: exe, bodies: ["program/no-such-body/1"], iterations: 1, layouts: 1)) {
            XCTAssertTrue("\($0)".contains("program/no-such-body/1"), "\($0)")
        }
    }

    /// The gate's malloc counts of a body depend on the body alone: `run` counts each in a
    /// process of its own (`count-worker --mallocs`), so they are the same whatever the
    /// counting process ran before. (Counted in one process after other work, layer-churn
    /// moved by a third, 5.31 to 7.11 an item. A release build's counts repeat exactly; this
    /// debug build's make-animations moved by 0.03 of 200 an item between some processes:
    /// held to 0.5%.)
    func test_bodyMallocsAreCountedInAProcessOfTheirOwnAndRepeatExactly() throws {
        let exe = try builtStrataBench()
        let bodies = ["program/layer-churn/100", "program/make-animations/20"]
        let first = try Counts.allocationsEachBody(executable: exe, bodies: bodies, iterations: 3)
        // This process's heap churned between the two counts: chunks of many sizes, half kept.
        var kept: [[UInt8]] = []
        for i in 0..<20_000 {
            let a = [UInt8](repeating: UInt8(i & 0xff), count: 1 + (i * 37) % 700)
            if i % 2 == 0 { kept.append(a) }
        }
        let second = try Counts.allocationsEachBody(executable: exe, bodies: bodies, iterations: 3)
        XCTAssertEqual(kept.count, 10_000)
        XCTAssertEqual(Set(first.keys), Set(bodies))
        for body in bodies {
            let a = try XCTUnwrap(first[body]), b = try XCTUnwrap(second[body])
            XCTAssertEqual(a.mallocs, b.mallocs, accuracy: a.mallocs * 0.005, body)
            XCTAssertEqual(a.bytes, b.bytes, accuracy: a.bytes * 0.005, body)
        }
        // Each body's own allocations: five animations made per layer, and 100 layers made and
        // dropped per iteration, each freed in the iteration.
        let made = try XCTUnwrap(first["program/make-animations/20"]), churn = try XCTUnwrap(first["program/layer-churn/100"])
        XCTAssertGreaterThanOrEqual(made.mallocs, 5)
        XCTAssertGreaterThanOrEqual(churn.mallocs, 1)
        XCTAssertEqual(made.frees, made.mallocs, accuracy: made.mallocs * 0.05)
        // A body nobody registered is an error, not an empty count.
        XCTAssertThrowsError(try Counts.allocationsEachBody(executable: exe, bodies: ["program/no-such-body/1"], iterations: 1))
    }
}
