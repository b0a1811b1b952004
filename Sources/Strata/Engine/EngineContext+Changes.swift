import Foundation

extension EngineContext {
    /// A property change from the API: validate, look the action up (before the model
    /// changes), write the model, run the action. The fast path (built-in action) allocates
    /// nothing and hashes no String.
    @inline(__always)
    func setProperty(_ layer: CALayer, _ p: PropertyID, _ new: Lanes) {
        let info = PropertyTable.hot[p.index]
        let w = info.width
        var finite = true
        for c in 0..<w where !new[c].isFinite { finite = false }
        if !finite && !(info.kind == .color && new[0].isNaN && new[1].isNaN && new[2].isNaN && new[3].isNaN) {
            refuseNonFinite(p, new)
            return
        }
        guard layer.row >= 0 else { refuseCopyMutation(p); return }
        ensureTransaction()
        let row = Int(layer.row)
        let model = layers.modelColumn(p)
        let committed = layers.flags[row] & LayerFlags.committed != 0
        let source = committed ? layers.presentationColumn(p) : model
        var old = Lanes()
        for c in 0..<w { old[c] = source[row * w + c] }
        var outcome = ActionOutcome.none
        if !transactions[transactions.count - 1].disableActions {
            outcome = lookupAction(layer, p)
        }
        for c in 0..<w { model[row * w + c] = new[c] }
        switch outcome {
        case .none: break
        case .builtIn(.basic): addImplicit(layer.row, p, from: old, to: new)
        case .builtIn(_): addBuiltInTransition(layer)
        case .action(let a): runAction(a, layer: layer, row: layer.row, p, old: old)
        }
        dirty.append((layer.row, p))
    }

    @inline(never)
    func refuseNonFinite(_ p: PropertyID, _ v: Lanes) {
        let w = PropertyTable[p].width
        let shown = (0..<w).map { v[$0] }
        StrataDiagnostics.emit(.nonFiniteValue,
            "\(PropertyTable[p].name) = \(shown): values must be finite; the model value is unchanged")
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
        changeInFlight = (row, p, (0..<w).map { old[$0] })
        callbackDepth += 1
        a.run(forKey: name, object: layer, arguments: nil)
        callbackDepth -= 1
        changeInFlight = nil
    }

    /// `isHidden`: the `hidden` property change, then kCAOnOrderOut / kCAOnOrderIn.
    func setHidden(_ layer: CALayer, _ hidden: Bool) {
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
        ensureTransaction()
        guard !transactions[transactions.count - 1].disableActions else { return }
        let name = KeyInterner.name(key)
        if case .action(let a) = lookupAction(layer, key) {
            callbackDepth += 1
            a.run(forKey: name, object: layer, arguments: nil)
            callbackDepth -= 1
        }
    }

    /// An object-valued property change (contents, mask, paths, filters).
    func setObject(_ layer: CALayer, _ p: PropertyID, _ v: Any?) {
        guard layer.row >= 0 else { refuseCopyMutation(p); return }
        if p == .mask, let m = v as? CALayer, m === layer {
            StrataDiagnostics.emit(.layerCycle, "a layer cannot be its own mask; mask unchanged")
            return
        }
        ensureTransaction()
        let name = PropertyTable[p].name
        var outcome = ActionOutcome.none
        if !transactions[transactions.count - 1].disableActions {
            outcome = lookupAction(layer, p)
        }
        let old = layer.readObject(p)
        layer.storeObject(p, v)
        switch outcome {
        case .none: break
        case .builtIn(.transition): addBuiltInTransition(layer)
        case .builtIn(_): addObjectAnimation(layer, p, from: old, to: v, timing: implicitEntry(), key: p.raw, object: nil)
        case .action(let a):
            changeInFlight = (layer.row, p, [])
            objectInFlight = (old, v)
            callbackDepth += 1
            a.run(forKey: name, object: layer, arguments: nil)
            callbackDepth -= 1
            changeInFlight = nil
            objectInFlight = nil
        }
    }

    /// Layer timing fields: stored, never animated; refused when not finite.
    func setTiming(_ layer: CALayer, _ p: PropertyID, _ v: Double) {
        guard v.isFinite || (p == .repeatCount && v == .infinity) else {
            StrataDiagnostics.emit(.nonFiniteValue, "layer.\(PropertyTable[p].name) = \(v) must be finite; unchanged")
            return
        }
        guard layer.row >= 0 else { refuseCopyMutation(p); return }
        let col = layers.modelColumn(p)
        col[Int(layer.row)] = v
        layers.presentationColumn(p)[Int(layer.row)] = v
    }
}
