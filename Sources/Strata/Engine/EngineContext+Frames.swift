import Foundation

extension EngineContext {
    /// Sets the clock and commits the implicit transaction (explicit ones stay open).
    func beginFrame(atTime t: Double) {
        now = t
        drainForeignReleases()
        flush()
    }

    /// Evaluates every animation at `now`: timing entries (one curve solve each), then the
    /// lane tracks (SIMD kernels) and keyframe tracks, then composed layer properties,
    /// derived transform fields and custom keys, path rotation, object values.
    func render() {
        frames.startFrame(at: now)
        freezeLiveCopies()
        if !changes.refreshAtRender.isEmpty {
            for (row, p) in changes.refreshAtRender where layers.flags[Int(row)] & LayerFlags.alive != 0 {
                // A change not committed yet shows at its commit (which snaps it), not before.
                guard !animations.hasAnimation(row: row, property: p) && !changes.contains(row: row, p) else { continue }
                if PropertyTable[p].kind == .object {
                    layers.handle[Int(row)]?.takeUnretainedValue().animatedObjects[p.raw] = nil
                    layers.noteChanged(row)
                } else {
                    layers.snapPresentation(row, p)
                }
            }
            changes.refreshAtRender.removeAll(keepingCapacity: true)
        }
        frames.evaluate(at: now)
    }

    /// Retires finished animations, then calls animationDidStart / animationDidStop and the
    /// completion blocks whose animations are all done.
    func endFrame() {
        if _slowPath(displayWork != nil), displayWork!.hasAnimating { displayWork!.displayAnimated() }
        freezeLiveCopies()
        // Callbacks of one frame go out in add order (record sequence).
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
        var finished: [(UInt64, Int32)] = []
        swap(&finished, &finishedScratch)   // its buffer, without a copy
        finished.removeAll(keepingCapacity: true)
        defer {
            finished.removeAll(keepingCapacity: true)
            swap(&finished, &finishedScratch)
        }
        let completed = timings.justCompleted
        // Completion groups are released in the add order of the animations that complete
        // (an entry without groups releases none: its records are not walked for this).
        var released: [(UInt64, Int32)] = []
        for k in 0..<completed.count {
            let i = Int(completed[k])
            guard timings.alive[i], timings.params[i].parent < 0, !timings.groups[i].isEmpty else { continue }
            var first = UInt64.max
            var id = timings.firstRecord[i]
            while id >= 0 { first = min(first, animations.records[Int(id)].sequence); id = animations.records[Int(id)].nextInTiming }
            released.append((first, completed[k]))
        }
        if released.count > 1 { released.sort { $0.0 < $1.0 } }
        for (_, e) in released { entryDone(e) }
        var inOrder = true
        for k in 0..<completed.count {
            let e = completed[k]
            let i = Int(e)
            guard timings.alive[i], timings.params[i].parent < 0 else { continue }
            let start = finished.count
            if timings.params[i].removedOnCompletion && timings.delegateCount[i] == 0 {
                // Nothing to tell anyone: the entry's lane records go in one walk, the
                // others (if any) are collected for `detach` below.
                retireLaneRecords(ofEntry: e, others: &finished)
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
        var stopped: [(CAAnimation, Bool)] = []
        if !finished.isEmpty {
            if !inOrder { finished.sort { $0.0 < $1.0 } }
            for (_, id) in finished {
                let r = animations.records[Int(id)]
                guard r.flags & RecordFlags.alive != 0 else { continue }
                if timings.params[Int(r.timing)].removedOnCompletion {
                    detach(id, finished: true, snap: true, stopped: &stopped)
                } else if let o = animations.objects[Int(id)] {
                    stopped.append((o, true))
                }
            }
        }
        if !started.isEmpty {
            started.sort { $0.0 < $1.0 }
            for (_, a) in started { a.delegate?.animationDidStart(a) }
        }
        deliverStops(stopped)
        fireCompletionGroups()
    }
}
