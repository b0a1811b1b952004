import CAllocationCounter
import CCallgrind
import Foundation
import StrataReportModel
import StrataScript

/// Measures a scene's counted frames phase by phase. A scene run given one (`SceneRunSettings.counter`)
/// plays its frames untimed on one render thread, calls `setUpBegins`/`setUpEnds` around
/// building the tree, brackets every frame after the warm-up with `beginFrame`/`endFrame`
/// (the runner reports the phases in between through `enter`), and calls `runEnds` when it is
/// released. Every call comes on the scene's engine thread.
public protocol SceneFrameCounter: FramePhaseProbe {
    /// Before the scene's tree is built (its placement begins).
    func setUpBegins()
    /// After the tree is built.
    func setUpEnds()
    /// Before each warm-up frame, with the warm-up frames left (this one included).
    func warmUpFrame(left: Int)
    /// Counted frame `index` (0 is the first after the warm-up) begins, in `.setters`.
    func beginFrame(_ index: Int)
    /// The frame's last phase ends.
    func endFrame()
    /// The run is over (its placement's spacers are freed).
    func runEnds()
}

/// Counts a scene's frames under callgrind (run with `--collect-atstart=no`): collection is
/// on from `beginFrame` to `endFrame` only, and each phase is dumped as
/// `scene-frame RUN LAYOUT FRAME PHASE` (`strata_callgrind_dump_frame_phase`, which builds the
/// name without allocating); collection is off while the dump is taken, so the counter's own
/// work is not counted. From placement 1 on, the tree's allocations are spaced (the bodies'
/// placement scheme, `Counts.defaultLayouts`).
public final class CallgrindFrameCounter: SceneFrameCounter {
    let run: Int
    let layout: Int
    private var frame = 0
    private var current = FramePhase.setters
    private let injection: InjectedFrameWork?

    /// The counter of run `run` (its index in the job) under placement `layout`; `injection`
    /// plants extra work in every frame (`STRATA_BENCH_INJECT_SLOWDOWN`).
    public init(run: Int, layout: Int, injection: InjectedFrameWork? = nil) {
        self.run = run
        self.layout = layout
        self.injection = injection
    }

    /// Warm-up frames run instrumented (not collected) before the counted ones, so that the
    /// simulated caches hold what a frame leaves in them: the last-level cache is 8 MiB, and
    /// one frame of a 10,000-layer tree already touches more.
    public static let instrumentedWarmUpFrames = 3

    private var instrumented = false

    /// The tree is built, and all but the last warm-up frames run, uninstrumented (callgrind
    /// runs with `--instr-atstart=no`: several times faster); instrumentation starts before
    /// the last `instrumentedWarmUpFrames` warm-up frames and stops at the run's end.
    public func setUpBegins() { if layout > 0 { strata_alloc_spacing_begin(UInt64(layout)) } }
    public func setUpEnds() { strata_alloc_spacing_end() }
    public func warmUpFrame(left: Int) { if left <= Self.instrumentedWarmUpFrames { instrument() } }
    public func runEnds() {
        if instrumented { strata_callgrind_stop_instrumentation() }
        instrumented = false
        strata_alloc_spacing_release()
    }

    /// Starts instrumenting, then takes a dump that is not a frame's: after instrumentation
    /// has been stopped and started again (the placement before), callgrind's first dump is the
    /// cost since the dump before the stop taken from a zeroed total, a negative number
    /// (app-10k's second placement: minus the first placement's 170 million instructions).
    /// The throwaway dump takes it, and every dump after it is the cost since the one before.
    private func instrument() {
        guard !instrumented else { return }
        instrumented = true
        strata_callgrind_start_instrumentation()
        strata_callgrind_dump_stats_at("instrumentation-start")
        injection?.skipped()
    }

    public func beginFrame(_ index: Int) {
        instrument()
        frame = index
        current = .setters
        strata_callgrind_zero_stats()
        strata_callgrind_toggle_collect()
    }

