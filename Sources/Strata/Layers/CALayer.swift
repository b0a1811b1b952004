import Foundation

/// A layer: Core Animation's model object. The object is a handle: its numeric properties
/// live in its engine's `LayerStore` columns (row `row`); only cold data (delegate, actions,
/// style, object-valued properties) is held here. A presentation copy holds a snapshot.
///
///     let layer = CALayer()
///     layer.opacity = 0          // model value now 0; animates over 0.25 s once committed
///     layer.presentation()       // nil until the layer has been committed once
open class CALayer: CALayerBase, CAMediaTiming {
    /// The engine of the thread that created the layer.
    let engine: EngineContext
    /// `engine`, checked: used on another thread, the layer reports it (`.wrongThread`), and
    /// the engine's change entry points refuse the call (a read still returns, and may race).
    var context: EngineContext {
        @inline(__always) get {
            if _slowPath(!engine.isCurrent) { engine.reportForeignUse(layerNamed: name) }
            return engine
        }
    }
    /// `engine` when called on its thread; on another thread the call is reported and nil
    /// (the change is refused). One thread-local read: the change paths check here, once.
    var mutableEngine: EngineContext? {
        @inline(__always) get {
            if _slowPath(!engine.isCurrent) { engine.reportForeignUse(layerNamed: name); return nil }
            return engine
        }
    }
    /// Row in `context.layers`, or -1 for a presentation or shadow copy.
    let row: Int32
    /// A presentation copy's model row, whose presentation columns it reads on access (valid
    /// until the engine next changes what is presented or frees the row: the copy is then
    /// frozen into `copiedLanes`; see `CALayer+Presentation.swift`); -1 otherwise.
    @exclusivity(unchecked) var presentedRow: Int32 = -1
    /// Every lane property of a frozen copy (`init(layer:)`, or a presentation copy whose
    /// frame has passed).
    @exclusivity(unchecked) var copiedLanes: [Double]?
    /// A copy's object values and custom keys (nil: none).
    @exclusivity(unchecked) var copiedObjects: [Int32: Any]?
    weak var modelLayerRef: CALayer?
    /// A copy's running transition, taken when it was made.
    @exclusivity(unchecked) var copiedTransition: CATransitionState?
    /// A copy takes writes to itself while its `init(layer:)` runs (a subclass copies its
    /// state there, Apple's documented place) and, made by the application with
    /// `init(layer:)`, afterwards; never once it is a presentation copy (whose values are the
    /// ones on screen: writes during its `init(layer:)` leave them as they are).
    @exclusivity(unchecked) var copyAcceptsWrites = false

    /// The delegate (weak): asked first in the action lookup.
    @exclusivity(unchecked) open weak var delegate: CALayerDelegate? {
        didSet {
            if row < 0 { copyChanged = true }
            if refusedOnAnotherThread() { delegate = oldValue; return }
            setFlag(LayerFlags.hasDelegate, delegate != nil)
            // Only a view's own layer: its deinit clears the flag when it goes (another layer
            // whose delegate is a view takes the usual step).
            setFlag(LayerFlags.hostView, (delegate as? View).map { $0.layer === self && !ViewActionOverride.overrides(type(of: $0)) } ?? false)
        }
    }
    /// Actions by key, asked second. NSNull values stop the lookup.
    @exclusivity(unchecked) open var actions: [String: CAAction]? {
        didSet {
            if row < 0 { copyChanged = true }
            if refusedOnAnotherThread() { actions = oldValue; return }
            internedActions = [:]
            for (k, a) in actions ?? [:] { internedActions[KeyInterner.id(k).raw] = a }
            setFlag(LayerFlags.hasActions, !(actions?.isEmpty ?? true))
        }
    }
    /// `actions` keyed by interned id (the `interned`/`cached` strategies read this).
    var internedActions: [Int32: CAAction] {
        get { objectState?.internedActions ?? [:] }
        _modify { yield &objects.internedActions }
    }
    /// Style dictionary: `style["actions"]` is asked third, then `style["style"]` recursively.
    @exclusivity(unchecked) open var style: [AnyHashable: Any]? {
        didSet {
            if row < 0 { copyChanged = true }
            if refusedOnAnotherThread() { style = oldValue; return }
            objectState?.styleActions = .unbuilt
            setFlag(LayerFlags.hasStyle, style != nil)
        }
    }

