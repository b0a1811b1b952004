import Foundation
import StrataBench
import StrataPicture
@_spi(Benchmarks) import Strata

/// A frame-time scene written in Swift: your layers, your code. `setUp` builds the tree
/// under the root a renderer draws; `frame` makes one frame's changes (its time, and the
/// frame the renderer then takes, are timed). Each run is on an engine of its own.
public struct SceneBenchmark {
    public var name: String
    public var description: String
    public var frames: Int
    public var quickFrames: Int
    public var warmupFrames: Int
    public var framesPerSecond: Double
    public var setUp: (_ root: CALayer) -> Void
    public var frame: (_ index: Int, _ root: CALayer) -> Void

    public init(name: String, description: String = "", frames: Int, quickFrames: Int? = nil, warmupFrames: Int = 0,
                framesPerSecond: Double = 60, setUp: @escaping (_ root: CALayer) -> Void,
                frame: @escaping (_ index: Int, _ root: CALayer) -> Void) {
        self.name = name
        self.description = description
        self.frames = max(1, frames)
        self.quickFrames = max(1, min(quickFrames ?? min(frames, 100), frames))
        self.warmupFrames = max(0, warmupFrames)
        self.framesPerSecond = framesPerSecond > 0 && framesPerSecond.isFinite ? framesPerSecond : 60
        self.setUp = setUp
        self.frame = frame
    }

    /// A run to interleave with others (`SceneInterleaver`).
    /// The scene's tree on this thread's engine: `setUp` under a root, actions disabled, and
    /// the set-up frame at 0.
    func makeTree() -> (CALayer, CARenderer) {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        setUp(root)
        CATransaction.commit()
        renderer.renderFrame(atTime: 0)
        return (root, renderer)
    }

    /// With `player`, the run's frames are kept for a player page as a scene file's are.
    func makeRun(_ settings: SceneRunSettings, player: PlayerRecorder? = nil) throws -> SceneStepping {
        if let s = settings.strategy, ActionLookupStrategy(rawValue: s) == nil {
            throw BenchmarkError("unknown lookup strategy \(s)")
        }
        return SwiftSceneRun(self, settings, player: player)
    }
}

/// A Swift scene's run: its own engine thread, every frame timed (the scene's code, then
/// beginFrame, render, the render snapshot, endFrame).
final class SwiftSceneRun: SceneStepping {
    let scene: SceneBenchmark
    let settings: SceneRunSettings
    let label: String
    let totalFrames: Int
    private let timed: Int
    private let thread: EngineThread
    private var recorder: FrameTimeRecorder
    private var samples: [SceneMemory.Sample] = []
    private var root: CALayer?
    private var renderer: CARenderer?
    private let player: PlayerRecorder?

    init(_ scene: SceneBenchmark, _ settings: SceneRunSettings, player: PlayerRecorder? = nil) {
        self.scene = scene
        self.settings = settings
        self.player = player
        label = settings.label ?? scene.name
        timed = max(1, settings.frames ?? (settings.quick ? scene.quickFrames : scene.frames))
        totalFrames = scene.warmupFrames + timed
        recorder = FrameTimeRecorder(expectedFrames: timed)
        // A counted run is driven on the counter's own thread (`playCounted`).
        thread = settings.counter != nil ? EngineThread.inline() : EngineThread(name: "strata-swift-scene")
    }

    func setUp() throws {
        try thread.sync { [self] in
            if let s = settings.strategy.flatMap(ActionLookupStrategy.init(rawValue:)) { StrataEngine.actionLookupStrategy = s }
            if let counter = settings.counter {
                StrataEngine.renderThreads = 1
                counter.setUpBegins()
            }
            defer { settings.counter?.setUpEnds() }
            let (root, renderer) = scene.makeTree()
            self.root = root
            self.renderer = renderer
        }
    }

    private func sample(_ f: Int) {
        let m = StrataEngine.memory
        samples.append(SceneMemory.Sample(frame: f, residentBytes: SceneMemory.residentBytes(), storeBytes: m.totalBytes,
                                          layers: m.layers, animations: m.animations))
    }

