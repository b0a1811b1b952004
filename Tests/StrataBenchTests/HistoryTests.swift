import CSQLite
import Foundation
import XCTest
@testable import StrataBench
@testable import StrataHistory
@testable import StrataReportModel

/// The history store (HistoryStore over SQLite), change-point detection (E-divisive means)
/// and `strata-bench history` end to end.
final class HistoryTests: TemporaryDirectoryTestCase {


    // MARK: Synthesized reports

    static func machine(commit: String, dirty: Bool = false, cpu: String = "AMD EPYC", host: String = "vm") -> MachineFingerprint {
        MachineFingerprint(cpuModel: cpu, cores: 2, cpuFlags: ["avx2", "fma"], memoryBytes: 1, kernel: "Linux",
                           swiftVersion: "6.3.1", gitCommit: commit, gitDirty: dirty, buildConfiguration: "release",
                           buildFlags: "-O -target-cpu haswell", googleBenchmarkVersion: "1.7.1-1",
                           googleBenchmarkBuildType: "debug", valgrind: "valgrind-3.19.0", perfAvailable: false, hostname: host)
    }

    /// A report of `commit` at `createdAt`: benchmark times (ns/item; "failed" names errored),
    /// counts (instructions, mallocs) and scenes (p50, p99, hitch).
    static func block(commit: String, createdAt: String, dirty: Bool = false, cpu: String = "AMD EPYC",
                      times: [String: Double] = [:], failed: Set<String> = [],
                      counts: [String: (instructions: Double?, mallocs: Double)] = [:], cycles: Double? = nil,
                      scenes: [String: (p50: Double, p99: Double, hitch: Double)] = [:]) -> StrataBlock {
        let summaries = times.sorted { $0.key < $1.key }.map { name, t in
            BenchmarkSummary(name: name, suite: "frame", item: "animation", itemsPerIteration: 1, parameters: [:],
                             samplesNsPerItem: [t], medianNsPerItem: t, minNsPerItem: t, maxNsPerItem: t,
                             iterations: [1], error: failed.contains(name) ? "precondition failed" : nil)
        }
        let countRows = counts.sorted { $0.key < $1.key }.map { name, c in
            CountResult(name: name, item: "animation", itemsPerIteration: 1, iterations: 20, instructionsPerItem: c.instructions,
                        estimatedCyclesPerItem: cycles, mallocsPerItem: c.mallocs, freesPerItem: c.mallocs, bytesAllocatedPerItem: 0)
        }
        let sceneRows = scenes.sorted { $0.key < $1.key }.map { name, s in
            SceneResult(name: name, description: "a scene", layers: 10, frames: 600, warmupFrames: 60, p50: s.p50, p90: s.p50,
                        p99: s.p99, p999: s.p99, max: s.p99, mean: s.p50, renderP50: s.p50, renderP99: s.p99,
                        withinBudget16: 1, withinBudget8: 1, droppedFrames: 0, hitchMsPerSecond: s.hitch,
                        histogram: [], frameTimesMs: [])
        }
        return StrataBlock(createdAt: createdAt, machine: machine(commit: commit, dirty: dirty, cpu: cpu),
                           options: RunOptions(quick: false, suites: [], filter: nil, repetitions: 9, minTime: 0.05, googleBenchmarkArguments: []),
                           benchmarks: summaries, scenes: sceneRows, counts: countRows)
    }

    /// "2026-01-DDT00:00:00Z" for run `i` (runs sort by it).
    static func date(_ i: Int) -> String { String(format: "2026-01-%02dT%02d:00:00Z", 1 + i / 24, i % 24) }
    /// A 40-hex-digit commit for commit number `i`.
    static func sha(_ i: Int) -> String { String(format: "%07x", 0xc0ffee0 + i) + String(repeating: "0", count: 33) }

