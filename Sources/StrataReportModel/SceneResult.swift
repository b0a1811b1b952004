import Foundation

/// One frame-time scene's figures (times in ms). A frame's time is all of it: the app's changes,
/// commit, render, snapshot and endFrame. Percentiles come from an HdrHistogram (3 significant
/// digits); `max` and `mean` are exact.
public struct SceneResult: Codable, Equatable {
    /// The run's name in the report: the scene's, or the label the run was given (which may
    /// add the engine and strategy, e.g. `app-10k/reference`).
    public var name: String
    /// What the scene does, in a sentence.
    public var description: String
    /// Layers in the scene's tree, the root included.
    public var layers: Int
    /// Frames recorded (warm-up excluded).
    public var frames: Int
    /// Frames played before recording began (not in any figure).
    public var warmupFrames: Int
    /// Median frame time, ms.
    public var p50: Double
    /// 90th percentile of frame time, ms.
    public var p90: Double
    /// 99th percentile of frame time, ms.
    public var p99: Double
    /// 99.9th percentile of frame time, ms.
    public var p999: Double
    /// The slowest frame, ms.
    public var max: Double
    /// Mean frame time, ms.
    public var mean: Double
    /// Median of the frame's own part (commit + render + snapshot + endFrame), ms.
    public var renderP50: Double
    /// 99th percentile of the frame's own part, ms.
    public var renderP99: Double
    /// Median of the render snapshot's part alone, ms (nil: the scene took none; reports
    /// before snapshots).
    public var snapshotP50: Double?
    /// 99th percentile of the render snapshot's part alone, ms (nil as `snapshotP50`).
    public var snapshotP99: Double?
    /// Share of frames within 16.67 ms (the 60 Hz budget), 0 to 1.
    public var withinBudget16: Double
    /// Share of frames within 8.33 ms (the 120 Hz budget), 0 to 1.
    public var withinBudget8: Double
    /// Refreshes a 60 Hz display would have missed.
    public var droppedFrames: Int
    /// Time beyond the 60 Hz budget per second of frames (Apple's hitch time ratio), ms/s. A
    /// CPU-side approximation: there is no display here, so a frame's lateness is its time
    /// beyond the budget, not a missed presentation.
    public var hitchMsPerSecond: Double
    /// Android Macrobenchmark's `frameOverrunMs` distribution: each frame's time minus the
    /// 60 Hz budget (negative: it made its deadline), ms, the same CPU-side approximation (nil
    /// in reports written before it).
    public var frameOverrunMs: FrameOverrun?
    /// HdrHistogram buckets of frame time: [upper value ns, count], logarithmic (10 µs, x1.1),
    /// empty buckets left out.
    public var histogram: [[Double]]
    /// Every recorded frame's time, ms, in order (the first 20,000), for the timeline.
    public var frameTimesMs: [Double]
    /// The engine's store sizes and the process's resident memory through the run (nil in
    /// reports written before they were recorded).
    public var memory: SceneMemory?
    /// The scene's player (an HTML file beside the report, by its name), when written.
    public var player: String?
    // Which run of which scene (nil in reports written before scene files):
    /// The scene this is a run of (`name` may add the engine and strategy).
    public var scene: String?
    /// The engine that ran it: `fast` or `reference`.
    public var engine: String?
    /// The engine's action lookup strategy during the run (`chain`, `interned`, `cached`).
    public var strategy: String?
    /// The scene file it was read from (nil for scenes written in Swift).
    public var file: String?
    /// The scene file's parameters and the values they had.
    public var parameters: [String: Double]?

    /// A result with every figure given (the optional ones default to none).
    public init(name: String, description: String, layers: Int, frames: Int, warmupFrames: Int, p50: Double,
                p90: Double, p99: Double, p999: Double, max: Double, mean: Double, renderP50: Double,
                renderP99: Double, snapshotP50: Double? = nil, snapshotP99: Double? = nil, withinBudget16: Double,
                withinBudget8: Double, droppedFrames: Int, hitchMsPerSecond: Double,
                frameOverrunMs: FrameOverrun? = nil, histogram: [[Double]], frameTimesMs: [Double],
                memory: SceneMemory? = nil, player: String? = nil, scene: String? = nil, engine: String? = nil,
                strategy: String? = nil, file: String? = nil, parameters: [String: Double]? = nil) {
        self.name = name
        self.description = description
        self.layers = layers
        self.frames = frames
        self.warmupFrames = warmupFrames
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
        self.mean = mean
        self.renderP50 = renderP50
        self.renderP99 = renderP99
        self.snapshotP50 = snapshotP50
        self.snapshotP99 = snapshotP99
        self.withinBudget16 = withinBudget16
        self.withinBudget8 = withinBudget8
        self.droppedFrames = droppedFrames
        self.hitchMsPerSecond = hitchMsPerSecond
        self.frameOverrunMs = frameOverrunMs
        self.histogram = histogram
        self.frameTimesMs = frameTimesMs
        self.memory = memory
        self.player = player
        self.scene = scene
        self.engine = engine
        self.strategy = strategy
        self.file = file
        self.parameters = parameters
    }
}

