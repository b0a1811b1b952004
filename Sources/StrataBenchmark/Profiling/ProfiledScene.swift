import Foundation
import Strata
import StrataBenchSuites
import StrataProfiler
import StrataScript
import StrataScriptFast

/// A scene's frames, with each frame split into timed phases for the timeline: the app's
/// property changes (each runs the action lookup), its commits, added animations, other
/// changes, then `beginFrame` (the implicit commit), `render`, the render snapshot of the
/// scene's root (as `strata-bench run` times every scene frame) and `endFrame`.
struct ProfiledScene {
    /// A scene of strata-bench (`Scenes.load`: a name or a scene file).
    var name: String

    /// The scene `name`, loaded when the run starts.
    init(name: String) { self.name = name }

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

    /// The run within about `seconds` of wall-clock time: generating and preparing the scene
    /// come out of it, a tenth of the rest warms up, and the rest is split between the
    /// unprofiled and the profiled frames. Every phase of each profiled frame is a trace event
    /// in `trace`; `progress` hears what is being prepared and run. When `shouldStop` says so
    /// (checked between frames), the run ends with the frames played so far.
    func run(seconds: Double, configuration: SamplingProfiler.Configuration, trace: TraceRecorder,
                    progress: (String) -> Void = { _ in }, shouldStop: () -> Bool = { false }) throws -> ProfiledRun {
        let started = TraceRecorder.now()
        progress("generating scene \(name)")
        let (setup, raw) = try frames()
        guard !raw.isEmpty else { throw ProfilingError("scene \(name) has no frames") }
        let session = ScriptSession(typedSetters: true)
        session.apply(setup)
        // Resolved as the timed scenes resolve them (the scene's layers exist from here on).
        let frames = raw.map { f in PreparedFrame(phases: f.phases.map { (name: $0.name, ops: session.prepare($0.ops)) }) }
        let renderer = CARenderer(layer: nil)
        var index = 0   // frames played: the media time keeps going forward

        // Warm-up, and the frame time that sizes the rounds.
        var warm: UInt64 = 0
        var warmFrames = 0
        let prepared = TraceRecorder.now() - started
        progress(String(format: "scene %@ prepared in %.2f s (%@)", name, Double(prepared) / 1e9, ResidentMemory.describe()))
        let rest = max(seconds * 1e9 - Double(prepared), 0)
        while (warm < UInt64(rest / 10) || warmFrames < 10) && !shouldStop() {
            let t0 = TraceRecorder.now()
            play(frames[index % frames.count], at: index, session, renderer, trace: nil)
            warm += TraceRecorder.now() - t0
            index += 1
            warmFrames += 1
        }
        let perRound = max(1, Int(rest * 0.45 / (Double(warm) / Double(max(warmFrames, 1)))) / ProfiledSuite.rounds)
        progress("\(ProfiledSuite.rounds) rounds of \(perRound) frames, unprofiled then profiled")

        // The same frames (same operations, later times) unprofiled, then profiled.
        let profiler = try SamplingProfiler.start(configuration, registeringCurrentThread: false)
        var baseline: UInt64 = 0
        var profiled: UInt64 = 0
        var first = 0, played = 0
        rounds: for _ in 0..<ProfiledSuite.rounds {
            for k in 0..<perRound {
                if shouldStop() { break rounds }
                let t0 = TraceRecorder.now()
                play(frames[(first + k) % frames.count], at: index, session, renderer, trace: nil)
                baseline += TraceRecorder.now() - t0
                index += 1
            }
            try profiler.sampling {
                for k in 0..<perRound {
                    if shouldStop() { return }
                    let t0 = TraceRecorder.now()
                    play(frames[(first + k) % frames.count], at: index, session, renderer, trace: trace)
                    profiled += TraceRecorder.now() - t0
                    index += 1
                    played += 1
                }
            }
            first += perRound
            progress("scene \(name): \(played) of \(perRound * ProfiledSuite.rounds) profiled frames, \(profiler.statistics.samples) samples, \(ResidentMemory.describe())")
        }
        let profile = profiler.stop()
        session.finish()
        return ProfiledRun(profile: profile, baselineSeconds: Double(baseline) / 1e9, profiledSeconds: Double(profiled) / 1e9,
                           what: "\(played) frames of scene \(name)", interrupted: shouldStop())
    }

    /// One frame at time (index + 1) / 60, its render snapshot taken between `render` and
    /// `endFrame` as the timed scenes take it; with a trace, every phase and the frame as
    /// events and the active animations as a counter.
    private func play(_ frame: PreparedFrame, at index: Int, _ session: ScriptSession, _ renderer: CARenderer, trace: TraceRecorder?) {
        let time = Double(index + 1) / 60
        guard let trace else {
            for p in frame.phases { session.apply(p.ops) }
            renderer.beginFrame(atTime: time)
            renderer.render()
            _ = session.snapshot()
            renderer.endFrame()
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
        _ = session.snapshot()
        t1 = TraceRecorder.now()
        trace.complete("snapshot", category: "frame", start: t0, end: t1)
        t0 = t1
        renderer.endFrame()
        t1 = TraceRecorder.now()
        trace.complete("endFrame", category: "frame", start: t0, end: t1)
        trace.complete("frame \(index)", category: "frame", start: f0, end: t1)
        trace.counter("active animations", value: Double(StrataEngine.activeAnimationCount), at: t1)
    }
}
