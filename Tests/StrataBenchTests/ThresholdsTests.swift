import XCTest
@testable import StrataBench
@testable import StrataReportModel

/// A package's thresholds file: tolerances per benchmark, metric and percentile; the figures
/// `thresholds update` records and `thresholds check` judges; the tolerances `baseline check`
/// uses; and the scenes' frame times an unpaired comparison shows.
final class ThresholdsTests: XCTestCase {
    func scene(_ name: String, p50: Double, p99: Double) -> SceneResult {
        SceneResult(name: name, description: "", layers: 1, frames: 100, warmupFrames: 0, p50: p50, p90: p99, p99: p99,
                    p999: p99, max: p99, mean: p50, renderP50: 0, renderP99: 0, withinBudget16: 1, withinBudget8: 1,
                    droppedFrames: 0, hitchMsPerSecond: 0, histogram: [], frameTimesMs: [])
    }

    func report(instructions: Double, mallocs: Double = 3, p99: Double = 0.4, time: Double = 100) -> StrataBlock {
        var b = ComparatorTests.block(["app/move/100": Array(repeating: time, count: 9)], counts: ["app/pulse/1000": (instructions, mallocs)])
        b.scenes = [scene("feed", p50: p99 / 2, p99: p99)]
        return b
    }

    func test_aToleranceJudgesRelativeOrAbsoluteChangesEitherWay() {
        let relative = Thresholds.Tolerance(relative: 1)
        XCTAssertEqual(relative.judge(reference: 1000, head: 1010), 0, "exactly 1% is within")
        XCTAssertEqual(relative.judge(reference: 1000, head: 1011), 1)
        XCTAssertEqual(relative.judge(reference: 1000, head: 989), -1)
        XCTAssertEqual(relative.judge(reference: 0, head: 1), 1, "from nothing to something is beyond any percentage")
        let absolute = Thresholds.Tolerance(absolute: 2)
        XCTAssertEqual(absolute.judge(reference: 3, head: 5), 0)
        XCTAssertEqual(absolute.judge(reference: 3, head: 6), 1)
        XCTAssertEqual(absolute.judge(reference: 3, head: 0), -1)
        // Both: exceeding either is a violation (package-benchmark's relative and absolute checks).
        let both = Thresholds.Tolerance(relative: 50, absolute: 1)
        XCTAssertEqual(both.judge(reference: 10, head: 11.5), 1, "+1.5 is beyond the absolute 1 though within 50%")
        XCTAssertEqual(both.judge(reference: 10, head: 11), 0)
    }

    func test_updateRecordsEveryFigureAndKeepsTheTolerances() throws {
        var t = Thresholds()
        t.benchmarks["app/pulse/1000"] = ["mallocs": .init(value: 1, absolute: 2)]
        t.benchmarks["gone/1"] = ["instructions": .init(value: 5)]
        let (next, removed) = t.updated(with: report(instructions: 1000))
        XCTAssertEqual(removed, ["gone/1"])
        XCTAssertEqual(next.benchmarks["app/pulse/1000"]?["instructions"], .init(value: 1000))
        XCTAssertEqual(next.benchmarks["app/pulse/1000"]?["mallocs"], .init(value: 3, absolute: 2), "the figure recorded, its own tolerance kept")
        XCTAssertEqual(next.benchmarks["scene/feed"]?["frame-time-p99"]?.value, 0.4)
        XCTAssertEqual(next.benchmarks["scene/feed"]?["frame-time-p50"]?.value, 0.2)
        XCTAssertEqual(next.benchmarks["app/move/100"]?["time"]?.value, 100)
        // Written and read back exactly.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("thresholds-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try next.encoded().write(to: url)
        XCTAssertEqual(try Thresholds.read(url), next)
    }

