import Foundation

extension FrameRenderer {
    /// Several animations on one layer property: start from the model value, apply each
    /// active animation in list order (additive ones add, others replace). The value is
    /// built in a stack buffer: no allocation per frame.
    func composeAll() {
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
    func renderCustomTracks(_ prog: UnsafeMutablePointer<Double>, _ phase: UnsafeMutablePointer<UInt8>,
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
    func renderDerived(customKeys: Bool = true) {
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
    func transformDrivers(row: Int32, property p: PropertyID) -> (driven: Bool, composed: Bool, fieldsWritten: Bool) {
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
}
