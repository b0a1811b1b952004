import Foundation

/// The owner's sequencing of adds and removals: which part does what, in which order, and
/// the callbacks once the stores are consistent. The rows themselves are the stores'
/// (`Stores/AnimationStore+Removal.swift`) and the compiler's
/// (`Animations/AnimationCompiler+Install.swift`).
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
                        _ = compiler.addLaneRecord(row: row, p, offset: 0, width: w, from: f, to: t, timing: e,
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

    /// The built-in implicit animation of an object property (contents, a path ...), on
    /// the transaction's entry.
    @discardableResult
    func addObjectAnimation(row: Int32, _ p: PropertyID, _ values: ObjectValues, timing e: Int32,
                            key: Int32, object: CAAnimation?) -> Int32 {
        removeAnimation(row: row, key: key, finished: false, replacing: p.raw)
        return compiler.addObjectRecord(row: row, p, values, timing: e, key: key, object: object)
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
        transactions.implicitEntry(inSpace: layers.timeSpace[Int(row)], timings: timings, newEntries: &changes.newEntries)
    }

    /// The shared timing entry of the innermost level's built-in implicit animations.
    @inline(__always)
    func implicitEntry() -> Int32 {
        let e = transactions[transactions.count - 1].implicitEntry
        if e >= 0 { return e }
        return makeImplicitEntry()
    }

    @inline(never)
    private func makeImplicitEntry() -> Int32 {
        transactions.makeImplicitEntry(timings: timings, newEntries: &changes.newEntries)
    }

    /// A timing entry for explicit parameters at the innermost level (shared when equal).
    func entry(for p: TimingParameters) -> Int32 {
        transactions.entry(for: p, timings: timings, newEntries: &changes.newEntries)
    }

    // MARK: removing

    /// Removes the animation under `key`, if any (its delegate is told `finished`). When it
    /// is being replaced (`snap` false) the presentation keeps its value until the next frame.
    @inline(__always)
    func removeAnimation(row: Int32, key: Int32, finished: Bool, snap: Bool = false, replacing: Int32 = -2) {
        guard animations.firstOfLayer[Int(row)] >= 0 else { return }
        let id = animations.record(row: row, key: key)
        guard id >= 0 else { return }
        var effects = RemovalEffects()
        // A replacement animating another property leaves nothing to hold the old one's value.
        let snapNow = snap || animations.target(of: id) != replacing || animations.records[Int(id)].kind == .group
        detach(id, finished: finished, snap: snapNow, effects: &effects)
        if replacing != -2 {
            // Replaced: callbacks wait until the new animation is in place (they may set the
            // same property again), see `deliverDeferred()`.
            deferredStops.append(contentsOf: effects.stopped)
            return
        }
        deliverStops(effects.stopped)
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
        var effects = RemovalEffects()
        while animations.firstOfLayer[Int(row)] >= 0 {
            detach(animations.firstOfLayer[Int(row)], finished: false, snap: true, effects: &effects)
        }
        deliverStops(effects.stopped)
        fireCompletionGroups()
    }

    /// Takes a record out of the stores (`AnimationStore.detach`): live copies keep what was
    /// shown; what the stores hand back for the transactions and the layer objects is done at
    /// once, the delegates' callbacks are left in `effects.stopped` for the caller.
    @inline(__always)
    func detach(_ id: Int32, finished: Bool, snap: Bool, effects: inout RemovalEffects) {
        freezeLiveCopies()
        animations.detach(id, finished: finished, snap: snap, layers: layers, timings: timings, effects: &effects)
        if !effects.other.isEmpty { apply(&effects.other) }
    }

    /// What removing records left for the owner's other parts: completion groups count
    /// down, replaced values wait for the next render, the layer objects show model values.
    @inline(never)
    func apply(_ other: inout [RemovalEffect]) {
        for effect in other {
            switch effect {
            case let .entryDone(groups): transactions.entryDone(groups)
            case let .refreshAtRender(row, p): changes.refreshAtRender.append((row, p))
            case let .objectAnimationRemoved(row, p): layerSide?.objectAnimationRemoved(row: row, p, in: self)
            case let .customAnimationRemoved(row, key): layerSide?.customAnimationRemoved(row: row, key: key, in: self)
            }
        }
        other.removeAll(keepingCapacity: true)
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
            timeSpaceMayHaveChanged(c)
            if layers.handle[Int(c)] != nil { orphans.append(c) }
            c = next
        }
        layers.unlink(row)
        layers.free(row)
        if !orphans.isEmpty { layerSide?.releaseOrphans(self) }
    }
}
