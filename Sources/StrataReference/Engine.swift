import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A non-owning reference to a layer in the engine's tables (layers own the engine, not the
/// other way round). A layer takes itself out of every table when it goes
/// (`layerWillGo`), so a reference found in a table is always to a live layer. (Swift's
/// `weak` would do the same job, but it moves every layer's reference counts to a side
/// table and slows every retain of it.)
struct LayerRef {
    unowned(unsafe) let layer: CALayer
    init(_ layer: CALayer) { self.layer = layer }
}

/// The property change whose action is running: `CAAnimation.run` reads the value before the
/// change from it (the lookup happens in the setter, before the model changes).
struct ChangeInFlight {
    let layer: ObjectIdentifier
    let key: String
    /// Components of the value before the change (interpolatable properties).
    var oldComponents: [Double]?
    /// Object values before and after the change (contents, mask, paths; custom keys).
    var oldObject: Any?
    var newObject: Any?
}

/// One engine per thread (Core Animation's per-thread transaction model): the transaction
/// stack, the clock, the layers that have animations, and the work held until the next
/// commit. Layers created on a thread belong to that thread's engine.
final class ReferenceEngine {
    /// Media time of the current frame.
    var now: Double = 0
    /// The media time of the last `render()` (NaN before the first).
    var renderedAt: Double = .nan
    var transactions: [TransactionLevel] = []
    /// This thread's open `StrataDiagnostics.capture` and `withholding` scopes.
    let diagnostics = DiagnosticScopes()
    var lookupStrategy: ActionLookupStrategy = .chain
    var liveLayerCount = 0

    /// Layers with at least one animation, by identity.
    var animatedLayers: [ObjectIdentifier: LayerRef] = [:]
    /// Animations added since the last outermost commit (also those removed meanwhile).
    var uncommittedAnimations: [AnimationRuntime] = []
    /// Properties changed since the last outermost commit, by layer.
    var changedProperties: [ObjectIdentifier: (layer: LayerRef, keys: [String])] = [:]
    /// Presentation values of replaced animations, to show the model at the next frame
    /// unless an animation drives them by then.
    var valuesToRefresh: [ObjectIdentifier: (layer: LayerRef, keys: [String])] = [:]
    /// Layers created since the last outermost commit.
    var uncommittedLayers: [ObjectIdentifier: LayerRef] = [:]
    var changeInFlight: ChangeInFlight?
    /// Completion blocks ready to run, in the order they became ready.
    var groupsToFire: [CompletionGroup] = []
    var nextSequence = 0
    /// Animations (with a delegate) that started / that completed at the last render.
    var startedThisFrame: [AnimationRuntime] = []
    var completedThisFrame: [AnimationRuntime] = []
    /// Durations of the `View.animate` blocks running on this thread.
    var viewAnimationBlocks: [ViewAnimationBlock] = []
    /// Layers to display at the next commit and layers drawing animated keys (CALayer+Display).
    let displayQueue = DisplayQueue()

    /// This thread's engine, created on first use.
    static var current: ReferenceEngine {
        if let pointer = pthread_getspecific(engineKey) {
            return Unmanaged<ReferenceEngine>.fromOpaque(pointer).takeUnretainedValue()
        }
        let engine = ReferenceEngine()
        pthread_setspecific(engineKey, Unmanaged.passRetained(engine).toOpaque())
        return engine
    }

    /// A thread ends: transactions it left open are committed (with a diagnostic) and the
    /// engine goes once its layers are gone.
    fileprivate static func threadDidExit(_ pointer: UnsafeMutableRawPointer) {
        let unmanaged = Unmanaged<ReferenceEngine>.fromOpaque(pointer)
        let engine = unmanaged.takeUnretainedValue()
        // Re-install for the commit so that engine calls find this engine.
        pthread_setspecific(engineKey, pointer)
        let open = engine.transactions.filter { !$0.isImplicit }.count
        if open > 0 {
            StrataDiagnostics.emit(.openTransactionsAtThreadExit,
                "a thread ended with \(open) open CATransaction(s); they were committed")
        }
        while !engine.transactions.isEmpty { engine.commitTop() }
        pthread_setspecific(engineKey, nil)
        unmanaged.release()
    }

    /// Has `key` of `layer` changed since the last outermost commit?
    func hasUncommittedChange(_ layer: CALayer, _ key: String) -> Bool {
        changedProperties[ObjectIdentifier(layer)]?.keys.contains(key) ?? false
    }

    /// The next number in the engine-wide order of added animations.
    func takeSequence() -> Int {
        nextSequence += 1
        return nextSequence
    }

    /// Every layer that has animations (still alive).
    var layersWithAnimations: [CALayer] {
        animatedLayers.values.map { $0.layer }
    }

    /// A layer's local time for media time `t`: from the root down, each layer's
    /// `LayerTiming.localTime(at:)` of its parent's time. Used by `convertTime` and commits,
    /// whether or not the layer is active.
    func localTime(of layer: CALayer, at t: Double) -> Double {
        layerTime(of: layer, at: t).time
    }

    /// The time a layer's animations are evaluated at for media time `t`: its local time, or
    /// NaN when the layer or one of its ancestors is outside its active time and not held by
    /// its fill mode (the animations then have no effect, as a group's children when the
    /// group has none).
    func activeLocalTime(of layer: CALayer, at t: Double) -> Double {
        let lt = layerTime(of: layer, at: t)
        return lt.active ? lt.time : .nan
    }

    /// A layer's local time for media time `t`, and whether it and all its ancestors are
    /// active there.
    func layerTime(of layer: CALayer, at t: Double) -> (time: Double, active: Bool) {
        let parent = layer.superlayer.map { layerTime(of: $0, at: t) } ?? (time: t, active: true)
        let own = layer.timing.localTime(at: parent.time)
        return (own.time, parent.active && own.active)
    }
}

private let engineKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { pointer in
        guard let pointer else { return }
        ReferenceEngine.threadDidExit(pointer)
    }
    return key
}()

/// Engine-wide settings and counters of this thread's engine.
public enum StrataEngine {
    /// The lookup strategy setting. The reference engine always walks the literal chain; the
    /// value is kept so code written for the fast engine runs unchanged (`.chain` by default).
    public static var actionLookupStrategy: ActionLookupStrategy {
        get { ReferenceEngine.current.lookupStrategy }
        set { ReferenceEngine.current.lookupStrategy = newValue }
    }

    /// Running (added, not yet removed) animations of this thread's engine; a group counts
    /// itself and each of its children.
    public static var activeAnimationCount: Int {
        ReferenceEngine.current.layersWithAnimations.reduce(0) { total, layer in
            total + layer.animationRuntimes.reduce(0) { $0 + $1.count }
        }
    }

    /// Live layers of this thread's engine (presentation copies not counted).
    public static var layerCount: Int { ReferenceEngine.current.liveLayerCount }
}
