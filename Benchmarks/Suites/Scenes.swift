import Foundation
import StrataBench
import StrataScript
import StrataScriptFast
import StrataPicture
@_spi(Benchmarks) import Strata

/// Frame-time scenes: scripted app frame loops (StrataScript operations, so a scene can be
/// written out, replayed, and run on either engine) timed frame by frame into an HdrHistogram.
/// Each frame's operations are generated and resolved (`ScriptSession.prepare`: layers found,
/// key paths matched, values built) before the frame is timed; the time covers applying
/// them (the app's setter calls in transactions, explicit animations, tree changes) and the
/// frame a renderer takes: commit, render, the render snapshot, end of frame.
public enum Scenes {
    /// A scene's shape.
    public struct Definition {
        public var name: String
        public var description: String
        /// Containers under the root, and leaves per container (layers = 1 + c * (1 + l)).
        var containers: Int
        var leavesPerContainer: Int
        /// Implicitly animated property changes per frame, and changes with actions disabled.
        var animatedChanges: Int
        var silentChanges: Int
        /// Explicit animations added every `explicitEvery` frames.
        var explicitAnimations: Int
        var explicitEvery: Int
        /// Detached subtrees (each `subtreeSize` layers) toggled in/out, and toggles per frame.
        var subtrees: Int
        var subtreeSize: Int
        var subtreeChanges: Int
        public var frames: Int
        public var quickFrames: Int
        /// Untimed frames first: at least an implicit animation's 0.25 s (15 frames), so the
        /// timed frames (and the memory readings) start at the steady number of animations.
        public var warmupFrames: Int

        public var layers: Int { 1 + containers * (1 + leavesPerContainer) + subtrees * subtreeSize }
    }

    public static let definitions: [Definition] = [
        Definition(name: "app-10k",
                   description: "10,000 layers in 100 containers; per frame 200 implicit changes and 50 silent ones in two transactions, 5 explicit basic/keyframe animations every 10 frames, a 50-layer subtree in or out every 5 frames",
                   containers: 100, leavesPerContainer: 99, animatedChanges: 200, silentChanges: 50,
                   explicitAnimations: 5, explicitEvery: 10, subtrees: 2, subtreeSize: 50, subtreeChanges: 0,
                   frames: 100_000, quickFrames: 200, warmupFrames: 30),
        Definition(name: "stress-100k",
                   description: "100,000 layers in 1,000 containers; per frame 10,000 implicit changes and 100 subtree changes (10-layer subtrees moved in or out)",
                   containers: 1_000, leavesPerContainer: 99, animatedChanges: 10_000, silentChanges: 0,
                   explicitAnimations: 20, explicitEvery: 10, subtrees: 100, subtreeSize: 10, subtreeChanges: 100,
                   frames: 1_500, quickFrames: 30, warmupFrames: 30),
    ]

    public static var names: [String] { definitions.map(\.name) }

    /// The whole scene as one script (for writing out or replaying on the reference engine).
    public static func script(_ name: String, frames: Int) -> Script? {
        guard let d = definitions.first(where: { $0.name == name }) else { return nil }
        var g = SceneGenerator(d)
        var ops = g.setup()
        for f in 0..<frames { ops += g.frame(f) }
        return Script(ops)
    }

    /// Runs scene `name` on this thread's engine (fresh layers; removed afterwards), timing
    /// every frame; `quick` runs `quickFrames` instead of `frames`.
    ///
    /// The scene runs on a thread of its own, so on an engine of its own (engines are per
    /// thread): its memory readings are its stores alone, not capacities an earlier fixture
    /// of the calling thread left behind.
    public static func run(_ name: String, quick: Bool, frames: Int? = nil, player: PlayerRecorder? = nil,
                           progress: @escaping (String) -> Void = { _ in }) throws -> SceneResult {
        guard let d = definitions.first(where: { $0.name == name }) else {
            throw BenchmarkError("no scene named \(name); scenes: \(names.joined(separator: ", "))")
        }
        return try onFreshEngine(named: "strata-scene") {
            try runOnThisThread(d, quick: quick, frames: frames, player: player, progress: progress)
        }
    }

    /// Frames a run of `name` times (`quick`: the short run).
    public static func frames(_ name: String, quick: Bool) -> Int? {
        definitions.first { $0.name == name }.map { quick ? $0.quickFrames : $0.frames }
    }

