import Foundation

/// A layer that draws its sublayers `instanceCount` times (Apple's `CAReplicatorLayer`):
/// instance k is transformed by `instanceTransform` applied k times, its colour multiplied by
/// `instanceColor` with the offsets added k times, and its animations delayed by k times
/// `instanceDelay`. Every property but `preservesDepth` is animatable, implicitly too.
open class CAReplicatorLayer: CALayer {
    /// Copies drawn, the original included (1 by default).
    open var instanceCount: Int {
        get { ToolboxValues.int(value(forKey: "instanceCount"), 1) }
        set { setValue(newValue, forKey: "instanceCount") }
    }
    /// Whether instances keep their depth (false: flattened into the layer's plane).
    open var preservesDepth: Bool {
        get { ToolboxValues.bool(value(forKey: "preservesDepth"), false) }
        set { setValue(newValue, forKey: "preservesDepth") }
    }
    /// Seconds each instance's time lags the one before (0 by default).
    open var instanceDelay: Double {
        get { ToolboxValues.double(value(forKey: "instanceDelay"), 0) }
        set { setValue(newValue, forKey: "instanceDelay") }
    }
    /// The transform from one instance to the next, about the layer's centre (identity).
    open var instanceTransform: CATransform3D {
        get { ToolboxValues.transform(value(forKey: "instanceTransform")) }
        set { setValue(newValue, forKey: "instanceTransform") }
    }
    /// The colour the first instance is multiplied by (opaque white by default).
    open var instanceColor: CGColor? {
        get { ToolboxValues.color(value(forKey: "instanceColor")) }
        set { setValue(newValue, forKey: "instanceColor") }
    }
    /// Added to the red component per instance (0 by default).
    open var instanceRedOffset: Float {
        get { ToolboxValues.float(value(forKey: "instanceRedOffset"), 0) }
        set { setValue(newValue, forKey: "instanceRedOffset") }
    }
    /// Added to the green component per instance (0 by default).
    open var instanceGreenOffset: Float {
        get { ToolboxValues.float(value(forKey: "instanceGreenOffset"), 0) }
        set { setValue(newValue, forKey: "instanceGreenOffset") }
    }
    /// Added to the blue component per instance (0 by default).
    open var instanceBlueOffset: Float {
        get { ToolboxValues.float(value(forKey: "instanceBlueOffset"), 0) }
        set { setValue(newValue, forKey: "instanceBlueOffset") }
    }
    /// Added to the alpha component per instance (0 by default).
    open var instanceAlphaOffset: Float {
        get { ToolboxValues.float(value(forKey: "instanceAlphaOffset"), 0) }
        set { setValue(newValue, forKey: "instanceAlphaOffset") }
    }

    static let animatableKeys: Set<String> = ["instanceCount", "instanceDelay", "instanceTransform", "instanceColor",
                                              "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset",
                                              "instanceAlphaOffset"]

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "instanceCount": return 1
        case "preservesDepth": return false
        case "instanceDelay": return 0.0
        case "instanceTransform": return CATransform3DIdentity
        case "instanceColor": return CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        case "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset": return Float(0)
        default: return super.defaultValue(forKey: key)
        }
    }

    open override class func defaultAction(forKey event: String) -> CAAction? {
        animatableKeys.contains(event) ? ToolboxImplicitAction.shared : super.defaultAction(forKey: event)
    }

    /// Instance `k`'s colour multiplier: `instanceColor` (white when nil) plus k times the
    /// offsets, each component clamped to 0...1, as Core Animation composes them.
    public func effectiveInstanceColor(at k: Int) -> [CGFloat] {
        let c = ReplicatorInstances(self).tint(k)
        return [CGFloat(c.x), CGFloat(c.y), CGFloat(c.z), CGFloat(c.w)]
    }

    /// Instance `k`'s transform: `instanceTransform` concatenated k times.
    public func effectiveInstanceTransform(at k: Int) -> CATransform3D {
        var m = CATransform3DIdentity
        let step = instanceTransform
        for _ in 0..<max(0, k) { m = CATransform3DConcat(m, step) }
        return m
    }
}

/// A layer that keeps its sublayers in 3-D (Apple's `CATransformLayer`): it draws nothing
/// of its own (background, border, contents, shadow and mask are ignored, as are its
/// opacity's flattening and `masksToBounds`); its sublayers are placed with their full 3-D
/// transforms.
open class CATransformLayer: CALayer {
    /// A transform layer is never the layer a point hits: only its sublayers are.
    open override func hitTest(_ p: CGPoint) -> CALayer? {
        let hit = super.hitTest(p)
        return hit === self ? nil : hit
    }
}

/// What a render snapshot repeats for one replicator layer: its presented instance count,
/// step transform, bounds centre and colours (read once per snapshot, from the presentation
/// copy).
struct ReplicatorInstances {
    /// Instances drawn (0 or more).
    var count: Int
    /// `instanceTransform`.
    var step: CATransform3D
    /// The centre of the layer's bounds, about which the step applies.
    var center: (x: Double, y: Double)
    /// `instanceColor` as RGBA (white when nil), and the per-instance offsets.
    var color: SIMD4<Double>
    var offsets: SIMD4<Double>
    /// `instanceDelay`: instance k shows its sublayers as they are k times this earlier.
    var delay: Double

    /// `l`'s instance values (a grey `instanceColor` counts for red, green and blue).
    init(_ l: CAReplicatorLayer) {
        let b = l.bounds
        let k = l.instanceColor?.components ?? []
        count = max(0, l.instanceCount)
        step = l.instanceTransform
        center = (Double(b.midX), Double(b.midY))
        color = k.isEmpty ? SIMD4(1, 1, 1, 1)
            : k.count >= 4 ? SIMD4(Double(k[0]), Double(k[1]), Double(k[2]), Double(k[3]))
            : SIMD4(Double(k[0]), Double(k[0]), Double(k[0]), Double(k[k.count - 1]))
        offsets = SIMD4(Double(l.instanceRedOffset), Double(l.instanceGreenOffset),
                        Double(l.instanceBlueOffset), Double(l.instanceAlphaOffset))
        delay = l.instanceDelay
    }

    /// Instance k's colour: the colour plus k offsets, each component clamped to 0...1.
    func tint(_ k: Int) -> SIMD4<Double> {
        var c = color + Double(k) * offsets
        for i in 0..<4 { c[i] = c[i] < 0 ? 0 : (c[i] > 1 ? 1 : c[i]) }
        return c
    }

    /// T(-centre) · m · T(centre): `m` (the step applied k times) about the bounds centre.
    func aboutCenter(_ m: CATransform3D) -> CATransform3D {
        CATransform3DConcat(CATransform3DConcat(CATransform3DMakeTranslation(-center.x, -center.y, 0), m),
                            CATransform3DMakeTranslation(center.x, center.y, 0))
    }

    /// Instance transforms and tints for k = 0 ..< count, in order (the step concatenated
    /// onto the previous instance's).
    func forEachInstance(_ body: (Int, CATransform3D, SIMD4<Double>) -> Void) {
        var m = CATransform3DIdentity
        for k in 0..<count {
            body(k, aboutCenter(m), tint(k))
            m = CATransform3DConcat(m, step)
        }
    }
}

extension CAReplicatorLayer {
    /// The instances as presented now (the presentation copy's values; the model's before
    /// the layer is first committed).
    var presentedInstances: ReplicatorInstances { ReplicatorInstances(presentation() ?? self) }
}