    public func enter(_ phase: FramePhase) {
        strata_callgrind_toggle_collect()
        dump()
        current = phase
        strata_callgrind_toggle_collect()
    }

    public func endFrame() {
        strata_callgrind_toggle_collect()
        dump()
        // The planted regression: P% of this frame's instructions more, as endFrame work.
        if let injection {
            injection.afterFrame()   // collects only around the planted work itself
            dump()
        }
    }

    private func dump() {
        strata_callgrind_dump_frame_phase(UInt(run), UInt(layout), UInt(frame), UInt(current.rawValue))
        injection?.dumped()
    }
}

/// `STRATA_BENCH_INJECT_SLOWDOWN=P` under callgrind: after each counted frame, P% of the
/// frame's own instructions again, spent in a loop whose instructions per iteration were
/// measured first. The frame's instructions are read back from the dumps callgrind has just
/// written (`OUT.N`, the summary line at the top of each), so the planted work is exact
/// whatever the scene.
public final class InjectedFrameWork {
    public let percent: Double
    let dumpFile: String
    private let dumpPath: [CChar]
    private var dumps = 0
    private var frameFirstDump = 1
    private var instructionsPerIteration = 0.0
    private var fixedInstructions = 0.0
    public private(set) var sink: UInt64 = 0

    /// `percent` of each frame, read back from callgrind's dumps of `dumpFile`
    /// (`--callgrind-out-file`). Calibrates the loop now (collection must be off).
    /// The worker makes one whether or not work is planted (`percent` 0: none), so that a
    /// planted run's heap is laid out as an unplanted run's.
    public init(percent: Double, dumpFile: String) {
        self.percent = percent
        self.dumpFile = dumpFile
        dumpPath = Array(dumpFile.utf8CString)
        var per: [Double] = []
        strata_callgrind_start_instrumentation()
        defer { strata_callgrind_stop_instrumentation() }
        strata_callgrind_dump_stats_at("instrumentation-start")
        dumps += 1
        for n in [10_000, 20_000] {
            strata_callgrind_zero_stats()
            strata_callgrind_toggle_collect()
            sink &+= Self.spin(n)
            strata_callgrind_toggle_collect()
            strata_callgrind_dump_stats_at("injection-calibration \(n)")
            dumps += 1
            per.append(Double(instructions(ofDump: dumps) ?? 0))
        }
        instructionsPerIteration = max((per[1] - per[0]) / 10_000, 1)
        // What collecting around the loop costs besides its iterations (the call, the toggles).
        fixedInstructions = max(per[0] - 10_000 * instructionsPerIteration, 0)
        frameFirstDump = dumps + 1
    }

    /// `percent` from `STRATA_BENCH_INJECT_SLOWDOWN` (nil when unset or out of 0...100).
    public static var percentFromEnvironment: Double? {
        guard let text = ProcessInfo.processInfo.environment["STRATA_BENCH_INJECT_SLOWDOWN"], let p = Double(text), p > 0, p <= 100 else { return nil }
        return p
    }

    func dumped() { dumps += 1 }

    /// A dump was taken that is no frame's (the throwaway after instrumentation starts): the
    /// next frame's dumps come after it.
    func skipped() {
        dumps += 1
        frameFirstDump = dumps + 1
    }

    func afterFrame() {
        var frame: UInt64 = 0
        for d in frameFirstDump...max(frameFirstDump, dumps) where d <= dumps {
            frame &+= instructions(ofDump: d) ?? 0
        }
        // A count past 2^62 is a wrapped negative one (see `CallgrindFrameCounter.instrument`):
        // no work is planted on it (the run reports it as not plausible).
        let iterations = frame >= 1 << 62 ? 0
            : max(0, Int(((Double(frame) * percent / 100 - fixedInstructions) / instructionsPerIteration).rounded()))
        if ProcessInfo.processInfo.environment["STRATA_BENCH_INJECT_DEBUG"] != nil {
            print("\(Counts.progressPrefix)inject: dumps \(frameFirstDump)...\(dumps) frame \(frame) per \(instructionsPerIteration) iterations \(iterations)"); fflush(stdout)
        }
        strata_callgrind_toggle_collect()
        sink &+= Self.spin(iterations)
        strata_callgrind_toggle_collect()
        frameFirstDump = dumps + 2   // the injected work's own dump comes next
    }

