import Foundation

/// A layer: Core Animation's model object, written the classic way. Each layer keeps its
/// property values in String-keyed dictionaries (components of interpolatable values, object
/// values, custom keys), the values on screen at the last frame in a second set of
/// dictionaries, its animations in a `[String: CAAnimation]`, and its sublayers in an array.
///
///     let layer = CALayer()
///     layer.opacity = 0          // model value now 0; animates over 0.25 s once committed
///     layer.presentation()       // nil until the layer has been committed once
open class CALayer: CALayerBase, CAMediaTiming {
    let engine: ReferenceEngine
    /// A read-only copy (`presentation()` or `init(layer:)`), not a layer of the tree.
    let isCopy: Bool

    // Values: the model's (a copy's own snapshot). Absent keys hold the property's default.
    var componentValues: [String: [Double]] = [:]
    var objectValues: [String: Any] = [:]
    var customValues: [String: Any] = [:]
    /// The model value of custom key `key`: the value set, else the class's
    /// `defaultValue(forKey:)`.
    func customModel(_ key: String) -> Any? { customValues[key] ?? type(of: self).defaultValue(forKey: key) }
    var timing = LayerTiming()

    // What is on screen: the last frame's values plus unanimated changes committed since.
    var presentedComponents: [String: [Double]] = [:]
    var presentedObjects: [String: Any] = [:]
    var presentedCustom: [String: Any] = [:]
    /// The layer has been committed once: `presentation()` exists.
    var isCommitted = false

    // Animations, in the order they were added (the order they are applied).
    var animations: [String: CAAnimation] = [:]
    var animationOrder: [String] = []

    // Tree.
    /// The superlayer (it owns this layer; it clears this when it goes).
    unowned(unsafe) var parentLayer: CALayer?
    var sublayerList: [CALayer] = []

    // Copies.
    /// A copy takes writes to itself while its `init(layer:)` runs (a subclass copies its
    /// state there, Apple's documented place) and, made by the application with
    /// `init(layer:)`, afterwards; never once it is a presentation copy.
    var copyAcceptsWrites = false
    var modelLayerRef: CALayer?
    var copiedTransition: CATransitionState?

    /// The delegate (weak): asked first in the action lookup.
    open weak var delegate: CALayerDelegate?
    /// Actions by key, asked second. NSNull values stop the lookup.
    open var actions: [String: CAAction]?
    /// Style dictionary: `style["actions"]` is asked third, then `style["style"]` recursively.
    open var style: [AnyHashable: Any]?
    /// A name for debugging and lookup.
    open var name: String?

    /// A new layer with Apple's defaults, in this thread's engine. Creating a layer opens the
    /// implicit transaction, so the layer is committed (presentable) at the next frame.
    public override init() {
        engine = ReferenceEngine.current
        isCopy = false
        super.init()
        joinEngine()
    }

    /// A new layer with Apple's defaults (no archives here: the coder is not read).
    public required init?(coder: NSCoder) {
        engine = ReferenceEngine.current
        isCopy = false
        super.init()
        joinEngine()
    }

    /// A new model layer's place in its engine: counted, in the open transaction, uncommitted.
    private func joinEngine() {
        if type(of: self) != CALayer.self && type(of: self) != CAShapeLayer.self { engine.displayQueue.watchesKeys = true }
        engine.liveLayerCount += 1
        engine.topTransaction()
        engine.uncommittedLayers[ObjectIdentifier(self)] = LayerRef(self)
    }

    /// How the engine makes a layer of a dynamic class: `init()`, or `init(layer:)` of
    /// `source` (the subclass's own overrides).
    public required convenience init(_strataLayer source: CALayer?) {
        if let source { self.init(layer: source) } else { self.init() }
    }

