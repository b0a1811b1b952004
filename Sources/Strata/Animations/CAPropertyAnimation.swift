import Foundation

/// An animation of one key path of a layer.
open class CAPropertyAnimation: CAAnimation {
    /// The animated key path (`"position"`, `"position.x"`, `"transform.rotation.z"` ...).
    @exclusivity(unchecked) open var keyPath: String?
    /// Adds to the current render value instead of replacing it.
    @exclusivity(unchecked) open var isAdditive = false
    /// Each repeat starts at the previous repeat's end.
    @exclusivity(unchecked) open var isCumulative = false

    /// An animation of `path`.
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    /// A copy has the same key path and additive and cumulative flags.
    override func copyFields(from o: CAAnimation) {
        super.copyFields(from: o)
        let o = unsafeDowncast(o, to: CAPropertyAnimation.self)
        keyPath = o.keyPath; isAdditive = o.isAdditive; isCumulative = o.isCumulative
    }
}