    /// A change made on a thread other than the layer's own: reported, and the caller puts
    /// the old value back (the lookup flags and the stored value stay in step).
    @inline(__always)
    func refusedOnAnotherThread() -> Bool {
        guard row >= 0, _slowPath(!engine.isCurrent) else { return false }
        engine.reportForeignUse(layerNamed: name)
        return true
    }
    /// A name for debugging and lookup.
    open var name: String? {
        get { storedName }
        set { storedName = newValue }
    }
    @exclusivity(unchecked) var storedName: String?
    /// A copy whose holder set its delegate, actions or style: never recycled.
    @exclusivity(unchecked) var copyChanged = false

    /// Object-valued properties, custom keys and interned actions: cold data most layers
    /// never have (and copies never need), made on first use.
    @exclusivity(unchecked) var objectState: LayerObjectState?
    var objects: LayerObjectState {
        if let o = objectState { return o }
        let o = LayerObjectState()
        objectState = o
        return o
    }
    /// Custom keys set with `setValue(_:forKey:)`.
    var customValues: [Int32: Any] {
        get { objectState?.custom ?? [:] }
        _modify { yield &objects.custom }
    }
    /// The model value of custom key `key`: the value set, else the class's
    /// `defaultValue(forKey:)` (SEMANTICS.md, "Custom keys").
    func customModel(_ key: Int32) -> Any? {
        if let v = objectState?.custom[key] { return v }
        return type(of: self).defaultValue(forKey: KeyInterner.name(PropertyID(key)))
    }
    /// Presentation values of object properties while an animation drives them.
    var animatedObjects: [Int32: Any?] {
        get { objectState?.animated ?? [:] }
        _modify { yield &objects.animated }
    }
    /// Presentation values of custom keys while an animation drives them.
    var animatedCustom: [Int32: Any] {
        get { objectState?.animatedCustom ?? [:] }
        _modify { yield &objects.animatedCustom }
    }
    /// Object and custom-key values as of the last commit (what `presentation()` shows).
    var committedObjects: [Int32: Any] {
        get { objectState?.committed ?? [:] }
        _modify { yield &objects.committed }
    }

    /// A custom key's "current value", the one an animation of it starts from: what is
    /// shown (animated, else as of the last commit) once the layer has been committed, the
    /// model value before.
    func currentCustom(_ key: Int32) -> Any? {
        guard row >= 0, engine.layers.flags[Int(row)] & LayerFlags.committed != 0 else { return customModel(key) }
        return CustomLanes.value(animatedCustom[key]) ?? committedObjects[key]
            ?? type(of: self).defaultValue(forKey: KeyInterner.name(PropertyID(key)))
    }

    /// A new layer with Apple's defaults, in this thread's engine.
    ///
    /// Subclasses override `init()`, `init(layer:)` and `init?(coder:)` as Apple documents
    /// (or none of them); the engine makes instances of a subclass, its presentation copies
    /// included, through `init(_strataLayer:)`, which such subclasses inherit and which calls
    /// their `init()` or `init(layer:)`.
    public override init() {
        (engine, row) = CALayer.newRow()
        super.init()
        if row >= 0 { register() } else { becomeInert() }
    }

    /// A layer decoded from an archive: Strata archives no layers, so this is a new layer
    /// with Apple's defaults (as `init()`); the coder is not read. Present so that subclasses
    /// written with Apple's `required init?(coder:)` compile and can call `super`.
    public required init?(coder: NSCoder) {
        (engine, row) = CALayer.newRow()
        super.init()
        if row >= 0 { register() } else { becomeInert() }
    }

