import XCTest
@testable import StrataBench
@testable import StrataReportModel

/// Verdicts: the statistics on known samples, then each rule of the comparator.
final class ComparatorTests: XCTestCase {
    func test_mannWhitneyOnSeparatedTiedAndMixedSamples() {
        let low = (1...9).map(Double.init), high = (11...19).map(Double.init)
        // Exact two-sided p is 2 / C(18, 9) = 4.1e-5; the normal approximation gives ~4e-4.
        XCTAssertLessThan(Statistics.mannWhitneyP(low, high), 0.001)
        XCTAssertEqual(Statistics.mannWhitneyP(low, high), Statistics.mannWhitneyP(high, low), accuracy: 1e-15)
        XCTAssertEqual(Statistics.mannWhitneyP([5, 5, 5], [5, 5, 5]), 1)
        // Interleaved samples: no evidence of a difference.
        let a = [1.0, 3, 5, 7, 9, 11, 13, 15, 17], b = [2.0, 4, 6, 8, 10, 12, 14, 16, 18]
        XCTAssertGreaterThan(Statistics.mannWhitneyP(a, b), 0.5)
    }

    func test_bootstrapIntervalOfTheMedianRatio() {
        let constant = Statistics.bootstrapMedianRatio(base: [100, 100, 100], head: [110, 110, 110])
        XCTAssertEqual(constant.low, 0.1, accuracy: 1e-12)
        XCTAssertEqual(constant.high, 0.1, accuracy: 1e-12)
        let base = (0..<9).map { 100 + Double($0) }, head = (0..<9).map { 120 + Double($0) }
        let ci = Statistics.bootstrapMedianRatio(base: base, head: head)
        XCTAssertLessThanOrEqual(ci.low, 0.20 * 1.0)
        XCTAssertGreaterThan(ci.low, 0.1)
        XCTAssertLessThan(ci.high, 0.3)
        // Deterministic: the same inputs give the same interval.
        XCTAssertEqual(ci.low, Statistics.bootstrapMedianRatio(base: base, head: head).low)
    }

    func block(_ times: [String: [Double]], counts: [String: (Double?, Double)] = [:], cpu: String = "AMD EPYC",
               failed: Set<String> = []) -> StrataBlock {
        Self.block(times, counts: counts, cpu: cpu, failed: failed)
    }

    static func block(_ times: [String: [Double]], counts: [String: (Double?, Double)] = [:], cpu: String = "AMD EPYC",
                      failed: Set<String> = []) -> StrataBlock {
        let machine = MachineFingerprint(cpuModel: cpu, cores: 2, cpuFlags: ["avx2", "fma"], memoryBytes: 1, kernel: "Linux",
                                         swiftVersion: "6.3.1", gitCommit: "x", gitDirty: false, buildConfiguration: "release",
                                         buildFlags: "-O -target-cpu haswell", googleBenchmarkVersion: "1.7.1-1",
                                         googleBenchmarkBuildType: "debug", valgrind: "valgrind-3.19.0", perfAvailable: false,
                                         hostname: "vm")
        let summaries = times.sorted { $0.key < $1.key }.map { name, s in
            BenchmarkSummary(name: name, suite: "frame", item: "animation", itemsPerIteration: 1, parameters: [:],
                             samplesNsPerItem: s, medianNsPerItem: median(s), minNsPerItem: s.min() ?? 0, maxNsPerItem: s.max() ?? 0,
                             iterations: s.map { _ in 1 }, error: failed.contains(name) ? "precondition failed" : nil)
        }
        let countRows = counts.sorted { $0.key < $1.key }.map { name, c in
            CountResult(name: name, item: "animation", itemsPerIteration: 1, iterations: 20, instructionsPerItem: c.0,
                        mallocsPerItem: c.1, freesPerItem: c.1, bytesAllocatedPerItem: 0)
        }
        return StrataBlock(createdAt: "", machine: machine,
                           options: RunOptions(quick: false, suites: [], filter: nil, repetitions: 9, minTime: 0.05, googleBenchmarkArguments: []),
                           benchmarks: summaries, counts: countRows)
    }