    /// A read-only copy of `layer`'s model values (Core Animation uses this to make
    /// presentation copies; subclasses override it to copy their own fields).
    public init(layer: Any) {
        engine = ReferenceEngine.current
        isCopy = true
        super.init()
        copyAcceptsWrites = true
        guard let source = layer as? CALayer else { return }
        componentValues = source.componentValues
        objectValues = source.objectValues
        customValues = source.customValues
        timing = source.timing
        name = source.name
        modelLayerRef = source.isCopy ? source.modelLayerRef : source
    }

    /// Core Animation's factory spelling.
    open class func layer() -> Self { self.init(_strataLayer: nil) }

    deinit {
        guard !isCopy else { return }
        engine.liveLayerCount -= 1
        engine.layerWillGo(self)
    }

    /// The key-value default of `key` for this class (Apple's API; the built-in defaults).
    open class func defaultValue(forKey key: String) -> Any? {
        guard let spec = PropertyCatalog.spec(key) else { return toolboxDefault(forKey: key) }
        guard spec.kind != .object else { return nil }
        return Boxing.box(spec.defaultValue, kind: spec.kind)
    }

    /// Kept for source compatibility with the fast engine (nothing is memoised here).
    public static func invalidateActionCache() {}

    /// Runs the lookup chain for `event` and returns the action found (a built-in implicit
    /// action is returned as the CABasicAnimation / CATransition it stands for), or nil.
    open func action(forKey event: String) -> CAAction? {
        guard !isCopy else { return nil }
        switch chainAction(forKey: event) {
        case .none, .builtIn(.none): return nil
        case .action(let action): return action
        case .builtIn(.transition): return CATransition()
        case .builtIn(.basic):
            let animation = CABasicAnimation(keyPath: event)
            animation.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
            // Asked before the model changes: the animation starts from the value shown now.
            if let spec = PropertyCatalog.spec(event), spec.kind != .object, spec.kind != .timing {
                animation.fromValue = Boxing.box(currentComponents(event), kind: spec.kind)
            }
            return animation
        }
    }

    // MARK: model and presentation

    /// The layer holding the model values: `self` for a model layer.
    open func model() -> Self {
        guard isCopy else { return self }
        return (modelLayerRef as? Self) ?? self
    }

    /// A read-only copy of the values on screen at the last rendered frame (and unanimated
    /// changes committed since); nil before the layer has been committed once.
    open func presentation() -> Self? {
        if isCopy { return self }
        guard isCommitted else { return nil }
        let copy = Self(_strataLayer: self)
        copy.componentValues = presentedComponents
        copy.objectValues = presentedObjects
        copy.customValues = presentedCustom
        copy.copiedTransition = runningTransition
        copy.modelLayerRef = self
        // What `init(layer:)` wrote is replaced by the values on screen; the copy is read-only.
        copy.copyAcceptsWrites = false
        return copy
    }

    /// The transition running on the layer at the last rendered frame (on the model layer
    /// and on presentation copies), or nil.
    public var runningTransition: CATransitionState? {
        if isCopy { return copiedTransition }
        guard let transition = animations[kCATransition] as? CATransition,
              let runtime = transition.runtime, runtime.phase == .active else { return nil }
        return CATransitionState(
            type: transition.type, subtype: transition.subtype ?? .fromLeft,
            progress: transition.startProgress + (transition.endProgress - transition.startProgress) * Float(runtime.progress))
    }

    // MARK: reading values

    /// The components of built-in property `key` (model values; a copy's snapshot).
    func components(_ key: String) -> [Double] {
        componentValues[key] ?? PropertyCatalog.builtIn(key).defaultValue
    }

    /// The components on screen of built-in property `key`.
    func presentedComponentsOf(_ key: String) -> [Double] {
        presentedComponents[key] ?? PropertyCatalog.builtIn(key).defaultValue
    }

    /// The value an animation starts from: the value on screen once the layer has been
    /// committed, else the model value.
    func currentComponents(_ key: String) -> [Double] {
        isCommitted ? presentedComponentsOf(key) : components(key)
    }

