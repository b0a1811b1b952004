import Foundation
import StrataReportModel

/// A thread of its own for one engine (engines and transaction stacks are per thread): work
/// handed to `sync` runs there, one piece at a time, while the caller waits. Scenes run
/// side by side (engines, lookup strategies) each keep such a thread, so their frames can
/// be interleaved.
public final class EngineThread: @unchecked Sendable {
    private let start = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var job: (() -> Void)?
    private var thread: Thread?

    /// Work runs on the caller's thread (`inline()`).
    private var runsInline = false

    /// An engine thread that is the caller's own: `sync` runs its work where it is called. A
    /// counted scene runs this way, all of it on one thread the counter started, so no other
    /// thread of the process runs (or is woken) while a frame is counted.
    public static func inline() -> EngineThread { EngineThread() }

    private init() { runsInline = true }

    /// Starts the thread, named `name`, with a stack of `stackSize` bytes (16 MiB by default).
    public init(name: String, stackSize: Int = 16 << 20) {
        let t = Thread { [unowned self] in
            while true {
                self.start.wait()
                guard let job = self.job else { self.done.signal(); return }
                job()
                self.job = nil
                self.done.signal()
            }
        }
        t.stackSize = stackSize
        t.name = name
        thread = t
        t.start()
    }

    /// Runs `body` on this thread and returns what it returns (or rethrows).
    public func sync<T>(_ body: @escaping () throws -> T) throws -> T {
        if runsInline { return try body() }
        var outcome: Result<T, Error>?
        job = { outcome = Result { try body() } }
        start.signal()
        done.wait()
        return try outcome!.get()
    }

    /// Ends the thread (its engine is released with it).
    public func stop() {
        guard !runsInline, thread != nil else { return }
        job = nil
        start.signal()
        done.wait()
        thread = nil
    }

    deinit { stop() }

    /// Runs `body` on a new thread (a fresh engine) with a stack of `stackSize` bytes, the
    /// caller blocked until it ends.
    public static func run<T>(name: String, stackSize: Int = 16 << 20, _ body: @escaping () throws -> T) throws -> T {
        // The thread writes the outcome and signals; this thread reads it only after the wait.
        let outcome = HandedOver<Result<T, Error>?>(nil)
        let work = HandedOver(body)
        let done = DispatchSemaphore(value: 0)
        let t = Thread {
            outcome.value = Result { try work.value() }
            done.signal()
        }
        t.stackSize = stackSize
        t.name = name
        t.start()
        done.wait()
        return try outcome.value!.get()
    }
}

/// A value handed from one thread to another with its own synchronisation (a semaphore, a
/// lock, a join): what the compiler cannot see, said once here.
public final class HandedOver<T>: @unchecked Sendable {
    public var value: T
    public init(_ value: T) { self.value = value }
}

/// One run of a scene, advanced a frame at a time (on its own engine thread).
public protocol SceneStepping: AnyObject {
    /// The run's name in the report.
    var label: String { get }
    /// Frames in all: warm-up and timed.
    var totalFrames: Int { get }
    /// Builds the tree.
    func setUp() throws
    /// Generates, applies and (after the warm-up) times frame `f`.
    func frame(_ f: Int) throws
    /// The figures; ends the run and releases its engine.
    func finish() throws -> SceneResult
    /// After `finish`: whatever the run records untimed once its frames are known (the
    /// player's motion window, by a replay on a thread of its own, which reports through
    /// `progress`). Problems are the recording's, never the run's.
    func recordAfterRun(progress: @escaping (String) -> Void)
}

extension SceneStepping {
    public func recordAfterRun(progress: @escaping (String) -> Void) {}
}

/// Runs scenes side by side: every run's frame f before any run's frame f + 1, the order of
/// the runs rotated each frame, so drift over the process's life (caches, clock, the other
/// core's load) falls on every run alike.
public enum SceneInterleaver {
    /// Sets up every run, plays their frames interleaved, and finishes each: one result per
    /// run, in order (a run that threw is finished and reported as its error). `progress` hears
    /// about every 2 s.
    public static func run(_ runs: [SceneStepping], progress: @escaping (String) -> Void = { _ in }) -> [Result<SceneResult, Error>] {
        var failed = [Error?](repeating: nil, count: runs.count)
        for (i, r) in runs.enumerated() {
            do { try r.setUp() } catch { failed[i] = error }
        }
        let frames = runs.map(\.totalFrames).max() ?? 0
        let started = DispatchTime.now().uptimeNanoseconds
        var last = started
        for f in 0..<frames {
            for k in 0..<runs.count {
                let i = (k + f) % runs.count
                guard failed[i] == nil, f < runs[i].totalFrames else { continue }
                do { try runs[i].frame(f) } catch { failed[i] = error }
            }
            let now = DispatchTime.now().uptimeNanoseconds
            if now &- last > 2_000_000_000 {
                last = now
                progress("frame \(f + 1) of \(frames)\(runs.count > 1 ? " (each of \(runs.count) runs)" : ""), \(String(format: "%.1f", Double(now &- started) / 1e9)) s")
            }
        }
        return runs.enumerated().map { i, r in
            if let e = failed[i] { _ = try? r.finish(); return .failure(e) }
            let result = Result { try r.finish() }
            if case .success = result { r.recordAfterRun(progress: progress) }
            return result
        }
    }
}

/// How one run of a scene goes.
public struct SceneRunSettings {
    /// The scene's short run (`quickFrames`) instead of `frames`.
    public var quick = false
    /// Frames to time, overriding both.
    public var frames: Int?
    /// The engine's action lookup strategy for the run (nil: the engine's default).
    public var strategy: String?
    /// The name the result is reported under (default: the scene's name).
    public var label: String?
    /// Counts the frames instead of timing them (nil: timed). A counted run renders on one
    /// thread, so the render worker's spin-wait is never counted and its share of the work is
    /// counted on the rendering thread; it takes no memory samples and records no player.
    public var counter: SceneFrameCounter?
    /// Settings as given (the defaults: the scene's full run, the engine's strategy, its name).
    public init(quick: Bool = false, frames: Int? = nil, strategy: String? = nil, label: String? = nil,
                counter: SceneFrameCounter? = nil) {
        self.quick = quick
        self.frames = frames
        self.strategy = strategy
        self.label = label
        self.counter = counter
    }
}
