import Foundation

/// The compiler's last step: a prepared animation, or a built-in implicit animation's old
/// and new value, becomes store rows (a record, its slot in a track, its links in the layer's
/// and the timing entry's lists) on a timing entry the owner chose. The animation it
/// replaces is already gone (`AnimationStore.detach`).
extension AnimationCompiler {
    /// Stores a prepared animation under `key` with timing entry `e`; returns its record. A
    /// group is installed by `installGroup` (its members need the open transaction's
    /// defaults): here it installs nothing and returns -1.
    ///
    /// Two functions, not one taking the transaction's defaults: passing them to every add
    /// (a timing function read from the owner is retained for the call) cost
    /// `commit/explicit-basic/1000` 49 instructions an add (+0.6%; callgrind: `store` +33,
    /// `swift_retain`/`swift_release` +19).
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
            return addKeyframeRecord(row: row, p, offset: offset, width: width, compiled,
                                     additive: additive, cumulative: cumulative, rotate: rotate,
                                     timing: e, key: key, object: object)
        case let .object(p, v):
            return addObjectRecord(row: row, p, v, timing: e, key: key, object: object)
        case let .derived(d, p):
            return addDerived(row: row, property: p, kind: .derived, d, timing: e, key: key, object: object)
        case let .custom(d):
            return addDerived(row: row, property: nil, kind: .custom, d, timing: e, key: key, object: object)
        case .transition:
            return addTimingRecord(row: row, kind: .timingOnly, timing: e, key: key, object: object)
        case .group:
            assertionFailure("a group is installed by installGroup")
            return -1
        }
    }

    /// Stores a group under `key` with timing entry `e`: a record of its own, and its members,
    /// in the open transaction's defaults (`transactionDuration`, `transactionTimingFunction`).
    /// A member with the group's timing and none of its own (the usual case) runs on `e`
    /// itself; any other on a timing entry under the group's. New entries join `newEntries`
    /// (the commit gives them their begin time). Groups added with equal timing share the
    /// group's entry (`EngineContext.entry(for:)`), and their equal members of timing of
    /// their own share the members' entries (`memberEntry`): a frame times N groups of their
    /// own timing as N entries, and N equal groups as one or a few. Returns the group's
    /// record.
    @discardableResult
    func installGroup(_ children: [(CAAnimation, PreparedAnimation)], object: CAAnimation?, row: Int32, key: Int32,
                      timing e: Int32, transactionDuration: Double,
                      transactionTimingFunction: CAMediaTimingFunction?, newEntries: inout [Int32]) -> Int32 {
        let gid = addTimingRecord(row: row, kind: .group, timing: e, key: key, object: object)
        let groupDuration = timings.params[Int(e)].duration
        var ids: [Int32] = []
        for (child, p) in children {
            var cp = timingParameters(child, fromAction: false, transactionDuration: transactionDuration,
                                      transactionTimingFunction: transactionTimingFunction)
            if child.duration == 0 { cp.duration = groupDuration }
            if case .group = p { cp.isGroup = true }
            let childKey = animations.nextAnonymousKey()
            let added: Int32
            if Self.runsOnGroupEntry(cp, groupDuration: groupDuration) {
                // The group's timing and none of its own: the member runs on the group's
                // entry, whose progress is such a member's (`TimingStore.applyMemberRule`).
                added = install(p, object: nil, row: row, key: childKey, timing: e)
            } else {
                cp.parent = e
                cp.removedOnCompletion = false
                let ce = memberEntry(cp, newEntries: &newEntries)
                if case let .group(grandchildren) = p {
                    added = installGroup(grandchildren, object: nil, row: row, key: childKey, timing: ce,
                                         transactionDuration: transactionDuration,
                                         transactionTimingFunction: transactionTimingFunction, newEntries: &newEntries)
                } else {
                    added = install(p, object: nil, row: row, key: childKey, timing: ce)
                }
            }
            if added >= 0 {
                animations.records[Int(added)].flags |= RecordFlags.groupChild
                ids.append(added)
            }
        }
        animations.groupChildren[gid] = ids
        return gid
    }

    /// Whether a member of timing `p` (its duration resolved) has its group's timing and none
    /// of its own, so it can run on the group's entry: no begin time, speed, offset, repeat,
    /// autoreverse, fill, curve, spring or cumulative value, and the group's (finite,
    /// positive) duration. Its progress is then t / duration on the group's eased local time
    /// t inside 0 <= t < duration, and it has no effect outside: the group entry's own.
    static func runsOnGroupEntry(_ p: TimingParameters, groupDuration: Double) -> Bool {
        p.playsOnce && p.duration == groupDuration && p.beginTime == 0 && p.speed == 1 && p.fill == 0
            && p.curve == 0 && p.spring == 0 && !p.isGroup
    }

    /// The entry of a group member with timing `p` (its `parent` the group's entry): one made
    /// for an equal member of another group on the same group entry in this transaction
    /// (alive and not committed yet: the group entry is this transaction's), else a new one.
    private func memberEntry(_ p: TimingParameters, newEntries: inout [Int32]) -> Int32 {
        // The entry's own parameters, not only the remembered ones: a slot freed since may
        // hold another entry now.
        for (q, e) in memberEntries where q == p && timings.alive[Int(e)] && !timings.committed[Int(e)]
            && timings.params[Int(e)] == p { return e }
        let e = timings.make(p, groups: [])
        newEntries.append(e)
        if memberEntries.count == 8 { memberEntries.removeFirst() }
        memberEntries.append((p, e))
        return e
    }
}

