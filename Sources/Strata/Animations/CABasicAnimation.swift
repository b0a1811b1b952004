import Foundation

/// Interpolates a key path between two values (SEMANTICS.md's from/to/by table).
open class CABasicAnimation: CAPropertyAnimation {
    /// Start value (nil: see the table).
    @exclusivity(unchecked) open var fromValue: Any?
    /// End value.
    @exclusivity(unchecked) open var toValue: Any?
    /// Relative change.
    @exclusivity(unchecked) open var byValue: Any?

    /// A copy has the same from, to and by values.
    override func copyFields(from o: CAAnimation) {
        super.copyFields(from: o)
        let o = unsafeDowncast(o, to: CABasicAnimation.self)
        fromValue = o.fromValue; toValue = o.toValue; byValue = o.byValue
    }
}
