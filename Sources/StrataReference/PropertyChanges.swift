import Foundation

/// Property changes from the API: validate, look the action up (before the model changes),
/// write the model value, run the action, and remember the change for the commit.
extension ReferenceEngine {
    /// An interpolatable built-in property gets new components.
    func setComponents(of layer: CALayer, _ key: String, _ new: [Double]) {
        let spec = PropertyCatalog.builtIn(key)
        guard Boxing.isFinite(new, kind: spec.kind) else {
            StrataDiagnostics.emit(.nonFiniteValue, "\(key) = \(new): values must be finite; the model value is unchanged")
            return
        }
        guard !layer.isCopy else {
            if layer.copyAcceptsWrites { layer.componentValues[key] = new } else { refuseCopyMutation(key) }
            return
        }
        let top = topTransaction()
        let old = layer.currentComponents(key)
        let outcome: ActionLookupResult = top.disableActions ? .none : layer.lookUpAction(forKey: key)
        layer.componentValues[key] = new
        switch outcome {
        case .none, .builtIn(.none):
            break
        case .builtIn(.basic):
            addImplicitAnimation(on: layer, key, from: old, to: new)
        case .builtIn(.transition):
            addBuiltInTransition(on: layer)
        case .action(let action):
            run(action, forKey: key, on: layer,
                change: ChangeInFlight(layer: ObjectIdentifier(layer), key: key, oldComponents: old))
        }
        noteChange(of: layer, key)
    }

    /// `isHidden`: the `hidden` property change, then kCAOnOrderOut / kCAOnOrderIn.
    func setHidden(_ layer: CALayer, _ hidden: Bool) {
        let was = layer.isHidden
        setComponents(of: layer, "hidden", [hidden ? 1 : 0])
        if was != hidden && !layer.isCopy {
            runEvent(hidden ? kCAOnOrderOut : kCAOnOrderIn, on: layer)
        }
    }

    /// An object-valued property change (contents, mask, paths, filters).
    func setObject(of layer: CALayer, _ key: String, _ value: Any?) {
        guard !layer.isCopy else {
            if layer.copyAcceptsWrites { layer.objectValues[key] = value } else { refuseCopyMutation(key) }
            return
        }
        if key == "mask", let mask = value as? CALayer, mask === layer {
            StrataDiagnostics.emit(.layerCycle, "a layer cannot be its own mask; mask unchanged")
            return
        }
        let top = topTransaction()
        let outcome: ActionLookupResult = top.disableActions ? .none : layer.lookUpAction(forKey: key)
        let old = layer.isCommitted ? layer.presentedObjects[key] : layer.objectValues[key]
        layer.objectValues[key] = value
        switch outcome {
        case .none, .builtIn(.none):
            break
        case .builtIn(.transition):
            addBuiltInTransition(on: layer)
        case .builtIn(.basic):
            addImplicitObjectAnimation(on: layer, key, from: old, to: value)
        case .action(let action):
            run(action, forKey: key, on: layer,
                change: ChangeInFlight(layer: ObjectIdentifier(layer), key: key, oldObject: old, newObject: value))
        }
        noteChange(of: layer, key)
    }

    /// A custom key: stored on the layer; the lookup chain runs (there is no built-in action).
    func setCustom(of layer: CALayer, _ key: String, _ value: Any?) {
        if let value, let number = Boxing.number(value), !number.isFinite {
            StrataDiagnostics.emit(.nonFiniteValue, "\(key) = \(number) must be finite; unchanged")
            return
        }
        guard !layer.isCopy else {
            if layer.copyAcceptsWrites {
                layer.customValues[key] = value
            } else {
                StrataDiagnostics.emit(.invalidArgument, "setValue on a presentation copy; copies are read-only")
            }
            return
        }
        let top = topTransaction()
        let outcome: ActionLookupResult = top.disableActions ? .none : layer.lookUpAction(forKey: key)
        let old = layer.isCommitted ? layer.presentedCustom[key] ?? type(of: layer).defaultValue(forKey: key) : layer.customModel(key)
        layer.customValues[key] = value
        if case .action(let action) = outcome {
            run(action, forKey: key, on: layer,
                change: ChangeInFlight(layer: ObjectIdentifier(layer), key: key, oldObject: old, newObject: value))
        }
        noteChange(of: layer, key)
    }

