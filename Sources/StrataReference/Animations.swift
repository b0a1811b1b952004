import Foundation

/// The base of every animation: timing (CAMediaTiming), a timing function, a delegate, and
/// the CAAction behaviour of adding a copy of itself to the layer.
open class CAAnimation: NSObject, CAMediaTiming, CAAction, NSCopying {
    /// Begin time in the layer's time; 0 = the time of the commit that adds it.
    open var beginTime: Double = 0
    /// One iteration in seconds; 0 = the transaction's duration (0.25 s by default).
    open var duration: Double = 0
    /// Rate of the animation's time relative to its layer's.
    open var speed: Float = 1
    /// Offset added to the animation's local time.
    open var timeOffset: Double = 0
    /// Iterations; 0 = once, `.infinity` = forever.
    open var repeatCount: Float = 0
    /// Seconds to repeat for (0 = unused).
    open var repeatDuration: Double = 0
    /// Plays forwards then backwards.
    open var autoreverses = false
    /// What holds outside the active time.
    open var fillMode: CAMediaTimingFillMode = .removed
    /// The pacing curve; nil = linear (a run action takes the transaction's when set).
    open var timingFunction: CAMediaTimingFunction?
    /// Retained, as Core Animation does.
    open var delegate: CAAnimationDelegate?
    /// Removed from the layer when it completes (default true).
    open var isRemovedOnCompletion = true

    /// The running state of a copy added to a layer (nil on animations nobody added).
    var runtime: AnimationRuntime?

    /// A new animation with default timing (`required`, so copies keep the dynamic type).
    public required override init() { super.init() }

    /// Core Animation's factory spelling.
    open class func animation() -> Self { self.init() }

    /// Default values of an animation's properties (Apple's API; nil for every key here).
    open class func defaultValue(forKey key: String) -> Any? { nil }

    /// A copy with the same settings (what `add(_:forKey:)` stores).
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = type(of: self).init()
        copy.beginTime = beginTime
        copy.duration = duration
        copy.speed = speed
        copy.timeOffset = timeOffset
        copy.repeatCount = repeatCount
        copy.repeatDuration = repeatDuration
        copy.autoreverses = autoreverses
        copy.fillMode = fillMode
        copy.timingFunction = timingFunction
        copy.delegate = delegate
        copy.isRemovedOnCompletion = isRemovedOnCompletion
        copy.keyedValues = keyedValues
        return copy
    }

    /// Values stored under keys of the application's own (Apple's CAAnimation is
    /// key-value coding compliant for any key: `anim.setValue("fade", forKey: "id")`).
    /// Copies keep them.
    private var keyedValues: [String: Any] = [:]

    /// The value stored under `key` (nil when none).
    open func value(forKey key: String) -> Any? { keyedValues[key] }

    /// Stores `value` under `key` (nil removes it).
    open func setValue(_ value: Any?, forKey key: String) { keyedValues[key] = value }

    /// Adds a copy of the animation to `anObject` (a `CALayer`) under `event`; a property
    /// animation with no key path animates `event`, and unset from/to values are taken from
    /// the change that triggered the action.
    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        guard let layer = anObject as? CALayer else {
            StrataDiagnostics.emit(.invalidArgument, "CAAnimation.run(forKey: \(event)): object is not a CALayer")
            return
        }
        let copy = self.copy() as! CAAnimation
        if let property = copy as? CAPropertyAnimation, property.keyPath == nil { property.keyPath = event }
        layer.engine.showStart(of: copy, on: layer)
        layer.engine.addAnimation(copy, forKey: event, to: layer, fromAction: true)
    }

    /// Whether a spring animation's parameters are valid (true for every other animation);
    /// reports why not. (The timing's checks are the shared `validateTiming()`.)
    func validateSpring() -> Bool {
        if let spring = self as? CASpringAnimation {
            let fields: [(String, CGFloat)] = [("mass", spring.mass), ("stiffness", spring.stiffness),
                                               ("damping", spring.damping), ("initialVelocity", spring.initialVelocity)]
            for (name, value) in fields where !value.isFinite {
                StrataDiagnostics.emit(.nonFiniteValue, "CASpringAnimation.\(name) = \(value) must be finite; animation not added")
                return false
            }
            if !(spring.mass > 0 && spring.stiffness > 0 && spring.damping >= 0) {
                StrataDiagnostics.emit(.invalidArgument,
                    "CASpringAnimation: mass (\(spring.mass)) and stiffness (\(spring.stiffness)) must be > 0 and damping (\(spring.damping)) >= 0; animation not added")
                return false
            }
        }
        return true
    }
}

/// An animation of one key path of a layer.
open class CAPropertyAnimation: CAAnimation {
    /// The animated key path (`"position"`, `"position.x"`, `"transform.rotation.z"` ...).
    open var keyPath: String?
    /// Adds to the current render value instead of replacing it.
    open var isAdditive = false
    /// Each repeat starts at the previous repeat's end.
    open var isCumulative = false

    /// An animation of `path`.
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! CAPropertyAnimation
        copy.keyPath = keyPath
        copy.isAdditive = isAdditive
        copy.isCumulative = isCumulative
        return copy
    }
}

/// Interpolates a key path between two values (SEMANTICS.md's from/to/by table).
open class CABasicAnimation: CAPropertyAnimation {
    /// Start value (nil: see the table).
    open var fromValue: Any?
    /// End value.
    open var toValue: Any?
    /// Relative change.
    open var byValue: Any?

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! CABasicAnimation
        copy.fromValue = fromValue
        copy.toValue = toValue
        copy.byValue = byValue
        return copy
    }
}

