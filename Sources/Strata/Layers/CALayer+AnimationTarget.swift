/// The layer as the animation compiler reads it (`AnimationTarget`): its class, custom keys
/// and object values; everything else it reads from the layer store by `row`.
extension CALayer: AnimationTarget {
    var isShapeLayer: Bool { self is CAShapeLayer }
}
