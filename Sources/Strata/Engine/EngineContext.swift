import Foundation
import Synchronization
import CStrataThread
#if canImport(Glibc)
import Glibc
#endif

/// One engine per thread (Core Animation's per-thread transaction model): the layer,
/// animation and timing stores, the transaction stack, the clock and the lookup strategy.
/// Layers created on a thread live in that thread's engine.
final class EngineContext {
    /// What the layer objects keep for this engine (presentation copies, display work),
    /// made by the faces on first use (`Engine/LayerSide.swift`).
    @exclusivity(unchecked) var layerSide: (any LayerSide)?
    /// Some presentation copy reads the presentation columns: it is frozen before they change.
    @exclusivity(unchecked) var hasLiveCopies = false
    /// The layers' side has display work: asked at each outermost commit and frame end.
    @exclusivity(unchecked) var hasDisplayWork = false
    let layers = LayerStore()
    let animations = AnimationStore()
    let timings = TimingStore()
    /// The frame's evaluation, over the stores above (Frames/FrameRenderer.swift).
    let frames: FrameRenderer
    /// The bridge from CAAnimation objects to the stores' values (Animations/AnimationCompiler.swift).
    let compiler: AnimationCompiler
    @exclusivity(unchecked) var transactions = TransactionStack()
    /// Media time of the current frame.
    @exclusivity(unchecked) var now: Double = 0
    @exclusivity(unchecked) var lookupStrategy: ActionLookupStrategy = .interned
    let actionCache = ActionCache()
    /// `PropertyTable.hot`, read once: the change path's every access to the global checked
    /// its initialisation (`swift_once`).
    let hot = PropertyTable.hot

    deinit { changes.free() }

    /// Rows of the sublayers a going layer held, unlinked and waiting for the layers' side
    /// to release them (`LayerSide.releaseOrphans`).
    @exclusivity(unchecked) var orphans: [Int32] = []

    /// What the open transactions changed, until the outermost commit (Changes/ChangeLog.swift).
    @exclusivity(unchecked) var changes = ChangeLog()
    /// The change whose action is running (Stores/ChangeInFlight.swift), shared with the
    /// compiler. A `let` of the owner: read through the change log (a `var`), each use took a
    /// retain and a release.
    let inFlight = ChangeInFlight()
    /// The layer and key whose chain the base `action(forKey:)` is walking: its class's
    /// override (the caller) is not asked again for them.
    @exclusivity(unchecked) var chainWalk: (row: Int32, key: PropertyID)?
    /// Stop callbacks of replaced animations, delivered once the replacement is added.
    @exclusivity(unchecked) var deferredStops: [(CAAnimation, Bool)] = []
    /// This thread's open `StrataDiagnostics.capture` and `withholding` scopes.
    let diagnostics = DiagnosticScopes()
    /// Records this engine's use while set (`StrataRecording`); every hook tests it once.
    @exclusivity(unchecked) var recorder: EngineRecorder?

    init() {
        frames = FrameRenderer(layers: layers, animations: animations, timings: timings)
        compiler = AnimationCompiler(layers: layers, animations: animations, timings: timings, inFlight: inFlight)
    }

    /// Capacity limits of this engine (rows and records are Int32 indices): past them a new
    /// layer is inert and a new animation is refused, each with an `.outOfCapacity`
    /// diagnostic, never a wrapped index.
    @exclusivity(unchecked) var maxLayers = Int(Int32.max) - 1
    @exclusivity(unchecked) var maxAnimations = Int(Int32.max) - 1
    /// One diagnostic per transaction for implicit animations dropped at the limit.
    @exclusivity(unchecked) var reportedFullThisTransaction = false

    /// Room for `n` more animation records (and their timing entries and track slots).
    @inline(__always)
    func hasRoomForAnimations(_ n: Int = 1) -> Bool { animations.liveCount &+ n <= maxAnimations }

    @inline(never)
    func refuseAnimationsAtCapacity(_ what: String) {
        StrataDiagnostics.emit(.outOfCapacity,
            "\(what): this thread's engine holds at most \(maxAnimations) running animations (StrataEngine.capacityLimits.animations) and has \(animations.liveCount); not added")
    }

    /// Whether this is the calling thread's engine (one thread-local read, inline: a C
    /// `__thread` pointer, see `CStrataThread`; `pthread_getspecific` was a call into libc,
    /// 25 instructions of every property change).
    var isCurrent: Bool {
        @inline(__always) get { strata_current_engine() == Unmanaged.passUnretained(self).toOpaque() }
    }

