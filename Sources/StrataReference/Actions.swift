import Foundation
import StrataOverrides

// CAAction, CALayerDelegate, CAAnimationDelegate and ActionLookupStrategy are the shared
// vocabulary (Sources/Strata/Vocabulary, compiled here too).

/// What the lookup chain found for a key.
enum ActionLookupResult {
    /// Nothing, or NSNull: no action runs.
    case none
    /// The built-in implicit action of the property (step 5).
    case builtIn(ImplicitAction)
    /// An action from the delegate, `actions`, `style` or `defaultAction(forKey:)`.
    case action(CAAction)
}

/// Which layer classes override `action(forKey:)` (read once from the class's vtable; when
/// the metadata cannot be read, every subclass is taken to override it).
enum ActionOverride {
    private final class Overriding: CALayer {
        override func action(forKey event: String) -> CAAction? { nil }
    }
    private final class Plain: CALayer {}
    static let probe = MethodOverrideProbe(base: CALayer.self, overriding: Overriding.self, plain: Plain.self)

    static func overrides(_ cls: CALayer.Type) -> Bool {
        probe?.overrides(cls) ?? (cls != CALayer.self && cls != CAShapeLayer.self)
    }
}

/// A lookup step's answer: nil continues, NSNull stops with no action.
private func outcome(_ action: CAAction?) -> ActionLookupResult? {
    guard let action else { return nil }
    return action is NSNull ? ActionLookupResult.none : .action(action)
}

extension CALayer {
    /// What a property change or event runs: the layer's own `action(forKey:)` when its class
    /// overrides it (SEMANTICS.md, "One entry point"), else the chain itself.
    func lookUpAction(forKey key: String) -> ActionLookupResult {
        if ActionOverride.overrides(type(of: self)) { return outcome(action(forKey: key)) ?? .none }
        return chainAction(forKey: key)
    }

    /// The lookup chain of SEMANTICS.md, walked on the String key:
    /// delegate, `actions`, `style` (recursively), `defaultAction(forKey:)`, built-in action.
    func chainAction(forKey key: String) -> ActionLookupResult {
        if let delegate, let found = outcome(delegate.action(for: self, forKey: key)) { return found }
        if let actions, let found = outcome(actions[key]) { return found }
        var style = self.style
        var depth = 0
        // A style that contains itself cannot loop forever.
        while let current = style, depth < 64 {
            if let styleActions = current["actions"] as? [AnyHashable: Any],
               let entry = styleActions[key], let action = entry as? CAAction {
                return outcome(action)!
            }
            style = current["style"] as? [AnyHashable: Any]
            depth += 1
        }
        if let found = outcome(type(of: self).defaultAction(forKey: key)) { return found }
        guard let spec = PropertyCatalog.spec(key) else { return outcome(ToolboxImplicitAction.forLayerKey(key)) ?? .none }
        if spec.shapeOnly && !(self is CAShapeLayer) { return .none }
        return spec.implicitAction == .none ? .none : .builtIn(spec.implicitAction)
    }
}
