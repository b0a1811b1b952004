import Foundation

/// One recorded stack.
public struct Sample: Sendable, Equatable {
    /// CLOCK_MONOTONIC when the signal arrived.
    public var timestampNanoseconds: UInt64
    /// Kernel thread id.
    public var thread: Int32
    /// Timer expiries this sample stands for (1 + the kernel's overrun count).
    public var weight: UInt32
    /// CSAMPLER_SAMPLE_* bits (truncated, unwind failed, unregistered thread).
    public var flags: UInt16
    /// Time the handler spent walking the stack.
    public var unwindNanoseconds: UInt32
    /// Time from handler entry to publication (walk, clocks, bookkeeping).
    public var handlerNanoseconds: UInt32
    /// The sample's addresses in `Profile.addresses`, leaf first: the first is the
    /// interrupted PC, the others return addresses.
    public var frames: Range<Int>
}

/// Summary statistics of a per-sample cost.
public struct CostSummary: Sendable, Equatable {
    public var count: Int
    public var mean: Double
    public var median: Double
    public var p90: Double
    public var p99: Double

    /// Nanosecond values to summary (all zero when empty).
    public init(_ values: [UInt32]) {
        count = values.count
        guard !values.isEmpty else { mean = 0; median = 0; p90 = 0; p99 = 0; return }
        let sorted = values.sorted()
        func q(_ p: Double) -> Double { Double(sorted[min(sorted.count - 1, Int(p * Double(sorted.count - 1) + 0.5))]) }
        mean = Double(values.reduce(0) { $0 + UInt64($1) }) / Double(values.count)
        median = q(0.5)
        p90 = q(0.9)
        p99 = q(0.99)
    }
}

/// What a profiling run recorded: raw addresses, before symbolization.
public struct Profile: Sendable {
    public var configuration: SamplingProfiler.Configuration
    public var statistics: SamplerStatistics
    /// One timer period at the configured rate.
    public var periodNanoseconds: UInt64
    public var startNanoseconds: UInt64
    public var endNanoseconds: UInt64
    public var samples: [Sample]
    /// Every sample's frames, concatenated (see `Sample.frames`).
    public var addresses: [UInt]

    /// The frames of `sample`, leaf first.
    public func frames(of sample: Sample) -> ArraySlice<UInt> { addresses[sample.frames] }

    /// Sum of sample weights: timer periods the samples stand for.
    public var totalWeight: Int { samples.reduce(0) { $0 + Int($1.weight) } }

    /// Samples per second actually delivered, per sampled thread.
    public var deliveredRate: Double {
        let threads = Set(samples.map(\.thread)).count
        let seconds = Double(endNanoseconds &- startNanoseconds) / 1e9
        return threads == 0 || seconds <= 0 ? 0 : Double(samples.count) / Double(threads) / seconds
    }

    /// Cost of the stack walk per sample (the unwinder alone).
    public var unwindCost: CostSummary { CostSummary(samples.map(\.unwindNanoseconds)) }

    /// Cost of the whole handler per sample (walk + clocks + ring bookkeeping).
    public var handlerCost: CostSummary { CostSummary(samples.map(\.handlerNanoseconds)) }

    /// Frames with names, aggregated per function (see `StackProfile`).
    public func symbolicated(using symbolizer: Symbolizer = Symbolizer()) -> StackProfile {
        StackProfile(self, symbolizer: symbolizer)
    }
}
