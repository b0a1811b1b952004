import Foundation
import XCTest

/// `strata-bench ab` end to end with this build on both sides (no git build): the rounds,
/// their files, the verdict rows and the errors a user meets first.
final class AbCommandTests: XCTestCase {
    /// The strata-bench beside this test bundle (`swift build --build-tests` builds it).
    var exe: String { strataBenchExecutable }
    /// Children of a sanitized build report leaks of their own at exit; not this test's subject.
    let env = ["ASAN_OPTIONS": "detect_leaks=0"]
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func test_sameBuildOnBothSidesWritesPairedVerdictsBandsAndSummary() throws {
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            return XCTFail("\(exe) is not built: run `swift build --build-tests` before `swift test --skip-build`")
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("strata-ab-\(getpid())")
        defer { try? FileManager.default.removeItem(at: out) }
        let (status, output) = try runProcess(exe, ["ab", "HEAD", "--base-binary", exe, "--head-binary", exe, "--rounds", "5",
                                                    "--warmup-rounds", "0", "--suite", "lookup", "--filter", "^lookup/built-in/interned$|^scene/app-10k$",
                                                    "--scene", "app-10k", "--param", "containers=4", "--param", "cellsPerContainer=4",
                                                    "--param", "frames=20", "--scene-passes", "2",
                                                    "--repetitions", "2", "--min-time", "0.001", "--no-counts", "--gate", "none",
                                                    "--format", "markdown", "--seed", "7", "--out", out.path],
                                              in: root, environment: env)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("### strata-bench ab: "), output)
        XCTAssertTrue(output.contains("order drawn at random (seed 7)"), output)
        // 5 rounds of three processes: base, control, head.
        let rounds = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("rounds").path)
        XCTAssertEqual(rounds.filter { $0.hasSuffix(".json") }.count, 15, "\(rounds)")
        let compare = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("compare.json"))) as? [String: Any])
        let rows = try XCTUnwrap(compare["rows"] as? [[String: Any]])
        let row = try XCTUnwrap(rows.first { $0["name"] as? String == "lookup/built-in/interned" })
        XCTAssertEqual(row["basis"] as? String, "paired")
        XCTAssertEqual(row["rounds"] as? Int, 5)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(row["band"] as? Double), 0.01, "the band is at least the noise floor")
        XCTAssertTrue(["regression", "improvement", "unchanged", "inconclusive"].contains(row["verdict"] as? String ?? ""), "\(row)")
        let bands = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("noise-bands.json"))) as? [String: Any])
        XCTAssertNotNil((bands["bands"] as? [String: Double])?["lookup/built-in/interned"])
        // The rounds merged per side: 5 processes x 2 repetitions on the base side.
        let base = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("base.json"))) as? [String: Any])
        let strata = try XCTUnwrap(base["strata"] as? [String: Any])
        let benchmarks = try XCTUnwrap(strata["benchmarks"] as? [[String: Any]])
        XCTAssertEqual((benchmarks.first?["samples_ns_per_item"] as? [Double])?.count, 10)
        // Each process ran the scene twice (--scene-passes 2); the merged report shows it once,
        // and the scene's three figures are judged from the rounds.
        let round = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("rounds/round-head-1.json"))) as? [String: Any])
        XCTAssertEqual(((round["strata"] as? [String: Any])?["scenes"] as? [[String: Any]])?.map { $0["name"] as? String }, ["app-10k", "app-10k"])
        XCTAssertEqual((strata["scenes"] as? [[String: Any]])?.count, 1)
        XCTAssertEqual(rows.filter { $0["name"] as? String == "scene/app-10k" }.compactMap { $0["metric"] as? String }, ["p50", "p99", "hitch"])
        XCTAssertTrue(rows.filter { $0["name"] as? String == "scene/app-10k" }.allSatisfy { $0["rounds"] as? Int == 5 }, "\(rows)")
        let html = try String(contentsOf: out.appendingPathComponent("ab.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("noise band"), "the HTML shows the band beside the verdict")
        XCTAssertTrue(try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8).hasPrefix("### strata-bench ab"))
    }

    /// `--filter` selects scenes too (over `scene/NAME`); a scene named with --scene that the
    /// filter leaves out is said in a warning (progress and report), not dropped in silence.
    func test_runSaysWhenTheFilterLeavesOutANamedScene() throws {
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            return XCTFail("\(exe) is not built: run `swift build --build-tests` before `swift test --skip-build`")
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("strata-run-filter-\(getpid())")
        defer { try? FileManager.default.removeItem(at: out) }
        let tiny = ["--scene", "app-10k", "--param", "containers=2", "--param", "cellsPerContainer=2", "--param", "frames=5",
                    "--no-players", "--no-counts"]
        func run(filter: String, _ name: String) throws -> (output: String, warnings: [String], scenes: [String]) {
            let report = out.appendingPathComponent(name + ".json").path
            let (status, output) = try runProcess(exe, ["run"] + tiny + ["--filter", filter, "--out", report], in: root, environment: env)
            XCTAssertEqual(status, 0, output)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
            let strata = try XCTUnwrap(json["strata"] as? [String: Any])
            let scenes = (strata["scenes"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            return (output, strata["warnings"] as? [String] ?? [], scenes)
        }
        let left = try run(filter: "^lookup/", "left")
        let said = "--scene app-10k not run: --filter '^lookup/' does not match scene/app-10k"
        XCTAssertTrue(left.output.contains("warning: " + said), left.output)
        XCTAssertTrue(left.warnings.contains { $0.hasPrefix(said) }, "\(left.warnings)")
        XCTAssertEqual(left.scenes, [])
        let kept = try run(filter: "^lookup/|^scene/app-10k$", "kept")
        XCTAssertFalse(kept.output.contains("not run: --filter"), kept.output)
        XCTAssertFalse(kept.warnings.contains { $0.contains("not run: --filter") }, "\(kept.warnings)")
        XCTAssertEqual(kept.scenes, ["app-10k"])
    }

    func test_usageErrors() throws {
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            return XCTFail("\(exe) is not built: run `swift build --build-tests` before `swift test --skip-build`")
        }
        var (status, output) = try runProcess(exe, ["ab", "no-such-ref-anywhere", "--base-binary", exe, "--head-binary", exe],
                                              in: root, environment: env)
        XCTAssertEqual(status, 64, output)
        XCTAssertTrue(output.contains("unknown commit 'no-such-ref-anywhere'"), output)
        (status, output) = try runProcess(exe, ["ab", "HEAD", "--head-env", "NOEQUALS"], in: root, environment: env)
        XCTAssertEqual(status, 64, output)
        XCTAssertTrue(output.contains("is not NAME=VALUE"), output)
        (status, output) = try runProcess(exe, ["ab", "HEAD", "--base-binary", "/nonexistent/strata-bench"], in: root, environment: env)
        XCTAssertEqual(status, 64, output)
        XCTAssertTrue(output.contains("/nonexistent/strata-bench is not an executable"), output)
        (status, output) = try runProcess(exe, ["ab", "HEAD"], in: FileManager.default.temporaryDirectory, environment: env)
        XCTAssertEqual(status, 64, output)
        XCTAssertTrue(output.contains("is not inside a git repository"), output)
    }

    func test_compareWithoutABandSaysInconclusiveUnpaired() throws {
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            return XCTFail("\(exe) is not built: run `swift build --build-tests` before `swift test --skip-build`")
        }
        // A corrupt band file is bad data (65), named.
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bad-bands-\(getpid()).json")
        try Data("{ nope".utf8).write(to: bad)
        defer { try? FileManager.default.removeItem(at: bad) }
        let baseline = root.appendingPathComponent("reports/baseline.json").path
        let (status, output) = try runProcess(exe, ["compare", baseline, baseline, "--noise-bands", bad.path], in: root, environment: env)
        XCTAssertEqual(status, 65, output)
        XCTAssertTrue(output.contains("\(bad.path): not a noise-band file"), output)
    }
}
