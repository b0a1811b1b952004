import Foundation

extension CALayer {
    /// `action(forKey:)`: the lookup chain, a built-in action returned as the animation it stands for.
    func lookUpAction(forKey event: String) -> CAAction? {
        guard row >= 0 else { return nil }
        let key = KeyInterner.id(event)
        switch context.lookupStrategy.outcome(self, key) {
        case .none: return nil
        case .action(let a): return a
        case .builtIn(.transition): return CATransition()
        case .builtIn(_):
            let a = CABasicAnimation(keyPath: event)
            a.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction.defaultCurve
            return a
        }
    }
}
