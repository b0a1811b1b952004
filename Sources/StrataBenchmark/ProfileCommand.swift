import ArgumentParser
import Foundation
import StrataBench
import StrataBenchSuites
import StrataProfiler

/// `strata-bench profile`: runs benchmark bodies (or a scene's frames) under the sampling
/// profiler and writes a flame graph's inputs and a timeline: where the time goes, not only
/// how much of it there is.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Profile a suite's benchmark bodies or a scene's frames with the sampling profiler.",
        discussion: """
        A suite runs case by case: each case is prepared, warmed up, run five rounds
        unprofiled then profiled (the same iterations in each) and released before the next,
        so memory peaks at about the largest single case. --seconds is the budget of the whole
        command, preparation included: each case gets an equal share of what is left when it
        starts; cases not started when it is spent are listed and left out. A scene (a name or
        a scene file; `stress --print-scene` writes a stress tree as one) runs its frames the
        same way. Progress goes to standard error; a failing case is named with its reason and
        the next one runs (exit 3 at the end). Ctrl-C or SIGTERM ends the run after the current
        iteration and still writes the profile of the cases finished (exit 130 or 143; a second
        signal ends the process at once). Writes to --out:
          profile.folded            folded stacks (flamegraph.pl, speedscope)
          profile.speedscope.json   speedscope's format, one profile per thread
          profile.pprof             gperftools CPU profile (google-pprof --text BINARY FILE)
          profile.pb                pprof's protobuf profile, symbolized, source lines in
                                    Location.Line (go tool pprof -text -lines FILE)
          trace.json                Chrome Trace Event timeline (Perfetto, chrome://tracing):
                                    scenes: per frame commit / lookup / beginFrame / render /
                                    snapshot / endFrame (the frames as `run` times
                                    them); suites: per iteration (batched when short)
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
    @Option(help: "Seconds for the whole command: preparation, unprofiled and profiled rounds and the outputs, shared among the cases (default: 10, or 2 per case for more than five).")
    var seconds: Double?
    @Flag(help: "Only the cases of the quick run (small sizes; suites only).") var quick = false
    @Option(help: "Directory for the outputs.") var out: String
    @Option(help: "Frames to list.") var top = 15
    @Option(help: ArgumentHelp("A git ref: profile strata-bench built at it and the working tree's, each with half the budget, and write both (OUT/base, OUT/head) and their differential flame graph (OUT/diff).", valueName: "ref"))
    var base: String?

    func validate() throws {
        guard SamplingProfiler.Unwinder(rawValue: unwinder) != nil else {
            throw ValidationError("--unwinder must be one of \(SamplingProfiler.Unwinder.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard SamplingProfiler.Clock(rawValue: mode) != nil else { throw ValidationError("--mode must be cpu or wall") }
        guard (1...100_000).contains(hz) else { throw ValidationError("--hz must be in 1...100000") }
        if let seconds { guard seconds > 0 && seconds.isFinite else { throw ValidationError("--seconds must be positive") } }
        guard Catalog.benchmarkSuites.contains(target) || sceneName != nil else {
            throw ValidationError("unknown suite or scene '\(target)'; suites: \(Catalog.benchmarkSuites.joined(separator: ", ")); scenes: \(Scenes.names.joined(separator: ", "))")
        }
    }

    var sceneName: String? {
        let n = target.hasPrefix("scene/") ? String(target.dropFirst("scene/".count)) : target
        return Scenes.path(n) != nil ? n : nil
    }

    func run() throws {
        if let base { return try runAgainst(base) }
        if _isDebugAssertConfiguration() {
            progress("warning: strata-bench is a debug build: the profile is not representative (build with -c release)")
        }
        let configuration = SamplingProfiler.Configuration(
            rate: hz, unwinder: SamplingProfiler.Unwinder(rawValue: unwinder)!, clock: SamplingProfiler.Clock(rawValue: mode)!)
        let trace = TraceRecorder(processName: "strata-bench profile \(target)")
        trace.nameThread("benchmark")
        let run: ProfiledRun
        let started = Date()
        StopSignals.catchSignals()
        defer { StopSignals.release() }
        let stop = { StopSignals.received != nil }
        // Kept for symbolizing the samples, reading the line tables and writing the outputs:
        // a tenth of the budget, at least 1.5 s (addr2line reads a large binary's DWARF in
        // about a second), at most half.
        var budget = seconds ?? 10
        if let scene = sceneName {
            progress(String(format: "budget: %g s for scene %@ (--seconds)", budget, scene))
            do {
                run = try ProfiledScene(name: scene).run(seconds: Self.runSeconds(budget), configuration: configuration, trace: trace,
                                                         progress: progress, shouldStop: stop)
            } catch let e as ProfilingError {
                throw ValidationError(e.description)
            }
        } else {
            let cases = try Catalog.select(suites: [target], quick: quick, filter: filter)
            guard !cases.isEmpty else { throw ValidationError("no benchmark of suite '\(target)'\(quick ? " in the quick run" : "") matches --filter") }
            budget = seconds ?? Self.defaultSeconds(cases: cases.count)
            progress(String(format: "budget: %g s for %d case(s), each prepared, run and released in turn (--seconds)", budget, cases.count))
            run = try ProfiledSuite(cases: cases).run(seconds: Self.runSeconds(budget), configuration: configuration, trace: trace,
                                                      progress: progress, shouldStop: stop)
        }
        if let sig = StopSignals.received {
            progress("stopped by \(sig == SIGINT ? "SIGINT" : "SIGTERM"): writing the profile of the \(run.cases.isEmpty ? "frames played" : "\(run.cases.count) case(s) finished")")
        }
        var stacks = run.profile.symbolicated()
        let linesProblem = stacks.attachSourceLines()
        try write(run, stacks, trace)
        report(run, stacks, seconds: Date().timeIntervalSince(started), budget: budget)
        if let linesProblem { print("source lines: \(linesProblem)") }
        if let note = trace.decimationNote { print("trace: \(note)") }
        if let sig = StopSignals.received { throw ExitCode(128 + sig) }
        if !run.failures.isEmpty { throw ExitCode(3) }
    }

    private func write(_ run: ProfiledRun, _ stacks: StackProfile, _ trace: TraceRecorder) throws {
        let dir = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let title = "strata-bench profile \(target)\(filter.map { " --filter \($0)" } ?? "")"
        try stacks.folded().write(to: dir.appendingPathComponent("profile.folded"), atomically: true, encoding: .utf8)
        try stacks.speedscopeJSON(name: title)
            .write(to: dir.appendingPathComponent("profile.speedscope.json"), atomically: true, encoding: .utf8)
        try run.profile.gperftoolsData().write(to: dir.appendingPathComponent("profile.pprof"))
        try run.profile.pprofProtobuf(comment: title).data.write(to: dir.appendingPathComponent("profile.pb"))
        try trace.json().write(to: dir.appendingPathComponent("trace.json"), atomically: true, encoding: .utf8)
        try stacks.flameGraphHTML(title: title)
            .write(to: dir.appendingPathComponent("flamegraph.html"), atomically: true, encoding: .utf8)
    }

    /// `--base REF`: this command without `--base`, once by REF's build and once by this
    /// executable (each with half the budget, in child processes), then `profile-diff`.
    private func runAgainst(_ ref: String) throws {
        let packagePath = FileManager.default.currentDirectoryPath
        let (repository, commit) = try RefBuild.resolve(ref, packagePath: packagePath, tool: "profile")
        let product = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        let baseExe = try RefBuild.buildBase(commit: commit, top: repository, packagePath: packagePath, product: product, tool: "profile")
        let headExe = URL(fileURLWithPath: CommandLine.arguments[0]).path
        let half = (seconds ?? (sceneName != nil ? 10 : Self.defaultSeconds(cases: max(1, (try? Catalog.select(suites: [target], quick: quick, filter: filter).count) ?? 1)))) / 2
        let dir = URL(fileURLWithPath: out, isDirectory: true)
        var arguments = ["profile", target, "--hz", "\(hz)", "--unwinder", unwinder, "--mode", mode, "--top", "\(top)",
                         "--seconds", "\(half)"]
        if let filter { arguments += ["--filter", filter] }
        if quick { arguments.append("--quick") }
        for (side, exe) in [("base", baseExe), ("head", headExe)] {
            progress("profile: \(side) (\(side == "base" ? "\(ref) \(commit.prefix(10))" : "this build")), \(String(format: "%g", half)) s")
            let status = try RefBuild.runStreaming(exe, arguments + ["--out", dir.appendingPathComponent(side).path], in: packagePath)
            guard status == 0 else {
                printError("profile: the \(side) run exited \(status) (its output is above)")
                throw ExitCode(status == 64 ? 64 : 3)
            }
        }
        let diff = try ProfileDiffCommand.parse([dir.appendingPathComponent("base").path, dir.appendingPathComponent("head").path,
                                                 "--out", dir.appendingPathComponent("diff").path, "--top", "\(min(top, 10))"])
        try diff.run()
    }

    /// The part of `budget` the run itself gets (the rest is for the outputs).
    static func runSeconds(_ budget: Double) -> Double { budget - min(max(budget / 10, 1.5), budget / 2) }

    /// The budget without --seconds: 10 s, or 2 s a case for more than five cases.
    static func defaultSeconds(cases: Int) -> Double { max(10, 2 * Double(cases)) }

    private func report(_ run: ProfiledRun, _ stacks: StackProfile, seconds wall: Double, budget: Double) {
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
        let hot = stacks.hottestLines(functions: 3, lines: 5)
        if !hot.isEmpty {
            print("hottest source lines (self samples of the top functions, by line)")
            for f in hot {
                let name = f.frame.name.count > 110 ? String(f.frame.name.prefix(107)) + "..." : f.frame.name
                print("  \(name): \(f.selfSamples) samples")
                for l in f.lines {
                    print(String(format: "    %5.1f%%  %6d  ", 100 * Double(l.samples) / Double(max(f.selfSamples, 1)), l.samples)
                          + (l.location?.description ?? "(no line information)"))
                }
            }
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
        // The peak of the whole command: the outputs are written by now.
        let peak = (ResidentMemory.peakBytes() ?? run.peakResidentBytes).map { String(format: "%.0f MiB", Double($0) / 1_048_576) } ?? "unknown"
        print(String(format: "whole command: %.1f s of a %g s budget; peak resident memory %@", wall, budget, peak))
        if !run.cases.isEmpty {
            let slowest = run.cases.max { $0.prepareNanoseconds < $1.prepareNanoseconds }!
            print("cases profiled: \(run.cases.count) (longest preparation: \(slowest.name), \(String(format: "%.2f", Double(slowest.prepareNanoseconds) / 1e9)) s)")
        }
        if !run.skipped.isEmpty {
            let list = run.skipped.prefix(5).joined(separator: ", ") + (run.skipped.count > 5 ? ", ..." : "")
            print("not profiled: \(run.skipped.count) case(s) (\(run.interrupted ? "the run was stopped" : "the time budget was spent; raise --seconds")): \(list)")
        }
        for f in run.failures { print("failed: \(f)") }
        print("wrote \(out)/profile.folded, profile.speedscope.json, profile.pprof, profile.pb, trace.json, flamegraph.html")
    }
}

/// `strata-bench profile-diff BEFORE AFTER`: what changed between two profiles, as a
/// differential flame graph and folded stacks with two columns.
struct ProfileDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile-diff",
        abstract: "Compare two profiles: a differential flame graph and the frames whose share grew or shrank most.",
        discussion: """
        BEFORE and AFTER are `profile --out` folders (their profile.folded is read) or folded
        stacks files. Writes to --out:
          diff.folded              every stack with its samples before and after
                                   (difffolded.pl's format; `report --flame-graph` embeds it)
          diff-flamegraph.html     the after profile's flame graph, each frame red as its
                                   share of the samples grew, blue as it shrank
        and prints the frames where the largest changes of share come from. Shares, not
        sample counts, are compared: two runs of different lengths compare fairly.
        Exit 65 when a file is not folded stacks, 66 when one is missing.
        """)

    @Argument(help: "The profile before (a profile folder or a .folded file).") var before: String
    @Argument(help: "The profile after.") var after: String
    @Option(help: "Directory for the outputs.") var out: String
    @Option(help: "Frames to list each way.") var top = 10

    func run() throws {
        func read(_ path: String) throws -> String {
            var isDirectory: ObjCBool = false
            let file = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                ? (path as NSString).appendingPathComponent("profile.folded") : path
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                printError("profile-diff: cannot read \(file)")
                throw ExitCode(66)
            }
            return text
        }
        let b = try read(before), a = try read(after)
        let diff: String, graph: FlameGraph
        do {
            diff = try FlameGraph.differentialFolded(before: b, after: a)
            graph = try FlameGraph(folded: diff)
        } catch let e as FlameGraph.ParseError {
            printError("profile-diff: \(e)")
            throw ExitCode(65)
        }
        let dir = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try diff.write(to: dir.appendingPathComponent("diff.folded"), atomically: true, encoding: .utf8)
        try graph.html(title: "strata-bench profile-diff \(before) \(after)")
            .write(to: dir.appendingPathComponent("diff-flamegraph.html"), atomically: true, encoding: .utf8)
        func list(_ title: String, _ changes: [FlameGraph.Change]) {
            print(title)
            if changes.isEmpty { print("  (none)") }
            for c in changes {
                let leaf = c.stack.split(separator: ";").last.map(String.init) ?? c.stack
                let name = leaf.count > 120 ? String(leaf.prefix(117)) + "..." : leaf
                print(String(format: "  %+6.2f points  %5.1f%% -> %5.1f%%  ", c.delta, c.beforePercent, c.afterPercent) + name)
            }
        }
        list("grew most (share of samples, where the change comes from):", graph.changes(limit: top, growth: true))
        list("shrank most:", graph.changes(limit: top, growth: false))
        print("wrote \(out)/diff.folded, diff-flamegraph.html")
    }
}
