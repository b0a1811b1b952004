import Strata

/// The render threads of this thread's engine, for the shared frame workloads (the reference
/// engine's twin, in Benchmarks/Reference, renders on one thread and ignores it).
enum EngineThreads {
    /// Sets the count; returns the previous one.
    @inline(__always)
    static func set(_ n: Int) -> Int {
        let previous = StrataEngine.renderThreads
        StrataEngine.renderThreads = n
        return previous
    }
}