    /// Nine repetitions around `m` with about 1% spread.
    func reps(_ m: Double, n: Int = 9) -> [Double] {
        (0..<n).map { i -> Double in
            let wobble: Double = 0.01 * Double(i % 3 - 1)
            let drift: Double = 0.001 * Double(i)
            return m * (1 + wobble + drift)
        }
    }

    func bands(_ b: [String: Double], machineKey: String? = nil) -> NoiseBands {
        NoiseBands(machineKey: machineKey ?? block([:]).machine.timingKey, createdAt: "t", source: "test", processes: 9, bands: b)
    }

    func test_unpairedTimeVerdictsNeedAMeasuredBand() {
        let base = block(["slow": reps(100), "same": reps(100), "fast": reps(100), "small": reps(100), "few": reps(100, n: 5),
                          "noisy": reps(100)])
        let head = block(["slow": reps(112), "same": reps(100.5), "fast": reps(85), "small": reps(103), "few": reps(150, n: 5),
                          "noisy": reps(125)])
        var comparator = Comparator()
        comparator.bands = bands(["slow": 0.04, "same": 0.04, "fast": 0.04, "small": 0.04, "few": 0.04, "noisy": 0.30])
        let c = comparator.compare(base: base, head: head, basePath: "b", headPath: "h")
        func verdict(_ n: String) -> Verdict? { c.rows.first { $0.name == n }?.verdict }
        XCTAssertEqual(verdict("slow"), .regression)
        XCTAssertEqual(verdict("same"), .unchanged)
        XCTAssertEqual(verdict("fast"), .improvement)
        XCTAssertEqual(verdict("small"), .unchanged, "3% is under the 5% threshold")
        XCTAssertEqual(verdict("few"), .insufficientData)
        XCTAssertEqual(verdict("noisy"), .inconclusive, "+25% is inside this benchmark's 30% band between processes")
        let slow = c.rows.first { $0.name == "slow" }!
        XCTAssertEqual(slow.change!, 0.12, accuracy: 0.005)
        XCTAssertGreaterThan(slow.ciLow!, 0.04)
        XCTAssertLessThan(slow.pValue!, 0.01)
        XCTAssertEqual(slow.band, 0.04)
        XCTAssertEqual(slow.basis, "unpaired")
        XCTAssertEqual(c.rows.first { $0.name == "noisy" }?.verdictLabel, "inconclusive (unpaired)")
        XCTAssertEqual(c.exitCode(gate: .all), 2)
        XCTAssertEqual(c.exitCode(gate: .counts), 5, "times do not gate under --gate counts: with no counts it compared nothing")
    }

    func test_unpairedTimesWithoutABandAreInconclusiveNeverRegressions() {
        // What `compare` of two separate runs of one build saw on this machine: medians 80% apart.
        let base = block(["floor": reps(100), "commit": reps(100), "flat": reps(100)])
        let head = block(["floor": reps(180), "commit": reps(214), "flat": reps(101)])
        let c = Comparator().compare(base: base, head: head, basePath: "b", headPath: "h")
        XCTAssertFalse(c.rows.contains { $0.verdict == .regression })
        XCTAssertEqual(c.rows.first { $0.name == "floor" }?.verdictLabel, "inconclusive (unpaired)")
        XCTAssertEqual(c.rows.first { $0.name == "flat" }?.verdict, .unchanged)
        XCTAssertEqual(c.exitCode(gate: .all), 0)
        XCTAssertTrue(c.notes.contains { $0.contains("no noise band measured") }, "\(c.notes)")
        // Bands measured on another machine are not used.
        var other = Comparator()
        other.bands = bands(["floor": 0.01], machineKey: "another machine")
        let o = other.compare(base: base, head: head, basePath: "b", headPath: "h")
        XCTAssertEqual(o.rows.first { $0.name == "floor" }?.verdict, .inconclusive)
        XCTAssertTrue(o.notes.contains { $0.contains("another machine") }, "\(o.notes)")
    }

