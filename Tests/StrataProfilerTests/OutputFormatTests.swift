import CSampler
import Foundation
@testable import StrataProfiler
import XCTest

/// The writers on a profile built by hand: exact folded lines, speedscope's schema, the
/// gperftools layout word by word, trace timestamps and nesting.
final class OutputFormatTests: XCTestCase {
    /// Three samples on two stacks of real functions (so the symbolizer names them).
    private func handMadeProfile() -> (Profile, [UInt]) {
        let a = unsafeBitCast(csamplerStart, to: UInt.self)
        let b = unsafeBitCast(csamplerStop, to: UInt.self)
        let c = unsafeBitCast(csamplerDrain, to: UInt.self)
        // Leaf first: the leaf is exact, the rest return addresses (looked up at - 1).
        let addresses: [UInt] = [a, b + 1, c + 1, b, c + 1, a + 1, b + 1, c + 1]
        let samples = [
            Sample(timestampNanoseconds: 1_000, thread: 7, weight: 1, flags: 0, unwindNanoseconds: 100, handlerNanoseconds: 150, frames: 0..<3),
            Sample(timestampNanoseconds: 2_000, thread: 7, weight: 3, flags: 0, unwindNanoseconds: 200, handlerNanoseconds: 250, frames: 3..<5),
            Sample(timestampNanoseconds: 3_000, thread: 8, weight: 1, flags: 0, unwindNanoseconds: 300, handlerNanoseconds: 350, frames: 5..<8),
        ]
        let p = Profile(configuration: .init(), statistics: SamplerStatistics(csampler_stats()), periodNanoseconds: 1_000_000,
                        startNanoseconds: 0, endNanoseconds: 10_000, samples: samples, addresses: addresses)
        return (p, addresses)
    }

    func test_foldedStacksMergeThreadsAndCountSamples() {
        let (p, _) = handMadeProfile()
        let s = p.symbolicated()
        XCTAssertEqual(s.totalSamples, 3)
        XCTAssertEqual(s.totalWeight, 5)
        XCTAssertEqual(s.threads, [7, 8])
        XCTAssertEqual(s.folded(), """
            csampler_drain;csampler_stop;csampler_start 2
            csampler_drain;csampler_stop 1

            """)
        let top = s.topFrames(3)
        XCTAssertEqual(top.first?.frame.name, "csampler_start")
        XCTAssertEqual(top.first?.selfSamples, 2)
        XCTAssertEqual(top.first?.inclusivePercent ?? 0, 200.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(s.inclusivePercent { $0.name == "csampler_drain" }, 100)
        XCTAssertEqual(StackProfile.foldedName("a;b\nc"), "a:b c")
    }

    func test_speedscopeFileFollowsTheSchema() throws {
        let (p, _) = handMadeProfile()
        let json = p.symbolicated().speedscopeJSON(name: "hand \"made\"")
        XCTAssertEqual(try OutputChecks.validateSpeedscope(Data(json.utf8)), 3)
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(root["name"] as? String, "hand \"made\"")
        let profiles = try XCTUnwrap(root["profiles"] as? [[String: Any]])
        XCTAssertEqual(profiles.count, 2, "one profile per thread")
        // Weights are the time a sample stands for: weight x 1 ms period, in microseconds.
        XCTAssertEqual(profiles[0]["weights"] as? [Int], [1_000, 3_000])
        XCTAssertEqual(profiles[0]["endValue"] as? Int, 4_000)
        let frames = try XCTUnwrap((root["shared"] as? [String: Any])?["frames"] as? [[String: Any]])
        let names = frames.map { $0["name"] as? String ?? "" }
        XCTAssertEqual(profiles[0]["samples"] as? [[Int]],
                       [["csampler_drain", "csampler_stop", "csampler_start"].map { names.firstIndex(of: $0)! },
                        ["csampler_drain", "csampler_stop"].map { names.firstIndex(of: $0)! }])
    }

    func test_gperftoolsLayoutWordByWord() throws {
        let (p, addresses) = handMadeProfile()
        let data = p.gperftoolsData()
        let wordCount = 5 + 2 + 3 + 2 + 2 + 3   // the header, two records, the third record's count, depth and leaf
        let words: [UInt] = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [UInt] in
            var out: [UInt] = []
            for i in 0..<wordCount { out.append(raw.loadUnaligned(fromByteOffset: i * 8, as: UInt.self)) }
            return out
        }
        // Header; three distinct stacks (the records keep addresses, not names); trailer.
        XCTAssertEqual(Array(words[0..<5]), [0, 3, 0, 1000, 0])
        XCTAssertEqual(Array(words[5..<10]), [1, 3] + addresses[0..<3])
        let parsed = try OutputChecks.parseGperftools(data)
        XCTAssertEqual(parsed.period, 1000)
        XCTAssertEqual(parsed.samples, 3)
        XCTAssertTrue(parsed.maps.contains("r-xp"), "the process's maps follow the trailer")
    }

