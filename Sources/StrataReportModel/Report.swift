import Foundation

/// The `strata` block added to Google Benchmark's JSON. Everything Google Benchmark writes
/// stays as it wrote it (so its `compare.py` reads the file unchanged); what it has no place
/// for lives here. Keys are snake_case; every number is finite (strict JSON).
public struct StrataBlock: Codable, Equatable {
    /// Bumped when a field changes meaning or disappears.
    public static let currentSchemaVersion = 1

    /// The schema this block follows (`currentSchemaVersion` when written).
    public var schemaVersion: Int = StrataBlock.currentSchemaVersion
    /// The program that wrote the report: always `strata-bench`.
    public var tool: String = "strata-bench"
    /// ISO 8601, UTC.
    public var createdAt: String
    /// The machine, toolchain and build the figures come from.
    public var machine: MachineFingerprint
    /// What the run was asked to do.
    public var options: RunOptions
    /// One per benchmark that ran: raw samples, medians and the ratios to its baselines.
    public var benchmarks: [BenchmarkSummary]
    /// How cost grows with N, per family of benchmarks that differ only in N.
    public var growth: [GrowthFit]
    /// One per frame-time scene run (a scene run under several engines or strategies gives one each).
    public var scenes: [SceneResult]
    /// Instruction, cache and malloc counts of the counted bodies (empty when none was counted).
    public var counts: [CountResult]
    /// One kernel timed by hand beside Google Benchmark's figure for it (Debian's library is
    /// a debug build: this shows whether that distorts timings).
    public var handTimedCheck: HandTimedCheck?
    /// What the run could not do or does not trust, in sentences (no valgrind, a failed scene,
    /// non-finite values Google Benchmark wrote).
    public var warnings: [String]

    /// A block with the schema version and tool filled in.
    public init(createdAt: String, machine: MachineFingerprint, options: RunOptions, benchmarks: [BenchmarkSummary] = [],
                growth: [GrowthFit] = [], scenes: [SceneResult] = [], counts: [CountResult] = [],
                handTimedCheck: HandTimedCheck? = nil, warnings: [String] = []) {
        self.createdAt = createdAt
        self.machine = machine
        self.options = options
        self.benchmarks = benchmarks
        self.growth = growth
        self.scenes = scenes
        self.counts = counts
        self.handTimedCheck = handTimedCheck
        self.warnings = warnings
    }
}

/// What the run was asked to do.
public struct RunOptions: Codable, Equatable {
    /// `--quick`: CI's short run (the quick subset, fewer repetitions, short scenes).
    public var quick: Bool
    /// The suites selected, by name (`scenes` for the frame-time scenes).
    public var suites: [String]
    /// `--filter`: the regular expression over benchmark names, if one was given.
    public var filter: String?
    /// Repetitions of each benchmark (Google Benchmark's `--benchmark_repetitions`).
    public var repetitions: Int
    /// Minimum time of each repetition, s (Google Benchmark's `--benchmark_min_time`).
    public var minTime: Double
    /// The arguments handed to Google Benchmark.
    public var googleBenchmarkArguments: [String]
    /// Which cases of the chosen suites ran: `headline` (the default of a catalog that names
    /// one: its headline cases, counted bodies and quick subset), `full` (every case: `--full`,
    /// or a catalog without a headline), `quick` or `filter`. Absent in reports before 1.2.0.
    public var selection: String?

    /// Options as given.
    public init(quick: Bool, suites: [String], filter: String?, repetitions: Int, minTime: Double, googleBenchmarkArguments: [String],
                selection: String? = nil) {
        self.quick = quick
        self.suites = suites
        self.filter = filter
        self.repetitions = repetitions
        self.minTime = minTime
        self.googleBenchmarkArguments = googleBenchmarkArguments
        self.selection = selection
    }
}

