import ArgumentParser
import Foundation
import StrataBench
import StrataBenchSuites
import StrataProfiler
import StrataScriptFast

/// `strata-bench profile`: runs benchmark bodies (or a scene's frames) under the sampling
/// profiler and writes a flame graph's inputs and a timeline: where the time goes, not only
/// how much of it there is.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Profile a suite's benchmark bodies or a scene's frames with the sampling profiler.",
        discussion: """
        Runs the selected bodies for about --seconds under the profiler and as long again
        without it (five rounds, unprofiled then profiled, the same iterations in each), and
        writes to --out:
          profile.folded            folded stacks (flamegraph.pl, speedscope)
          profile.speedscope.json   speedscope's format, one profile per thread
          profile.pprof             gperftools CPU profile (google-pprof --text BINARY FILE)
          trace.json                Chrome Trace Event timeline (Perfetto, chrome://tracing):
                                    scenes: per frame commit / lookup / beginFrame / render /
                                    endFrame; suites: per iteration (batched when short)
          flamegraph.html           self-contained flame graph (zoom, search)
        CPU-time timers are checked at the kernel's tick: above CONFIG_HZ (often 250) the
        samples arrive at the tick rate, each weighted by the expiries it stands for. Use
        --mode wall for the full rate on a busy single thread.
        """)

    @Argument(help: "A suite (\(Catalog.benchmarkSuites.joined(separator: ", "))) or a scene (a scene file, or \(Scenes.names.joined(separator: ", ")), also as scene/NAME).")
    var target: String
    @Option(help: "Regular expression over benchmark names (suites only).") var filter: String?
    @Option(help: "Samples per second and thread.") var hz = 1000
    @Option(help: "Stack walker: backtrace (unw_backtrace), dwarf (unw_init_local2 + unw_step), fp (frame pointers).")
    var unwinder = "backtrace"
    @Option(help: "Timer clock: cpu (thread CPU time) or wall.") var mode = "cpu"
    @Option(help: "Seconds of profiled run (the unprofiled baseline takes about as long again).") var seconds = 5.0
    @Option(help: "Directory for the outputs.") var out: String
    @Option(help: "Frames to list.") var top = 15

    func validate() throws {
        guard SamplingProfiler.Unwinder(rawValue: unwinder) != nil else {
            throw ValidationError("--unwinder must be one of \(SamplingProfiler.Unwinder.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard SamplingProfiler.Clock(rawValue: mode) != nil else { throw ValidationError("--mode must be cpu or wall") }
        guard (1...100_000).contains(hz) else { throw ValidationError("--hz must be in 1...100000") }
        guard seconds > 0 && seconds.isFinite else { throw ValidationError("--seconds must be positive") }
        guard Catalog.benchmarkSuites.contains(target) || sceneName != nil else {
            throw ValidationError("unknown suite or scene '\(target)'; suites: \(Catalog.benchmarkSuites.joined(separator: ", ")); scenes: \(Scenes.names.joined(separator: ", "))")
        }
    }

    var sceneName: String? {
        let n = target.hasPrefix("scene/") ? String(target.dropFirst("scene/".count)) : target
        return Scenes.path(n) != nil ? n : nil
    }

    func run() throws {
        if _isDebugAssertConfiguration() {
            progress("warning: strata-bench is a debug build: the profile is not representative (build with -c release)")
        }
        let configuration = SamplingProfiler.Configuration(
            rate: hz, unwinder: SamplingProfiler.Unwinder(rawValue: unwinder)!, clock: SamplingProfiler.Clock(rawValue: mode)!)
        let trace = TraceRecorder(processName: "strata-bench profile \(target)")
        trace.nameThread("benchmark")
        let run: ProfiledRun
        if let scene = sceneName {
            run = try ProfiledScene(name: scene).run(seconds: seconds, configuration: configuration, trace: trace)
        } else {
            let cases = try Catalog.select(suites: [target], quick: false, filter: filter)
            guard !cases.isEmpty else { throw ValidationError("no benchmark of suite '\(target)' matches --filter") }
            run = try ProfiledSuite(cases: cases).run(seconds: seconds, configuration: configuration, trace: trace)
        }
        let stacks = run.profile.symbolicated()
        try write(run, stacks, trace)
        report(run, stacks)
    }

    private func write(_ run: ProfiledRun, _ stacks: StackProfile, _ trace: TraceRecorder) throws {
        let dir = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let title = "strata-bench profile \(target)\(filter.map { " --filter \($0)" } ?? "")"
        try stacks.folded().write(to: dir.appendingPathComponent("profile.folded"), atomically: true, encoding: .utf8)
        try stacks.speedscopeJSON(name: title)
            .write(to: dir.appendingPathComponent("profile.speedscope.json"), atomically: true, encoding: .utf8)
        try run.profile.gperftoolsData().write(to: dir.appendingPathComponent("profile.pprof"))
        try trace.json().write(to: dir.appendingPathComponent("trace.json"), atomically: true, encoding: .utf8)
        try stacks.flameGraphHTML(title: title)
            .write(to: dir.appendingPathComponent("flamegraph.html"), atomically: true, encoding: .utf8)
    }

    private func report(_ run: ProfiledRun, _ stacks: StackProfile) {
        let p = run.profile
        let s = p.statistics
        func pct(_ x: Double) -> String { String(format: "%5.1f%%", x) }
        func ns(_ x: Double) -> String { x >= 10_000 ? String(format: "%.1f µs", x / 1000) : String(format: "%.0f ns", x) }
        print("profile of \(target)\(filter.map { " (filter \($0))" } ?? ""): \(run.what)")
        print("top frames (by self samples)")
        print("   self   incl  frame")
        for f in stacks.topFrames(top) {
            let name = f.frame.name.count > 150 ? String(f.frame.name.prefix(147)) + "..." : f.frame.name
            print("  \(pct(f.selfPercent)) \(pct(f.inclusivePercent))  \(name)  [\(f.frame.module)]")
        }
        // Sampled only while the profiled rounds ran (one thread).
        let seconds = run.profiledSeconds
        let rate = seconds > 0 ? Double(p.samples.count) / seconds : 0
        print("samples: \(p.samples.count) in \(String(format: "%.2f", seconds)) s of profiled bodies on \(stacks.threads.count) thread(s), \(String(format: "%.0f", rate)) Hz delivered of \(hz) Hz requested (\(mode) time, \(s.timer.rawValue) timer)")
        print("dropped samples: \(s.dropped) (ring full \(s.droppedRingFull), re-entrant \(s.droppedReentrant)); timer overruns carried as weight: \(s.overruns); unwind failures: \(s.unwindFailures); truncated: \(s.truncated); walked by frame pointers while another thread was in libunwind: \(s.contended), inside the dynamic loader: \(s.inLoader)")
        let u = p.unwindCost, h = p.handlerCost
        print("unwinder \(unwinder): per sample median \(ns(u.median)), mean \(ns(u.mean)), p99 \(ns(u.p99)); whole handler median \(ns(h.median)), mean \(ns(h.mean))")
        let handlerShare = seconds > 0 ? Double(p.samples.count) * h.mean / (seconds * 1e9) * 100 : 0
        print("time in the handler: \(String(format: "%.2f", handlerShare))% of the profiled bodies")
        print("slowdown: profiled \(String(format: "%.3f", run.profiledSeconds)) s vs unprofiled \(String(format: "%.3f", run.baselineSeconds)) s for the same \(run.what) = \(String(format: "%.3f", run.profiledSeconds / max(run.baselineSeconds, 1e-9)))x")
        print("wrote \(out)/profile.folded, profile.speedscope.json, profile.pprof, trace.json, flamegraph.html")
    }
}

/// What a profiled run produced.
struct ProfiledRun {
    var profile: Profile
    /// Body time without and with the profiler, for the same work.
    var baselineSeconds: Double
    var profiledSeconds: Double
    /// The work, in words ("1234 iterations of 2 benchmarks").
    var what: String
}

/// Benchmark bodies: a warm-up that sizes the run, then `rounds` rounds of the same
/// iterations unprofiled and profiled in turn (the thread registered only for the second),
/// so drift on a noisy machine hits both sides alike. Resets run paused (no samples) and
/// outside the timings.
struct ProfiledSuite {
    var cases: [BenchmarkCase]

    /// Iterations shorter than this are traced in batches, so a 10 ns lookup does not write
    /// a hundred million events.
    static let minimumEventNanoseconds: UInt64 = 20_000
    static let rounds = 5

    func run(seconds: Double, configuration: SamplingProfiler.Configuration, trace: TraceRecorder) throws -> ProfiledRun {
        var workloads: [Workload] = []
        for c in cases {
            progress("preparing \(c.name)")
            workloads.append(try c.make())
        }
        let budget = UInt64(seconds * 1e9) / UInt64(cases.count)
        var perRound = [Int](repeating: 0, count: cases.count)
        var means = [UInt64](repeating: 1, count: cases.count)
        for (i, w) in workloads.enumerated() {
            // Warm-up, and the mean iteration time that sizes the rounds.
            let (n, t) = Self.timed(w, until: budget / 10, fixed: cases[i].iterations > 0 ? cases[i].iterations : nil)
            means[i] = max(1, t / UInt64(n))
            let total = cases[i].iterations > 0 ? cases[i].iterations : max(1, Int(budget / means[i]))
            perRound[i] = max(1, total / Self.rounds)
        }
        progress("\(Self.rounds) rounds of: \(zip(cases, perRound).map { "\($0.name) x\($1)" }.joined(separator: ", ")), unprofiled then profiled")

        let profiler = try SamplingProfiler.start(configuration, registeringCurrentThread: false)
        var baseline: UInt64 = 0
        var profiled: UInt64 = 0
        for _ in 0..<Self.rounds {
            for (i, w) in workloads.enumerated() {
                baseline += Self.timed(w, until: 0, fixed: perRound[i]).1
                try profiler.sampling {
                    profiled += Self.traced(w, cases[i], iterations: perRound[i], mean: means[i], profiler, trace)
                }
            }
        }
        let profile = profiler.stop()
        withExtendedLifetime(workloads) {}
        let total = perRound.reduce(0, +) * Self.rounds
        return ProfiledRun(profile: profile, baselineSeconds: Double(baseline) / 1e9, profiledSeconds: Double(profiled) / 1e9,
                           what: "\(total) iterations of \(cases.count) benchmark\(cases.count == 1 ? "" : "s")")
    }

    /// `n` iterations of `w` with trace events (per iteration, or per batch when short);
    /// returns their body time.
    static func traced(_ w: Workload, _ c: BenchmarkCase, iterations n: Int, mean: UInt64,
                       _ profiler: SamplingProfiler, _ trace: TraceRecorder) -> UInt64 {
        let batch = w.reset == nil ? max(1, Int(minimumEventNanoseconds / mean)) : 1
        var spent: UInt64 = 0
        let c0 = TraceRecorder.now()
        var done = 0
        while done < n {
            let k = min(batch, n - done)
            var t0 = TraceRecorder.now()
            if let reset = w.reset {
                profiler.paused { reset() }
                let r1 = TraceRecorder.now()
                trace.complete("reset", category: "setup", start: t0, end: r1)
                t0 = r1
            }
            for _ in 0..<k { w.run() }
            let t1 = TraceRecorder.now()
            spent += t1 - t0
            trace.complete(k == 1 ? c.name : "\(c.name) x\(k)", category: "iteration", start: t0, end: t1)
            trace.counter("active animations", value: Double(StrataEngine.activeAnimationCount), at: t1)
            done += k
        }
        trace.complete(c.name, category: "benchmark", start: c0, end: TraceRecorder.now())
        return spent
    }

    /// Runs `w` until `budget` nanoseconds of body time (or exactly `fixed` iterations);
    /// returns the iterations and their body time.
    static func timed(_ w: Workload, until budget: UInt64, fixed: Int?) -> (Int, UInt64) {
        var n = 0
        var spent: UInt64 = 0
        while fixed.map({ n < $0 }) ?? (spent < budget || n == 0) {
            w.reset?()
            let t0 = TraceRecorder.now()
            w.run()
            spent += TraceRecorder.now() - t0
            n += 1
        }
        return (n, spent)
    }
}

/// A scene's frames, with each frame split into timed phases for the timeline: the app's
/// property changes (each runs the action lookup), its commits, added animations, other
/// changes, then `beginFrame` (the implicit commit), `render` and `endFrame`.
struct ProfiledScene {
    var name: String

    /// A frame's operations in phases, split before the run (nothing is built while timed).
    struct Frame {
        var phases: [(name: String, ops: [Op])]
    }

    /// A frame's phases resolved by the session (`ScriptSession.prepare`).
    struct PreparedFrame {
        var phases: [(name: String, ops: PreparedOps)]
    }

    static func phase(of op: Op) -> String {
        switch op {
        case .set: return "lookup"
        case .commit: return "commit"
        case .add: return "add animation"
        default: return "changes"
        }
    }

    func frames() throws -> (setup: [Op], frames: [Frame]) {
        let program = try Scenes.load(name)
        let script = program.script(frames: program.quickFrames)
        var setup: [Op] = []
        var frames: [Frame] = []
        var current: [(name: String, ops: [Op])] = []
        var inSetup = true
        for op in script.ops {
            if case .frame = op {
                if inSetup { setup.append(op); inSetup = false } else { frames.append(Frame(phases: current)) }
                current = []
                continue
            }
            if inSetup { setup.append(op); continue }
            let p = Self.phase(of: op)
            if let last = current.last, last.name == p { current[current.count - 1].ops.append(op) } else { current.append((p, [op])) }
        }
        return (setup, frames)
    }

    func run(seconds: Double, configuration: SamplingProfiler.Configuration, trace: TraceRecorder) throws -> ProfiledRun {
        progress("generating scene \(name)")
        let (setup, raw) = try frames()
        guard !raw.isEmpty else { throw ValidationError("scene \(name) has no frames") }
        let session = ScriptSession(typedSetters: true)
        session.apply(setup)
        // Resolved as the timed scenes resolve them (the scene's layers exist from here on).
        let frames = raw.map { f in PreparedFrame(phases: f.phases.map { (name: $0.name, ops: session.prepare($0.ops)) }) }
        let renderer = CARenderer(layer: nil)
        var index = 0   // frames played: the media time keeps going forward

        // Warm-up, and the frame time that sizes the rounds.
        var warm: UInt64 = 0
        var warmFrames = 0
        while warm < UInt64(seconds * 1e8) || warmFrames < 10 {
            let t0 = TraceRecorder.now()
            play(frames[index % frames.count], at: index, session, renderer, trace: nil)
            warm += TraceRecorder.now() - t0
            index += 1
            warmFrames += 1
        }
        let perRound = max(1, Int(seconds * 1e9 / (Double(warm) / Double(warmFrames))) / ProfiledSuite.rounds)
        progress("\(ProfiledSuite.rounds) rounds of \(perRound) frames, unprofiled then profiled")

        // The same frames (same operations, later times) unprofiled, then profiled.
        let profiler = try SamplingProfiler.start(configuration, registeringCurrentThread: false)
        var baseline: UInt64 = 0
        var profiled: UInt64 = 0
        var first = 0
        for _ in 0..<ProfiledSuite.rounds {
            for k in 0..<perRound {
                let t0 = TraceRecorder.now()
                play(frames[(first + k) % frames.count], at: index, session, renderer, trace: nil)
                baseline += TraceRecorder.now() - t0
                index += 1
            }
            try profiler.sampling {
                for k in 0..<perRound {
                    let t0 = TraceRecorder.now()
                    play(frames[(first + k) % frames.count], at: index, session, renderer, trace: trace)
                    profiled += TraceRecorder.now() - t0
                    index += 1
                }
            }
            first += perRound
        }
        let profile = profiler.stop()
        session.finish()
        return ProfiledRun(profile: profile, baselineSeconds: Double(baseline) / 1e9, profiledSeconds: Double(profiled) / 1e9,
                           what: "\(perRound * ProfiledSuite.rounds) frames of scene \(name)")
    }

    /// One frame at time (index + 1) / 60; with a trace, every phase and the frame as events
    /// and the active animations as a counter.
    private func play(_ frame: PreparedFrame, at index: Int, _ session: ScriptSession, _ renderer: CARenderer, trace: TraceRecorder?) {
        let time = Double(index + 1) / 60
        guard let trace else {
            for p in frame.phases { session.apply(p.ops) }
            renderer.renderFrame(atTime: time)
            return
        }
        let f0 = TraceRecorder.now()
        for p in frame.phases {
            let t0 = TraceRecorder.now()
            session.apply(p.ops)
            trace.complete(p.name, category: "app", start: t0, end: TraceRecorder.now())
        }
        var t0 = TraceRecorder.now()
        renderer.beginFrame(atTime: time)
        var t1 = TraceRecorder.now()
        trace.complete("beginFrame", category: "frame", start: t0, end: t1)
        t0 = t1
        renderer.render()
        t1 = TraceRecorder.now()
        trace.complete("render", category: "frame", start: t0, end: t1)
        t0 = t1
        renderer.endFrame()
        t1 = TraceRecorder.now()
        trace.complete("endFrame", category: "frame", start: t0, end: t1)
        trace.complete("frame \(index)", category: "frame", start: f0, end: t1)
        trace.counter("active animations", value: Double(StrataEngine.activeAnimationCount), at: t1)
    }
}
