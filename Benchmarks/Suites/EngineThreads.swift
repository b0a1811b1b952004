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

    /// `body` with `n` render threads (0: the count as it is), then the count before.
    @inline(__always)
    static func with<T>(_ n: Int, _ body: () throws -> T) rethrows -> T {
        guard n > 0 else { return try body() }
        let previous = set(n)
        defer { _ = set(previous) }
        return try body()
    }
}