    func test_checkJudgesARunAgainstTheRecordedFiguresWithTheirTolerances() {
        var t = Thresholds().updated(with: report(instructions: 1000)).thresholds
        t.benchmarks["app/pulse/1000"]?["mallocs"]?.absolute = 2
        // Unchanged: every gated figure compared, exit 0.
        let same = t.check(report(instructions: 1000), headPath: "h", thresholdsPath: "t")
        XCTAssertEqual(same.exitCode(gate: .all), 0)
        XCTAssertEqual(same.coverage(gate: .counts).compared, 2)
        // 10% more instructions: a regression (default 1%), exit 2, named.
        let worse = t.check(report(instructions: 1100), headPath: "h", thresholdsPath: "t")
        XCTAssertEqual(worse.exitCode(gate: .counts), 2)
        XCTAssertEqual(worse.rows.filter { $0.verdict == .regression }.map { "\($0.name) \($0.metric)" }, ["app/pulse/1000 instructions"])
        // Two more mallocs: within the entry's own absolute tolerance of 2 (the default 1% would fail it).
        XCTAssertEqual(t.check(report(instructions: 1000, mallocs: 5), headPath: "h", thresholdsPath: "t").exitCode(gate: .counts), 0)
        XCTAssertEqual(t.check(report(instructions: 1000, mallocs: 6), headPath: "h", thresholdsPath: "t").exitCode(gate: .counts), 2)
        // A scene's p99 from 0.4 ms to 164 ms: beyond the default 300%; a time, so the counts gate
        // leaves it and the `all` gate fails on it.
        let slow = t.check(report(instructions: 1000, p99: 164), headPath: "h", thresholdsPath: "t")
        XCTAssertEqual(slow.rows.first { $0.metric == "frame-time-p99" }?.verdict, .regression)
        XCTAssertEqual(slow.exitCode(gate: .counts), 0)
        XCTAssertEqual(slow.exitCode(gate: .all), 2)
        // Fewer instructions beyond the tolerance only: exit 4.
        XCTAssertEqual(t.check(report(instructions: 900), headPath: "h", thresholdsPath: "t").exitCode(gate: .counts), 4)
    }

    func test_checkNeverPassesOnNothing() {
        let t = Thresholds().updated(with: report(instructions: 1000)).thresholds
        // A run of other benchmarks: nothing compared, each side's figures named.
        var other = ComparatorTests.block([:], counts: ["other/1": (5, 0)])
        other.scenes = []
        let c = t.check(other, headPath: "h", thresholdsPath: "t")
        XCTAssertEqual(c.exitCode(gate: .counts), 5)
        XCTAssertEqual(c.coverage(gate: .counts).missingFromHead, ["app/pulse/1000"], "times are not the counts gate's")
        XCTAssertEqual(c.coverage(gate: .all).missingFromHead, ["app/move/100", "app/pulse/1000", "scene/feed"])
        XCTAssertEqual(c.coverage(gate: .counts).missingFromBaseline, ["other/1"])
        XCTAssertNotNil(c.coverage(gate: .counts).problem(gate: .counts))
        // An empty file compares nothing either.
        XCTAssertEqual(Thresholds().check(report(instructions: 1000), headPath: "h", thresholdsPath: "t").exitCode(gate: .counts), 5)
    }

    func test_baselineComparisonsUseTheFilesTolerancesPerBenchmarkAndMetric() {
        let base = report(instructions: 1000, mallocs: 3), head = report(instructions: 1030, mallocs: 4)
        // Without a file: +3% instructions and +1 malloc (33%) are regressions at 1%.
        let plain = Comparator().compare(base: base, head: head, basePath: "b", headPath: "h")
        XCTAssertEqual(plain.rows.filter { $0.verdict == .regression }.map(\.metric).sorted(), ["instructions", "mallocs"])
        // With one: instructions tolerate 5% for this body, mallocs an absolute 1.
        var t = Thresholds(defaults: ["mallocs": .init(absolute: 1)])
        t.benchmarks["app/pulse/1000"] = ["instructions": .init(relative: 5)]
        var comparator = Comparator()
        comparator.thresholds = t
        let tolerant = comparator.compare(base: base, head: head, basePath: "b", headPath: "h")
        XCTAssertEqual(tolerant.rows.filter { $0.verdict == .regression }.count, 0, tolerant.table(all: true))
        XCTAssertEqual(tolerant.exitCode(gate: .counts), 0)
    }