    func test_traceEventsUseExactMicrosecondsAndNest() throws {
        XCTAssertEqual(JSONText.microseconds(1_234_567), "1234.567")
        XCTAssertEqual(JSONText.microseconds(5), "0.005")
        XCTAssertEqual(JSONText.microseconds(0), "0.000")
        XCTAssertEqual(JSONText.quoted("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"")
        let t = TraceRecorder(processName: "test", origin: 1_000_000)
        t.nameThread("main", thread: 1)
        t.complete("frame 0", category: "frame", start: 1_000_000, end: 1_010_000, thread: 1)
        t.complete("commit", start: 1_000_000, end: 1_004_000, thread: 1)
        t.complete("render", start: 1_004_000, end: 1_010_000, thread: 1)
        t.counter("active animations", value: 12, at: 1_010_000, thread: 1)
        t.complete("other thread", start: 1_002_000, end: 1_020_000, thread: 2)
        let events = try OutputChecks.validateTraceNesting(Data(t.json().utf8))
        XCTAssertEqual(events.count, 4)
        XCTAssertEqual(events.first { $0.name == "render" }?.ts, 4)
        XCTAssertEqual(events.first { $0.name == "render" }?.dur, 6)

        // The checker flags a child that outlives its parent, and not one on another thread.
        XCTAssertEqual(OutputChecks.nestingViolations([("parent", 1, 0, 10), ("child", 1, 5, 10)]), 1)
        XCTAssertEqual(OutputChecks.nestingViolations([("parent", 1, 0, 10), ("child", 2, 5, 10)]), 0)
        XCTAssertEqual(OutputChecks.nestingViolations([("a", 1, 0, 10), ("b", 1, 10, 5), ("c", 1, 11, 1)]), 0)
    }

    func test_traceIsDecimatedEvenlyAtItsCapAndKeepsWholeSpans() throws {
        let t = TraceRecorder(processName: "test", origin: 0, maxEvents: 100)
        t.nameThread("benchmark")
        for i in 0..<1_000 {
            let start = UInt64(i) * 1_000
            t.complete("it \(i)", category: "iteration", start: start, end: start + 500)
            if i % 250 == 0 { t.complete("case \(i / 250)", category: "benchmark", start: start, end: start + 250_000) }
        }
        let kept = t.recorded
        XCTAssertLessThan(kept.count, 100)
        XCTAssertEqual(kept.filter { $0.category == "benchmark" }.count, 4, "whole spans are never dropped")
        XCTAssertEqual(kept.filter { $0.phase == .metadata }.count, 1)
        let iterations = kept.filter { $0.category == "iteration" }.map { Int($0.start / 1_000) }
        XCTAssertEqual(t.droppedEvents, 1_000 - iterations.count)
        XCTAssertEqual(t.decimation, 16)
        // Evenly over the run: kept iterations in every tenth of it, one in `decimation` at the end.
        for tenth in 0..<10 { XCTAssertTrue(iterations.contains { $0 / 100 == tenth }, "no event kept in tenth \(tenth): \(iterations)") }
        XCTAssertEqual(iterations, Array(stride(from: 0, to: 1_000, by: 16)), "one in 16, evenly")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(t.json().utf8)) as? [String: Any])
        let note = try XCTUnwrap((json["otherData"] as? [String: Any])?["decimation"] as? String)
        XCTAssertTrue(note.contains("cap of 100 events") && note.contains("\(t.droppedEvents) were dropped"), note)
        // Below the cap nothing is dropped or said.
        let small = TraceRecorder(processName: "test", origin: 0, maxEvents: 100)
        for i in 0..<50 { small.complete("it", category: "iteration", start: UInt64(i), end: UInt64(i) + 1) }
        XCTAssertEqual(small.recorded.count, 50)
        XCTAssertNil(small.decimationNote)
    }

