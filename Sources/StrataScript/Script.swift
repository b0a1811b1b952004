/// A script of engine operations, run the same way on the fast engine and on the reference
/// engine: the scenes of the benchmark suite and the cases of differential fuzzing. JSON via
/// Codable; layer ids are small integers chosen by the script.
public struct Script: Codable, Equatable, Sendable {
    /// The operations, in order.
    public var ops: [Op]
    /// A script of `ops`.
    public init(_ ops: [Op]) { self.ops = ops }
}

/// One operation.
public indirect enum Op: Codable, Equatable, Sendable {
    /// A new CALayer (or CAShapeLayer) known to the script as `id`.
    case makeLayer(id: Int, shape: Bool)
    /// A layer of a subclass overriding `action(forKey:)`: the keys of `actions` are answered
    /// from it, every other key by `super`, whose CABasicAnimation gets `superDuration` when
    /// that is set (the documented way of adjusting the default action).
    case makeOverridingLayer(id: Int, shape: Bool, actions: [String: ScriptBehavior], superDuration: Double?)
    case addSublayer(parent: Int, child: Int)
    case insertSublayer(parent: Int, child: Int, index: Int)
    case removeFromSuperlayer(layer: Int)
    /// `setValue(_:forKeyPath:)`. For `fillMode` a scalar names the mode: 0 removed,
    /// 1 forwards, 2 backwards, 3 both.
    case set(layer: Int, keyPath: String, value: ScriptValue)
    case begin
    case commit
    case flush
    case setAnimationDuration(Double)
    case setDisableActions(Bool)
    case setTimingFunction(ScriptCurve?)
    /// A completion block that logs `completion <tag>` and then runs `ops`.
    case setCompletion(tag: Int, ops: [Op])
    /// `layer.actions` (per key: an animation, NSNull, or absent).
    case setActions(layer: Int, actions: [String: ScriptBehavior])
    /// A delegate answering `action(for:forKey:)` per key (absent keys: nil).
    case setDelegate(layer: Int, actions: [String: ScriptBehavior])
    /// `layer.style = ["actions": ...]`.
    case setStyle(layer: Int, actions: [String: ScriptBehavior])
    case add(layer: Int, key: String?, animation: ScriptAnimation)
    case removeAnimation(layer: Int, key: String)
    case removeAllAnimations(layer: Int)
    /// `renderFrame(atTime:)`.
    case frame(time: Double)
    /// Reads `presentation()?.value(forKeyPath:)` into the trace.
    case read(layer: Int, keyPath: String)
    /// Reads `animationKeys()` into the trace.
    case readKeys(layer: Int)
    /// Takes the renderer's `snapshot()` (the render-ready frame of the script's root) into
    /// the trace.
    case snapshot
    /// A layer of one of Core Animation's classes: "gradient", "text", "replicator",
    /// "transform" (CAGradientLayer, CATextLayer, CAReplicatorLayer, CATransformLayer).
    case makeClassLayer(id: Int, kind: String)
    /// A host `View` (100 x 100 at the origin) whose layer is layer `id`.
    case makeView(id: Int)
    /// `View.animate(withDuration:delay:options:...)` (the spring variant when `spring` is
    /// set) running `ops`; a completion, when tagged, logs `view <tag> <finished>`.
    case viewAnimate(ScriptViewBlock)
    /// `View.performWithoutAnimation` running `ops`.
    case performWithoutAnimation([Op])
}

/// A view animation block of a script.
public struct ScriptViewBlock: Codable, Equatable, Sendable {
    public var duration: Double
    public var delay: Double
    /// `View.AnimationOptions` raw bits.
    public var options: UInt
    /// Damping ratio and initial velocity of the spring variant.
    public var spring: [Double]?
    public var ops: [Op]
    public var tag: Int?

    public init(duration: Double, delay: Double = 0, options: UInt = 0, spring: [Double]? = nil, ops: [Op], tag: Int? = nil) {
        self.duration = duration; self.delay = delay; self.options = options; self.spring = spring; self.ops = ops; self.tag = tag
    }
}

/// What a lookup step answers for a key.
public enum ScriptBehavior: Codable, Equatable, Sendable {
    case null
    case animation(ScriptAnimation)
}

