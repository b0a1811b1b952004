import Foundation

/// Time conversion through a layer's ancestors (each one a CAMediaTiming object).
extension CALayer {
    func ancestry() -> [CALayer] {
        var chain: [CALayer] = []
        var x: CALayer? = self
        while let l = x { chain.append(l); x = l.superlayer }
        return chain
    }

    /// Local time of this layer for global time g: t_local = (t_parent - beginTime) * speed + timeOffset, root first.
    func globalToLocal(_ g: Double) -> Double {
        var t = g
        for l in ancestry().reversed() { t = (t - l.beginTime) * Double(l.speed) + l.timeOffset }
        return t
    }

    /// Global time of local time t (inverse of `globalToLocal`; a zero speed maps to beginTime).
    func localToParentChain(_ t0: Double) -> Double {
        var t = t0
        for l in ancestry() {
            let s = Double(l.speed)
            t = s == 0 ? l.beginTime : (t - l.timeOffset) / s + l.beginTime
        }
        return t
    }

}

