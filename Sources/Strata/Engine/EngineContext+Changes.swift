import Foundation

extension EngineContext {
    /// A property change from the API: validate, look the action up (before the model
    /// changes), write the model, run the action. The fast path (built-in action) allocates
    /// nothing and hashes no String.
    @inline(__always)
    func setProperty(_ layer: CALayer, _ p: PropertyID, _ new: Lanes) {
        // Called on this engine's thread only (`CALayer.mutableEngine` checked it). A
        // recorded engine takes the path that records; otherwise this branch is all
        // recording costs.
        if _slowPath(recorder != nil) { setPropertyRecorded(layer, p, new); return }
        _ = applyProperty(layer, p, new)
    }

    /// `setProperty` with the change recorded (the value, the value before, the lookup's
    /// outcome).
    @inline(never)
    func setPropertyRecorded(_ layer: CALayer, _ p: PropertyID, _ new: Lanes) {
        guard let r = recorder, let (old, outcome, disabled) = applyProperty(layer, p, new) else { return }
        r.set(layer, p, new, old: old, outcome: outcome, disabled: disabled)
    }

    /// The change itself: the model written, the action looked up and run. Returns the value
    /// shown before, the lookup's outcome and whether actions were disabled (nil: refused).
    @inline(__always)
    func applyProperty(_ layer: CALayer, _ p: PropertyID, _ new: Lanes) -> (Lanes, ActionOutcome, Bool)? {
        let info = hot[p.index]
        let w = info.width
        if _slowPath(!new.isFinite(width: w))
            && !(info.kind == .color && new[0].isNaN && new[1].isNaN && new[2].isNaN && new[3].isNaN) {
            refuseNonFinite(p, new)
            return nil
        }
        guard layer.row >= 0 else { writeCopy(layer, p, new); return nil }
        ensureTransaction()
        let row = Int(layer.row)
        let model = layers.modelColumn(p)
        let committed = layers.flags[row] & LayerFlags.committed != 0
        let source = committed ? layers.presentationColumn(p) : model
        let old = Lanes(loading: source + row * w, width: w)
        var outcome = ActionOutcome.none
        let disabled = transactions[transactions.count - 1].disableActions
        if !disabled {
            outcome = lookupStrategy.outcome(layer, p)
        }
        new.store(to: model + row * w, width: w)
        if info.snapshotHint != 0 { layers.addHints(row, info.snapshotHint) }
        switch outcome {
        case .none: break
        case .builtIn(.basic):
            if _fastPath(hasRoomForAnimations()) { addImplicit(layer.row, p, from: old, to: new) } else { implicitAtCapacity(p) }
        case .builtIn(_): addBuiltInTransition(layer)
        case .action(let a): runAction(a, layer: layer, row: layer.row, p, old: old)
        }
        _ = changes.properties.append(PropertyChange(row: layer.row, property: p))
        deliverDeferred()
        return (old, outcome, disabled)
    }

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

    /// A property set on a copy: kept by a copy that takes writes (its `init(layer:)`, or one
    /// the application made), unless it presents the layer's values; refused otherwise.
    @inline(never)
    func writeCopy(_ layer: CALayer, _ p: PropertyID, _ new: Lanes) {
        guard layer.copyAcceptsWrites else { return refuseCopyMutation(p) }
        guard layer.presentedRow < 0 else { return }
        let info = PropertyTable[p]
        var lanes = layer.copiedLanes ?? PropertyTable.defaultSnapshot
        for c in 0..<info.width { lanes[info.laneOffset + c] = new[c] }
        layer.copiedLanes = lanes
    }

    /// An object value or custom key set on a copy (see `writeCopy(_:_:_:)`).
    @inline(never)
    func writeCopyObject(_ layer: CALayer, key: Int32, _ v: Any?, refusal: () -> Void) {
        guard layer.copyAcceptsWrites else { return refusal() }
        guard layer.presentedRow < 0 else { return }
        if layer.copiedObjects == nil { layer.copiedObjects = [:] }
        layer.copiedObjects![key] = v
    }

    @inline(never)
    func refuseCopyMutation(_ p: PropertyID) {
        StrataDiagnostics.emit(.invalidArgument,
            "\(PropertyTable[p].name) set on a presentation or shadow copy; copies are read-only")
    }

    @inline(never)
    func runAction(_ a: CAAction, layer: CALayer, row: Int32, _ p: PropertyID, old: Lanes) {
        let w = PropertyTable[p].width
        let name = PropertyTable[p].name
        inFlight.change = (row, p, (0..<w).map { old[$0] })
        a.run(forKey: name, object: layer, arguments: nil)
        inFlight.change = nil
    }

    /// `isHidden`: the `hidden` property change, then kCAOnOrderOut / kCAOnOrderIn.
    func setHidden(_ layer: CALayer, _ hidden: Bool) {
        guard isCurrent else { return }   // another thread: refused (reported by CALayer.context)
        let was = layer.isHidden
        var l = Lanes()
        l[0] = hidden ? 1 : 0
        setProperty(layer, .hidden, l)
        if was != hidden && layer.row >= 0 {
            runEvent(layer, hidden ? KeyInterner.onOrderOut : KeyInterner.onOrderIn)
        }
    }

