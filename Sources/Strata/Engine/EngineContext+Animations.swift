import Foundation

extension EngineContext {
    // MARK: adding

    /// The built-in implicit animation of a property change: shares the transaction's timing
    /// entry; no animation object is made unless the API asks for one.
    @inline(__always)
    func addImplicit(_ row: Int32, _ p: PropertyID, from: Lanes, to: Lanes) {
        let info = hot[p.index]
        let w = info.width
        var f = from, t = to
        if info.kind == .color { fixNilColors(&f, &t) }
        removeAnimation(row: row, key: p.raw, finished: false, replacing: p.raw)
        let e = implicitEntry(row: row)
        withUnsafePointer(to: &f) { fp in
            withUnsafePointer(to: &t) { tp in
                fp.withMemoryRebound(to: Double.self, capacity: 16) { f in
                    tp.withMemoryRebound(to: Double.self, capacity: 16) { t in
                        _ = addLaneRecord(row: row, p, offset: 0, width: w, from: f, to: t, timing: e,
                                          key: p.raw, additive: false, object: nil)
                    }
                }
            }
        }
    }

    /// Interpolating from or to "no colour" uses transparent black (chosen).
    @inline(__always)
    func fixNilColors(_ f: inout Lanes, _ t: inout Lanes) {
        if f[0].isNaN { f[0] = 0; f[1] = 0; f[2] = 0; f[3] = 0 }
        if t[0].isNaN { t[0] = 0; t[1] = 0; t[2] = 0; t[3] = 0 }
    }

    /// Appends a lane record to the layer's list, the timing entry and the track.
    func addLaneRecord(row: Int32, _ p: PropertyID, offset: Int, width: Int,
                       from: UnsafePointer<Double>, to: UnsafePointer<Double>, timing e: Int32,
                       key: Int32, additive: Bool, object: CAAnimation?) -> Int32 {
        let t = animations.track(p, offset: offset, width: width)
        var r = AnimationRecord()
        r.layer = row; r.key = key; r.property = p.raw; r.kind = .lanes; r.track = t; r.timing = e
        r.flags = RecordFlags.alive | (additive ? RecordFlags.additive : 0)
            | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
        let alone = !additive && width == hot[p.index].width && !animations.hasAnimation(row: row, property: p)
        let id = animations.newRecordInline(r, object: object)
        animations.records[Int(id)].slot = animations.trackHandles[Int(t)]._withUnsafeGuaranteedRef {
            $0.append(layer: row, timing: e, record: id, from: from, to: to, compose: false)
        }
        linkInline(id)
        if !alone { animations.updateComposition(row: row, p) }
        return id
    }

    /// Links a new record at the end of its layer's list and into its timing entry's list.
    @inline(never)
    func link(_ id: Int32) { linkInline(id) }

    /// `link`, inline: the lane records' add (every implicit animation) takes no call.
    @inline(__always)
    func linkInline(_ id: Int32) {
        let r = animations.records[Int(id)]
        // What the animation drives is no longer at its default (render snapshot hints).
        if r.property >= 0 && Int(r.property) < PropertyTable.count { layers.addHints(Int(r.layer), hot[Int(r.property)].snapshotHint) }
        animations.link(id, timings: timings)
    }

    /// The timing entry of a built-in implicit animation of `row`: the transaction's shared
    /// one, or, under a layer with timing of its own, one in that layer's time.
    @inline(__always)
    func implicitEntry(row: Int32) -> Int32 {
        guard layers.timedLayers > 0 && layers.inTimedSubtree(row) else { return implicitEntry() }
        return timedImplicitEntry(row: row)
    }

    @inline(never)
    private func timedImplicitEntry(row: Int32) -> Int32 {
        var params = TimingParameters()
        params.duration = transactions[transactions.count - 1].duration
        params.curve = timings.curveID(transactions[transactions.count - 1].timingFunction ?? CAMediaTimingFunction.defaultCurve)
        params.space = row
        return entry(for: params)
    }

