import Foundation

/// Drives frames of a layer tree at given media times (Apple's CARenderer vocabulary).
///
///     let r = CARenderer(layer: root)
///     r.renderFrame(atTime: 0.125)     // presentation values at t = 0.125
open class CARenderer: NSObject {
    /// The root of the rendered tree.
    open var layer: CALayer?
    let context: EngineContext
    /// Builds `snapshot()`'s frame; made on first use, kept for incremental updates.
    private var snapshotBuilder: SnapshotBuilder?

    /// A renderer of `layer`'s tree, in this thread's engine.
    public init(layer: CALayer?) {
        self.layer = layer
        context = layer?.context ?? EngineContext.current
        super.init()
        if let r = context.recorder { r.setRoot(layer) }
    }

    /// Starts a frame at media time `t`: `CACurrentMediaTime()` becomes t and the implicit
    /// transaction is committed (its animations begin at t). A non-finite time is refused.
    open func beginFrame(atTime t: Double) {
        guard t.isFinite else {
            StrataDiagnostics.emit(.nonFiniteValue, "beginFrame(atTime: \(t)): time must be finite; frame ignored")
            return
        }
        guard onOwnThread() else { return }
        if let r = context.recorder { r.frame(t, root: layer) }
        context.beginFrame(atTime: t)
    }

    /// Computes every presentation value at the frame's time.
    open func render() {
        guard onOwnThread() else { return }
        context.render()
    }

    /// Retires finished animations; delivers delegate callbacks and completion blocks.
    open func endFrame() {
        guard onOwnThread() else { return }
        context.endFrame()
    }

    /// A renderer drives its own thread's engine; on another thread the frame is refused.
    @inline(__always)
    private func onOwnThread() -> Bool {
        if _slowPath(!context.isCurrent) {
            StrataDiagnostics.emit(.wrongThread,
                "a CARenderer was used on a thread other than the one whose engine it renders; frame refused")
            return false
        }
        return true
    }

    /// The render-ready frame of the tree as presented now (after `render()`): every visible
    /// layer in painter's order with its world transform, opacity, bounds, colours, border,
    /// shadow and shape values, as struct-of-arrays columns (see `RenderSnapshot`). The
    /// first call is a full pass; later ones recompute only the layers that changed or
    /// animate (and their subtrees' geometry). The returned object is this renderer's own,
    /// updated in place: its columns stay valid until the next call.
    ///
    ///     renderer.beginFrame(atTime: t); renderer.render()
    ///     let frame = renderer.snapshot()     // frame.count items, frame.transforms ...
    ///     renderer.endFrame()
    ///
    /// - Complexity: O(n) in visible layers for a full pass; O(changed + animated layers and
    ///   their subtrees + n / 64) for an update.
    open func snapshot() -> RenderSnapshot { snapshotBuilder(invalidated: false) }

    /// The snapshot, from this renderer's builder (made on first use); `invalidated`: a
    /// full pass whatever changed.
    func snapshotBuilder(invalidated: Bool) -> RenderSnapshot {
        let builder = snapshotBuilder ?? { let b = SnapshotBuilder(engine: context); snapshotBuilder = b; return b }()
        guard onOwnThread() else { return builder.output }
        if invalidated { builder.invalidate() }
        return builder.snapshot(root: layer?.engine === context ? layer : nil, time: context.now)
    }

    /// `beginFrame(atTime:)`, `render()`, `endFrame()`.
    open func renderFrame(atTime t: Double) {
        guard t.isFinite else {
            StrataDiagnostics.emit(.nonFiniteValue, "renderFrame(atTime: \(t)): time must be finite; frame ignored")
            return
        }
        guard onOwnThread() else { return }
        if let r = context.recorder { r.frame(t, root: layer) }
        context.beginFrame(atTime: t)
        context.render()
        context.endFrame()
    }
}
