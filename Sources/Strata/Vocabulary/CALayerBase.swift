import Foundation

/// The members of ``CALayer`` that both engines declare alike: drawing, hit testing, the affine
/// transform and two class defaults. Written once here and compiled into both (Strata and
/// the reference engine) with the rest of `Vocabulary/`. Not for application code: subclass
/// ``CALayer`` and override these there, as with Apple's QuartzCore.
///
/// Why a superclass: a member that subclasses override has to be declared in a class body
/// (Swift cannot override a member declared in an extension), and each engine's `CALayer`
/// body is its own, so these declarations were written twice. As ``CALayer``'s superclass
/// they are written once and inherited, and every override written for Apple's `CALayer`
/// (`override func draw(in:)`, `super.display()` ...) compiles and dispatches as before.
/// It holds no state; its one initialiser checks what it is making.
open class CALayerBase: NSObject {
    /// Every instance is a `CALayer`, checked once as it is made. This class has to be `open`
    /// (an open class's superclass must be), so code could subclass it directly: that stops
    /// here, with a message, rather than reaching an unchecked downcast in `layer`.
    public override init() {
        super.init()
        if _slowPath(!(self is CALayer)) {
            preconditionFailure("\(type(of: self)) subclasses CALayerBase, which is only CALayer's superclass: subclass CALayer instead")
        }
    }

    /// The layer these members act on (`init()` checked that it is one). A checked cast here
    /// (fcd6ad7) cost every call a cast, a retain and a release: `program/model/1000`, whose
    /// read includes `affineTransform()`, went from 696 to 793 instructions a layer, and
    /// `program/hit-test/20` up 4.8%.
    @inline(__always) private var layer: CALayer { unsafeDowncast(self, to: CALayer.self) }

    // MARK: - class defaults

    /// Whether changing `key` requires redisplay (Apple's API; false here: no drawing).
    open class func needsDisplay(forKey key: String) -> Bool { false }

    /// The action for `event` when no delegate, `actions` or `style` entry gives one; nil
    /// continues to the built-in action. Subclasses override it.
    open class func defaultAction(forKey event: String) -> CAAction? { nil }

    // MARK: - the affine transform

    /// The affine part of `transform`.
    open func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(layer.transform) }
    /// Sets `transform` from an affine transform (animates like `transform`).
    open func setAffineTransform(_ m: CGAffineTransform) { layer.transform = CATransform3DMakeAffineTransform(m) }

    // MARK: - hit testing (CALayer+HitTesting.swift)

    /// The farthest descendant (or this layer) containing `p`, a point in the superlayer's
    /// coordinates; nil when none does (hidden layers hit nothing). Override to change it.
    open func hitTest(_ p: CGPoint) -> CALayer? { layer.hitTestWalk(p) }

    /// Whether `p`, in this layer's coordinates, is inside it: its bounds. Override for
    /// other shapes (hitTest(_:) asks it).
    open func contains(_ p: CGPoint) -> Bool { layer.bounds.contains(p) }

    // MARK: - drawing (CALayer+Display.swift)

    /// Marks the layer for display at the next commit.
    open func setNeedsDisplay() { layer.displayQueue.mark(layer) }

    /// Marks the layer for display (the whole layer: there is no partial redraw here).
    open func setNeedsDisplay(_ r: CGRect) { layer.displayQueue.mark(layer) }

    /// Whether the layer is marked for display.
    open func needsDisplay() -> Bool { layer.displayQueue.isMarked(layer) }

    /// Displays the layer now if it is marked.
    open func displayIfNeeded() {
        let layer = self.layer
        guard layer.displayQueue.isMarked(layer) else { return }
        layer.displayQueue.unmark(layer)
        display()
    }

    /// Updates the contents: the delegate's `display(_:)`, else `draw(in:)` into a
    /// recording context that becomes the contents. Override to set `contents` yourself.
    open func display() { layer.defaultDisplay() }

    /// Draws the layer's contents into `ctx`: the delegate's `draw(_:in:)` by default.
    open func draw(in ctx: CGContext) { layer.delegate?.draw(layer, in: ctx) }

    /// Draws the layer and its sublayers into `ctx`, in the layer's own coordinates, from
    /// their current values with no animation applied, as Core Animation's
    /// `render(in:)`: background, recorded contents, a shape layer's path, sublayers (by
    /// `zPosition`), border. Hidden layers, masks and layers with 3-D transforms are not
    /// drawn, as Apple documents.
    ///
    /// ```swift
    /// let ctx = CGContext(size: layer.bounds.size)
    /// layer.render(in: ctx)   // ctx.operations: what was drawn, in order
    /// ```
    open func render(in ctx: CGContext) { layer.renderTree(in: ctx, alpha: 1) }
}