    /// Uniform noise in [-1, 1) from a seeded stream.
    static func noise(seed: UInt64, count: Int) -> [Double] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in Double(rng.next() >> 11) / Double(1 << 53) * 2 - 1 }
    }

    // MARK: Store

    func test_reportsRoundTripAsPerCommitSeries() throws {
        let db = path("history.sqlite")
        let store = try HistoryStore(path: db)
        let a1 = Self.block(commit: Self.sha(1), createdAt: Self.date(0), times: ["frame/a": 100, "frame/broken": 5], failed: ["frame/broken"],
                            counts: ["frame/a": (1000, 2), "frame/nocallgrind": (nil, 0)], cycles: 1500,
                            scenes: ["app-10k": (1.5, 4.0, 12.5)])
        let a2 = Self.block(commit: Self.sha(1), createdAt: Self.date(1), times: ["frame/a": 110], counts: ["frame/a": (1000, 2)])
        let a3 = Self.block(commit: Self.sha(1), createdAt: Self.date(2), times: ["frame/a": 90])
        let b = Self.block(commit: Self.sha(2), createdAt: Self.date(3), times: ["frame/a": 120], counts: ["frame/a": (1010, 3)])
        let dirty = Self.block(commit: Self.sha(2), createdAt: Self.date(4), dirty: true, times: ["frame/a": 130])
        let other = Self.block(commit: Self.sha(2), createdAt: Self.date(5), cpu: "Intel Xeon", times: ["frame/a": 50])

        // a1: time of frame/a (frame/broken failed), instructions, estimated cycles and mallocs
        // of frame/a, estimated cycles and mallocs of frame/nocallgrind (no instructions),
        // p50/p99/hitch of the scene.
        XCTAssertEqual(try store.add(report: a1, source: "a1.json"), .added(runID: 1, results: 1 + 3 + 2 + 3))
        XCTAssertEqual(try store.add(report: a2, source: "a2.json"), .added(runID: 2, results: 3))
        XCTAssertEqual(try store.add(report: a3, source: "a3.json"), .added(runID: 3, results: 1))
        XCTAssertEqual(try store.add(report: b, source: "b.json"), .added(runID: 4, results: 3))
        XCTAssertEqual(try store.add(report: dirty, source: "dirty.json"), .added(runID: 5, results: 1))
        XCTAssertEqual(try store.add(report: other, source: "other.json"), .added(runID: 6, results: 1))
        XCTAssertEqual(try store.runCount(), 6)
        XCTAssertEqual(try store.metrics(), ["estimated-cycles", "hitch", "instructions", "mallocs", "p50", "p99", "time"])

        let epyc = a1.machine.timingKey, xeon = other.machine.timingKey
        XCTAssertEqual(try store.newestMachineKey(), xeon)
        let time = try store.series(metric: "time", machineKey: epyc)
        XCTAssertEqual(time.map(\.name), ["frame/a"], "the failed benchmark is not kept")
        XCTAssertEqual(time[0].unit, "ns/item")
        XCTAssertEqual(time[0].points, [
            .init(commit: Self.sha(1), dirty: false, firstSeen: Self.date(0), value: 100, runs: 3),   // median of 100, 110, 90
            .init(commit: Self.sha(2), dirty: false, firstSeen: Self.date(3), value: 120, runs: 1),
            .init(commit: Self.sha(2), dirty: true, firstSeen: Self.date(4), value: 130, runs: 1),
        ])
        XCTAssertEqual(time[0].points[2].label, "c0ffee2-dirty")
        XCTAssertEqual(time[0].points[0].firstSeenDate, ISO8601DateFormatter().date(from: "2026-01-01T00:00:00Z"))

        let instructions = try store.series(metric: "instructions", machineKey: epyc)
        XCTAssertEqual(instructions.map(\.name), ["frame/a"])
        XCTAssertEqual(instructions[0].values, [1000, 1010])
        XCTAssertEqual(instructions[0].points.map(\.runs), [2, 1])
        XCTAssertEqual(try store.series(metric: "mallocs", machineKey: epyc).map { "\($0.name)=\($0.values)" },
                       ["frame/a=[2.0, 3.0]", "frame/nocallgrind=[0.0]"])
        let scene = try store.series(namePattern: try NSRegularExpression(pattern: "^scene/"), machineKey: epyc)
        XCTAssertEqual(scene.map { "\($0.metric)=\($0.values)" }, ["hitch=[12.5]", "p50=[1.5]", "p99=[4.0]"])
        XCTAssertEqual(scene.map(\.unit), ["ms/s", "ms", "ms"])
        XCTAssertEqual(try store.series(metric: "estimated-cycles").map { "\($0.name)=\($0.values)" },
                       ["frame/a=[1500.0]", "frame/nocallgrind=[1500.0]"])

        // All machines: each its own series, ordered by machine key.
        let both = try store.series(namePattern: try NSRegularExpression(pattern: "frame/a"), metric: "time")
        XCTAssertEqual(both.map(\.machineKey), [epyc, xeon].sorted())
        XCTAssertEqual(both.first { $0.machineKey == xeon }?.values, [50])

        let machines = try store.machines()
        XCTAssertEqual(machines.map(\.key), [xeon, epyc], "the newest run's machine first")
        XCTAssertEqual(machines.map(\.runs), [1, 5])
        XCTAssertEqual(machines.map(\.commits), [1, 3])
        XCTAssertEqual(machines[1].firstRun, Self.date(0))
        XCTAssertEqual(machines[1].lastRun, Self.date(4))
        XCTAssertEqual(machines[1].fingerprint?.cpuModel, "AMD EPYC")
        XCTAssertEqual(machines[1].id.count, 8)
        XCTAssertEqual(try store.machineKey(matching: machines[1].id), epyc)
        XCTAssertEqual(try store.machineKey(matching: String(machines[1].id.prefix(5))), epyc)
        XCTAssertEqual(try store.machineKey(matching: epyc), epyc)
        XCTAssertNil(try store.machineKey(matching: "nope-nope"))
        XCTAssertEqual(HistoryStore.machineID("x"), HistoryStore.machineID("x"))
        XCTAssertEqual(HistoryStore.machineID(""), "cbf29ce4", "FNV-1a 64 offset basis")

        // Read back from the file by another store, read-only.
        let reader = try HistoryStore(path: db, mode: .readOnly)
        XCTAssertEqual(try reader.series(metric: "time", machineKey: epyc), time)
        XCTAssertThrowsError(try reader.add(report: Self.block(commit: Self.sha(9), createdAt: Self.date(9)), source: "x")) { e in
            XCTAssertEqual((e as? HistoryError)?.kind, .sqlite)
            XCTAssertTrue("\(e)".contains("readonly"), "\(e)")
        }
    }

    func test_addingTheSameReportAgainAddsNothing() throws {
        let store = try HistoryStore(path: path("h.sqlite"))
        let report = Self.block(commit: Self.sha(1), createdAt: Self.date(0), times: ["frame/a": 100], counts: ["frame/a": (1000, 2)])
        XCTAssertEqual(try store.add(report: report, source: "r.json"), .added(runID: 1, results: 3))
        XCTAssertEqual(try store.add(report: report, source: "copy-of-r.json"), .alreadyPresent(runID: 1))
        XCTAssertEqual(try store.runCount(), 1)
        XCTAssertEqual(try store.series(metric: "time").first?.points.map(\.runs), [1])
        // Same commit and machine, another time: another run.
        var later = report
        later.createdAt = Self.date(1)
        XCTAssertEqual(try store.add(report: later, source: "later.json"), .added(runID: 2, results: 3))
        // No created_at: refused as a bad report.
        var undated = report
        undated.createdAt = ""
        XCTAssertThrowsError(try store.add(report: undated, source: "undated.json")) { e in
            XCTAssertEqual((e as? HistoryError)?.kind, .badReport)
            XCTAssertTrue("\(e)".hasPrefix("undated.json: the report has no created_at"), "\(e)")
        }
        XCTAssertEqual(try store.runCount(), 2)
    }

    func test_aPlantedInstructionStepIsFoundAtItsCommitAndNoisyTimesHaveNone() throws {
        let store = try HistoryStore(path: path("h.sqlite"))
        let noise = Self.noise(seed: 42, count: 12)
        for i in 0..<12 {
            // Deterministic counts wobbling by 0.01%; +8% from the 8th commit (index 7).
            let instructions = (i < 7 ? 1000.0 : 1080.0) * (1 + 0.0001 * Double(i % 3 - 1))
            let report = Self.block(commit: Self.sha(i), createdAt: Self.date(i), times: ["frame/a": 100 * (1 + 0.02 * noise[i])],
                                    counts: ["frame/a": (instructions, 2)])
            _ = try store.add(report: report, source: "r\(i).json")
        }
        let key = try XCTUnwrap(try store.newestMachineKey())
        let series = try store.series(namePattern: try NSRegularExpression(pattern: "^frame/a$"), metric: "instructions", machineKey: key)
        XCTAssertEqual(series.count, 1)
        let changes = ChangePointDetector().detect(series[0].values)
        XCTAssertEqual(changes.map(\.index), [7])
        XCTAssertEqual(series[0].points[7].commit, Self.sha(7))
        XCTAssertEqual(changes[0].before, 1000, accuracy: 0.2)
        XCTAssertEqual(changes[0].after, 1080, accuracy: 0.2)
        XCTAssertEqual(changes[0].relativeChange ?? 0, 0.08, accuracy: 0.001)
        // Only shuffles that recreate the partition (2 in C(12, 5) = 792) reach its statistic.
        XCTAssertLessThanOrEqual(changes[0].pValue, 0.015)

        // The HTML report's API: the same answer, plus the commit.
        let trends = try store.trends(names: ["frame/a", "frame/missing"], metric: "instructions", machineKey: key, last: 20)
        XCTAssertEqual(trends.count, 1)
        XCTAssertEqual(trends[0].changePoints, changes)
        XCTAssertEqual(trends[0].point(at: changes[0])?.commit, Self.sha(7))
        // The last 8 commits: 3 before the step, 5 after: the step at index 3 of those.
        let recent = try store.trends(names: ["frame/a"], metric: "instructions", machineKey: key, last: 8)
        XCTAssertEqual(recent[0].series.points.map(\.commit), (4..<12).map(Self.sha))
        XCTAssertEqual(recent[0].changePoints.map(\.index), [3])
        XCTAssertEqual(recent[0].point(at: recent[0].changePoints[0])?.commit, Self.sha(7))

        let time = try store.trends(names: ["frame/a"], metric: "time", machineKey: key, last: 20)
        XCTAssertEqual(time[0].series.points.count, 12)
        XCTAssertEqual(time[0].changePoints, [], "±2% noise around one level: no step")
        XCTAssertEqual(try store.trends(names: ["frame/a"], metric: "mallocs", machineKey: key, last: 20)[0].changePoints, [])
    }

    // MARK: Refusals

    func test_aFileThatIsNotSQLiteIsRefusedWithAClearError() throws {
        let garbage = path("garbage.sqlite")
        let bytes = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        try bytes.write(to: URL(fileURLWithPath: garbage))
        for mode in [HistoryStore.Mode.readOnly, .readWrite, .create] {
            XCTAssertThrowsError(try HistoryStore(path: garbage, mode: mode)) { e in
                XCTAssertEqual((e as? HistoryError)?.kind, .notAHistoryDatabase)
                XCTAssertEqual("\(e)", "\(garbage) is not a strata-bench history database (file is not a database)")
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: garbage)), bytes, "the file is left alone")

        // A report (JSON) given as the database by mistake.
        let json = path("latest.json")
        try ReportBuilder.document([:], strata: Self.block(commit: Self.sha(1), createdAt: Self.date(0))).write(to: URL(fileURLWithPath: json))
        XCTAssertThrowsError(try HistoryStore(path: json)) { e in
            XCTAssertEqual((e as? HistoryError)?.kind, .notAHistoryDatabase)
        }

        XCTAssertThrowsError(try HistoryStore(path: path("absent.sqlite"), mode: .readOnly)) { e in
            XCTAssertEqual((e as? HistoryError)?.kind, .missing)
            XCTAssertEqual("\(e)", "no history database at \(path("absent.sqlite"))")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("absent.sqlite")), "reading does not create it")
    }

    func test_aSQLiteDatabaseWithAnotherSchemaOrVersionIsRefused() throws {
        let foreign = path("foreign.sqlite")
        try sqlite(foreign, "CREATE TABLE runs(id INTEGER PRIMARY KEY, commit_sha TEXT); CREATE TABLE notes(text TEXT);")
        XCTAssertThrowsError(try HistoryStore(path: foreign)) { e in
            XCTAssertEqual((e as? HistoryError)?.kind, .notAHistoryDatabase)
            XCTAssertEqual("\(e)", "\(foreign) is not a strata-bench history database (a SQLite database with tables notes, runs, application_id 0, user_version 0)")
        }

        // Ours, from a later strata-bench.
        let future = path("future.sqlite")
        _ = try HistoryStore(path: future)
        try sqlite(future, "PRAGMA user_version = 2;")
        XCTAssertThrowsError(try HistoryStore(path: future)) { e in
            XCTAssertEqual((e as? HistoryError)?.kind, .notAHistoryDatabase)
            XCTAssertEqual("\(e)", "\(future) is a strata-bench history database of schema version 2; this strata-bench reads version 1")
        }

        // An empty database: given the schema when written, refused when only read.
        let empty = path("empty.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        XCTAssertThrowsError(try HistoryStore(path: empty, mode: .readOnly)) { e in
            XCTAssertEqual("\(e)", "\(empty) is not a strata-bench history database (an empty SQLite database)")
        }
        let created = try HistoryStore(path: empty, mode: .readWrite)
        XCTAssertEqual(try created.runCount(), 0)
        XCTAssertEqual(try HistoryStore(path: empty, mode: .readOnly).machines(), [])
    }

    /// Runs SQL on a database file directly.
    func sqlite(_ file: String, _ sql: String) throws {
        var db: OpaquePointer?
        XCTAssertEqual(sqlite3_open_v2(file, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil), SQLITE_OK)
        defer { sqlite3_close(db) }
        XCTAssertEqual(sqlite3_exec(db, sql, nil, nil, nil), SQLITE_OK, String(cString: sqlite3_errmsg(db)))
    }

    // MARK: Change points

    func test_aFlatNoisySeriesHasNoChangePoint() {
        let detector = ChangePointDetector()
        func flat(_ seed: UInt64) -> [Double] { Self.noise(seed: seed, count: 20).map { 100 * (1 + 0.02 * $0) } }
        XCTAssertEqual(detector.detect(flat(1)), [])
        // Across seeds false alarms stay rare: each test has p ≤ 0.05, binary segmentation tests
        // a few segments per series, and steps under 1% are dropped; about 1 series in 10 of
        // 20 commits with ±2% noise shows a (small) step.
        let alarms = (1...100).filter { !detector.detect(flat(UInt64($0))).isEmpty }
        XCTAssertLessThanOrEqual(alarms.count, 12, "seeds with a change point: \(alarms)")
        XCTAssertEqual(detector.detect([]), [])
        XCTAssertEqual(detector.detect([1, 2, 3, 4, 5]), [], "too short to split 3 + 3")
        XCTAssertEqual(detector.detect([Double](repeating: 5, count: 30)), [])
    }

    func test_aTenPercentStepInNoiseIsFoundAtItsIndex() {
        let noise = Self.noise(seed: 11, count: 15)
        let values = (0..<15).map { i in (i < 7 ? 100.0 : 110.0) * (1 + 0.01 * noise[i]) }
        let changes = ChangePointDetector().detect(values)
        XCTAssertEqual(changes.map(\.index), [7])
        XCTAssertEqual(changes[0].relativeChange ?? 0, 0.10, accuracy: 0.02)
        XCTAssertEqual(changes[0].before, median(Array(values[0..<7])))
        XCTAssertEqual(changes[0].after, median(Array(values[7...])))
        XCTAssertLessThanOrEqual(changes[0].pValue, 0.01)
        // Reproducible: the permutation test is seeded.
        XCTAssertEqual(ChangePointDetector().detect(values), changes)
    }

    func test_deterministicCountsStepAtTheExactIndexAndWobbleIsIgnored() {
        let step = (0..<10).map { $0 < 4 ? 2000.0 : 2100.0 }
        let changes = ChangePointDetector().detect(step)
        XCTAssertEqual(changes.map { [Double($0.index), $0.before, $0.after] }, [[4, 2000, 2100]])
        XCTAssertEqual(changes.first?.relativeChange ?? 0, 0.05, accuracy: 1e-12)
        XCTAssertLessThanOrEqual(changes.first?.pValue ?? 1, 0.05)
        // A 0.01% wobble is a distribution change to the statistic, but below the 1% minimum.
        let wobble = (0..<16).map { 2000.0 * (1 + ($0 < 8 ? 0 : 0.0001)) }
        XCTAssertEqual(ChangePointDetector().detect(wobble), [])
        XCTAssertEqual(ChangePointDetector(minimumRelativeChange: 0).detect(wobble).map(\.index), [8])
        // A step from zero (no malloc to one) has no relative size but is reported.
        let fromZero = ChangePointDetector().detect([0, 0, 0, 0, 1, 1, 1, 1])
        XCTAssertEqual(fromZero.map(\.index), [4])
        XCTAssertNil(fromZero.first?.relativeChange)
    }

    func test_twoStepsAreBothFound() {
        let noise = Self.noise(seed: 3, count: 24)
        let levels: [Double] = (0..<24).map { $0 < 8 ? 100 : $0 < 16 ? 120 : 105 }
        let values = zip(levels, noise).map { $0 * (1 + 0.01 * $1) }
        let changes = ChangePointDetector().detect(values)
        XCTAssertEqual(changes.map(\.index), [8, 16])
        XCTAssertEqual(changes[0].relativeChange ?? 0, 0.20, accuracy: 0.03)
        XCTAssertEqual(changes[1].relativeChange ?? 0, 105.0 / 120 - 1, accuracy: 0.03)
        XCTAssertEqual(changes[0].after, changes[1].before, "adjacent segments share a median")
        // Deterministic counts: exact indices and medians.
        let counts: [Double] = (0..<15).map { $0 < 5 ? 10 : $0 < 11 ? 12 : 11 }
        XCTAssertEqual(ChangePointDetector().detect(counts).map { [Double($0.index), $0.before, $0.after] }, [[5, 10, 12], [11, 12, 11]])
        // A shorter minimum segment finds a step 2 from the end.
        let late: [Double] = (0..<16).map { $0 < 14 ? 10 : 14 }
        XCTAssertFalse(ChangePointDetector().detect(late).contains { $0.index == 14 })
        XCTAssertEqual(ChangePointDetector(minimumSegment: 2).detect(late).map(\.index), [14])
    }

    func test_theStatisticPeaksAtTheSplit() throws {
        let split = try XCTUnwrap(ChangePointDetector.bestSplit([1, 1, 1, 1, 5, 5, 5], minimumSegment: 3))
        XCTAssertEqual(split.tau, 4)
        // m = 4, k = 3: within-distances 0, cross 4 each: Q = 12/7 · 2·48/12 = 96/7.
        XCTAssertEqual(split.q, 96.0 / 7, accuracy: 1e-12)
        XCTAssertNil(ChangePointDetector.bestSplit([1, 2, 3, 4, 5], minimumSegment: 3))
    }

    // MARK: The command

    /// `strata-bench history add/show/machines` as CI runs them (the debug build's executable,
    /// built with the tests by `swift build --build-tests`).
    func test_theHistoryCommandAddsAndShowsReports() throws {
        // Beside this test bundle (`<scratch>/debug/`): `swift build --build-tests` builds every
        // product, under the sanitizers' scratch paths too.
        let exe = try builtStrataBench()
        let db = path("ci/history.sqlite")

        var reports: [String] = []
        for i in 0..<12 {
            let report = Self.block(commit: Self.sha(i), createdAt: Self.date(i), times: ["frame/a": 100 + Double(i % 2)],
                                    counts: ["frame/a": (i < 7 ? 1000 : 1123, 2)])
            let file = path("r\(i).json")
            try ReportBuilder.document(["benchmarks": []], strata: report).write(to: URL(fileURLWithPath: file))
            reports.append(file)
        }
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path("broken.json")))

        var (status, output) = try runProcess(exe, ["history", "show", "--db", db])
        XCTAssertEqual(status, 66, output)
        XCTAssertTrue(output.contains("no history database at \(db): create one with `strata-bench history add"), output)

        (status, output) = try runProcess(exe, ["history", "add", "--db", db, reports[0], path("broken.json"), reports[1]])
        XCTAssertEqual(status, 65, output)
        XCTAssertTrue(output.contains("\(reports[0]): added run 1: commit c0ffee0, \(Self.date(0)), machine "), output)
        XCTAssertTrue(output.contains("strata-bench: \(path("broken.json")) is not valid JSON: line 1"), output)
        XCTAssertTrue(output.contains("\(reports[1]): added run 2"), output)

        (status, output) = try runProcess(exe, ["history", "add", "--db", db] + reports + [path("missing.json")])
        XCTAssertEqual(status, 66, output)
        XCTAssertTrue(output.contains("\(reports[0]): already present (run 1"), output)
        XCTAssertTrue(output.contains("\(reports[11]): added run 12"), output)
        XCTAssertTrue(output.contains("\(path("missing.json")): no such file"), output)

        let json = path("trends.json")
        (status, output) = try runProcess(exe, ["history", "show", "--db", db, "--benchmark", "^frame/a$", "--json", json])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("frame/a  instructions (instr/item), 12 commits, 12 runs"), output)
        XCTAssertTrue(output.contains("c0ffee0 1000  c0ffee1 1000"), output)
        XCTAssertTrue(output.contains("| c0ffee7 1123"), output)
        XCTAssertTrue(output.contains("step +12.3% at c0ffee7 (p=0.0"), output)
        XCTAssertTrue(output.contains(", median 1000 → 1123 instr/item)"), output)
        XCTAssertTrue(output.contains("frame/a  time (ns/item), 12 commits"), output)
        XCTAssertTrue(output.contains("3 series, 1 with change points"), output)

        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let trends = try XCTUnwrap(doc["trends"] as? [[String: Any]])
        let instructions = try XCTUnwrap(trends.first { $0["metric"] as? String == "instructions" })
        let steps = try XCTUnwrap(instructions["change_points"] as? [[String: Any]])
        XCTAssertEqual(steps.count, 1)
        XCTAssertEqual(steps.first?["commit"] as? String, Self.sha(7))
        XCTAssertEqual(steps.first?["index"] as? Int, 7)
        XCTAssertEqual((instructions["points"] as? [Any])?.count, 12)

        // The last 10 commits: 5 before the step, 5 after.
        (status, output) = try runProcess(exe, ["history", "show", "--db", db, "--metric", "instructions", "--last", "10", "--changes-only"])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("frame/a  instructions (instr/item), 10 commits, 10 runs"), output)
        XCTAssertFalse(output.contains("mallocs"), output)
        XCTAssertTrue(output.contains("step +12.3% at c0ffee7"), output)

        (status, output) = try runProcess(exe, ["history", "show", "--db", db, "--metric", "bogus"])
        XCTAssertEqual(status, 64, output)
        (status, output) = try runProcess(exe, ["history", "show", "--db", db, "--machine", "zzzzzzzz"])
        XCTAssertEqual(status, 64, output)

        (status, output) = try runProcess(exe, ["history", "machines", "--db", db])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("12 runs of 12 commits"), output)

        (status, output) = try runProcess(exe, ["history", "show", "--db", path("broken.json")])
        XCTAssertEqual(status, 65, output)
        XCTAssertTrue(output.contains("is not a strata-bench history database (file is not a database)"), output)
    }
}
