import Foundation

extension CALayer {
    /// The transition running on the layer at the last rendered frame (on the model layer
    /// and on presentation copies), or nil.
    public var runningTransition: CATransitionState? {
        if row < 0 { return presentedRow >= 0 ? engine.transitionState(row: presentedRow) : copiedTransition }
        return context.transitionState(row: row)
    }
}

extension EngineContext {
    func transitionState(row: Int32) -> CATransitionState? {
        let id = record(row: row, key: KeyInterner.transition.raw)
        guard id >= 0, let t = animations.objects[Int(id)] as? CATransition else { return nil }
        let e = Int(animations.records[Int(id)].timing)
        guard timings.phase[e] == TimingPhase.active.rawValue else { return nil }
        let p = Float(timings.progress[e])
        return CATransitionState(type: t.type, subtype: t.subtype ?? .fromLeft,
                                 progress: t.startProgress + (t.endProgress - t.startProgress) * p)
    }
}
