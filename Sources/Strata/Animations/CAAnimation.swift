import Foundation

/// The base of every animation: timing (CAMediaTiming), a timing function, a delegate, and
/// the CAAction behaviour of adding a copy of itself to the layer.
open class CAAnimation: NSObject, CAMediaTiming, CAAction, NSCopying {
    // Every stored property is a plain value read and written whole: `@exclusivity(unchecked)`
    // spares each access the runtime's access tracking (`swift_beginAccess` and the access set,
    // 12% of an explicit add's samples: `add` copies the animation, writing each value, and
    // reads them back).
    /// Begin time: an absolute media time; 0 = the time of the commit that adds it.
    @exclusivity(unchecked) open var beginTime: Double = 0
    /// One iteration in seconds; 0 = the transaction's duration (0.25 s by default).
    @exclusivity(unchecked) open var duration: Double = 0
    /// Rate of the animation's time relative to its layer's.
    @exclusivity(unchecked) open var speed: Float = 1
    /// Offset added to the animation's local time.
    @exclusivity(unchecked) open var timeOffset: Double = 0
    /// Iterations; 0 = once, `.infinity` = forever.
    @exclusivity(unchecked) open var repeatCount: Float = 0
    /// Seconds to repeat for (0 = unused).
    @exclusivity(unchecked) open var repeatDuration: Double = 0
    /// Plays forwards then backwards.
    @exclusivity(unchecked) open var autoreverses = false
    /// What holds outside the active time.
    @exclusivity(unchecked) open var fillMode: CAMediaTimingFillMode = .removed
    /// The pacing curve; nil = linear (a run action takes the transaction's when set).
    @exclusivity(unchecked) open var timingFunction: CAMediaTimingFunction?
    /// Retained, as Core Animation does.
    @exclusivity(unchecked) open var delegate: CAAnimationDelegate?
    /// Removed from the layer when it completes (default true).
    @exclusivity(unchecked) open var isRemovedOnCompletion = true

    /// A new animation with default timing (`required`, so copies keep the dynamic type).
    public required override init() { super.init() }

    /// Core Animation's factory spelling.
    open class func animation() -> Self { self.init() }

    /// Default values of an animation's properties (Apple's API; nil for every key here).
    open class func defaultValue(forKey key: String) -> Any? { nil }

    /// A copy with the same settings (what `add(_:forKey:)` stores): an animation of the same
    /// class with every property of its own and of its superclasses (`copyFields(from:)`).
    open func copy(with zone: NSZone? = nil) -> Any {
        let c = type(of: self).init()
        c.copyFields(from: self)
        return c
    }

    /// `copy(with: nil)`, as NSObject's does, without NSObject's search for the NSCopying
    /// conformance (a lookup in the runtime's conformance cache on every `add`).
    open override func copy() -> Any { copy(with: nil) }

    /// Copies `o`'s properties into this new animation of `o`'s own class: each class
    /// overrides it for the properties it declares, after its superclass's.
    func copyFields(from o: CAAnimation) { copyTiming(from: o) }

    func copyTiming(from o: CAAnimation) {
        beginTime = o.beginTime; duration = o.duration; speed = o.speed; timeOffset = o.timeOffset
        repeatCount = o.repeatCount; repeatDuration = o.repeatDuration; autoreverses = o.autoreverses
        fillMode = o.fillMode; timingFunction = o.timingFunction; delegate = o.delegate
        isRemovedOnCompletion = o.isRemovedOnCompletion
        if _slowPath(AnimationKeyedValues.inUse) { AnimationKeyedValues.copy(from: o, to: self) }
    }

    /// A spring animation's spring (`CASpringAnimation` overrides it): a method, so the
    /// timing store asks without a dynamic cast on every add.
    func springCurve() -> SpringCurve? { nil }

    /// Whether a spring animation's parameters are valid (true for every other animation).
    func validateSpring() -> Bool { true }

    /// Values stored under keys of the application's own (Apple's CAAnimation is
    /// key-value coding compliant for any key: `anim.setValue("fade", forKey: "id")`).
    /// Copies keep them. (Kept in a side table, not a stored property: an animation that
    /// stores none pays nothing for it.)
    open func value(forKey key: String) -> Any? { AnimationKeyedValues.value(self, key) }

    /// Stores `value` under `key` (nil removes it).
    open func setValue(_ value: Any?, forKey key: String) { AnimationKeyedValues.set(self, key, value) }

    /// Adds a copy of the animation to `anObject` (a `CALayer`) under `event`; a property
    /// animation with no key path animates `event`, and unset from/to values are taken from
    /// the change that triggered the action.
    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        guard let layer = anObject as? CALayer else {
            StrataDiagnostics.emit(.invalidArgument, "CAAnimation.run(forKey: \(event)): object is not a CALayer")
            return
        }
        layer.runAnimationAction(self, event: event, in: layer.context)
    }
}

/// The keyed values of animations that have any, by animation (weakly: an entry whose
/// animation is gone is dropped when its identifier is seen again or at the next store).
enum AnimationKeyedValues {
    private final class Entry {
        weak var owner: CAAnimation?
        var values: [String: Any]
        init(_ owner: CAAnimation, _ values: [String: Any]) { self.owner = owner; self.values = values }
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var table: [ObjectIdentifier: Entry] = [:]
    /// Set once any animation has stored a value: copies look only then.
    nonisolated(unsafe) static var inUse = false

    static func value(_ a: CAAnimation, _ key: String) -> Any? {
        guard inUse else { return nil }
        lock.lock(); defer { lock.unlock() }
        guard let e = table[ObjectIdentifier(a)], e.owner === a else { return nil }
        return e.values[key]
    }

    static func set(_ a: CAAnimation, _ key: String, _ value: Any?) {
        lock.lock(); defer { lock.unlock() }
        inUse = true
        if table.count > 64 && table.count.isMultiple(of: 64) { table = table.filter { $0.value.owner != nil } }
        if let e = table[ObjectIdentifier(a)], e.owner === a {
            e.values[key] = value
        } else if let value {
            table[ObjectIdentifier(a)] = Entry(a, [key: value])
        }
    }

    static func copy(from o: CAAnimation, to c: CAAnimation) {
        lock.lock(); defer { lock.unlock() }
        guard let e = table[ObjectIdentifier(o)], e.owner === o, !e.values.isEmpty else { return }
        table[ObjectIdentifier(c)] = Entry(c, e.values)
    }
}