    func test_differentMachinesGetNoTimeVerdictButCountsStillCompare() {
        let base = block(["a": reps(100)], counts: ["a": (1000, 0)])
        let head = block(["a": reps(200)], counts: ["a": (1030, 0)], cpu: "Intel Xeon")
        let c = Comparator().compare(base: base, head: head, basePath: "b", headPath: "h")
        XCTAssertFalse(c.sameMachine)
        XCTAssertTrue(c.notes.first?.contains("different machines") == true)
        XCTAssertEqual(c.rows.first { $0.metric == "time" }?.verdict, .differentMachine)
        XCTAssertEqual(c.rows.first { $0.metric == "time" }?.verdictLabel, "different-machine")
        XCTAssertEqual(c.rows.first { $0.metric == "instructions" }?.verdict, .regression)
        XCTAssertEqual(c.exitCode(gate: .all), 2)
    }

    func test_countVerdictsAndExitCodes() {
        let base = block([:], counts: ["up": (1000, 0), "down": (1000, 0), "flat": (1000, 0), "alloc": (500, 0)])
        let head = block([:], counts: ["up": (1011, 0), "down": (980, 0), "flat": (1005, 0), "alloc": (500, 0.001)])
        let c = Comparator().compare(base: base, head: head, basePath: "b", headPath: "h")
        func verdict(_ n: String, _ m: String) -> Verdict? { c.rows.first { $0.name == n && $0.metric == m }?.verdict }
        XCTAssertEqual(verdict("up", "instructions"), .regression)
        XCTAssertEqual(verdict("down", "instructions"), .improvement)
        XCTAssertEqual(verdict("flat", "instructions"), .unchanged)
        XCTAssertEqual(verdict("alloc", "mallocs"), .regression, "a body that did not allocate and now does")
        XCTAssertEqual(c.exitCode(gate: .counts), 2)
        let onlyBetter = Comparator().compare(base: block([:], counts: ["x": (1000, 0)]), head: block([:], counts: ["x": (900, 0)]),
                                              basePath: "b", headPath: "h")
        XCTAssertEqual(onlyBetter.exitCode(gate: .counts), 4)
        XCTAssertEqual(onlyBetter.exitCode(gate: .none), 0)
    }

    func test_failedNewAndMissingBenchmarks() {
        let base = block(["kept": reps(100), "gone": reps(100)])
        let head = block(["kept": reps(100), "added": reps(100)], failed: ["kept"])
        let c = Comparator().compare(base: base, head: head, basePath: "b", headPath: "h")
        XCTAssertEqual(c.rows.first { $0.name == "kept" }?.verdict, .failed)
        XCTAssertEqual(c.rows.first { $0.name == "added" }?.verdict, .new)
        XCTAssertEqual(c.rows.first { $0.name == "gone" }?.verdict, .missing)
        XCTAssertEqual(c.exitCode(gate: .none), 3)
        XCTAssertTrue(c.table().contains("failed"))
    }

