import Strata
import XCTest
@testable import StrataBench
@testable import StrataBenchSuites
@_spi(Benchmarks) import Strata
import StrataScript
import StrataScriptFast

/// Every suite's fixtures build, pass their own preconditions and run; frame-time statistics
/// on known inputs; scenes are deterministic.
final class SuiteTests: XCTestCase {
    /// Builds each case, runs it (with its reset) twice, and checks the engine is left clean.
    func exercise(_ cases: [BenchmarkCase], file: StaticString = #filePath, line: UInt = #line) {
        let baseLayers = StrataEngine.layerCount
        for c in cases {
            do {
                let w = try c.make()
                for _ in 0..<2 { w.reset?(); w.run() }
            } catch {
                XCTFail("\(c.name): \(error)", file: file, line: line)
            }
            XCTAssertEqual(StrataEngine.layerCount, baseLayers, "\(c.name) left layers behind", file: file, line: line)
        }
    }

    func test_commitCasesBuildAndRun() {
        let cases = CommitSuite.cases().filter { Int($0.parameters["n"]!)! <= 1_000 }
        XCTAssertEqual(cases.count, (CommitSuite.Variant.allCases.count + 2 + CommitSuite.Explicit.allCases.count) * 2,
                       "each variant, retire, retire-churn and the explicit adds, at 100 and 1000")
        exercise(cases)
    }

    func test_lookupCasesBuildRunAndEveryStrategyAgrees() throws {
        let cases = LookupSuite.cases()
        XCTAssertEqual(cases.count, LookupSuite.outcomes.count * 3)
        exercise(cases)
        // The outcome each fixture claims, through the same SPI the benchmark times.
        for (name, make) in LookupSuite.outcomes {
            let f = make()
            let tally = LookupBatch(keys: f.keys).run(on: f.layer, strategy: .chain)
            if let e = f.expected {
                XCTAssertEqual(tally[e.rawValue], LookupSuite.batch, name)
            }
        }
    }

    func test_treeWorkloadsBuildAndRunForEveryOperationAndShape() {
        // The suite's own workloads at a small N (the smallest benchmarked size is slow in a
        // debug build); the cases' names and parameters are checked separately.
        var cases: [BenchmarkCase] = []
        for op in TreeSuite.Operation.allCases {
            for shape in TreeSuite.Shape.allCases {
                cases.append(BenchmarkCase("tree-test/\(op)/\(shape)", items: 1, item: "layer", resets: op == .build) {
                    try TreeSuite.workload(op, shape, 2_000)
                })
            }
        }
        exercise(cases)
        let tree = TreeSuite.cases()
        // Every operation, shape and size (the 1e6 chain under a timed root too: a change no
        // longer walks to the timed root, so its set-up is linear).
        XCTAssertEqual(tree.count, TreeSuite.Operation.allCases.count * TreeSuite.Shape.allCases.count * TreeSuite.sizes.count)
        XCTAssertTrue(tree.allSatisfy { $0.parameters["shape"] != nil && $0.parameters["operation"] != nil })
    }

    func test_snapshotWorkloadsBuildPassTheirPreconditionsAndRunForEveryShapeAndShare() {
        // Every body at a small N (1e3 is the smallest benchmarked size), every share animated:
        // 100% is a full pass, 1% and 10% updates; the cases name their floors and baselines.
        var cases: [BenchmarkCase] = []
        for shape in TreeSuite.Shape.allCases {
            for (body, pct) in [(SnapshotSuite.Body.full, 0), (.update, 1), (.update, 10), (.update, 100), (.presentation, 0), (.presentationCopy, 0)] {
                cases.append(BenchmarkCase("snapshot-test/\(body)/\(shape)/\(pct)", items: 1, item: "layer") {
                    try SnapshotSuite.workload(body, shape, 1_000, animatedPercent: pct)
                })
            }
        }
        cases.append(BenchmarkCase("snapshot-test/call", items: 1, item: "call") { try SnapshotSuite.presentationCallWorkload(read: false) })
        cases.append(BenchmarkCase("snapshot-test/read", items: 1, item: "read") { try SnapshotSuite.presentationCallWorkload(read: true) })
        for readout in [false, true] {
            cases.append(BenchmarkCase("snapshot-test/frame/\(readout)", items: 1, item: "layer") { try makeSnapshotFrameWorkload(n: 1_000, readout: readout) })
        }
        exercise(cases)
        let all = SnapshotSuite.cases()
        let names = Set(all.map(\.name))
        for c in all {
            for key in ["floor", "relativeTo"] {
                if let other = c.parameters[key] { XCTAssertTrue(names.contains(other), "\(c.name): its \(key) \(other) is not a case") }
            }
        }
        XCTAssertEqual(all.filter { $0.parameters["kind"] == "update" }.count, TreeSuite.Shape.allCases.count * SnapshotSuite.sizes.count * 3)
    }

    func test_caseNamesAreUniqueAcrossSuites() {
        let names = Suites.names.flatMap { Suites.cases($0).map(\.name) }
        XCTAssertEqual(Set(names).count, names.count)
        for n in Suites.countedNames { XCTAssertTrue(names.contains(n), "counted body \(n) is not a benchmark") }
    }

