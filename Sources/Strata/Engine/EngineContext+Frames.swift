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
        renderedAt = now
        shadowCheckpoint?.holdsFrame = false
        freezeLiveCopies()
        if !refreshAtRender.isEmpty {
            for (row, p) in refreshAtRender where layers.flags[Int(row)] & LayerFlags.alive != 0 {
                // A change not committed yet shows at its commit (which snaps it), not before.
                guard !hasAnimation(row: row, property: p) && !hasUncommittedChange(row: row, p) else { continue }
                if PropertyTable[p].kind == .object {
                    layers.handle[Int(row)]?.takeUnretainedValue().animatedObjects[p.raw] = nil
                    layers.noteChanged(row)
                } else {
                    layers.snapPresentation(row, p)
                }
            }
            refreshAtRender.removeAll(keepingCapacity: true)
        }
        evaluateAnimations()
    }

    /// Evaluates the animations of layer properties at media time `t` as `render()` would,
    /// without its side effects: no entry is marked started or completed (delegates and
    /// completion blocks see nothing), no live copy is frozen, no pending refresh is taken,
    /// and custom keys and object values (paths, contents) keep the frame's values. The
    /// first call after a frame keeps the frame's evaluated state (`ShadowCheckpoint`);
    /// `restoreFrameEvaluation()` puts it back exactly, whatever changed since the frame
    /// (an `endFrame()` that removed animations included). A replicator's delayed
    /// instances are evaluated this way.
    ///
    /// Every call starts from the frame's state, not from the last call's: what a pending
    /// animation keeps is what the frame shows, whichever other delayed instances (nested
    /// replicators') were evaluated before.
    func renderShadow(atTime t: Double) {
        let checkpoint = shadowCheckpoint ?? { let c = ShadowCheckpoint(); shadowCheckpoint = c; return c }()
        if checkpoint.holdsFrame { checkpoint.restore(layers, timings) } else { checkpoint.save(layers, timings) }
        let saved = now
        now = t
        timings.shadow = true
        evaluateAnimations(shadow: true)
        timings.shadow = false
        now = saved
    }

    /// The frame's evaluated state again after `renderShadow(atTime:)` (nothing when none
    /// ran since the last `endShadows()`).
    func restoreFrameEvaluation() {
        guard let c = shadowCheckpoint, c.holdsFrame else { return }
        c.restore(layers, timings)
    }

    /// The frame's state again, and the checkpoint released for the next frame's changes.
    func endShadows() {
        guard let c = shadowCheckpoint, c.holdsFrame else { return }
        c.restore(layers, timings)
        c.holdsFrame = false
    }

    /// The evaluation `render()` and `renderShadow` share, at `now` (`shadow`: custom keys
    /// and object values left alone).
    private func evaluateAnimations(shadow: Bool = false) {
        // A track large enough to split: wake the worker now, so its wake-up overlaps the
        // timing pass rather than the kernel.
        if renderThreads > 1 && animations.largestTrackLanes >= EngineContext.splitThresholdLanes {
            worker.prepare()
        }
        // One cache for the pass: every entry's layer converts `now` through its ancestors,
        // and each ancestor is converted once. A layer outside its active time (layer timing)
        // gives NaN: its subtree's entries are inactive, as a group's children are.
        var localTimes = LocalTimeCache(media: now)
        timings.evaluate(now: now) { [layers] row, t in
            t == localTimes.media ? layers.activeLocalTime(row, cache: &localTimes) : layers.activeLocalTime(row, t)
        }
        let prog = timings.progress.base, phase = timings.phase.base, iter = timings.iteration.base
        // Index loops: an array iterator allocates in unoptimised builds.
        for i in 0..<animations.tracks.count {
            let t = animations.tracks[i]
            guard t.count > 0 else { continue }
            let pres = layers.presentationColumn(t.property), model = layers.modelColumn(t.property)
            if renderThreads > 1 && t.count &* t.width >= EngineContext.splitThresholdLanes {
                // Two cores: the worker takes the upper half of the blocks.
                let blocks = t.fullBlocks, mid = blocks / 2
                let worker = self.worker
                var job = LaneJob(track: t, blocks: mid..<blocks, progress: prog, phase: phase, iteration: iter,
                                  presentation: pres, model: model)
                worker.start(job)
                job.blocks = 0..<mid
                job.run(buffer: t.blockBuffer)
                t.evaluateTail(progress: prog, phase: phase, iteration: iter, presentation: pres, model: model)
                worker.wait()
            } else {
                t.evaluate(progress: prog, phase: phase, iteration: iter, presentation: pres, model: model)
            }
        }
        for i in 0..<animations.keyframeTracks.count {
            let t = animations.keyframeTracks[i]
            guard t.count > 0 else { continue }
            t.evaluate(progress: prog, phase: phase, iteration: iter, curveTable: timings.curves,
                       presentation: layers.presentationColumn(t.property), model: layers.modelColumn(t.property))
        }
        if !animations.composed.isEmpty { composeAll() }
        if animations.customSlots > 0 && !shadow { renderCustomTracks(prog, phase, iter) }
        if !animations.derivedRecords.isEmpty { renderDerived(customKeys: !shadow) }
        if animations.rotatingSlots > 0 { renderRotations() }
        if !animations.objectRecords.isEmpty && !shadow { renderObjects() }
    }

    /// Whether `p` of `row` was changed since the last commit.
    private func hasUncommittedChange(row: Int32, _ p: PropertyID) -> Bool {
        for k in 0..<dirty.count where dirty[k].row == row && dirty[k].property == p { return true }
        for k in 0..<dirtyObjects.count where dirtyObjects[k].0 == row && dirtyObjects[k].1 == p.raw { return true }
        return false
    }

    /// Several animations on one layer property: start from the model value, apply each
    /// active animation in list order (additive ones add, others replace). The value is
    /// built in a stack buffer: no allocation per frame.
    private func composeAll() {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 16) { scratch in
            let value = scratch.baseAddress!
            for k in 0..<animations.composed.count {
                composeProperty(animations.composed[k], into: value)
            }
        }
    }

    @inline(__always)
    private func composeProperty(_ key: Int64, into value: UnsafeMutablePointer<Double>) {
        let row = Int32(truncatingIfNeeded: key >> 8), p = PropertyID(Int32(key & 0xff))
        let pw = PropertyTable[p].width
        let model = layers.modelColumn(p), pres = layers.presentationColumn(p)
        for c in 0..<pw { value[c] = model[Int(row) * pw + c] }
        var anyActive = false, anyPending = false
        // In the order the animations were added: non-additive ones replace, additive ones
        // add (whole transforms concatenate: the animated value, then the value so far).
        let matrix = pw == 16 && PropertyTable[p].kind == .transform
        var id = animations.firstOfLayer[Int(row)]
        while id >= 0 {
            let r = animations.records[Int(id)]
            id = r.nextInLayer
            guard r.property == p.raw, r.kind == .lanes || r.kind == .keyframes else { continue }
            let additive = r.flags & RecordFlags.additive != 0
            let ph = timings.phase[Int(r.timing)]
            if ph == TimingPhase.pending.rawValue { anyPending = true; continue }
            guard ph == TimingPhase.active.rawValue else { continue }
            anyActive = true
            if r.kind == .lanes {
                let t = animations.tracks[Int(r.track)]
                if additive && matrix && t.width == 16 {
                    concatenate(value, { t.scratch[t.lane(Int(r.slot), $0)] })
                    continue
                }
                for c in 0..<t.width {
                    let v = t.scratch[t.lane(Int(r.slot), c)]
                    if additive { value[t.offset + c] += v } else { value[t.offset + c] = v }
                }
            } else {
                let t = animations.keyframeTracks[Int(r.track)]
                if additive && matrix && t.width == 16 {
                    concatenate(value, { t.scratch[Int(r.slot) * 16 + $0] })
                    continue
                }
                for c in 0..<t.width {
                    let v = t.scratch[Int(r.slot) * t.width + c]
                    if additive { value[t.offset + c] += v } else { value[t.offset + c] = v }
                }
            }
        }
        if anyActive || !anyPending {
            for c in 0..<pw { pres[Int(row) * pw + c] = value[c] }
        }
    }

    /// `value` (16 lanes) becomes `Concat(animated, value)`: an additive whole-transform
    /// animation applied to the value so far.
    @inline(__always)
    private func concatenate(_ value: UnsafeMutablePointer<Double>, _ animated: (Int) -> Double) {
        var a = CATransform3DIdentity
        withUnsafeMutableBytes(of: &a) { raw in
            let l = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            for c in 0..<16 { l[c] = animated(c) }
        }
        LaneValue.store(CATransform3DConcat(a, LaneValue.transform(value)), into: value)
    }

    /// Custom keys' basic animations, track by track (SIMD8 blocks): direct slots write their
    /// layers' holders; the others wait for `renderDerived`.
    private func renderCustomTracks(_ prog: UnsafeMutablePointer<Double>, _ phase: UnsafeMutablePointer<UInt8>,
                                    _ iter: UnsafeMutablePointer<Double>) {
        for i in 0..<animations.customTracks.count {
            let t = animations.customTracks[i]
            guard t.count > 0 else { continue }
            t.evaluate(progress: prog, phase: phase, iteration: iter) { s in customFallback(t, s) }
        }
    }

    /// A direct slot the track could not write: not active this frame, or no holder yet.
    /// The key is composed the general way; an active slot then gets the holder the layer
    /// shows (a new one in place of an inline-boxed value), which later frames write.
    @inline(never)
    private func customFallback(_ t: CustomTrack, _ s: Int) {
        let row = t.layer[s], key = t.key[s], e = Int(t.timing[s])
        composeCustom(row: row, key: key)
        guard timings.phase[e] == TimingPhase.active.rawValue, let layer = layers.handle[Int(row)]?.takeUnretainedValue(),
              let d = animations.derivedValues[t.record[s]] else {
            t.setHolder(s, nil)
            return
        }
        if let h = layer.animatedCustom[key] as? CustomLanes, h.width == t.width {
            t.setHolder(s, h)
            return
        }
        withUnsafeTemporaryAllocation(of: Double.self, capacity: t.width) { buffer in
            let v = buffer.baseAddress!
            let p = timings.progress[e] + (d.cumulative ? timings.iteration[e] : 0)
            t.value(s, progress: p, into: v)
            let h = CustomLanes(v, width: t.width, type: d.customType)
            layer.animatedCustom[key] = h
            t.setHolder(s, h)
        }
    }

    /// Derived transform fields replace (or add to) one field of the presentation transform;
    /// custom keys get their value boxed as the model's type.
    private func renderDerived(customKeys: Bool = true) {
        // Custom keys composed this frame (a set kept between frames: no allocation).
        customComposed.removeAll(keepingCapacity: true)
        fieldsComposed.removeAll(keepingCapacity: true)
        for k in 0..<animations.derivedRecords.count {
            let id = animations.derivedRecords[k]
            if id < 0 { continue }   // removed (a hole kept until the list is compacted)
            let r = animations.records[Int(id)]
            guard let d = animations.derivedValues[id] else { continue }
            let e = Int(r.timing)
            let ph = timings.phase[e]
            guard ph != TimingPhase.pending.rawValue else { continue }
            let k = d.cumulative ? timings.iteration[e] : 0
            let active = ph == TimingPhase.active.rawValue
            let p = timings.progress[e] + k
            if r.kind == .custom {
                if customKeys && customComposed.insert(Int64(r.layer) << 32 | Int64(d.customKey)).inserted {
                    composeCustom(row: r.layer, key: d.customKey)
                }
                continue
            }
            guard let field = d.field else { continue }
            let prop = PropertyID(r.property)
            let pres = layers.presentationColumn(prop), model = layers.modelColumn(prop)
            let base = Int(r.layer) * 16
            // Start from what an earlier field of this transform wrote this frame (fields apply
            // in the order they were added), else from this frame's transform animations if
            // they composed a value, else from the model (not from what is shown: evaluating
            // twice at one time gives one value).
            let onTop = !fieldsComposed.insert(Int64(r.layer) << 32 | Int64(prop.raw)).inserted
            let animated = onTop || transformDrivers(row: r.layer, property: prop).composed
            let t = LaneValue.transform(animated ? pres + base : model + base)
            if active {
                // One lane, two for `translation`.
                var v = SIMD2<Double>(0, 0)
                let two = field.width == 2
                if let kf = d.keyframes {
                    withUnsafeMutableBytes(of: &v) { raw in
                        kf.value(at: timings.progress[e], width: field.width, curveTable: timings.curves,
                                 into: raw.baseAddress!.assumingMemoryBound(to: Double.self))
                    }
                    v[0] += k * kf.span[0]
                    if two { v[1] += k * kf.span[1] }
                } else {
                    v[0] = d.from[0] + d.delta[0] * p
                    if two { v[1] = d.from[1] + d.delta[1] * p }
                }
                if d.additive {
                    v[0] += field.value(in: t)
                    if two { v[1] += field.value(in: t, lane: 1) }
                }
                LaneValue.store(field.setting(v[0], v[1], in: t), into: pres + base)
            } else {
                LaneValue.store(t, into: pres + base)
            }
        }
    }

    /// A custom key's animations, composed like lane properties: from the model value, in
    /// the order they were added, the non-additive ones replace and the additive ones add. Lanes are
    /// built in a stack buffer; a value boxes as the model's type (scalars and points box
    /// inline in `Any`, with no allocation).
    private func composeCustom(row: Int32, key: Int32) {
        guard let layer = layers.handle[Int(row)]?.takeUnretainedValue() else { return }
        // Room for the value so far and one animation's value: 16 lanes (a transform), more
        // once a custom key's array was wider.
        let widest = animations.widestCustom
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * widest) { scratch in
            let value = scratch.baseAddress!, v = value + widest
            var width = 0   // 0: no value yet
            var type: CustomValueType = .double
            var anyActive = false, anyPending = false
            // In the order the animations were added: non-additive ones replace, additive ones add.
            var id = animations.firstOfLayer[Int(row)]
            while id >= 0 {
                let rid = id
                let r = animations.records[Int(id)]
                id = r.nextInLayer
                guard r.kind == .custom, let d = animations.derivedValues[rid],
                      d.customKey == key else { continue }
                let e = Int(r.timing)
                let ph = timings.phase[e]
                if ph == TimingPhase.pending.rawValue { anyPending = true; continue }
                guard ph == TimingPhase.active.rawValue else { continue }
                anyActive = true
                type = d.customType
                let k = d.cumulative ? timings.iteration[e] : 0
                let n: Int
                if let kf = d.keyframes {
                    n = kf.span.count
                    kf.value(at: timings.progress[e], width: n, curveTable: timings.curves, into: v)
                    if d.cumulative { for c in 0..<n { v[c] += k * kf.span[c] } }
                } else {
                    n = d.from.count
                    let p = timings.progress[e] + k
                    for c in 0..<n { v[c] = d.from[c] + d.delta[c] * p }
                }
                if let f = d.subField {
                    // A field (`startPoint.x`): written into the value so far, the model's
                    // when it is the first.
                    if width == 0 {
                        width = d.wholeWidth
                        if layer.customModel(key).flatMap({ LaneValue.write($0, kind: d.kind, width: width, into: value) }) != width {
                            for c in 0..<width { value[c] = 0 }
                        }
                    }
                    if width == d.wholeWidth { f.write(v, additive: d.additive, into: value) }
                    continue
                }
                if width == 0 {
                    width = n
                    // The model value is the base only of an additive first animation (a
                    // replacing one overwrites it): read (and unboxed) only then.
                    if d.additive,
                       layer.customModel(key).flatMap({ LaneValue.write($0, kind: d.kind, width: n, into: value) }) != n {
                        for c in 0..<n { value[c] = 0 }
                    }
                }
                if d.additive {
                    for c in 0..<min(n, width) { value[c] += v[c] }
                } else {
                    for c in 0..<n { value[c] = v[c] }
                    width = n
                }
            }
            if anyActive && width > 0 {
                if !CustomLanes.boxesInline(type, width) {
                    // Arrays, colours, rectangles, transforms: their lanes, boxed when read
                    // (the holder is reused frame after frame: no allocation).
                    if let held = layer.animatedCustom[key] as? CustomLanes, held.capacity >= width {
                        held.set(value, width: width, type: type)
                    } else {
                        layer.animatedCustom[key] = CustomLanes(value, width: width, type: type)
                    }
                } else {
                    layer.animatedCustom[key] = type.box(UnsafePointer(value), width: width)
                }
            } else if !anyPending {
                // No effect now: the model value shows (as for lane properties).
                layer.animatedCustom[key] = nil
                layer.committedObjects[key] = layer.customModel(key)
            }
        }
    }

    /// How `p` of `row` is animated this frame, other than by rotation along a path, in one
    /// walk of the layer's list: `driven`, lane, keyframe or derived-field (`.derived`)
    /// animations exist in any phase; `composed`, lane or keyframe ones wrote the
    /// presentation value this frame (one active, or none pending, as `composeProperty`
    /// writes); `fieldsWritten`, a derived field was evaluated (not pending), so
    /// `renderDerived` wrote it.
    private func transformDrivers(row: Int32, property p: PropertyID) -> (driven: Bool, composed: Bool, fieldsWritten: Bool) {
        var id = animations.firstOfLayer[Int(row)]
        var lanes = false, lanesActive = false, lanesPending = false, fields = false, fieldsWritten = false
        while id >= 0 {
            let r = animations.records[Int(id)]
            id = r.nextInLayer
            guard r.property == p.raw else { continue }
            let ph = timings.phase[Int(r.timing)]
            let pending = ph == TimingPhase.pending.rawValue
            if r.kind == .lanes || r.kind == .keyframes {
                lanes = true
                if ph == TimingPhase.active.rawValue { lanesActive = true }
                if pending { lanesPending = true }
            } else if r.kind == .derived {
                fields = true
                if !pending { fieldsWritten = true }
            }
        }
        return (lanes || fields, lanesActive || (lanes && !lanesPending), fieldsWritten)
    }

    /// rotationMode: the path tangent turns the presentation transform about z. Several
    /// rotating animations of one layer apply in add order on top of each other.
    private func renderRotations() {
        // The turns of this frame, in a list kept between frames (no allocation once sized).
        rotationTurns.removeAll(keepingCapacity: true)
        var sorted = true
        var last: RotationTurn = (Int32.min, UInt64.min, 0)
        for i in 0..<animations.keyframeTracks.count {
            let t = animations.keyframeTracks[i]
            for s in 0..<t.count where t.flags[s] & SlotFlags.rotate != 0 {
                let turn: RotationTurn = (t.layer[s], animations.records[Int(t.record[s])].sequence, t.angle[s])
                if EngineContext.turnPrecedes(turn, last) { sorted = false }
                last = turn
                rotationTurns.append(turn)
            }
        }
        if !sorted { sortTurns() }
        let pres = layers.presentationColumn(.transform), model = layers.modelColumn(.transform)
        var k = 0
        while k < rotationTurns.count {
            let row = rotationTurns[k].row
            let base = Int(row) * 16
            let drivers = transformDrivers(row: row, property: .transform)
            var current = LaneValue.transform(drivers.composed || drivers.fieldsWritten ? pres + base : model + base)
            var anyActive = false
            while k < rotationTurns.count && rotationTurns[k].row == row {
                // Not active (finished and held without fill): adds nothing.
                let angle = rotationTurns[k].angle
                if !angle.isNaN {
                    current = CATransform3DRotate(current, CGFloat(angle), 0, 0, 1)
                    anyActive = true
                }
                k += 1
            }
            // None active: the transform's own animations' value, or the model's when there
            // are none; while only pending ones drive it, what it shows stays.
            if anyActive || !drivers.driven { LaneValue.store(current, into: pres + base) }
        }
    }

    /// Orders the turns by layer, then add order, in place (a heap sort: the standard
    /// library's sort may take a temporary buffer).
    @inline(never)
    private func sortTurns() {
        let n = rotationTurns.count
        guard n > 1 else { return }
        rotationTurns.withUnsafeMutableBufferPointer { b in
            let a = b.baseAddress!
            var start = n / 2 - 1, end = n
            while end > 1 {
                var root: Int
                if start >= 0 {
                    root = start; start -= 1           // building the heap
                } else {
                    end -= 1; swap(&a[0], &a[end])     // the largest to the back
                    root = 0
                }
                while true {                            // sift `root` down inside [0, end)
                    var child = 2 * root + 1
                    if child >= end { break }
                    if child + 1 < end && EngineContext.turnPrecedes(a[child], a[child + 1]) { child += 1 }
                    if !EngineContext.turnPrecedes(a[root], a[child]) { break }
                    swap(&a[root], &a[child])
                    root = child
                }
            }
        }
    }

    @inline(__always)
    private static func turnPrecedes(_ x: RotationTurn, _ y: RotationTurn) -> Bool {
        x.row != y.row ? x.row < y.row : x.sequence < y.sequence
    }

    /// Object animations: paths with the same elements point by point (the path is made
    /// when read), other objects switch at half-way, keyframes of objects step. Composed as
    /// lane properties are: the animations of one property in add order, the last active one
    /// shows; with none active the model shows, unless one is pending (not committed yet):
    /// then what is shown stays.
    private func renderObjects() {
        let curves = timings.curves
        // Index loops: an array iterator allocates in unoptimised builds.
        for k in 0..<animations.objectRecords.count {
            let first = animations.objectRecords[k]
            let r0 = animations.records[Int(first)]
            // Each layer property once, from its first object record in the layer's list.
            var id = animations.firstOfLayer[Int(r0.layer)]
            while id >= 0 && !(animations.records[Int(id)].property == r0.property && animations.records[Int(id)].kind == .object) {
                id = animations.records[Int(id)].nextInLayer
            }
            guard id == first, let h = layers.handle[Int(r0.layer)] else { continue }
            var shown: Any?? = nil    // .some: the value of an active animation
            var anyPending = false
            while id >= 0 {
                let r = animations.records[Int(id)]
                if r.property == r0.property && r.kind == .object {
                    let e = Int(r.timing)
                    let ph = timings.phase[e]
                    if ph == TimingPhase.pending.rawValue {
                        anyPending = true
                    } else if ph == TimingPhase.active.rawValue, let v = animations.objectValues[id] {
                        shown = .some(v.value(at: timings.progress[e], curves: curves))
                    }
                }
                id = r.nextInLayer
            }
            let layer = h.takeUnretainedValue()
            if let shown {
                layer.animatedObjects[r0.property] = shown
            } else if !anyPending {
                layer.animatedObjects[r0.property] = .some(layer.readObject(PropertyID(r0.property)))
            }
        }
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