/// A basic animation that moves like a mass on a damped spring (SEMANTICS.md, springs).
open class CASpringAnimation: CABasicAnimation {
    /// Mass (default 1).
    open var mass: CGFloat = 1
    /// Stiffness (default 100).
    open var stiffness: CGFloat = 100
    /// Damping (default 10).
    open var damping: CGFloat = 10
    /// Initial velocity, in progress per second (default 0).
    open var initialVelocity: CGFloat = 0
    /// Accepted; damping ratios of 1 or more are critically damped either way.
    open var allowsOverdamping = false

    public required init() { super.init() }

    /// Apple's perceptual parameterisation: stiffness (2 pi / duration)^2, damping
    /// 4 pi (1 - bounce) / duration, or 4 pi / (duration (1 + bounce)) for negative bounce.
    public convenience init(perceptualDuration: Double, bounce: Double) {
        self.init()
        let d = perceptualDuration > 0 ? perceptualDuration : 0.5
        stiffness = CGFloat(4 * Double.pi * Double.pi / (d * d))
        damping = CGFloat(bounce >= 0 ? 4 * Double.pi * (1 - bounce) / d : 4 * Double.pi / (d * (1 + bounce)))
    }

    /// Seconds until |1 - progress| stays below 0.001: found by stepping the envelope
    /// forward in 1 ms steps, then bisecting the last crossing (infinite without damping).
    open var settlingDuration: Double {
        guard let m = SpringMotion(self) else { return 0 }
        return m.settlingTime()
    }

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! CASpringAnimation
        copy.mass = mass
        copy.stiffness = stiffness
        copy.damping = damping
        copy.initialVelocity = initialVelocity
        copy.allowsOverdamping = allowsOverdamping
        return copy
    }
}

/// The damped oscillator of WebKit's SpringSolver, as SEMANTICS.md writes it.
struct SpringMotion {
    let w0: Double, zeta: Double, velocity: Double

    init?(_ s: CASpringAnimation) {
        let m = Double(s.mass), k = Double(s.stiffness), c = Double(s.damping)
        guard m > 0, k > 0, c >= 0, m.isFinite, k.isFinite, c.isFinite, s.initialVelocity.isFinite else { return nil }
        w0 = (k / m).squareRoot()
        zeta = c / (2 * (k * m).squareRoot())
        velocity = Double(s.initialVelocity)
    }

    func progress(at t: Double) -> Double {
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - velocity) / wd
            return 1 - exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        }
        return 1 - (1 + (w0 - velocity) * t) * exp(-w0 * t)
    }

    /// |1 - progress| or, under-damped, its envelope exp(-zeta w0 t) sqrt(1 + B^2).
    func envelope(at t: Double) -> Double {
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - velocity) / wd
            return exp(-zeta * w0 * t) * (1 + b * b).squareRoot()
        }
        return abs(1 - progress(at: t))
    }

    func settlingTime() -> Double {
        guard zeta > 0 else { return .infinity }
        // The envelope decays as exp(-zeta w0 t) (exp(-w0 t) critically damped): well past
        // 40 time constants it is below 0.001 for good; step back from there.
        let decay = zeta < 1 ? zeta * w0 : w0
        var t = 40 / decay + 1
        let step = min(1e-3, 0.01 / decay)
        while t > 0 && envelope(at: t) < 1e-3 { t -= step * max(1, t / 100) }
        guard t > 0 else { return 0 }
        var lo = t, hi = t + step * max(1, t / 100)
        for _ in 0..<100 where hi - lo > 1e-13 { let mid = (lo + hi) / 2; if envelope(at: mid) >= 1e-3 { lo = mid } else { hi = mid } }
        return lo
    }
}

/// Animates a key path through a sequence of values or along a path.
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// The keyframe values.
    open var values: [Any]?
    /// A path for point properties (overrides `values`).
    open var path: CGPath?
    /// Times (0...1) of each keyframe.
    open var keyTimes: [NSNumber]?
    /// One timing function per segment.
    open var timingFunctions: [CAMediaTimingFunction]?
    /// How in-between values are computed.
    open var calculationMode: CAAnimationCalculationMode = .linear
    /// Turning along a path.
    open var rotationMode: CAAnimationRotationMode?
    /// Tension, continuity and bias of cubic modes (accepted, not used).
    open var tensionValues: [NSNumber]?
    /// See `tensionValues`.
    open var continuityValues: [NSNumber]?
    /// See `tensionValues`.
    open var biasValues: [NSNumber]?

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! CAKeyframeAnimation
        copy.values = values
        copy.path = path
        copy.keyTimes = keyTimes
        copy.timingFunctions = timingFunctions
        copy.calculationMode = calculationMode
        copy.rotationMode = rotationMode
        copy.tensionValues = tensionValues
        copy.continuityValues = continuityValues
        copy.biasValues = biasValues
        return copy
    }
}

/// Runs several animations together on the group's timeline.
open class CAAnimationGroup: CAAnimation {
    /// The grouped animations.
    open var animations: [CAAnimation]?

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! CAAnimationGroup
        copy.animations = animations?.map { $0.copy() as! CAAnimation }
        return copy
    }
}

/// A transition of a layer's whole appearance. It animates no property: it always runs
/// under the key `kCATransition`, and a renderer reads its type, subtype and progress.
open class CATransition: CAAnimation {
    /// The kind of transition (default fade).
    open var type: CATransitionType = .fade
    /// The direction (nil = from the left).
    open var subtype: CATransitionSubtype?
    /// Progress at the start, 0...1.
    open var startProgress: Float = 0
    /// Progress at the end, 0...1.
    open var endProgress: Float = 1

    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = super.copy(with: zone) as! CATransition
        copy.type = type
        copy.subtype = subtype
        copy.startProgress = startProgress
        copy.endProgress = endProgress
        return copy
    }
}

