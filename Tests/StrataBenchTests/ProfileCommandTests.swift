import Foundation
import StrataBench
import StrataProfiler
@testable import StrataBenchmark
import StrataReportModel
import XCTest

/// `strata-bench profile` on whole suites: case by case in bounded memory, within its time
/// budget, with progress, and stopped by a signal with the finished cases written.
final class ProfileCommandTests: TemporaryDirectoryTestCase {
    var exe: String { strataBenchExecutable }
    let env = ["ASAN_OPTIONS": "detect_leaks=0"]
    let configuration = SamplingProfiler.Configuration(rate: 500, unwinder: .fp, clock: .wall)

    /// Cases whose fixtures hold `megabytes` each (pages touched), noting the resident memory
    /// when each is made and how many fixtures are alive then.
    final class Fixtures {
        final class Block {
            let bytes: [UInt8]
            unowned let owner: Fixtures
            init(_ megabytes: Int, _ owner: Fixtures) {
                bytes = [UInt8](repeating: 1, count: megabytes << 20)
                self.owner = owner
                owner.alive += 1
            }
            deinit { owner.alive -= 1 }
        }
        var alive = 0, mostAlive = 0
        var residentAtMake: [Int] = []

        /// `iterations` > 0: a fixed count, run whatever the case's share of the budget (so a
        /// busy machine makes the run longer, never shorter by a skipped case).
        func cases(_ n: Int, megabytes: Int, failing: Int? = nil, iterations: Int = 0) -> [BenchmarkCase] {
            (0..<n).map { i in
                BenchmarkCase("test/fixture/\(i)", items: 1, item: "block", iterations: iterations) { [unowned self] in
                    if i == failing { throw BenchmarkError("the fixture's precondition failed") }
                    self.residentAtMake.append(ResidentMemory.currentBytes() ?? 0)
                    let block = Block(megabytes, self)
                    self.mostAlive = max(self.mostAlive, self.alive)
                    var sum = 0
                    return Workload(retaining: [block]) { sum &+= Int(block.bytes[sum & 0xFFFF]) }
                }
            }
        }
    }

    /// (Fixed iterations and a budget far beyond them: what is judged is memory, and a busy
    /// machine must not turn it into a skipped case.)
    func test_casesArePreparedAndReleasedOneAtATime() throws {
        let f = Fixtures()
        let run = try ProfiledSuite(cases: f.cases(6, megabytes: 64, iterations: 2_000)).run(seconds: 600, configuration: configuration,
                                                                                             trace: TraceRecorder(processName: "t"))
        XCTAssertEqual(run.cases.map(\.name), (0..<6).map { "test/fixture/\($0)" })
        XCTAssertEqual(f.mostAlive, 1, "a fixture was alive while the next was made")
        XCTAssertEqual(f.alive, 0)
        // Six fixtures of 64 MiB held together would add 320 MiB between the first make and
        // the last; one at a time, the resident memory returns to where it was.
        let growth = f.residentAtMake.map { $0 - f.residentAtMake[0] }
        XCTAssertLessThan(growth.max()!, 48 << 20, "resident memory grew case by case: \(growth.map { $0 >> 20 }) MiB")
        XCTAssertFalse(run.interrupted)
        XCTAssertTrue(run.failures.isEmpty && run.skipped.isEmpty)
        XCTAssertTrue(run.cases.allSatisfy { $0.iterations >= ProfiledSuite.rounds && $0.profiledNanoseconds > 0 && $0.baselineNanoseconds > 0 })
    }

    func test_aFailingCaseIsNamedAndTheNextRuns() throws {
        let f = Fixtures()
        let run = try ProfiledSuite(cases: f.cases(3, megabytes: 1, failing: 1, iterations: 2_000)).run(
            seconds: 600, configuration: configuration, trace: TraceRecorder(processName: "t"))
        XCTAssertEqual(run.cases.map(\.name), ["test/fixture/0", "test/fixture/2"])
        XCTAssertEqual(run.failures, ["test/fixture/1: the fixture's precondition failed"])
    }

    func test_aStopEndsTheRunWithTheFinishedCasesOnly() throws {
        let f = Fixtures()
        var progress: [String] = []
        var checks = 0
        // The stop comes while the third case runs (its fixture made).
        let run = try ProfiledSuite(cases: f.cases(5, megabytes: 1)).run(
            seconds: 5, configuration: configuration, trace: TraceRecorder(processName: "t"),
            progress: { progress.append($0) }, shouldStop: { checks += 1; return f.residentAtMake.count >= 3 && checks % 50 == 0 })
        XCTAssertTrue(run.interrupted)
        XCTAssertEqual(run.cases.map(\.name), ["test/fixture/0", "test/fixture/1"])
        XCTAssertEqual(run.skipped, ["test/fixture/2", "test/fixture/3", "test/fixture/4"])
        XCTAssertEqual(f.alive, 0)
        // No sample of the unfinished case is kept: every sample predates its start.
        let lastFinished = try XCTUnwrap(progress.last { $0.hasPrefix("[2/5] test/fixture/1: ") && $0.contains("iterations in") })
        XCTAssertTrue(lastFinished.contains("samples so far"), lastFinished)
        XCTAssertTrue(progress.contains { $0.hasPrefix("[3/5] test/fixture/2: preparing") }, "\(progress)")
    }

