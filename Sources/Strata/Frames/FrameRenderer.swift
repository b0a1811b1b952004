import Foundation

/// The frame's evaluation: every running animation's value at a media time, written into the
/// layer store's presentation columns. `render()` evaluates at the frame's time; the render
/// snapshot asks for other times (a replicator's delayed instances, `renderShadow`) and gets
/// the frame's state back afterwards. It owns what the evaluation keeps between frames (its
/// scratch, the shadow checkpoint and the second thread) and reads the stores it is given.
final class FrameRenderer {
    let layers: LayerStore
    let animations: AnimationStore
    let timings: TimingStore

    /// The frame end's list of finished records (sequence, record), kept between frames so a
    /// frame that retires thousands of animations does not allocate it again.
    @exclusivity(unchecked) var finishedScratch: [(UInt64, Int32)] = []
    /// The media time of the last `render()` (NaN before the first).
    @exclusivity(unchecked) var renderedAt: Double = .nan
    /// The frame's evaluated state while a snapshot evaluates at other times (made on first use).
    @exclusivity(unchecked) var shadowCheckpoint: ShadowCheckpoint?
    /// Threads `render()` may use for a large lane track (1: the calling thread only).
    @exclusivity(unchecked) var renderThreads = min(2, ProcessInfo.processInfo.activeProcessorCount)
    /// The second thread, started the first time work is split (`worker`).
    @exclusivity(unchecked) var renderWorker: RenderWorker?
    /// The second thread, started on first use.
    var worker: RenderWorker {
        if let w = renderWorker { return w }
        let w = RenderWorker()
        renderWorker = w
        return w
    }
    /// Lanes (animations x doubles per value) of one lane track from which `render()` splits
    /// it across two threads. Measured here (`frame/*/shared/basic/{1-thread,2-threads}/N`):
    /// position at 1e5 (2e5 lanes) gains 1.47x, opacity at 1e5 (1e5 lanes) loses 0.89x to
    /// the hand-off.
    static let splitThresholdLanes = 131_072

    /// `render()`'s scratch, kept between frames so a frame allocates nothing: custom keys
    /// composed this frame, and the path-rotation turns of this frame.
    @exclusivity(unchecked) var customComposed = Set<Int64>()
    /// (layer, transform property) pairs a derived field wrote this frame: the next field of
    /// the pair applies on top (kept between frames: no allocation).
    @exclusivity(unchecked) var fieldsComposed = Set<Int64>()
    @exclusivity(unchecked) var rotationTurns: [RotationTurn] = []

    init(layers: LayerStore, animations: AnimationStore, timings: TimingStore) {
        self.layers = layers
        self.animations = animations
        self.timings = timings
    }

    deinit { renderWorker?.stop() }

    /// A frame begins at `now`: a later snapshot's shadow evaluations start from it.
    @inline(__always)
    func startFrame(at now: Double) {
        renderedAt = now
        shadowCheckpoint?.holdsFrame = false
    }

    /// Evaluates the animations of layer properties at media time `t` as `render()` would,
    /// without its side effects: no entry is marked started or completed (delegates and
    /// completion blocks see nothing), no live copy is frozen, no pending refresh is taken,
    /// and custom keys and object values (paths, contents) keep the frame's values. The
    /// first call after a frame keeps the frame's evaluated state (`ShadowCheckpoint`);
    /// `restoreFrameEvaluation()` puts it back exactly, whatever changed since the frame
    /// (an `endFrame()` that removed animations included). A replicator's delayed
    /// instances are evaluated this way.
    ///
    /// Every call starts from the frame's state, not from the last call's: what a pending
    /// animation keeps is what the frame shows, whichever other delayed instances (nested
    /// replicators') were evaluated before.
    func renderShadow(atTime t: Double) {
        let checkpoint = shadowCheckpoint ?? { let c = ShadowCheckpoint(); shadowCheckpoint = c; return c }()
        if checkpoint.holdsFrame { checkpoint.restore(layers, timings) } else { checkpoint.save(layers, timings) }
        timings.shadow = true
        evaluate(at: t, shadow: true)
        timings.shadow = false
    }