    func number(_ key: String) -> Double { components(key)[0] }

    func point(_ key: String) -> CGPoint {
        let c = components(key)
        return CGPoint(x: c[0], y: c[1])
    }

    func rect(_ key: String) -> CGRect {
        let c = components(key)
        return CGRect(x: c[0], y: c[1], width: c[2], height: c[3])
    }

    func color(_ key: String) -> CGColor? { Boxing.color(components(key)) }

    func transform3D(_ key: String) -> CATransform3D { Boxing.transform(components(key)) }

    // MARK: writing values

    func setNumber(_ key: String, _ value: Double) { engine.setComponents(of: self, key, [value]) }

    func setPoint(_ key: String, _ p: CGPoint) { engine.setComponents(of: self, key, [Double(p.x), Double(p.y)]) }

    func setRect(_ key: String, _ r: CGRect) {
        engine.setComponents(of: self, key, [Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)])
    }

    func setColor(_ key: String, _ c: CGColor?) {
        engine.setComponents(of: self, key, c.map(Boxing.rgba) ?? PropertyCatalog.nilColor)
    }

    func setTransform3D(_ key: String, _ t: CATransform3D) { engine.setComponents(of: self, key, Boxing.components(of: t)) }

    // MARK: properties

    /// The layer's bounds in its own coordinates. Animatable.
    open var bounds: CGRect {
        get { rect("bounds") }
        set { setRect("bounds", newValue) }
    }
    /// Position of the anchor point in the superlayer's coordinates. Animatable.
    open var position: CGPoint {
        get { point("position") }
        set { setPoint("position", newValue) }
    }
    /// The anchor point in unit coordinates of the bounds (0.5, 0.5 by default). Animatable.
    open var anchorPoint: CGPoint {
        get { point("anchorPoint") }
        set { setPoint("anchorPoint", newValue) }
    }
    /// The anchor point's z component. Animatable.
    open var anchorPointZ: CGFloat {
        get { CGFloat(number("anchorPointZ")) }
        set { setNumber("anchorPointZ", Double(newValue)) }
    }
    /// Position on the z axis. Animatable.
    open var zPosition: CGFloat {
        get { CGFloat(number("zPosition")) }
        set { setNumber("zPosition", Double(newValue)) }
    }
    /// The layer's transform, about its anchor point. Animatable.
    open var transform: CATransform3D {
        get { transform3D("transform") }
        set { setTransform3D("transform", newValue) }
    }
    /// The transform applied to sublayers. Animatable.
    open var sublayerTransform: CATransform3D {
        get { transform3D("sublayerTransform") }
        set { setTransform3D("sublayerTransform", newValue) }
    }
    /// Opacity 0...1 (1 by default). Animatable.
    open var opacity: Float {
        get { Float(number("opacity")) }
        set { setNumber("opacity", Double(newValue)) }
    }
    /// Hidden layers are not drawn. Animatable; also sends kCAOnOrderOut / kCAOnOrderIn.
    open var isHidden: Bool {
        get { number("hidden") >= 0.5 }
        set { engine.setHidden(self, newValue) }
    }
    /// Clips sublayers to the bounds. Animatable.
    open var masksToBounds: Bool {
        get { number("masksToBounds") >= 0.5 }
        set { setNumber("masksToBounds", newValue ? 1 : 0) }
    }
    /// Whether the back of the layer is drawn. Not animatable (no implied animation).
    open var isDoubleSided: Bool {
        get { number("doubleSided") >= 0.5 }
        set { setNumber("doubleSided", newValue ? 1 : 0) }
    }
    /// Background colour (nil by default). Animatable.
    open var backgroundColor: CGColor? {
        get { color("backgroundColor") }
        set { setColor("backgroundColor", newValue) }
    }
    /// Border colour (opaque black by default). Animatable.
    open var borderColor: CGColor? {
        get { color("borderColor") }
        set { setColor("borderColor", newValue) }
    }
    /// Border width (0 by default). Animatable.
    open var borderWidth: CGFloat {
        get { CGFloat(number("borderWidth")) }
        set { setNumber("borderWidth", Double(newValue)) }
    }
    /// Corner radius (0 by default). Animatable.
    open var cornerRadius: CGFloat {
        get { CGFloat(number("cornerRadius")) }
        set { setNumber("cornerRadius", Double(newValue)) }
    }
    /// Shadow colour (opaque black by default). Animatable.
    open var shadowColor: CGColor? {
        get { color("shadowColor") }
        set { setColor("shadowColor", newValue) }
    }
    /// Shadow offset ((0, -3) by default). Animatable.
    open var shadowOffset: CGSize {
        get { let c = components("shadowOffset"); return CGSize(width: c[0], height: c[1]) }
        set { engine.setComponents(of: self, "shadowOffset", [Double(newValue.width), Double(newValue.height)]) }
    }
    /// Shadow opacity (0 by default). Animatable.
    open var shadowOpacity: Float {
        get { Float(number("shadowOpacity")) }
        set { setNumber("shadowOpacity", Double(newValue)) }
    }
    /// Shadow blur radius (3 by default). Animatable.
    open var shadowRadius: CGFloat {
        get { CGFloat(number("shadowRadius")) }
        set { setNumber("shadowRadius", Double(newValue)) }
    }
    /// The portion of the contents shown, in unit coordinates ((0,0,1,1) by default). Animatable.
    open var contentsRect: CGRect {
        get { rect("contentsRect") }
        set { setRect("contentsRect", newValue) }
    }

    /// Derived from bounds, position, anchorPoint and transform; not animatable. Setting it
    /// sets `position` and `bounds.size` (and those animate).
    open var frame: CGRect {
        get { frameFromGeometry() }
        set { setFrameThroughGeometry(newValue) }
    }

    /// The contents (an image or any object). Changes run a fade transition by default.
    open var contents: Any? {
        get { objectValues["contents"] }
        set { engine.setObject(of: self, "contents", newValue) }
    }
    /// A layer whose alpha masks this one.
    open var mask: CALayer? {
        get { objectValues["mask"] as? CALayer }
        set { engine.setObject(of: self, "mask", newValue) }
    }
    /// The shadow's shape.
    open var shadowPath: CGPath? {
        get { objectValues["shadowPath"] as? CGPath }
        set { engine.setObject(of: self, "shadowPath", newValue) }
    }
    /// Filters applied to the layer and its sublayers.
    open var filters: [Any]? {
        get { objectValues["filters"] as? [Any] }
        set { engine.setObject(of: self, "filters", newValue) }
    }
    /// Filters applied to the content behind the layer.
    open var backgroundFilters: [Any]? {
        get { objectValues["backgroundFilters"] as? [Any] }
        set { engine.setObject(of: self, "backgroundFilters", newValue) }
    }
    /// The filter compositing the layer with its background.
    open var compositingFilter: Any? {
        get { objectValues["compositingFilter"] }
        set { engine.setObject(of: self, "compositingFilter", newValue) }
    }

    // MARK: CAMediaTiming of the layer (not animatable)

    /// The layer's begin time in its parent's time.
    open var beginTime: Double {
        get { timing.beginTime }
        set { if engine.acceptsTiming(self, "beginTime", newValue) { timing.beginTime = newValue } }
    }
    /// The layer's basic duration (0: endless); with the repeat fields, autoreverses and
    /// fillMode it folds its subtree's time (`LayerTiming.localTime(at:)`).
    open var duration: Double {
        get { timing.duration }
        set { if engine.acceptsTiming(self, "duration", newValue) { timing.duration = newValue } }
    }
    /// Rate of the layer's time (0 pauses the subtree's animations).
    open var speed: Float {
        get { Float(timing.speed) }
        set { setSpeed(Double(newValue)) }
    }
    /// Offset of the layer's time.
    open var timeOffset: Double {
        get { timing.timeOffset }
        set { if engine.acceptsTiming(self, "timeOffset", newValue) { timing.timeOffset = newValue } }
    }
    /// Repeat count of the layer's time.
    open var repeatCount: Float {
        get { Float(timing.repeatCount) }
        set { setRepeatCount(Double(newValue)) }
    }
    /// Repeat duration of the layer's time.
    open var repeatDuration: Double {
        get { timing.repeatDuration }
        set { if engine.acceptsTiming(self, "repeatDuration", newValue) { timing.repeatDuration = newValue } }
    }
    /// Autoreverse of the layer's time.
    open var autoreverses: Bool {
        get { timing.autoreverses }
        set { if engine.acceptsTiming(self, "autoreverses", newValue ? 1 : 0) { timing.autoreverses = newValue } }
    }
    /// Fill mode of the layer's time (what its subtree sees outside its active time).
    open var fillMode: CAMediaTimingFillMode {
        get { timing.fillMode }
        set { if engine.acceptsTiming(self, "fillMode", 0) { timing.fillMode = newValue } }
    }

    /// Converts `t` from `l`'s time space (media time when nil) to this layer's.
    open func convertTime(_ t: Double, from l: CALayer?) -> Double {
        let media = l.map { $0.mediaTime(ofLocal: t) } ?? t
        return engine.localTime(of: self, at: media)
    }

    /// Converts `t` from this layer's time space to `l`'s (media time when nil).
    open func convertTime(_ t: Double, to l: CALayer?) -> Double {
        let media = mediaTime(ofLocal: t)
        return l.map { engine.localTime(of: $0, at: media) } ?? media
    }


    func setSpeed(_ value: Double) {
        if engine.acceptsTiming(self, "speed", value) { timing.speed = value }
    }

    func setRepeatCount(_ value: Double) {
        if engine.acceptsTiming(self, "repeatCount", value) { timing.repeatCount = value }
    }

    // MARK: drawing, hit testing and the affine transform: CALayerBase (Vocabulary/)

    // MARK: the tree (CALayer+Tree.swift)

    /// The parent layer, or nil. A presentation copy's is the presentation copy of its model's superlayer.
    open var superlayer: CALayer? { isCopy ? modelLayerRef?.superlayer?.presentation() : parentLayer }

    /// The sublayers in order (nil when there are none). Setting it replaces them all and
    /// runs this layer's `sublayers` action (a fade transition by default).
    open var sublayers: [CALayer]? {
        get {
            if isCopy { return modelLayerRef?.sublayers?.compactMap { $0.presentation() } }
            return sublayerList.isEmpty ? nil : sublayerList
        }
        set { replaceSublayers(with: newValue) }
    }

    /// Appends `layer` as the last sublayer (moving it from any other parent).
    open func addSublayer(_ layer: CALayer) { appendSublayer(layer) }

    /// Inserts `layer` at `idx` among the sublayers (clamped to the count).
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) { insertSublayerImpl(layer, at: idx) }

    /// Inserts `layer` just below `sibling` (at the bottom if sibling is not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) { insertSublayerImpl(layer, below: sibling) }

    /// Inserts `layer` just above `sibling` (at the top if sibling is not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) { insertSublayerImpl(layer, above: sibling) }

    /// Replaces sublayer `oldLayer` with `newLayer` at the same position.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) { replaceSublayerImpl(oldLayer, with: newLayer) }

    /// Removes the layer from its parent (its kCAOnOrderOut action runs first).
    open func removeFromSuperlayer() { removeFromSuperlayerImpl() }

    // MARK: animations

    /// Adds a copy of `anim` under `key` (replacing the animation under that key; a
    /// transition always uses kCATransition). Bad input (unknown key path, a value of the
    /// wrong type, a non-finite value or timing) is refused with a diagnostic.
    open func add(_ anim: CAAnimation, forKey key: String?) {
        let copy = anim.copy() as! CAAnimation
        engine.addAnimation(copy, forKey: anim is CATransition ? kCATransition : key, to: self, fromAction: false)
    }

    /// The animation under `key` (treat it as read-only), or nil.
    open func animation(forKey key: String) -> CAAnimation? {
        isCopy ? nil : animations[key]
    }

    /// Keys of the running animations in the order they were added; nil when none.
    open func animationKeys() -> [String]? {
        let keys = animationOrder.filter { !$0.hasPrefix(ReferenceEngine.anonymousKeyPrefix) }
        return keys.isEmpty ? nil : keys
    }

    /// Removes the animation under `key` at once; the presentation snaps to the model.
    open func removeAnimation(forKey key: String) {
        guard !isCopy else { return }
        engine.removeAnimation(from: self, forKey: key, snap: true)
    }

    /// Removes every animation at once; the presentation snaps to the model.
    open func removeAllAnimations() {
        guard !isCopy else { return }
        engine.removeAllAnimations(from: self)
    }

    // MARK: key-value coding (CALayer+KeyValue.swift)

    /// Key-value coding: a built-in property, a key path into one (`position.x`,
    /// `bounds.size.width`, `transform.rotation.z`), or a custom key.
    open func value(forKeyPath keyPath: String) -> Any? { readValue(forKeyPath: keyPath) }

    /// `value(forKeyPath:)` for a single key.
    open func value(forKey key: String) -> Any? { readValue(forKeyPath: key) }

    /// Sets a built-in property, a key path into one, or a custom key. The change runs the
    /// property's action (looked up under the property's name, e.g. `position` for
    /// `position.x`). A value of the wrong type, a non-finite value or an unknown key path
    /// is refused with a diagnostic.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { writeValue(value, forKeyPath: keyPath) }

    /// `setValue(_:forKeyPath:)` for a single key.
    open func setValue(_ value: Any?, forKey key: String) { writeValue(value, forKeyPath: key) }

    /// The media time at which this layer's local time is `t` (the inverse of the local
    /// time formula, from the layer up; a zero speed maps to the layer's beginTime).
    func mediaTime(ofLocal t: Double) -> Double {
        var time = t
        var current: CALayer? = self
        while let l = current {
            let s = l.timing.speed
            time = s == 0 ? l.timing.beginTime : (time - l.timing.timeOffset) / s + l.timing.beginTime
            current = l.superlayer
        }
        return time
    }
}

