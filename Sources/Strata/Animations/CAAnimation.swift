import Foundation

/// The base of every animation: timing (CAMediaTiming), a timing function, a delegate, and
/// the CAAction behaviour of adding a copy of itself to the layer.
open class CAAnimation: NSObject, CAMediaTiming, CAAction, NSCopying {
    /// Begin time: an absolute media time; 0 = the time of the commit that adds it.
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

    /// A new animation with default timing (`required`, so copies keep the dynamic type).
    public required override init() { super.init() }

    /// Core Animation's factory spelling.
    open class func animation() -> Self { self.init() }

    /// Default values of an animation's properties (Apple's API; nil for every key here).
    open class func defaultValue(forKey key: String) -> Any? { nil }

    /// A copy with the same settings (what `add(_:forKey:)` stores).
    open func copy(with zone: NSZone? = nil) -> Any {
        let c = type(of: self).init()
        c.copyTiming(from: self)
        return c
    }

    func copyTiming(from o: CAAnimation) {
        beginTime = o.beginTime; duration = o.duration; speed = o.speed; timeOffset = o.timeOffset
        repeatCount = o.repeatCount; repeatDuration = o.repeatDuration; autoreverses = o.autoreverses
        fillMode = o.fillMode; timingFunction = o.timingFunction; delegate = o.delegate
        isRemovedOnCompletion = o.isRemovedOnCompletion
    }

    /// Adds a copy of the animation to `anObject` (a `CALayer`) under `event`; a property
    /// animation with no key path animates `event`, and unset from/to values are taken from
    /// the change that triggered the action.
    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        guard let layer = anObject as? CALayer else {
            StrataDiagnostics.emit(.invalidArgument, "CAAnimation.run(forKey: \(event)): object is not a CALayer")
            return
        }
        layer.context.runAnimationAction(self, event: event, layer: layer)
    }

    /// Is this animation's timing valid (finite, non-negative duration ...)? Reports why not.
    func validateTiming() -> Bool {
        let values: [(String, Double)] = [("beginTime", beginTime), ("duration", duration),
            ("speed", Double(speed)), ("timeOffset", timeOffset)]
        for (name, v) in values where !v.isFinite {
            StrataDiagnostics.emit(.nonFiniteValue, "\(type(of: self)).\(name) = \(v) must be finite; animation not added")
            return false
        }
        if repeatDuration.isNaN {
            StrataDiagnostics.emit(.nonFiniteValue, "\(type(of: self)).repeatDuration is NaN; animation not added")
            return false
        }
        if repeatCount.isNaN || repeatCount < 0 {
            StrataDiagnostics.emit(.nonFiniteValue, "\(type(of: self)).repeatCount = \(repeatCount) must be >= 0; animation not added")
            return false
        }
        if duration < 0 || repeatDuration < 0 {
            StrataDiagnostics.emit(.invalidArgument, "\(type(of: self)): duration and repeatDuration must be >= 0; animation not added")
            return false
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

    /// A copy with the same settings, key path and additive and cumulative flags.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CAPropertyAnimation
        c.keyPath = keyPath; c.isAdditive = isAdditive; c.isCumulative = isCumulative
        return c
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

    /// A copy with the same settings and from, to and by values.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CABasicAnimation
        c.fromValue = fromValue; c.toValue = toValue; c.byValue = byValue
        return c
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
    /// Tension, continuity and bias of cubic modes.
    open var tensionValues: [NSNumber]?
    /// See `tensionValues`.
    open var continuityValues: [NSNumber]?
    /// See `tensionValues`.
    open var biasValues: [NSNumber]?

    /// A copy with the same settings and every keyframe property (values, path, key times,
    /// timing functions, modes, tension, continuity and bias).
    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CAKeyframeAnimation
        c.values = values; c.path = path; c.keyTimes = keyTimes; c.timingFunctions = timingFunctions
        c.calculationMode = calculationMode; c.rotationMode = rotationMode
        c.tensionValues = tensionValues; c.continuityValues = continuityValues; c.biasValues = biasValues
        return c
    }
}

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

    /// A copy with the same settings, type, subtype and progress range.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! CATransition
        c.type = type; c.subtype = subtype; c.startProgress = startProgress; c.endProgress = endProgress
        return c
    }
}
