import Foundation
import Histogram
import StrataReportModel

/// Records frame times in an HdrHistogram (3 significant digits, 1 µs to 60 s) and turns them
/// into a `SceneResult`: percentiles, the share of frames within the 120 Hz and 60 Hz
/// budgets, dropped frames and the hitch ratio.
public struct FrameTimeRecorder {
    /// The 60 Hz frame budget, ns.
    public static let budget16 = 16_666_667.0
    /// The 120 Hz frame budget, ns.
    public static let budget8 = 8_333_333.0

    private var total = Histogram<UInt64>(lowestDiscernibleValue: 1_000, highestTrackableValue: 60_000_000_000,
                                          numberOfSignificantValueDigits: .three)
    private var render = Histogram<UInt64>(lowestDiscernibleValue: 1_000, highestTrackableValue: 60_000_000_000,
                                           numberOfSignificantValueDigits: .three)
    /// The render snapshot's part (taken inside the frame), when the scene takes one.
    private var snapshot = Histogram<UInt64>(lowestDiscernibleValue: 100, highestTrackableValue: 60_000_000_000,
                                             numberOfSignificantValueDigits: .three)
    private var snapshots = 0
    /// Every frame's time, ns, in order (for the timeline and the exact budget figures).
    public private(set) var frameTimes: [UInt64] = []

    /// An empty recorder (its frame list grows as frames are recorded).
    public init() {}

    /// A recorder whose frame list is allocated and touched now for `expectedFrames` frames,
    /// so recording them allocates nothing and the process's resident memory does not grow
    /// with the run (a scene's memory readings are the engine's).
    public init(expectedFrames: Int) {
        frameTimes = [UInt64](repeating: 0, count: Swift.max(expectedFrames, 0))
        frameTimes.removeAll(keepingCapacity: true)
    }

    /// One frame: its whole time (the app's changes, commit, render, snapshot, endFrame), the
    /// part spent in the frame itself (commit + render + snapshot + endFrame) and, when the
    /// scene takes one, in the render snapshot.
    public mutating func record(frameNanoseconds ns: UInt64, renderNanoseconds r: UInt64, snapshotNanoseconds s: UInt64? = nil) {
        _ = total.record(clamp(ns))
        _ = render.record(clamp(r))
        if let s {
            _ = snapshot.record(Swift.min(Swift.max(s, 100), 60_000_000_000))
            snapshots += 1
        }
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
        // Android's frame overrun: exact percentiles (nearest rank) of time minus the budget.
        let sorted = frameTimes.sorted()
        let overrun = { (q: Double) -> Double in
            (Double(sorted[Swift.min(n - 1, Int((q * Double(n)).rounded(.up)) - 1)]) - Self.budget16) / 1e6
        }
        return SceneResult(
            name: name, description: description, layers: layers, frames: n, warmupFrames: warmupFrames,
            p50: n == 0 ? 0 : ms(total.valueAtPercentile(50)), p90: n == 0 ? 0 : ms(total.valueAtPercentile(90)),
            p99: n == 0 ? 0 : ms(total.valueAtPercentile(99)), p999: n == 0 ? 0 : ms(total.valueAtPercentile(99.9)),
            max: n == 0 ? 0 : ms(frameTimes.max() ?? 0),
            mean: n == 0 ? 0 : frameTimes.reduce(0.0) { $0 + Double($1) } / Double(n) / 1e6,
            renderP50: n == 0 ? 0 : ms(render.valueAtPercentile(50)), renderP99: n == 0 ? 0 : ms(render.valueAtPercentile(99)),
            snapshotP50: snapshots == 0 ? nil : ms(snapshot.valueAtPercentile(50)),
            snapshotP99: snapshots == 0 ? nil : ms(snapshot.valueAtPercentile(99)),
            withinBudget16: fraction(within16), withinBudget8: fraction(within8), droppedFrames: dropped,
            hitchMsPerSecond: durationNs > 0 ? (hitchNs / 1e6) / (durationNs / 1e9) : 0,
            frameOverrunMs: n == 0 ? nil : FrameOverrun(p50: overrun(0.5), p90: overrun(0.9), p95: overrun(0.95), p99: overrun(0.99)),
            histogram: buckets, frameTimesMs: frameTimes.prefix(20_000).map(ms))
    }
}
