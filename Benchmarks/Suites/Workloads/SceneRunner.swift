// One scene runner for both engines: Benchmarks/Reference compiles this folder too (its
// `shared-sources`), with STRATA_REFERENCE, so `--engine reference` times a scene by the
// same loop as the fast engine.
import Foundation
import StrataBench
import StrataScript
import StrataPicture
#if STRATA_REFERENCE
import StrataReference
import StrataScriptReference
#else
@_spi(Benchmarks) import Strata
import StrataScriptFast
#endif

/// A scene run on an engine of its own (a thread of its own: its memory readings are its
/// stores alone), timing every frame after the warm-up. Everything it does to the engine
/// happens on that thread (`EngineThread`), a frame at a time, so runs can be interleaved.
final class SceneRun: SceneStepping {
    #if STRATA_REFERENCE
    static let engineName = "reference"
    #else
    static let engineName = "fast"
    #endif

    let label: String
    let totalFrames: Int
    private let thread: EngineThread
    private var program: SceneProgram
    /// The program as given (`program` draws its random values as frames are made): a replay
    /// starts from it.
    private let original: SceneProgram
    private let settings: SceneRunSettings
    private let player: PlayerRecorder?
    private let timed: Int
    private var recorder: FrameTimeRecorder
    private var samples: [SceneMemory.Sample] = []
    private var session: ScriptSession?