    @discardableResult
    func addObjectAnimation(row: Int32, _ p: PropertyID, _ values: ObjectValues, timing e: Int32,
                            key: Int32, object: CAAnimation?) -> Int32 {
        removeAnimation(row: row, key: key, finished: false, replacing: p.raw)
        var r = AnimationRecord()
        r.layer = row; r.key = key; r.property = p.raw; r.kind = .object; r.timing = e
        r.flags = RecordFlags.alive | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
        let id = animations.newRecord(r, object: object)
        animations.objectValues[id] = values
        animations.objectRecords.append(id)
        layers.flags[Int(row)] |= LayerFlags.hasObjects
        link(id)
        return id
    }

    // MARK: removing

    /// Removes the animation under `key`, if any (its delegate is told `finished`). When it
    /// is being replaced (`snap` false) the presentation keeps its value until the next frame.
    @inline(__always)
    func removeAnimation(row: Int32, key: Int32, finished: Bool, snap: Bool = false, replacing: Int32 = -2) {
        guard animations.firstOfLayer[Int(row)] >= 0 else { return }
        let id = animations.record(row: row, key: key)
        guard id >= 0 else { return }
        var stopped: [(CAAnimation, Bool)] = []
        // A replacement animating another property leaves nothing to hold the old one's value.
        let snapNow = snap || animations.target(of: id) != replacing || animations.records[Int(id)].kind == .group
        detach(id, finished: finished, snap: snapNow, stopped: &stopped)
        if replacing != -2 {
            // Replaced: callbacks wait until the new animation is in place (they may set the
            // same property again), see `deliverDeferred()`.
            deferredStops.append(contentsOf: stopped)
            return
        }
        deliverStops(stopped)
        fireCompletionGroups()
    }

    /// Delegate callbacks and completion blocks held back while an animation replaced
    /// another under the same key.
    @inline(__always)
    func deliverDeferred() {
        guard !deferredStops.isEmpty || transactions.hasReadyGroups else { return }
        let stops = deferredStops
        deferredStops.removeAll()
        deliverStops(stops)
        fireCompletionGroups()
    }

    /// Removes every animation of a layer.
    func removeAllAnimations(row: Int32) {
        var stopped: [(CAAnimation, Bool)] = []
        while animations.firstOfLayer[Int(row)] >= 0 {
            detach(animations.firstOfLayer[Int(row)], finished: false, snap: true, stopped: &stopped)
        }
        deliverStops(stopped)
        fireCompletionGroups()
    }

    /// A custom key's record leaves: its custom-track slot goes, the model value shows when
    /// it was the key's last animation and `snap`, and a sole survivor is written directly
    /// again. Out of line: `detach` of other kinds stays as it was.
    @inline(never)
    private func detachCustom(_ id: Int32, _ r: AnimationRecord, snap: Bool) {
        if r.track >= 0 {
            let moved = animations.customTracks[Int(r.track)].remove(r.slot)
            if moved >= 0 { animations.records[Int(moved)].slot = r.slot }
            animations.customSlots -= 1
        }
        guard let d = animations.derivedValues[id] else { return }
        if snap, !animations.hasCustomAnimation(row: r.layer, key: d.customKey, except: id) {
            layerSide?.customAnimationRemoved(row: r.layer, key: d.customKey, in: self)
        }
        promoteSoleCustomSlot(row: r.layer, key: d.customKey)
    }