    func test_differentialFoldedAndGraph() throws {
        let before = "main;a 60\nmain;b 30\nmain;c 10\n"
        let after = "main;b 30\nmain;a 60\nmain;c;d 40\nmain;e 20\n"
        let diff = try FlameGraph.differentialFolded(before: before, after: after)
        // The after file's stacks in its order, then those only before, counts before and after.
        XCTAssertEqual(diff, "main;b 30 30\nmain;a 60 60\nmain;c;d 0 40\nmain;e 0 20\nmain;c 10 0\n")
        let g = try FlameGraph(folded: diff)
        XCTAssertTrue(g.isDifferential)
        XCTAssertEqual(g.totalSamples, 150)
        // Shares: a 60% -> 40%, b 30% -> 20%, c 10% -> 26.7% (its callee d all of it), e 0 -> 13.3%.
        let grew = g.changes(limit: 5, growth: true)
        XCTAssertEqual(grew.map(\.stack), ["main;c;d", "main;e"], "c is not listed: d carries its growth")
        XCTAssertEqual(grew[0].beforePercent, 0)
        XCTAssertEqual(grew[0].afterPercent, 100.0 * 40 / 150, accuracy: 1e-9)
        let shrank = g.changes(limit: 5, growth: false)
        XCTAssertEqual(shrank.map(\.stack), ["main;a", "main;b"])
        XCTAssertEqual(shrank[0].delta, 40 - 60, accuracy: 1e-9)
        let svg = g.svg(title: "t", minimumWidth: 0)
        XCTAssertTrue(svg.contains("before 60 samples, 60.00%; -20.00 points"), svg)
        // d's growth (26.7 points) is the largest change: saturated red; a's shrink (20 points)
        // three quarters of it: 255 x (1 - 0.75) of the other channels.
        XCTAssertTrue(svg.contains("fill=\"rgb(255,0,0)\""), svg)
        XCTAssertTrue(svg.contains("fill=\"rgb(64,64,255)\""), svg)
        // A plain folded file is not differential and lists no change.
        let plain = try FlameGraph(folded: before)
        XCTAssertFalse(plain.isDifferential)
        XCTAssertEqual(plain.changes(), [])
        // Errors name the side and line; one and two counts do not mix.
        XCTAssertThrowsError(try FlameGraph.differentialFolded(before: "main;a 1\nmain;b x\n", after: after)) { e in
            XCTAssertEqual("\(e)", "folded stacks, line 2: before: 'x' is not a positive sample count")
        }
        XCTAssertThrowsError(try FlameGraph.differentialFolded(before: before, after: diff)) { e in
            XCTAssertTrue("\(e)".contains("after: two counts"), "\(e)")
        }
        XCTAssertThrowsError(try FlameGraph(folded: "main;a 1 2\nmain;b 3\n")) { e in
            XCTAssertEqual("\(e)", "folded stacks, line 2: 1 count(s) where the lines before have 2")
        }
        XCTAssertThrowsError(try FlameGraph(folded: "main;a 0 2\n")) { e in
            XCTAssertTrue("\(e)".contains("no samples in the before column"), "\(e)")
        }
    }

    func test_flameGraphFromFoldedStacksMatchesTheProfile() throws {
        let (p, _) = handMadeProfile()
        let stacks = p.symbolicated()
        let fromProfile = FlameGraph(stacks)
        let fromFolded = try FlameGraph(folded: stacks.folded())
        XCTAssertEqual(fromFolded.totalSamples, 3)
        XCTAssertEqual(fromFolded.svg(title: "x"), fromProfile.svg(title: "x"), "the folded text carries the whole graph")
        // As a report chart: marked for the report's checks, data rects classed.
        let chart = fromFolded.svg(title: "x", asChart: "flame-graph")
        XCTAssertTrue(chart.contains("<svg class=\"strata-flame chart\" data-chart=\"flame-graph\""))
        XCTAssertEqual(chart.components(separatedBy: "<rect class=\"data\"").count - 1, 4)
        XCTAssertFalse(fromFolded.svg(title: "x").contains("class=\"data\""))
    }