    /// Instructions of dump `n` (its `summary:` line), read without allocating (the counted
    /// frames that follow see the same heap as an unplanted run's).
    func instructions(ofDump n: Int) -> UInt64? {
        let v = dumpPath.withUnsafeBufferPointer { strata_callgrind_dump_instructions($0.baseAddress!, UInt(n)) }
        return v == 0 ? nil : v
    }

    /// `n` iterations of a loop of fixed cost per iteration.
    static func spin(_ n: Int) -> UInt64 { strata_spin(UInt64(max(n, 0))) }
}

/// Counts a scene's mallocs per frame and phase, in this process (the thread-local counters
/// of CAllocationCounter, on the engine's thread), as the bodies' mallocs are counted.
public final class MallocFrameCounter: SceneFrameCounter, Codable {
    private var current = FramePhase.setters
    private var phaseStart: UInt64 = 0
    private var frame: [UInt64] = Array(repeating: 0, count: FramePhase.allCases.count)
    /// Per counted frame, the mallocs of each phase (indexed by `FramePhase.rawValue`).
    public private(set) var frames: [[UInt64]] = []
    /// Frees and bytes over all counted frames.
    public private(set) var frees: UInt64 = 0
    public private(set) var bytes: UInt64 = 0

    enum CodingKeys: String, CodingKey { case frames, frees, bytes }

    public init(expectedFrames: Int = 0) { frames.reserveCapacity(expectedFrames) }

    public func setUpBegins() {}
    public func setUpEnds() {}
    public func warmUpFrame(left: Int) {}
    public func runEnds() {}

    public func beginFrame(_ index: Int) {
        current = .setters
        for i in frame.indices { frame[i] = 0 }
        strata_alloc_counting_begin()
        phaseStart = 0
    }

    public func enter(_ phase: FramePhase) {
        let now = strata_alloc_count()
        frame[current.rawValue] += now - phaseStart
        phaseStart = now
        current = phase
    }

    public func endFrame() {
        strata_alloc_counting_end()
        frame[current.rawValue] += strata_alloc_count() - phaseStart
        frees += strata_free_count()
        bytes += strata_alloc_bytes()
        frames.append(frame)
    }
}

/// A scene's callgrind dumps, frame by frame and phase by phase, turned into its `FrameCounts`.
public enum SceneCounts {
    /// Counted frames when `--count-frames` is not given: 100 (a p99 over distinct frames),
    /// fewer for large trees, so that a scene's counting stays within about half a minute
    /// per placement: about `frameBudget` layer-frames (rounded to tens of frames), and never
    /// fewer than 10 frames. A
    /// frame of a 100,000-layer tree takes about 2 s under callgrind (stress-100k: 10
    /// frames); app-10k's 10,000 layers, about 0.1 s (100 frames). Decided by the scene alone, so
    /// every run of one scene counts the same frames.
    public static func defaultFrames(layers: Int?) -> Int {
        guard let layers, layers > 0 else { return 100 }
        return min(100, max(10, Int((Double(frameBudget) / Double(layers) / 10).rounded()) * 10))
    }

    /// Layers times counted frames a scene's default count stays within.
    public static let frameBudget = 1_000_000

    /// Placements each scene is counted under (the bodies' scheme, `Counts.defaultLayouts`,
    /// with fewer placements: a frame makes millions of accesses, and the placements moved
    /// app-10k's per-frame p50 of estimated cycles by 0.19% and its p99 by 0.01%, against the
    /// bodies' 0.5%).
    public static let defaultLayouts = 3

