import Foundation

/// An animation of one key path of a layer.
open class CAPropertyAnimation: CAAnimation {
    /// The animated key path (`"position"`, `"position.x"`, `"transform.rotation.z"` ...).
    open var keyPath: String?
    /// Adds to the current render value instead of replacing it.
    @exclusivity(unchecked) open var isAdditive = false
    /// Each repeat starts at the previous repeat's end.
    @exclusivity(unchecked) open var isCumulative = false

    /// An animation of `path`.
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    /// A copy with the same settings, key path and additive and cumulative flags.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CAPropertyAnimation
        c.keyPath = keyPath; c.isAdditive = isAdditive; c.isCumulative = isCumulative
        return c
    }
}
