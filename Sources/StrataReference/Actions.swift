import Foundation
import StrataOverrides

/// Something a layer runs in response to a property change or event (Core Animation's
/// CAAction). Every `CAAnimation` is one: running it adds a copy to the layer under the key.
public protocol CAAction: AnyObject {
    /// Performs the action for `event` on `anObject` (the layer).
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

/// `NSNull` is the "stop, no action" marker of the lookup chain.
extension NSNull: CAAction {
    /// Does nothing.
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

/// A layer's delegate: the UIView role. Returning an action ends the lookup, nil continues
/// it, `NSNull()` ends it with no action.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event` on `layer`, nil to continue the lookup, `NSNull()` to stop it.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
    /// Updates `layer`'s contents itself (default: the layer draws, `drawContents()`).
    func display(_ layer: CALayer)
    /// Draws `layer`'s contents into `ctx` (default: nothing).
    func draw(_ layer: CALayer, in ctx: CGContext)
    /// Called before `layer` draws (default: nothing).
    func layerWillDraw(_ layer: CALayer)
}

extension CALayerDelegate {
    /// Default: nil (continue the lookup).
    public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    /// Default: the layer draws itself (`draw(in:)` into a recording context).
    public func display(_ layer: CALayer) { layer.drawContents() }
    /// Default: nothing.
    public func draw(_ layer: CALayer, in ctx: CGContext) {}
    /// Default: nothing.
    public func layerWillDraw(_ layer: CALayer) {}
}

/// Callbacks of an animation's lifetime.
public protocol CAAnimationDelegate: AnyObject {
    /// The animation began (at the first frame inside its active time).
    func animationDidStart(_ anim: CAAnimation)
    /// The animation ended: `flag` is true when it ran to its end, false when removed.
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
    /// Default: nothing.
    public func animationDidStart(_ anim: CAAnimation) {}
    /// Default: nothing.
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// How the action lookup is carried out in the fast engine (benchmarked side by side). The
/// reference engine always walks the literal chain; the setting is stored and read back only.
public enum ActionLookupStrategy: String, CaseIterable, Sendable {
    /// The literal delegate -> actions -> style -> defaultAction -> built-in walk on String keys.
    case chain
    /// The same walk on interned ids (fast engine only).
    case interned
    /// Memoised per (layer class, key) (fast engine only).
    case cached
}

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
