import Foundation
import StrataGeometry
import StrataSnapshot

/// Collects a scene's frames for the player as the scene runs: every frame's time (for the
/// timeline), and the snapshots of a sample of frames (evenly spread) and of the slowest
/// frames, encoded (`PlayerFrame`) within a byte budget. Encoding happens after a frame is
/// timed, outside its time.
///
///     let recorder = PlayerRecorder(scene: "app-10k", description: "...", expectedFrames: 600)
///     for f in 0..<600 {
///         // ... the frame, timed ...
///         recorder.frameDone(index: f, time: t, milliseconds: ms) { renderer.snapshot() }
///     }
///     try recorder.document().write(to: "player.html")
public final class PlayerRecorder {
    public let scene: String
    public let description: String
    /// The encoded frames may take at most this many bytes (the page is about 4/3 of it).
    public let byteBudget: Int
    /// Frames sampled evenly (at most), and slowest frames kept besides them (at most).
    public let sampleTarget: Int
    public let slowTarget: Int
    private let expectedFrames: Int
    private var stride: Int
    private(set) var frameTimes: [Float] = []
    private var sampled: [PlayerFrame] = []
    private var slowest: [PlayerFrame] = []
    private var bytesPerFrame = 0
    /// Slowest frames the budget holds (at most `slowTarget`; known once a frame is encoded).
    private var slowCapacity: Int
    private var viewport: CGRect?
    private var perspective = 0

    public init(scene: String, description: String, expectedFrames: Int, byteBudget: Int = 4_000_000,
                sampleTarget: Int = 120, slowTarget: Int = 12) {
        self.scene = scene
        self.description = description
        self.expectedFrames = max(expectedFrames, 1)
        self.byteBudget = max(byteBudget, 1)
        self.sampleTarget = max(sampleTarget, 1)
        self.slowTarget = max(slowTarget, 0)
        stride = max(1, (expectedFrames + max(sampleTarget, 1) - 1) / max(sampleTarget, 1))
        slowCapacity = max(slowTarget, 0)
        frameTimes.reserveCapacity(min(expectedFrames, 1 << 22))
    }

    /// Bytes the recorder holds now: the frame times written so far and the encoded frames it
    /// keeps. They grow over a run (up to the budget, and 4 bytes a frame), so a scene's
    /// memory readings take them out of the process's resident growth
    /// (`SceneMemory.Sample.harnessBytes`): they are the suite's, not the engine's.
    public var heldBytes: Int {
        frameTimes.count * MemoryLayout<Float>.stride
            + sampled.reduce(0) { $0 + $1.data.count } + slowest.reduce(0) { $0 + $1.data.count }
    }

    /// Frame `index` (media time `time`) took `milliseconds`; `snapshot` is asked for (and
    /// encoded) only when the frame is kept: a sampled frame, or one slower than the slowest
    /// frames kept so far once as many are kept as the budget holds.
    public func frameDone(index: Int, time: Double, milliseconds: Double, snapshot: () -> RenderSnapshot) {
        frameTimes.append(Float(milliseconds))
        let isSample = index % stride == 0
        let isSlow = slowCapacity > 0 && (slowest.count < slowCapacity || milliseconds > (slowest.first?.frameMilliseconds ?? .infinity))
        guard isSample || isSlow else { return }
        let s = snapshot()
        let frame = PlayerFrame(index: index, time: time, frameMilliseconds: milliseconds, snapshot: s)
        perspective = max(perspective, frame.perspectiveItems)
        let bounds = Picture.contentBounds(s)
        if bounds.width > 0 || bounds.height > 0 { viewport = viewport.map { $0.union(bounds) } ?? bounds }
        if bytesPerFrame == 0 { fitBudget(frame.data.count) }
        if isSample {
            sampled.append(frame)
            // Over the sample's share of the budget: every other sample goes, and the stride doubles.
            while sampled.count > 1 && sampled.count * bytesPerFrame > sampleBudget {
                stride *= 2
                sampled.removeAll { $0.index % stride != 0 }
            }
        } else if isSlow {
            slowest.append(frame)
            slowest.sort { $0.frameMilliseconds < $1.frameMilliseconds }
            while slowest.count > slowCapacity { slowest.removeFirst() }
        }
    }

    /// The slowest frames get a quarter of the budget (at least one frame's worth).
    private var sampleBudget: Int { max(byteBudget - max(byteBudget / 4, bytesPerFrame), bytesPerFrame) }

    private func fitBudget(_ frameBytes: Int) {
        bytesPerFrame = max(frameBytes, 1)
        let frames = max(1, sampleBudget / bytesPerFrame)
        stride = max(stride, (expectedFrames + frames - 1) / frames)
        if slowTarget > 0 { slowCapacity = min(slowTarget, max(1, (byteBudget - sampleBudget) / bytesPerFrame)) }
    }

    /// The player page of what was recorded.
    public func document() -> PlayerDocument {
        var frames = sampled
        for f in slowest where !frames.contains(where: { $0.index == f.index }) { frames.append(f) }
        frames.sort { $0.index < $1.index }
        let slowIndices = Set(slowest.map(\.index))
        var notes: [String] = []
        let kept = frames.count
        if kept < frameTimes.count {
            let every = stride == 1 ? "every frame" : "every \(stride)\(ordinal(stride)) frame"
            notes.append("\(kept) of \(frameTimes.count) frames kept: \(every) and the \(slowest.count) slowest, within \(Self.megabytes(byteBudget)) (about \(Self.kilobytes(bytesPerFrame)) a frame); the timeline shows every frame")
        }
        if perspective > 0 { notes.append("up to \(perspective) item(s) a frame have perspective: drawn by the affine part of their transform") }
        return PlayerDocument(scene: scene, description: description, frameTimes: frameTimes, frames: frames,
                              slowFrames: slowIndices, viewport: viewport ?? CGRect(x: 0, y: 0, width: 100, height: 100), notes: notes)
    }

    private func ordinal(_ n: Int) -> String {
        if n == 1 { return "" }
        let tens = n % 100
        if (11...13).contains(tens) { return "th" }
        switch n % 10 { case 1: return "st"; case 2: return "nd"; case 3: return "rd"; default: return "th" }
    }

    static func megabytes(_ b: Int) -> String { String(format: "%.1f MB", Double(b) / 1e6) }
    static func kilobytes(_ b: Int) -> String { String(format: "%.0f KB", Double(b) / 1e3) }
}