/// One benchmark's figures, per item (per animation, change, lookup, layer, byte).
public struct BenchmarkSummary: Codable, Equatable {
    /// Google Benchmark's name: `suite/part/.../N`.
    public var name: String
    /// The first component of the name (`frame`, `commit`, `lookup`, `tree`, `snapshot` ...).
    public var suite: String
    /// What one item is (`animation`, `change`, `lookup`, `layer`, `byte` ...).
    public var item: String
    /// Items one iteration processes: times are divided by it.
    public var itemsPerIteration: Int
    /// The case's labels (`n`, `engine`, `strategy`, `width`, `floor`, `relativeTo` ...).
    public var parameters: [String: String]
    /// Wall time per item of each repetition, ns (Google Benchmark's `real_time` / items).
    public var samplesNsPerItem: [Double]
    /// Median of `samplesNsPerItem`, ns.
    public var medianNsPerItem: Double
    /// Fastest repetition, ns per item.
    public var minNsPerItem: Double
    /// Slowest repetition, ns per item.
    public var maxNsPerItem: Double
    /// Iterations of each repetition.
    public var iterations: [Int]
    /// The same bytes touched by a triad, per item (frame suite).
    public var floorNsPerItem: Double?
    /// median / floor: 1 is the memory bound.
    public var ratioToFloor: Double?
    /// The reference engine on the same workload, per item.
    public var referenceNsPerItem: Double?
    /// reference / this: how many times faster than the classic design.
    public var speedupOverReference: Double?
    /// The `chain` strategy on the same keys, per item (lookup suite).
    public var chainNsPerItem: Double?
    /// this / chain.
    public var ratioToChain: Double?
    /// The benchmark named by the `relativeTo` parameter (the same run), per item: the
    /// snapshot suite's read-out through `presentation()`, or the full pass an update is a
    /// share of.
    public var relativeNsPerItem: Double?
    /// this / relativeTo: below 1 is cheaper than it.
    public var ratioToRelative: Double?
    /// Google Benchmark's error (a failed precondition), when the benchmark did not run.
    public var error: String?

    /// A summary with every figure given (the baseline ratios default to none).
    public init(name: String, suite: String, item: String, itemsPerIteration: Int, parameters: [String: String],
                samplesNsPerItem: [Double], medianNsPerItem: Double, minNsPerItem: Double, maxNsPerItem: Double,
                iterations: [Int], floorNsPerItem: Double? = nil, ratioToFloor: Double? = nil,
                referenceNsPerItem: Double? = nil, speedupOverReference: Double? = nil,
                chainNsPerItem: Double? = nil, ratioToChain: Double? = nil, relativeNsPerItem: Double? = nil,
                ratioToRelative: Double? = nil, error: String? = nil) {
        self.name = name
        self.suite = suite
        self.item = item
        self.itemsPerIteration = itemsPerIteration
        self.parameters = parameters
        self.samplesNsPerItem = samplesNsPerItem
        self.medianNsPerItem = medianNsPerItem
        self.minNsPerItem = minNsPerItem
        self.maxNsPerItem = maxNsPerItem
        self.iterations = iterations
        self.floorNsPerItem = floorNsPerItem
        self.ratioToFloor = ratioToFloor
        self.referenceNsPerItem = referenceNsPerItem
        self.speedupOverReference = speedupOverReference
        self.chainNsPerItem = chainNsPerItem
        self.ratioToChain = ratioToChain
        self.relativeNsPerItem = relativeNsPerItem
        self.ratioToRelative = ratioToRelative
        self.error = error
    }
}

extension BenchmarkSummary {
    /// Parameters that name N or follow from it; a growth family is every other parameter.
    public static let sizeParameters: Set<String> = ["n", "bytes", "floor", "relativeTo"]

    /// The growth family this benchmark belongs to: its parameters but the size ones, sorted.
    public var familyKey: String {
        parameters.filter { !Self.sizeParameters.contains($0.key) }
            .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }
}

/// A least-squares fit of log(time per iteration) against log(N) for one family.
public struct GrowthFit: Codable, Equatable {
    /// The family: the parameters the benchmarks share (all but N).
    public var family: String
    /// The suite of the family's benchmarks.
    public var suite: String
    /// (N, median ns per iteration) points, by N.
    public var points: [[Double]]
    /// Cost ~ N^exponent: 1 is linear.
    public var exponent: Double
    /// The exponent exceeds 1 by more than `superLinearMargin`.
    public var superLinear: Bool

    /// Margin above linear that counts as super-linear growth (cache effects on large N
    /// alone stay below it).
    public static let superLinearMargin = 0.15
}