/// The CAMediaTiming fields of a layer.
struct LayerTiming {
    var beginTime: Double = 0
    var duration: Double = 0
    /// Kept as Double: `setValue(_:forKey: "speed")` takes a Double as it is.
    var speed: Double = 1
    var timeOffset: Double = 0
    var repeatCount: Double = 0
    var repeatDuration: Double = 0
    var autoreverses = false
    var fillMode: CAMediaTimingFillMode = .removed

    /// Every field at its default: the layer maps time as the identity.
    var isDefault: Bool {
        beginTime == 0 && speed == 1 && timeOffset == 0 && duration == 0 && repeatCount == 0
            && repeatDuration == 0 && !autoreverses && fillMode == .removed
    }

    /// The layer's local time for its parent's time, folded as an animation's (SEMANTICS.md
    /// "Fidelity rules", layer timing), and whether the layer is active there.
    ///
    /// Active time a = (parentTime - beginTime) * speed. The basic duration is `duration`,
    /// endless when 0; a cycle is twice it with autoreverses; the active duration is
    /// repeatDuration if set, else max(repeatCount, 1) cycles (endless with an endless basic
    /// duration). Inside [0, active duration) the local time a + timeOffset is folded into
    /// one iteration (mirrored on the way back). Before it, backwards / both fill hold the
    /// start (timeOffset folded); after it, forwards / both hold the end. Otherwise (and with
    /// `removed`, Apple's "does not appear until it begins and is removed from the
    /// presentation when it is completed") the layer is inactive and the time given is the
    /// unfolded a + timeOffset. A layer whose fields are all defaults is the identity.
    func localTime(at parentTime: Double) -> (time: Double, active: Bool) {
        if isDefault { return (parentTime, true) }
        let unfolded = (parentTime - beginTime) * speed + timeOffset
        let basic = duration > 0 ? duration : Double.infinity
        let cycle = autoreverses ? basic * 2 : basic
        let activeDuration: Double
        if repeatDuration > 0 {
            activeDuration = repeatDuration
        } else if repeatCount > 0 {
            activeDuration = repeatCount * cycle
        } else {
            activeDuration = cycle
        }
        let active = (parentTime - beginTime) * speed
        if active.isNaN || active == -.infinity { return (unfolded, false) }
        if active < 0 {
            if fillMode.fillsBackwards { return (fold(timeOffset, basic: basic, cycle: cycle, atEnd: false), true) }
            return (unfolded, false)
        }
        if active >= activeDuration {
            if fillMode.fillsForwards {
                return (fold(activeDuration + timeOffset, basic: basic, cycle: cycle, atEnd: true), true)
            }
            return (unfolded, false)
        }
        return (fold(active + timeOffset, basic: basic, cycle: cycle, atEnd: false), true)
    }