/// Percentiles of frame overrun (frame time minus the budget), ms, as Android's
/// FrameTimingMetric reports them.
public struct FrameOverrun: Codable, Equatable {
    /// Median overrun, ms (negative: the median frame made its deadline).
    public var p50: Double
    /// 90th percentile of overrun, ms.
    public var p90: Double
    /// 95th percentile of overrun, ms.
    public var p95: Double
    /// 99th percentile of overrun, ms.
    public var p99: Double
    /// Percentiles as computed (nearest rank over every recorded frame).
    public init(p50: Double, p90: Double, p95: Double, p99: Double) {
        self.p50 = p50
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
    }
}

extension SceneResult {
    /// Apple's bands for the hitch time ratio (Xcode Organizer's scroll hitch rate): good
    /// under 5 ms/s, warning from 5 to 10, critical above 10.
    public enum HitchRating: String, Codable {
        /// Under 5 ms/s.
        case good
        /// 5 to 10 ms/s.
        case warning
        /// Above 10 ms/s.
        case critical
    }

    /// `hitchMsPerSecond` in Apple's bands.
    public var hitchRating: HitchRating {
        hitchMsPerSecond < 5 ? .good : hitchMsPerSecond <= 10 ? .warning : .critical
    }
}

/// Memory through a scene: whether churn (animations started and retired, subtrees moved in
/// and out) makes the engine grow, and what a layer and a running animation cost.
public struct SceneMemory: Codable, Equatable {
    /// One reading: after `frame` frames (warm-up included).
    public struct Sample: Codable, Equatable {
        /// Frames played when the reading was taken.
        public var frame: Int
        /// Resident set of the whole process (/proc/self/statm).
        public var residentBytes: Int
        /// The engine's stores (capacities): layers, animations and timing entries.
        public var storeBytes: Int
        /// Live layers.
        public var layers: Int
        /// Running animations.
        public var animations: Int
        /// Bytes the suite itself held at the reading (the player's recorded frames and frame
        /// times), part of `residentBytes` but not the engine's; nil when nothing was held
        /// (and in reports written before it was taken).
        public var harnessBytes: Int?
        /// A reading as taken.
        public init(frame: Int, residentBytes: Int, storeBytes: Int, layers: Int, animations: Int, harnessBytes: Int? = nil) {
            self.frame = frame
            self.residentBytes = residentBytes
            self.storeBytes = storeBytes
            self.layers = layers
            self.animations = animations
            self.harnessBytes = harnessBytes
        }

        /// The resident set less what the suite held.
        public var engineResidentBytes: Int { residentBytes - (harnessBytes ?? 0) }
    }

    /// Readings at the end of the warm-up, every tenth of the run, and at the end.
    public var samples: [Sample]
    /// Layer-store bytes per live layer at the end of the run (capacities, so slack included).
    public var bytesPerLayer: Double
    /// Animation- and timing-store bytes per running animation at the end of the run
    /// (capacities, so slack included).
    public var bytesPerAnimation: Double
    /// The largest resident set of the readings (from the end of the warm-up on), bytes.
    public var peakResidentBytes: Int
    /// The largest store size of the readings (from the end of the warm-up on), bytes.
    public var peakStoreBytes: Int

    /// The figures of `samples`; the peaks are computed from them.
    public init(samples: [Sample], bytesPerLayer: Double, bytesPerAnimation: Double) {
        self.samples = samples
        self.bytesPerLayer = bytesPerLayer
        self.bytesPerAnimation = bytesPerAnimation
        peakResidentBytes = samples.map(\.residentBytes).max() ?? 0
        peakStoreBytes = samples.map(\.storeBytes).max() ?? 0
    }

    /// Store bytes at the end minus at the end of the warm-up: 0 when churn leaves the
    /// stores' capacities where the warm-up put them.
    public var storeGrowthBytes: Int { (samples.last?.storeBytes ?? 0) - (samples.first?.storeBytes ?? 0) }
    /// Resident bytes at the end minus at the end of the warm-up, less what the suite's own
    /// holdings grew by (`Sample.harnessBytes`: a scene run with a player keeps up to 4 MB of
    /// recorded frames, which read as 4 MB of growth of an engine that grew 72 KiB).
    public var residentGrowthBytes: Int {
        (samples.last?.engineResidentBytes ?? 0) - (samples.first?.engineResidentBytes ?? 0)
    }
    /// The suite's own holdings at the end minus at the end of the warm-up (the player's
    /// frames), left out of `residentGrowthBytes`.
    public var harnessGrowthBytes: Int { (samples.last?.harnessBytes ?? 0) - (samples.first?.harnessBytes ?? 0) }

    /// This process's resident set in bytes (/proc/self/statm), or 0 where it cannot be read.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