    /// The frame's evaluated state again after `renderShadow(atTime:)` (nothing when none
    /// ran since the last `endShadows()`).
    func restoreFrameEvaluation() {
        guard let c = shadowCheckpoint, c.holdsFrame else { return }
        c.restore(layers, timings)
    }

    /// The frame's state again, and the checkpoint released for the next frame's changes.
    func endShadows() {
        guard let c = shadowCheckpoint, c.holdsFrame else { return }
        c.restore(layers, timings)
        c.holdsFrame = false
    }

    /// The evaluation `render()` and `renderShadow` share, at media time `now` (`shadow`:
    /// custom keys and object values left alone).
    func evaluate(at now: Double, shadow: Bool = false) {
        // A track large enough to split: wake the worker now, so its wake-up overlaps the
        // timing pass rather than the kernel.
        if renderThreads > 1 && animations.largestTrackLanes >= FrameRenderer.splitThresholdLanes {
            worker.prepare()
        }
        // One cache for the pass: every entry's layer converts `now` through its ancestors,
        // and each ancestor is converted once. A layer outside its active time (layer timing)
        // gives NaN: its subtree's entries are inactive, as a group's children are.
        var localTimes = LocalTimeCache(media: now)
        timings.evaluate(now: now) { [layers] row, t in
            t == localTimes.media ? layers.activeLocalTime(row, cache: &localTimes) : layers.activeLocalTime(row, t)
        }
        let prog = timings.progress.base, phase = timings.phase.base, iter = timings.iteration.base
        // Index loops: an array iterator allocates in unoptimised builds.
        for i in 0..<animations.tracks.count {
            let t = animations.tracks[i]
            guard t.count > 0 else { continue }
            let pres = layers.presentationColumn(t.property), model = layers.modelColumn(t.property)
            if renderThreads > 1 && t.count &* t.width >= FrameRenderer.splitThresholdLanes {
                // Two cores: the worker takes the upper half of the blocks.
                let blocks = t.fullBlocks, mid = blocks / 2
                let worker = self.worker
                var job = LaneJob(track: t, blocks: mid..<blocks, progress: ColumnSpan(lending: prog),
                                  phase: ColumnSpan(lending: phase), iteration: ColumnSpan(lending: iter),
                                  presentation: ColumnSpan(lending: pres), model: ColumnSpan(lending: model))
                worker.start(job)
                job.blocks = 0..<mid
                job.run(buffer: t.blockBuffer)
                t.evaluateTail(progress: prog, phase: phase, iteration: iter, presentation: pres, model: model)
                worker.wait()
            } else {
                t.evaluate(progress: prog, phase: phase, iteration: iter, presentation: pres, model: model)
            }
        }
        for i in 0..<animations.keyframeTracks.count {
            let t = animations.keyframeTracks[i]
            guard t.count > 0 else { continue }
            t.evaluate(progress: prog, phase: phase, iteration: iter, curveTable: timings.curves,
                       presentation: layers.presentationColumn(t.property), model: layers.modelColumn(t.property))
        }
        if !animations.composed.isEmpty { composeAll() }
        if animations.customSlots > 0 && !shadow { renderCustomTracks(prog, phase, iter) }
        if !animations.derivedRecords.isEmpty { renderDerived(customKeys: !shadow) }
        if animations.rotatingSlots > 0 { renderRotations() }
        if !animations.objectRecords.isEmpty && !shadow { renderObjects() }
    }
}

/// One rotating path animation's turn this frame: its layer row, its add order and the
/// tangent angle (NaN when it adds nothing).
typealias RotationTurn = (row: Int32, sequence: UInt64, angle: Double)
