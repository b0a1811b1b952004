import XCTest
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import StrataBench
import StrataProfiler
@testable import StrataReport

/// The HTML report from synthetic reports: the sections and charts it should have, each
/// chart's geometry, escaping, no network references, well-formed SVG, no non-finite numbers,
/// and charts left out when their data is absent.
final class HTMLReportTests: XCTestCase {
    private func render(_ block: StrataBlock, comparison: Comparison? = nil, baseline: StrataBlock? = nil) -> String {
        HTMLReport.render(report: block, googleBenchmark: ["context": ["host_name": "ci", "num_cpus": 2, "library_build_type": "debug",
                                                                       "caches": [["level": 1, "type": "Data", "size": 32768, "num_sharing": 1]]]],
                          baseline: baseline, comparison: comparison)
    }

    private func full() throws -> String {
        render(try Fixtures.fullBlock(), comparison: Fixtures.comparison(), baseline: try Fixtures.fullBlock())
    }

    /// Every `<svg>…</svg>` element of the page.
    private func svgs(_ html: String) -> [String] {
        matches(#"<svg[\s\S]*?</svg>"#, in: html)
    }

    private func matches(_ pattern: String, in s: String) -> [String] {
        let re = try! NSRegularExpression(pattern: pattern)
        return re.matches(in: s, range: NSRange(s.startIndex..., in: s)).map { String(s[Range($0.range, in: s)!]) }
    }

    /// Well-formed XML. (On Linux `XMLParser.parse()` returns true for a document that ends
    /// early, with `parserError` set: both are checked.)
    private func wellFormed(_ xml: String) -> (ok: Bool, error: Error?) {
        let parser = XMLParser(data: Data(xml.utf8))
        let parsed = parser.parse()
        return (parsed && parser.parserError == nil, parser.parserError)
    }

    private func attribute(_ name: String, of tag: String) -> String? {
        matches(#"\s\#(name)="([^"]*)""#, in: tag).first.map { String($0.drop { $0 != "\"" }.dropFirst().dropLast()) }
    }

    // MARK: sections and charts

    func test_rendersEverySectionAndChartOfAFullReport() throws {
        let html = try full()
        for id in ["comparison", "frame", "scenes", "lookup", "commit", "tree", "counts", "benchmarks", "machine"] {
            XCTAssertTrue(html.contains("<section id=\"\(id)\">"), "section \(id) missing")
            XCTAssertTrue(html.contains("href=\"#\(id)\""), "no link to section \(id)")
        }
        let expected = ["change-time", "change-counts", "frame-opacity-basic", "frame-position-keyframe",
                        "scene-app-10k-histogram", "scene-app-10k-cdf", "scene-app-10k-timeline",
                        "lookup-strategies", "commit-cost", "tree-build", "tree-convert-time"]
        let charts = svgs(html)
        XCTAssertEqual(charts.count, expected.count)
        XCTAssertEqual(charts.compactMap { attribute("data-chart", of: String($0.prefix { $0 != ">" })) }.sorted(), expected.sorted())
        XCTAssertTrue(html.contains("<meta name=\"strata-chart-count\" content=\"\(expected.count)\">"))
        // Headline figures.
        XCTAssertTrue(html.contains("class=\"cards\""))
        XCTAssertTrue(html.contains("2 regressions"), "the comparison card counts the regressions")
        // The budget lines and the over-budget frame.
        XCTAssertTrue(html.contains("8.33 ms") && html.contains("16.67 ms"))
        XCTAssertTrue(html.contains("frame 300: 20.5 ms (over 16.67 ms)"))
        // The reference engine and the floor share the frame charts.
        XCTAssertTrue(html.contains("reference · shared") && html.contains("bandwidth floor"))
        // Machine fingerprint, build flags, hand-timed check, warnings, counts.
        XCTAssertTrue(html.contains("-O -target-cpu haswell"))
        XCTAssertTrue(html.contains("Hand-timed check"))
        XCTAssertTrue(html.contains("15.5"))
        XCTAssertTrue(html.contains("L1 Data 32 KiB"))
    }

    func test_everyChartHasDrawnDataGeometry() throws {
        for svg in svgs(try full()) {
            let name = attribute("data-chart", of: String(svg.prefix { $0 != ">" })) ?? "?"
            let paths = matches(#"<path[^>]*class="data[^"]*"[^>]*>"#, in: svg).compactMap { attribute("d", of: $0) }
            let rects = matches(#"<rect[^>]*class="data[^"]*"[^>]*>"#, in: svg).filter {
                (Double(attribute("width", of: $0) ?? "") ?? 0) > 0 && (Double(attribute("height", of: $0) ?? "") ?? 0) > 0
            }
            let drawnPaths = paths.filter { $0.hasPrefix("M") && $0.contains("L") }
            XCTAssertFalse(drawnPaths.isEmpty && rects.isEmpty, "chart \(name): no data path with a line or data rect with extent")
            XCTAssertTrue(svg.contains("viewBox=\"0 0 "), name)
            XCTAssertTrue(svg.contains("<title id="), "chart \(name) has no accessible title")
        }
    }

    func test_everySVGIsWellFormedXML() throws {
        for bad in ["<svg><g></svg>", "<svg>&nbsp;</svg>", "<svg><text>a < b</text></svg>", "<svg x=\"1\" x=\"2\"/>"] {
            XCTAssertFalse(wellFormed(bad).ok, "\(bad) must be rejected for this test to mean anything")
        }
        let charts = svgs(try full())
        XCTAssertFalse(charts.isEmpty)
        for svg in charts {
            let result = wellFormed(svg)
            XCTAssertTrue(result.ok, "not well-formed XML: \(result.error.map { "\($0)" } ?? "?") in \(svg.prefix(200))")
        }
    }

    /// The reference engine's commits are a dashed line of their own beside the fast
    /// engine's, not points of its line (which then zig-zagged between the two engines).
    func test_referenceCommitsAreASeriesOfTheirOwn() throws {
        let html = try full()
        let chart = try XCTUnwrap(matches(#"<svg[^>]*data-chart="commit-cost"[\s\S]*?</svg>"#, in: html).first)
        XCTAssertTrue(chart.contains(">implicit · reference<"), "a legend entry for the reference line")
        XCTAssertTrue(chart.contains(">implicit<"))
        XCTAssertTrue(chart.contains("stroke-dasharray"), "the reference line is dashed")
    }

    func test_snapshotSectionShowsTheThreeRatiosAndTheWholeFrame() throws {
        var block = try Fixtures.fullBlock()
        func summary(_ name: String, _ ns: Double, _ p: [String: String], extra: [String: Any] = [:]) throws -> BenchmarkSummary {
            var q = p
            q["suite"] = "snapshot"
            return try Fixtures.decode(BenchmarkSummary.self, Fixtures.benchmark(name, suite: "snapshot", item: "layer", items: Int(p["n"]!)!,
                                                                                 parameters: q, median: ns, extra: extra))
        }
        for n in [1_000, 10_000, 100_000] {
            block.benchmarks += [
                try summary("snapshot/full/fan/\(n)", 25, ["kind": "full", "shape": "fan", "n": "\(n)"],
                            extra: ["floor_ns_per_item": 20.0, "ratio_to_floor": 1.25, "relative_ns_per_item": 2_500.0, "ratio_to_relative": 0.01]),
                try summary("snapshot/update/fan/1/\(n)", 0.5, ["kind": "update", "shape": "fan", "n": "\(n)", "animated": "1",
                                                               "relativeTo": "snapshot/full/fan/\(n)"],
                            extra: ["relative_ns_per_item": 25.0, "ratio_to_relative": 0.02]),
                try summary("snapshot/presentation/fan/\(n)", 2_500, ["kind": "presentation", "shape": "fan", "n": "\(n)"]),
            ]
        }
        // The split's baseline: the 100,000-layer update on one thread, 1.7x the two-thread time.
        block.benchmarks.append(try summary("snapshot/update-1-thread/fan/1/100000", 0.85,
                                            ["kind": "update-1-thread", "shape": "fan", "n": "100000", "animated": "1",
                                             "threads": "1", "relativeTo": "snapshot/update/fan/1/100000"],
                                            extra: ["relative_ns_per_item": 0.5, "ratio_to_relative": 1.7]))
        block.benchmarks += [
            try summary("snapshot/frame/strata/10000", 30, ["kind": "frame", "engine": "strata", "n": "10000"],
                        extra: ["reference_ns_per_item": 3_000.0, "speedup_over_reference": 100.0]),
            try summary("snapshot/frame/reference/10000", 3_000, ["kind": "frame", "engine": "reference", "n": "10000"]),
            try summary("snapshot/presentation-call/1000", 46, ["kind": "presentation-call", "n": "1000"]),
        ]
        let html = render(block)
        XCTAssertTrue(html.contains("<section id=\"snapshot\">"))
        let charts = svgs(html).compactMap { attribute("data-chart", of: String($0.prefix { $0 != ">" })) }
        XCTAssertTrue(Set(["snapshot-full", "snapshot-update", "snapshot-frame"]).isSubset(of: Set(charts)), "\(charts)")
        XCTAssertTrue(html.contains("1.25×"), "× floor")
        XCTAssertTrue(html.contains("100×"), "speed-up over the read-out")
        XCTAssertTrue(html.contains("2%"), "update as a share of the full pass")
        // The update table: the one-thread time and the speed-up on the 100,000-layer row only.
        let rows = matches(#"<tr>(?:(?!</tr>)[\s\S])*?</tr>"#, in: html).filter { $0.contains("update on one thread") == false }
        let split = rows.filter { $0.contains(">100,000<") && $0.contains(">1%<") }
        XCTAssertEqual(split.count, 1, "\(split)")
        XCTAssertTrue(split.first?.contains(Format.ns(0.85)) ?? false, "\(split)")
        XCTAssertTrue(split.first?.contains("1.70×") ?? false, "\(split)")
        let unsplit = rows.filter { $0.contains(">10,000<") && $0.contains(">1%<") }
        XCTAssertEqual(unsplit.count, 1, "\(unsplit)")
        XCTAssertFalse(unsplit.first?.contains(Format.ns(0.85)) ?? true, "\(unsplit)")
        XCTAssertTrue(html.contains("update on one thread"))
        XCTAssertTrue(html.contains("presentation() \(Format.ns(46)) per call"))
        // Without the suite, no section.
        XCTAssertFalse(render(try Fixtures.fullBlock()).contains("<section id=\"snapshot\">"))
    }

    func test_sceneMemoryIsShownWithItsGrowth() throws {
        let html = try full()
        XCTAssertTrue(html.contains(">bytes / layer</span><span class=\"stat-value\">354 B<"))
        XCTAssertTrue(html.contains(">bytes / animation</span><span class=\"stat-value\">237 B<"), "rounded to a byte")
        XCTAssertTrue(html.contains(">store growth</span><span class=\"stat-value\">0 B<"))
        XCTAssertTrue(html.contains(">RSS growth</span><span class=\"stat-value\">1 MiB<"))
    }

    func test_escapesMarkupInNamesNotesAndWarnings() throws {
        let html = try full()
        XCTAssertFalse(html.contains("<script>alert(1)</script>"), "a benchmark name reached the page unescaped")
        XCTAssertTrue(html.contains("lookup/&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;quoted&quot;/chain"))
        XCTAssertTrue(html.contains("&lt;evil&gt;"), "the outcome label (a chart axis label) is escaped")
        XCTAssertFalse(html.contains("<evil>"))
        XCTAssertTrue(html.contains("a warning with &lt;markup&gt; &amp; ampersands"))
        XCTAssertTrue(html.contains("a note with &lt;b&gt;markup&lt;/b&gt;"))
        XCTAssertTrue(html.contains("Test CPU &lt;fast&gt;"))
        XCTAssertTrue(html.contains("10,000 layers &amp; &lt;friends&gt;"))
        XCTAssertTrue(html.contains("precondition failed: &lt;no animations&gt;"))
        // The only <script> is the JSON data block, whose content cannot close it early.
        XCTAssertEqual(matches("<script", in: html).count, 1)
        let data = matches(#"<script type="application/json" id="strata-report-data">[\s\S]*?</script>"#, in: html)
        XCTAssertEqual(data.count, 1)
        XCTAssertFalse(data[0].dropFirst(60).dropLast(9).contains("<"), "a raw < inside the JSON block")
    }

    func test_aFlameGraphRunsOnlyItsOwnScriptUnderANonce() throws {
        let graph = try FlameGraph(folded: "main;commit;lookup 6\nmain;render;evaluate 3\nmain;<odd & name> 1\n")
        let flame = ReportFlameGraph(svg: graph.svg(title: "flame graph", asChart: "flame-graph"), chartID: "flame-graph",
                                     searchBox: FlameGraph.searchBox, script: FlameGraph.script, source: "profile.folded",
                                     samples: graph.totalSamples)
        let html = HTMLReport.render(report: try Fixtures.fullBlock(), googleBenchmark: [:], baseline: nil, comparison: nil,
                                     flameGraph: flame)
        let nonce = try XCTUnwrap(matches(#"script-src &#39;nonce-[A-Za-z0-9+/=]{24}&#39;"#, in: html).first)
            .dropFirst("script-src &#39;nonce-".count).dropLast("&#39;".count)
        XCTAssertEqual(matches("<script", in: html).count, 2, "the JSON data block and the flame graph's script")
        // The nonce is base64: `+` and `/` are literal characters here, not pattern syntax.
        XCTAssertEqual(matches(NSRegularExpression.escapedPattern(for: "<script nonce=\"\(nonce)\">"), in: html).count, 1)
        XCTAssertTrue(html.contains("<section id=\"profile\">"))
        XCTAssertTrue(html.contains("data-chart=\"flame-graph\""))
        XCTAssertTrue(html.contains("&lt;odd &amp; name&gt;"), "frame names are escaped")
        XCTAssertTrue(html.contains("10 samples from profile.folded"))
        let ids = try XCTUnwrap(matches(#"<meta name="strata-chart-ids" content="[^"]*""#, in: html).first)
        XCTAssertTrue(ids.contains("flame-graph"))
        for needle in ["http://", "https://", "src="] { XCTAssertFalse(html.contains(needle), needle) }
        // Each page its own nonce; without a flame graph, no script may run at all.
        let again = HTMLReport.render(report: try Fixtures.fullBlock(), googleBenchmark: [:], baseline: nil, comparison: nil, flameGraph: flame)
        XCTAssertFalse(again.contains("nonce-\(nonce)"))
        XCTAssertTrue(render(try Fixtures.fullBlock()).contains("script-src &#39;none&#39;"))
    }

    func test_referencesNothingOutsideTheFile() throws {
        for html in [try full(), render(try Fixtures.quickBlock())] {
            for needle in ["http://", "https://", "src=", "<link", "@import", "url(", "xlink:href", "<iframe", "<object", "<embed"] {
                XCTAssertFalse(html.lowercased().contains(needle), "the report references \(needle)")
            }
            let csp = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data:; script-src &#39;none&#39;"
            XCTAssertTrue(html.contains(csp), "no strict Content-Security-Policy")
            XCTAssertLessThan(html.range(of: "Content-Security-Policy")!.lowerBound, html.range(of: "<style>")!.lowerBound,
                              "the policy comes before anything it governs")
        }
    }

    func test_writesNoNaNOrInfinity() throws {
        var block = try Fixtures.fullBlock()
        block.benchmarks[0].medianNsPerItem = .nan
        block.benchmarks[1].maxNsPerItem = .infinity
        block.benchmarks[2].floorNsPerItem = -.infinity
        block.benchmarks[3].speedupOverReference = .nan
        block.scenes[0].p99 = .infinity
        block.scenes[0].frameTimesMs[5] = .nan
        block.scenes[0].histogram.append([.nan, 3])
        block.growth[0].exponent = .nan
        block.growth[1].points.append([.infinity, 1])
        block.handTimedCheck?.ratio = .nan
        var comparison = Fixtures.comparison()
        comparison.rows[0].ciHigh = .infinity
        comparison.rows[1].change = .nan
        let html = render(block, comparison: comparison)
        let re = try NSRegularExpression(pattern: #"\b(nan|-?inf|infinity)\b"#, options: [.caseInsensitive])
        let hits = re.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { m -> String in
            let r = Range(m.range, in: html)!
            let start = html.index(r.lowerBound, offsetBy: -40, limitedBy: html.startIndex) ?? html.startIndex
            return String(html[start..<r.upperBound])
        }
        XCTAssertEqual(hits, [], "non-finite numbers written")
        for svg in svgs(html) {
            XCTAssertTrue(wellFormed(svg).ok)
        }
    }

    func test_anUnpairedComparisonsSceneFrameTimesAreListedAsShownNotJudged() throws {
        let base = try Fixtures.fullBlock()
        var head = base
        head.scenes[0].p99 *= 400
        let comparison = Comparator().compare(base: base, head: head, basePath: "base.json", headPath: "head.json")
        let rows = comparison.rows.filter { $0.metric == "frame-time-p99" }
        XCTAssertEqual(rows.count, base.scenes.count)
        XCTAssertTrue(rows.allSatisfy { $0.verdict == .informational })
        let html = render(head, comparison: comparison, baseline: base)
        XCTAssertTrue(html.contains("\(base.scenes.count * 2) scene frame times (shown, not judged"), "the summary names them as what they are")
        XCTAssertTrue(html.contains(String(format: "%.3g ms", head.scenes[0].p99)), "in ms, as the paired rows")
    }

    // MARK: absent data

    func test_quickRunLeavesOutWhatItDidNotMeasure() throws {
        let html = render(try Fixtures.quickBlock())
        XCTAssertFalse(html.contains("<section id=\"comparison\">"))
        XCTAssertFalse(html.contains("<section id=\"scenes\">"))
        XCTAssertFalse(html.contains("<section id=\"lookup\">"))
        XCTAssertFalse(html.contains("<section id=\"counts\">"))
        XCTAssertTrue(html.contains("Not in this run: baseline comparison, snapshot suite, scenes, lookup suite, commit suite, tree suite, counts."))
        // One size per family: no line to draw against N, so one bar chart of them all.
        let charts = svgs(html)
        XCTAssertEqual(charts.count, 1)
        XCTAssertTrue(charts[0].contains("data-chart=\"frame-one-size\""))
        XCTAssertEqual(matches(#"<rect[^>]*class="data bar""#, in: charts[0]).count, 4, "a bar per engine benchmark (2 families × 2 timings)")
        XCTAssertTrue(html.contains("<meta name=\"strata-chart-count\" content=\"1\">"))
    }

    func test_emptyReportStillRenders() throws {
        let block = StrataBlock(createdAt: "2026-01-01T00:00:00Z", machine: try Fixtures.decode(MachineFingerprint.self, Fixtures.machine),
                                options: RunOptions(quick: true, suites: [], filter: nil, repetitions: 3, minTime: 0.01, googleBenchmarkArguments: []))
        let html = HTMLReport.render(report: block, googleBenchmark: [:], baseline: nil, comparison: nil)
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>"))
        XCTAssertTrue(html.hasSuffix("</html>\n"))
        XCTAssertEqual(svgs(html).count, 0)
        XCTAssertTrue(html.contains("<meta name=\"strata-chart-count\" content=\"0\">"))
        XCTAssertTrue(html.contains("<section id=\"machine\">"))
    }

    func test_embeddedDataRoundTrips() throws {
        let block = try Fixtures.fullBlock()
        let html = render(block, comparison: Fixtures.comparison())
        let data = matches(#"(?<=<script type="application/json" id="strata-report-data">)[\s\S]*?(?=</script>)"#, in: html)
        XCTAssertEqual(data.count, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(data[0].utf8)) as? [String: Any])
        let decoded = try Fixtures.decode(StrataBlock.self, try XCTUnwrap(object["strata"]))
        XCTAssertEqual(decoded, block)
        let comparison = try Fixtures.decode(Comparison.self, try XCTUnwrap(object["comparison"]))
        XCTAssertEqual(comparison, Fixtures.comparison())
    }

    // MARK: what the charts say

    func test_flagsSuperLinearGrowthAndDrawsFits() throws {
        let html = render(try Fixtures.fullBlock())
        let tree = try XCTUnwrap(svgs(html).first { $0.contains("data-chart=\"tree-convert-time\"") })
        XCTAssertTrue(tree.contains("chain  N^2.00 super-linear"), "the legend names the exponent and the flag")
        XCTAssertTrue(tree.contains("class=\"data series fit-line flagged\""))
        XCTAssertTrue(tree.contains("fan  N^1.00"))
        XCTAssertTrue(html.contains("<strong>Super-linear growth:</strong> convert-time · chain (N^2.00)"))
        // A fit line and a point per size for each shape.
        XCTAssertEqual(matches(#"fit-line"#, in: tree).count, 2)
    }

    func test_comparisonShowsVerdictsChangesAndTheThresholdBand() throws {
        let html = try full()
        let time = try XCTUnwrap(svgs(html).first { $0.contains("data-chart=\"change-time\"") })
        XCTAssertEqual(matches(#"<rect[^>]*class="data bar verdict-"#, in: time).count, 4, "a bar per time row with a change")
        XCTAssertTrue(time.contains("class=\"band\""), "the threshold band")
        XCTAssertTrue(time.contains("95% interval +15.0% to +25.0%"), "the interval whisker")
        XCTAssertTrue(time.contains("fill=\"\(Palette.vermillion)\""), "regressions coloured")
        let counts = try XCTUnwrap(svgs(html).first { $0.contains("data-chart=\"change-counts\"") })
        XCTAssertTrue(counts.contains("frame/opacity/shared/basic/1000 · instructions"))
        // The table: regressions first, then improvements; quiet rows folded away.
        let regression = try XCTUnwrap(html.range(of: "<tr class=\"row-regression\">"))
        let improvement = try XCTUnwrap(html.range(of: "<tr class=\"row-improvement\">"))
        XCTAssertLessThan(regression.lowerBound, improvement.lowerBound)
        XCTAssertTrue(html.contains("+15.0% … +25.0%"))
        XCTAssertTrue(html.contains("<span class=\"badge verdict-regression\">regression</span>"))
        XCTAssertTrue(html.contains("2 unchanged, 1 with insufficient data"))
        XCTAssertTrue(html.contains("0.0004"))
    }

    func test_formatsNumbersWithUnits() {
        XCTAssertEqual(Format.ns(0.39536), "0.395 ns")
        XCTAssertEqual(Format.ns(2.526), "2.53 ns")
        XCTAssertEqual(Format.ns(903.19), "903 ns")
        XCTAssertEqual(Format.ns(1756.11), "1.76 µs")
        XCTAssertEqual(Format.ns(17_561_108), "17.6 ms")
        XCTAssertEqual(Format.ns(2_034_692_280), "2.03 s")
        XCTAssertEqual(Format.ns(.nan), "–")
        XCTAssertEqual(Format.ns(1000, compactZeros: true), "1 µs")
        XCTAssertEqual(Format.ms(16.6667), "16.7 ms")
        XCTAssertEqual(Format.change(0.052), "+5.2%")
        XCTAssertEqual(Format.change(-0.0049), "−0.49%")
        XCTAssertEqual(Format.changeTick(0.1), "+10%")
        XCTAssertEqual(Format.percent(0.5), "50%")
        XCTAssertEqual(Format.percent(0.9667), "96.7%")
        XCTAssertEqual(Format.ratio(1841.7), "1,842×")
        XCTAssertEqual(Format.integer(100_000), "100,000")
        XCTAssertEqual(Format.short(1_000_000), "1M")
        XCTAssertEqual(Format.pValue(0.00001), "< 0.0001")
        XCTAssertEqual(Format.bytes(25_276_502_016), "23.5 GiB")
        XCTAssertEqual(SVG.n(.infinity), "0")
        XCTAssertEqual(SVG.n(12.345), "12.35")
    }

    func test_logScaleTicksAreRoundValues() {
        XCTAssertEqual(LogScale(values: [1, 1000], range: (0, 100), padding: 1).ticks(), [1, 10, 100, 1000])
        XCTAssertEqual(LogScale(values: [7, 28], range: (0, 100), padding: 1).ticks(), [10, 20])
        XCTAssertEqual(LinearScale(values: [-0.25, 0.25], range: (0, 100), targetTicks: 6).ticks().count, 7)
    }
}