    func test_anUnpairedComparisonShowsEachScenesFrameTimesBesideItsBandNeverJudged() {
        var comparator = Comparator()
        comparator.bands = NoiseBands(machineKey: report(instructions: 1).machine.timingKey, createdAt: "t", source: "ab", processes: 5,
                                      bands: ["scene/feed#p99": 0.3])
        let c = comparator.compare(base: report(instructions: 1000, p99: 0.407), head: report(instructions: 1000, p99: 164),
                                   basePath: "b", headPath: "h")
        let p99 = c.rows.first { $0.name == "scene/feed" && $0.metric == "frame-time-p99" }
        XCTAssertEqual(p99?.verdict, .informational)
        XCTAssertEqual(p99?.baseline, 0.407)
        XCTAssertEqual(p99?.head, 164)
        XCTAssertEqual(p99?.band, 0.3)
        XCTAssertNil(c.rows.first { $0.name == "scene/feed" && $0.metric == "frame-time-p50" }?.band)
        XCTAssertEqual(c.exitCode(gate: .all), 0, "shown, not judged: counts and `ab` give frame verdicts")
        XCTAssertTrue(c.notes.contains { $0.contains("frame times") && $0.contains("ab") })
        // Shown by default in the table and in the Markdown summary's scene table.
        XCTAssertTrue(c.table().contains("frame-time-p99"))
        XCTAssertTrue(c.markdown().contains("0.407 → 164"), c.markdown())
    }

    func test_aCorruptFileIsAClearErrorNamingWhatIsWrong() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("thresholds-bad-\(getpid()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        func error(_ text: String) -> String {
            try? Data(text.utf8).write(to: url)
            do { _ = try Thresholds.read(url); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(error(#"{"benchmarks": {"a": {"instructions": {"relativ": 1}}}}"#).contains("unknown key \"relativ\""))
        XCTAssertTrue(error(#"{"benchmarks": {"a": {"instructions": {"relative": -1}}}}"#).contains("benchmarks[\"a\"].instructions.relative is -1.0"))
        XCTAssertTrue(error(#"{"version": 7}"#).contains("version 7"))
        XCTAssertTrue(error(#"{"benchmarks": [1]}"#).contains("not a thresholds file"))
        XCTAssertTrue(error("").contains("not a thresholds file"))
        // A hand-written file with benchmarks only is a valid one (version and defaults implied).
        XCTAssertEqual(error(#"{"benchmarks": {"a": {"instructions": {"value": 5, "relative": 2}}}}"#), "")
    }

    /// The commit a run records: the one the command plugin built from (STRATA_BUILT_FROM),
    /// and a warning when the working tree is elsewhere.
    func test_aRunRecordsTheCommitItsExecutableWasBuiltFromAndSaysWhenTheTreeDiffers() {
        let saved = getenv("STRATA_BUILT_FROM").map { String(cString: $0) }
        defer { if let saved { setenv("STRATA_BUILT_FROM", saved, 1) } else { unsetenv("STRATA_BUILT_FROM") } }
        unsetenv("STRATA_BUILT_FROM")
        XCTAssertNil(MachineFingerprint.builtFrom)
        XCTAssertNil(MachineFingerprint.builtFromMismatch(), "not built by the plugin: nothing to compare")
        setenv("STRATA_BUILT_FROM", "0123456789abcdef0123456789abcdef01234567-dirty", 1)
        XCTAssertEqual(MachineFingerprint.builtFrom?.commit, "0123456789abcdef0123456789abcdef01234567")
        XCTAssertEqual(MachineFingerprint.builtFrom?.dirty, true)
        let machine = MachineFingerprint.current()
        XCTAssertEqual(machine.gitCommit, "0123456789abcdef0123456789abcdef01234567", "the build's commit, not the tree's")
        XCTAssertTrue(machine.gitDirty)
        if MachineFingerprint.workingTreeCommit().commit != "unknown" {
            let warning = MachineFingerprint.builtFromMismatch()
            XCTAssertTrue(warning?.hasPrefix("this executable was built from 0123456789ab with uncommitted changes, the working tree is at ") == true,
                          warning ?? "no warning")
        }
        // Built from the tree as it is: no warning.
        let here = MachineFingerprint.workingTreeCommit()
        setenv("STRATA_BUILT_FROM", here.commit + (here.dirty ? "-dirty" : ""), 1)
        XCTAssertNil(MachineFingerprint.builtFromMismatch())
    }
}