    /// Extra callgrind options for scene counting: dumps without line numbers (each frame
    /// writes several dumps), and nothing instrumented until a run's tree is built.
    public static let callgrindOptions = ["--dump-line=no", "--instr-atstart=no"]

    /// Per run, placement, frame and phase: the counts of each `scene-frame` dump (several
    /// dumps of one phase in a frame are added).
    /// A dump whose figures are not plausible (a count past 2^62 is a negative one wrapped:
    /// callgrind's quirk after instrumentation restarts, `CallgrindFrameCounter.instrument`)
    /// stops the run's counts instead of passing as a figure: `implausible` names them.
    public static func byFrame(_ dumps: [String: CallgrindCounts]) -> [Int: [Int: [Int: [Int: CallgrindCounts]]]] {
        byFrame(dumps, implausible: nil)
    }

    public static func byFrame(_ dumps: [String: CallgrindCounts], implausible: UnsafeMutablePointer<[String]>?) -> [Int: [Int: [Int: [Int: CallgrindCounts]]]] {
        var out: [Int: [Int: [Int: [Int: CallgrindCounts]]]] = [:]
        for (name, c) in dumps {
            let limit: UInt64 = 1 << 62
            if c.ir >= limit || (c.cache.map { [$0.dr, $0.dw, $0.i1mr, $0.d1mr, $0.d1mw, $0.ilmr, $0.dlmr, $0.dlmw].contains { $0 >= limit } } ?? false) {
                if name.hasPrefix("scene-frame") { implausible?.pointee.append(name) }
                continue
            }
            // Names are unique per dump: "scene-frame R L F P" or "scene-frame R L F P#k".
            let base = name.split(separator: "#").first.map(String.init) ?? name
            let parts = base.split(separator: " ")
            guard parts.count == 5, parts[0] == "scene-frame", let r = Int(parts[1]), let l = Int(parts[2]),
                  let f = Int(parts[3]), let p = Int(parts[4]) else { continue }
            let old = out[r]?[l]?[f]?[p]
            out[r, default: [:]][l, default: [:]][f, default: [:]][p] = old.map { $0 + c } ?? c
        }
        return out
    }