    /// Runs scene `name` untimed on an engine of its own and hands `body` the render snapshot
    /// at each of `times` (media seconds, ascending; the frame at or before each: frame f is
    /// at (f + 1) / 60, the set-up frame at 0). Times past `maxFrames` frames are refused.
    public static func snapshots(_ name: String, at times: [Double], maxFrames: Int = 200_000,
                                 _ body: @escaping (Double, RenderSnapshot) throws -> Void) throws {
        guard let d = definitions.first(where: { $0.name == name }) else {
            throw BenchmarkError("no scene named \(name); scenes: \(names.joined(separator: ", "))")
        }
        for t in times where !(t >= 0 && t.isFinite && t * 60 <= Double(maxFrames)) {
            throw BenchmarkError("time \(t) s: scene times are finite, from 0 up to \(maxFrames / 60) s (\(maxFrames) frames)")
        }
        try onFreshEngine(named: "strata-scene") {
            var g = SceneGenerator(d)
            let session = ScriptSession(typedSetters: true)
            session.apply(g.setup())
            var f = 0
            for t in times.sorted() {
                while Double(f + 1) / 60 <= t + 1e-9 {
                    session.apply(g.frame(f))
                    f += 1
                }
                try body(t, session.snapshot())
            }
            session.finish()
        }
    }

    private static func runOnThisThread(_ d: Definition, quick: Bool, frames requested: Int?, player: PlayerRecorder?,
                                        progress: (String) -> Void) throws -> SceneResult {
        let name = d.name
        let frames = max(1, requested ?? (quick ? d.quickFrames : d.frames))
        var g = SceneGenerator(d)
        var recorder = FrameTimeRecorder(expectedFrames: frames)
        let started = DispatchTime.now().uptimeNanoseconds
        var samples: [SceneMemory.Sample] = []
        // Outside the timed region: a few stat calls and a scan of the engine's few tracks.
        func sampleMemory(_ frame: Int) {
            let m = StrataEngine.memory
            samples.append(SceneMemory.Sample(frame: frame, residentBytes: SceneMemory.residentBytes(),
                                              storeBytes: m.totalBytes, layers: m.layers, animations: m.animations))
        }
        let every = max(1, frames / 10)
        var memory: SceneMemory?
        do {
            let session = ScriptSession(typedSetters: true, snapshotEachFrame: true)
            session.apply(g.setup())
            for f in 0..<(d.warmupFrames + frames) {
                if f == d.warmupFrames || (f > d.warmupFrames && (f - d.warmupFrames) % every == 0) { sampleMemory(f) }
                // Generated and resolved (layers found, key paths matched, values built)
                // outside the timed region, so the time is the engine's: the app's setter
                // calls, transactions, tree changes and the frame ...
                let ops = session.prepare(g.frame(f))
                let t0 = DispatchTime.now().uptimeNanoseconds
                session.apply(ops)
                let t1 = DispatchTime.now().uptimeNanoseconds
                withExtendedLifetime(ops) {}   // ... and freed outside it
                if f >= d.warmupFrames {
                    recorder.record(frameNanoseconds: t1 &- t0, renderNanoseconds: session.lastRenderNanoseconds,
                                    snapshotNanoseconds: session.lastSnapshotNanoseconds)
                    // The player's frames are encoded here, outside the frame's time.
                    player?.frameDone(index: f - d.warmupFrames, time: Double(f + 1) / 60, milliseconds: Double(t1 &- t0) / 1e6) {
                        session.lastSnapshot ?? session.snapshot()
                    }
                }
                if f > 0 && f % 500 == 0 {
                    progress("frame \(f) of \(d.warmupFrames + frames), \(String(format: "%.1f", Double(t1 - started) / 1e9)) s")
                }
            }
            sampleMemory(d.warmupFrames + frames)
            let m = StrataEngine.memory
            memory = SceneMemory(samples: samples, bytesPerLayer: Double(m.layerBytes) / Double(max(m.layers, 1)),
                                 bytesPerAnimation: Double(m.animationBytes + m.timingBytes) / Double(max(m.animations, 1)))
            // Precondition of a meaningful scene: animations really ran.
            let running = StrataEngine.activeAnimationCount
            try BenchmarkError.check(running > 0 || d.animatedChanges == 0, "scene \(name): no animation was running at the end")
            session.finish()
        }
        var result = recorder.result(name: name, layers: d.layers, warmupFrames: d.warmupFrames, description: d.description)
        result.memory = memory
        return result
    }
}

/// Generates a scene's operations frame by frame, deterministically (seeded).
struct SceneGenerator {
    let d: Scenes.Definition
    var rng: SeededGenerator
    /// Layer ids: containers, leaves, subtree roots (and their members).
    var containers: [Int] = []
    var leaves: [Int] = []
    var subtreeRoots: [Int] = []
    var subtreeIn: [Bool] = []
    var nextSubtree = 0

    init(_ d: Scenes.Definition) {
        self.d = d
        rng = SeededGenerator(seed: 0x5CE7E)
    }

