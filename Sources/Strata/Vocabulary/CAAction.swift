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
