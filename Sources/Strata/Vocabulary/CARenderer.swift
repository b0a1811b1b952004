import Foundation

/// Drives frames of a layer tree at given media times (Apple's CARenderer vocabulary).
///
///     let r = CARenderer(layer: root)
///     r.renderFrame(atTime: 0.125)     // presentation values at t = 0.125
///
/// Written once for both engines (Vocabulary/ is compiled into StrataReference too): the
/// checks of what callers pass are here; each engine's `FrameDriver` runs the frames.
open class CARenderer: NSObject {
    /// The root of the rendered tree.
    open var layer: CALayer?
    /// This engine's side: the engine the renderer drives, and its snapshot builder.
    let driver: FrameDriver

    /// A renderer of `layer`'s tree, in this thread's engine.
    public init(layer: CALayer?) {
        self.layer = layer
        driver = FrameDriver(layer: layer)
        super.init()
    }

    /// Starts a frame at media time `t`: `CACurrentMediaTime()` becomes t and the implicit
    /// transaction is committed (its animations begin at t). A non-finite time is refused.
    open func beginFrame(atTime t: Double) {
        guard t.isFinite else {
            StrataDiagnostics.emit(.nonFiniteValue, "beginFrame(atTime: \(t)): time must be finite; frame ignored")
            return
        }
        driver.beginFrame(atTime: t, of: self)
    }

    /// Computes every presentation value at the frame's time.
    open func render() { driver.render() }

    /// Retires finished animations; delivers delegate callbacks and completion blocks.
    open func endFrame() { driver.endFrame() }

    /// The render-ready frame of the tree as presented now (after `render()`): every visible
    /// layer in painter's order with its world transform, opacity, bounds, colours, border,
    /// shadow and shape values, as struct-of-arrays columns (see `RenderSnapshot`). The
    /// first call is a full pass; later ones recompute only the layers that changed or
    /// animate (and their subtrees' geometry). The returned object is this renderer's own,
    /// updated in place: its columns stay valid until the next call. (The reference engine
    /// always builds it whole.)
    ///
    ///     renderer.beginFrame(atTime: t); renderer.render()
    ///     let frame = renderer.snapshot()     // frame.count items, frame.transforms ...
    ///     renderer.endFrame()
    ///
    /// - Complexity: O(n) in visible layers for a full pass; O(changed + animated layers and
    ///   their subtrees + n / 64) for an update.
    open func snapshot() -> RenderSnapshot { driver.snapshot(root: layer, invalidated: false) }

    /// `beginFrame(atTime:)`, `render()`, `endFrame()`.
    open func renderFrame(atTime t: Double) {
        guard t.isFinite else {
            StrataDiagnostics.emit(.nonFiniteValue, "renderFrame(atTime: \(t)): time must be finite; frame ignored")
            return
        }
        driver.renderFrame(atTime: t, of: self)
    }
}
