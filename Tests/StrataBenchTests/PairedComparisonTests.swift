import XCTest
@testable import StrataBench

/// Paired verdicts on known rounds, the noise band, the sign test, noise bands for unpaired
/// comparisons, the Markdown summary, callgrind's cache counts and the frame metrics.
final class PairedComparisonTests: XCTestCase {
    /// Rounds of a benchmark around `m`: a drift shared by both builds of a round (the
    /// machine), plus a small per-process wobble.
    func rounds(_ m: Double, drift: [Double], wobble: [Double]) -> [Double?] {
        zip(drift, wobble).map { m * (1 + $0) * (1 + $1) }
    }

    let drift = [0.00, 0.30, -0.10, 0.50, 0.05, -0.20, 0.25, 0.10, 0.40, -0.05, 0.15]
    let wobbleA = [0.004, -0.006, 0.002, 0.008, -0.003, 0.005, -0.007, 0.001, 0.006, -0.002, 0.003]
    let wobbleB = [-0.005, 0.003, 0.007, -0.004, 0.006, -0.001, 0.004, -0.006, 0.002, 0.005, -0.003]

    func test_pairingCancelsTheMachinesDrift() {
        let judge = PairedJudge()
        // The machine drifts by up to 50% between rounds; the head is 6% slower in every round.
        let a = rounds(100, drift: drift, wobble: wobbleA), b = rounds(106, drift: drift, wobble: wobbleB)
        let control = rounds(100, drift: drift, wobble: wobbleB.reversed())
        let slower = judge.judge(name: "x", metric: "time", base: a, head: b, control: control, absolute: false)
        XCTAssertEqual(slower.verdict, .regression)
        XCTAssertEqual(slower.change!, 0.06, accuracy: 0.01)
        XCTAssertEqual(slower.rounds, 11)
        XCTAssertEqual(slower.basis, "paired")
        XCTAssertLessThan(slower.pValue!, 0.01, "every round slower: the sign test agrees")
        XCTAssertGreaterThan(slower.ciLow!, slower.band!)
        // The same build against itself: unchanged, and the band says how far pairs move.
        let same = judge.judge(name: "x", metric: "time", base: a, head: rounds(100, drift: drift, wobble: wobbleB), control: control,
                               absolute: false)
        XCTAssertEqual(same.verdict, .unchanged)
        XCTAssertLessThan(abs(same.change!), 0.01)
        // Faster by 6%: improvement.
        let faster = judge.judge(name: "x", metric: "time", base: a, head: rounds(94, drift: drift, wobble: wobbleB), control: control,
                                 absolute: false)
        XCTAssertEqual(faster.verdict, .improvement)
        // Without control runs the band comes from consecutive rounds and holds the drift: the
        // same 6% is then not told apart from it.
        let uncontrolled = judge.judge(name: "x", metric: "time", base: a, head: b, absolute: false)
        XCTAssertGreaterThan(uncontrolled.band!, 0.1)
        XCTAssertNotEqual(uncontrolled.verdict, .regression)
    }

    func test_aDifferenceInsideTheNoiseBandIsNeverARegression() {
        // Consecutive rounds of one build move by ±15%: a +5% median change is inside that.
        // Two processes of one build, in one round, differ by ±15% here: +5% is inside that.
        let noisy = [0.15, -0.15, 0.12, -0.14, 0.15, -0.12, 0.13, -0.15, 0.14]
        let a: [Double?] = Array(repeating: 100, count: 9)
        let control: [Double?] = noisy.map { 100 * (1 + $0) }
        let b: [Double?] = noisy.reversed().map { 105 * (1 + $0) }
        let r = PairedJudge().judge(name: "x", metric: "time", base: a, head: b, control: control, absolute: false)
        XCTAssertNotEqual(r.verdict, .regression)
        XCTAssertGreaterThan(r.band!, 0.05, "the band reflects the rounds' spread")
        XCTAssertEqual(r.verdict, .inconclusive)
    }