    init(_ program: SceneProgram, _ settings: SceneRunSettings, player: PlayerRecorder?) throws {
        if let s = settings.strategy, ActionLookupStrategy(rawValue: s) == nil {
            throw BenchmarkError("unknown lookup strategy \(s); strategies: \(ActionLookupStrategy.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.program = program
        original = program
        self.settings = settings
        self.player = player
        label = settings.label ?? program.name
        // A recording times at most the frames it holds.
        timed = min(max(1, settings.frames ?? (settings.quick ? program.quickFrames : program.frames)),
                     program.recordedFrameCount ?? .max)
        totalFrames = program.warmupFrames + timed
        recorder = FrameTimeRecorder(expectedFrames: timed)
        // A counted run is driven on the counter's own thread (`playCounted`).
        thread = settings.counter != nil ? EngineThread.inline() : EngineThread(name: "strata-scene")
    }

    func setUp() throws {
        try thread.sync { [self] in
            if let s = settings.strategy.flatMap(ActionLookupStrategy.init(rawValue:)) { StrataEngine.actionLookupStrategy = s }
            if let counter = settings.counter {
                _ = EngineThreads.set(1)
                counter.setUpBegins()
            }
            let session = ScriptSession(typedSetters: true, snapshotEachFrame: true)
            session.apply(program.setup)
            settings.counter?.setUpEnds()
            self.session = session
        }
    }

    /// Outside the timed region: a few stat calls and a scan of the engine's few tracks.
    private func sampleMemory(_ frame: Int) {
        #if STRATA_REFERENCE
        samples.append(SceneMemory.Sample(frame: frame, residentBytes: SceneMemory.residentBytes(), storeBytes: 0,
                                          layers: StrataEngine.layerCount, animations: StrataEngine.activeAnimationCount,
                                          harnessBytes: player?.heldBytes))
        #else
        let m = StrataEngine.memory
        samples.append(SceneMemory.Sample(frame: frame, residentBytes: SceneMemory.residentBytes(),
                                          storeBytes: m.totalBytes, layers: m.layers, animations: m.animations,
                                          harnessBytes: player?.heldBytes))
        #endif
    }

    func frame(_ f: Int) throws {
        try thread.sync { [self] in
            guard let session else { throw BenchmarkError("scene \(label): not set up") }
            let warmup = program.warmupFrames
            if let counter = settings.counter {
                // Counted, not timed: the same operations, prepared the same way.
                let ops = session.prepare(program.frame(f))
                guard f >= warmup else {
                    counter.warmUpFrame(left: warmup - f)
                    session.apply(ops)
                    return
                }
                session.probe = counter
                session.beginProbedFrame()
                counter.beginFrame(f - warmup)
                session.apply(ops)
                counter.endFrame()
                session.probe = nil
                withExtendedLifetime(ops) {}
                return
            }
            if f == warmup || (f > warmup && (f - warmup) % max(1, timed / 10) == 0) { sampleMemory(f) }
            // Generated and resolved (layers found, key paths matched, values built) outside
            // the timed region, so the time is the engine's: the app's setter calls,
            // transactions, tree changes and the frame ...
            let ops = session.prepare(program.frame(f))
            let t0 = DispatchTime.now().uptimeNanoseconds
            session.apply(ops)
            var t1 = DispatchTime.now().uptimeNanoseconds
            if injectedSceneSlowdown > 0 {
                // The trust experiment's knob: the frame's own time again P% longer, spun.
                let until = t1 &+ UInt64(Double(t1 &- t0) * injectedSceneSlowdown)
                while t1 < until { t1 = DispatchTime.now().uptimeNanoseconds }
            }
            withExtendedLifetime(ops) {}   // ... and freed outside it
            if f >= warmup {
                recorder.record(frameNanoseconds: t1 &- t0, renderNanoseconds: session.lastRenderNanoseconds,
                                snapshotNanoseconds: session.lastSnapshotNanoseconds)
                // The player's frames are encoded here, outside the frame's time.
                player?.frameDone(index: f - warmup, time: program.time(ofFrame: f), milliseconds: Double(t1 &- t0) / 1e6) {
                    session.lastSnapshot ?? session.snapshot()
                }
            }
        }
    }

    func finish() throws -> SceneResult {
        defer { thread.stop() }
        return try thread.sync { [self] in
            guard let session else { throw BenchmarkError("scene \(label): not set up") }
            sampleMemory(totalFrames)
            var memory: SceneMemory?
            #if !STRATA_REFERENCE
            let m = StrataEngine.memory
            memory = SceneMemory(samples: samples, bytesPerLayer: Double(m.layerBytes) / Double(max(m.layers, 1)),
                                 bytesPerAnimation: Double(m.animationBytes + m.timingBytes) / Double(max(m.animations, 1)))
            #else
            memory = SceneMemory(samples: samples, bytesPerLayer: 0, bytesPerAnimation: 0)
            #endif
            // Precondition of a meaningful scene: when it changes properties with actions
            // enabled and answers no lookup itself, built-in animations really ran.
            let running = StrataEngine.activeAnimationCount
            let answersLookups = program.setup.contains {
                switch $0 { case .setActions, .setDelegate, .setStyle: return true; default: return false }
            }
            let perFrame = program.perFrame
            let strategy = StrataEngine.actionLookupStrategy.rawValue
            session.finish()
            self.session = nil
            settings.counter?.runEnds()
            try BenchmarkError.check(running > 0 || perFrame.implicit + perFrame.explicit == 0 || answersLookups,
                                     "scene \(program.name): no animation was running at the end")
            var result = recorder.result(name: label, layers: program.layers + 1, warmupFrames: program.warmupFrames,
                                         description: program.description)
            result.memory = memory
            result.scene = program.name
            result.engine = Self.engineName
            result.strategy = strategy
            result.file = program.file
            result.parameters = Dictionary(uniqueKeysWithValues: program.parameters.map { ($0.name, $0.value) })
            return result
        }
    }
}

extension SceneRun {
    /// The player's motion window: the scene again, untimed, on a fresh engine, from its start
    /// to the window's last frame, each window frame's snapshot handed to the recorder.
    func recordAfterRun(progress: @escaping (String) -> Void) {
        guard let player, let window = player.replayWindow else { return }
        let warmup = program.warmupFrames, program = original, strategy = settings.strategy
        let started = DispatchTime.now().uptimeNanoseconds
        func seconds() -> String { String(format: "%.1f", Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9) }
        progress("replaying frames 0–\(window.upperBound) untimed for the player's motion window (frames \(window.lowerBound)–\(window.upperBound))")
        // The replay's thread reports as it goes; this thread waits for it.
        do {
            try onFreshEngine(named: "strata-scene-replay") {
                if let s = strategy.flatMap(ActionLookupStrategy.init(rawValue:)) { StrataEngine.actionLookupStrategy = s }
                var p = program
                // Snapshots only for the window's frames: the frames before it build the
                // engine's state, which is all the window needs of them.
                let session = ScriptSession(typedSetters: true, snapshotEachFrame: false)
                session.apply(p.setup)
                defer { session.finish() }
                var said = started
                for f in 0...(warmup + window.upperBound) {
                    let i = f - warmup
                    if i == window.lowerBound { session.snapshotEachFrame = true }
                    let ops = session.prepare(p.frame(f))
                    session.apply(ops)
                    withExtendedLifetime(ops) {}
                    if i >= window.lowerBound,
                       !player.replayed(index: i, time: p.time(ofFrame: f), snapshot: session.lastSnapshot ?? session.snapshot()) {
                        break
                    }
                    if f & 255 == 0 && DispatchTime.now().uptimeNanoseconds &- said > 5_000_000_000 {
                        said = DispatchTime.now().uptimeNanoseconds
                        progress("replay at frame \(max(i, 0)) of \(window.upperBound), \(seconds()) s")
                    }
                }
            }
        } catch {
            player.windowFailed("the replay failed: \(error)")
        }
        progress("motion window replayed in \(seconds()) s")
    }
}

enum SceneRunner {
    /// Runs `program` alone and returns its figures.
    static func run(_ program: SceneProgram, _ settings: SceneRunSettings, player: PlayerRecorder? = nil,
                    progress: @escaping (String) -> Void) throws -> SceneResult {
        let r = try SceneRun(program, settings, player: player)
        return try SceneInterleaver.run([r], progress: progress)[0].get()
    }

    /// Runs `program` untimed on an engine of its own and hands `body` the render snapshot
    /// at each of `times` (media seconds, ascending; the frame at or before each, the set-up
    /// frame at 0). Times past `maxFrames` frames are refused.
    static func snapshots(_ program: SceneProgram, at times: [Double], maxFrames: Int = 200_000,
                          _ body: @escaping (Double, RenderSnapshot) throws -> Void) throws {
        for t in times where !(t >= 0 && t.isFinite && t <= program.time(ofFrame: maxFrames - 1)) {
            throw BenchmarkError("time \(t) s: scene times are finite, from 0 up to \(program.time(ofFrame: maxFrames - 1)) s (\(maxFrames) frames)")
        }
        try onFreshEngine(named: "strata-scene") {
            var p = program
            let session = ScriptSession(typedSetters: true)
            session.apply(p.setup)
            var f = 0
            for t in times.sorted() {
                while p.time(ofFrame: f) <= t + 1e-9 {
                    session.apply(p.frame(f))
                    f += 1
                }
                try body(t, session.snapshot())
            }
            session.finish()
        }
    }
}

/// `STRATA_BENCH_INJECT_SLOWDOWN=P` (see `injectedSlowdownPeriod`) makes every scene frame P%
/// longer too: after the frame's work, a spin for P% of its time, inside the timed region, so
/// p50 and p99 both move by P%. 0 when unset.
let injectedSceneSlowdown: Double = {
    guard let text = ProcessInfo.processInfo.environment["STRATA_BENCH_INJECT_SLOWDOWN"], let p = Double(text), p > 0, p <= 100 else { return 0 }
    return p / 100
}()