/// A boxed value.
public enum ScriptValue: Codable, Equatable, Sendable {
    case scalar(Double)
    case bool(Bool)
    case point(Double, Double)
    case size(Double, Double)
    case rect(Double, Double, Double, Double)
    case color([Double]?)
    case transform([Double])
    /// An opaque object (contents): boxed as the string "object-N".
    case object(Int)
    /// A CGPath (CAShapeLayer.path, shadowPath) from its elements.
    case path([ScriptPathElement])
    /// An array of numbers (a custom key's value), boxed as `[Double]`.
    case numbers([Double])
    /// An array of colours (CAGradientLayer.colors), boxed as `[CGColor]`.
    case colors([[Double]])
    /// A point, size, rectangle or transform wrapped in an `NSValue` (`NSValue(cgPoint:)` ...
    /// `NSValue(caTransform3D:)`), as Core Animation code often passes them.
    indirect case wrapped(ScriptValue)
}

/// A timing curve's control points.
public struct ScriptCurve: Codable, Equatable, Sendable {
    public var c1x: Float, c1y: Float, c2x: Float, c2y: Float
    public init(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.c1x = c1x; self.c1y = c1y; self.c2x = c2x; self.c2y = c2y
    }
}

/// A path element for keyframe path animations.
public enum ScriptPathElement: Codable, Equatable, Sendable {
    case move(Double, Double)
    case line(Double, Double)
    case quad(Double, Double, cx: Double, cy: Double)
    case cubic(Double, Double, c1x: Double, c1y: Double, c2x: Double, c2y: Double)
    case close
}

/// An animation of any kind with every timing field.
public struct ScriptAnimation: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable { case basic, keyframe, group, transition }
    public var kind: Kind
    public var keyPath: String? = nil
    public var from: ScriptValue? = nil
    public var to: ScriptValue? = nil
    public var by: ScriptValue? = nil
    public var values: [ScriptValue]? = nil
    public var keyTimes: [Double]? = nil
    public var calculationMode: String? = nil
    public var path: [ScriptPathElement]? = nil
    public var rotationMode: String? = nil
    public var children: [ScriptAnimation]? = nil
    public var transitionType: String? = nil
    public var transitionSubtype: String? = nil
    public var beginTime: Double = 0
    public var duration: Double = 0
    public var speed: Float = 1
    public var timeOffset: Double = 0
    public var repeatCount: Float = 0
    public var repeatDuration: Double = 0
    public var autoreverses = false
    public var fillMode: String = "removed"
    public var removedOnCompletion = true
    public var additive = false
    public var cumulative = false
    public var timingFunction: ScriptCurve? = nil
    /// When set, a delegate logs `start <tag>` / `stop <tag> <finished>`.
    public var delegateTag: Int? = nil
    /// A basic animation with a spring: a `CASpringAnimation`.
    public var spring: ScriptSpring? = nil

    public init(kind: Kind) { self.kind = kind }
}

/// A `CASpringAnimation`'s parameters.
public struct ScriptSpring: Codable, Equatable, Sendable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double
    public var velocity: Double

    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, velocity: Double = 0) {
        self.mass = mass; self.stiffness = stiffness; self.damping = damping; self.velocity = velocity
    }
}

/// One entry of a run's trace.
public enum TraceEntry: Codable, Equatable, Sendable {
    /// A value read by `read` (nil: no presentation yet, or no value); `discrete` values
    /// (booleans, objects) must match exactly.
    case value(op: Int, lanes: [Double]?, discrete: Bool)
    case keys(op: Int, [String])
    /// A delegate callback or completion block.
    case event(String)
    /// The items of a render snapshot, in painter's order.
    case snapshot(op: Int, items: [SnapshotTraceItem])
}

/// One item of a render snapshot in a trace: which layer (script id; -1 for the script's
/// root), its parent and clip items, flags, and every value (world transform, opacity,
/// bounds, corner radius, background, border, shadow; then the shape's fill, stroke, stroke
/// values and dash phase), compared within the trace tolerance.
public struct SnapshotTraceItem: Codable, Equatable, Sendable {
    public var layer: Int
    public var parent: Int
    public var clip: Int
    public var flags: UInt32
    /// Elements of the shape's path (-1: no path or not a shape).
    public var pathElements: Int
    public var values: [Double]

    public init(layer: Int, parent: Int, clip: Int, flags: UInt32, pathElements: Int, values: [Double]) {
        self.layer = layer
        self.parent = parent
        self.clip = clip
        self.flags = flags
        self.pathElements = pathElements
        self.values = values
    }
}