    func test_tooFewRoundsAndMissingValues() {
        let r = PairedJudge().judge(name: "x", metric: "time", base: [100, 100, nil, 100], head: [120, 120, 120, nil], absolute: false)
        XCTAssertEqual(r.verdict, .insufficientData)
        XCTAssertEqual(r.rounds, 2)
        let none = PairedJudge().judge(name: "x", metric: "time", base: [nil, nil], head: [1, 2], absolute: false)
        XCTAssertEqual(none.verdict, .failed)
    }

    func test_hitchRatioIsJudgedAsADifferenceInMsPerSecond() {
        let judge = PairedJudge()
        let zeros: [Double?] = Array(repeating: 0, count: 9)
        XCTAssertEqual(judge.judge(name: "s", metric: "hitch", base: zeros, head: zeros, absolute: true).verdict, .unchanged)
        let worse: [Double?] = [6, 7, 6.5, 7.2, 6.8, 6.1, 7.4, 6.6, 6.9]
        let r = judge.judge(name: "s", metric: "hitch", base: zeros, head: worse, absolute: true)
        XCTAssertEqual(r.verdict, .regression)
        XCTAssertEqual(r.change!, 6.8, accuracy: 1e-9)
        XCTAssertEqual(r.formatChange(r.change), "+6.80 ms/s")
        XCTAssertEqual(r.band, 1, "the hitch floor, with no A/A spread")
    }

    func test_signTestExactValues() {
        XCTAssertEqual(PairedJudge.signTestP([1, 1, 1, 1, 1, 1, 1, 1, 1]), 2.0 / 512, accuracy: 1e-12)
        XCTAssertEqual(PairedJudge.signTestP([1, 1, 1, 1, 1, 1, 1, 1, -1]), 2.0 * 10 / 512, accuracy: 1e-12)
        XCTAssertEqual(PairedJudge.signTestP([0, 0]), 1)
        XCTAssertEqual(PairedJudge.signTestP([1, -1]), 1)
    }

    func test_judgeReadsBenchmarksAndScenesFromRounds() {
        func round(_ t: Double, p99: Double) -> StrataBlock {
            var b = ComparatorTests.block(["frame/a": [t]])
            b.scenes = [SceneResult(name: "app", description: "", layers: 1, frames: 100, warmupFrames: 0, p50: p99 / 2, p90: p99, p99: p99,
                                    p999: p99, max: p99, mean: p99 / 2, renderP50: 0, renderP99: 0, withinBudget16: 1, withinBudget8: 1,
                                    droppedFrames: 0, hitchMsPerSecond: 0, histogram: [], frameTimesMs: [])]
            return b
        }
        let base = drift.map { round(10 * (1 + $0), p99: 4 * (1 + $0)) }
        let control = zip(drift, wobbleA).map { round(10 * (1 + $0) * (1 + $1), p99: 4 * (1 + $0) * (1 + $1)) }
        let head = zip(drift, wobbleB).map { round(10 * (1 + $0) * (1 + $1), p99: 4.8 * (1 + $0)) }
        let rows = PairedJudge().judge(base: base, head: head, control: control)
        XCTAssertEqual(rows.map { "\($0.name) \($0.metric)" }, ["frame/a time", "scene/app p50", "scene/app p99", "scene/app hitch"])
        XCTAssertEqual(rows[0].verdict, .unchanged)
        XCTAssertEqual(rows[2].verdict, .regression)
        XCTAssertEqual(rows[2].change!, 0.2, accuracy: 1e-9)
    }

