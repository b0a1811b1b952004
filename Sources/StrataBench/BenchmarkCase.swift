import Foundation

/// One benchmark: a name Google Benchmark reports, the number of items one iteration
/// processes, and a factory for its fixture. Suites return arrays of these.
///
/// Names are `suite/part/.../N` (e.g. `frame/opacity/shared/basic/10000`), so
/// `--benchmark_filter` regexes select whole families.
public struct BenchmarkCase {
    /// Full name reported by Google Benchmark.
    public var name: String
    /// Items one iteration processes (animations of one frame, changes of one commit ...):
    /// the `per_item` counter is time / items.
    public var items: Int
    /// What an item is ("animation", "change", "lookup", "layer", "byte" ...).
    public var item: String
    /// Unit Google Benchmark prints times in.
    public var unit: TimeUnit
    /// Part of `strata-bench run --quick` (CI's short run).
    public var quick: Bool
    /// Labels the report groups and charts by (`suite`, `n`, `width`, `timing`, `kind`,
    /// `engine`, `strategy`, `outcome`, `shape` ...). Values are strings.
    public var parameters: [String: String]
    /// Builds the fixture, outside any timed region. Throws `BenchmarkError` when the
    /// fixture's precondition (a check of the result before timing) fails.
    public var make: () throws -> Workload
    /// >0 pins the iteration count (for bodies too slow to repeat many times).
    public var iterations: Int
    /// The workload has a `reset` that runs (timer paused) before each iteration.
    public var hasReset: Bool

    /// A case; `resets` says the workload `make` builds has a `reset`.
    public init(_ name: String, items: Int, item: String, unit: TimeUnit = .nanoseconds, quick: Bool = false,
                iterations: Int = 0, resets: Bool = false, parameters: [String: String] = [:],
                make: @escaping () throws -> Workload) {
        self.name = name
        self.items = items
        self.item = item
        self.unit = unit
        self.quick = quick
        self.iterations = iterations
        self.hasReset = resets
        self.parameters = parameters
        self.make = make
    }

    /// The first component of the name.
    public var suite: String { String(name.prefix { $0 != "/" }) }
}

/// Google Benchmark's time units (the raw values are the C shim's `strata_gb_time_unit`).
public enum TimeUnit: Int32, Sendable {
    /// ns.
    case nanoseconds = 0
    /// µs.
    case microseconds = 1
    /// ms.
    case milliseconds = 2
    /// s.
    case seconds = 3
}

/// A prepared benchmark body. `run` is timed once per iteration; `reset` (optional) runs
/// before each iteration with the timer paused, to bring the fixture back to its start.
/// The workload owns everything the body touches; releasing it releases the fixture.
public final class Workload {
    /// The body: timed once per iteration.
    public let run: () -> Void
    /// Brings the fixture back to its start before each iteration (timer paused).
    public let reset: (() -> Void)?
    /// Keeps objects alive for as long as the workload (layers, renderers, buffers).
    public var retained: [AnyObject] = []

    /// A workload running `run`, with `reset` before each iteration, keeping `retained` alive.
    public init(retaining retained: [AnyObject] = [], reset: (() -> Void)? = nil, run: @escaping () -> Void) {
        self.retained = retained
        self.reset = reset
        self.run = run
    }
}

/// Keeps a value alive and opaque to the optimiser (results go here, not nowhere).
@inline(never) public func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }
