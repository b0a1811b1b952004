import Foundation

/// This engine's side of `CARenderer` (Vocabulary/CARenderer.swift): the thread's engine it
/// drives, with the recorder's hooks, and the snapshot builder (made on first use, kept for
/// incremental updates). Callers' values are checked by the face.
final class FrameDriver {
    let context: EngineContext
    /// Builds `snapshot()`'s frame; made on first use, kept for incremental updates.
    @exclusivity(unchecked) private var snapshotBuilder: SnapshotBuilder?

    init(layer: CALayer?) {
        context = layer?.context ?? EngineContext.current
        if let r = context.recorder { r.setRoot(layer) }
    }

    /// (The renderer, not its layer: `layer` is read only when a recorder notes the frame.
    /// Passing `layer` read the open property (a call and an exclusivity check) every frame,
    /// and with the driver's calls not inlined `frame/opacity/shared/basic/1000` took 9.92
    /// instructions an item against 9.7.)
    @inline(__always)
    func beginFrame(atTime t: Double, of renderer: CARenderer) {
        guard onOwnThread() else { return }
        if let r = context.recorder { r.frame(t, root: renderer.layer) }
        context.beginFrame(atTime: t)
    }

    @inline(__always)
    func render() {
        guard onOwnThread() else { return }
        context.render()
    }

    @inline(__always)
    func endFrame() {
        guard onOwnThread() else { return }
        context.endFrame()
    }

    @inline(__always)
    func renderFrame(atTime t: Double, of renderer: CARenderer) {
        guard onOwnThread() else { return }
        if let r = context.recorder { r.frame(t, root: renderer.layer) }
        context.beginFrame(atTime: t)
        context.render()
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

    /// The snapshot, from this renderer's builder (made on first use); `invalidated`: a
    /// full pass whatever changed.
    func snapshot(root: CALayer?, invalidated: Bool) -> RenderSnapshot {
        let builder = snapshotBuilder ?? { let b = SnapshotBuilder(layers: context.layers, animations: context.animations, frames: context.frames, engineIdentity: UInt(bitPattern: Unmanaged.passUnretained(context).toOpaque())); snapshotBuilder = b; return b }()
        guard onOwnThread() else { return builder.output }
        if invalidated { builder.invalidate() }
        return builder.snapshot(root: root?.engine === context ? root : nil, time: context.now)
    }
}

extension CARenderer {
    /// The engine this renderer drives.
    var context: EngineContext { driver.context }
}
