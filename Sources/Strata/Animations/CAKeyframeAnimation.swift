import Foundation

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
