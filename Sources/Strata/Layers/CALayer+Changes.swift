import Foundation

/// The setter's side of a change: a layer's property, object, timing field or custom key set
/// from the API. The layer validates the value, asks its own action lookup (before the model
/// changes), writes the model into the layer store, notes the change in the change log and
/// hands the action's animation to the engine's parts. It is the face's work because the
/// lookup and the action's `run(forKey:object:arguments:)` take the layer object itself;
/// past this file the engine sees rows and property ids only.
extension CALayer {
    /// A property change from the API: validate, look the action up (before the model
    /// changes), write the model, run the action. The fast path (built-in action) allocates
    /// nothing and hashes no String.
    @inline(__always)
    func setProperty(in e: EngineContext, _ p: PropertyID, _ new: Lanes) {
        // Called on the engine's thread only (`mutableEngine` checked it). A recorded engine
        // takes the path that records; otherwise this branch is all recording costs.
        if _slowPath(e.recorder != nil) { setPropertyRecorded(in: e, p, new); return }
        _ = applyProperty(in: e, p, new)
    }

    /// `setProperty` with the change recorded (the value, the value before, the lookup's
    /// outcome).
    @inline(never)
    func setPropertyRecorded(in e: EngineContext, _ p: PropertyID, _ new: Lanes) {
        guard let r = e.recorder, let (old, outcome, disabled) = applyProperty(in: e, p, new) else { return }
        r.set(self, p, new, old: old, outcome: outcome, disabled: disabled)
    }

    /// The change itself: the model written, the action looked up and run. Returns the value
    /// shown before, the lookup's outcome and whether actions were disabled (nil: refused).
    @inline(__always)
    func applyProperty(in e: EngineContext, _ p: PropertyID, _ new: Lanes) -> (Lanes, ActionOutcome, Bool)? {
        let info = e.hot[p.index]
        let w = info.width
        if _slowPath(!new.isFinite(width: w))
            && !(info.kind == .color && new[0].isNaN && new[1].isNaN && new[2].isNaN && new[3].isNaN) {
            e.refuseNonFinite(p, new)
            return nil
        }
        let layerRow = row
        guard layerRow >= 0 else { writeCopy(p, new, e); return nil }
        e.ensureTransaction()
        let row = Int(layerRow)
        let model = e.layers.modelColumn(p)
        let committed = e.layers.flags[row] & LayerFlags.committed != 0
        let source = committed ? e.layers.presentationColumn(p) : model
        let old = Lanes(loading: source + row * w, width: w)
        var outcome = ActionOutcome.none
        let disabled = e.transactions[e.transactions.count - 1].disableActions
        if !disabled {
            outcome = e.lookupStrategy.outcome(self, p)
        }
        new.store(to: model + row * w, width: w)
        if info.snapshotHint != 0 { e.layers.addHints(row, info.snapshotHint) }
        switch outcome {
        case .none: break
        case .builtIn(.basic):
            if _fastPath(e.hasRoomForAnimations()) { e.addImplicit(layerRow, p, from: old, to: new) } else { e.implicitAtCapacity(p) }
        case .builtIn(_): addBuiltInTransition(in: e)
        case .action(let a): runAction(a, in: e, p, old: old)
        }
        _ = e.changes.properties.append(PropertyChange(row: layerRow, property: p))
        e.deliverDeferred()
        return (old, outcome, disabled)
    }

    /// A property set on a copy: kept by a copy that takes writes (its `init(layer:)`, or one
    /// the application made), unless it presents the layer's values; refused otherwise.
    @inline(never)
    func writeCopy(_ p: PropertyID, _ new: Lanes, _ e: EngineContext) {
        guard copyAcceptsWrites else { return e.refuseCopyMutation(p) }
        guard presentedRow < 0 else { return }
        let info = PropertyTable[p]
        var lanes = copiedLanes ?? PropertyTable.defaultSnapshot
        for c in 0..<info.width { lanes[info.laneOffset + c] = new[c] }
        copiedLanes = lanes
    }

    /// An object value or custom key set on a copy (see `writeCopy(_:_:_:)`).
    @inline(never)
    func writeCopyObject(key: Int32, _ v: Any?, refusal: () -> Void) {
        guard copyAcceptsWrites else { return refusal() }
        guard presentedRow < 0 else { return }
        if copiedObjects == nil { copiedObjects = [:] }
        copiedObjects![key] = v
    }

    /// The action found for a property change, run with the value shown before the change in
    /// flight (an animation it adds starts from there).
    @inline(never)
    func runAction(_ a: CAAction, in e: EngineContext, _ p: PropertyID, old: Lanes) {
        let w = PropertyTable[p].width
        let name = PropertyTable[p].name
        e.inFlight.change = (row, p, (0..<w).map { old[$0] })
        a.run(forKey: name, object: self, arguments: nil)
        e.inFlight.change = nil
    }

    /// `isHidden`: the `hidden` property change, then kCAOnOrderOut / kCAOnOrderIn.
    func setHidden(_ hidden: Bool, in e: EngineContext) {
        guard e.isCurrent else { return }   // another thread: refused (reported by `context`)
        let was = isHidden
        var l = Lanes()
        l[0] = hidden ? 1 : 0
        setProperty(in: e, .hidden, l)
        if was != hidden && row >= 0 {
            runEvent(hidden ? KeyInterner.onOrderOut : KeyInterner.onOrderIn, in: e)
        }
    }