/// Deterministic counts per item of one benchmark body.
public struct CountResult: Codable, Equatable {
    /// The counted benchmark's name.
    public var name: String
    /// What one item is (as in `BenchmarkSummary.item`).
    public var item: String
    /// Items one iteration of the body processes: counts are divided by it.
    public var itemsPerIteration: Int
    /// Iterations counted.
    public var iterations: Int
    /// Instructions per item under callgrind (collection toggled around the body only); nil
    /// when valgrind is not available.
    public var instructionsPerItem: Double?
    // Callgrind's cache simulation of the same body (nil without valgrind, and in reports
    // written before it):
    /// First-level cache misses (instruction + data reads and writes) per item.
    public var l1MissesPerItem: Double?
    /// Last-level cache misses (accesses that went to memory) per item.
    public var llMissesPerItem: Double?
    /// Estimated cycles per item as CodSpeed and iai-callgrind define them from the simulation:
    /// L1 hits + 5 x LL hits + 35 x RAM accesses (`CallgrindCounts.estimatedCycles`).
    public var estimatedCyclesPerItem: Double?
    /// Placements of the body callgrind counted it under (`Counts.layoutShift`: the heap and
    /// the stack shifted against the globals); the figures above are the median placement's.
    /// nil in reports written before placements, which counted one.
    public var layouts: Int?
    /// Fewest and most estimated cycles per item over the placements: how far the address
    /// layout alone moves this body's figure.
    public var estimatedCyclesMinPerItem: Double?
    public var estimatedCyclesMaxPerItem: Double?
    /// The two above as a range, when both are there.
    public var estimatedCyclesRangePerItem: ClosedRange<Double>? {
        guard let lo = estimatedCyclesMinPerItem, let hi = estimatedCyclesMaxPerItem, lo <= hi else { return nil }
        return lo...hi
    }
    /// Allocation calls (malloc, calloc, realloc and the aligned forms) per item, counted in
    /// this process by the malloc interposer (CAllocationCounter).
    public var mallocsPerItem: Double
    /// free calls per item.
    public var freesPerItem: Double
    /// Bytes requested from the malloc family per item.
    public var bytesAllocatedPerItem: Double
    /// A scene's counts frame by frame (`scene/NAME` entries; the item is a frame): the
    /// per-frame distributions and series and the phases. nil for a counted body.
    public var frames: FrameCounts?

    /// Counts as measured; non-finite instruction and cache figures become nil.
    public init(name: String, item: String, itemsPerIteration: Int, iterations: Int, instructionsPerItem: Double?,
                l1MissesPerItem: Double? = nil, llMissesPerItem: Double? = nil, estimatedCyclesPerItem: Double? = nil,
                layouts: Int? = nil, estimatedCyclesMinPerItem: Double? = nil, estimatedCyclesMaxPerItem: Double? = nil,
                mallocsPerItem: Double, freesPerItem: Double, bytesAllocatedPerItem: Double, frames: FrameCounts? = nil) {
        self.name = name
        self.item = item
        self.itemsPerIteration = itemsPerIteration
        self.iterations = iterations
        self.instructionsPerItem = instructionsPerItem.flatMap(finite)
        self.l1MissesPerItem = l1MissesPerItem.flatMap(finite)
        self.llMissesPerItem = llMissesPerItem.flatMap(finite)
        self.estimatedCyclesPerItem = estimatedCyclesPerItem.flatMap(finite)
        self.layouts = layouts
        self.estimatedCyclesMinPerItem = estimatedCyclesMinPerItem.flatMap(finite)
        self.estimatedCyclesMaxPerItem = estimatedCyclesMaxPerItem.flatMap(finite)
        self.mallocsPerItem = mallocsPerItem
        self.freesPerItem = freesPerItem
        self.bytesAllocatedPerItem = bytesAllocatedPerItem
        self.frames = frames
    }
}

/// A scene's deterministic frame cost: every counted frame (after the warm-up) under
/// callgrind, split by phase (`FramePhase` in StrataScript), and its mallocs counted outside
/// callgrind. The per-frame figures are the median placement's (by total estimated cycles).
public struct FrameCounts: Codable, Equatable {
    /// Frames counted (after `warmupFrames` uncounted ones).
    public var frames: Int
    /// Frames played first, uncounted.
    public var warmupFrames: Int
    /// Render threads the counted run used: 1, so that the render worker's spin-wait is
    /// never counted and the worker's share of the work is done (and counted) on the
    /// rendering thread.
    public var renderThreads: Int
    /// Instructions per frame (nil without valgrind).
    public var instructions: CountDistribution?
    /// Estimated cycles per frame (`CallgrindCounts.estimatedCycles`; nil without valgrind).
    public var estimatedCycles: CountDistribution?
    /// Malloc-family calls per frame.
    public var mallocs: CountDistribution
    /// Every counted frame's instructions, in order.
    public var instructionsSeries: [Double]?
    /// Every counted frame's estimated cycles, in order.
    public var estimatedCyclesSeries: [Double]?
    /// Every counted frame's mallocs, in order.
    public var mallocsSeries: [Double]
    /// Each phase's counts over all counted frames, in frame order.
    public var phases: [PhaseCounts]
    /// Fewest and most of the per-frame p50 and p99 of estimated cycles over the placements
    /// (`[low, high]`): how far the address layout alone moves them.
    public var estimatedCyclesP50Range: [Double]?
    public var estimatedCyclesP99Range: [Double]?
    /// Wall-clock seconds spent counting the scene (every placement, under callgrind).
    public var countingSeconds: Double?

