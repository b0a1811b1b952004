/// The frame's end: what the timing pass found started and completed, read from the stores in
/// the order the animations were added (callbacks of one frame go out in that order), and the
/// lane animations that tell no one retired in place. The engine's `endFrame()` asks for these,
/// then detaches the rest and sends the callbacks.
extension FrameRenderer {
    /// The animations with a delegate whose timing entries started this frame, in add order,
    /// marked started (each is told once).
    func startedAnimations() -> [CAAnimation] {
        var started: [(UInt64, CAAnimation)] = []
        for k in 0..<timings.justStarted.count {
            let e = timings.justStarted[k]
            guard timings.delegateCount[Int(e)] > 0 else { continue }
            var id = timings.firstRecord[Int(e)]
            while id >= 0 {
                let r = animations.records[Int(id)]
                if r.flags & RecordFlags.hasDelegate != 0 && r.flags & RecordFlags.started == 0 {
                    animations.records[Int(id)].flags |= RecordFlags.started
                    if let o = animations.objects[Int(id)] { started.append((r.sequence, o)) }
                }
                id = r.nextInTiming
            }
        }
        guard !started.isEmpty else { return [] }
        started.sort { $0.0 < $1.0 }
        return started.map(\.1)
    }

    /// The entries that completed this frame and hold completion groups, in the add order of
    /// their first animation: their groups are released in that order (an entry without
    /// groups releases none: its records are not walked for this).
    func completedEntriesWithGroups() -> [Int32] {
        let completed = timings.justCompleted
        var released: [(UInt64, Int32)] = []
        for k in 0..<completed.count {
            let i = Int(completed[k])
            guard timings.alive[i], timings.params[i].parent < 0, !timings.groups[i].isEmpty else { continue }
            var first = UInt64.max
            var id = timings.firstRecord[i]
            while id >= 0 { first = min(first, animations.records[Int(id)].sequence); id = animations.records[Int(id)].nextInTiming }
            released.append((first, completed[k]))
        }
        guard !released.isEmpty else { return [] }
        if released.count > 1 { released.sort { $0.0 < $1.0 } }
        return released.map(\.1)
    }

    /// The records of the entries completed this frame that the engine detaches or reports
    /// (sequence, record), in add order, appended to `finished`. The lane records of an entry
    /// that tells no one (removed on completion, no delegate) are retired here, in one walk
    /// (`retireLaneRecords`); `entryEnded` is called for an entry that lost its last record.
    func finishedRecords(into finished: inout [(UInt64, Int32)], entryEnded: (Int32) -> Void) {
        let completed = timings.justCompleted
        var inOrder = true
        for k in 0..<completed.count {
            let e = completed[k]
            let i = Int(e)
            guard timings.alive[i], timings.params[i].parent < 0 else { continue }
            let start = finished.count
            if timings.params[i].removedOnCompletion && timings.delegateCount[i] == 0 {
                // Nothing to tell anyone: the entry's lane records go in one walk, the
                // others (if any) are collected for the engine's `detach`.
                if retireLaneRecords(ofEntry: e, others: &finished) { entryEnded(e) }
            } else {
                var id = timings.firstRecord[i]
                while id >= 0 {
                    let r = animations.records[Int(id)]
                    if timings.params[i].removedOnCompletion || r.flags & RecordFlags.hasDelegate != 0 {
                        finished.append((r.sequence, id))
                    }
                    id = r.nextInTiming
                }
            }
            // An entry's list is newest first (records are linked at its head): reversed, it
            // is usually in add order already, and the sort below is skipped.
            var a = start, b = finished.count - 1
            while a < b { finished.swapAt(a, b); a += 1; b -= 1 }
            if inOrder {
                for j in max(start, 1)..<max(finished.count, 1) where finished[j - 1].0 > finished[j].0 { inOrder = false; break }
            }
        }
        if !inOrder { finished.sort { $0.0 < $1.0 } }
    }

    /// Retires the lane records of completed entry `e`, which tells no one (removed on
    /// completion, no delegate): each is `detach(id, finished: true, snap: true)` without
    /// what only other kinds, delegates and the entry's last record need, in one walk of the
    /// entry's list. The walk is newest first, so a track filled in add order loses its last
    /// slots first and no slot moves. Records of other kinds stay in the list and go to
    /// `others` (sequence, id) for `detach`; the entry is released with its last record.
    /// Returns whether the entry lost its last record (the caller ends it: completion groups,
    /// then `TimingStore.release`). Live presentation copies were frozen by the caller.
    func retireLaneRecords(ofEntry e: Int32, others: inout [(UInt64, Int32)]) -> Bool {
        let i = Int(e)
        var retired: Int32 = 0
        var prev: Int32 = -1       // the last record kept in the list
        var id = timings.firstRecord[i]
        while id >= 0 {
            let r = animations.records[Int(id)]
            let next = r.nextInTiming
            guard r.kind == .lanes else {
                others.append((r.sequence, id))
                prev = id
                id = next
                continue
            }
            // timing list: every record before this one in the walk went, or is `prev`
            if prev >= 0 { animations.records[Int(prev)].nextInTiming = next } else { timings.firstRecord[i] = next }
            if next >= 0 { animations.records[Int(next)].prevInTiming = prev }
            layers.noteChanged(r.layer)
            animations.unlinkFromLayer(r)
            let composedBefore = animations.removeLaneSlot(r)
            animations.freeLaneRecord(id)
            retired &+= 1
            if r.property >= 0 {
                let p = PropertyID(r.property)
                if !animations.hasAnimation(row: r.layer, property: p) { layers.snapPresentation(r.layer, p) }
                if composedBefore { animations.updateComposition(row: r.layer, p) }
            }
            id = next
        }
        timings.refCount[i] -= retired
        return timings.refCount[i] == 0 && timings.committed[i]
    }
}
