import Foundation

/// Runs several animations together on the group's timeline.
open class CAAnimationGroup: CAAnimation {
    /// The grouped animations.
    open var animations: [CAAnimation]?

    /// A copy with the same settings and a copy of each grouped animation.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CAAnimationGroup
        c.animations = animations?.map { $0.copy() as! CAAnimation }
        return c
    }
}