    func test_frameTimeStatisticsOnKnownFrames() {
        var r = FrameTimeRecorder()
        for _ in 0..<97 { r.record(frameNanoseconds: 5_000_000, renderNanoseconds: 1_000_000) }
        for _ in 0..<3 { r.record(frameNanoseconds: 20_000_000, renderNanoseconds: 2_000_000) }
        let s = r.result(name: "known", layers: 1, warmupFrames: 0, description: "")
        XCTAssertEqual(s.frames, 100)
        XCTAssertEqual(s.p50, 5, accuracy: 0.01)
        XCTAssertEqual(s.max, 20, accuracy: 1e-9)
        XCTAssertEqual(s.withinBudget16, 0.97, accuracy: 1e-12)
        XCTAssertEqual(s.withinBudget8, 0.97, accuracy: 1e-12)
        // Each 20 ms frame spans two 60 Hz refreshes: one dropped each.
        XCTAssertEqual(s.droppedFrames, 3)
        // 3 x 3.333 ms beyond budget over 103 refreshes of 16.667 ms.
        XCTAssertEqual(s.hitchMsPerSecond, 3 * (20 - 16.666667) / (103 * 0.016666667), accuracy: 1e-3)
        XCTAssertEqual(s.histogram.reduce(0) { $0 + $1[1] }, 100)
        XCTAssertEqual(s.renderP99, 2, accuracy: 0.01)
        let empty = FrameTimeRecorder().result(name: "none", layers: 0, warmupFrames: 0, description: "")
        XCTAssertEqual(empty.frames, 0)
        XCTAssertEqual(empty.hitchMsPerSecond, 0)
        XCTAssertTrue([empty.p50, empty.mean, empty.withinBudget8].allSatisfy(\.isFinite))
    }

    /// Scenes time prepared operations (layers, key paths and values resolved beforehand):
    /// they must leave exactly what the operations themselves leave.
    func test_preparedSceneOperationsHaveTheOperationsEffect() throws {
        let script = try XCTUnwrap(Scenes.script("stress-100k", frames: 4))
        // Setup up to and with the first frame, then one chunk per frame.
        var chunks: [[Op]] = [[]]
        for op in script.ops {
            chunks[chunks.count - 1].append(op)
            if case .frame = op { chunks.append([]) }
        }
        let reads: [Op] = stride(from: 0, to: 2_000, by: 7).flatMap { id in
            ["opacity", "position", "bounds", "backgroundColor"].map { Op.read(layer: id, keyPath: $0) }
        }
        let frames = chunks
        // Each variant on a thread of its own: a fresh engine.
        func run(prepared: Bool) -> ([TraceEntry], Int) {
            var out: ([TraceEntry], Int) = ([], 0)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                let session = ScriptSession(typedSetters: true)
                session.apply(frames[0])
                var typed = 0
                for chunk in frames.dropFirst() {
                    if prepared {
                        let p = session.prepare(chunk)
                        typed += chunk.count - p.otherCount
                        session.apply(p)
                    } else {
                        session.apply(chunk)
                    }
                }
                session.apply(reads)
                out = (session.trace, typed)
                session.finish()
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
            done.wait()
            return out
        }
        let (plain, _) = run(prepared: false)
        let (resolved, typed) = run(prepared: true)
        XCTAssertEqual(plain.count, reads.count)
        XCTAssertEqual(resolved, plain)
        XCTAssertGreaterThan(typed, 30_000, "most of the frames' operations became direct setter calls")
    }

    func test_sceneScriptsAreDeterministicAndScenesRun() throws {
        let a = try XCTUnwrap(Scenes.script("app-10k", frames: 3))
        XCTAssertEqual(a, Scenes.script("app-10k", frames: 3))
        let frames = a.ops.filter { if case .frame = $0 { return true } else { return false } }.count
        XCTAssertEqual(frames, 4)   // frame 0 of the set-up, then 3
        XCTAssertNil(Scenes.script("no-such-scene", frames: 1))
        let layersHere = StrataEngine.layerCount
        let result = try Scenes.run("app-10k", quick: true)
        XCTAssertEqual(StrataEngine.layerCount, layersHere, "the scene ran on an engine of its own")
        XCTAssertEqual(result.frames, try Scenes.load("app-10k").quickFrames)
        XCTAssertEqual(result.frames, 200)
        XCTAssertEqual(result.warmupFrames, 30)
        XCTAssertEqual(result.layers, 10_101)
        XCTAssertGreaterThan(result.p50, 0)
        XCTAssertLessThanOrEqual(result.p50, result.p99)
        XCTAssertLessThanOrEqual(result.renderP50, result.p99)
        XCTAssertEqual(result.frameTimesMs.count, result.frames)
        // Memory: read after the warm-up, every tenth of the run and at the end.
        let memory = try XCTUnwrap(result.memory)
        XCTAssertEqual(memory.samples.map(\.frame), Array(stride(from: 30, through: 230, by: 20)))
        XCTAssertTrue(memory.samples.allSatisfy { $0.layers == 10_101 && $0.animations > 1_000 && $0.storeBytes > 0 })
        XCTAssertGreaterThan(memory.samples[0].residentBytes, 1 << 20)
        // A layer's row: tree, flags, and model + presentation lanes of the properties the
        // scene uses (position, bounds, opacity, colour: 2 x 11 doubles at least).
        XCTAssertGreaterThan(memory.bytesPerLayer, 2 * 11 * 8)
        XCTAssertLessThan(memory.bytesPerLayer, 2_000)
        XCTAssertGreaterThan(memory.bytesPerAnimation, 40)
        XCTAssertEqual(memory.peakStoreBytes, memory.samples.map(\.storeBytes).max())
        // A fresh engine: its stores hold the scene's 10,101 layers, not an earlier fixture's.
        XCTAssertLessThan(memory.samples[0].storeBytes, 20 << 20)
        XCTAssertThrowsError(try Scenes.run("no-such-scene", quick: true))
    }
}
