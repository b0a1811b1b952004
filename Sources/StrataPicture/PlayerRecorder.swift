import Foundation
import StrataGeometry
import StrataSnapshot

/// Collects a scene's frames for the player, within a byte budget:
/// - every frame's time, for the timeline;
/// - an overview: key frames sampled evenly over the run, and the slowest frames;
/// - a **motion window**: `windowFrames` consecutive frames (two seconds at the scene's rate by
///   default) around the slowest frame, a key frame and then each frame's changes, so the
///   player shows the slowest moment moving at the scene's frame rate.
///
/// The slowest frame is known only at the end of the run, and encoding every frame while the
/// run is timed would cost time between its frames and evict the engine's data from the caches
/// (app-10k's p50 moved by half). So the window is recorded afterwards, by replaying the scene
/// untimed on a fresh engine up to the window's end (scenes are deterministic: the same frames
/// from the same start), and the replay's slowest frame is checked against the run's.
///
///     let recorder = PlayerRecorder(scene: "app-10k", description: "...", expectedFrames: 600)
///     for f in 0..<600 {
///         // ... the frame, timed ...
///         recorder.frameDone(index: f, time: t, milliseconds: ms) { renderer.snapshot() }
///     }
///     if let window = recorder.replayWindow {
///         // ... the scene again, untimed, from its start ...
///         for f in 0...window.upperBound where f >= window.lowerBound {
///             if !recorder.replayed(index: f, time: t, snapshot: renderer.snapshot()) { break }
///         }
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
    private let paths = PlayerPaths()
    private lazy var encoder = PlayerEncoder(paths: paths)
    private var sampled: [PlayerFrame] = []
    private var slowest: [PlayerFrame] = []
    /// A key frame's size (the latest made).
    private var keyBytes = 0
    private var fitted = false
    /// Slowest frames the budget holds (at most `slowTarget`; known once a frame is encoded).
    private var slowCapacity: Int
    private var viewport: CGRect?
    /// The slowest frame of the run.
    private var slowestIndex = -1
    private var slowestMilliseconds = -Double.infinity
    /// The run's key frame of it (to check the replay against).
    private var slowestKey: PlayerFrame?

    // The motion window, from the replay.
    private var windowEncoder: PlayerEncoder?
    private var window: [PlayerFrame] = []
    private var windowBytes = 0
    /// The state of the window's first frame (to move the window's start on).
    private var windowFront = PlayerState()
    private var windowDone = false
    private var windowNotes: [String] = []

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
        slowCapacity = max(slowTarget, self.windowFrames > 0 ? 1 : 0)
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

    /// Bytes the recorder holds now: the frame times, the encoded frames it keeps and the
    /// encoder's state. They grow over a run (the times by 4 bytes a frame), so a scene's memory
    /// readings take them out of the process's resident growth
    /// (`SceneMemory.Sample.harnessBytes`): they are the suite's, not the engine's.
    public var heldBytes: Int {
        let kept = (sampled + slowest + window).reduce(0) { $0 + $1.byteCount }
        return frameTimes.count * MemoryLayout<Float>.stride + kept + (keyBytes > 0 ? encoder.heldBytes : 0)
    }

    /// Frame `index` (media time `time`) took `milliseconds`; `snapshot` is asked for (and
    /// encoded) only when the frame is kept: a sampled frame, or one slower than the slowest
    /// frames kept so far once as many are kept as the budget holds.
    public func frameDone(index: Int, time: Double, milliseconds: Double, snapshot: () -> RenderSnapshot) {
        frameTimes.append(Float(milliseconds))
        let isSlowest = milliseconds > slowestMilliseconds
        if isSlowest { slowestMilliseconds = milliseconds; slowestIndex = index }
        let isSample = index % stride == 0
        let isSlow = slowCapacity > 0 && (slowest.count < slowCapacity || milliseconds > (slowest.first?.frameMilliseconds ?? .infinity))
        guard isSample || isSlow else { return }
        let s = snapshot()
        let key = PlayerFrame(index: index, time: time, frameMilliseconds: milliseconds, isKey: true,
                              bytes: encoder.encode(s, index: index, time: time, milliseconds: milliseconds, key: true))
        see(s)
        if isSlowest { slowestKey = key }
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

    /// The area the page shows, when given (`--viewport`); else what the frames make visible
    /// (`Picture.visibleBounds`: the root's bounds, or the masked area), over every frame kept.
    public var fixedViewport: CGRect?

    private func see(_ s: RenderSnapshot) {
        guard fixedViewport == nil else { return }
        let bounds = Picture.visibleBounds(s)
        if bounds.width > 0 || bounds.height > 0 { viewport = viewport.map { $0.union(bounds) } ?? bounds }
    }

    private func fitBudget() {
        let frames = max(1, sampleBudget / max(keyBytes, 1))
        stride = max(stride, (expectedFrames + frames - 1) / frames)
        if slowTarget > 0 { slowCapacity = min(slowTarget, max(1, slowBudget / max(keyBytes, 1))) }
    }

    /// The frames to replay for the motion window: `windowFrames` in a row around the slowest
    /// frame, half before it where the run allows (nil without a window or frames).
    public var replayWindow: ClosedRange<Int>? {
        guard windowFrames > 0, slowestIndex >= 0, !windowDone else { return nil }
        let last = frameTimes.count - 1
        var start = max(0, slowestIndex - windowFrames / 2)
        let end = min(last, start + windowFrames - 1)
        start = max(0, end - windowFrames + 1)
        return start...end
    }

    /// Frame `index` of the replay (`replayWindow`, in order); false once the window is full
    /// (the replay can stop). Frames before the slowest keep to half of the window's budget
    /// (the window's start moves on), the frames after it get the rest.
    @discardableResult
    public func replayed(index: Int, time: Double, snapshot s: RenderSnapshot) -> Bool {
        guard let range = replayWindow, range.contains(index) else { return false }
        let encoder = windowEncoder ?? PlayerEncoder(paths: paths)
        windowEncoder = encoder
        let first = window.isEmpty
        guard first || window[window.count - 1].index == index - 1 else {
            windowNotes.append("the replay skipped frame \(window[window.count - 1].index + 1): no motion window")
            return stopWindow(keep: false)
        }
        let ms = index < frameTimes.count ? Double(frameTimes[index]) : 0
        let frame = PlayerFrame(index: index, time: time, frameMilliseconds: ms, isKey: first,
                                bytes: encoder.encode(s, index: index, time: time, milliseconds: ms, key: first))
        do {
            if first { windowFront = PlayerState(); try windowFront.apply(frame.bytes) }
            if index <= slowestIndex {
                window.append(frame)
                windowBytes += frame.byteCount
                while window.count > 1 && windowBytes - window[0].byteCount > (windowBudget - window[0].byteCount) / 2 {
                    // The window's start moves on a frame: the next frame becomes its key frame.
                    let next = window[1]
                    try windowFront.apply(next.bytes)
                    let key = PlayerFrame(index: next.index, time: next.time, frameMilliseconds: next.frameMilliseconds, isKey: true,
                                          bytes: windowFront.keyFrame(index: next.index, time: next.time, milliseconds: next.frameMilliseconds))
                    windowBytes += key.byteCount - window[0].byteCount - next.byteCount
                    window.replaceSubrange(0..<2, with: [key])
                }
            } else if windowBytes + frame.byteCount <= windowBudget {
                window.append(frame)
                windowBytes += frame.byteCount
            } else {
                return stopWindow(keep: true)
            }
        } catch {
            windowNotes.append("the motion window was dropped: \(error)")
            return stopWindow(keep: false)
        }
        if index == slowestIndex { see(s); check(encoder) }
        if index == range.upperBound { return stopWindow(keep: true) }
        return true
    }

    /// The replay's slowest frame against the run's key frame of it: the same items, or a note.
    private func check(_ replay: PlayerEncoder) {
        guard let run = slowestKey, run.index == slowestIndex else { return }
        let state = PlayerState()
        do {
            try state.apply(run.bytes)
            let a = state.items, b = replay.state.items
            if a != b {
                let differ = zip(a, b).filter { $0 != $1 }.count + abs(a.count - b.count)
                windowNotes.append("the replay drew the slowest frame, \(slowestIndex), unlike the run (\(differ) of \(a.count) items differ):"
                                   + " the scene did not replay the same; the window shows the replay")
            }
        } catch {
            windowNotes.append("the run's key frame of frame \(slowestIndex) did not decode: \(error)")
        }
    }

    private func stopWindow(keep: Bool) -> Bool {
        windowDone = true
        windowEncoder = nil
        windowFront = PlayerState()
        if !keep || windowBytes > windowBudget || !window.contains(where: { $0.index == slowestIndex }) {
            if keep && windowBytes > windowBudget, let k = window.first {
                windowNotes.append("no motion window: a key frame takes \(Self.kilobytes(k.byteCount)), more than the window's \(Self.megabytes(windowBudget))")
            }
            window = []
            windowBytes = 0
        }
        return false
    }

    /// Says why the window is missing (a replay that failed).
    public func windowFailed(_ why: String) {
        windowNotes.append("no motion window: \(why)")
        _ = stopWindow(keep: false)
    }

    /// The player page of what was recorded.
    public func document() -> PlayerDocument {
        if !windowDone && !window.isEmpty { _ = stopWindow(keep: true) }
        let windowRange = window.isEmpty ? nil : window[0].index...window[window.count - 1].index
        var frames = window
        for f in sampled + slowest where !(windowRange?.contains(f.index) ?? false) && !frames.contains(where: { $0.index == f.index }) {
            frames.append(f)
        }
        frames.sort { $0.index < $1.index }
        var slowIndices = Set(slowest.map(\.index))
        if slowestIndex >= 0 && windowRange != nil { slowIndices.insert(slowestIndex) }
        var notes: [String] = []
        if let windowRange {
            let seconds = window.count > 1 ? window[window.count - 1].time - window[0].time : 0
            let rate = seconds > 0 ? Double(window.count - 1) / seconds : 0
            var note = "Motion: frames \(windowRange.lowerBound)–\(windowRange.upperBound) in a row"
                + String(format: " (%.2f s at %.0f frames a second)", seconds, rate)
                + " around the slowest frame, \(slowestIndex)" + String(format: " (%.2f ms)", slowestMilliseconds)
                + ": a key frame and each frame's changes, \(Self.kilobytes(windowBytes)), replayed after the run"
            if window.count < windowFrames && window.count < frameTimes.count {
                let deltas = window.dropFirst().map(\.byteCount)
                note += "; \(window.count) of the \(windowFrames) frames asked for fit its \(Self.megabytes(windowBudget))"
                    + " (a key frame \(Self.kilobytes(window[0].byteCount))"
                    + (deltas.isEmpty ? ")" : ", a frame's changes about \(Self.kilobytes(deltas.reduce(0, +) / deltas.count)))")
            }
            notes.append(note)
        }
        notes += windowNotes
        let overview = frames.count - window.count
        if overview > 0 && frameTimes.count > frames.count {
            let every = stride == 1 ? "every frame" : "every \(stride)\(ordinal(stride)) frame"
            notes.append("Overview: \(overview) more of the \(frameTimes.count) frames, \(every) and the \(slowest.count) slowest"
                         + " (about \(Self.kilobytes(keyBytes)) a frame); the timeline shows every frame's time")
        }
        let perspective = max(encoder.perspectiveItems, windowEncoder?.perspectiveItems ?? 0)
        if perspective > 0 {
            notes.append("up to \(perspective) item(s) a frame have perspective: drawn by the affine part of their transform")
        }
        return PlayerDocument(scene: scene, description: description, frameTimes: frameTimes, frames: frames,
                              slowFrames: slowIndices, viewport: fixedViewport ?? viewport ?? CGRect(x: 0, y: 0, width: 100, height: 100),
                              notes: notes, paths: paths.table, window: windowRange)
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
