import Foundation
import StrataReportModel
import XCTest

/// Benchmarks/Examples/MyAppBenchmarks: a package of its own that depends on Strata (by URL and
/// version; here by path, STRATA_CHECKOUT),
/// declares two benchmark cases and a scene in Swift, and runs them with strata-bench's
/// command line (StrataBenchmark), as a user would. `scripts/test` builds it into the project's
/// own scratch folder, reusing Strata's modules, and names the executable in
/// STRATA_EXAMPLE_EXECUTABLE; without that, the test builds it here into the example's own
/// `.build` (a whole debug build of Strata's graph: minutes).
final class ExamplePackageTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let package = root.appendingPathComponent("Benchmarks/Examples/MyAppBenchmarks")

    func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        try runProcess(executable, arguments)
    }

    /// The example's executable: the one scripts/test built, or one built here.
    func exampleExecutable() throws -> String {
        if let built = ProcessInfo.processInfo.environment["STRATA_EXAMPLE_EXECUTABLE"], !built.isEmpty {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: built), "STRATA_EXAMPLE_EXECUTABLE names \(built)")
            return built
        }
        let swift = ["/usr/bin/swift", "/usr/local/bin/swift"].first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? ProcessInfo.processInfo.environment["PATH"].flatMap { path in
                path.split(separator: ":").map { "\($0)/swift" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            }
        let swiftPath = try XCTUnwrap(swift, "the swift driver is on PATH")
        let (built, log) = try run("/usr/bin/env", ["STRATA_CHECKOUT=../../..", swiftPath, "build", "--package-path", Self.package.path])
        XCTAssertEqual(built, 0, String(log.suffix(3000)))
        let exe = Self.package.appendingPathComponent(".build/debug/my-app-benchmarks").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: exe))
        return exe
    }

    func test_theExamplePackageBuildsAndRunsItsCasesAndSceneThroughTheSameCommands() throws {
        let exe = try exampleExecutable()

        let (listed, list) = try run(exe, ["list"])
        XCTAssertEqual(listed, 0, list)
        XCTAssertEqual(list.split(separator: "\n").map(String.init),
                       ["my-app/pulse-badges/1000\t1000 badges", "my-app/move-cards/100\t100 cards", "scene/my-app-feed"])

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-example-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("latest.json").path
        let (ran, output) = try run(exe, ["run", "--quick", "--repetitions", "1", "--min-time", "0.001", "--no-players", "--count-layouts", "1", "--count-iterations", "2",
                                          "--count-scene-layouts", "1", "--count-frames", "12", "--out", json])
        XCTAssertEqual(ran, 0, String(output.suffix(3000)))
        let data = try Data(contentsOf: URL(fileURLWithPath: json))
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let names = Set((doc["benchmarks"] as? [[String: Any]] ?? []).compactMap { $0["run_name"] as? String })
        XCTAssertEqual(names, ["my-app/pulse-badges/1000", "my-app/move-cards/100"])
        let strata = try XCTUnwrap(doc["strata"] as? [String: Any])
        let scenes = try XCTUnwrap(strata["scenes"] as? [[String: Any]])
        XCTAssertEqual(scenes.count, 1)
        XCTAssertEqual(scenes.first?["name"] as? String, "my-app-feed")
        XCTAssertEqual(scenes.first?["frames"] as? Int, 120)
        XCTAssertEqual(scenes.first?["layers"] as? Int, 601, "300 cards, 300 badges and the root")
        let counts = try XCTUnwrap(strata["counts"] as? [[String: Any]])
        XCTAssertEqual(counts.map { $0["name"] as? String }, ["my-app/pulse-badges/1000", "scene/my-app-feed"],
                       "the case it asked to be counted, and its Swift scene's frame cost")
        XCTAssertGreaterThan(counts.first?["mallocs_per_item"] as? Double ?? 0, 0, "adding an animation allocates")
        XCTAssertEqual(counts.first?["iterations"] as? Int, 2, "--count-iterations: the body counted twice")
        // The scene written in Swift, counted frame by frame: its code is the setters phase.
        let frames = try XCTUnwrap(counts.last?["frames"] as? [String: Any])
        XCTAssertEqual(frames["frames"] as? Int, 12)
        XCTAssertEqual(frames["warmup_frames"] as? Int, 20)
        let series = try XCTUnwrap(frames["instructions_series"] as? [Double])
        XCTAssertEqual(series.count, 12)
        XCTAssertTrue(series.allSatisfy { $0 > 1000 }, "\(series)")
        let phases = try XCTUnwrap(frames["phases"] as? [[String: Any]])
        XCTAssertEqual(phases.compactMap { $0["name"] as? String }, ["setters", "commit", "render", "snapshot", "endFrame"])
        XCTAssertGreaterThan(phases[0]["instructions_per_frame"] as? Double ?? 0, 0, "the scene's own code moves cards")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("latest.html").path))

        // compare and its gate, as with strata-bench's own reports.
        let (compared, verdicts) = try run(exe, ["compare", json, json, "--gate", "counts"])
        XCTAssertEqual(compared, 0, verdicts)
        // Against an unrelated baseline (Strata's own): nothing in common, and the gate fails
        // (5), naming the figures on one side only, instead of passing on nothing.
        let strataBaseline = Self.root.appendingPathComponent("reports/baseline.json").path
        let (unrelated, said) = try run(exe, ["compare", strataBaseline, json, "--gate", "counts"])
        XCTAssertEqual(unrelated, 5, said)
        XCTAssertTrue(said.contains("nothing was compared") && said.contains("my-app/pulse-badges/1000"), said)
        // `run --gate counts` gates as compare does: this run counts nothing, so against its
        // own report it compared nothing; the hint names this executable, not strata-bench.
        let (gated, gateOutput) = try run(exe, ["run", "--suite", "my-app", "--filter", "move-cards", "--no-counts", "--repetitions", "1",
                                                "--min-time", "0.001", "--no-players", "--baseline", json, "--gate", "counts",
                                                "--out", dir.appendingPathComponent("gated.json").path])
        XCTAssertEqual(gated, 5, String(gateOutput.suffix(3000)))
        XCTAssertTrue(gateOutput.contains("in the baseline but not in the head: my-app/pulse-badges/1000"), String(gateOutput.suffix(3000)))
        let (hinted, hint) = try run(exe, ["run", "--suite", "my-app", "--filter", "move-cards", "--no-counts", "--repetitions", "1",
                                           "--min-time", "0.001", "--no-players", "--baseline", json,
                                           "--out", dir.appendingPathComponent("hinted.json").path])
        XCTAssertEqual(hinted, 0, String(hint.suffix(3000)))
        XCTAssertTrue(hint.contains("`my-app-benchmarks compare "), String(hint.suffix(3000)))
        // A scene of its own alone, under two lookup strategies side by side.
        let (alone, text) = try run(exe, ["run", "--scene", "my-app-feed", "--strategy", "chain,cached", "--no-players", "--no-counts",
                                          "--out", dir.appendingPathComponent("scene.json").path, "--quick"])
        XCTAssertEqual(alone, 0, text)
        XCTAssertTrue(text.contains("| my-app-feed/chain | fast | chain |"), text)
        XCTAssertTrue(text.contains("| my-app-feed/cached | fast | cached |"), text)
        // A scene written in Swift has a player, as a scene file has.
        let page = dir.appendingPathComponent("feed.player.html").path
        let (played, playOutput) = try run(exe, ["scene", "player", "my-app-feed", "--frames", "30", "--out", page])
        XCTAssertEqual(played, 0, String(playOutput.suffix(3000)))
        XCTAssertTrue(playOutput.contains("recorded frames of 30;"), playOutput)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertTrue(html.contains("my-app-feed") && html.contains("<canvas"), String(html.prefix(500)))
        XCTAssertEqual(try run(exe, ["scene", "player", "no-such-feed", "--out", page]).0, 64)
        // Unknown options are usage errors, as with strata-bench.
        XCTAssertEqual(try run(exe, ["run", "--suite", "nope"]).0, 64)
    }

    /// Named baselines and the thresholds file on the example package: stored, checked, judged,
    /// with package-benchmark's exit statuses, first by the executable (what the plugin runs),
    /// then through `swift package strata` itself. The planted work is the harness's knob
    /// (STRATA_BENCH_INJECT_SLOWDOWN adds 10% to every counted frame of the package's own Swift
    /// scene): scripts/check-versioned-dependency plants it in the package's code, in release.
    func test_baselinesAndThresholdsOnTheExamplePackageThroughTheExecutableAndThePlugin() throws {
        let exe = try exampleExecutable()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-example-baselines-\(getpid())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = ["--baselines", dir.appendingPathComponent("baselines").path, "--thresholds", dir.appendingPathComponent("thresholds.json").path,
                     "--reports", dir.appendingPathComponent("reports").path]
        // The scene's frame cost only, one placement, 12 frames: seconds in a debug build.
        let selection = ["--counts-only", "--filter", "^scene/my-app-feed$", "--count-scene-layouts", "1", "--count-frames", "12"]
        func example(_ args: [String], slowdown: Bool = false) throws -> (Int32, String) {
            try runProcess(exe, args, environment: slowdown ? ["STRATA_BENCH_INJECT_SLOWDOWN": "10"] : [:])
        }

        var (status, out) = try example(["baseline", "update", "main"] + store + selection)
        XCTAssertEqual(status, 0, String(out.suffix(3000)))
        XCTAssertTrue(out.contains("baseline 'main' stored: \(dir.path)/baselines/main.json"), String(out.suffix(500)))
        (status, out) = try example(["baseline", "list"] + store)
        XCTAssertTrue(out.hasPrefix("main\t"), out)
        // The same code again: every figure unchanged, exit 0.
        (status, out) = try example(["baseline", "check", "main"] + store + selection)
        XCTAssertEqual(status, 0, String(out.suffix(3000)))
        XCTAssertTrue(out.contains("exit status 0 (gate: counts, against baseline 'main')"), String(out.suffix(1000)))
        // 10% more work in every frame: exit 2, the scene named, the Markdown summary written.
        let summary = dir.appendingPathComponent("summary.md").path
        (status, out) = try example(["baseline", "check", "main", "--markdown", summary] + store + selection, slowdown: true)
        XCTAssertEqual(status, 2, String(out.suffix(3000)))
        XCTAssertTrue(out.contains("regression") && out.contains("instructions-p50") && out.contains("scene/my-app-feed"), String(out.suffix(2000)))
        XCTAssertTrue(try String(contentsOfFile: summary, encoding: .utf8).contains("| regression | `scene/my-app-feed` | instructions-p50 |"))
        // Not found, and not a name: 5 and 64.
        XCTAssertEqual(try example(["baseline", "check", "nope"] + store + selection).0, 5)
        XCTAssertEqual(try example(["baseline", "update", "../escape"] + store).0, 64)

        // Thresholds recorded from the baseline; the planted run (the last report) fails them.
        (status, out) = try example(["thresholds", "update", "--baseline", "main"] + store)
        XCTAssertEqual(status, 0, out)
        let thresholds = try Thresholds.read(dir.appendingPathComponent("thresholds.json"))
        let p50 = try XCTUnwrap(thresholds.benchmarks["scene/my-app-feed"]?["instructions-p50"]?.value)
        XCTAssertGreaterThan(p50, 1000)
        (status, out) = try example(["thresholds", "check", "--baseline", "main", "--gate", "counts"] + store)
        XCTAssertEqual(status, 0, out)
        let planted = dir.appendingPathComponent("reports/latest.json").path
        (status, out) = try example(["thresholds", "check", "--from", planted, "--gate", "counts"] + store)
        XCTAssertEqual(status, 2, out)
        // A tolerance of 15% for this scene's instructions lets the 10% through; the other
        // figures (estimated cycles, at the default 1%) still fail.
        var loose = thresholds
        loose.benchmarks["scene/my-app-feed"]?["instructions-p50"]?.relative = 15
        loose.benchmarks["scene/my-app-feed"]?["instructions-p99"]?.relative = 15
        try loose.encoded().write(to: dir.appendingPathComponent("thresholds.json"))
        (status, out) = try example(["thresholds", "check", "--from", planted, "--gate", "counts"] + store)
        XCTAssertEqual(status, 2, out)
        XCTAssertFalse(out.contains("regression               instructions-p50"), out)
        XCTAssertTrue(out.contains("regression               estimated-cycles-p50"), out)
        (status, out) = try example(["thresholds", "read"] + store)
        XCTAssertTrue(out.contains("±15%") && out.contains("±1% (default)"), out)

        // Through the command plugin, as a team types it: it finds the benchmark executable,
        // builds it (here the debug build scripts/test made, in the project's scratch folder)
        // and runs the command from the package's folder. SwiftPM turns the plugin's status 2
        // into 1; the plugin's line names it.
        let swift = ["/usr/bin/swift", "/usr/local/bin/swift", "/opt/swift/usr/bin/swift"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let swiftPath = try XCTUnwrap(swift)
        // (`swift test` holds the scratch folder's lock while the tests run: --ignore-lock, the
        // build being one that scripts/test already made, so the plugin's build changes nothing.)
        let plugin = ["package", "--scratch-path", Self.root.appendingPathComponent(".build").path, "--ignore-lock", "strata", "--configuration", "debug"]
        (status, out) = try runProcess(swiftPath, plugin + ["baseline", "check", "main"] + store + selection, in: Self.package,
                                       environment: ["STRATA_CHECKOUT": "../../..", "STRATA_BENCH_INJECT_SLOWDOWN": "10"])
        XCTAssertEqual(status, 1, String(out.suffix(3000)))
        XCTAssertTrue(out.contains("strata: building my-app-benchmarks (debug)"), String(out.suffix(3000)))
        XCTAssertTrue(out.contains("strata: my-app-benchmarks exited with status 2: a regression"), String(out.suffix(3000)))
        (status, out) = try runProcess(swiftPath, plugin + ["baseline", "list"] + store, in: Self.package, environment: ["STRATA_CHECKOUT": "../../.."])
        XCTAssertEqual(status, 0, String(out.suffix(3000)))
        XCTAssertTrue(out.contains("main\t"), out)
    }
}
