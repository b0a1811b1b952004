import Foundation

/// This engine's side of `CARenderer` (Vocabulary/CARenderer.swift): the thread's engine it
/// drives, with the recorder's hooks, and the snapshot builder (made on first use, kept for
/// incremental updates). Callers' values are checked by the face.
final class FrameDriver {
    let context: EngineContext
    /// Builds `snapshot()`'s frame; made on first use, kept for incremental updates.
    private var snapshotBuilder: SnapshotBuilder?

    init(layer: CALayer?) {
        context = layer?.context ?? EngineContext.current
        if let r = context.recorder { r.setRoot(layer) }
    }

    func beginFrame(atTime t: Double, root: CALayer?) {
        guard onOwnThread() else { return }
        if let r = context.recorder { r.frame(t, root: root) }
        context.beginFrame(atTime: t)
    }

    func render() {
        guard onOwnThread() else { return }
        context.render()
    }

    func endFrame() {
        guard onOwnThread() else { return }
        context.endFrame()
    }

    func renderFrame(atTime t: Double, root: CALayer?) {
        guard onOwnThread() else { return }
        if let r = context.recorder { r.frame(t, root: root) }
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