    /// The frame counts of one run from its placements' dumps (nil: none) and its mallocs.
    /// The per-frame figures are the placement with the median total estimated cycles.
    public static func frameCounts(placements: [Int: [Int: [Int: CallgrindCounts]]]?, mallocs: MallocFrameCounter,
                                   warmupFrames: Int, countingSeconds: Double?) -> FrameCounts {
        let mallocSeries = mallocs.frames.map { Double($0.reduce(0, +)) }
        let frameCount = max(mallocs.frames.count, placements?.values.map(\.count).max() ?? 0)
        func totals(_ frames: [Int: [Int: CallgrindCounts]]) -> (ir: [Double], cycles: [Double]?) {
            var ir: [Double] = [], cycles: [Double] = []
            var hasCycles = true
            for f in 0..<frameCount {
                let phases = frames[f] ?? [:]
                ir.append(Double(phases.values.reduce(0) { $0 + $1.ir }))
                let c = phases.values.map(\.estimatedCycles)
                if c.contains(where: { $0 == nil }) { hasCycles = false }
                cycles.append(Double(c.reduce(0) { $0 + ($1 ?? 0) }))
            }
            return (ir, hasCycles ? cycles : nil)
        }
        var chosen: [Int: [Int: CallgrindCounts]]?
        var p50s: [Double] = [], p99s: [Double] = []
        if let placements, !placements.isEmpty {
            let ranked = placements.values.map { ($0, totals($0)) }.sorted { a, b in
                let ka = a.1.cycles?.reduce(0, +) ?? a.1.ir.reduce(0, +), kb = b.1.cycles?.reduce(0, +) ?? b.1.ir.reduce(0, +)
                return ka != kb ? ka < kb : a.1.ir.reduce(0, +) < b.1.ir.reduce(0, +)
            }
            chosen = ranked[(ranked.count - 1) / 2].0
            for (_, t) in ranked { if let c = t.cycles { let d = CountDistribution(c); p50s.append(d.p50); p99s.append(d.p99) } }
        }
        let series = chosen.map(totals)
        var phases: [PhaseCounts] = []
        let n = Double(max(frameCount, 1))
        var phaseIr = [Double](repeating: 0, count: FramePhase.allCases.count)
        var phaseCycles = [Double](repeating: 0, count: FramePhase.allCases.count)
        var phaseMallocs = [Double](repeating: 0, count: FramePhase.allCases.count)
        for frame in chosen?.values.map({ $0 }) ?? [] {
            for (p, c) in frame where p < phaseIr.count {
                phaseIr[p] += Double(c.ir)
                phaseCycles[p] += Double(c.estimatedCycles ?? 0)
            }
        }
        for frame in mallocs.frames { for (p, m) in frame.enumerated() { phaseMallocs[p] += Double(m) } }
        let cyclesKnown = series?.cycles != nil
        let basis = chosen == nil ? phaseMallocs : (cyclesKnown ? phaseCycles : phaseIr)
        let whole = basis.reduce(0, +)
        for p in FramePhase.allCases {
            let i = p.rawValue
            phases.append(PhaseCounts(name: p.name, instructionsPerFrame: chosen == nil ? nil : phaseIr[i] / n,
                                      estimatedCyclesPerFrame: chosen == nil || !cyclesKnown ? nil : phaseCycles[i] / n,
                                      mallocsPerFrame: phaseMallocs[i] / Double(max(mallocs.frames.count, 1)),
                                      share: whole > 0 ? basis[i] / whole : 0))
        }
        return FrameCounts(frames: frameCount, warmupFrames: warmupFrames, renderThreads: 1,
                           instructions: series.map { CountDistribution($0.ir) },
                           estimatedCycles: series?.cycles.map { CountDistribution($0) },
                           mallocs: CountDistribution(mallocSeries),
                           instructionsSeries: series?.ir, estimatedCyclesSeries: series?.cycles, mallocsSeries: mallocSeries,
                           phases: phases,
                           estimatedCyclesP50Range: p50s.isEmpty ? nil : [p50s.min()!, p50s.max()!],
                           estimatedCyclesP99Range: p99s.isEmpty ? nil : [p99s.min()!, p99s.max()!],
                           countingSeconds: countingSeconds)
    }

    /// The `scene/NAME` entry of `strata.counts` for one counted run.
    public static func result(name: String, frames: FrameCounts, mallocs: MallocFrameCounter) -> CountResult {
        let n = Double(max(frames.frames, 1))
        return CountResult(name: "scene/\(name)", item: "frame", itemsPerIteration: 1, iterations: frames.frames,
                           instructionsPerItem: frames.instructions?.mean, estimatedCyclesPerItem: frames.estimatedCycles?.mean,
                           layouts: nil, mallocsPerItem: frames.mallocs.mean, freesPerItem: Double(mallocs.frees) / n,
                           bytesAllocatedPerItem: Double(mallocs.bytes) / n, frames: frames)
    }
}

extension CallgrindCounts {
    /// Two dumps' events added (cache events only when both have them).
    /// (Wrapping: a dump that is not a frame's, summed by name, must not stop the run.)
    static func + (a: CallgrindCounts, b: CallgrindCounts) -> CallgrindCounts {
        guard let x = a.cache, let y = b.cache else { return CallgrindCounts(ir: a.ir &+ b.ir) }
        return CallgrindCounts(ir: a.ir &+ b.ir, dr: x.dr &+ y.dr, dw: x.dw &+ y.dw, i1mr: x.i1mr &+ y.i1mr, d1mr: x.d1mr &+ y.d1mr,
                               d1mw: x.d1mw &+ y.d1mw, ilmr: x.ilmr &+ y.ilmr, dlmr: x.dlmr &+ y.dlmr, dlmw: x.dlmw &+ y.dlmw)
    }
}