    /// Builds the tree (actions disabled) and renders frame 0. Leaves start on a grid over the
    /// 400 x 800 field the frames move them in, coloured by container, so a picture or the
    /// player shows the scene from its first frame (no random number is drawn here: the
    /// frames' operations are the generator's own).
    mutating func setup() -> [Op] {
        var ops: [Op] = [.begin, .setDisableActions(true)]
        var id = 0
        let leafCount = max(1, d.containers * d.leavesPerContainer)
        let columns = max(1, Int((Double(leafCount) / 2).squareRoot()))
        let rows = (leafCount + columns - 1) / columns
        for k in 0..<d.containers {
            let c = id; id += 1
            containers.append(c)
            ops.append(.makeLayer(id: c, shape: false))
            ops.append(.addSublayer(parent: -1, child: c))
            let hue = Double(k) / Double(max(d.containers, 1))
            for _ in 0..<d.leavesPerContainer {
                let l = id; id += 1
                let j = leaves.count
                leaves.append(l)
                ops.append(.makeLayer(id: l, shape: false))
                ops.append(.set(layer: l, keyPath: "bounds", value: .rect(0, 0, 20, 20)))
                ops.append(.set(layer: l, keyPath: "position",
                                value: .point(10 + Double(j % columns) * 380 / Double(columns), 10 + Double(j / columns) * 780 / Double(rows))))
                ops.append(.set(layer: l, keyPath: "backgroundColor",
                                value: .color([0.5 + 0.4 * cos(6.283 * hue), 0.5 + 0.4 * cos(6.283 * (hue - 0.33)), 0.5 + 0.4 * cos(6.283 * (hue - 0.67)), 1])))
                ops.append(.addSublayer(parent: c, child: l))
            }
        }
        for _ in 0..<d.subtrees {
            let r = id; id += 1
            subtreeRoots.append(r)
            subtreeIn.append(false)
            ops.append(.makeLayer(id: r, shape: false))
            ops.append(.set(layer: r, keyPath: "bounds", value: .rect(0, 0, 60, 60)))
            ops.append(.set(layer: r, keyPath: "backgroundColor", value: .color([0.2, 0.2, 0.2, 0.6])))
            for k in 1..<d.subtreeSize {
                let m = id; id += 1
                ops.append(.makeLayer(id: m, shape: false))
                ops.append(.set(layer: m, keyPath: "bounds", value: .rect(0, 0, 8, 8)))
                ops.append(.set(layer: m, keyPath: "position", value: .point(Double(k % 7) * 8 + 6, Double(k / 7) * 8 + 6)))
                ops.append(.set(layer: m, keyPath: "backgroundColor", value: .color([1, 1, 1, 0.9])))
                ops.append(.addSublayer(parent: r, child: m))
            }
        }
        ops += [.commit, .frame(time: 0)]
        return ops
    }

    mutating func pick(_ xs: [Int]) -> Int { xs[Int(rng.next() % UInt64(xs.count))] }
    mutating func unit() -> Double { Double(rng.next() % 10_000) / 10_000 }

    /// Frame `f`: changes in transactions, explicit animations, subtree moves, then the frame.
    mutating func frame(_ f: Int) -> [Op] {
        var ops: [Op] = [.begin]
        for _ in 0..<d.animatedChanges {
            let l = pick(leaves)
            switch rng.next() % 4 {
            case 0: ops.append(.set(layer: l, keyPath: "opacity", value: .scalar(unit())))
            case 1: ops.append(.set(layer: l, keyPath: "position", value: .point(unit() * 400, unit() * 800)))
            case 2: ops.append(.set(layer: l, keyPath: "bounds", value: .rect(0, 0, 10 + unit() * 40, 10 + unit() * 40)))
            default: ops.append(.set(layer: l, keyPath: "backgroundColor", value: .color([unit(), unit(), unit(), 1])))
            }
        }
        ops.append(.commit)
        if d.silentChanges > 0 {
            ops += [.begin, .setDisableActions(true)]
            for _ in 0..<d.silentChanges {
                ops.append(.set(layer: pick(leaves), keyPath: "position", value: .point(unit() * 400, unit() * 800)))
            }
            ops.append(.commit)
        }
        if f % d.explicitEvery == 0 {
            for k in 0..<d.explicitAnimations {
                var a: ScriptAnimation
                if k % 2 == 0 {
                    a = ScriptAnimation(kind: .basic)
                    a.keyPath = "position"
                    a.from = .point(0, 0)
                    a.to = .point(unit() * 400, unit() * 800)
                } else {
                    a = ScriptAnimation(kind: .keyframe)
                    a.keyPath = "opacity"
                    a.values = [.scalar(1), .scalar(0.2), .scalar(0.8), .scalar(1)]
                }
                a.duration = 0.5
                ops.append(.add(layer: pick(leaves), key: "explicit", animation: a))
            }
        }
        // Subtree changes: scenes with `subtreeChanges` move that many per frame; others move
        // one every 5 frames.
        let moves = d.subtreeChanges > 0 ? d.subtreeChanges : (f % 5 == 0 ? 1 : 0)
        for _ in 0..<moves where !subtreeRoots.isEmpty {
            let s = nextSubtree % subtreeRoots.count
            nextSubtree += 1
            if subtreeIn[s] {
                ops.append(.removeFromSuperlayer(layer: subtreeRoots[s]))
            } else {
                ops.append(.addSublayer(parent: pick(containers), child: subtreeRoots[s]))
            }
            subtreeIn[s].toggle()
        }
        ops.append(.frame(time: Double(f + 1) / 60))
        return ops
    }
}
