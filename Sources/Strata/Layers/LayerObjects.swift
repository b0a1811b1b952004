/// What the layers keep per engine (the engine's `LayerSide`): the presentation copies it
/// tracks and recycles, its display work, and the layer objects' animated values as the
/// engine's animations end. Made with the engine's first layer (`EngineContext.layerObjects`);
/// its copy stacks and display work are made on first use.
final class LayerObjects: LayerSide {
    /// Presentation copies that read the presentation columns on access, frozen before
    /// those change (`presentedValuesWillChange`).
    @exclusivity(unchecked) private var liveCopies = CopyStack(capacity: 0)
    @exclusivity(unchecked) private var liveCopiesSweepAt = 4_096
    /// Copies nobody held, kept for the next ones (see `recycle`).
    @exclusivity(unchecked) private var recycledLayers = CopyStack(capacity: 0)
    @exclusivity(unchecked) private var recycledShapeLayers = CopyStack(capacity: 0)
    /// The layer `presentation()` is copying now (`CALayer.init(layer:)` asks).
    @exclusivity(unchecked) var presentationCopySource: ObjectIdentifier?
    /// The outermost `releaseOrphans` is letting go of sublayers (inner calls return).
    @exclusivity(unchecked) private var releasingOrphans = false
    /// Layers to display at the next commit and layers drawing animated keys
    /// (CALayer+Display): made on first use, so engines that never draw allocate nothing for it.
    @exclusivity(unchecked) private var displayWork: DisplayQueue?

    init() {}

    /// Display work, made on first use (the engine then asks at each outermost commit and
    /// frame end).
    func displayQueue(_ engine: EngineContext) -> DisplayQueue {
        if let q = displayWork { return q }
        let q = DisplayQueue()
        displayWork = q
        engine.hasDisplayWork = true
        return q
    }

    // MARK: presentation copies

    /// Keeps a new presentation copy until the engine next changes what is presented.
    /// Copies nobody else holds are taken back on the way (every 4,096 new ones at most),
    /// so a loop reading `presentation()` of every layer holds a bounded number.
    @inline(__always)
    func registerLiveCopy(_ copy: CALayer, in engine: EngineContext) {
        liveCopies.push(copy)
        engine.hasLiveCopies = true
        if _slowPath(liveCopies.count >= liveCopiesSweepAt) { sweepLiveCopies(engine) }
    }

    @inline(never)
    private func sweepLiveCopies(_ engine: EngineContext) {
        var i = 0
        while i < liveCopies.count {
            if liveCopies.isUnique(at: i) { recycle(liveCopies.remove(at: i)) } else { i += 1 }
        }
        // Held copies stay; the next sweep waits until as many new ones came.
        liveCopiesSweepAt = max(4_096, 2 * liveCopies.count)
        engine.hasLiveCopies = !liveCopies.isEmpty
    }

    /// Up to 4,096 copies of each of the engine's own classes that nobody held are kept for
    /// the next `presentation()` calls (custom subclasses' copies are let go: their
    /// `init(layer:)` must run; so are copies whose holder set a delegate, actions or style).
    private func recycle(_ copy: consuming CALayer) {
        let cls = type(of: copy)
        guard copy.presentedRow >= 0, !copy.copyChanged else { return }
        if cls == CALayer.self {
            if recycledLayers.count < 4_096 { recycledLayers.push(copy) }
        } else if cls == CAShapeLayer.self {
            if recycledShapeLayers.count < 4_096 { recycledShapeLayers.push(copy) }
        }
    }

    /// `presentation()` of `layer`, a `CALayer` or (`shape`) a `CAShapeLayer` of this
    /// engine: a copy nobody holds any more used again (no allocation, no deinit), or a new
    /// one, reading `layer`'s presentation columns; registered as live.
    @inline(__always)
    func presentationCopy(of layer: CALayer, shape: Bool, in engine: EngineContext) -> CALayer {
        let p: CALayer
        if let recycled = recycledCopy(shape: shape) {
            recycled.present(layer)
            p = recycled
        } else {
            p = shape ? CAShapeLayer(presenting: layer) : CALayer(presenting: layer)
        }
        if _slowPath(engine.recorder != nil) { engine.recorder!.copyMade(p, of: layer) }
        registerLiveCopy(p, in: engine)
        return p
    }

    /// Copies the engine tracks now, and copies kept for reuse (for tests and reports).
    var liveCopyCount: Int { liveCopies.count }
    var recycledCount: Int { recycledLayers.count + recycledShapeLayers.count }

    /// A copy kept by `recycle`, or nil.
    @inline(__always)
    func recycledCopy(shape: Bool) -> CALayer? {
        shape ? recycledShapeLayers.pop() : recycledLayers.pop()
    }

    func presentedValuesWillChange(dying: Int32, in engine: EngineContext) {
        while var c = liveCopies.pop() {
            if isKnownUniquelyReferenced(&c) {
                recycle(c)
            } else {
                c.freezePresentation(modelAlive: dying != EngineContext.everyRowDying && c.presentedRow != dying)
            }
        }
        liveCopiesSweepAt = 4_096
        engine.hasLiveCopies = false
    }

    func engineWillEnd(_ engine: EngineContext) {
        presentedValuesWillChange(dying: -1, in: engine)
        while recycledLayers.pop() != nil {}
        while recycledShapeLayers.pop() != nil {}
    }

