import Foundation

/// A layer's delegate: the UIView role. Returning an action ends the lookup, nil continues
/// it, `NSNull()` ends it with no action.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event` on `layer`, nil to continue the lookup, `NSNull()` to stop it.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
    /// Updates `layer`'s contents itself (default: the layer draws, `drawContents()`).
    func display(_ layer: CALayer)
    /// Draws `layer`'s contents into `ctx` (default: nothing).
    func draw(_ layer: CALayer, in ctx: CGContext)
    /// Called before `layer` draws (default: nothing).
    func layerWillDraw(_ layer: CALayer)
}

extension CALayerDelegate {
    /// Default: nil (continue the lookup).
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    /// Default: the layer draws itself (`draw(in:)` into a recording context).
    public func display(_ layer: CALayer) { layer.drawContents() }
    /// Default: nothing.
    public func draw(_ layer: CALayer, in ctx: CGContext) {}
    /// Default: nothing.
    public func layerWillDraw(_ layer: CALayer) {}
}