    func test_flameGraphRejectsMalformedFoldedStacksByLine() {
        func error(_ text: String) -> FlameGraph.ParseError? {
            do { _ = try FlameGraph(folded: text); return nil } catch { return error as? FlameGraph.ParseError }
        }
        XCTAssertEqual(error("a;b 3\n\na;c x\n")?.line, 3)
        XCTAssertEqual(error("a;b 3\na;c\n")?.line, 2)
        XCTAssertEqual(error("a;b 0\n")?.line, 1, "a zero count is not a sample")
        XCTAssertEqual(error("a;b -2\n")?.line, 1)
        XCTAssertEqual(error(" 5\n")?.line, 1, "an empty stack")
        XCTAssertNotNil(error(""), "no samples at all")
        XCTAssertEqual(error("a;b 3\na;c x\n")?.description, "folded stacks, line 2: 'x' is not a positive sample count")
        // Windows line ends and blank lines are fine; empty frame names become [unknown].
        let g = try? FlameGraph(folded: "main;work 2\r\n\r\nmain;;leaf 1\r\n")
        XCTAssertEqual(g?.totalSamples, 3)
        XCTAssertTrue(g?.svg(title: "t").contains("[unknown]") ?? false)
    }

    func test_flameGraphIsSelfContainedSVGWithScript() {
        let (p, _) = handMadeProfile()
        let html = p.symbolicated().flameGraphHTML(title: "t <x>")
        XCTAssertTrue(html.contains("<svg class=\"strata-flame\""))
        XCTAssertTrue(html.contains("t &lt;x&gt;"))
        XCTAssertTrue(html.contains("csampler_start"))
        XCTAssertTrue(html.contains("<script>"))
        XCTAssertEqual(html.components(separatedBy: "<g class=\"f\"").count - 1, 4, "all, drain, stop, start")
    }
}

// Exported C functions of this binary, as code addresses.
private let csamplerStart: @convention(c) (UnsafePointer<csampler_config>?) -> Int32 = csampler_start
private let csamplerStop: @convention(c) () -> Void = csampler_stop
private let csamplerDrain: @convention(c) (csampler_visitor?, UnsafeMutableRawPointer?) -> Int = csampler_drain

final class SourceLinesTests: XCTestCase {
    func test_addr2lineAnswersAreParsed() {
        XCTAssertEqual(SourceLines.parse("/src/a.swift:42"), SourceLocation(file: "/src/a.swift", line: 42))
        XCTAssertEqual(SourceLines.parse("/src/a.swift:7 (discriminator 3)"), SourceLocation(file: "/src/a.swift", line: 7))
        XCTAssertEqual(SourceLines.parse("/src/a.swift:0")?.description, "/src/a.swift:0 (no line: compiler-generated)")
        XCTAssertNil(SourceLines.parse("??:0"))
        XCTAssertNil(SourceLines.parse("??:?"))
        XCTAssertNil(SourceLines.parse("/src/a.swift:?"))
        XCTAssertNil(SourceLines.parse(""))
    }

    /// This test binary's own function: addr2line finds this file and a line inside the function.
    func test_ownFunctionResolvesToThisFile() throws {
        var name = [CChar](repeating: 0, count: 4096), path = [CChar](repeating: 0, count: 4096)
        var base: UInt = 0, start: UInt = 0
        // The return address of a call made on this line, minus one: inside this function, the
        // first frame of the stack in this test binary (the ones before are Foundation's).
        let line = #line; let stack = Thread.callStackReturnAddresses.map { $0.uintValue }
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let here = try XCTUnwrap(stack.lazy.map { $0 - 1 }.first { a in
            csampler_dladdr(a, &name, name.count, &path, path.count, &base, &start) != 0 && String(cString: path) == testBinary
        }, "\(stack)")
        _ = csampler_dladdr(here, &name, name.count, &path, path.count, &base, &start)
        let object = String(cString: path)
        let (found, problem) = SourceLines.resolve([object: [here - base]])
        XCTAssertNil(problem)
        let loc = try XCTUnwrap(found[object]?[here - base], "no line for the marker in \(object)")
        XCTAssertTrue(loc.file.hasSuffix("Tests/StrataProfilerTests/OutputFormatTests.swift"), loc.description)
        XCTAssertEqual(loc.line, line)
        // A missing object is said, not thrown.
        XCTAssertNotNil(SourceLines.resolve(["/nonexistent/object": [1]]).problem)
    }
}
