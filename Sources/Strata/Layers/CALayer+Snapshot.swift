import Foundation

extension CALayer {
    /// An object property's value as presented: the animated value while an animation
    /// drives it, else the committed one.
    func presentedObject(_ p: PropertyID) -> Any? {
        guard let o = objectState else { return nil }
        if let animated = o.animated[p.raw] { return CALayer.shown(animated) }
        return o.committed[p.raw]
    }

    /// An animated object value as shown: a morphing path's `CGPath` (made on this read).
    @inline(__always)
    static func shown(_ animated: Any?) -> Any? {
        if let m = animated as? PathMorph { return m.path }
        return animated
    }
}