    func frame(_ f: Int) throws {
        try thread.sync { [self] in
            guard let root, let renderer else { throw BenchmarkError("scene \(label): not set up") }
            if let counter = settings.counter {
                // Counted, not timed: the scene's code is the setters phase (its own commits
                // included), then the frame's phases.
                let t = Double(f + 1) / scene.framesPerSecond
                guard f >= scene.warmupFrames else {
                    counter.warmUpFrame(left: scene.warmupFrames - f)
                    scene.frame(f, root)
                    renderer.beginFrame(atTime: t)
                    renderer.render()
                    withExtendedLifetime(renderer.snapshot()) {}
                    renderer.endFrame()
                    return
                }
                counter.beginFrame(f - scene.warmupFrames)
                scene.frame(f, root)
                counter.enter(.commit)
                renderer.beginFrame(atTime: t)
                counter.enter(.render)
                renderer.render()
                counter.enter(.snapshot)
                let snapshot = renderer.snapshot()
                counter.enter(.endFrame)
                renderer.endFrame()
                counter.endFrame()
                withExtendedLifetime(snapshot) {}
                return
            }
            if f == scene.warmupFrames || (f > scene.warmupFrames && (f - scene.warmupFrames) % max(1, timed / 10) == 0) { sample(f) }
            let t = Double(f + 1) / scene.framesPerSecond
            let t0 = DispatchTime.now().uptimeNanoseconds
            scene.frame(f, root)
            let r0 = DispatchTime.now().uptimeNanoseconds
            renderer.beginFrame(atTime: t)
            renderer.render()
            let s0 = DispatchTime.now().uptimeNanoseconds
            let snapshot = renderer.snapshot()
            let s1 = DispatchTime.now().uptimeNanoseconds
            renderer.endFrame()
            let t1 = DispatchTime.now().uptimeNanoseconds
            withExtendedLifetime(snapshot) {}
            if f >= scene.warmupFrames {
                recorder.record(frameNanoseconds: t1 &- t0, renderNanoseconds: t1 &- r0, snapshotNanoseconds: s1 &- s0)
                // The player's frames are encoded here, outside the frame's time.
                player?.frameDone(index: f - scene.warmupFrames, time: t, milliseconds: Double(t1 &- t0) / 1e6) { snapshot }
            }
        }
    }

    /// The player's motion window: the scene again, untimed, on an engine thread of its own,
    /// from its set-up to the window's last frame (a Swift scene is its own code: the replay
    /// is checked against the run's slowest frame, and a difference is noted on the page).
    func recordAfterRun(progress: @escaping (String) -> Void) {
        guard let player, let window = player.replayWindow else { return }
        progress("replaying \(scene.name) untimed for the player's motion window (frames \(window.lowerBound)–\(window.upperBound))")
        let replay = EngineThread(name: "strata-swift-scene-replay")
        defer { replay.stop() }
        do {
            try replay.sync { [scene, settings] in
                if let s = settings.strategy.flatMap(ActionLookupStrategy.init(rawValue:)) { StrataEngine.actionLookupStrategy = s }
                let (root, renderer) = scene.makeTree()
                defer {
                    for l in root.sublayers ?? [] { l.removeFromSuperlayer() }
                    CATransaction.flush()
                }
                for f in 0...(scene.warmupFrames + window.upperBound) {
                    let t = Double(f + 1) / scene.framesPerSecond
                    scene.frame(f, root)
                    renderer.beginFrame(atTime: t)
                    renderer.render()
                    let i = f - scene.warmupFrames
                    if i >= window.lowerBound {
                        let s = renderer.snapshot()
                        renderer.endFrame()
                        if !player.replayed(index: i, time: t, snapshot: s) { break }
                    } else {
                        renderer.endFrame()
                    }
                }
            }
        } catch {
            player.windowFailed("the replay failed: \(error)")
        }
    }

    func finish() throws -> SceneResult {
        defer { thread.stop() }
        return try thread.sync { [self] in
            sample(totalFrames)
            let m = StrataEngine.memory
            let memory = SceneMemory(samples: samples, bytesPerLayer: Double(m.layerBytes) / Double(max(m.layers, 1)),
                                     bytesPerAnimation: Double(m.animationBytes + m.timingBytes) / Double(max(m.animations, 1)))
            let layers = m.layers
            let strategy = StrataEngine.actionLookupStrategy.rawValue
            for l in root?.sublayers ?? [] { l.removeFromSuperlayer() }
            CATransaction.flush()
            root = nil
            renderer = nil
            settings.counter?.runEnds()
            var result = recorder.result(name: label, layers: layers, warmupFrames: scene.warmupFrames, description: scene.description)
            result.memory = memory
            result.scene = scene.name
            result.engine = "fast"
            result.strategy = strategy
            return result
        }
    }
}