    /// An event (kCAOnOrderIn, kCAOnOrderOut ...): looked up and run unless actions are
    /// disabled; events have no built-in action.
    func runEvent(_ layer: CALayer, _ key: PropertyID) {
        guard isCurrent else { return }   // another thread: refused (reported by CALayer.context)
        ensureTransaction()
        guard !transactions[transactions.count - 1].disableActions else { return }
        let name = KeyInterner.name(key)
        switch lookupStrategy.outcome(layer, key) {
        case .action(let a):
            a.run(forKey: name, object: layer, arguments: nil)
        case .builtIn(.transition):
            addBuiltInTransition(layer)
        default:
            break
        }
    }

    /// An object-valued property change (contents, mask, paths, filters).
    func setObject(_ layer: CALayer, _ p: PropertyID, _ v: Any?) {
        guard isCurrent else { return }   // another thread: refused (reported by CALayer.context)
        guard layer.row >= 0 else { writeCopyObject(layer, key: p.raw, v) { refuseCopyMutation(p) }; return }
        if p == .mask, let m = v as? CALayer, m === layer {
            StrataDiagnostics.emit(.layerCycle, "a layer cannot be its own mask; mask unchanged")
            return
        }
        ensureTransaction()
        let name = PropertyTable[p].name
        var outcome = ActionOutcome.none
        if !transactions[transactions.count - 1].disableActions {
            outcome = lookupStrategy.outcome(layer, p)
        }
        // The value an animation of the change starts from: the one shown (SEMANTICS.md).
        let old = compiler.currentObject(layer, p)
        layer.storeObject(p, v)
        changes.objects.append((layer.row, p.raw))
        layers.flags[Int(layer.row)] |= LayerFlags.hasObjects
        switch outcome {
        case .none: break
        case .builtIn(.transition): addBuiltInTransition(layer)
        case .builtIn(_):
            if hasRoomForAnimations() { addObjectAnimation(layer, p, AnimationCompiler.objectValues(p, from: old, to: v), timing: implicitEntry(row: layer.row), key: p.raw, object: nil) }
            else { implicitAtCapacity(p) }
        case .action(let a):
            inFlight.change = (layer.row, p, [])
            inFlight.object = (old, v)
            a.run(forKey: name, object: layer, arguments: nil)
            inFlight.change = nil
            inFlight.object = nil
        }
        if recorder != nil {
            recorder!.setObject(layer, p, v, outcome: outcome, disabled: transactions[transactions.count - 1].disableActions)
        }
        deliverDeferred()
    }

    /// Layer timing fields: stored, never animated; refused when not finite (repeatCount may
    /// be infinite) or, for duration, repeatCount and repeatDuration, negative. Every field
    /// shapes the local time of the layer's subtree (`LayerStore.localTime`).
    func setTiming(_ layer: CALayer, _ p: PropertyID, _ v: Double) {
        guard isCurrent else { return }   // another thread: refused (reported by CALayer.context)
        guard v.isFinite || (p == .repeatCount && v == .infinity) else {
            StrataDiagnostics.emit(.nonFiniteValue, "layer.\(PropertyTable[p].name) = \(v) must be finite; unchanged")
            return
        }
        if v < 0 && (p == .duration || p == .repeatCount || p == .repeatDuration) {
            StrataDiagnostics.emit(.invalidArgument, "layer.\(PropertyTable[p].name) = \(v) must be >= 0; unchanged")
            return
        }
        guard layer.row >= 0 else {
            var l = Lanes()
            l[0] = v
            writeCopy(layer, p, l)
            return
        }
        // The timing fields are materialised together (`LayerStore.timingFields`).
        layers.materializeTiming()
        let col = layers.modelColumn(p)
        let old = col[Int(layer.row)]
        let wasTimed = layers.hasOwnTiming(layer.row)
        col[Int(layer.row)] = v
        freezeLiveCopies()
        layers.presentationColumn(p)[Int(layer.row)] = v
        if old != v {
            // A count of the layers with timing of their own, not a flag: once the last one
            // is back to defaults (or gone), changes and inserts skip the ancestor walks.
            let isTimed = layers.hasOwnTiming(layer.row)
            if isTimed && !wasTimed { layers.timedLayers += 1 }
            if wasTimed && !isTimed { layers.timedLayers -= 1 }
            respaceSubtree(layer.row)
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

extension EngineContext {
    /// A custom key: stored on the layer; the lookup chain runs (no built-in action).
    func setCustom(_ layer: CALayer, _ key: PropertyID, _ value: Any?) {
        guard isCurrent else { return }   // another thread: refused (reported by CALayer.context)
        if let v = value, let d = LaneValue.scalar(v), !d.isFinite {
            StrataDiagnostics.emit(.nonFiniteValue, "\(KeyInterner.name(key)) = \(d) must be finite; unchanged")
            return
        }
        guard layer.row >= 0 else {
            writeCopyObject(layer, key: key.raw, value) {
                StrataDiagnostics.emit(.invalidArgument, "setValue on a presentation copy; copies are read-only")
            }
            return
        }
        ensureTransaction()
        let name = KeyInterner.name(key)
        var outcome = ActionOutcome.none
        if !transactions[transactions.count - 1].disableActions { outcome = lookupStrategy.outcome(layer, key) }
        let shown = layer.currentCustom(key.raw)
        layer.customValues[key.raw] = value
        changes.objects.append((layer.row, key.raw))
        if case .action(let a) = outcome {
            // The action's animation starts from the value shown before the change.
            let outer = inFlight.custom
            inFlight.custom = (layer.row, key.raw, shown)
            a.run(forKey: name, object: layer, arguments: nil)
            inFlight.custom = outer
        }
        if recorder != nil {
            recorder!.setCustom(layer, name, value, outcome: outcome, disabled: transactions[transactions.count - 1].disableActions)
        }
    }
}