extension AnimationCompiler {
    /// Appends a lane record to the layer's list, the timing entry and the track.
    func addLaneRecord(row: Int32, _ p: PropertyID, offset: Int, width: Int,
                       from: UnsafePointer<Double>, to: UnsafePointer<Double>, timing e: Int32,
                       key: Int32, additive: Bool, object: CAAnimation?) -> Int32 {
        let t = animations.track(p, offset: offset, width: width)
        var r = record(row: row, key: key, property: p.raw, kind: .lanes, timing: e, additive: additive, object: object)
        r.track = t
        let alone = !additive && width == animations.hot[p.index].width && !animations.hasAnimation(row: row, property: p)
        let id = animations.newRecordInline(r, object: object)
        animations.records[Int(id)].slot = animations.trackHandles[Int(t)]._withUnsafeGuaranteedRef {
            $0.append(layer: row, timing: e, record: id, from: from, to: to, compose: false)
        }
        linkRecordInline(id)
        if !alone { animations.updateComposition(row: row, p) }
        return id
    }

    /// `addLaneRecord` from arrays (keyframe-free paths of the compiler and the tests).
    func addLaneRecord(row: Int32, _ p: PropertyID, offset: Int, width: Int, from: [Double], to: [Double],
                       timing e: Int32, key: Int32, additive: Bool, object: CAAnimation?) -> Int32 {
        from.withUnsafeBufferPointer { f in
            to.withUnsafeBufferPointer { t in
                addLaneRecord(row: row, p, offset: offset, width: width, from: f.baseAddress!, to: t.baseAddress!,
                              timing: e, key: key, additive: additive, object: object)
            }
        }
    }

    /// A live record of `kind` on `row` under `key`, timed by entry `e` (its track and slot are
    /// the caller's): additive, and told to a delegate when `object` has one.
    @inline(__always)
    private func record(row: Int32, key: Int32, property: Int32, kind: RecordKind, timing e: Int32, additive: Bool,
                        object: CAAnimation?) -> AnimationRecord {
        var r = AnimationRecord()
        r.layer = row; r.key = key; r.property = property; r.kind = kind; r.timing = e
        r.flags = RecordFlags.alive | (additive ? RecordFlags.additive : 0)
            | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
        return r
    }

    /// Links a new record at the end of its layer's list and into its timing entry's list,
    /// and notes that what it drives is no longer at its default (render snapshot hints).
    @inline(never)
    func linkRecord(_ id: Int32) {
        linkRecordInline(id)
    }

    /// `linkRecord`, inline: the lane records' add (every implicit animation) takes no call.
    @inline(__always)
    func linkRecordInline(_ id: Int32) {
        let r = animations.records[Int(id)]
        if r.property >= 0 && Int(r.property) < PropertyTable.count { layers.addHints(Int(r.layer), animations.hot[Int(r.property)].snapshotHint) }
        animations.link(id, timings: timings)
    }