    /// An event (kCAOnOrderIn, kCAOnOrderOut ...): looked up and run unless actions are
    /// disabled; events have no built-in action.
    func runEvent(_ key: PropertyID, in e: EngineContext) {
        guard e.isCurrent else { return }   // another thread: refused (reported by `context`)
        e.ensureTransaction()
        guard !e.transactions[e.transactions.count - 1].disableActions else { return }
        let name = KeyInterner.name(key)
        switch e.lookupStrategy.outcome(self, key) {
        case .action(let a):
            a.run(forKey: name, object: self, arguments: nil)
        case .builtIn(.transition):
            addBuiltInTransition(in: e)
        default:
            break
        }
    }

    /// An object-valued property change (contents, mask, paths, filters).
    func setObject(_ p: PropertyID, _ v: Any?, in e: EngineContext) {
        guard e.isCurrent else { return }   // another thread: refused (reported by `context`)
        guard row >= 0 else { writeCopyObject(key: p.raw, v) { e.refuseCopyMutation(p) }; return }
        if p == .mask, let m = v as? CALayer, m === self {
            StrataDiagnostics.emit(.layerCycle, "a layer cannot be its own mask; mask unchanged")
            return
        }
        e.ensureTransaction()
        let name = PropertyTable[p].name
        var outcome = ActionOutcome.none
        if !e.transactions[e.transactions.count - 1].disableActions {
            outcome = e.lookupStrategy.outcome(self, p)
        }
        // The value an animation of the change starts from: the one shown (SEMANTICS.md).
        let old = e.compiler.currentObject(self, p)
        storeObject(p, v)
        e.changes.objects.append((row, p.raw))
        e.layers.flags[Int(row)] |= LayerFlags.hasObjects
        switch outcome {
        case .none: break
        case .builtIn(.transition): addBuiltInTransition(in: e)
        case .builtIn(_):
            if e.hasRoomForAnimations() {
                e.addObjectAnimation(row: row, p, AnimationCompiler.objectValues(p, from: old, to: v),
                                     timing: e.implicitEntry(row: row), key: p.raw, object: nil)
            } else {
                e.implicitAtCapacity(p)
            }
        case .action(let a):
            e.inFlight.change = (row, p, [])
            e.inFlight.object = (old, v)
            a.run(forKey: name, object: self, arguments: nil)
            e.inFlight.change = nil
            e.inFlight.object = nil
        }
        if let r = e.recorder {
            r.setObject(self, p, v, outcome: outcome, disabled: e.transactions[e.transactions.count - 1].disableActions)
        }
        e.deliverDeferred()
    }

    /// Layer timing fields: stored, never animated; refused when not finite (repeatCount may
    /// be infinite) or, for duration, repeatCount and repeatDuration, negative. Every field
    /// shapes the local time of the layer's subtree (`LayerStore.localTime`).
    func setTiming(_ p: PropertyID, _ v: Double, in e: EngineContext) {
        guard e.isCurrent else { return }   // another thread: refused (reported by `context`)
        guard v.isFinite || (p == .repeatCount && v == .infinity) else {
            StrataDiagnostics.emit(.nonFiniteValue, "layer.\(PropertyTable[p].name) = \(v) must be finite; unchanged")
            return
        }
        if v < 0 && (p == .duration || p == .repeatCount || p == .repeatDuration) {
            StrataDiagnostics.emit(.invalidArgument, "layer.\(PropertyTable[p].name) = \(v) must be >= 0; unchanged")
            return
        }
        guard row >= 0 else {
            var l = Lanes()
            l[0] = v
            writeCopy(p, l, e)
            return
        }
        e.setTimingField(row, p, v)
    }

    /// A custom key: stored on the layer; the lookup chain runs (no built-in action).
    func setCustom(_ key: PropertyID, _ value: Any?, in e: EngineContext) {
        guard e.isCurrent else { return }   // another thread: refused (reported by `context`)
        if let v = value, let d = LaneValue.scalar(v), !d.isFinite {
            StrataDiagnostics.emit(.nonFiniteValue, "\(KeyInterner.name(key)) = \(d) must be finite; unchanged")
            return
        }
        guard row >= 0 else {
            writeCopyObject(key: key.raw, value) {
                StrataDiagnostics.emit(.invalidArgument, "setValue on a presentation copy; copies are read-only")
            }
            return
        }
        e.ensureTransaction()
        let name = KeyInterner.name(key)
        var outcome = ActionOutcome.none
        if !e.transactions[e.transactions.count - 1].disableActions { outcome = e.lookupStrategy.outcome(self, key) }
        let shown = currentCustom(key.raw)
        customValues[key.raw] = value
        e.changes.objects.append((row, key.raw))
        if case .action(let a) = outcome {
            // The action's animation starts from the value shown before the change.
            let outer = e.inFlight.custom
            e.inFlight.custom = (row, key.raw, shown)
            a.run(forKey: name, object: self, arguments: nil)
            e.inFlight.custom = outer
        }
        if let r = e.recorder {
            r.setCustom(self, name, value, outcome: outcome, disabled: e.transactions[e.transactions.count - 1].disableActions)
        }
    }
}