    /// Layer timing fields are stored, never animated; refused when not finite (an infinite
    /// repeatCount is allowed) and on copies.
    func acceptsTiming(_ layer: CALayer, _ key: String, _ value: Double) -> Bool {
        guard value.isFinite || (key == "repeatCount" && value == .infinity) else {
            StrataDiagnostics.emit(.nonFiniteValue, "layer.\(key) = \(value) must be finite; unchanged")
            return false
        }
        if value < 0 && (key == "duration" || key == "repeatCount" || key == "repeatDuration") {
            StrataDiagnostics.emit(.invalidArgument, "layer.\(key) = \(value) must be >= 0; unchanged")
            return false
        }
        guard !layer.isCopy || layer.copyAcceptsWrites else {
            refuseCopyMutation(key)
            return false
        }
        return true
    }

    /// An event (kCAOnOrderIn, kCAOnOrderOut, sublayers): looked up and run unless actions
    /// are disabled.
    func runEvent(_ event: String, on layer: CALayer) {
        let top = topTransaction()
        guard !top.disableActions else { return }
        switch layer.lookUpAction(forKey: event) {
        case .action(let action):
            run(action, forKey: event, on: layer, change: nil)
        case .builtIn(.transition):
            addBuiltInTransition(on: layer)
        default:
            break
        }
    }

    /// A basic animation run as the action of a change of its whole property, with no
    /// `fromValue`, shows where it starts: the value before the change (what it animates
    /// from, so `animation(forKey:)` reads it, as for built-in implicit animations). Not when
    /// both `toValue` and `byValue` are set (they fix the start themselves).
    func showStart(of animation: CAAnimation, on layer: CALayer) {
        guard let basic = animation as? CABasicAnimation, basic.fromValue == nil,
              basic.toValue == nil || basic.byValue == nil, let key = basic.keyPath,
              let change = changeInFlight, change.layer == ObjectIdentifier(layer), change.key == key,
              let old = change.oldComponents, let spec = PropertyCatalog.spec(key),
              spec.kind != .object, spec.kind != .timing, old.count == spec.kind.width else { return }
        basic.fromValue = Boxing.box(old, kind: spec.kind)
    }

    /// Runs an action found by the lookup, with the change that triggered it in flight.
    func run(_ action: CAAction, forKey key: String, on layer: CALayer, change: ChangeInFlight?) {
        let saved = changeInFlight
        changeInFlight = change
        action.run(forKey: key, object: layer, arguments: nil)
        changeInFlight = saved
    }

    /// Remembers a model change: at the commit it shows on screen unless an animation drives it.
    func noteChange(of layer: CALayer, _ key: String) {
        changedProperties[ObjectIdentifier(layer), default: (LayerRef(layer), [])].keys.append(key)
    }

    func refuseCopyMutation(_ key: String) {
        StrataDiagnostics.emit(.invalidArgument, "\(key) set on a presentation copy; copies are read-only")
    }
}

extension CALayer {
    /// Is an animation of this layer writing the presentation value of `key` (a built-in
    /// property or a custom key)?
    func hasAnimation(affecting key: String) -> Bool {
        var all: [AnimationRuntime] = []
        for runtime in animationRuntimes { runtime.appendFlattened(to: &all) }
        for runtime in all {
            if runtime.effect.property == key { return true }
            if case .custom(let customKey, _, _, _, _) = runtime.effect, customKey == key { return true }
        }
        return false
    }

    /// The presentation value of `key` becomes its model value.
    func showModelValue(of key: String) {
        if let spec = PropertyCatalog.spec(key) {
            switch spec.kind {
            case .object: presentedObjects[spec.name] = objectValues[spec.name]
            case .timing: break
            default: presentedComponents[spec.name] = componentValues[spec.name]
            }
        } else {
            presentedCustom[key] = customModel(key)
        }
    }

    /// The running state of each animation, in the order they were added.
    var animationRuntimes: [AnimationRuntime] {
        animationOrder.compactMap { animations[$0]?.runtime }
    }
}