    /// This thread's engine and a new row in it; -1 when the engine is full.
    private static func newRow() -> (EngineContext, Int32) {
        let e = EngineContext.current
        return (e, e.layers.liveCount < e.maxLayers ? e.layers.allocate(flags: 0) : -1)
    }

    /// How the engine makes a layer of a dynamic class: `init()` when `source` is nil, else
    /// `init(layer: source)`, each the subclass's own override when it has one (the engine
    /// makes presentation copies with it, so a subclass's `init(layer:)` copies its state).
    /// Not for application code: call `init()` or `init(layer:)`.
    public required convenience init(_strataLayer source: CALayer?) {
        if let source { self.init(layer: source) } else { self.init() }
    }

    /// The engine is full: an inert layer (like a copy: defaults, in no tree, its changes
    /// refused), with a diagnostic naming the limit; nothing wraps.
    private func becomeInert() {
        copiedLanes = PropertyTable.defaultSnapshot
        StrataDiagnostics.emit(.outOfCapacity,
            "this thread's engine holds at most \(engine.maxLayers) layers (StrataEngine.capacityLimits.layers); this CALayer is inert: in no tree, its changes refused")
    }

    /// A new row's flags, handle and place in the open transaction.
    private func register() {
        // The engine's first layer makes its layers' side (what the engine tells the layers).
        if _slowPath(engine.layerSide == nil) { _ = engine.layerObjects }
        engine.animations.layerRowMade(row)
        let cls = type(of: self)
        var f: UInt16 = 0
        if cls != CALayer.self && cls != CAShapeLayer.self {
            f |= LayerFlags.customClass
            engine.displayQueue.watchesKeys = true
            if self is CATransformLayer { f |= LayerFlags.isTransformLayer | LayerFlags.hasObjects }
            if self is CAReplicatorLayer {
                f |= LayerFlags.isReplicator
                context.layers.replicators += 1
            }
            if ActionOverride.overrides(cls) { f |= LayerFlags.overridesAction }
        }
        if self is CAShapeLayer { f |= LayerFlags.isShape }
        context.layers.flags[Int(row)] |= f
        context.layers.handle[Int(row)] = Unmanaged.passUnretained(self)
        context.changes.newLayers.append(row)
        // A new layer is a change: it belongs to the open (or a new implicit) transaction.
        context.ensureTransaction()
    }

    /// A copy of `layer`'s model values, detached from any engine store (Core Animation
    /// uses this to make presentation copies; subclasses override it to copy their fields).
    public init(layer: Any) {
        if let presenting = layer as? PresentingSource {
            // `init(presenting:)`: the engine's own classes' presentation copies.
            engine = presenting.layer.engine
            row = -1
            super.init()
            present(presenting.layer)
            return
        }
        engine = EngineContext.current
        row = -1
        super.init()
        copyAcceptsWrites = true
        guard let source = layer as? CALayer else { return }
        name = source.name
        if engine.layerObjects.presentationCopySource == ObjectIdentifier(source) {
            // `presentation()` is making this copy: it reads the source's presentation
            // columns until the engine changes them. Objects and the transition are taken
            // now (a dictionary shared, in the common case).
            presentedRow = source.row
            copiedObjects = source.presentedObjects()
            return
        }
        copiedLanes = source.modelSnapshot()
        copiedObjects = source.objectSnapshot(presentation: false)
        modelLayerRef = source.model()
    }

    /// A presentation copy of `source` for the engine's own classes (CALayer and
    /// CAShapeLayer, which no subclass `init(layer:)` extends): what `init(layer:)` does for
    /// `presentation()`, without the cast from `Any`.
    /// (A convenience initialiser: an internal designated one would keep subclasses in other
    /// modules from inheriting `init(_strataLayer:)`.)
    convenience init(presenting source: CALayer) {
        self.init(layer: PresentingSource(layer: source))
    }

