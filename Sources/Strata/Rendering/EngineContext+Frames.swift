import Foundation

extension EngineContext {
    /// Sets the clock and commits the implicit transaction (explicit ones stay open).
    func beginFrame(atTime t: Double) {
        now = t
        flush()
    }

    /// Evaluates every animation at `now`: timing entries (one curve solve each), then the
    /// lane tracks (SIMD kernels), then composed layer properties, then object values.
    func render() {
        timings.evaluate(now: now)
        let prog = timings.progress.base, phase = timings.phase.base
        // Index loops: an array iterator allocates in unoptimised builds.
        for i in 0..<animations.tracks.count {
            let t = animations.tracks[i]
            guard t.count > 0 else { continue }
            t.evaluate(progress: prog, phase: phase,
                       presentation: layers.presentationColumn(t.property), model: layers.modelColumn(t.property))
        }
        if !animations.composed.isEmpty { composeAll() }
        if !animations.objectRecords.isEmpty { renderObjects() }
    }

    /// Several animations on one layer property: start from the model value, apply each
    /// active animation in list order (additive ones add, others replace).
    private func composeAll() {
        var value = [Double](repeating: 0, count: 16)
        for key in animations.composed {
            let row = Int32(truncatingIfNeeded: key >> 8), p = PropertyID(Int32(key & 0xff))
            let pw = PropertyTable[p].width
            let model = layers.modelColumn(p), pres = layers.presentationColumn(p)
            for c in 0..<pw { value[c] = model[Int(row) * pw + c] }
            var anyActive = false, anyPending = false
            var id = layers.firstAnimation[Int(row)]
            while id >= 0 {
                let r = animations.records[Int(id)]
                id = r.nextInLayer
                guard r.property == p.raw, r.kind == .lanes else { continue }
                let ph = timings.phase[Int(r.timing)]
                if ph == TimingPhase.pending.rawValue { anyPending = true; continue }
                guard ph == TimingPhase.active.rawValue else { continue }
                anyActive = true
                let t = animations.tracks[Int(r.track)]
                let additive = r.flags & RecordFlags.additive != 0
                for c in 0..<t.width {
                    let v = t.scratch[t.lane(Int(r.slot), c)]
                    if additive { value[t.offset + c] += v } else { value[t.offset + c] = v }
                }
            }
            if anyActive || !anyPending {
                for c in 0..<pw { pres[Int(row) * pw + c] = value[c] }
            }
        }
    }

    /// Discrete object animations: the from object before progress 0.5, the to object after.
    private func renderObjects() {
        for id in animations.objectRecords {
            let r = animations.records[Int(id)]
            guard let h = layers.handle[Int(r.layer)] else { continue }
            let layer = h.takeUnretainedValue()
            let e = Int(r.timing)
            switch timings.phase[e] {
            case TimingPhase.active.rawValue:
                let v: (from: Any?, to: Any?) = animations.objectValues[id] ?? (nil, nil)
                layer.animatedObjects[r.property] = timings.progress[e] < 0.5 ? v.from : v.to
            case TimingPhase.inactive.rawValue:
                layer.animatedObjects[r.property] = nil
            default:
                break
            }
        }
    }

    /// Retires finished animations, then calls animationDidStart / animationDidStop and the
    /// completion blocks whose animations are all done.
    func endFrame() {
        var started: [CAAnimation] = []
        for k in 0..<timings.justStarted.count {
            let e = timings.justStarted[k]
            guard timings.delegateCount[Int(e)] > 0 else { continue }
            var id = timings.firstRecord[Int(e)]
            while id >= 0 {
                let r = animations.records[Int(id)]
                if r.flags & RecordFlags.hasDelegate != 0 && r.flags & RecordFlags.started == 0 {
                    animations.records[Int(id)].flags |= RecordFlags.started
                    if let o = animations.objects[Int(id)] { started.append(o) }
                }
                id = r.nextInTiming
            }
        }
        var stopped: [(CAAnimation, Bool)] = []
        let completed = timings.justCompleted
        for k in 0..<completed.count {
            let e = completed[k]
            let i = Int(e)
            guard timings.alive[i] else { continue }
            entryDone(e)
            if timings.params[i].removedOnCompletion {
                // Detach in add order (the list is newest first).
                var ids: [Int32] = []
                var id = timings.firstRecord[i]
                while id >= 0 { ids.append(id); id = animations.records[Int(id)].nextInTiming }
                for id in ids.reversed() { detach(id, finished: true, snap: true, stopped: &stopped) }
            } else if timings.delegateCount[i] > 0 {
                var ids: [Int32] = []
                var id = timings.firstRecord[i]
                while id >= 0 { ids.append(id); id = animations.records[Int(id)].nextInTiming }
                for id in ids.reversed() where animations.records[Int(id)].flags & RecordFlags.hasDelegate != 0 {
                    if let o = animations.objects[Int(id)] { stopped.append((o, true)) }
                }
            }
        }
        if !started.isEmpty {
            callbackDepth += 1
            for a in started { a.delegate?.animationDidStart(a) }
            callbackDepth -= 1
        }
        deliverStops(stopped)
        fireCompletionGroups()
    }
}

/// Drives frames of a layer tree at given media times (Apple's CARenderer vocabulary).
///
///     let r = CARenderer(layer: root)
///     r.renderFrame(atTime: 0.125)     // presentation values at t = 0.125
open class CARenderer: NSObject {
    /// The root of the rendered tree.
    open var layer: CALayer?
    let context: EngineContext

    /// A renderer of `layer`'s tree, in this thread's engine.
    public init(layer: CALayer?) {
        self.layer = layer
        context = layer?.context ?? EngineContext.current
        super.init()
    }

    /// Starts a frame at media time `t`: `CACurrentMediaTime()` becomes t and the implicit
    /// transaction is committed (its animations begin at t). A non-finite time is refused.
    open func beginFrame(atTime t: Double) {
        guard t.isFinite else {
            StrataDiagnostics.emit(.nonFiniteValue, "beginFrame(atTime: \(t)): time must be finite; frame ignored")
            return
        }
        context.beginFrame(atTime: t)
    }

    /// Computes every presentation value at the frame's time.
    open func render() { context.render() }

    /// Retires finished animations; delivers delegate callbacks and completion blocks.
    open func endFrame() { context.endFrame() }

    /// `beginFrame(atTime:)`, `render()`, `endFrame()`.
    open func renderFrame(atTime t: Double) {
        guard t.isFinite else {
            StrataDiagnostics.emit(.nonFiniteValue, "renderFrame(atTime: \(t)): time must be finite; frame ignored")
            return
        }
        context.beginFrame(atTime: t)
        context.render()
        context.endFrame()
    }
}
