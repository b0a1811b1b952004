import Foundation

/// A basic animation whose progress follows a damped spring (SEMANTICS.md "Fidelity rules",
/// springs): a mass on a spring of `stiffness` with `damping`, starting with
/// `initialVelocity`, released from the start value toward the end value. Under-damped
/// springs overshoot (progress passes 1); the animation still ends at its `duration`, so
/// set `duration = settlingDuration` to let it come to rest.
///
/// Animations of one transaction with the same spring and timing share one solve per frame
/// in the timing store; springs of their own are solved 8 entries at a time.
///
///     let s = CASpringAnimation(keyPath: "position.x")
///     s.fromValue = 0; s.toValue = 100
///     s.damping = 8
///     s.duration = s.settlingDuration
///     layer.add(s, forKey: "bounce")
open class CASpringAnimation: CABasicAnimation {
    /// The mass of the object on the spring (default 1; must be greater than 0).
    @exclusivity(unchecked) open var mass: CGFloat = 1
    /// The spring's stiffness (default 100; must be greater than 0).
    @exclusivity(unchecked) open var stiffness: CGFloat = 100
    /// The friction (default 10; 0 never settles; must not be negative).
    @exclusivity(unchecked) open var damping: CGFloat = 10
    /// The initial velocity in progress per second: 1 covers the whole distance in a second
    /// (default 0; negative moves away from the end value first).
    @exclusivity(unchecked) open var initialVelocity: CGFloat = 0
    /// Accepted for Apple's API: springs with a damping ratio of 1 or more follow the
    /// critically damped motion either way (as WebKit's solver).
    @exclusivity(unchecked) open var allowsOverdamping = false

    /// A spring of default parameters.
    public required init() { super.init() }

    /// A spring that takes about `perceptualDuration` seconds and bounces by `bounce`
    /// (0 none, up to 1; negative values damp more), as SwiftUI's and Apple's spring
    /// parameterisation: mass 1, stiffness (2 pi / duration)^2, damping 4 pi (1 - bounce) /
    /// duration (4 pi / (duration (1 + bounce)) when bounce is negative).
    public convenience init(perceptualDuration: Double, bounce: Double) {
        self.init()
        let d = perceptualDuration > 0 ? perceptualDuration : 0.5
        stiffness = CGFloat((2 * Double.pi / d) * (2 * Double.pi / d))
        damping = CGFloat(bounce >= 0 ? 4 * Double.pi * (1 - bounce) / d : 4 * Double.pi / (d * (1 + bounce)))
    }

    /// The time, in seconds of the animation's local time, after which the spring stays within
    /// 0.001 of its end value: where the envelope of |1 - progress| falls below 0.001.
    /// Infinite for a spring with no damping; 0 when the parameters are not valid.
    open var settlingDuration: Double {
        guard let s = SpringCurve(self) else { return 0 }
        return s.settlingTime(threshold: 1e-3)
    }

    /// A copy has the same spring.
    override func copyFields(from o: CAAnimation) {
        super.copyFields(from: o)
        let o = unsafeDowncast(o, to: CASpringAnimation.self)
        mass = o.mass; stiffness = o.stiffness; damping = o.damping; initialVelocity = o.initialVelocity
        allowsOverdamping = o.allowsOverdamping
    }

    override func springCurve() -> SpringCurve? { SpringCurve(self) }

    /// Are the spring's parameters valid (finite, mass and stiffness positive, damping not
    /// negative)? Reports why not.
    override func validateSpring() -> Bool {
        let values: [(String, Double)] = [("mass", Double(mass)), ("stiffness", Double(stiffness)),
                                          ("damping", Double(damping)), ("initialVelocity", Double(initialVelocity))]
        for (name, v) in values where !v.isFinite {
            StrataDiagnostics.emit(.nonFiniteValue, "CASpringAnimation.\(name) = \(v) must be finite; animation not added")
            return false
        }
        guard mass > 0, stiffness > 0, damping >= 0 else {
            StrataDiagnostics.emit(.invalidArgument,
                "CASpringAnimation: mass (\(mass)) and stiffness (\(stiffness)) must be > 0 and damping (\(damping)) >= 0; animation not added")
            return false
        }
        return true
    }
}

extension SpringCurve {
    /// The curve of a spring animation's parameters (nil when they cannot make one).
    init?(_ s: CASpringAnimation) {
        self.init(mass: Double(s.mass), stiffness: Double(s.stiffness), damping: Double(s.damping),
                  velocity: Double(s.initialVelocity))
    }
}