    /// Takes a record out of every list and column; the presentation value snaps to the
    /// model when no other animation drives the property. Callbacks are collected in
    /// `stopped` and delivered by the caller once the stores are consistent.
    func detach(_ id: Int32, finished: Bool, snap: Bool, stopped: inout [(CAAnimation, Bool)]) {
        let r = animations.records[Int(id)]
        let row = Int(r.layer)
        // What the layer shows may change (snaps, object values): copies of what it showed
        // keep it, and the snapshot looks again.
        freezeLiveCopies()
        layers.noteChanged(r.layer)
        animations.unlinkFromLayer(r)
        // timing list
        let e = Int(r.timing)
        if r.prevInTiming >= 0 { animations.records[Int(r.prevInTiming)].nextInTiming = r.nextInTiming }
        else { timings.firstRecord[e] = r.nextInTiming }
        if r.nextInTiming >= 0 { animations.records[Int(r.nextInTiming)].prevInTiming = r.prevInTiming }
        // values
        var composedBefore = false
        var rotated = false
        switch r.kind {
        case .lanes:
            composedBefore = animations.removeLaneSlot(r)
        case .object:
            if let i = animations.objectRecords.firstIndex(of: id) { animations.objectRecords.remove(at: i) }
        case .keyframes:
            let t = animations.keyframeTracks[Int(r.track)]
            composedBefore = t.flags[Int(r.slot)] & SlotFlags.compose != 0
            rotated = t.flags[Int(r.slot)] & SlotFlags.rotate != 0
            let moved = t.remove(r.slot)
            if moved >= 0 { animations.records[Int(moved)].slot = r.slot }
        case .derived:
            break
        case .custom:
            detachCustom(id, r, snap: snap)
        case .group:
            for child in animations.groupChildren[id] ?? [] where animations.records[Int(child)].flags & RecordFlags.alive != 0 {
                detach(child, finished: finished, snap: snap, stopped: &stopped)
            }
        case .timingOnly:
            break
        }
        if r.flags & RecordFlags.hasDelegate != 0 {
            timings.delegateCount[e] -= 1
            if let o = animations.objects[Int(id)] { stopped.append((o, finished)) }
        }
        animations.freeRecord(id)
        timings.refCount[e] -= 1
        if timings.refCount[e] == 0 && timings.committed[e] {
            entryDone(Int32(e))
            timings.release(Int32(e))
        }
        if rotated {
            animations.rotatingSlots -= 1
            if !snap {
                // Replaced: the turned transform shows until the next frame refreshes it.
                changes.refreshAtRender.append((r.layer, .transform))
            } else if !animations.hasAnimation(row: r.layer, property: .transform) {
                layers.snapPresentation(r.layer, .transform)
            }
        }
        if r.property >= 0 {
            let p = PropertyID(r.property)
            if r.kind == .derived {
                if snap && !animations.hasAnimation(row: r.layer, property: p) { layers.snapPresentation(r.layer, p) }
            } else if r.kind == .object {
                if !animations.hasAnimation(row: r.layer, property: p), layers.handle[row] != nil {
                    if snap {
                        // Removed: the model value shows at once, as for lane properties.
                        layerSide?.objectAnimationRemoved(row: r.layer, p, in: self)
                    } else {
                        // Replaced: what it showed stays until the next frame refreshes it.
                        changes.refreshAtRender.append((r.layer, p))
                    }
                }
            } else if !animations.hasAnimation(row: r.layer, property: p) {
                if snap { layers.snapPresentation(r.layer, p) }
                if composedBefore { animations.updateComposition(row: r.layer, p) }
            } else if composedBefore {
                animations.updateComposition(row: r.layer, p)
            }
        }
    }

    func deliverStops(_ stopped: [(CAAnimation, Bool)]) {
        guard !stopped.isEmpty else { return }
        outsideChangeInFlight {
            for (a, finished) in stopped { a.delegate?.animationDidStop(a, finished: finished) }
        }
    }

    /// Runs app code (delegate callbacks, completion blocks) that an action may release while
    /// its change is in flight, outside that change (`ChangeInFlight.outside`).
    @inline(never)
    func outsideChangeInFlight(_ body: () -> Void) { inFlight.outside(body) }

    /// A layer object went away: its animations are removed, its children released.
    func layerDidDeinit(_ row: Int32) {
        // Copies reading this row take their values before it can be reused.
        freezeLiveCopies(dying: row)
        removeAllAnimations(row: row)
        var c = layers.firstChild[Int(row)]
        while c >= 0 {
            let next = layers.nextSibling[Int(c)]
            layers.unlink(c)
            if layers.handle[Int(c)] != nil { orphans.append(c) }
            c = next
        }
        layers.unlink(row)
        layers.free(row)
        if !orphans.isEmpty { layerSide?.releaseOrphans(self) }
    }
}

extension EngineContext {
    func transitionState(row: Int32) -> CATransitionState? {
        let id = animations.record(row: row, key: KeyInterner.transition.raw)
        guard id >= 0, let t = animations.objects[Int(id)] as? CATransition else { return nil }
        let e = Int(animations.records[Int(id)].timing)
        guard timings.phase[e] == TimingPhase.active.rawValue else { return nil }
        let p = Float(timings.progress[e])
        return CATransitionState(type: t.type, subtype: t.subtype ?? .fromLeft,
                                 progress: t.startProgress + (t.endProgress - t.startProgress) * p)
    }
}
