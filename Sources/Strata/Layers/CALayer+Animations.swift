import Foundation

extension CALayer {
    /// `animationKeys()`: the keys along the layer's animation list (add order).
    func runningAnimationKeys() -> [String]? {
        guard row >= 0 else { return nil }
        var keys: [String] = []
        var id = context.animations.firstOfLayer[Int(row)]
        while id >= 0 {
            let r = context.animations.records[Int(id)]
            if r.key >= 0 { keys.append(KeyInterner.name(PropertyID(r.key))) }
            id = r.nextInLayer
        }
        return keys.isEmpty ? nil : keys
    }
}

/// The face's side of adding an animation: what takes the layer object (the thread and copy
/// checks, the recorder, the compiler's reading of the layer, a custom class's displayed
/// keys); the engine stores the prepared rows (`EngineContext.store`).
extension CALayer {
    /// `CAAnimation.run(forKey:object:arguments:)`: adds a copy under the event's key; a
    /// property animation without a key path animates the event's key.
    func runAnimationAction(_ anim: CAAnimation, event: String, in e: EngineContext) {
        let copy = anim.copy() as! CAAnimation
        if let p = copy as? CAPropertyAnimation, p.keyPath == nil { p.keyPath = event }
        addAnimation(copy, forKey: event, in: e, fromAction: true, copied: true)
    }

    /// The built-in action of contents and filters changes: a fade CATransition.
    func addBuiltInTransition(in e: EngineContext) {
        let t = CATransition()
        t.timingFunction = e.transactions.last?.timingFunction ?? CAMediaTimingFunction.defaultCurve
        addAnimation(t, forKey: kCATransition, in: e, fromAction: true)
    }

    /// `add(_:forKey:)`: validates at the boundary (key path, value types, finite values,
    /// timing), converts boxed values once, then stores the animation. On bad input: a
    /// diagnostic, and nothing changes (not even the animation under the same key).
    func addAnimation(_ anim: CAAnimation, forKey key: String?, in e: EngineContext,
                      fromAction: Bool, copied: Bool = false) {
        guard e.isCurrent else { return }   // another thread: refused (reported by `context`)
        guard row >= 0 else {
            StrataDiagnostics.emit(.invalidArgument, "add(_:forKey:) on a presentation copy; ignored")
            return
        }
        e.ensureTransaction()
        if let r = e.recorder, !fromAction { r.added(anim, forKey: anim is CATransition ? nil : key, to: self) }
        let stored = copied ? anim : (anim.copy() as! CAAnimation)
        guard let prepared = e.compiler.prepare(stored, layer: self),
              e.store(prepared, object: stored, forKey: key, row: row, fromAction: fromAction) else { return }
        if _slowPath(e.layers.flags[Int(row)] & LayerFlags.customClass != 0) { noteDisplayedAnimation(stored) }
        e.deliverDeferred()
    }

    /// A layer of a class of its own animates a key its class displays for: its presentation
    /// draws at every frame while the animation runs (CALayer+Display).
    @inline(never)
    func noteDisplayedAnimation(_ a: CAAnimation) {
        let paths: [String]
        if let g = a as? CAAnimationGroup {
            paths = (g.animations ?? []).compactMap { ($0 as? CAPropertyAnimation)?.keyPath }
        } else {
            paths = (a as? CAPropertyAnimation)?.keyPath.map { [$0] } ?? []
        }
        for p in paths where type(of: self).needsDisplay(forKey: p) { displayQueue.noteAnimated(self, p) }
    }

    /// This layer's engine's display work.
    var displayQueue: DisplayQueue { engine.displayQueue }
}
