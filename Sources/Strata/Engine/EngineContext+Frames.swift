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
                    layerSide?.animatedObjectRefreshed(row: row, p, in: self)
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
        if _slowPath(hasDisplayWork) { layerSide.unsafelyUnwrapped.frameWillEnd() }
        // A frame in which no entry started or completed (most frames of a long animation)
        // has nothing to retire or tell: the frame renderer is not asked (asking costs about
        // 110 instructions a frame, 1% of frame/opacity/shared/basic/1000's 9,750).
        if timings.justStarted.isEmpty && timings.justCompleted.isEmpty {
            fireCompletionGroups()
            return
        }
        freezeLiveCopies()
        let started = frames.startedAnimations()
        var finished: [(UInt64, Int32)] = []
        swap(&finished, &frames.finishedScratch)   // its buffer, without a copy
        finished.removeAll(keepingCapacity: true)
        defer {
            finished.removeAll(keepingCapacity: true)
            swap(&finished, &frames.finishedScratch)
        }
        // Completion groups are released in the add order of the animations that complete.
        for e in frames.completedEntriesWithGroups() { entryDone(e) }
        frames.finishedRecords(into: &finished) { e in
            entryDone(e)
            timings.release(e)
        }
        var effects = RemovalEffects()
        if !finished.isEmpty {
            for (_, id) in finished {
                let r = animations.records[Int(id)]
                guard r.flags & RecordFlags.alive != 0 else { continue }
                if timings.params[Int(r.timing)].removedOnCompletion {
                    detach(id, finished: true, snap: true, effects: &effects)
                } else if let o = animations.objects[Int(id)] {
                    effects.stopped.append((o, true))
                }
            }
        }
        for a in started { a.delegate?.animationDidStart(a) }
        deliverStops(effects.stopped)
        fireCompletionGroups()
    }
}
