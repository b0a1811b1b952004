import Foundation

/// Time conversion through a layer's ancestors (each one a CAMediaTiming object).
extension CALayer {
    func ancestry() -> [CALayer] {
        var chain: [CALayer] = []
        var x: CALayer? = self
        while let l = x { chain.append(l); x = l.superlayer }
        return chain
    }

    /// Local time of this layer for global time g, root first: each layer's
    /// t_local = (t_parent - beginTime) * speed + timeOffset, folded by its duration,
    /// repeatCount, repeatDuration, autoreverses and fillMode as an animation's local time
    /// is (`TimingStore.layerLocalTime`; outside a layer's active time, unfolded). A
    /// presentation copy converts through its own fields only.
    func globalToLocal(_ g: Double) -> Double {
        if row >= 0 { return context.layers.localTime(row, g) }
        var p = TimingParameters()
        p.speed = Double(speed)
        p.timeOffset = timeOffset
        p.duration = duration
        p.repeatCount = Double(repeatCount)
        p.repeatDuration = repeatDuration
        p.autoreverses = autoreverses
        p.fill = fillMode.code
        let defaults = beginTime == 0 && p.speed == 1 && p.timeOffset == 0 && p.duration == 0 && p.repeatCount == 0
            && p.repeatDuration == 0 && !p.autoreverses && p.fill == 0
        return defaults ? g : TimingStore.layerLocalTime(parentTime: g, begin: beginTime, p).time
    }

    /// Global time of local time t: the inverse of the linear part of `globalToLocal`, from
    /// the layer up (a folded local time is taken as one of the first iteration; a zero speed
    /// maps to beginTime).
    func localToParentChain(_ t0: Double) -> Double {
        var t = t0
        for l in ancestry() {
            let s = Double(l.speed)
            t = s == 0 ? l.beginTime : (t - l.timeOffset) / s + l.beginTime
        }
        return t
    }

}