    func test_aScenesRoundFigureIsTheMinimumOverItsPasses() {
        // Each round's process ran the scene three times; one pass of each met interference
        // (+60%, a different pass each round). The round's figures are the minimums: the head's
        // +10% p99 shows through, the interrupted passes do not.
        func pass(_ p50: Double, _ p99: Double, hitch: Double) -> SceneResult {
            SceneResult(name: "app", description: "", layers: 1, frames: 100, warmupFrames: 0, p50: p50, p90: p99, p99: p99,
                        p999: p99, max: p99, mean: p50, renderP50: 0, renderP99: 0, withinBudget16: 1, withinBudget8: 1,
                        droppedFrames: 0, hitchMsPerSecond: hitch, histogram: [], frameTimesMs: [])
        }
        func round(_ i: Int, p99: Double, wobble: Double) -> StrataBlock {
            var b = ComparatorTests.block([:])
            b.scenes = (0..<3).map { k in
                let hit = k == i % 3 ? 1.6 : 1.0
                return pass(p99 / 2 * hit * (1 + wobble), p99 * hit * (1 + wobble), hitch: hit > 1 ? 12 : 2)
            }
            return b
        }
        let base = wobbleA.indices.map { round($0, p99: 4, wobble: wobbleA[$0]) }
        let control = wobbleB.indices.map { round($0 + 1, p99: 4, wobble: wobbleB[$0]) }
        let head = wobbleA.indices.map { round($0 + 2, p99: 4.4, wobble: wobbleB[$0]) }
        let rows = PairedJudge().judge(base: base, head: head, control: control)
        XCTAssertEqual(rows.map { "\($0.name) \($0.metric)" }, ["scene/app p50", "scene/app p99", "scene/app hitch"])
        XCTAssertEqual(rows[1].verdict, .regression)
        XCTAssertEqual(rows[1].baseline!, 4 * (1 + 0.002), accuracy: 1e-9)  // the median round's minimum, not 6.4
        XCTAssertEqual(rows[1].change!, 0.1, accuracy: 0.01)
        XCTAssertEqual(rows[0].baseline!, 2 * (1 + 0.002), accuracy: 1e-9)
        XCTAssertEqual(rows[2].verdict, .unchanged)  // every round's best pass had 2 ms/s
        XCTAssertEqual(rows[2].baseline!, 2, accuracy: 1e-12)
    }

    func test_noiseBandsAreTheLargestMoveBetweenProcesses() throws {
        let side1 = [100.0, 104, 98].map { ComparatorTests.block(["a": [$0]]) }
        let side2 = [101.0, 99, 110].map { ComparatorTests.block(["a": [$0]]) }
        let bands = try XCTUnwrap(NoiseBands.measure([side1, side2], source: "test", createdAt: "now"))
        XCTAssertEqual(bands.bands["a"]!, 110.0 / 99 - 1, accuracy: 1e-12)
        XCTAssertEqual(bands.processes, 3)
        XCTAssertEqual(bands.machineKey, side1[0].machine.timingKey)
    }

