import Foundation

/// Compares a head report with a baseline: times by rank test and bootstrap interval,
/// deterministic counts exactly against a tight threshold.
public struct Comparator {
    /// Fewer repetitions than this on either side: "insufficient data", not a verdict.
    public static let minimumRepetitions = 9

    /// Relative change of the median time that matters (0.05 = 5%).
    public var timeThreshold = 0.05
    /// Relative change of an instruction or malloc count that matters.
    public var countThreshold = 0.01
    /// Estimated cycles per item a change must also exceed to be judged: the simulation's
    /// resolution. A body's misses move by a few cache lines when unrelated code moves its
    /// data or code (an unchanged frame/opacity/shared/basic/1000, 18 cycles per item, moved
    /// +0.24 from one binary to the next and -0.17 to another, with every placement agreeing),
    /// about the same number of misses whatever the body's size; 1% of a large body is well
    /// beyond it.
    public var estimatedCyclesFloor = 0.3
    /// Run-to-run movement of a median on this machine kind even with no code change: the
    /// bootstrap interval must lie wholly beyond it for a time verdict.
    public var noiseFloor = 0.02
    /// Significance level of the Mann–Whitney test.
    public var alpha = 0.01
    /// How far a benchmark's median moves between separate processes of one build on this
    /// machine kind (measured by `strata-bench ab`, which runs each build in many processes).
    /// Two reports are unpaired: a time difference is judged only beyond its band, and with
    /// no band measured it is "inconclusive (unpaired)" unless it is plainly within the
    /// threshold.
    public var bands: NoiseBands?
    /// A package's thresholds file: where it sets a tolerance for a benchmark's metric (its
    /// own, or the file's default for the metric), that tolerance judges the change in place
    /// of `timeThreshold`/`countThreshold`.
    public var thresholds: Thresholds?

    /// A comparator with these thresholds and no noise bands.
    public init(timeThreshold: Double = 0.05, countThreshold: Double = 0.01, noiseFloor: Double = 0.02, alpha: Double = 0.01) {
        self.timeThreshold = timeThreshold
        self.countThreshold = countThreshold
        self.noiseFloor = noiseFloor
        self.alpha = alpha
    }