    /// An animation of an object property (contents, a path, a colour as an object): its
    /// values are kept as objects and shown at discrete times.
    func addObjectRecord(row: Int32, _ p: PropertyID, _ values: ObjectValues, timing e: Int32,
                         key: Int32, object: CAAnimation?) -> Int32 {
        let r = record(row: row, key: key, property: p.raw, kind: .object, timing: e, additive: false, object: object)
        let id = animations.newRecord(r, object: object)
        animations.objectValues[id] = values
        animations.objectRecords.append(id)
        layers.flags[Int(row)] |= LayerFlags.hasObjects
        linkRecord(id)
        return id
    }

    /// A keyframe record: a slot of the keyframe track of its property and lane range.
    func addKeyframeRecord(row: Int32, _ p: PropertyID, offset: Int, width: Int, _ compiled: CompiledKeyframes,
                           additive: Bool, cumulative: Bool, rotate: UInt8, timing e: Int32, key: Int32,
                           object: CAAnimation?) -> Int32 {
        let t = animations.keyframeTrack(p, offset: offset, width: width)
        var r = record(row: row, key: key, property: p.raw, kind: .keyframes, timing: e, additive: additive, object: object)
        r.track = t
        let id = animations.newRecord(r, object: object)
        // Whole transforms: segments that turn by decomposition, cumulative repetitions
        // concatenated.
        let matrix = width == 16 && !compiled.keys.isEmpty && (!compiled.blends.isEmpty || cumulative)
        let flags = (cumulative ? SlotFlags.cumulative : 0) | rotate | (matrix ? SlotFlags.decompose : 0)
        if rotate != 0 {
            animations.rotatingSlots += 1
            layers.addHints(Int(row), SnapshotHint.transform)   // the path's tangent turns the layer
        }
        animations.records[Int(id)].slot = animations.keyframeTracks[Int(t)].append(layer: row, timing: e, record: id, compiled, flags: flags)
        linkRecord(id)
        animations.updateComposition(row: row, p)
        return id
    }

    /// A record with no values of its own: a transition's (its progress is read from its
    /// entry) or a group's (its members are records of their own).
    func addTimingRecord(row: Int32, kind: RecordKind, timing e: Int32, key: Int32, object: CAAnimation?) -> Int32 {
        let r = record(row: row, key: key, property: -1, kind: kind, timing: e, additive: false, object: object)
        let id = animations.newRecord(r, object: object)
        linkRecord(id)
        return id
    }

    /// A derived transform field or custom key animation (evaluated after the tracks).
    func addDerived(row: Int32, property: PropertyID?, kind: RecordKind, _ d: DerivedValue, timing e: Int32,
                    key: Int32, object: CAAnimation?) -> Int32 {
        let r = record(row: row, key: key, property: property?.raw ?? -1, kind: kind, timing: e, additive: d.additive,
                       object: object)
        let id = animations.newRecord(r, object: object)
        animations.derivedValues[id] = d
        if max(d.width, d.wholeWidth) > animations.widestCustom { animations.widestCustom = max(d.width, d.wholeWidth) }
        if kind == .custom && d.keyframes == nil && d.subField == nil && d.from.count == d.delta.count && d.from.count > 0 {
            // A basic animation of a custom key: a slot of the custom track of its width,
            // written directly while it is the key's only animation (and replaces).
            let others = animations.demoteCustomSlots(row: row, key: d.customKey)
            let direct = !others && !d.additive
            let t = animations.customTrack(width: d.from.count)
            animations.records[Int(id)].track = t
            animations.records[Int(id)].slot = animations.customTracks[Int(t)].append(
                layer: row, key: d.customKey, timing: e, record: id, from: d.from, delta: d.delta,
                cumulative: d.cumulative, direct: direct)
            animations.customSlots += 1
            if !direct { animations.appendDerived(id) }
        } else {
            if kind == .custom { _ = animations.demoteCustomSlots(row: row, key: d.customKey) }
            animations.appendDerived(id)
        }
        linkRecord(id)
        return id
    }
}
