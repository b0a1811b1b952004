import Foundation

/// The engine's side of a change: what the setter (`CALayer+Changes.swift`) hands on once the
/// layer object's part is done: refusals, a timing field's store work and the respacing of
/// a subtree whose time changed.
extension EngineContext {
    /// The engine is full: the change applies without its implicit animation (reported once
    /// per transaction).
    @inline(never)
    func implicitAtCapacity(_ p: PropertyID) {
        guard !reportedFullThisTransaction else { return }
        reportedFullThisTransaction = true
        refuseAnimationsAtCapacity("the implicit animation of \(PropertyTable[p].name) (the value is set, without animation; further ones in this transaction are dropped silently)")
    }

    @inline(never)
    func refuseNonFinite(_ p: PropertyID, _ v: Lanes) {
        let w = PropertyTable[p].width
        let shown = (0..<w).map { v[$0] }
        StrataDiagnostics.emit(.nonFiniteValue,
            "\(PropertyTable[p].name) = \(shown): values must be finite; the model value is unchanged")
    }

    @inline(never)
    func refuseCopyMutation(_ p: PropertyID) {
        StrataDiagnostics.emit(.invalidArgument,
            "\(PropertyTable[p].name) set on a presentation or shadow copy; copies are read-only")
    }

    /// A layer timing field's new value (validated by the layer): stored in model and
    /// presentation (never animated), and the layer's subtree respaced when it changed.
    func setTimingField(_ layerRow: Int32, _ p: PropertyID, _ v: Double) {
        // The timing fields are materialised together (`LayerStore.timingFields`).
        layers.materializeTiming()
        let col = layers.modelColumn(p)
        let old = col[Int(layerRow)]
        let wasTimed = layers.hasOwnTiming(layerRow)
        col[Int(layerRow)] = v
        freezeLiveCopies()
        layers.presentationColumn(p)[Int(layerRow)] = v
        if old != v {
            // A count of the layers with timing of their own, not a flag: once the last one
            // is back to defaults (or gone), changes and inserts skip the ancestor walks.
            let isTimed = layers.hasOwnTiming(layerRow)
            if isTimed && !wasTimed { layers.timedLayers += 1 }
            if wasTimed && !isTimed { layers.timedLayers -= 1 }
            respaceSubtree(layerRow)
        }
    }

    /// A layer's time changed: the animations of its subtree that run on shared media-time
    /// entries move to entries of their own layer's time space, so the layer's speed,
    /// timeOffset and beginTime govern them from the next frame on.
    func respaceSubtree(_ root: Int32) {
        var stack = [root]
        while let row = stack.popLast() {
            var moved: [Int32: Int32] = [:]   // old entry -> new entry, for this layer
            var id = animations.firstOfLayer[Int(row)]
            while id >= 0 {
                let r = animations.records[Int(id)]
                let next = r.nextInLayer
                let e = Int(r.timing)
                if timings.params[e].space < 0 && timings.params[e].parent < 0 {
                    let ne: Int32
                    if let m = moved[r.timing] { ne = m } else {
                        var p = timings.params[e]
                        p.space = row
                        p.beginTime = timings.begin[e]
                        ne = timings.make(p, groups: [])
                        let ni = Int(ne)
                        timings.begin[ni] = timings.begin[e]
                        timings.committed[ni] = timings.committed[e]
                        timings.started[ni] = timings.started[e]
                        timings.completed[ni] = timings.completed[e]
                        if !timings.committed[e] {
                            // The new entry stands in for the old one: committed in its place,
                            // so completion blocks become due in the order their animations
                            // were added.
                            let at = changes.newEntries.firstIndex(of: Int32(e)).map { $0 + 1 } ?? changes.newEntries.count
                            changes.newEntries.insert(ne, at: at)
                        }
                        moved[r.timing] = ne
                    }
                    retime(id, to: ne)
                }
                id = next
            }
            var c = layers.firstChild[Int(row)]
            while c >= 0 { stack.append(c); c = layers.nextSibling[Int(c)] }
        }
    }

    /// Moves a record from its timing entry to `e` (lists, counts, track columns).
    func retime(_ id: Int32, to e: Int32) {
        let r = animations.records[Int(id)]
        let old = Int(r.timing)
        if r.prevInTiming >= 0 { animations.records[Int(r.prevInTiming)].nextInTiming = r.nextInTiming }
        else { timings.firstRecord[old] = r.nextInTiming }
        if r.nextInTiming >= 0 { animations.records[Int(r.nextInTiming)].prevInTiming = r.prevInTiming }
        timings.refCount[old] -= 1
        if r.flags & RecordFlags.hasDelegate != 0 { timings.delegateCount[old] -= 1 }
        // Completion groups follow the animation.
        if !timings.groups[old].isEmpty && timings.groups[Int(e)].isEmpty {
            timings.groups[Int(e)] = timings.groups[old]
            for g in timings.groups[old] { g.pending += 1 }
        }
        if timings.refCount[old] == 0 && timings.committed[old] { entryDone(Int32(old)); timings.release(Int32(old)) }
        animations.records[Int(id)].timing = e
        let head = timings.firstRecord[Int(e)]
        animations.records[Int(id)].nextInTiming = head
        animations.records[Int(id)].prevInTiming = -1
        if head >= 0 { animations.records[Int(head)].prevInTiming = id }
        timings.firstRecord[Int(e)] = id
        timings.refCount[Int(e)] += 1
        if r.flags & RecordFlags.hasDelegate != 0 { timings.delegateCount[Int(e)] += 1 }
        switch r.kind {
        case .lanes: animations.tracks[Int(r.track)].timing[Int(r.slot)] = e
        case .keyframes: animations.keyframeTracks[Int(r.track)].timing[Int(r.slot)] = e
        case .custom where r.track >= 0: animations.customTracks[Int(r.track)].timing[Int(r.slot)] = e
        case .group:
            // Children run on the group's time: re-parent their entries.
            for child in animations.groupChildren[id] ?? [] {
                let ce = Int(animations.records[Int(child)].timing)
                timings.params[ce].parent = e
            }
        default: break
        }
    }
}