    /// Local time folded into one iteration (0...basic); unchanged with an endless cycle. At
    /// the end of the active duration a whole number of iterations ends on the last value.
    private func fold(_ local: Double, basic: Double, cycle: Double, atEnd: Bool) -> Double {
        guard cycle.isFinite, local.isFinite else { return local }
        var withinCycle = local - (local / cycle).rounded(.down) * cycle
        if withinCycle < 0 { withinCycle += cycle }
        if atEnd && withinCycle == 0 && local > 0 { withinCycle = cycle }
        if autoreverses && withinCycle > basic { withinCycle = cycle - withinCycle }
        return min(max(withinCycle, 0), basic)
    }
}

/// A layer that draws a path: adds the stroke and fill properties, all animatable.
open class CAShapeLayer: CALayer {
    /// The shape (animatable: switches at half time).
    open var path: CGPath? {
        get { objectValues["path"] as? CGPath }
        set { engine.setObject(of: self, "path", newValue) }
    }
    /// Fill colour (opaque black by default).
    open var fillColor: CGColor? {
        get { color("fillColor") }
        set { setColor("fillColor", newValue) }
    }
    /// Stroke colour (nil by default).
    open var strokeColor: CGColor? {
        get { color("strokeColor") }
        set { setColor("strokeColor", newValue) }
    }
    /// Stroke width (1 by default).
    open var lineWidth: CGFloat {
        get { CGFloat(number("lineWidth")) }
        set { setNumber("lineWidth", Double(newValue)) }
    }
    /// Relative start of the stroked part, 0...1 (0 by default).
    open var strokeStart: CGFloat {
        get { CGFloat(number("strokeStart")) }
        set { setNumber("strokeStart", Double(newValue)) }
    }
    /// Relative end of the stroked part, 0...1 (1 by default).
    open var strokeEnd: CGFloat {
        get { CGFloat(number("strokeEnd")) }
        set { setNumber("strokeEnd", Double(newValue)) }
    }
    /// Miter limit (10 by default).
    open var miterLimit: CGFloat {
        get { CGFloat(number("miterLimit")) }
        set { setNumber("miterLimit", Double(newValue)) }
    }
    /// Dash phase (0 by default).
    open var lineDashPhase: CGFloat {
        get { CGFloat(number("lineDashPhase")) }
        set { setNumber("lineDashPhase", Double(newValue)) }
    }
}
