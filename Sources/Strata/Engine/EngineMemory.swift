/// What this thread's engine holds in memory, for the benchmark suite's churn checks and the
/// report's bytes per layer and per running animation. Not API: reached with
/// `@_spi(Benchmarks) import Strata`.
@_spi(Benchmarks)
public struct EngineMemory: Equatable, Sendable {
    /// Live layers, and bytes of the layer store's columns (its capacity).
    public var layers: Int
    public var layerBytes: Int
    /// Running animations, and bytes of the animation records, tracks and timing entries
    /// (their capacities).
    public var animations: Int
    public var animationBytes: Int
    public var timingBytes: Int

    /// Every store's bytes.
    public var totalBytes: Int { layerBytes + animationBytes + timingBytes }
}

@_spi(Benchmarks)
extension StrataEngine {
    /// This thread's engine's store sizes now (a scan of the few tracks).
    public static var memory: EngineMemory {
        let c = EngineContext.current
        return EngineMemory(layers: c.layers.liveCount, layerBytes: c.layers.bytesAllocated + c.animations.layerListBytes,
                            animations: c.animations.liveCount, animationBytes: c.animations.bytesAllocated,
                            timingBytes: c.timings.bytesAllocated)
    }
}