    func test_markdownPutsRegressionsFirstAndCollapsesUnchanged() {
        let rows = [
            ComparisonRow(name: "b", metric: "time", baseline: 1, head: 1, change: 0.001, ciLow: -0.01, ciHigh: 0.01, verdict: .unchanged,
                          band: 0.02, basis: "paired", rounds: 9),
            ComparisonRow(name: "a|pipe", metric: "time", baseline: 1, head: 1.1, change: 0.1, ciLow: 0.07, ciHigh: 0.12, verdict: .regression,
                          band: 0.02, basis: "paired", rounds: 9),
            ComparisonRow(name: "c", metric: "time", baseline: 1, head: 1.3, change: 0.3, verdict: .inconclusive, band: 0.5, basis: "unpaired"),
        ]
        let md = Comparison(baselinePath: "b", headPath: "h", timeThreshold: 0.02, countThreshold: 0.01, sameMachine: true,
                            notes: ["a note"], rows: rows).markdown(title: "T")
        let lines = md.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "### T")
        let regression = lines.firstIndex { $0.hasPrefix("| regression | `a\\|pipe`") }
        let undecided = lines.firstIndex { $0.hasPrefix("| inconclusive (unpaired) | `c`") }
        let details = lines.firstIndex { $0.contains("<details><summary>1 unchanged</summary>") }
        XCTAssertNotNil(regression, md)
        XCTAssertNotNil(undecided, md)
        XCTAssertNotNil(details, md)
        XCTAssertLessThan(regression!, undecided!)
        XCTAssertLessThan(undecided!, details!)
        XCTAssertTrue(md.contains("+10.0% | +7.0% … +12.0% | ±2.0%"), md)
        XCTAssertTrue(md.contains("> a note"))
    }

    func test_callgrindCacheEventsAndEstimatedCycles() throws {
        // Callgrind leaves out trailing zero columns (no last-level misses here).
        let dump = """
        desc: Trigger: Client Request: frame/x
        events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
        summary: 1000 300 200 10 40 20
        """
        let (name, c) = try XCTUnwrap(Counts.parseDump(dump))
        XCTAssertEqual(name, "frame/x")
        XCTAssertEqual(c.ir, 1000)
        XCTAssertEqual(c.cache?.l1Misses, 70)
        XCTAssertEqual(c.cache?.llMisses, 0)
        // L1 hits 1500 - 70 = 1430, LL hits 70, memory 0: 1430 + 5 * 70.
        XCTAssertEqual(c.estimatedCycles, 1430 + 350)
        let withMemory = try XCTUnwrap(Counts.parseDump("""
        desc: Trigger: Client Request: y
        events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
        summary: 1000 300 200 10 40 20 1 9 2
        """)).1
        XCTAssertEqual(withMemory.cache?.llMisses, 12)
        XCTAssertEqual(withMemory.estimatedCycles, 1430 + 5 * 58 + 35 * 12)
        XCTAssertNil(Counts.parseDump("desc: Trigger: Client Request: z\nevents: Ir\nsummary: 1 2"), "more totals than events")
    }

    func test_estimatedCyclesGateAndMissCountsAreShownOnly() {
        func counts(_ cycles: Double, _ ll: Double) -> StrataBlock {
            var b = ComparatorTests.block([:], counts: ["x": (100, 0)])
            b.counts[0].estimatedCyclesPerItem = cycles
            b.counts[0].l1MissesPerItem = 1
            b.counts[0].llMissesPerItem = ll
            return b
        }
        let c = Comparator().compare(base: counts(150, 0), head: counts(160, 0.3), basePath: "b", headPath: "h")
        XCTAssertEqual(c.rows.first { $0.metric == "instructions" }?.verdict, .unchanged)
        XCTAssertEqual(c.rows.first { $0.metric == "estimated-cycles" }?.verdict, .regression)
        XCTAssertEqual(c.rows.first { $0.metric == "ll-misses" }?.verdict, .informational)
        XCTAssertEqual(c.exitCode(gate: .counts), 2)
        // A baseline from before the cache simulation: said once, not judged.
        let old = Comparator().compare(base: ComparatorTests.block([:], counts: ["x": (100, 0)]), head: counts(160, 0.3),
                                       basePath: "b", headPath: "h")
        XCTAssertNil(old.rows.first { $0.metric == "estimated-cycles" })
        XCTAssertEqual(old.notes.filter { $0.contains("cache-simulation counts on one side only for 1 bodies") }.count, 1)
    }

    func test_placementsAreGroupedByBodyAndJudgedByTheirMedian() throws {
        func dump(_ ir: UInt64, d1mr: UInt64) -> CallgrindCounts { CallgrindCounts(ir: ir, dr: 0, dw: 0, i1mr: 0, d1mr: d1mr, d1mw: 0, ilmr: 0, dlmr: 0, dlmw: 0) }
        // Estimated cycles: ir - misses + 5 x misses = ir + 4 x misses.
        let dumps = [Counts.dumpName("a", layout: 0): dump(1000, d1mr: 10),     // 1040
                     Counts.dumpName("a", layout: 1): dump(1000, d1mr: 30),     // 1120
                     Counts.dumpName("a", layout: 2): dump(1000, d1mr: 20),     // 1080
                     Counts.dumpName("b/x#y", layout: 0): dump(7, d1mr: 0),
                     "c": dump(5, d1mr: 1)]
        let by = Counts.byBody(dumps)
        XCTAssertEqual(Set(by.keys), ["a", "b/x#y", "c"])
        let a = try XCTUnwrap(by["a"])
        XCTAssertEqual(a.layouts, 3)
        XCTAssertEqual(a.median.estimatedCycles, 1080)
        XCTAssertEqual(a.estimatedCyclesRange, 1040...1120)
        XCTAssertEqual(by["b/x#y"]?.median.ir, 7)
        XCTAssertEqual(by["c"]?.layouts, 1)
        XCTAssertEqual(by["c"]?.estimatedCyclesRange, 9...9)
    }

    func test_estimatedCyclesChangeMustHoldInEveryPlacement() {
        func counts(_ cycles: Double, _ range: ClosedRange<Double>?) -> StrataBlock {
            var b = ComparatorTests.block([:], counts: ["x": (100, 0)])
            b.counts[0].estimatedCyclesPerItem = cycles
            b.counts[0].layouts = range == nil ? nil : 5
            b.counts[0].estimatedCyclesMinPerItem = range?.lowerBound
            b.counts[0].estimatedCyclesMaxPerItem = range?.upperBound
            return b
        }
        func verdict(_ base: StrataBlock, _ head: StrataBlock) -> Verdict? {
            Comparator().compare(base: base, head: head, basePath: "b", headPath: "h").rows.first { $0.metric == "estimated-cycles" }?.verdict
        }
        // +1.5% at the median, but one placement of the head is within the baseline's range.
        XCTAssertEqual(verdict(counts(100, 99.5...101.7), counts(101.5, 101.2...102)), .inconclusive)
        // The same change with the ranges apart: every placement is worse.
        XCTAssertEqual(verdict(counts(100, 99.5...100.4), counts(101.5, 101.2...102)), .regression)
        XCTAssertEqual(verdict(counts(101.5, 101.2...102), counts(100, 99.5...100.4)), .improvement)
        // Within the threshold stays unchanged whatever the ranges.
        XCTAssertEqual(verdict(counts(100, 99...101), counts(100.5, 100...101)), .unchanged)
        // A report without placements on either side: the medians alone decide, as before.
        XCTAssertEqual(verdict(counts(100, nil), counts(101.5, 101.2...102)), .regression)
        let inconclusive = Comparator().compare(base: counts(100, 99.5...101.7), head: counts(101.5, 101.2...102), basePath: "b", headPath: "h")
        XCTAssertEqual(inconclusive.exitCode(gate: .counts), 0)
        // A small body: +1.4% is 0.25 cycles per item, under the simulation's resolution
        // (the floor, 0.3); +2.2% (0.4 cycles) is a regression.
        XCTAssertEqual(verdict(counts(17.87, 17.86...17.88), counts(18.12, 18.11...18.13)), .unchanged)
        XCTAssertEqual(verdict(counts(17.87, 17.86...17.88), counts(18.27, 18.26...18.28)), .regression)
        XCTAssertEqual(verdict(counts(18.27, 18.26...18.28), counts(17.87, 17.86...17.88)), .improvement)
    }

    func test_frameOverrunAndHitchRating() {
        var recorder = FrameTimeRecorder()
        // 90 frames of 10 ms, 10 of 30 ms.
        for i in 0..<100 { recorder.record(frameNanoseconds: i < 90 ? 10_000_000 : 30_000_000, renderNanoseconds: 1_000_000) }
        let r = recorder.result(name: "s", layers: 1, warmupFrames: 0, description: "")
        let o = r.frameOverrunMs!
        XCTAssertEqual(o.p50, 10 - 16.666667, accuracy: 1e-6)
        XCTAssertEqual(o.p90, 10 - 16.666667, accuracy: 1e-6)
        XCTAssertEqual(o.p95, 30 - 16.666667, accuracy: 1e-6)
        XCTAssertEqual(o.p99, 30 - 16.666667, accuracy: 1e-6)
        // 10 frames late by 13.33 ms over 90 x 16.67 + 10 x 33.33 ms = 1.833 s: 72.7 ms/s, critical.
        XCTAssertEqual(r.hitchMsPerSecond, 133.33333 / 1.8333333, accuracy: 1e-3)
        XCTAssertEqual(r.hitchRating, .critical)
        var ok = r
        ok.hitchMsPerSecond = 4.9
        XCTAssertEqual(ok.hitchRating, .good)
        ok.hitchMsPerSecond = 10
        XCTAssertEqual(ok.hitchRating, .warning)
    }
}