    /// A layer of this engine was used on another thread.
    @inline(never)
    func reportForeignUse(layerNamed name: String?) {
        StrataDiagnostics.emit(.wrongThread,
            "a CALayer\(name.map { " named '\($0)'" } ?? "") was used on a thread other than the one that created it: each thread has its own engine and transaction stack, so changes from another thread are refused and reads may race; hand the work to the layer's own thread")
    }

    /// Rows of layers released on other threads, freed by this engine's own thread.
    private let foreignReleaseLock = NSLock()
    @exclusivity(unchecked) private var foreignReleases: [Int32] = []
    /// Set (release) by a releasing thread after it queued a row; read (acquire) once per
    /// frame and commit, so the common case takes no lock.
    private let hasForeignReleases = Atomic<Bool>(false)

    /// A layer of this engine went away on another thread: its row waits for this engine's
    /// thread (`drainForeignReleases`), which alone touches the stores.
    func releaseFromAnotherThread(_ row: Int32) {
        StrataDiagnostics.emit(.wrongThread,
            "a CALayer was released on a thread other than the one that created it; its engine frees it on its own thread, at the next frame or commit")
        foreignReleaseLock.lock()
        foreignReleases.append(row)
        foreignReleaseLock.unlock()
        hasForeignReleases.store(true, ordering: .releasing)
    }

    /// Frees the rows of layers released on other threads (on this engine's thread).
    @inline(__always)
    func drainForeignReleases() {
        guard _slowPath(hasForeignReleases.load(ordering: .acquiring)) else { return }
        hasForeignReleases.store(false, ordering: .relaxed)   // rows queued after this are seen next time
        foreignReleaseLock.lock()
        let rows = foreignReleases
        foreignReleases.removeAll()
        foreignReleaseLock.unlock()
        // Their objects are gone: live copies take their values without touching them.
        freezeLiveCopies(dying: EngineContext.everyRowDying)
        for row in rows where layers.flags[Int(row)] & LayerFlags.alive != 0 { layerDidDeinit(row) }
    }

    /// This thread's engine, created on first use.
    static var current: EngineContext {
        @inline(__always) get {
            if let p = strata_current_engine() {
                return Unmanaged<EngineContext>.fromOpaque(p).takeUnretainedValue()
            }
            return makeCurrent()
        }
    }

    @inline(never)
    private static func makeCurrent() -> EngineContext {
        let c = EngineContext()
        install(Unmanaged.passRetained(c).toOpaque())
        StrataRecording.startFromEnvironment(c)
        return c
    }

    /// Called when a thread ends: commits what it left open (with a diagnostic) and lets the
    /// engine go once its layers are gone.
    fileprivate static func threadDidExit(_ p: UnsafeMutableRawPointer) {
        let c = Unmanaged<EngineContext>.fromOpaque(p)
        let context = c.takeUnretainedValue()
        if context.transactions.hasExplicit {
            let n = context.transactions.filter { !$0.implicit }.count
            StrataDiagnostics.logger.warning(
                "a thread ended with \(n) open CATransaction(s); they were committed",
                metadata: ["strata.code": "\(StrataDiagnosticCode.openTransactionsAtThreadExit.rawValue)"])
        }
        // Re-install for the duration of the commit so engine calls find this context.
        install(p)
        while !context.transactions.isEmpty { context.commitTop() }
        if context.recorder != nil { StrataRecording.finish(context) }
        // Presentation copies hold their engine: the ones it keeps would keep it for ever.
        context.layerSide?.engineWillEnd(context)
        install(nil)
        c.release()
    }

    /// Sets (or clears) this thread's engine in both places it is kept: the pthread key,
    /// whose destructor ends the engine with its thread, and the C thread-local the checks
    /// read (`isCurrent`, `current`). Always together, so the two never disagree.
    private static func install(_ p: UnsafeMutableRawPointer?) {
        pthread_setspecific(contextKey, p)
        strata_set_current_engine(p)
    }
}

extension DiagnosticScopes {
    /// This thread's scopes: its engine's.
    static var current: DiagnosticScopes { EngineContext.current.diagnostics }
}

private let contextKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { p in
        guard let p else { return }
        EngineContext.threadDidExit(p)
    }
    return key
}()