    /// This copy (of the engine's own classes, nobody else holding it) now presents
    /// `source`: a new copy's fields, set again (recycled copies, see `registerLiveCopy`).
    func present(_ source: CALayer) {
        if storedName != nil || source.storedName != nil { storedName = source.storedName }
        presentedRow = source.row
        if copiedObjects != nil || source.objectState != nil { copiedObjects = source.presentedObjects() }
        // The running transition is read on access while the copy is live (frozen with it).
        if copiedTransition != nil { copiedTransition = nil }
    }

    /// Core Animation's factory spelling.
    open class func layer() -> Self { self.init(_strataLayer: nil) }

    deinit {
        guard row >= 0 else { return }
        // Released on another thread (the last reference handed there): the row is freed by
        // its own thread, at its next frame or commit.
        if engine.isCurrent { engine.layerDidDeinit(row) } else { engine.releaseFromAnotherThread(row) }
    }

    /// The key-value default of `key` for this class (Apple's API; built-in defaults).
    open class func defaultValue(forKey key: String) -> Any? {
        guard let p = PropertyTable.idsByName[key] else { return toolboxDefault(forKey: key) }
        let info = PropertyTable[p]
        guard info.width > 0 else { return nil }
        return info.defaults.withUnsafeBufferPointer { LaneValue.box($0.baseAddress!, kind: info.kind) }
    }

    /// Forgets memoised `defaultAction(forKey:)` results (the `cached` lookup strategy), for
    /// a subclass whose defaults change at run time.
    public static func invalidateActionCache() { EngineContext.current.actionCache.generation &+= 1 }

    /// Runs the lookup chain for `event` and returns the action found (a built-in implicit
    /// action is returned as the CABasicAnimation / CATransition it stands for), or nil.
    ///
    /// Every property change, custom key and event asks this method, so a subclass that
    /// overrides it decides the action (and may call `super`). For the classes that do not
    /// override it, the engine runs the same chain without making an animation object.
    open func action(forKey event: String) -> CAAction? { lookUpAction(forKey: event) }

    // MARK: model / presentation (copies: CALayer+Presentation.swift)

    /// The layer holding the model values: `self` for a model layer.
    open func model() -> Self {
        if row >= 0 { return self }
        if presentedRow >= 0 { return (engine.layers.handle[Int(presentedRow)]?.takeUnretainedValue() as? Self) ?? self }
        return (modelLayerRef as? Self) ?? self
    }

    /// A read-only copy of the values on screen at the last rendered frame (and the
    /// unanimated changes committed since); nil before the layer has been committed once.
    /// Each call makes a new copy; its values stay those of the moment it was made.
    ///
    /// - Complexity: O(1): values are read from the engine's columns on access (a copy
    ///   kept past the next commit or frame is frozen then, in O(properties)).
    open func presentation() -> Self? { makePresentationCopy() }