    public init(frames: Int, warmupFrames: Int, renderThreads: Int, instructions: CountDistribution?,
                estimatedCycles: CountDistribution?, mallocs: CountDistribution, instructionsSeries: [Double]?,
                estimatedCyclesSeries: [Double]?, mallocsSeries: [Double], phases: [PhaseCounts],
                estimatedCyclesP50Range: [Double]? = nil, estimatedCyclesP99Range: [Double]? = nil, countingSeconds: Double? = nil) {
        self.frames = frames
        self.warmupFrames = warmupFrames
        self.renderThreads = renderThreads
        self.instructions = instructions
        self.estimatedCycles = estimatedCycles
        self.mallocs = mallocs
        self.instructionsSeries = instructionsSeries
        self.estimatedCyclesSeries = estimatedCyclesSeries
        self.mallocsSeries = mallocsSeries
        self.phases = phases
        self.estimatedCyclesP50Range = estimatedCyclesP50Range
        self.estimatedCyclesP99Range = estimatedCyclesP99Range
        self.countingSeconds = countingSeconds
    }

    /// `[low, high]` as a range.
    public static func range(_ pair: [Double]?) -> ClosedRange<Double>? {
        guard let p = pair, p.count == 2, p[0] <= p[1] else { return nil }
        return p[0]...p[1]
    }
}

/// A per-frame distribution of one count: exact, nearest-rank percentiles.
public struct CountDistribution: Codable, Equatable {
    public var mean: Double
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double

    /// The distribution of `values` (zeros when empty).
    public init(_ values: [Double]) {
        let s = values.sorted()
        func rank(_ q: Double) -> Double {
            guard !s.isEmpty else { return 0 }
            return s[Swift.min(s.count - 1, Swift.max(0, Int((q * Double(s.count)).rounded(.up)) - 1))]
        }
        mean = s.isEmpty ? 0 : s.reduce(0, +) / Double(s.count)
        p50 = rank(0.5)
        p90 = rank(0.9)
        p99 = rank(0.99)
        max = s.last ?? 0
    }
}

/// One phase's part of a scene's counted frames.
public struct PhaseCounts: Codable, Equatable {
    /// `setters`, `commit`, `render`, `snapshot` or `endFrame`.
    public var name: String
    /// Instructions in the phase, per frame (mean over the counted frames).
    public var instructionsPerFrame: Double?
    /// Estimated cycles in the phase, per frame.
    public var estimatedCyclesPerFrame: Double?
    /// Mallocs in the phase, per frame.
    public var mallocsPerFrame: Double
    /// The phase's share of the frame's estimated cycles (of its instructions without the
    /// cache simulation; of its mallocs without valgrind), 0 to 1.
    public var share: Double

    public init(name: String, instructionsPerFrame: Double?, estimatedCyclesPerFrame: Double?, mallocsPerFrame: Double, share: Double) {
        self.name = name
        self.instructionsPerFrame = instructionsPerFrame
        self.estimatedCyclesPerFrame = estimatedCyclesPerFrame
        self.mallocsPerFrame = mallocsPerFrame
        self.share = finite(share) ?? 0
    }
}

/// Google Benchmark's timing of one kernel beside the same kernel timed by hand.
public struct HandTimedCheck: Codable, Equatable {
    /// The benchmark timed both ways.
    public var benchmark: String
    /// Google Benchmark's median, ns per item.
    public var googleBenchmarkNsPerItem: Double
    /// The same body timed with a plain clock loop, ns per item.
    public var handTimedNsPerItem: Double
    /// google / hand: near 1 means the debug-built library does not distort the figure.
    public var ratio: Double
    /// How the hand timing was taken, in words.
    public var method: String

    /// A check; `ratio` is computed (0 when it is not finite).
    public init(benchmark: String, googleBenchmarkNsPerItem: Double, handTimedNsPerItem: Double, method: String) {
        self.benchmark = benchmark
        self.googleBenchmarkNsPerItem = googleBenchmarkNsPerItem
        self.handTimedNsPerItem = handTimedNsPerItem
        self.ratio = finite(googleBenchmarkNsPerItem / handTimedNsPerItem) ?? 0
        self.method = method
    }
}

/// Finite or nil: the JSON stays strict.
@inline(__always) package func finite(_ x: Double) -> Double? { x.isFinite ? x : nil }

/// Median of a non-empty array (mean of the middle two for even counts).
package func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}
