import Foundation

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
