/// The animation store's per-layer lists: each layer's records in add order (the order of
/// `animationKeys()` and of composition), and the questions asked of them. The store owns
/// the lists; the engine's add, replace and retire paths go through these.
extension AnimationStore {
    /// Links a new record at the end of its layer's list and into its timing entry's list
    /// (newest first), counting it in the entry.
    @inline(__always)
    func link(_ id: Int32, timings: TimingStore) {
        let r = records[Int(id)]
        let row = Int(r.layer)
        let last = lastOfLayer[row]
        records[Int(id)].prevInLayer = last
        records[Int(id)].nextInLayer = -1
        if last >= 0 { records[Int(last)].nextInLayer = id } else { firstOfLayer[row] = id }
        lastOfLayer[row] = id
        let e = Int(r.timing)
        let head = timings.firstRecord[e]
        records[Int(id)].nextInTiming = head
        records[Int(id)].prevInTiming = -1
        if head >= 0 { records[Int(head)].prevInTiming = id }
        timings.firstRecord[e] = id
        timings.refCount[e] += 1
        if r.flags & RecordFlags.hasDelegate != 0 { timings.delegateCount[e] += 1 }
    }

    /// Several animations of one layer property, or an additive one, are composed in list
    /// order after the kernels run; a single replacing animation is scattered directly.
    func updateComposition(row: Int32, _ p: PropertyID) {
        var n = 0, additive = false
        var id = firstOfLayer[Int(row)]
        while id >= 0 {
            let r = records[Int(id)]
            if r.property == p.raw && (r.kind == .lanes || r.kind == .keyframes) {
                n += 1
                if r.flags & RecordFlags.additive != 0 { additive = true }
                // A lane range (position.x) is laid over the model value, which may change.
                let partial = r.kind == .lanes ? tracks[Int(r.track)].width != tracks[Int(r.track)].propertyWidth
                    : keyframeTracks[Int(r.track)].width != keyframeTracks[Int(r.track)].propertyWidth
                if partial { additive = true }
            }
            id = r.nextInLayer
        }
        let needs = n > 1 || additive
        id = firstOfLayer[Int(row)]
        while id >= 0 {
            let r = records[Int(id)]
            if r.property == p.raw && r.kind == .lanes {
                let t = tracks[Int(r.track)]
                t.compose[Int(r.slot)] = (t.compose[Int(r.slot)] & ~SlotFlags.compose) | (needs ? SlotFlags.compose : 0)
            } else if r.property == p.raw && r.kind == .keyframes {
                let t = keyframeTracks[Int(r.track)]
                t.flags[Int(r.slot)] = (t.flags[Int(r.slot)] & ~SlotFlags.compose) | (needs ? SlotFlags.compose : 0)
            }
            id = r.nextInLayer
        }
        let i = composed.index(row: row, property: p.raw)
        if i >= 0 {
            if !needs { composed.remove(at: i) }
        } else if needs {
            composed.insert(row: row, property: p.raw)
        }
    }

    /// Whether a record of the layer drives property `p`. Inline: the implicit change asks it
    /// for every slot it adds (a call was 10 instructions of `commit/implicit`'s 478).
    @inline(__always)
    func hasAnimation(row: Int32, property p: PropertyID) -> Bool {
        var id = firstOfLayer[Int(row)]
        while id >= 0 {
            let r = records[Int(id)]
            if r.property == p.raw { return true }
            id = r.nextInLayer
        }
        return false
    }

    func record(row: Int32, key: Int32) -> Int32 {
        var id = firstOfLayer[Int(row)]
        while id >= 0 {
            if records[Int(id)].key == key { return id }
            id = records[Int(id)].nextInLayer
        }
        return -1
    }

    /// What a record writes, for replacement: its property, or -1000 - key for a custom key.
    func target(of id: Int32) -> Int32 {
        let r = records[Int(id)]
        if r.kind == .custom, let d = derivedValues[id] { return -1000 - d.customKey }
        return r.property
    }

    /// Is another animation of custom key `key` attached to the layer?
    func hasCustomAnimation(row: Int32, key: Int32, except: Int32) -> Bool {
        var found = false
        forEachCustomRecord(row: row, key: key) { id, _ in if id != except { found = true } }
        return found
    }

    /// Calls `body` with each of the layer's animation records of custom key `key`, in add order.
    func forEachCustomRecord(row: Int32, key: Int32, _ body: (Int32, AnimationRecord) -> Void) {
        var id = firstOfLayer[Int(row)]
        while id >= 0 {
            let r = records[Int(id)]
            if r.kind == .custom, derivedValues[id]?.customKey == key { body(id, r) }
            id = r.nextInLayer
        }
    }

    /// Takes record `r` out of its layer's animation list (`detach`, `retireLaneRecords`).
    @inline(__always)
    func unlinkFromLayer(_ r: AnimationRecord) {
        let row = Int(r.layer)
        if r.prevInLayer >= 0 { records[Int(r.prevInLayer)].nextInLayer = r.nextInLayer }
        else { firstOfLayer[row] = r.nextInLayer }
        if r.nextInLayer >= 0 { records[Int(r.nextInLayer)].prevInLayer = r.prevInLayer }
        else { lastOfLayer[row] = r.prevInLayer }
    }

    /// Swap-removes lane record `r`'s track slot (the record moved into it takes the slot);
    /// returns whether the slot was composed.
    @inline(__always)
    func removeLaneSlot(_ r: AnimationRecord) -> Bool {
        trackHandles[Int(r.track)]._withUnsafeGuaranteedRef { t in
            let composed = t.compose[Int(r.slot)] & SlotFlags.compose != 0
            let moved = t.remove(r.slot)
            if moved >= 0 { records[Int(moved)].slot = r.slot }
            return composed
        }
    }
}

extension AnimationStore {
    /// The running transition of `row` at the last frame's progress (nil when none is active).
    /// Inline: called across the store's boundary, each call retained and released the store
    /// and the timing store (a859f42: `program/frame/transition/1000`, a renderer reading one
    /// layer's transition in ten each frame, 54.8 -> 64.3 instructions an item).
    @inline(__always)
    func transitionState(row: Int32, timings: TimingStore) -> CATransitionState? {
        let id = record(row: row, key: KeyInterner.transition.raw)
        guard id >= 0, let t = objects[Int(id)] as? CATransition else { return nil }
        let e = Int(records[Int(id)].timing)
        guard timings.phase[e] == TimingPhase.active.rawValue else { return nil }
        let p = Float(timings.progress[e])
        return CATransitionState(type: t.type, subtype: t.subtype ?? .fromLeft,
                                 progress: t.startProgress + (t.endProgress - t.startProgress) * p)
    }
}
