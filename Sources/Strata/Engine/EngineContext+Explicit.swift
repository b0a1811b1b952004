import Foundation

extension EngineContext {
    /// Stores an animation the compiler prepared under `key` (the layer checked it): refused
    /// at capacity (false, with a diagnostic); otherwise the animation under the same key is
    /// removed and the new one installed on its timing entry.
    func store(_ prepared: PreparedAnimation, object stored: CAAnimation, forKey key: String?, row: Int32,
               fromAction: Bool) -> Bool {
        guard hasRoomForAnimations(prepared.records), compiler.fitsKeyPools(prepared) else {
            refuseAnimationsAtCapacity("add(_:forKey: \(key ?? "nil"))")
            return false
        }
        let keyID: Int32
        if stored is CATransition { keyID = KeyInterner.transition.raw }
        else { keyID = key.map { KeyInterner.id($0).raw } ?? animations.nextAnonymousKey() }
        var params = timingParameters(stored, fromAction: fromAction)
        if layers.inTimedSubtree(row) { params.space = row }
        let e = entry(for: params)
        removeAnimation(row: row, key: keyID, finished: false, replacing: prepared.property)
        let id = install(prepared, object: stored, row: row, key: keyID, timing: e)
        if fromAction && id >= 0, let c = inFlight.change, c.row == row, animations.records[Int(id)].property == c.property.raw {
            animations.records[Int(id)].flags |= RecordFlags.startsAtChange
        }
        return true
    }

    /// Stores a prepared animation under `key` with timing entry `e`; returns its record.
    @discardableResult
    func install(_ prepared: PreparedAnimation, object: CAAnimation?, row: Int32, key: Int32, timing e: Int32) -> Int32 {
        switch prepared {
        case let .lanes(p, offset, width, from, to, additive, cumulative):
            let id = addLaneRecord(row: row, p, offset: offset, width: width, from: from, to: to, timing: e,
                                   key: key, additive: additive, object: object)
            if cumulative {
                let r = animations.records[Int(id)]
                animations.tracks[Int(r.track)].compose[Int(r.slot)] |= SlotFlags.cumulative
            }
            return id
        case let .keyframes(p, offset, width, compiled, additive, cumulative, rotate):
            let t = animations.keyframeTrack(p, offset: offset, width: width)
            var r = AnimationRecord()
            r.layer = row; r.key = key; r.property = p.raw; r.kind = .keyframes; r.track = t; r.timing = e
            r.flags = RecordFlags.alive | (additive ? RecordFlags.additive : 0)
                | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
            let id = animations.newRecord(r, object: object)
            // Whole transforms: segments that turn by decomposition, cumulative repetitions
            // concatenated.
            let matrix = width == 16 && !compiled.keys.isEmpty && (!compiled.blends.isEmpty || cumulative)
            let flags = (cumulative ? SlotFlags.cumulative : 0) | rotate | (matrix ? SlotFlags.decompose : 0)
            if rotate != 0 {
                animations.rotatingSlots += 1
                layers.addHints(Int(row), SnapshotHint.transform)   // the path's tangent turns the layer
            }
            animations.records[Int(id)].slot = animations.keyframeTracks[Int(t)].append(
                layer: row, timing: e, record: id, compiled, flags: flags)
            link(id)
            animations.updateComposition(row: row, p)
            return id
        case let .object(p, v):
            return addObjectAnimation(row: row, p, v, timing: e, key: key, object: object)
        case let .derived(d, p):
            return addDerived(row: row, property: p, kind: .derived, d, timing: e, key: key, object: object)
        case let .custom(d):
            return addDerived(row: row, property: nil, kind: .custom, d, timing: e, key: key, object: object)
        case .transition:
            var r = AnimationRecord()
            r.layer = row; r.key = key; r.property = -1; r.kind = .timingOnly; r.timing = e
            r.flags = RecordFlags.alive | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
            let id = animations.newRecord(r, object: object)
            link(id)
            return id
        case let .group(children):
            var r = AnimationRecord()
            r.layer = row; r.key = key; r.property = -1; r.kind = .group; r.timing = e
            r.flags = RecordFlags.alive | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
            let gid = animations.newRecord(r, object: object)
            link(gid)
            let groupDuration = timings.params[Int(e)].duration
            var ids: [Int32] = []
            for (child, p) in children {
                var cp = timingParameters(child, fromAction: false)
                if child.duration == 0 { cp.duration = groupDuration }
                cp.parent = e
                cp.removedOnCompletion = false
                let ce = timings.make(cp, groups: [])
                changes.newEntries.append(ce)
                let added = install(p, object: nil, row: row, key: animations.nextAnonymousKey(), timing: ce)
                if added >= 0 {
                    animations.records[Int(added)].flags |= RecordFlags.groupChild
                    ids.append(added)
                }
            }
            animations.groupChildren[gid] = ids
            return gid
        }
    }

