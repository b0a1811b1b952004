import Foundation

extension CALayer {
    /// `action(forKey:)`: the lookup chain, a built-in action returned as the animation it stands for.
    func lookUpAction(forKey event: String) -> CAAction? {
        guard row >= 0 else { return nil }
        let key = KeyInterner.id(event)
        switch context.lookupStrategy.chainOutcome(self, key) {
        case .none: return nil
        case .action(let a): return a
        case .builtIn(.transition): return CATransition()
        case .builtIn(_):
            let a = CABasicAnimation(keyPath: event)
            a.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction.defaultCurve
            // Asked before the model changes, like Core Animation's own: the animation starts
            // from the value shown now.
            let info = PropertyTable[key]
            if key.isBuiltIn && info.width > 0 && info.kind != .timing {
                let lanes = context.compiler.currentLanes(row: row, key, offset: 0, width: info.width)
                a.fromValue = lanes.withUnsafeBufferPointer { LaneValue.box($0.baseAddress!, kind: info.kind) }
            }
            return a
        }
    }
}
