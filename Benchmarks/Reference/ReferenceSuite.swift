import StrataBench
import StrataScript

/// The reference engine (an object per layer and animation, String-keyed dictionaries) on
/// the fast engine's frame workloads: the same fixture and body (FrameWorkload.swift is
/// shared), up to the N where one frame stays well under a second.
public enum ReferenceSuite {
    public static func cases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for w in [FrameSpec.Width.opacity, .position, .transform] {
            for n in [100, 1_000, 10_000, 100_000] {
                let s = FrameSpec(width: w, timing: .shared, kind: .basic, n: n)
                cases.append(frameCase(s, engine: "reference", quick: n == 1_000 && w != .transform,
                                       make: { try makeFrameWorkload(s) }))
            }
        }
        // One implicit change in a transaction (CommitWorkload.swift is shared too).
        for n in [100, 1_000, 10_000] {
            cases.append(commitCase(.implicit, n: n, engine: "reference", quick: false))
        }
        for n in [100, 1_000, 10_000] {
            let s = FrameSpec(width: .position, timing: .own, kind: .keyframe, n: n)
            cases.append(frameCase(s, engine: "reference", quick: false, make: { try makeFrameWorkload(s) }))
        }
        // Gradients' colours (a keyed array of 8 lanes), beside the fast engine's.
        for n in [1_000, 10_000] {
            let s = FrameSpec(width: .gradient, timing: .shared, kind: .basic, n: n)
            cases.append(frameCase(s, engine: "reference", quick: false, make: { try makeFrameWorkload(s) }))
        }
        // Springs of their own (one solve per animation), beside the fast engine's.
        for n in [1_000, 10_000] {
            let s = FrameSpec(width: .position, timing: .own, kind: .spring, n: n)
            cases.append(frameCase(s, engine: "reference", quick: false, make: { try makeFrameWorkload(s) }))
        }
        return cases
    }

    /// A whole frame read by a renderer (evaluate + snapshot, or + presentation read-out),
    /// beside the fast engine's `snapshot/frame/strata/N`.
    public static func snapshotCases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for n in [10_000, 100_000] {
            for readout in [false, true] {
                cases.append(snapshotFrameCase(n: n, engine: "reference", readout: readout, quick: false) {
                    try makeSnapshotFrameWorkload(n: n, readout: readout)
                })
            }
        }
        return cases
    }
}

/// Scenes on the reference engine: the fast engine's runner (SceneRunner.swift is shared),
/// for the ratio to the classic design on a scene.
public enum ReferenceScenes {
    public static func run(_ program: SceneProgram, _ settings: SceneRunSettings = SceneRunSettings(),
                           progress: @escaping (String) -> Void = { _ in }) throws -> SceneResult {
        try SceneRunner.run(program, settings, progress: progress)
    }

    /// A run of `program` on the reference engine, to interleave with others.
    public static func makeRun(_ program: SceneProgram, _ settings: SceneRunSettings) throws -> SceneStepping {
        try SceneRun(program, settings, player: nil)
    }
}

/// The reference engine renders on one thread: the shared frame workloads' thread count
/// changes nothing here (see Benchmarks/Suites/EngineThreads.swift).
enum EngineThreads {
    @inline(__always)
    static func set(_ n: Int) -> Int { 1 }
    @inline(__always)
    static func with<T>(_ n: Int, _ body: () throws -> T) rethrows -> T { try body() }
}