    /// A gate never passes on nothing: reports that share no gated figure, and gated figures on
    /// one side only, fail it, naming what is missing, unless --allow-missing covers them.
    func test_aGateThatComparedNothingOrMissesAFigureFails() {
        let strata = block(["frame/a": reps(100)], counts: ["frame/a": (1000, 0), "commit/b": (500, 1)])
        let app = block(["my-app/cards": reps(100)], counts: ["my-app/cards": (2000, 3)])
        // An app's run against an unrelated baseline: nothing in common.
        let unrelated = Comparator().compare(base: strata, head: app, basePath: "b", headPath: "h")
        let none = unrelated.coverage(gate: .counts)
        XCTAssertEqual(none.compared, 0)
        XCTAssertEqual(none.missingFromHead, ["commit/b", "frame/a"])
        XCTAssertEqual(none.missingFromBaseline, ["my-app/cards"])
        XCTAssertEqual(unrelated.exitCode(gate: .counts), 5)
        XCTAssertEqual(unrelated.exitCode(gate: .all), 5)
        XCTAssertEqual(unrelated.exitCode(gate: .none), 0, "no gate, no verdict")
        XCTAssertEqual(unrelated.exitCode(gate: .counts, allowMissing: { _ in true }), 5, "allowing every name still compares nothing")
        let problem = none.problem(gate: .counts) ?? ""
        XCTAssertTrue(problem.contains("nothing was compared") && problem.contains("my-app/cards") && problem.contains("commit/b"), problem)
        XCTAssertTrue(unrelated.markdown().contains("Nothing compared."), unrelated.markdown())
        // A counted body gone from the head: 3 (the head lacks a figure), named; allowed, 0.
        let gone = Comparator().compare(base: strata, head: block([:], counts: ["frame/a": (1000, 0)]), basePath: "b", headPath: "h")
        XCTAssertEqual(gone.coverage(gate: .counts).missingFromHead, ["commit/b"])
        XCTAssertEqual(gone.exitCode(gate: .counts), 3)
        XCTAssertEqual(gone.exitCode(gate: .counts, allowMissing: { $0.hasPrefix("commit/") }), 0)
        XCTAssertTrue(gone.coverage(gate: .counts).problem(gate: .counts)?.contains("1 in the baseline but not in the head: commit/b") == true)
        // A new counted body the baseline lacks: 5 until the baseline has it.
        let added = Comparator().compare(base: block([:], counts: ["frame/a": (1000, 0)]), head: strata, basePath: "b", headPath: "h")
        XCTAssertEqual(added.coverage(gate: .counts).missingFromBaseline, ["commit/b"])
        XCTAssertEqual(added.exitCode(gate: .counts), 5)
        // A regression is reported as one even with a figure missing; times alone under
        // --gate counts compare nothing.
        let worse = Comparator().compare(base: strata, head: block([:], counts: ["frame/a": (1100, 0)]), basePath: "b", headPath: "h")
        XCTAssertEqual(worse.exitCode(gate: .counts), 2)
        let timesOnly = Comparator().compare(base: block(["x": reps(100)]), head: block(["x": reps(100)]), basePath: "b", headPath: "h")
        XCTAssertEqual(timesOnly.exitCode(gate: .all), 0)
        XCTAssertEqual(timesOnly.exitCode(gate: .counts), 5)
        // Complete coverage: nothing said.
        XCTAssertNil(Comparator().compare(base: strata, head: strata, basePath: "b", headPath: "h").coverage(gate: .counts).problem(gate: .counts))
    }

    func test_corruptJSONIsReportedWithLineAndColumn() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-corrupt-pos-\(getpid()).json")
        try Data("{\n  \"context\": {},\n  \"benchmarks\": [1, x]\n}".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try ReportBuilder.read(url)) { error in
            XCTAssertTrue("\(error)".contains("line 3"), "\(error)")
            XCTAssertTrue("\(error)".contains(url.path), "\(error)")
        }
    }
}

/// Interleaved A/B rounds merge into one report per side.
final class MergeTests: XCTestCase {
    func test_mergeConcatenatesRepetitionsAndRecomputesFigures() throws {
        let t = ComparatorTests.self
        let r1 = ([String: Any](), t.block(["a": [1, 2, 3]], counts: ["a": (100, 0)]))
        let r2 = (["benchmarks": [["name": "a"]]] as [String: Any], t.block(["a": [10, 11], "b": [5]]))
        let merged = try ReportBuilder.merge([r1, r2])
        let a = try XCTUnwrap(merged.strata.benchmarks.first { $0.name == "a" })
        XCTAssertEqual(a.samplesNsPerItem, [1, 2, 3, 10, 11])
        XCTAssertEqual(a.medianNsPerItem, 3)
        XCTAssertEqual(a.maxNsPerItem, 11)
        XCTAssertEqual(merged.strata.benchmarks.map { $0.name }, ["a", "b"])
        XCTAssertEqual(merged.strata.counts.first?.instructionsPerItem, 100)
        let entries = merged.googleBenchmark["benchmarks"] as? [Any] ?? []
        XCTAssertEqual(entries.count, 1)
        let other = ([String: Any](), t.block(["a": [1]], cpu: "Intel"))
        XCTAssertThrowsError(try ReportBuilder.merge([r1, other]))
    }
}
