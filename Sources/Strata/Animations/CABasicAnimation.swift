import Foundation

/// Interpolates a key path between two values (SEMANTICS.md's from/to/by table).
open class CABasicAnimation: CAPropertyAnimation {
    /// Start value (nil: see the table).
    open var fromValue: Any?
    /// End value.
    open var toValue: Any?
    /// Relative change.
    open var byValue: Any?

    /// A copy with the same settings and from, to and by values.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CABasicAnimation
        c.fromValue = fromValue; c.toValue = toValue; c.byValue = byValue
        return c
    }
}