    /// A scene's profiled frames are the frames `run` times: each takes the render snapshot
    /// of the scene's root between `render` and `endFrame`, on the timeline inside its frame.
    func test_sceneFramesTakeTheRenderSnapshotAsTimed() throws {
        let trace = TraceRecorder(processName: "t")
        let run = try ProfiledScene(name: "list-1k").run(seconds: 2, configuration: configuration, trace: trace)
        XCTAssertFalse(run.interrupted)
        let events = trace.recorded.filter { $0.phase == .complete }
        let frames = events.filter { $0.name.hasPrefix("frame ") }
        let snapshots = events.filter { $0.name == "snapshot" }
        XCTAssertGreaterThan(frames.count, 10)
        XCTAssertEqual(snapshots.count, frames.count)
        for (f, s) in zip(frames, snapshots) {
            let render = try XCTUnwrap(events.last { $0.name == "render" && $0.start >= f.start && $0.start + $0.duration <= s.start })
            let end = try XCTUnwrap(events.first { $0.name == "endFrame" && $0.start >= s.start + s.duration })
            XCTAssertLessThanOrEqual(f.start, render.start)
            XCTAssertLessThanOrEqual(end.start + end.duration, f.start + f.duration)
            XCTAssertGreaterThan(s.duration, 0)
        }
        // The samples reach the snapshot builder (a scene of 1,000 layers: its full passes
        // and updates are a large share of each frame).
        let stacks = run.profile.symbolicated().folded()
        XCTAssertTrue(stacks.contains("SnapshotBuilder"), "no sample in the render snapshot")
    }

    /// The budget is kept by the run's own clock: no case starts once it is spent, and the
    /// cases left are listed. (Judged from the run's record of when each case started, not by
    /// timing the whole run from outside: a busy machine stretches every sleep and preparation,
    /// and the run must still stop starting cases at its budget.)
    func test_theBudgetHoldsForTheWholeRun() throws {
        let f = Fixtures()
        // 40 cases whose preparation alone takes 50 ms each: 2 s for all of them, in a 1 s budget.
        let cases = f.cases(40, megabytes: 1).map { c -> BenchmarkCase in
            var slow = c
            slow.make = { Thread.sleep(forTimeInterval: 0.05); return try c.make() }
            return slow
        }
        var starts: [Double] = []
        let run = try ProfiledSuite(cases: cases).run(seconds: 1, configuration: configuration, trace: TraceRecorder(processName: "t"),
                                                      progress: { line in
            // "[k/40] test/fixture/k: preparing (0.4 s elapsed, ...)"
            guard let r = line.range(of: ": preparing ("), let s = Double(line[r.upperBound...].prefix { $0 != " " }) else { return }
            starts.append(s)
        })
        XCTAssertEqual(starts.count, run.cases.count, "a start for each case run")
        // Elapsed is printed to a tenth of a second: a start just before 1 s shows as 1.0.
        XCTAssertTrue(starts.allSatisfy { $0 <= 1.0 }, "a case started after the 1 s budget was spent: \(starts)")
        // Each case sleeps 50 ms before anything else: at most 21 fit in 1 s, fewer when slower.
        XCTAssertLessThanOrEqual(run.cases.count, 21)
        XCTAssertGreaterThan(run.cases.count, 0)
        XCTAssertFalse(run.skipped.isEmpty)
        XCTAssertEqual(run.cases.count + run.skipped.count, 40)
        XCTAssertFalse(run.interrupted)
    }

