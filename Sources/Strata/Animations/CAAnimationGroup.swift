import Foundation

/// Runs several animations together on the group's timeline.
open class CAAnimationGroup: CAAnimation {
    /// The grouped animations.
    @exclusivity(unchecked) open var animations: [CAAnimation]?

    /// A copy has a copy of each grouped animation.
    override func copyFields(from o: CAAnimation) {
        super.copyFields(from: o)
        animations = unsafeDowncast(o, to: CAAnimationGroup.self).animations?.map { $0.copy() as! CAAnimation }
    }
}