    // MARK: display

    /// Marks layers whose class displays for a key changed in this transaction (or whose
    /// bounds changed with `needsDisplayOnBoundsChange`), then displays the marked ones.
    func outermostCommitWillPop(_ engine: EngineContext) {
        guard let displayQueue = displayWork else { return }
        let layers = engine.layers
        if displayQueue.watchesKeys || displayQueue.watchesBounds {
            // Indexed: a display callback may change properties (appended, not visited), or
            // flush, whose commit takes the log (and its own pass over it): then this stops.
            for k in 0..<engine.changes.properties.count where k < engine.changes.properties.count {
                let (row, p) = (engine.changes.properties[k].row, engine.changes.properties[k].property)
                guard layers.flags[Int(row)] & LayerFlags.alive != 0 else { continue }
                let custom = layers.flags[Int(row)] & LayerFlags.customClass != 0
                guard custom || (displayQueue.watchesBounds && p == .bounds),
                      let layer = layers.handle[Int(row)]?.takeUnretainedValue() else { continue }
                layer.noteDisplayChange(PropertyTable[p].name)
            }
            for (row, key) in engine.changes.objects where layers.flags[Int(row)] & LayerFlags.customClass != 0 {
                guard let layer = layers.handle[Int(row)]?.takeUnretainedValue() else { continue }
                layer.noteDisplayChange(KeyInterner.name(PropertyID(key)))
            }
        }
        if displayQueue.hasMarked { displayQueue.displayMarked() }
    }

    func frameWillEnd() {
        if let q = displayWork, q.hasAnimating { q.displayAnimated() }
    }

    // MARK: animated values of layer objects

    func commitObjects(_ objects: [(row: Int32, key: Int32)], in engine: EngineContext) {
        let layers = engine.layers, animations = engine.animations
        for (row, key) in objects where layers.flags[Int(row)] & LayerFlags.alive != 0 {
            guard let layer = layers.handle[Int(row)]?.takeUnretainedValue() else { continue }
            let id = PropertyID(key)
            // An animation drives it: what it showed stays until a frame evaluates it.
            if id.isBuiltIn, animations.hasAnimation(row: row, property: id), case .none = layer.animatedObjects[key] {
                layer.animatedObjects[key] = .some(layer.committedObjects[key])
            } else if !id.isBuiltIn, layer.animatedCustom[key] == nil, animations.hasCustomAnimation(row: row, key: key, except: -1) {
                layers.noteChanged(row)
                continue
            }
            let value: Any? = id.isBuiltIn ? layer.readObject(id) : layer.customModel(key)
            if let value { layer.committedObjects[key] = value } else { layer.committedObjects[key] = nil }
            layers.noteChanged(row)
        }
    }

    func objectAnimationRemoved(row: Int32, _ property: PropertyID, in engine: EngineContext) {
        guard let layer = engine.layers.handle[Int(row)]?.takeUnretainedValue() else { return }
        layer.animatedObjects[property.raw] = nil
        layer.committedObjects[property.raw] = layer.readObject(property)
    }

    func customAnimationRemoved(row: Int32, key: Int32, in engine: EngineContext) {
        guard let layer = engine.layers.handle[Int(row)]?.takeUnretainedValue() else { return }
        layer.animatedCustom[key] = nil
        layer.committedObjects[key] = layer.customModel(key)
    }

    func animatedObjectRefreshed(row: Int32, _ property: PropertyID, in engine: EngineContext) {
        engine.layers.handle[Int(row)]?.takeUnretainedValue().animatedObjects[property.raw] = nil
    }

    // MARK: sublayers of going layers

    func releaseOrphans(_ engine: EngineContext) {
        // A chain of a million layers is released level by level here, not by recursion:
        // a release that ends a layer queues its sublayers and returns to this loop.
        guard !releasingOrphans else { return }
        releasingOrphans = true
        while let row = engine.orphans.popLast() { engine.layers.handle[Int(row)]?.release() }
        releasingOrphans = false
    }
}

extension EngineContext {
    /// What the layers keep for this engine (made with its first layer).
    var layerObjects: LayerObjects {
        if let s = layerSide { return unsafeDowncast(s, to: LayerObjects.self) }
        return makeLayerObjects()
    }

    /// What the layers keep for this engine, unretained, for the paths that run per call
    /// (`presentation()`): use it through `_withUnsafeGuaranteedRef`. The engine holds it
    /// strongly for its whole life (`layerSide` is set once and never cleared), so a borrow
    /// needs no retain. Each `layerObjects` was a load of the existential with a retain and a
    /// release around the call (issue 58: two of them in every `presentation()`).
    @inline(__always)
    var layerObjectsRef: Unmanaged<LayerObjects> {
        if let s = layerSide { return Unmanaged.passUnretained(unsafeDowncast(s, to: LayerObjects.self)) }
        return Unmanaged.passUnretained(makeLayerObjects())
    }

    @inline(never)
    private func makeLayerObjects() -> LayerObjects {
        let s = LayerObjects()
        layerSide = s
        return s
    }

    /// This engine's display work.
    var displayQueue: DisplayQueue { layerObjects.displayQueue(self) }
}