    /// The frame suite's every family at small sizes (and its small floors), as a user runs it:
    /// one case at a time, so memory stays under a ceiling far below what holding them all took.
    func test_wholeFrameSuiteAtSmallSizesUnderAMemoryCeiling() throws {
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            return XCTFail("\(exe) is not built: run `swift build --build-tests` before `swift test --skip-build`")
        }
        let out = path("frame")
        let (status, output) = try runProcess(exe, ["profile", "frame", "--filter", "/(100|1000)$|^frame/floor/[0-9]{1,5}$",
                                                    "--seconds", "20", "--hz", "250", "--unwinder", "fp", "--out", out], environment: env)
        XCTAssertEqual(status, 0, output)
        let listed = try runProcess(exe, ["list", "--suite", "frame", "--filter", "/(100|1000)$|^frame/floor/[0-9]{1,5}$"]).output
            .split(separator: "\n").count
        XCTAssertGreaterThan(listed, 40)
        XCTAssertTrue(output.contains("cases profiled: \(listed)") || output.contains("not profiled:"), output)
        XCTAssertTrue(output.contains("[1/\(listed)] "), output)
        let marker = try XCTUnwrap(output.range(of: "peak resident memory "), output)
        let peak = try XCTUnwrap(Int(output[marker.upperBound...].prefix { $0.isNumber }), output)
        XCTAssertLessThan(peak, 1_024, "peak resident memory \(peak) MiB")
        for file in ["profile.folded", "profile.speedscope.json", "profile.pprof", "trace.json", "flamegraph.html"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/" + file), file)
        }
        // Source lines: the hottest function's hottest line is a line of one of the project's
        // source files, in the printout and the page; speedscope frames carry file and line.
        let lines = try XCTUnwrap(output.range(of: "hottest source lines (self samples of the top functions, by line)\n"), output)
        let hottest = output[lines.upperBound...].split(separator: "\n").dropFirst().first { $0.contains(".swift:") }
        let position = try XCTUnwrap(hottest.flatMap { $0.split(separator: " ").last }, output)
        let parts = position.split(separator: ":")
        let file = String(parts[0]), line = Int(parts[1]) ?? 0
        let source = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(file.contains("/Sources/") || file.contains("/Benchmarks/"), file)
        XCTAssertTrue((1...source.split(separator: "\n", omittingEmptySubsequences: false).count).contains(line), "\(position)")
        let page = try String(contentsOfFile: out + "/flamegraph.html", encoding: .utf8)
        XCTAssertTrue(page.contains("Hottest source lines") && page.contains(String(position)), String(position))
        let speedscope = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/profile.speedscope.json"))) as? [String: Any])
        let frames = try XCTUnwrap((speedscope["shared"] as? [String: Any])?["frames"] as? [[String: Any]])
        XCTAssertTrue(frames.contains { ($0["file"] as? String ?? "").hasSuffix(".swift") && ($0["line"] as? Int ?? 0) > 0 }, "no frame with a line")
    }

    /// SIGTERM while the suite runs: the profile of the cases finished is written, exit 143.
    func test_sigtermWritesTheFinishedCases() throws {
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            return XCTFail("\(exe) is not built: run `swift build --build-tests` before `swift test --skip-build`")
        }
        let out = path("stopped")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = ["profile", "frame", "--filter", "/(100|1000)$", "--seconds", "60", "--hz", "250", "--unwinder", "fp", "--out", out]
        p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        var text = ""
        // Until the second case starts (the first finished), then SIGTERM.
        while p.isRunning && !text.contains("[2/") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        p.terminate()
        text += String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit, text)
        XCTAssertEqual(p.terminationStatus, 143, text)
        XCTAssertTrue(text.contains("stopped by SIGTERM"), text)
        XCTAssertTrue(text.contains("not profiled:") && text.contains("the run was stopped"), text)
        let folded = try String(contentsOfFile: out + "/profile.folded", encoding: .utf8)
        XCTAssertFalse(folded.isEmpty, "the finished case's samples")
    }

    /// `profile-diff` on two profile folders: the two-column folded file, the coloured page,
    /// the lists, and the exit codes of a missing or malformed input.
    func test_profileDiffWritesTheDifferentialGraphAndListsTheChanges() throws {
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            return XCTFail("\(exe) is not built: run `swift build --build-tests` before `swift test --skip-build`")
        }
        for (dir, text) in [("before", "main;render;kernel 20\nmain;commit 80\n"), ("after", "main;render;kernel 60\nmain;commit 40\n")] {
            try FileManager.default.createDirectory(atPath: path(dir), withIntermediateDirectories: true)
            try text.write(toFile: path(dir) + "/profile.folded", atomically: true, encoding: .utf8)
        }
        let (status, output) = try runProcess(exe, ["profile-diff", path("before"), path("after"), "--out", path("diff")])
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(try String(contentsOfFile: path("diff") + "/diff.folded", encoding: .utf8),
                       "main;render;kernel 20 60\nmain;commit 80 40\n")
        XCTAssertTrue(output.contains("grew most (share of samples, where the change comes from):\n  +40.00 points   20.0% ->  60.0%  kernel"), output)
        XCTAssertTrue(output.contains("shrank most:\n  -40.00 points   80.0% ->  40.0%  commit"), output)
        let page = try String(contentsOfFile: path("diff") + "/diff-flamegraph.html", encoding: .utf8)
        XCTAssertTrue(page.contains("red grew, blue shrank"), page)
        // The report embeds the differential file as it embeds a profile.
        XCTAssertTrue(try FlameGraph(folded: String(contentsOfFile: path("diff") + "/diff.folded", encoding: .utf8)).isDifferential)
        // A missing profile: 66; a malformed one: 65, naming the side and line.
        XCTAssertEqual(try runProcess(exe, ["profile-diff", path("nowhere"), path("after"), "--out", path("x")]).status, 66)
        try "main;a b\n".write(toFile: path("bad.folded"), atomically: true, encoding: .utf8)
        let bad = try runProcess(exe, ["profile-diff", path("bad.folded"), path("after"), "--out", path("x")])
        XCTAssertEqual(bad.status, 65, bad.output)
        XCTAssertTrue(bad.output.contains("line 1: before: 'b' is not a positive sample count"), bad.output)
    }
}
