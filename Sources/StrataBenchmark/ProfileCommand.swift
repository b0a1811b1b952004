import ArgumentParser
import Foundation
import StrataBench
import StrataBenchSuites
import StrataProfiler
import StrataProfiling

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
            do {
                run = try ProfiledScene(name: scene).run(seconds: seconds, configuration: configuration, trace: trace,
                                                         progress: progress)
            } catch let e as ProfilingError {
                throw ValidationError(e.description)
            }
        } else {
            let cases = try Catalog.select(suites: [target], quick: false, filter: filter)
            guard !cases.isEmpty else { throw ValidationError("no benchmark of suite '\(target)' matches --filter") }
            run = try ProfiledSuite(cases: cases).run(seconds: seconds, configuration: configuration, trace: trace,
                                                      progress: progress)
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
