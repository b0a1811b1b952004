import Foundation

/// What taking records out of the stores leaves for the owner to do once they are
/// consistent: delegates to tell, completion groups to count down, and what the layer
/// objects show. The stores name no layer object and no transaction, so they hand it back.
struct RemovalEffects {
    /// Delegates to tell (animation, finished), in removal order.
    var stopped: [(CAAnimation, Bool)] = []
    /// The rest, in the order it happened (empty for most removals: a lane animation replaced
    /// by another leaves nothing to do).
    var other: [RemovalEffect] = []
}

enum RemovalEffect {
    /// A timing entry lost its last animation: the completion groups it counted toward.
    case entryDone([CompletionGroup])
    /// A replaced animation's value shows until the next render refreshes it.
    case refreshAtRender(row: Int32, PropertyID)
    /// An object property's last animation was removed: the layer object shows its model value.
    case objectAnimationRemoved(row: Int32, PropertyID)
    /// A custom key's last animation was removed: the layer object shows its model value.
    case customAnimationRemoved(row: Int32, key: Int32)
}

extension AnimationStore {
    /// Takes a record out of every list and column; the presentation value snaps to the
    /// model when no other animation drives the property (`snap`; a replaced animation's
    /// value stays until the next frame). A group's members go with it.
    func detach(_ id: Int32, finished: Bool, snap: Bool, layers: LayerStore, timings: TimingStore,
                effects: inout RemovalEffects) {
        let r = records[Int(id)]
        let row = Int(r.layer)
        // What the layer shows may change (snaps, object values): the snapshot looks again.
        layers.noteChanged(r.layer)
        unlinkFromLayer(r)
        // timing list
        let e = Int(r.timing)
        if r.prevInTiming >= 0 { records[Int(r.prevInTiming)].nextInTiming = r.nextInTiming }
        else { timings.firstRecord[e] = r.nextInTiming }
        if r.nextInTiming >= 0 { records[Int(r.nextInTiming)].prevInTiming = r.prevInTiming }
        // values
        var composedBefore = false
        var rotated = false
        switch r.kind {
        case .lanes:
            composedBefore = removeLaneSlot(r)
        case .object:
            if let i = objectRecords.firstIndex(of: id) { objectRecords.remove(at: i) }
        case .keyframes:
            let t = keyframeTracks[Int(r.track)]
            composedBefore = t.flags[Int(r.slot)] & SlotFlags.compose != 0
            rotated = t.flags[Int(r.slot)] & SlotFlags.rotate != 0
            let moved = t.remove(r.slot)
            if moved >= 0 { records[Int(moved)].slot = r.slot }
        case .derived:
            break
        case .custom:
            detachCustom(id, r, snap: snap, effects: &effects)
        case .group:
            for child in groupChildren[id] ?? [] where records[Int(child)].flags & RecordFlags.alive != 0 {
                detach(child, finished: finished, snap: snap, layers: layers, timings: timings, effects: &effects)
            }
        case .timingOnly:
            break
        }
        if r.flags & RecordFlags.hasDelegate != 0 {
            timings.delegateCount[e] -= 1
            if let o = objects[Int(id)] { effects.stopped.append((o, finished)) }
        }
        freeRecord(id)
        timings.refCount[e] -= 1
        if timings.refCount[e] == 0 && timings.committed[e] {
            if let g = timings.takeGroups(Int32(e)) { effects.other.append(.entryDone(g)) }
            timings.release(Int32(e))
        }
        if rotated {
            rotatingSlots -= 1
            if !snap {
                // Replaced: the turned transform shows until the next frame refreshes it.
                effects.other.append(.refreshAtRender(row: r.layer, .transform))
            } else if !hasAnimation(row: r.layer, property: .transform) {
                layers.snapPresentation(r.layer, .transform)
            }
        }
        if r.property >= 0 {
            let p = PropertyID(r.property)
            if r.kind == .derived {
                if snap && !hasAnimation(row: r.layer, property: p) { layers.snapPresentation(r.layer, p) }
            } else if r.kind == .object {
                if !hasAnimation(row: r.layer, property: p), layers.handle[row] != nil {
                    // Removed: the model value shows at once, as for lane properties.
                    // Replaced: what it showed stays until the next frame refreshes it.
                    effects.other.append(snap ? .objectAnimationRemoved(row: r.layer, p) : .refreshAtRender(row: r.layer, p))
                }
            } else if !hasAnimation(row: r.layer, property: p) {
                if snap { layers.snapPresentation(r.layer, p) }
                if composedBefore { updateComposition(row: r.layer, p) }
            } else if composedBefore {
                updateComposition(row: r.layer, p)
            }
        }
    }

    /// A custom key's record leaves: its custom-track slot goes, the model value shows when
    /// it was the key's last animation and `snap`, and a sole survivor is written directly
    /// again. Out of line: `detach` of other kinds stays as it was.
    @inline(never)
    private func detachCustom(_ id: Int32, _ r: AnimationRecord, snap: Bool, effects: inout RemovalEffects) {
        if r.track >= 0 {
            let moved = customTracks[Int(r.track)].remove(r.slot)
            if moved >= 0 { records[Int(moved)].slot = r.slot }
            customSlots -= 1
        }
        guard let d = derivedValues[id] else { return }
        if snap, !hasCustomAnimation(row: r.layer, key: d.customKey, except: id) {
            effects.other.append(.customAnimationRemoved(row: r.layer, key: d.customKey))
        }
        promoteSoleCustomSlot(row: r.layer, key: d.customKey)
    }
}
