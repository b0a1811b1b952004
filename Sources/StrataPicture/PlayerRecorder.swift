import Foundation
import StrataGeometry
import StrataSnapshot

/// Collects a scene's frames for the player as the scene runs, within a byte budget:
/// - every frame's time, for the timeline;
/// - a **motion window**: `windowFrames` consecutive frames (two seconds at the scene's rate by
///   default) around the slowest frame, a key frame and then each frame's changes, so the
///   player shows the slowest moment moving at the scene's frame rate;
/// - an overview: key frames sampled evenly over the run, and the slowest frames.
///
/// With a window, every frame is encoded (after it is timed, outside its time): the frames
/// before the slowest one are not known to be wanted until it comes, so the last half-window of
/// changes is kept in a ring, with the state of the frame before it.
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
    /// The recorded frames may take at most this many bytes (the page is about 4/3 of it).
    public let byteBudget: Int
    /// Frames sampled evenly (at most), and slowest frames kept besides them (at most).
    public let sampleTarget: Int
    public let slowTarget: Int
    /// Consecutive frames asked for around the slowest frame (0: no window).
    public let windowFrames: Int
    private let expectedFrames: Int
    private var stride: Int
    private(set) var frameTimes: [Float] = []
    private let encoder = PlayerEncoder()
    private var encoded = 0
    private var sampled: [PlayerFrame] = []
    private var slowest: [PlayerFrame] = []
    /// A key frame's size (the latest made).
    private var keyBytes = 0
    private var fitted = false
    /// Slowest frames the budget holds (at most `slowTarget`; known once a frame is encoded).
    private var slowCapacity: Int
    private var viewport: CGRect?

    // The motion window.
    private var ring: [PlayerFrame] = []
    private var ringStart = 0
    private var ringBytes = 0
    /// The state of the frame just before the ring's first, and that frame.
    private var lag: PlayerState?
    private var lagFrame: PlayerFrame?
    private var window: [PlayerFrame] = []
    private var windowBytes = 0
    private var windowCenter: PlayerFrame?
    /// Frames still to add after the slowest.
    private var windowLeft = 0
    private var windowProblem: String?

    public init(scene: String, description: String, expectedFrames: Int, byteBudget: Int = 4_000_000,
                sampleTarget: Int = 120, slowTarget: Int = 12, windowFrames: Int = 120) {
        self.scene = scene
        self.description = description
        self.expectedFrames = max(expectedFrames, 1)
        self.byteBudget = max(byteBudget, 1)
        self.sampleTarget = max(sampleTarget, 1)
        self.slowTarget = max(slowTarget, 0)
        self.windowFrames = max(windowFrames, 0)
        stride = max(1, (expectedFrames + max(sampleTarget, 1) - 1) / max(sampleTarget, 1))
        slowCapacity = max(slowTarget, 0)
        frameTimes.reserveCapacity(min(expectedFrames, 1 << 22))
    }

    /// Frames in `seconds` at one frame every `interval` seconds (0 when either is not positive).
    public static func windowFrames(seconds: Double, interval: Double) -> Int {
        guard seconds > 0, interval > 0, seconds.isFinite, interval.isFinite else { return 0 }
        return max(2, min(100_000, Int((seconds / interval).rounded())))
    }

    /// The window's share of the budget; the sample's and the slowest frames' (a quarter of
    /// what is left).
    private var windowBudget: Int { windowFrames > 0 ? byteBudget * 5 / 8 : 0 }
    private var sampleBudget: Int {
        let rest = byteBudget - windowBudget
        return max(rest - max(rest / 4, keyBytes), keyBytes)
    }
    private var slowBudget: Int { byteBudget - windowBudget - sampleBudget }
    private var before: Int { windowFrames / 2 }

    /// Bytes the recorder holds now: the frame times, the encoded frames it keeps and the
    /// encoder's state. They grow over a run (the times by 4 bytes a frame), so a scene's memory
    /// readings take them out of the process's resident growth
    /// (`SceneMemory.Sample.harnessBytes`): they are the suite's, not the engine's.
    public var heldBytes: Int {
        let kept = (sampled + slowest + window).reduce(0) { $0 + $1.byteCount } + ringBytes
        let states = windowFrames > 0 || encoded > 0 ? encoder.heldBytes + (lag?.heldBytes ?? 0) : 0
        return frameTimes.count * MemoryLayout<Float>.stride + kept + states
    }

    /// Frame `index` (media time `time`) took `milliseconds`. With a window, `snapshot` is
    /// asked for every frame; without, only when the frame is kept: a sampled frame, or one
    /// slower than the slowest frames kept so far once as many are kept as the budget holds.
    public func frameDone(index: Int, time: Double, milliseconds: Double, snapshot: () -> RenderSnapshot) {
        frameTimes.append(Float(milliseconds))
        let isSample = index % stride == 0
        let isSlow = slowCapacity > 0 && (slowest.count < slowCapacity || milliseconds > (slowest.first?.frameMilliseconds ?? .infinity))
        let key: PlayerFrame
        if windowFrames > 0 && windowProblem == nil {
            let s = snapshot()
            let first = encoded == 0
            let delta = PlayerFrame(index: index, time: time, frameMilliseconds: milliseconds, isKey: first,
                                    bytes: encoder.encode(s, index: index, time: time, milliseconds: milliseconds, key: first))
            encoded += 1
            if first { keyBytes = delta.byteCount }
            track(delta, s)
            guard isSample || isSlow else { return }
            key = first ? delta : PlayerFrame(index: index, time: time, frameMilliseconds: milliseconds, isKey: true,
                                              bytes: encoder.state.keyFrame(index: index, time: time, milliseconds: milliseconds))
            see(s)
        } else {
            guard isSample || isSlow else { return }
            let s = snapshot()
            key = PlayerFrame(index: index, time: time, frameMilliseconds: milliseconds, isKey: true,
                              bytes: encoder.encode(s, index: index, time: time, milliseconds: milliseconds, key: true))
            encoded += 1
            see(s)
        }
        keyBytes = key.byteCount
        if !fitted {
            fitted = true
            fitBudget()
        }
        if isSample {
            sampled.append(key)
            // Over the sample's share of the budget: every other sample goes, and the stride doubles.
            while sampled.count > 1 && sampled.reduce(0, { $0 + $1.byteCount }) > sampleBudget {
                stride *= 2
                sampled.removeAll { $0.index % stride != 0 }
            }
        } else if isSlow {
            slowest.append(key)
            slowest.sort { $0.frameMilliseconds < $1.frameMilliseconds }
            while slowest.count > slowCapacity || (slowest.count > 1 && slowest.reduce(0, { $0 + $1.byteCount }) > slowBudget) {
                slowest.removeFirst()
                // Frames a little larger than the first (a longer index): the budget holds fewer,
                // and only a slower frame is asked for from now on.
                slowCapacity = min(slowCapacity, max(slowest.count, 1))
            }
        }
    }

    private func see(_ s: RenderSnapshot) {
        let bounds = Picture.contentBounds(s)
        if bounds.width > 0 || bounds.height > 0 { viewport = viewport.map { $0.union(bounds) } ?? bounds }
    }

    private func fitBudget() {
        let frames = max(1, sampleBudget / max(keyBytes, 1))
        stride = max(stride, (expectedFrames + frames - 1) / frames)
        if slowTarget > 0 { slowCapacity = min(slowTarget, max(1, slowBudget / max(keyBytes, 1))) }
    }

    /// The ring of the last frames' changes, and the window around the slowest frame.
    private func track(_ frame: PlayerFrame, _ s: RenderSnapshot) {
        ring.append(frame)
        ringBytes += frame.byteCount
        // The ring holds the frames before the slowest: at most half of what the window's
        // budget leaves beside a key frame, so that the frames after it get the other half.
        let limit = (windowBudget - keyBytes) / 2
        while ring.count - ringStart > max(before, 1) || (ringBytes > limit && ring.count > ringStart) {
            let old = ring[ringStart]
            ringStart += 1
            ringBytes -= old.byteCount
            do {
                let state = lag ?? PlayerState()
                try state.apply(old.bytes)
                lag = state
                lagFrame = old
            } catch {
                windowProblem = "the motion window was dropped: \(error)"
                window = []; windowBytes = 0; ring = []; ringStart = 0; ringBytes = 0; lag = nil
                return
            }
        }
        if ringStart > 256 && ringStart * 2 > ring.count { ring.removeFirst(ringStart); ringStart = 0 }
        if frame.frameMilliseconds > (windowCenter?.frameMilliseconds ?? -.infinity) {
            // A new slowest frame: the window is the ring (after the state before it), and the
            // frames after it to come.
            var frames: [PlayerFrame] = []
            if let lag, let f = lagFrame {
                frames.append(PlayerFrame(index: f.index, time: f.time, frameMilliseconds: f.frameMilliseconds, isKey: true,
                                          bytes: lag.keyFrame(index: f.index, time: f.time, milliseconds: f.frameMilliseconds)))
            }
            frames.append(contentsOf: ring[ringStart...])
            window = frames
            windowBytes = frames.reduce(0) { $0 + $1.byteCount }
            windowCenter = frame
            windowLeft = max(0, windowFrames - frames.count)
            see(s)
        } else if windowLeft > 0 {
            if windowBytes + frame.byteCount <= windowBudget {
                window.append(frame)
                windowBytes += frame.byteCount
                windowLeft -= 1
                see(s)
            } else {
                windowLeft = 0
            }
        }
    }

    /// The player page of what was recorded.
    public func document() -> PlayerDocument {
        let windowRange = window.isEmpty ? nil : window[0].index...window[window.count - 1].index
        var frames = window
        for f in sampled + slowest where !(windowRange?.contains(f.index) ?? false) && !frames.contains(where: { $0.index == f.index }) {
            frames.append(f)
        }
        frames.sort { $0.index < $1.index }
        var slowIndices = Set(slowest.map(\.index))
        if let c = windowCenter { slowIndices.insert(c.index) }
        var notes: [String] = []
        if let windowRange, let c = windowCenter {
            let seconds = window.count > 1 ? window[window.count - 1].time - window[0].time : 0
            let rate = seconds > 0 ? Double(window.count - 1) / seconds : 0
            var note = "Motion: frames \(windowRange.lowerBound)–\(windowRange.upperBound) in a row"
                + String(format: " (%.2f s at %.0f frames a second)", seconds, rate)
                + " around the slowest frame, \(c.index)" + String(format: " (%.2f ms)", c.frameMilliseconds)
                + ": a key frame and each frame's changes, \(Self.kilobytes(windowBytes))"
            if window.count < windowFrames {
                let deltas = window.dropFirst().map(\.byteCount)
                note += "; \(window.count) of the \(windowFrames) frames asked for fit its \(Self.megabytes(windowBudget))"
                    + " (a key frame \(Self.kilobytes(window[0].byteCount))"
                    + (deltas.isEmpty ? ")" : ", a frame's changes about \(Self.kilobytes(deltas.reduce(0, +) / deltas.count)))")
            }
            notes.append(note)
        }
        if let windowProblem { notes.append(windowProblem) }
        let overview = frames.count - window.count
        if overview > 0 && (sampled.count + slowest.count) > 0 && frameTimes.count > frames.count {
            let every = stride == 1 ? "every frame" : "every \(stride)\(ordinal(stride)) frame"
            notes.append("Overview: \(overview) more of the \(frameTimes.count) frames, \(every) and the \(slowest.count) slowest"
                         + " (about \(Self.kilobytes(keyBytes)) a frame); the timeline shows every frame's time")
        }
        if encoder.perspectiveItems > 0 {
            notes.append("up to \(encoder.perspectiveItems) item(s) a frame have perspective: drawn by the affine part of their transform")
        }
        return PlayerDocument(scene: scene, description: description, frameTimes: frameTimes, frames: frames,
                              slowFrames: slowIndices, viewport: viewport ?? CGRect(x: 0, y: 0, width: 100, height: 100),
                              notes: notes, paths: encoder.paths.table, window: windowRange)
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
