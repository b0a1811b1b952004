import Foundation

/// A transition of a layer's whole appearance. It animates no property: it always runs
/// under the key `kCATransition`, and a renderer reads its type, subtype and progress.
open class CATransition: CAAnimation {
    /// The kind of transition (default fade).
    open var type: CATransitionType = .fade
    /// The direction (nil = from the left).
    open var subtype: CATransitionSubtype?
    /// Progress at the start, 0...1.
    open var startProgress: Float = 0
    /// Progress at the end, 0...1.
    open var endProgress: Float = 1

    /// A copy with the same settings, type, subtype and progress range.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CATransition
        c.type = type; c.subtype = subtype; c.startProgress = startProgress; c.endProgress = endProgress
        return c
    }
}
