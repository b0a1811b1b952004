import Foundation

extension CALayer {
    /// The transition running on the layer at the last rendered frame (on the model layer
    /// and on presentation copies), or nil.
    public var runningTransition: CATransitionState? {
        if row < 0 { return presentedRow >= 0 ? engine.transitionState(row: presentedRow) : copiedTransition }
        return context.transitionState(row: row)
    }
}
