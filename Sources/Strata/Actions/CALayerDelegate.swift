import Foundation

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
