/// Strata's engine-wide settings and counters, per thread.
public enum StrataEngine {
    /// The lookup strategy of this thread's engine (`.interned` by default).
    public static var actionLookupStrategy: ActionLookupStrategy {
        get { EngineContext.current.lookupStrategy }
        set { EngineContext.current.lookupStrategy = newValue }
    }

    /// Threads this thread's engine may use in `render()` (1 or 2; default 2 on a machine with
    /// two or more cores). A lane track of at least 131,072 lanes (e.g. 65,536 position
    /// animations) is split in two halves of its blocks, the upper one evaluated by a worker
    /// thread of the engine.
    public static var renderThreads: Int {
        get { EngineContext.current.frames.renderThreads }
        set { EngineContext.current.frames.renderThreads = max(1, min(2, newValue)) }
    }

    /// Running (added, not yet removed) animations of this thread's engine.
    public static var activeAnimationCount: Int { EngineContext.current.animations.liveCount }

    /// Live layers of this thread's engine.
    public static var layerCount: Int { EngineContext.current.layers.liveCount }
}
