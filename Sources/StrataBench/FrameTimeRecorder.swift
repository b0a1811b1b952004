import Foundation
import Histogram

/// Records frame times in an HdrHistogram (3 significant digits, 1 µs to 60 s) and turns them
/// into a `SceneResult`: percentiles, the share of frames within the 120 Hz and 60 Hz
/// budgets, dropped frames and the hitch ratio.
public struct FrameTimeRecorder {
    /// 60 Hz and 120 Hz frame budgets, ns.
    public static let budget16 = 16_666_667.0
    public static let budget8 = 8_333_333.0

    private var total = Histogram<UInt64>(lowestDiscernibleValue: 1_000, highestTrackableValue: 60_000_000_000,
                                          numberOfSignificantValueDigits: .three)
    private var render = Histogram<UInt64>(lowestDiscernibleValue: 1_000, highestTrackableValue: 60_000_000_000,
                                           numberOfSignificantValueDigits: .three)
    /// Every frame's time, ns, in order (for the timeline and the exact budget figures).
    public private(set) var frameTimes: [UInt64] = []

    public init() {}

    /// A recorder whose frame list is allocated and touched now for `expectedFrames` frames,
    /// so recording them allocates nothing and the process's resident memory does not grow
    /// with the run (a scene's memory readings are the engine's).
    public init(expectedFrames: Int) {
        frameTimes = [UInt64](repeating: 0, count: Swift.max(expectedFrames, 0))
        frameTimes.removeAll(keepingCapacity: true)
    }

    /// One frame: its whole time (the app's changes, commit, render, endFrame) and the part
    /// spent in `renderFrame` (commit + render + endFrame).
    public mutating func record(frameNanoseconds ns: UInt64, renderNanoseconds r: UInt64) {
        _ = total.record(clamp(ns))
        _ = render.record(clamp(r))
        frameTimes.append(ns)
    }

    private func clamp(_ ns: UInt64) -> UInt64 { Swift.min(Swift.max(ns, 1_000), 60_000_000_000) }

    /// The result; every number finite (zero frames give zeros).
    public func result(name: String, layers: Int, warmupFrames: Int, description: String) -> SceneResult {
        let n = frameTimes.count
        let ms = { (ns: UInt64) -> Double in Double(ns) / 1e6 }
        var dropped = 0, hitchNs = 0.0, durationNs = 0.0, within16 = 0, within8 = 0
        for t in frameTimes {
            let d = Double(t)
            if d <= Self.budget16 { within16 += 1 }
            if d <= Self.budget8 { within8 += 1 }
            // A frame that takes k budgets shows for k refreshes: k - 1 were dropped.
            let budgets = Swift.max(1, Int((d / Self.budget16).rounded(.up)))
            dropped += budgets - 1
            hitchNs += Swift.max(0, d - Self.budget16)
            durationNs += Double(budgets) * Self.budget16
        }
        var buckets: [[Double]] = []
        if n > 0 {
            for v in total.logarithmicBucketValues(valueUnitsInFirstBucket: 10_000, logBase: 1.1)
            where v.countAddedInThisIterationStep > 0 {
                buckets.append([Double(v.value), Double(v.countAddedInThisIterationStep)])
            }
        }
        let fraction = { (k: Int) -> Double in n == 0 ? 0 : Double(k) / Double(n) }
        return SceneResult(
            name: name, description: description, layers: layers, frames: n, warmupFrames: warmupFrames,
            p50: n == 0 ? 0 : ms(total.valueAtPercentile(50)), p90: n == 0 ? 0 : ms(total.valueAtPercentile(90)),
            p99: n == 0 ? 0 : ms(total.valueAtPercentile(99)), p999: n == 0 ? 0 : ms(total.valueAtPercentile(99.9)),
            max: n == 0 ? 0 : ms(frameTimes.max() ?? 0),
            mean: n == 0 ? 0 : frameTimes.reduce(0.0) { $0 + Double($1) } / Double(n) / 1e6,
            renderP50: n == 0 ? 0 : ms(render.valueAtPercentile(50)), renderP99: n == 0 ? 0 : ms(render.valueAtPercentile(99)),
            withinBudget16: fraction(within16), withinBudget8: fraction(within8), droppedFrames: dropped,
            hitchMsPerSecond: durationNs > 0 ? (hitchNs / 1e6) / (durationNs / 1e9) : 0,
            histogram: buckets, frameTimesMs: frameTimes.prefix(20_000).map(ms))
    }
}

/// One frame-time scene's figures (times in ms).
public struct SceneResult: Codable, Equatable {
    public var name: String
    /// What the scene does, in a sentence.
    public var description: String
    public var layers: Int
    /// Frames recorded (warm-up excluded).
    public var frames: Int
    public var warmupFrames: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var p999: Double
    public var max: Double
    public var mean: Double
    /// The `renderFrame` part alone (commit + render + endFrame).
    public var renderP50: Double
    public var renderP99: Double
    /// Shares of frames within 16.67 ms (60 Hz) and 8.33 ms (120 Hz).
    public var withinBudget16: Double
    public var withinBudget8: Double
    /// Refreshes a 60 Hz display would have missed.
    public var droppedFrames: Int
    /// Time beyond the 60 Hz budget per second of frames (Apple's hitch ratio), ms/s.
    public var hitchMsPerSecond: Double
    /// HdrHistogram buckets: [upper value ns, count], logarithmic (10 µs, x1.1).
    public var histogram: [[Double]]
    /// Every frame's time (the first 20,000), for the timeline.
    public var frameTimesMs: [Double]
    /// The engine's store sizes and the process's resident memory through the run (nil in
    /// reports written before they were recorded).
    public var memory: SceneMemory?
}

/// Memory through a scene: whether churn (animations started and retired, subtrees moved in
/// and out) makes the engine grow, and what a layer and a running animation cost.
public struct SceneMemory: Codable, Equatable {
    /// One reading: after `frame` frames (warm-up included).
    public struct Sample: Codable, Equatable {
        public var frame: Int
        /// Resident set of the whole process (/proc/self/statm).
        public var residentBytes: Int
        /// The engine's stores (capacities): layers, animations and timing entries.
        public var storeBytes: Int
        public var layers: Int
        public var animations: Int
        public init(frame: Int, residentBytes: Int, storeBytes: Int, layers: Int, animations: Int) {
            self.frame = frame
            self.residentBytes = residentBytes
            self.storeBytes = storeBytes
            self.layers = layers
            self.animations = animations
        }
    }

    /// Readings at the end of the warm-up, every tenth of the run, and at the end.
    public var samples: [Sample]
    /// Layer-store bytes per live layer, and animation and timing-store bytes per running
    /// animation, at the end of the run (capacities, so slack included).
    public var bytesPerLayer: Double
    public var bytesPerAnimation: Double
    /// The largest reading of each, after the warm-up.
    public var peakResidentBytes: Int
    public var peakStoreBytes: Int

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
    /// Resident bytes at the end minus at the end of the warm-up.
    public var residentGrowthBytes: Int { (samples.last?.residentBytes ?? 0) - (samples.first?.residentBytes ?? 0) }

    /// This process's resident set in bytes (/proc/self/statm), or 0 where it cannot be read.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
