import Foundation

/// Animates a key path through a sequence of values or along a path.
open class CAKeyframeAnimation: CAPropertyAnimation {
    /// The keyframe values.
    @exclusivity(unchecked) open var values: [Any]?
    /// A path for point properties (overrides `values`).
    @exclusivity(unchecked) open var path: CGPath?
    /// Times (0...1) of each keyframe.
    @exclusivity(unchecked) open var keyTimes: [NSNumber]?
    /// One timing function per segment.
    @exclusivity(unchecked) open var timingFunctions: [CAMediaTimingFunction]?
    /// How in-between values are computed.
    @exclusivity(unchecked) open var calculationMode: CAAnimationCalculationMode = .linear
    /// Turning along a path.
    @exclusivity(unchecked) open var rotationMode: CAAnimationRotationMode?
    /// Tension, continuity and bias of cubic modes.
    @exclusivity(unchecked) open var tensionValues: [NSNumber]?
    /// See `tensionValues`.
    @exclusivity(unchecked) open var continuityValues: [NSNumber]?
    /// See `tensionValues`.
    @exclusivity(unchecked) open var biasValues: [NSNumber]?

    /// A copy has every keyframe property (values, path, key times, timing functions,
    /// modes, tension, continuity and bias).
    override func copyFields(from o: CAAnimation) {
        super.copyFields(from: o)
        let o = unsafeDowncast(o, to: CAKeyframeAnimation.self)
        values = o.values; path = o.path; keyTimes = o.keyTimes; timingFunctions = o.timingFunctions
        calculationMode = o.calculationMode; rotationMode = o.rotationMode
        tensionValues = o.tensionValues; continuityValues = o.continuityValues; biasValues = o.biasValues
    }
}
