import Foundation

// Presentation copies.
//
// `presentation()` returns a new object each call (Apple's does too) and copies no lane
// value: the copy keeps its model layer's row and reads the presentation columns when a value
// is asked for (objects and the running transition are taken at once: a shared dictionary in
// the common case). That is only right while the columns hold what was on screen when the
// copy was made, so the engine keeps its live copies (`EngineContext.liveCopies`) and, before
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
        if modelAlive { modelLayerRef = engine.layers.handle[Int(r)]?.takeUnretainedValue() }
        presentedRow = -1
    }

    /// A copy's lanes of `p`: its model row's presentation column, or its own copy.
    @inline(never)
    func copyLanes(_ p: PropertyID) -> Lanes {
        let info = PropertyTable[p]
        var v = Lanes()
        if presentedRow >= 0 {
            if let col = engine.layers.presentation[p.index] {
                let base = Int(presentedRow) * info.width
                for c in 0..<info.width { v[c] = col[base + c] }
            } else {
                for c in 0..<info.width { v[c] = info.defaults[c] }
            }
        } else if let s = copiedLanes {
            for c in 0..<info.width { v[c] = s[info.laneOffset + c] }
        } else {
            for c in 0..<info.width { v[c] = info.defaults[c] }
        }
        return v
    }

    /// A copy's object or custom-key value.
    func copiedObject(_ key: Int32) -> Any? { copiedObjects[key] }

    /// Object values and custom keys as presented (committed, animated on top): the
    /// committed dictionary itself, shared, when nothing animates them.
    func presentedObjects() -> [Int32: Any] {
        if animatedObjects.isEmpty && animatedCustom.isEmpty { return committedObjects }
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

    private func snapshotLanes(_ cols: Column<UnsafeMutablePointer<Double>?>, row: Int32) -> [Double] {
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
        if row < 0 { return copiedObjects }
        var o: [Int32: Any] = [:]
        let pairs: [(PropertyID, Any?)] = [
            (.contents, contentsValue), (.mask, maskValue), (.shadowPath, shadowPathValue),
            (.filters, filtersValue), (.backgroundFilters, backgroundFiltersValue),
            (.compositingFilter, compositingFilterValue), (.path, pathValue)]
        guard presentation else {
            for (p, v) in pairs { if let v { o[p.raw] = v } }
            for (k, v) in customValues { o[k] = v }
            return o
        }
        // Presented: committed values, with animated ones on top.
        o = committedObjects
        for (p, _) in pairs { if let animated = animatedObjects[p.raw] { o[p.raw] = animated } }
        for (k, v) in animatedCustom { o[k] = v }
        return o
    }
}

extension EngineContext {
    /// Keeps a new presentation copy until the engine next changes what is presented.
    /// Copies nobody else holds are dropped on the way (every 4,096 new ones at most), so a
    /// loop reading `presentation()` of every layer holds a bounded number.
    @inline(__always)
    func registerLiveCopy(_ copy: CALayer) {
        liveCopies.append(copy)
        if _slowPath(liveCopies.count >= liveCopiesSweepAt) { sweepLiveCopies() }
    }

    @inline(never)
    private func sweepLiveCopies() {
        var kept = 0
        for i in liveCopies.indices where !isKnownUniquelyReferenced(&liveCopies[i]) {
            liveCopies.swapAt(kept, i)
            kept += 1
        }
        liveCopies.removeSubrange(kept...)
        // Held copies stay; the next sweep waits until as many new ones came.
        liveCopiesSweepAt = max(4_096, 2 * kept)
    }

    /// What is presented is about to change (or rows are about to be freed): every live copy
    /// held outside the engine takes its values now; the others are let go. `dying`: a row
    /// whose layer is going away (its copies keep no reference to it).
    /// `dying` for "layers released on other threads may be gone": no copy refers to its
    /// model layer afterwards.
    static let everyRowDying: Int32 = -2

    @inline(__always)
    func freezeLiveCopies(dying: Int32 = -1) {
        if _slowPath(!liveCopies.isEmpty) { freezeLiveCopiesNow(dying: dying) }
    }

    @inline(never)
    private func freezeLiveCopiesNow(dying: Int32) {
        var copies = liveCopies
        liveCopies = []
        for i in copies.indices where !isKnownUniquelyReferenced(&copies[i]) {
            copies[i].freezePresentation(modelAlive: dying != EngineContext.everyRowDying && copies[i].presentedRow != dying)
        }
        copies.removeAll(keepingCapacity: true)
        liveCopies = copies
        liveCopiesSweepAt = 4_096
    }
}