    // MARK: - properties
    /// The layer's bounds in its own coordinates. Animatable.
    open var bounds: CGRect {
        get { rect(.bounds) }
        set { setRect(.bounds, newValue) }
    }
    /// Position of the anchor point in the superlayer's coordinates. Animatable.
    open var position: CGPoint {
        get { point(.position) }
        set { setPoint(.position, newValue) }
    }
    /// The anchor point in unit coordinates of the bounds (0.5, 0.5 by default). Animatable.
    open var anchorPoint: CGPoint {
        get { point(.anchorPoint) }
        set { setPoint(.anchorPoint, newValue) }
    }
    /// The anchor point's z component. Animatable.
    open var anchorPointZ: CGFloat {
        get { CGFloat(readScalar(.anchorPointZ)) }
        set { writeScalar(.anchorPointZ, Double(newValue)) }
    }
    /// Position on the z axis. Animatable.
    open var zPosition: CGFloat {
        get { CGFloat(readScalar(.zPosition)) }
        set { writeScalar(.zPosition, Double(newValue)) }
    }
    /// The layer's transform, about its anchor point. Animatable.
    open var transform: CATransform3D {
        get { transform3D(.transform) }
        set { setTransform3D(.transform, newValue) }
    }
    /// The transform applied to sublayers. Animatable.
    open var sublayerTransform: CATransform3D {
        get { transform3D(.sublayerTransform) }
        set { setTransform3D(.sublayerTransform, newValue) }
    }
    /// Opacity 0...1 (1 by default). Animatable.
    open var opacity: Float {
        get { Float(readScalar(.opacity)) }
        set { writeScalar(.opacity, Double(newValue)) }
    }
    /// Hidden layers are not drawn. Animatable; also sends kCAOnOrderIn / kCAOnOrderOut.
    open var isHidden: Bool {
        get { readScalar(.hidden) >= 0.5 }
        set { setHidden(newValue, in: context) }
    }
    /// Clips sublayers to the bounds. Animatable.
    open var masksToBounds: Bool {
        get { readScalar(.masksToBounds) >= 0.5 }
        set { writeScalar(.masksToBounds, newValue ? 1 : 0) }
    }
    /// Whether the back of the layer is drawn. Not animatable (no implied animation).
    open var isDoubleSided: Bool {
        get { readScalar(.doubleSided) >= 0.5 }
        set { writeScalar(.doubleSided, newValue ? 1 : 0) }
    }
    /// Background colour (nil by default). Animatable.
    open var backgroundColor: CGColor? {
        get { color(.backgroundColor) }
        set { setColor(.backgroundColor, newValue) }
    }
    /// Border colour (opaque black by default). Animatable.
    open var borderColor: CGColor? {
        get { color(.borderColor) }
        set { setColor(.borderColor, newValue) }
    }
    /// Border width (0 by default). Animatable.
    open var borderWidth: CGFloat {
        get { CGFloat(readScalar(.borderWidth)) }
        set { writeScalar(.borderWidth, Double(newValue)) }
    }
    /// Corner radius (0 by default). Animatable.
    open var cornerRadius: CGFloat {
        get { CGFloat(readScalar(.cornerRadius)) }
        set { writeScalar(.cornerRadius, Double(newValue)) }
    }
    /// Shadow colour (opaque black by default). Animatable.
    open var shadowColor: CGColor? {
        get { color(.shadowColor) }
        set { setColor(.shadowColor, newValue) }
    }
    /// Shadow offset ((0, -3) by default). Animatable.
    open var shadowOffset: CGSize {
        get { let l = readLanes(.shadowOffset); return CGSize(width: l[0], height: l[1]) }
        set { var l = Lanes(); l[0] = Double(newValue.width); l[1] = Double(newValue.height); writeLanes(.shadowOffset, l) }
    }
    /// Shadow opacity (0 by default). Animatable.
    open var shadowOpacity: Float {
        get { Float(readScalar(.shadowOpacity)) }
        set { writeScalar(.shadowOpacity, Double(newValue)) }
    }
    /// Shadow blur radius (3 by default). Animatable.
    open var shadowRadius: CGFloat {
        get { CGFloat(readScalar(.shadowRadius)) }
        set { writeScalar(.shadowRadius, Double(newValue)) }
    }
    /// The portion of the contents shown, in unit coordinates ((0,0,1,1) by default). Animatable.
    open var contentsRect: CGRect {
        get { rect(.contentsRect) }
        set { setRect(.contentsRect, newValue) }
    }

    /// Derived from bounds, position, anchorPoint and transform; not animatable. Setting it
    /// sets `bounds.size` and `position` (and those animate).
    open var frame: CGRect {
        get { frameFromGeometry() }
        set { setFrameThroughGeometry(newValue) }
    }

