import Foundation

/// A transition of a layer's whole appearance. It animates no property: it always runs
/// under the key `kCATransition`, and a renderer reads its type, subtype and progress.
open class CATransition: CAAnimation {
    /// The kind of transition (default fade).
    @exclusivity(unchecked) open var type: CATransitionType = .fade
    /// The direction (nil = from the left).
    @exclusivity(unchecked) open var subtype: CATransitionSubtype?
    /// Progress at the start, 0...1.
    @exclusivity(unchecked) open var startProgress: Float = 0
    /// Progress at the end, 0...1.
    @exclusivity(unchecked) open var endProgress: Float = 1

    /// A copy has the same type, subtype and progress range.
    override func copyFields(from o: CAAnimation) {
        super.copyFields(from: o)
        let o = unsafeDowncast(o, to: CATransition.self)
        type = o.type; subtype = o.subtype; startProgress = o.startProgress; endProgress = o.endProgress
    }
}