    /// A derived transform field or custom key animation (evaluated after the tracks).
    @discardableResult
    func addDerived(row: Int32, property: PropertyID?, kind: RecordKind, _ d: DerivedValue, timing e: Int32,
                    key: Int32, object: CAAnimation?) -> Int32 {
        var r = AnimationRecord()
        r.layer = row; r.key = key; r.property = property?.raw ?? -1; r.kind = kind; r.timing = e
        r.flags = RecordFlags.alive | (d.additive ? RecordFlags.additive : 0)
            | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
        let id = animations.newRecord(r, object: object)
        animations.derivedValues[id] = d
        if max(d.width, d.wholeWidth) > animations.widestCustom { animations.widestCustom = max(d.width, d.wholeWidth) }
        if kind == .custom && d.keyframes == nil && d.subField == nil && d.from.count == d.delta.count && d.from.count > 0 {
            // A basic animation of a custom key: a slot of the custom track of its width,
            // written directly while it is the key's only animation (and replaces).
            let others = demoteCustomSlots(row: row, key: d.customKey)
            let direct = !others && !d.additive
            let t = animations.customTrack(width: d.from.count)
            animations.records[Int(id)].track = t
            animations.records[Int(id)].slot = animations.customTracks[Int(t)].append(
                layer: row, key: d.customKey, timing: e, record: id, from: d.from, delta: d.delta,
                cumulative: d.cumulative, direct: direct)
            animations.customSlots += 1
            if !direct { animations.appendDerived(id) }
        } else {
            if kind == .custom { _ = demoteCustomSlots(row: row, key: d.customKey) }
            animations.appendDerived(id)
        }
        link(id)
        return id
    }

    /// Another animation of custom key `key` joins the layer's: the key's direct custom-track
    /// slots go back to per-layer composition (into the per-frame list). Returns whether the
    /// layer has animations of the key.
    private func demoteCustomSlots(row: Int32, key: Int32) -> Bool {
        var any = false
        animations.forEachCustomRecord(row: row, key: key) { id, r in
            any = true
            guard r.track >= 0 else { return }
            let t = animations.customTracks[Int(r.track)]
            if t.flags[Int(r.slot)] & CustomTrack.direct != 0 {
                t.setDirect(Int(r.slot), false)
                animations.appendDerived(id)
            }
        }
        return any
    }

    /// The layer's animations of custom key `key` are down to one: a basic, replacing one
    /// is written directly again (out of the per-frame list).
    func promoteSoleCustomSlot(row: Int32, key: Int32) {
        var sole: Int32 = -1, n = 0
        animations.forEachCustomRecord(row: row, key: key) { id, _ in sole = id; n += 1 }
        guard n == 1 else { return }
        let r = animations.records[Int(sole)]
        guard r.track >= 0, r.flags & RecordFlags.additive == 0 else { return }
        let t = animations.customTracks[Int(r.track)]
        guard t.flags[Int(r.slot)] & CustomTrack.direct == 0 else { return }
        t.setDirect(Int(r.slot), true)
        animations.dropDerived(sole)
    }

    /// An animation's timing parameters in the innermost transaction (its duration and
    /// timing function are the defaults).
    func timingParameters(_ a: CAAnimation, fromAction: Bool) -> TimingParameters {
        let top = transactions[transactions.count - 1]
        return compiler.timingParameters(a, fromAction: fromAction, transactionDuration: top.duration,
                                         transactionTimingFunction: top.timingFunction)
    }

    func addLaneRecord(row: Int32, _ p: PropertyID, offset: Int, width: Int, from: [Double], to: [Double],
                       timing e: Int32, key: Int32, additive: Bool, object: CAAnimation?) -> Int32 {
        from.withUnsafeBufferPointer { f in
            to.withUnsafeBufferPointer { t in
                addLaneRecord(row: row, p, offset: offset, width: width, from: f.baseAddress!, to: t.baseAddress!,
                              timing: e, key: key, additive: additive, object: object)
            }
        }
    }

}
