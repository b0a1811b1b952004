import Foundation

extension CALayer {
    /// The transition running on the layer at the last rendered frame (on the model layer
    /// and on presentation copies), or nil.
    public var runningTransition: CATransitionState? {
        if row < 0 { return presentedRow >= 0 ? engine.animations.transitionState(row: presentedRow, timings: engine.timings) : copiedTransition }
        return context.animations.transitionState(row: row, timings: context.timings)
    }
}
