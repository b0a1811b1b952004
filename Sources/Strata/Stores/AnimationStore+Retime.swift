import Foundation

/// Layers' time spaces changed (a layer's own timing became or stopped being the default, or
/// a subtree moved into another time space): their animations move to entries in the new
/// one.
extension AnimationStore {
    /// Moves the animations of `rows`, whose time space is now `space` (a layer, or -1 for
    /// media time), off entries in another space onto entries in it: the same parameters and
    /// begin time, read in the new space's time from the next frame on (an animation's
    /// beginTime is in its layer's time, which the move changed). Every animation of one old
    /// entry moves to the same new entry, so animations that shared timing still share it.
    /// New entries not committed yet join `newEntries` after the entry they stand in for.
    /// Group members follow their group's entry and stay.
    func respace(_ rows: [Int32], to space: Int32, timings: TimingStore, newEntries: inout [Int32],
                 effects: inout RemovalEffects) {
        var moved: [Int32: Int32] = [:]   // old entry -> new entry
        for row in rows {
            var id = firstOfLayer[Int(row)]
            while id >= 0 {
                let r = records[Int(id)]
                let next = r.nextInLayer
                let e = Int(r.timing)
                if timings.params[e].space != space && timings.params[e].parent < 0 {
                    let ne: Int32
                    if let m = moved[r.timing] { ne = m } else {
                        var p = timings.params[e]
                        p.space = space
                        p.beginTime = timings.begin[e]
                        ne = copyEntry(e, with: p, timings: timings, newEntries: &newEntries)
                        moved[r.timing] = ne
                    }
                    retime(id, to: ne, timings: timings, newEntries: &newEntries, effects: &effects)
                }
                id = next
            }
        }
    }

    /// A new entry with parameters `p` standing in for entry `e`: its begin time and state
    /// (committed, started, completed) are `e`'s. One not committed yet is committed in `e`'s
    /// place (it joins `newEntries` after it), so completion blocks become due in the order
    /// their animations were added.
    private func copyEntry(_ e: Int, with p: TimingParameters, timings: TimingStore, newEntries: inout [Int32]) -> Int32 {
        let ne = timings.make(p, groups: [])
        let ni = Int(ne)
        timings.begin[ni] = timings.begin[e]
        timings.committed[ni] = timings.committed[e]
        timings.started[ni] = timings.started[e]
        timings.completed[ni] = timings.completed[e]
        if !timings.committed[e] {
            let at = newEntries.firstIndex(of: Int32(e)).map { $0 + 1 } ?? newEntries.count
            newEntries.insert(ne, at: at)
        }
        return ne
    }

    /// Moves a record from its timing entry to `e` (lists, counts, track columns).
    func retime(_ id: Int32, to e: Int32, timings: TimingStore, newEntries: inout [Int32], effects: inout RemovalEffects) {
        let r = records[Int(id)]
        let old = Int(r.timing)
        if r.prevInTiming >= 0 { records[Int(r.prevInTiming)].nextInTiming = r.nextInTiming }
        else { timings.firstRecord[old] = r.nextInTiming }
        if r.nextInTiming >= 0 { records[Int(r.nextInTiming)].prevInTiming = r.prevInTiming }
        timings.refCount[old] -= 1
        if r.flags & RecordFlags.hasDelegate != 0 { timings.delegateCount[old] -= 1 }
        // Completion groups follow the animation.
        if !timings.groups[old].isEmpty && timings.groups[Int(e)].isEmpty {
            timings.groups[Int(e)] = timings.groups[old]
            for g in timings.groups[old] { g.pending += 1 }
        }
        if timings.refCount[old] == 0 && timings.committed[old] {
            if let g = timings.takeGroups(Int32(old)) { effects.other.append(.entryDone(g)) }
            timings.release(Int32(old))
        }
        records[Int(id)].timing = e
        let head = timings.firstRecord[Int(e)]
        records[Int(id)].nextInTiming = head
        records[Int(id)].prevInTiming = -1
        if head >= 0 { records[Int(head)].prevInTiming = id }
        timings.firstRecord[Int(e)] = id
        timings.refCount[Int(e)] += 1
        if r.flags & RecordFlags.hasDelegate != 0 { timings.delegateCount[Int(e)] += 1 }
        switch r.kind {
        case .lanes: tracks[Int(r.track)].timing[Int(r.slot)] = e
        case .keyframes: keyframeTracks[Int(r.track)].timing[Int(r.slot)] = e
        case .custom where r.track >= 0: customTracks[Int(r.track)].timing[Int(r.slot)] = e
        case .group:
            // Children run on the group's time. One on the group's entry itself (the group's
            // timing and none of its own) moves to `e` with it, unless it is there already
            // (`respace` met it first). Other entries are re-parented, in place when a
            // member's entry is its own, else (shared with equal members of other groups,
            // `AnimationCompiler.memberEntry`) the member moves to a copy under `e`.
            for child in groupChildren[id] ?? [] {
                let ce = Int(records[Int(child)].timing)
                if ce == Int(e) { continue }
                if ce == old {
                    retime(child, to: e, timings: timings, newEntries: &newEntries, effects: &effects)
                    continue
                }
                if timings.refCount[ce] == 1 {
                    timings.params[ce].parent = e
                    timings.deferredChanged = true   // the member tables name the group entry
                    continue
                }
                var p = timings.params[ce]
                p.parent = e
                let nce = copyEntry(ce, with: p, timings: timings, newEntries: &newEntries)
                retime(child, to: nce, timings: timings, newEntries: &newEntries, effects: &effects)
            }
        default: break
        }
    }
}