    /// The contents (an image or any object). Changes run a fade transition by default.
    open var contents: Any? {
        get { readObject(.contents) }
        set { setObject(.contents, newValue, in: context) }
    }
    /// A layer whose alpha masks this one.
    open var mask: CALayer? {
        get { readObject(.mask) as? CALayer }
        set { setObject(.mask, newValue, in: context) }
    }
    /// The shadow's shape.
    open var shadowPath: CGPath? {
        get { readObject(.shadowPath) as? CGPath }
        set { setObject(.shadowPath, newValue, in: context) }
    }
    /// Filters applied to the layer and its sublayers.
    open var filters: [Any]? {
        get { readObject(.filters) as? [Any] }
        set { setObject(.filters, newValue, in: context) }
    }
    /// Filters applied to the content behind the layer.
    open var backgroundFilters: [Any]? {
        get { readObject(.backgroundFilters) as? [Any] }
        set { setObject(.backgroundFilters, newValue, in: context) }
    }
    /// The filter compositing the layer with its background.
    open var compositingFilter: Any? {
        get { readObject(.compositingFilter) }
        set { setObject(.compositingFilter, newValue, in: context) }
    }

    // MARK: CAMediaTiming of the layer (not animatable)

    /// The layer's begin time in its parent's time.
    open var beginTime: Double {
        get { readScalar(.beginTime) }
        set { setTiming(.beginTime, newValue, in: context) }
    }
    /// The layer's basic duration (0: endless). With repeatCount, repeatDuration,
    /// autoreverses and fillMode it folds the local time its subtree's animations see, as
    /// an animation's are folded (SEMANTICS.md "Fidelity rules", layer timing).
    open var duration: Double {
        get { readScalar(.duration) }
        set { setTiming(.duration, newValue, in: context) }
    }
    /// Rate of the layer's time (0 pauses the subtree's animations).
    open var speed: Float {
        get { Float(readScalar(.speed)) }
        set { setTiming(.speed, Double(newValue), in: context) }
    }
    /// Offset of the layer's time.
    open var timeOffset: Double {
        get { readScalar(.timeOffset) }
        set { setTiming(.timeOffset, newValue, in: context) }
    }
    /// Repeat count of the layer's time.
    open var repeatCount: Float {
        get { Float(readScalar(.repeatCount)) }
        set { setTiming(.repeatCount, Double(newValue), in: context) }
    }
    /// Repeat duration of the layer's time.
    open var repeatDuration: Double {
        get { readScalar(.repeatDuration) }
        set { setTiming(.repeatDuration, newValue, in: context) }
    }
    /// Autoreverse of the layer's time.
    open var autoreverses: Bool {
        get { readScalar(.autoreverses) != 0 }
        set { setTiming(.autoreverses, newValue ? 1 : 0, in: context) }
    }
    /// Fill mode of the layer's time.
    open var fillMode: CAMediaTimingFillMode {
        get { CAMediaTimingFillMode(code: UInt8(readScalar(.fillMode))) }
        set { setTiming(.fillMode, Double(newValue.code), in: context) }
    }

    // MARK: - drawing, hit testing and the affine transform: CALayerBase (Vocabulary/)

    // MARK: - the layer tree
    /// The parent layer, or nil.
    /// A presentation copy's is the presentation copy of its model's superlayer (the
    /// presentation tree, as Apple's).
    open var superlayer: CALayer? {
        guard row >= 0 else {
            let m = model()
            return m !== self ? m.superlayer?.presentation() : nil
        }
        let p = context.layers.parent[Int(row)]
        return p >= 0 ? context.layers.handle[Int(p)]?.takeUnretainedValue() : nil
    }

    /// The sublayers in order (nil when there are none). Setting it replaces them all.
    /// A presentation copy's are the presentation copies of its model's sublayers.
    open var sublayers: [CALayer]? {
        get {
            guard row >= 0 else {
                let m = model()
                return m !== self ? m.sublayers?.compactMap { $0.presentation() } : nil
            }
            return sublayerList()
        }
        set { replaceSublayers(newValue) }
    }

    /// Appends `layer` as the last sublayer (moving it from any other parent).
    open func addSublayer(_ layer: CALayer) {
        guard row >= 0, canAdopt(layer) else { return }
        adopt(layer, at: Int.max)
    }

