import Foundation

// Presentation copies.
//
// `presentation()` returns a new object each call (Apple's does too) and copies no lane
// value: the copy keeps its model layer's row and reads the presentation columns when a value
// is asked for (objects and the running transition are taken at once: a shared dictionary in
// the common case). That is only right while the columns hold what was on screen when the
// copy was made, so the engine keeps its live copies (`LayerObjects`) and, before
// anything changes what is presented (a commit, `render()`, `endFrame()`, an animation
// removed, layer timing set) or frees a row, freezes each copy still held elsewhere: it then
// copies every value, as every copy used to at once. A copy read at once and dropped, the
// common case, costs an allocation. Copies hold no reference to their model layer, so they
// do not keep it alive.

extension CALayer {
    /// Every presented value of this (model) layer copied into `copy`.
    func fill(_ copy: CALayer) {
        copy.copiedLanes = presentationSnapshot()
        copy.copiedObjects = objectSnapshot(presentation: true)
        copy.copiedTransition = runningTransition
        copy.modelLayerRef = self
        copy.presentedRow = -1
    }

    /// A live copy takes its values now. `modelAlive`: false while the model layer is going
    /// away (no weak reference may be formed to it then).
    func freezePresentation(modelAlive: Bool) {
        let r = presentedRow
        guard r >= 0 else { return }
        copiedLanes = snapshotLanes(engine.layers.presentation, row: r)
        copiedTransition = engine.animations.transitionState(row: r, timings: engine.timings)
        if modelAlive { modelLayerRef = engine.layers.handle[Int(r)]?.takeUnretainedValue() }
        presentedRow = -1
    }

    /// A live copy's lanes of `p` (`width` of them) where they are: its model row in the
    /// presentation column. Nil when the copy is frozen or its property has no column, or while a
    /// recorder notes reads (`copyLanes`).
    @inline(__always)
    func liveCopyLanes(_ p: PropertyID, width: Int) -> UnsafeMutablePointer<Double>? {
        guard presentedRow >= 0, let col = engine.layers.presentation[p.index], _fastPath(engine.recorder == nil) else { return nil }
        return col.base + Int(presentedRow) &* width
    }

    /// A copy's value of one-lane property `p` (`copyLanes(p)[0]`, without the lanes).
    @inline(__always)
    func copyScalar(_ p: PropertyID) -> Double {
        if let v = liveCopyLanes(p, width: 1) { return v[0] }
        return copyLanes(p)[0]
    }

    /// A copy's lanes of `p`: its model row's presentation column, or its own copy.
    @inline(never)
    func copyLanes(_ p: PropertyID) -> Lanes {
        let v = presentedLanes(p)
        if let r = EngineContext.current.recorder { r.read(self, p, v) }
        return v
    }

    func presentedLanes(_ p: PropertyID) -> Lanes {
        if presentedRow >= 0, let col = engine.layers.presentation[p.index] {
            let w = engine.hot[p.index].width
            return Lanes(loading: col.base + Int(presentedRow) * w, width: w)
        }
        let info = PropertyTable[p]
        if presentedRow < 0, let s = copiedLanes { return Lanes(s, from: info.laneOffset, width: info.width) }
        return Lanes(info.defaults, width: info.width)
    }

    /// A copy's object or custom-key value.
    func copiedObject(_ key: Int32) -> Any? { copiedObjects?[key] ?? nil }

    /// Object values and custom keys as presented (committed, animated on top): the
    /// committed dictionary itself, shared, when nothing animates them.
    func presentedObjects() -> [Int32: Any]? {
        guard let o = objectState else { return nil }
        if o.animated.isEmpty && o.animatedCustom.isEmpty { return o.committed }
        return objectSnapshot(presentation: true)
    }

    /// Every lane property's model value (a copy's own values).
    func modelSnapshot() -> [Double] {
        if row < 0 {
            if presentedRow >= 0 { return snapshotLanes(engine.layers.presentation, row: presentedRow) }
            return copiedLanes ?? PropertyTable.defaultSnapshot
        }
        return snapshotLanes(engine.layers.model, row: row)
    }

    /// Every lane property's presentation value.
    func presentationSnapshot() -> [Double] { snapshotLanes(engine.layers.presentation, row: row) }

    private func snapshotLanes(_ cols: Column<Slab<Double>?>, row: Int32) -> [Double] {
        var s = PropertyTable.defaultSnapshot
        let i = Int(row)
        for p in 0..<PropertyTable.count {
            guard let col = cols[p] else { continue }
            let info = PropertyTable.rows[p]
            for c in 0..<info.width { s[info.laneOffset + c] = col[i * info.width + c] }
        }
        return s
    }

    /// Object-valued properties and custom keys: the model's, or (`presentation`) the
    /// committed ones with animated values on top.
    func objectSnapshot(presentation: Bool) -> [Int32: Any] {
        if row < 0 { return copiedObjects ?? [:] }
        var o: [Int32: Any] = [:]
        let pairs: [(PropertyID, Any?)] = [.contents, .mask, .shadowPath, .filters, .backgroundFilters, .compositingFilter, .path]
            .map { ($0, readObject($0)) }
        guard presentation else {
            for (p, v) in pairs { if let v { o[p.raw] = v } }
            for (k, v) in customValues { o[k] = v }
            return o
        }
        // Presented: committed values, with animated ones on top.
        o = committedObjects
        for (p, _) in pairs { if let animated = animatedObjects[p.raw] { o[p.raw] = CALayer.shown(animated) } }
        for (k, v) in animatedCustom { o[k] = CustomLanes.value(v) }
        return o
    }
}

extension CALayer {
    /// `presentation()`: a recycled or new copy reading the presentation columns, registered as live.
    func makePresentationCopy() -> Self? {
        guard row >= 0 else { return presentedRow < 0 && copiedLanes == nil ? nil : self }
        let e = engine
        guard e.layers.flags[Int(row)] & LayerFlags.committed != 0 else { return nil }
        guard e.isCurrent else {
            // Read from another thread (reported): a copy made now, the engine's list of
            // live copies left alone.
            e.reportForeignUse(layerNamed: name)
            let p = Self(_strataLayer: self)
            fill(p)
            p.copyAcceptsWrites = false
            return p
        }
        let cls = type(of: self)
        if cls == CALayer.self || cls == CAShapeLayer.self {
            // The engine's own classes.
            return unsafeDowncast(engineClassCopy(e, shape: cls == CAShapeLayer.self), to: Self.self)
        }
        // A subclass: its `init(layer:)` runs (and may not reach CALayer's).
        let objects = e.layerObjects
        objects.presentationCopySource = ObjectIdentifier(self)
        let p = Self(_strataLayer: self)
        objects.presentationCopySource = nil
        p.copyAcceptsWrites = false
        if _slowPath(e.recorder != nil) { e.recorder!.copyMade(p, of: self) }
        if p.presentedRow != row {
            // A subclass's `init(layer:)` that did not reach CALayer's: copy everything.
            fill(p)
            return p
        }
        objects.registerLiveCopy(p, in: e)
        return p
    }

    /// `presentation()` of a layer of the engine's own classes: one borrowed call into the
    /// layers' side, with no retain of it (see `layerObjectsRef`).
    @inline(__always)
    private func engineClassCopy(_ e: EngineContext, shape: Bool) -> CALayer {
        e.layerObjectsRef._withUnsafeGuaranteedRef { $0.presentationCopy(of: self, shape: shape, in: e) }
    }
}
