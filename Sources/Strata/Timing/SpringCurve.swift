import Foundation

/// A spring's motion in one formula for every damping (what the timing store's columns hold):
/// progress(t) = 1 - exp(-a t) (cos(w t) + b sin(w t) + c t). Under-damped (zeta < 1):
/// a = zeta w0, w = w0 sqrt(1 - zeta^2), b = (zeta w0 - v) / w, c = 0; critically or
/// over-damped: a = w0, w = 0, b = 0, c = w0 - v (SEMANTICS.md's two cases).
struct SpringCurve: Hashable {
    var mass: Double, stiffness: Double, damping: Double, velocity: Double
    var a = 0.0, w = 0.0, b = 0.0, c = 0.0

    init?(mass: Double, stiffness: Double, damping: Double, velocity: Double) {
        guard mass > 0, stiffness > 0, damping >= 0, mass.isFinite, stiffness.isFinite, damping.isFinite,
              velocity.isFinite else { return nil }
        self.mass = mass; self.stiffness = stiffness; self.damping = damping; self.velocity = velocity
        let w0 = (stiffness / mass).squareRoot()
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        if zeta < 1 {
            a = zeta * w0
            w = w0 * (1 - zeta * zeta).squareRoot()
            b = (zeta * w0 - velocity) / w
        } else {
            a = w0
            c = w0 - velocity
        }
    }

    static func == (l: SpringCurve, r: SpringCurve) -> Bool {
        l.mass == r.mass && l.stiffness == r.stiffness && l.damping == r.damping && l.velocity == r.velocity
    }

    func hash(into h: inout Hasher) {
        h.combine(mass); h.combine(stiffness); h.combine(damping); h.combine(velocity)
    }

    /// atan(b): the phase of cos(w t) + b sin(w t) written as sqrt(1 + b^2) cos(w t - phase).
    var phase: Double { Foundation.atan(b) }

    /// Progress at `t` seconds of the animation's local time (may pass 1).
    @inline(__always)
    func progress(_ t: Double) -> Double {
        1 - Foundation.exp(-a * t) * (Foundation.cos(w * t) + b * Foundation.sin(w * t) + c * t)
    }

    /// |1 - progress|'s envelope: exp(-a t) sqrt(1 + b^2) under-damped, |1 + c t| exp(-a t)
    /// otherwise.
    func envelope(_ t: Double) -> Double {
        w > 0 ? Foundation.exp(-a * t) * (1 + b * b).squareRoot() : Swift.abs(1 + c * t) * Foundation.exp(-a * t)
    }

    /// The last time the envelope is at `threshold` or above (0 if never).
    func settlingTime(threshold: Double) -> Double {
        guard a > 0 else { return .infinity }
        if w > 0 { return Swift.max(0, Foundation.log((1 + b * b).squareRoot() / threshold) / a) }
        // |1 + c t| e^(-a t) falls for good after its last turning point, t = 1/a - 1/c (c != 0).
        let turn = c != 0 ? Swift.max(0, 1 / a - 1 / c) : 0
        var lo = turn, hi = Swift.max(turn, 1 / a)
        if envelope(lo) < threshold {
            // Below already at the turn: the crossing is on the first, falling stretch before it.
            guard envelope(0) >= threshold else { return 0 }
            hi = c < 0 ? Swift.min(lo, -1 / c) : lo
            lo = 0
        } else {
            while envelope(hi) >= threshold { lo = hi; hi *= 2 }
        }
        for _ in 0..<200 where hi - lo > 1e-12 * Swift.max(1, hi) {
            let mid = (lo + hi) / 2
            if envelope(mid) >= threshold { lo = mid } else { hi = mid }
        }
        return lo
    }
}
