import Foundation

/// Something a layer runs in response to a property change or event (Core Animation's
/// CAAction). Every `CAAnimation` is one: running it adds a copy to the layer under the key.
public protocol CAAction: AnyObject {
    /// Performs the action for `event` on `anObject` (the layer).
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

/// `NSNull` is the "stop, no action" marker of the lookup chain.
extension NSNull: CAAction {
    /// Does nothing.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// A layer's delegate: the UIView role. Returning an action ends the lookup, nil continues
/// it, `NSNull()` ends it with no action.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event` on `layer`, nil to continue the lookup, `NSNull()` to stop it.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
}

extension CALayerDelegate {
    /// Default: nil (continue the lookup).
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
}

/// Callbacks of an animation's lifetime.
public protocol CAAnimationDelegate: AnyObject {
    /// The animation began (at the first frame inside its active time).
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended: `flag` is true when it ran to its end, false when removed.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    /// Default: nothing.
    public func animationDidStart(_ anim: CAAnimation) {}
    /// Default: nothing.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}
