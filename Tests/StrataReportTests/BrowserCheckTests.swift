import XCTest
import Foundation
import StrataBench
import StrataProfiler
@testable import StrataReport

/// `scripts/lib/check-report` on rendered reports in headless Chromium. The browser run is
/// opt-in (STRATA_BROWSER_TEST=1, which CI sets; it then fails, not skips, without
/// chromium); otherwise only the script itself is checked (present, executable, parses).
final class BrowserCheckTests: XCTestCase {
    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private var script: URL { repository.appendingPathComponent("scripts/lib/check-report") }

    /// Runs a command; its exit status and combined output.
    private func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 300) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        final class Output: @unchecked Sendable { var data = Data() }
        let output = Output()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "check-report-output").async {
            output.data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        while p.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if p.isRunning {
            p.terminate()
            XCTFail("\(executable) \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s")
        }
        p.waitUntilExit()
        _ = done.wait(timeout: .now() + 5)
        return (p.terminationStatus, String(decoding: output.data, as: UTF8.self))
    }

    private func chromium() -> String? {
        let env = ProcessInfo.processInfo.environment
        if let c = env["CHROMIUM"], FileManager.default.isExecutableFile(atPath: c) { return c }
        for dir in (env["PATH"] ?? "/usr/bin").split(separator: ":") + ["/usr/bin"] {
            let path = "\(dir)/chromium"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    func test_checkReportPassesARenderedReportInHeadlessChromium() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: script.path), "\(script.path) missing or not executable")
        let syntax = try run("/bin/bash", ["-n", script.path])
        XCTAssertEqual(syntax.status, 0, "scripts/lib/check-report does not parse: \(syntax.output)")
        guard ProcessInfo.processInfo.environment["STRATA_BROWSER_TEST"] == "1" else { return }

        guard chromium() != nil else {
            return XCTFail("STRATA_BROWSER_TEST=1 but chromium is not installed: run scripts/setup (Debian's chromium) or set CHROMIUM=/path")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        let html = HTMLReport.render(report: try Fixtures.fullBlock(), googleBenchmark: [:], baseline: nil, comparison: Fixtures.comparison())
        let good = dir.appendingPathComponent("report.html"), shot = dir.appendingPathComponent("report.png")
        try html.write(to: good, atomically: true, encoding: .utf8)
        let pass = try run(script.path, [good.path, shot.path])
        XCTAssertEqual(pass.status, 0, pass.output)
        XCTAssertTrue(pass.output.contains("check-report: PASS"), pass.output)
        XCTAssertTrue(pass.output.contains("charts: 11 (report lists 11)"), pass.output)
        let png = try Data(contentsOf: shot)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "the screenshot is not a PNG")
        XCTAssertGreaterThan(png.count, 50_000, "the screenshot is suspiciously small")

        // The check must catch what it is for: a fetch, and a chart drawn empty.
        let fetching = dir.appendingPathComponent("fetching.html")
        try html.replacingOccurrences(of: "<main>", with: "<main><img alt=\"\" src=\"http://127.0.0.1:9/pixel.png\">")
            .write(to: fetching, atomically: true, encoding: .utf8)
        let fetched = try run(script.path, [fetching.path, dir.appendingPathComponent("fetching.png").path])
        XCTAssertEqual(fetched.status, 1, fetched.output)
        XCTAssertTrue(fetched.output.contains("Content Security Policy") || fetched.output.contains("network request"), fetched.output)

        let empty = dir.appendingPathComponent("empty.html")
        let emptied = html.replacingOccurrences(of: #" d="M[^"]*""#, with: " d=\"\"", options: .regularExpression)
            .replacingOccurrences(of: #"(<rect x="[^"]*" y="[^"]*") width="[^"]*""#, with: "$1 width=\"0\"", options: .regularExpression)
        try emptied.write(to: empty, atomically: true, encoding: .utf8)
        let blank = try run(script.path, [empty.path, dir.appendingPathComponent("empty.png").path])
        XCTAssertEqual(blank.status, 1, blank.output)
        XCTAssertTrue(blank.output.contains("no data path or rect with non-empty geometry"), blank.output)
    }

    func test_aFlameGraphZoomsInHeadlessChromiumAndNoOtherScriptRuns() throws {
        guard ProcessInfo.processInfo.environment["STRATA_BROWSER_TEST"] == "1" else { return }
        guard chromium() != nil else {
            return XCTFail("STRATA_BROWSER_TEST=1 but chromium is not installed: run scripts/setup (Debian's chromium) or set CHROMIUM=/path")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-flame-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let graph = try FlameGraph(folded: "main;commit;lookup 6\nmain;commit;record 2\nmain;render;evaluate 3\n")
        let flame = ReportFlameGraph(svg: graph.svg(title: "flame graph", asChart: "flame-graph"), chartID: "flame-graph",
                                     searchBox: FlameGraph.searchBox, script: FlameGraph.script, source: "a test", samples: graph.totalSamples)
        let html = HTMLReport.render(report: try Fixtures.fullBlock(), googleBenchmark: [:], baseline: nil, comparison: nil, flameGraph: flame)
        let page = dir.appendingPathComponent("report.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let pass = try run(script.path, [page.path, dir.appendingPathComponent("report.png").path])
        XCTAssertEqual(pass.status, 0, pass.output)
        XCTAssertTrue(pass.output.contains("flame-graph"), pass.output)
        XCTAssertTrue(pass.output.contains("flame graph: 7 frames; a click zoomed"), pass.output)

        // A script without the page's nonce is blocked (a console error), and a flame graph
        // whose script cannot run fails the zoom check.
        let foreign = dir.appendingPathComponent("foreign.html")
        try html.replacingOccurrences(of: "<main>", with: "<main><script>document.title='x'</script>")
            .write(to: foreign, atomically: true, encoding: .utf8)
        let blocked = try run(script.path, [foreign.path, dir.appendingPathComponent("foreign.png").path])
        XCTAssertEqual(blocked.status, 1, blocked.output)
        XCTAssertTrue(blocked.output.contains("Content Security Policy"), blocked.output)
        let dead = dir.appendingPathComponent("dead.html")
        try html.replacingOccurrences(of: #"<script nonce="[^"]*">"#, with: "<script type=\"text/plain\">", options: .regularExpression)
            .write(to: dead, atomically: true, encoding: .utf8)
        let inert = try run(script.path, [dead.path, dir.appendingPathComponent("dead.png").path])
        XCTAssertEqual(inert.status, 1, inert.output)
        XCTAssertTrue(inert.output.contains("did not zoom"), inert.output)
    }
}
