import Foundation

extension CALayer {
    /// The transition running on the layer at the last rendered frame (on the model layer
    /// and on presentation copies), or nil.
    public var runningTransition: CATransitionState? {
        if row < 0 { return presentedRow >= 0 ? engine.animations.transitionState(row: presentedRow, timings: engine.timings) : copiedTransition }
        // `context` once: each read is a call returning the engine (a retain and a release);
        // reading it twice cost a renderer's read of every layer's transition about 95
        // instructions (a859f42; program/frame/transition/1000: 54.8 -> 64.3 an item).
        let e = context
        return e.animations.transitionState(row: row, timings: e.timings)
    }
}
