import XCTest
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StrataBench
@testable import StrataReport

/// The Trends section: reports added to a temporary history (`HistoryStore.add`), the page
/// rendered for a later run, and what its charts say.
final class TrendsSectionTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-trends-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A 40-hex-digit commit for commit number `i` ("c0ffee0", "c0ffee1", ...).
    static func sha(_ i: Int) -> String { String(format: "%07x", 0xc0ffee0 + i) + String(repeating: "0", count: 33) }

    /// Commit `i`'s report: the full fixture with its own commit and date, and figures that
    /// depend on `i`: frame/opacity/shared/basic/1000's instructions step from 15.5 to 17.4
    /// (+12.3%) at commit 6; its estimated cycles and commit/implicit/1000's instructions stay
    /// level; the timed figures and the scene's p99 wobble by under 1% (no step).
    static func report(_ i: Int, lookupCounts: Bool = false) throws -> StrataBlock {
        var block = try Fixtures.fullBlock()
        block.machine.gitCommit = sha(i)
        block.createdAt = String(format: "2026-02-%02dT10:00:00Z", 1 + i)
        let wobble = 1 + 0.004 * Double((i * 7) % 5 - 2) / 2
        block.counts = [
            CountResult(name: "frame/opacity/shared/basic/1000", item: "animation", itemsPerIteration: 1000, iterations: 20,
                        instructionsPerItem: i < 6 ? 15.5 : 17.4, estimatedCyclesPerItem: 21.25,
                        mallocsPerItem: 0, freesPerItem: 0, bytesAllocatedPerItem: 0),
            CountResult(name: "commit/implicit/1000", item: "change", itemsPerIteration: 1000, iterations: 20,
                        instructionsPerItem: 1_234, mallocsPerItem: 1, freesPerItem: 1, bytesAllocatedPerItem: 48),
        ]
        if lookupCounts {
            block.counts.append(CountResult(name: "lookup/built-in/interned", item: "lookup", itemsPerIteration: 256, iterations: 20,
                                            instructionsPerItem: 42, mallocsPerItem: 0, freesPerItem: 0, bytesAllocatedPerItem: 0))
        }
        for k in block.benchmarks.indices where ["frame/opacity/shared/basic/10000", "commit/implicit/10000"].contains(block.benchmarks[k].name) {
            block.benchmarks[k].medianNsPerItem *= wobble
        }
        block.scenes[0].p99 = 0.22 * wobble
        return block
    }

    /// A history of commits 0..<count (one run each) on the fixture's machine.
    func history(commits count: Int, name: String = "history.sqlite") throws -> HistoryStore {
        let store = try HistoryStore(path: directory.appendingPathComponent(name).path, mode: .create)
        for i in 0..<count {
            let block = try Self.report(i)
            // A name and metric twice in a report is kept once (the fixture's floors are shared).
            let distinct = Set(HistoryStore.figures(of: block).map { "\($0.name)|\($0.metric.rawValue)" }).count
            XCTAssertEqual(try store.add(report: block, source: "report-\(i).json"), .added(runID: Int64(i + 1), results: distinct))
        }
        return store
    }

    func render(_ block: StrataBlock, trends: ReportTrends?) -> String {
        HTMLReport.render(report: block, googleBenchmark: [:], baseline: nil, comparison: nil, trends: trends)
    }

    private func matches(_ pattern: String, in s: String) -> [String] {
        let re = try! NSRegularExpression(pattern: pattern)
        return re.matches(in: s, range: NSRange(s.startIndex..., in: s)).map { String(s[Range($0.range, in: s)!]) }
    }

    /// The trend charts' ids, in page order.
    private func trendCharts(_ html: String) -> [String] {
        matches(#"data-chart="trend-[a-z0-9-]+""#, in: html).map { String($0.dropFirst("data-chart=\"".count).dropLast()) }
    }

    private func svg(_ id: String, in html: String) throws -> String {
        try XCTUnwrap(matches(#"<svg[^>]*data-chart="\#(id)"[\s\S]*?</svg>"#, in: html).first, "no chart \(id)")
    }

    // MARK: A package's own series

    func test_aPackagesOwnRunsGetTheirOwnSeriesNotStratas() throws {
        let store = try HistoryStore(path: directory.appendingPathComponent("app.sqlite").path, mode: .create)
        func appReport(_ i: Int) throws -> StrataBlock {
            var block = try Self.report(i)
            block.benchmarks = []
            block.scenes = []
            block.counts = [CountResult(name: "my-app/pulse-badges/1000", item: "badge", itemsPerIteration: 1000, iterations: 20,
                                        instructionsPerItem: i < 4 ? 140_000 : 250_000, estimatedCyclesPerItem: 200_000,
                                        mallocsPerItem: 43, freesPerItem: 43, bytesAllocatedPerItem: 0)]
            return block
        }
        for i in 0..<7 { _ = try store.add(report: try appReport(i), source: "app-\(i).json") }
        let trends = try ReportTrends.load(from: store, report: try appReport(7), last: 20)
        XCTAssertEqual(trends.figures.map(\.figure.label), ["my-app/pulse-badges/1000 · instructions", "my-app/pulse-badges/1000 · estimated-cycles"])
        let instructions = try XCTUnwrap(trends.figures.first)
        XCTAssertEqual(instructions.points.count, 8)
        XCTAssertEqual(instructions.changePoints.map(\.index), [4], "the +78% step at the fifth commit")
        let html = render(try appReport(7), trends: trends)
        XCTAssertFalse(html.contains("commit/implicit/1000"), "Strata's own series are not the package's")
        XCTAssertTrue(trends.figures.allSatisfy(\.drawn))
    }

    // MARK: A history of twelve commits and a new run

    func test_aNewRunIsDrawnAfterTheHistorysCommitsWithTheStepMarkedAtItsCommit() throws {
        let store = try history(commits: 12)
        let run = try Self.report(12, lookupCounts: true)
        let trends = try ReportTrends.load(from: store, report: run, last: 20)
        XCTAssertEqual(trends.commits, 12)
        XCTAssertEqual(trends.machineKey, run.machine.timingKey)
        // The headline figures this run or the history has, in their order: none "not measured".
        let measured = Set(HistoryStore.figures(of: run).map { ReportTrends.Figure($0.name, $0.metric) })
        XCTAssertEqual(trends.figures.map(\.figure), ReportTrends.headlineFigures.filter { measured.contains($0) })

        let html = render(run, trends: trends)
        XCTAssertTrue(html.contains("<section id=\"trends\">"))
        XCTAssertTrue(html.contains("href=\"#trends\""), "the table of contents links the section")
        // One chart per figure with at least two points: the history has six of the fifteen
        // figures; lookup/built-in/interned's instructions are this run's only (nor has it
        // the scenes' frame cost).
        let expected = ["trend-commit-implicit-1000-instructions",
                        "trend-frame-opacity-shared-basic-1000-instructions", "trend-frame-opacity-shared-basic-1000-estimated-cycles",
                        "trend-frame-opacity-shared-basic-10000-time", "trend-commit-implicit-10000-time", "trend-scene-app-10k-p99"]
        XCTAssertEqual(trendCharts(html), expected)
        let without = try XCTUnwrap(matches(#"(?<=<meta name="strata-chart-count" content=")[0-9]+"#, in: render(run, trends: nil)).first.flatMap { Int($0) })
        XCTAssertTrue(html.contains("<meta name=\"strata-chart-count\" content=\"\(without + expected.count)\">"),
                      "the report's own charts and the trends")
        XCTAssertTrue(html.contains("Not drawn (fewer than 2 points): lookup/built-in/interned · instructions (this run only)."), html)
        XCTAssertFalse(html.contains("(not measured)"), "what neither the run nor the history has is not listed")

        // The step: where 17.4 starts, commit 6 (c0ffee6), +12.3%; nowhere else.
        let step = try XCTUnwrap(trends.figures.first { $0.figure == .init("frame/opacity/shared/basic/1000", .instructions) })
        XCTAssertEqual(step.points.count, 13)
        XCTAssertEqual(step.changePoints.map(\.index), [6])
        XCTAssertEqual(step.changePoints[0].before, 15.5)
        XCTAssertEqual(step.changePoints[0].after, 17.4)
        XCTAssertEqual(step.points[6].commit, Self.sha(6))
        let chart = try svg("trend-frame-opacity-shared-basic-1000-instructions", in: html)
        XCTAssertEqual(matches(#"(?<=class="marker-label step"(?: text-anchor="end")?>)[^<]*"#, in: chart), ["step +12.3% at c0ffee6"])
        XCTAssertEqual(matches(#"class="marker-line step""#, in: chart).count, 1, "one vertical marker")
        XCTAssertTrue(html.contains("Instructions per animation per commit, 13 commits, step +12.3% at c0ffee6"), "the caption names it")
        for f in trends.figures where f.figure != step.figure {
            XCTAssertEqual(f.changePoints, [], "\(f.figure.label): level or wobbling under 1%, no step")
        }
        for id in expected where id != "trend-frame-opacity-shared-basic-1000-instructions" {
            XCTAssertFalse(try svg(id, in: html).contains("marker-line step"), id)
        }

        // This run: appended, hollow, labelled, its tooltip naming commit and value.
        XCTAssertEqual(step.thisRun, 12)
        XCTAssertEqual(step.points[12].commit, Self.sha(12))
        XCTAssertTrue(chart.contains(">this run<"), "the axis labels this run's point")
        XCTAssertTrue(chart.contains("<title>this run (commit c0ffeec, not in the history yet): 17.4 instructions per animation</title>"))
        XCTAssertTrue(chart.contains("<title>c0ffee6 (2026-02-07): 17.4 instructions per animation, median of 1 run</title>"))
        XCTAssertTrue(chart.contains("<title>c0ffee0 (2026-02-01): 15.5 instructions per animation, median of 1 run</title>"))
        XCTAssertEqual(matches(#"class="marker hollow""#, in: chart).count, 1)
        XCTAssertEqual(matches(#"<circle[^>]*class="marker""#, in: chart).count, 12, "a point per commit of the history")
        // Times in time units, the scene in ms.
        let time = try svg("trend-commit-implicit-10000-time", in: html)
        let ns = try XCTUnwrap(run.benchmarks.first { $0.name == "commit/implicit/10000" }?.medianNsPerItem)
        XCTAssertTrue(time.contains("<title>this run (commit c0ffeec, not in the history yet): \(Format.ns(ns)) per change</title>"), time)
        XCTAssertTrue(try svg("trend-scene-app-10k-p99", in: html).contains(": \(Format.ms(run.scenes[0].p99))</title>"))
    }

    func test_trendChartsAreAccessibleAndWellFormed() throws {
        let run = try Self.report(12)
        let html = render(run, trends: try ReportTrends.load(from: try history(commits: 12), report: run, last: 20))
        let ids = trendCharts(html)
        XCTAssertEqual(ids.count, 6)
        for id in ids {
            let chart = try svg(id, in: html)
            XCTAssertTrue(chart.contains("role=\"img\""), id)
            XCTAssertTrue(chart.contains("aria-labelledby=\"\(id)-t \(id)-d\""), id)
            XCTAssertTrue(chart.contains("<title id=\"\(id)-t\">"), id)
            XCTAssertTrue(chart.contains("<desc id=\"\(id)-d\">"), id)
            XCTAssertFalse(matches(#"<path d="M[^"]*L[^"]*" class="data series""#, in: chart).isEmpty, "\(id): a drawn line")
            // Every point has a tooltip.
            let markers = matches(#"<(circle|path)[^>]*class="marker[^"]*"[^>]*>(<title>[^<]+</title>)?"#, in: chart)
            XCTAssertEqual(markers.count, 13, id)
            XCTAssertTrue(markers.allSatisfy { $0.contains("<title>") }, id)
            let parser = XMLParser(data: Data(chart.utf8))
            XCTAssertTrue(parser.parse() && parser.parserError == nil, "\(id) is not well-formed XML: \(String(describing: parser.parserError))")
            XCTAssertTrue(html.contains("<figure class=\"chart-figure\" id=\"\(id)\">"), "\(id): a figure with an anchor")
        }
        XCTAssertFalse(html.lowercased().contains("http://") || html.lowercased().contains("https://"))
    }

    func test_trendCommitsLimitsThePointsAndAReportAlreadyInTheHistoryIsNotAddedTwice() throws {
        let store = try history(commits: 12)
        // The last 8: commits 5...11 and this run; the step (at commit 6) is then at index 1,
        // too close to the start for a change point (3 commits either side).
        let short = try ReportTrends.load(from: store, report: try Self.report(12), last: 8)
        let step = try XCTUnwrap(short.figures.first { $0.figure == .init("frame/opacity/shared/basic/1000", .instructions) })
        XCTAssertEqual(step.points.map(\.commit), (5...12).map(Self.sha))
        XCTAssertEqual(step.thisRun, 7)
        XCTAssertEqual(step.changePoints, [])

        // Rendering commit 11's own report: its commit is the history's last point, marked as
        // this report's, and nothing is appended.
        let again = try Self.report(11)
        let trends = try ReportTrends.load(from: store, report: again, last: 20)
        let same = try XCTUnwrap(trends.figures.first { $0.figure == step.figure })
        XCTAssertEqual(same.points.count, 12)
        XCTAssertNil(same.thisRun)
        XCTAssertEqual(same.thisCommit, 11)
        // An older commit's report, outside the window: the newest commits, nothing appended.
        let old = try XCTUnwrap(try ReportTrends.load(from: store, report: try Self.report(2), last: 8).figures.first { $0.figure == step.figure })
        XCTAssertEqual(old.points.map(\.commit), (4...11).map(Self.sha))
        XCTAssertNil(old.thisRun)
        XCTAssertNil(old.thisCommit)

        let html = render(again, trends: trends)
        XCTAssertFalse(html.contains(">this run<"))
        XCTAssertTrue(html.contains("(this report&#39;s commit)"))
        XCTAssertEqual(matches(#"(?<=class="marker-label step"(?: text-anchor="end")?>)[^<]*"#, in: try svg("trend-frame-opacity-shared-basic-1000-instructions", in: html)),
                       ["step +12.3% at c0ffee6"])
    }

    func test_tickLabelsTellCloseTicksApart() {
        let y = LinearScale(values: [613.2, 614.4], range: (200, 0), targetTicks: 4)
        XCTAssertEqual(y.ticks(), [613, 613.5, 614, 614.5])
        XCTAssertEqual(TrendChart.digits(y), 4)
        let counts = TrendsSection.tickFormat(.instructions)
        XCTAssertEqual(y.ticks().map { counts($0, TrendChart.digits(y)) }, ["613", "613.5", "614", "614.5"])
        let time = TrendsSection.tickFormat(.time)
        let ns = LinearScale(values: [1.21, 1.56], range: (200, 0), targetTicks: 4)
        XCTAssertEqual(ns.ticks().map { time($0, TrendChart.digits(ns)) }, ["1.2 ns", "1.3 ns", "1.4 ns", "1.5 ns", "1.6 ns"])
        let us = LinearScale(values: [1_296, 1_318], range: (200, 0), targetTicks: 4)
        XCTAssertEqual(us.ticks().map { time($0, TrendChart.digits(us)) }, ["1.29 µs", "1.3 µs", "1.31 µs", "1.32 µs"])
        let fine = LinearScale(values: [1_296, 1_301], range: (200, 0), targetTicks: 4)
        XCTAssertEqual(fine.ticks().map { time($0, TrendChart.digits(fine)) }, ["1.296 µs", "1.298 µs", "1.3 µs", "1.302 µs"])
        XCTAssertEqual(TrendsSection.tickFormat(.p99)(0.95, 2), "0.95 ms")
    }

    // MARK: Too little history

    func test_anEmptyHistorySaysSoAndDrawsNothing() throws {
        let store = try history(commits: 0)
        let run = try Self.report(0)
        let trends = try ReportTrends.load(from: store, report: run, last: 20)
        XCTAssertEqual(trends.commits, 0)
        XCTAssertTrue(trends.figures.allSatisfy { $0.points.count <= 1 })
        let html = render(run, trends: trends)
        XCTAssertTrue(html.contains("<section id=\"trends\">"))
        XCTAssertTrue(html.contains("The history \(store.path) has no commits of this machine (\(HistoryStore.machineID(run.machine.timingKey))"))
        XCTAssertTrue(html.contains("a trend needs at least 2."))
        XCTAssertEqual(trendCharts(html), [])
        XCTAssertTrue(html.contains("frame/opacity/shared/basic/1000 · instructions (this run only)"))
    }

    func test_oneCommitSaysSoAndThisRunMakesTheSecondPoint() throws {
        let store = try history(commits: 1)
        // Another machine's runs do not count for this one.
        var other = try Self.report(5)
        other.machine.cpuModel = "Another CPU"
        _ = try store.add(report: other, source: "other.json")
        let run = try Self.report(1)
        let trends = try ReportTrends.load(from: store, report: run, last: 20)
        XCTAssertEqual(trends.commits, 1)
        XCTAssertEqual(trends.otherMachines, 1)
        let html = render(run, trends: trends)
        XCTAssertTrue(html.contains("has only 1 commit of this machine"))
        XCTAssertTrue(html.contains("The history also has runs of 1 other machine, not shown"))
        // Each figure the history has: its commit and this run.
        XCTAssertEqual(trendCharts(html).count, 6)
        XCTAssertTrue(trends.figures.filter(\.drawn).allSatisfy { $0.points.map(\.commit) == [Self.sha(0), Self.sha(1)] && $0.thisRun == 1 })
    }

    func test_withoutAHistoryThereIsNoSectionAndAnUnreadableOneSaysWhy() throws {
        let run = try Self.report(0)
        let plain = render(run, trends: nil)
        XCTAssertFalse(plain.contains("<section id=\"trends\">"))
        let absent = try XCTUnwrap(matches(#"Not in this run: [^<]*"#, in: plain).first)
        XCTAssertFalse(absent.contains("trends"), "not listed as absent either: it is asked for (\(absent))")

        let bad = ReportTrends.unavailable(database: "reports/history.sqlite", report: run, last: 20,
                                           reason: "reports/history.sqlite is not a strata-bench history database (no tables)")
        let html = render(run, trends: bad)
        XCTAssertTrue(html.contains("<section id=\"trends\">"))
        XCTAssertTrue(html.contains("No trends: the history database reports/history.sqlite could not be read: reports/history.sqlite is not a strata-bench history database (no tables)"))
        XCTAssertEqual(trendCharts(html), [])
    }
}