    /// Every benchmark's time and every counted body's counts of `head` against `base`; the
    /// paths are only named in the result. Notes say what was not compared and why.
    public func compare(base: StrataBlock, head: StrataBlock, basePath: String, headPath: String) -> Comparison {
        let sameMachine = base.machine.timingKey == head.machine.timingKey
        var notes: [String] = []
        if !sameMachine {
            notes.append("the reports come from different machines or builds (baseline: \(base.machine.cpuModel), \(base.machine.cores) cores, \(base.machine.buildFlags); head: \(head.machine.cpuModel), \(head.machine.cores) cores, \(head.machine.buildFlags)): times are shown but not judged; instruction and malloc counts are compared")
        }
        if base.machine.swiftVersion != head.machine.swiftVersion {
            notes.append("different Swift toolchains: instruction counts may move for that reason alone")
        }
        var bands = self.bands
        if let b = bands, b.machineKey != head.machine.timingKey {
            notes.append("the noise bands (\(b.source)) were measured on another machine or build: unpaired time differences are judged without them")
            bands = nil
        }
        if sameMachine && !base.benchmarks.isEmpty {
            notes.append(bands == nil
                ? "unpaired times (two separate runs) with no noise band measured for this machine: differences beyond \(Int((timeThreshold * 100).rounded()))% are inconclusive; `strata-bench ab` pairs the builds and measures the band"
                : "unpaired times judged against the noise bands measured by \(bands!.source) (\(bands!.processes) processes, \(bands!.createdAt))")
        }
        var rows: [ComparisonRow] = []
        let baseTimes = Dictionary(base.benchmarks.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let headTimes = Dictionary(head.benchmarks.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for h in head.benchmarks {
            guard let b = baseTimes[h.name] else {
                rows.append(ComparisonRow(name: h.name, metric: "time", baseline: nil, head: h.medianNsPerItem, change: nil, verdict: .new))
                continue
            }
            rows.append(compareTime(b, h, sameMachine: sameMachine, band: bands?.bands[h.name]))
        }
        for b in base.benchmarks where headTimes[b.name] == nil {
            rows.append(ComparisonRow(name: b.name, metric: "time", baseline: b.medianNsPerItem, head: nil, change: nil, verdict: .missing))
        }
        var oneSidedCache: [String] = []
        let baseCounts = Dictionary(base.counts.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let headCounts = Dictionary(head.counts.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for h in head.counts {
            guard let b = baseCounts[h.name] else {
                rows.append(ComparisonRow(name: h.name, metric: h.frames == nil ? "instructions" : "instructions-p50", baseline: nil,
                                          head: h.frames?.instructions?.p50 ?? h.instructionsPerItem, change: nil, verdict: .new))
                continue
            }
            if let hf = h.frames {
                rows += compareFrames(h.name, base: b, head: h, hf, notes: &notes)
                continue
            }
            if let bi = b.instructionsPerItem, let hi = h.instructionsPerItem {
                rows.append(compareCount(h.name, "instructions", bi, hi))
            } else if b.instructionsPerItem != nil || h.instructionsPerItem != nil {
                notes.append("\(h.name): instruction count missing on one side (valgrind unavailable?)")
            }
            // The cache simulation: estimated cycles gate like instructions; the miss counts
            // are shown (small absolute numbers swing by large percentages) but not gated.
            if let bc = b.estimatedCyclesPerItem, let hc = h.estimatedCyclesPerItem {
                rows.append(compareCount(h.name, "estimated-cycles", bc, hc, baseRange: b.estimatedCyclesRangePerItem,
                                         headRange: h.estimatedCyclesRangePerItem, floor: estimatedCyclesFloor))
                for (metric, bm, hm) in [("l1-misses", b.l1MissesPerItem, h.l1MissesPerItem), ("ll-misses", b.llMissesPerItem, h.llMissesPerItem)] {
                    if let bm, let hm { rows.append(compareCount(h.name, metric, bm, hm, gated: false)) }
                }
            } else if b.estimatedCyclesPerItem != nil || h.estimatedCyclesPerItem != nil {
                oneSidedCache.append(h.name)
            }
            rows.append(compareCount(h.name, "mallocs", b.mallocsPerItem, h.mallocsPerItem))
        }
        if !oneSidedCache.isEmpty {
            notes.append("cache-simulation counts on one side only for \(oneSidedCache.count) bodies (a report from before they were recorded?): their estimated cycles are not compared")
        }
        for b in base.counts where headCounts[b.name] == nil {
            rows.append(ComparisonRow(name: b.name, metric: b.frames == nil ? "instructions" : "instructions-p50",
                                      baseline: b.frames?.instructions?.p50 ?? b.instructionsPerItem, head: nil, change: nil, verdict: .missing))
        }
        rows += sceneFrameTimes(base: base, head: head, sameMachine: sameMachine, bands: bands, notes: &notes)
        return Comparison(baselinePath: basePath, headPath: headPath, timeThreshold: timeThreshold,
                          countThreshold: countThreshold, sameMachine: sameMachine, notes: notes, rows: rows)
    }

    /// A scene's frame cost (`CountResult.frames`): the per-frame p50 and p99 of instructions
    /// and of estimated cycles, and mallocs per frame, each judged as a body's count is (the
    /// threshold; estimated cycles also against the range over placements). Frames counted
    /// on one side only, or a different number of them, make the rows inconclusive: their
    /// percentiles are not of the same frames.
    func compareFrames(_ name: String, base b: CountResult, head h: CountResult, _ hf: FrameCounts, notes: inout [String]) -> [ComparisonRow] {
        guard let bf = b.frames else {
            notes.append("\(name): the baseline has no per-frame counts of this scene (a report from before scenes were counted): not compared")
            return [ComparisonRow(name: name, metric: "instructions-p50", baseline: nil, head: hf.instructions?.p50, change: nil, verdict: .new)]
        }
        var rows: [ComparisonRow] = []
        let sameFrames = bf.frames == hf.frames && bf.warmupFrames == hf.warmupFrames
        if !sameFrames {
            notes.append("\(name): the reports counted different frames (baseline \(bf.frames) after \(bf.warmupFrames) warm-up, head \(hf.frames) after \(hf.warmupFrames)): its percentiles are shown, not judged; count with the baseline's --count-frames")
        }
        func add(_ metric: String, _ bv: Double?, _ hv: Double?, baseRange: ClosedRange<Double>? = nil, headRange: ClosedRange<Double>? = nil,
                 floor: Double = 0) {
            guard let bv, let hv else {
                if bv != nil || hv != nil { notes.append("\(name): \(metric) on one side only (valgrind unavailable?)") }
                return
            }
            var row = compareCount(name, metric, bv, hv, baseRange: baseRange, headRange: headRange, floor: floor)
            if !sameFrames && row.verdict != .unchanged { row.verdict = .inconclusive }
            rows.append(row)
        }
        add("instructions-p50", bf.instructions?.p50, hf.instructions?.p50)
        add("instructions-p99", bf.instructions?.p99, hf.instructions?.p99)
        add("estimated-cycles-p50", bf.estimatedCycles?.p50, hf.estimatedCycles?.p50, baseRange: FrameCounts.range(bf.estimatedCyclesP50Range),
            headRange: FrameCounts.range(hf.estimatedCyclesP50Range), floor: estimatedCyclesFloor)
        add("estimated-cycles-p99", bf.estimatedCycles?.p99, hf.estimatedCycles?.p99, baseRange: FrameCounts.range(bf.estimatedCyclesP99Range),
            headRange: FrameCounts.range(hf.estimatedCyclesP99Range), floor: estimatedCyclesFloor)
        add("mallocs", bf.mallocs.mean, hf.mallocs.mean)
        return rows
    }

    /// Each scene's frame-time p50 and p99 (ms) in both reports, for reading: two separate runs
    /// cannot judge a frame time (a scene runs once, its frames are not repetitions of one
    /// measurement), so the rows are informational, beside the band `ab` measured for the scene
    /// when there is one. The counts (`instructions-p50`, ...) and `ab` give frame verdicts.
    func sceneFrameTimes(base: StrataBlock, head: StrataBlock, sameMachine: Bool, bands: NoiseBands?, notes: inout [String]) -> [ComparisonRow] {
        let baseScenes = Dictionary(base.scenes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var rows: [ComparisonRow] = []
        for h in head.scenes {
            guard let b = baseScenes[h.name] else { continue }
            let name = "scene/\(h.name)"
            for (metric, bv, hv) in [("frame-time-p50", b.p50, h.p50), ("frame-time-p99", b.p99, h.p99)] {
                let band = bands?.bands[name + "#" + String(metric.suffix(3))]
                rows.append(ComparisonRow(name: name, metric: metric, baseline: bv, head: hv, change: bv > 0 ? hv / bv - 1 : nil,
                                          verdict: .informational, band: band, basis: "unpaired"))
            }
        }
        if !rows.isEmpty {
            notes.append("scene frame times (frame-time-p50/p99, ms) are shown for reading, not judged: two separate runs cannot give a frame-time verdict; the scenes' counts (instructions-p50/p99, estimated-cycles-p50/p99, mallocs) and `\(sameMachine ? "ab" : "ab on one machine")` do")
        }
        return rows
    }

    /// Two reports are unpaired: a time verdict needs the change beyond both the threshold
    /// and the benchmark's measured band, the bootstrap interval wholly beyond the band (and
    /// the noise floor), and the rank test significant. Without a band, only "unchanged"
    /// (interval within the threshold) or "inconclusive (unpaired)".
    func compareTime(_ b: BenchmarkSummary, _ h: BenchmarkSummary, sameMachine: Bool, band: Double? = nil) -> ComparisonRow {
        if b.error != nil || h.error != nil {
            return ComparisonRow(name: h.name, metric: "time", baseline: b.medianNsPerItem, head: h.medianNsPerItem,
                                 change: nil, verdict: .failed)
        }
        let change = b.medianNsPerItem > 0 ? h.medianNsPerItem / b.medianNsPerItem - 1 : nil
        guard sameMachine else {
            return ComparisonRow(name: h.name, metric: "time", baseline: b.medianNsPerItem, head: h.medianNsPerItem,
                                 change: change, verdict: .differentMachine)
        }
        guard b.samplesNsPerItem.count >= Self.minimumRepetitions, h.samplesNsPerItem.count >= Self.minimumRepetitions else {
            return ComparisonRow(name: h.name, metric: "time", baseline: b.medianNsPerItem, head: h.medianNsPerItem,
                                 change: change, verdict: .insufficientData)
        }
        let tolerance = thresholds?.tolerance(name: h.name, metric: "time")
        // A time is judged against a relative tolerance (a median's absolute ns move with the
        // machine); an absolute one applies to counts and to `thresholds check`.
        let timeThreshold = tolerance?.relative.map { $0 / 100 } ?? self.timeThreshold
        let p = Statistics.mannWhitneyP(b.samplesNsPerItem, h.samplesNsPerItem)
        let ci = Statistics.bootstrapMedianRatio(base: b.samplesNsPerItem, head: h.samplesNsPerItem)
        var verdict = Verdict.inconclusive
        if let c = change {
            if let band {
                let edge = max(noiseFloor, band), margin = max(timeThreshold, band)
                if c > margin && ci.low > edge && p < alpha { verdict = .regression }
                else if c < -margin && ci.high < -edge && p < alpha { verdict = .improvement }
                else if abs(c) <= timeThreshold { verdict = .unchanged }
            } else if abs(c) <= timeThreshold && ci.low >= -timeThreshold && ci.high <= timeThreshold {
                verdict = .unchanged
            }
        }
        return ComparisonRow(name: h.name, metric: "time", baseline: b.medianNsPerItem, head: h.medianNsPerItem,
                             change: change, ciLow: ci.low, ciHigh: ci.high, pValue: p, verdict: verdict,
                             band: band, basis: "unpaired")
    }

    /// Deterministic counts: the change against the count threshold, nothing else (a count
    /// that was zero and is not is a regression however small).
    /// A count's verdict: beyond `countThreshold` either way, and by at least `floor` per item.
    /// With the range the body took over
    /// its placements on both sides (estimated cycles, `CountResult.layouts`), a change beyond
    /// the threshold must also hold in every placement (the ranges apart); when they overlap,
    /// the address layout alone could have made it, and the verdict is inconclusive.
    func compareCount(_ name: String, _ metric: String, _ b: Double, _ h: Double, gated: Bool = true,
                      baseRange: ClosedRange<Double>? = nil, headRange: ClosedRange<Double>? = nil, floor: Double = 0) -> ComparisonRow {
        let change: Double? = b > 0 ? h / b - 1 : (h > 0 ? nil : 0)
        guard gated else {
            return ComparisonRow(name: name, metric: metric, baseline: b, head: h, change: change, verdict: .informational)
        }
        var verdict = Verdict.unchanged
        if let tolerance = thresholds?.tolerance(name: name, metric: metric) {
            let j = tolerance.judge(reference: b, head: h)
            verdict = j > 0 ? .regression : j < 0 ? .improvement : .unchanged
        } else {
            if b == 0 && h > 0 { verdict = .regression }
            if let c = change, c > countThreshold { verdict = .regression }
            if let c = change, c < -countThreshold { verdict = .improvement }
        }
        if let br = baseRange, let hr = headRange, br.overlaps(hr), verdict == .regression || verdict == .improvement {
            verdict = .inconclusive
        }
        // Within the simulation's resolution: not a change, however large in percent.
        if abs(h - b) < floor && (verdict == .regression || verdict == .improvement) { verdict = .unchanged }
        return ComparisonRow(name: name, metric: metric, baseline: b, head: h, change: change, verdict: verdict)
    }
}

/// Which verdicts decide the exit status.
public enum Gate: String, CaseIterable {
    /// Times and counts.
    case all
    /// Instruction and malloc counts only (times printed, not acted on): CI on shared machines.
    case counts
    /// Nothing: always 0 unless a run failed.
    case none
}

/// What a gate could judge: the gated figures found on both sides, and those found on one side
/// only (named, one entry per benchmark).
public struct GateCoverage: Equatable {
    /// Gated rows judged on both sides (regression, improvement, unchanged, inconclusive).
    public var compared: Int
    /// Benchmarks with a gated figure in the baseline and none in the head (not allowed missing).
    public var missingFromHead: [String]
    /// Benchmarks with a gated figure in the head and none in the baseline (not allowed missing).
    public var missingFromBaseline: [String]

    /// Whether the gate may pass: something was compared and nothing gated is one-sided.
    public var isComplete: Bool { compared > 0 && missingFromHead.isEmpty && missingFromBaseline.isEmpty }

    /// What is wrong with the coverage, in words (nil when complete).
    public func problem(gate: Gate) -> String? {
        func list(_ names: [String]) -> String {
            names.prefix(8).joined(separator: ", ") + (names.count > 8 ? " and \(names.count - 8) more" : "")
        }
        var parts: [String] = []
        if compared == 0 {
            parts.append("nothing was compared: the reports share no \(gate == .counts ? "counted body or scene" : "gated figure")")
        }
        if !missingFromHead.isEmpty { parts.append("\(missingFromHead.count) in the baseline but not in the head: \(list(missingFromHead))") }
        if !missingFromBaseline.isEmpty {
            parts.append("\(missingFromBaseline.count) in the head but not in the baseline: \(list(missingFromBaseline))")
        }
        guard !parts.isEmpty else { return nil }
        return "gate (\(gate.rawValue)) incomplete: " + parts.joined(separator: "; ")
            + " (--allow-missing PATTERN for intended additions and removals; refresh the baseline for new ones)"
    }
}

extension Comparison {
    /// The rows `gate` judges.
    func gated(_ gate: Gate) -> [ComparisonRow] {
        rows.filter { row in
            guard row.verdict != .informational else { return false }
            switch gate {
            case .all: return true
            case .counts: return !Thresholds.isTime(row.metric)
            case .none: return false
            }
        }
    }

    /// What `gate` could judge; `allowMissing` names the benchmarks that may be on one side only.
    public func coverage(gate: Gate, allowMissing: (String) -> Bool = { _ in false }) -> GateCoverage {
        let gated = gated(gate)
        let judged: Set<Verdict> = [.regression, .improvement, .unchanged, .inconclusive]
        func names(_ v: Verdict) -> [String] {
            var seen = Set<String>()
            return gated.filter { $0.verdict == v && !allowMissing($0.name) }.map(\.name).filter { seen.insert($0).inserted }.sorted()
        }
        return GateCoverage(compared: gated.filter { judged.contains($0.verdict) }.count,
                            missingFromHead: names(.missing), missingFromBaseline: names(.new))
    }

    /// Exit status for CI, as package-benchmark's where the two overlap: 0 fine, 2 a
    /// regression, 3 a benchmark failed in the head run or a gated figure of the baseline is
    /// not in the head, 4 improvements only, 5 a gated figure of the head is not in the
    /// baseline, or nothing was compared. (5 for an unreadable baseline is decided before
    /// comparing.) `gate` none: 0 unless a benchmark failed.
    public func exitCode(gate: Gate, allowMissing: (String) -> Bool = { _ in false }) -> Int32 {
        if rows.contains(where: { $0.verdict == .failed && $0.head != nil }) { return 3 }
        guard gate != .none else { return 0 }
        let gated = gated(gate)
        if gated.contains(where: { $0.verdict == .regression }) { return 2 }
        let coverage = coverage(gate: gate, allowMissing: allowMissing)
        if coverage.compared == 0 { return 5 }
        if !coverage.missingFromHead.isEmpty { return 3 }
        if !coverage.missingFromBaseline.isEmpty { return 5 }
        if gated.contains(where: { $0.verdict == .improvement }) { return 4 }
        return 0
    }

    /// A plain-text table: regressions first, then improvements, then the rest.
    public func table(all: Bool = false) -> String {
        func num(_ x: Double?) -> String { x.map { String(format: $0 >= 100 ? "%.0f" : "%.3g", $0) } ?? "–" }
        let order: [Verdict] = [.regression, .failed, .improvement, .inconclusive, .insufficientData, .differentMachine, .new, .missing,
                                .unchanged, .informational]
        // Pads to a width without cutting what is longer (a scene's counts run to millions).
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s.padding(toLength: n, withPad: " ", startingAt: 0) }
        var lines = ["verdict                  metric                change    95% CI               band     p        baseline     head  name"]
        for v in order {
            // Unchanged rows, and baseline rows a (quick) head run did not include, are
            // counted in the summary line and listed only with `all`.
            // A scene's frame times are informational and shown: the only frame-time figures
            // an unpaired comparison has.
            for r in rows where r.verdict == v && (all || (v != .unchanged && v != .missing && v != .informational)
                                                   || (v == .informational && r.metric.hasPrefix("frame-time"))) {
                let ci = r.ciLow.map { "[\(r.formatChange($0)), \(r.formatChange(r.ciHigh))]" } ?? "–"
                lines.append(r.verdictLabel.padding(toLength: 25, withPad: " ", startingAt: 0)
                    + pad(r.metric, 22)
                    + r.formatChange(r.change).padding(toLength: 10, withPad: " ", startingAt: 0)
                    + ci.padding(toLength: 21, withPad: " ", startingAt: 0)
                    + r.formatBand.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + (r.pValue.map { String(format: "%.4f", $0) } ?? "–").padding(toLength: 9, withPad: " ", startingAt: 0)
                    + pad(num(r.baseline), 13)
                    + pad(num(r.head), 6) + "  " + r.name)
            }
        }
        let counts = Dictionary(grouping: rows, by: \.verdict).mapValues(\.count)
        lines.append(order.compactMap { v in counts[v].map { "\($0) \(v.rawValue)" } }.joined(separator: ", "))
        return (notes.map { "note: \($0)" } + lines).joined(separator: "\n")
    }
}