    /// Inserts `layer` at `idx` among the sublayers (clamped to the count).
    open func insertSublayer(_ layer: CALayer, at idx: UInt32) {
        guard row >= 0, canAdopt(layer) else { return }
        adopt(layer, at: Int(idx))
    }

    /// Inserts `layer` just below `sibling` (appends if sibling is not a sublayer).
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) { insert(layer, below: sibling) }

    /// Inserts `layer` just above `sibling` (appends if sibling is not a sublayer).
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) { insert(layer, above: sibling) }

    /// Replaces sublayer `oldLayer` with `newLayer` at the same position.
    open func replaceSublayer(_ oldLayer: CALayer, with newLayer: CALayer) { replace(oldLayer, by: newLayer) }

    /// Removes the layer from its parent (kCAOnOrderOut runs first).
    open func removeFromSuperlayer() {
        guard row >= 0, context.layers.parent[Int(row)] >= 0 else { return }
        runEvent(KeyInterner.onOrderOut, in: context)
        leaveSuperlayer()
    }

    // MARK: - animations
    /// Adds a copy of `anim` under `key` (replacing the animation under that key; a
    /// transition always uses kCATransition). Bad input (unknown key path, a value of the
    /// wrong type, a non-finite value or timing) is refused with a diagnostic.
    open func add(_ anim: CAAnimation, forKey key: String?) {
        addAnimation(anim, forKey: anim is CATransition ? kCATransition : key, in: context, fromAction: false)
    }

    /// The animation under `key` (treat it as read-only), or nil.
    open func animation(forKey key: String) -> CAAnimation? {
        guard row >= 0 else { return nil }
        let id = context.animations.record(row: row, key: KeyInterner.id(key).raw)
        return id >= 0 ? context.compiler.animationObject(id) : nil
    }

    /// Keys of the running animations in the order they were added; nil when none.
    open func animationKeys() -> [String]? { runningAnimationKeys() }

    /// Removes the animation under `key` at once; the presentation snaps to the model.
    open func removeAnimation(forKey key: String) {
        guard row >= 0, context.isCurrent else { return }
        if let r = context.recorder { r.removedAnimation(key, from: self) }
        context.removeAnimation(row: row, key: KeyInterner.id(key).raw, finished: false, snap: true)
    }

    /// Removes every animation at once; the presentation snaps to the model.
    open func removeAllAnimations() {
        guard row >= 0, context.isCurrent else { return }
        if let r = context.recorder { r.removedAnimation(nil, from: self) }
        context.removeAllAnimations(row: row)
    }

    /// Converts `t` from `l`'s time space (media time when nil) to this layer's: `l`'s time
    /// back to media time through the linear part of each ancestor's timing, then down to
    /// this layer's local time, folded by each layer's duration, repeats, autoreverses and
    /// fill mode as an animation's time is (SEMANTICS.md "Fidelity rules", layer timing).
    open func convertTime(_ t: Double, from l: CALayer?) -> Double {
        let toGlobal = l.map { $0.localToParentChain(t) } ?? t
        return globalToLocal(toGlobal)
    }

    /// Converts `t` from this layer's time space to `l`'s (media time when nil); the inverse
    /// of `convertTime(_:from:)` within the first iteration of a folding layer.
    open func convertTime(_ t: Double, to l: CALayer?) -> Double {
        let global = localToParentChain(t)
        return l.map { $0.globalToLocal(global) } ?? global
    }

    // MARK: - key-value coding
    /// Key-value coding: a built-in property, a key path into one (`position.x`,
    /// `bounds.size.width`, `transform.rotation.z`), or a custom key.
    open func value(forKeyPath keyPath: String) -> Any? { keyValue(forKeyPath: keyPath) }

    /// `value(forKeyPath:)` for a single key.
    open func value(forKey key: String) -> Any? { value(forKeyPath: key) }

    /// Sets a built-in property, a key path into one, or a custom key. The change runs the
    /// property's action (looked up under the property's name, e.g. `position` for
    /// `position.x`). A value of the wrong type, a non-finite value or an unknown key path
    /// is refused with a diagnostic.
    open func setValue(_ value: Any?, forKeyPath keyPath: String) { setKeyValue(value, forKeyPath: keyPath) }

    /// `setValue(_:forKeyPath:)` for a single key.
    open func setValue(_ value: Any?, forKey key: String) { setValue(value, forKeyPath: key) }

    // MARK: lane access

    /// Clears `LayerFlags.hostView` (its view is gone); false, writing nothing, when the
    /// layer is another thread's.
    func clearHostViewFlag() -> Bool {
        guard row >= 0 else { return true }
        guard engine.isCurrent else { return false }
        setFlag(LayerFlags.hostView, false)
        return true
    }

    @inline(__always)
    func setFlag(_ bit: UInt16, _ on: Bool) {
        guard row >= 0 else { return }
        if on { context.layers.flags[Int(row)] |= bit } else { context.layers.flags[Int(row)] &= ~bit }
    }

    /// Model lanes of `p` (a copy's: its source's presentation lanes, or its own).
    @inline(__always)
    func readLanes(_ p: PropertyID) -> Lanes {
        if _slowPath(row < 0) { return copyLanes(p) }
        let info = PropertyTable[p]
        if let col = context.layers.model[p.index] {
            return Lanes(loading: col.base + Int(row) * info.width, width: info.width)
        }
        return Lanes(info.defaults, width: info.width)
    }

    @inline(__always)
    func readScalar(_ p: PropertyID) -> Double {
        if _slowPath(row < 0) { return copyScalar(p) }
        if let col = context.layers.model[p.index] { return col[Int(row)] }
        return PropertyTable[p].defaults[0]
    }

    @inline(__always)
    func writeScalar(_ p: PropertyID, _ v: Double) {
        var l = Lanes()
        l[0] = v
        if let e = mutableEngine { setProperty(in: e, p, l) }
    }

    @inline(__always)
    func writeLanes(_ p: PropertyID, _ l: Lanes) { if let e = mutableEngine { setProperty(in: e, p, l) } }

    func readObject(_ p: PropertyID) -> Any? {
        if row < 0 { return copiedObject(p.raw) }
        guard let o = objectState else { return nil }
        switch p {
        case .contents: return o.contents
        case .mask: return o.mask
        case .shadowPath: return o.shadowPath
        case .filters: return o.filters
        case .backgroundFilters: return o.backgroundFilters
        case .compositingFilter: return o.compositingFilter
        case .path: return o.path
        default: return nil
        }
    }

    func storeObject(_ p: PropertyID, _ v: Any?) {
        switch p {
        case .contents: objects.contents = v
        case .mask: objects.mask = v as? CALayer
        case .shadowPath: objects.shadowPath = v as? CGPath
        case .filters: objects.filters = v as? [Any]
        case .backgroundFilters: objects.backgroundFilters = v as? [Any]
        case .compositingFilter: objects.compositingFilter = v
        case .path: objects.path = v as? CGPath
        default: break
        }
    }
}

/// A layer's object-valued properties, custom keys, their committed and animated values, and
/// its actions by interned key (see `CALayer.objectState`).
final class LayerObjectState {
    var contents: Any?
    var mask: CALayer?
    var shadowPath: CGPath?
    var filters: [Any]?
    var backgroundFilters: [Any]?
    var compositingFilter: Any?
    var path: CGPath?
    var custom: [Int32: Any] = [:]
    var animated: [Int32: Any?] = [:]
    var animatedCustom: [Int32: Any] = [:]
    var committed: [Int32: Any] = [:]
    var internedActions: [Int32: CAAction] = [:]
    /// `style`'s actions as the lookup reads them (`StyleActions`); reset when `style` is set.
    var styleActions = StyleActions.unbuilt
}

/// What `init(presenting:)` hands `init(layer:)`: the layer a presentation copy of the engine's
/// own classes presents (a struct of one reference: boxed in `Any` without an allocation).
struct PresentingSource {
    let layer: CALayer
}
