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
        return copy
    }

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

    /// Is this animation's timing usable (finite, non-negative durations ...)? Reports why not.
    func validateTiming() -> Bool {
        let fields: [(String, Double)] = [("beginTime", beginTime), ("duration", duration),
                                          ("speed", Double(speed)), ("timeOffset", timeOffset)]
        for (name, value) in fields where !value.isFinite {
            StrataDiagnostics.emit(.nonFiniteValue, "\(type(of: self)).\(name) = \(value) must be finite; animation not added")
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

