import Foundation

/// Adding and removing animations: validate and resolve at the boundary, store under a key,
/// take out again with the delegate told and completion blocks released.
extension ReferenceEngine {
    /// Prefix of the keys of animations added with a nil key (never listed).
    static let anonymousKeyPrefix = "\u{1}anonymous-"

    /// Stores an (already copied) animation under `key` on `layer`: validated and resolved
    /// first; on bad input a diagnostic and nothing changes, not even the animation under
    /// the same key. An animation under the same key is replaced (told finished: false).
    func addAnimation(_ animation: CAAnimation, forKey key: String?, to layer: CALayer, fromAction: Bool) {
        guard !layer.isCopy else {
            StrataDiagnostics.emit(.invalidArgument, "add(_:forKey:) on a presentation copy; ignored")
            return
        }
        topTransaction()
        let storageKey: String
        if animation is CATransition {
            storageKey = kCATransition
        } else {
            storageKey = key ?? "\(ReferenceEngine.anonymousKeyPrefix)\(takeSequence())"
        }
        guard let runtime = makeRuntime(animation, layer: layer, key: storageKey, fromAction: fromAction,
                                        groupDuration: nil) else { return }
        replace(with: runtime, on: layer)
        // A key its class displays for: the presentation draws at every frame while it runs.
        let paths = (animation as? CAAnimationGroup)?.animations?.compactMap { ($0 as? CAPropertyAnimation)?.keyPath }
            ?? [(animation as? CAPropertyAnimation)?.keyPath].compactMap { $0 }
        for p in paths where type(of: layer).needsDisplay(forKey: p) { displayQueue.noteAnimated(layer, p) }
    }

    /// The parts of an animation of `field` of custom key `key`: the key's value type and
    /// kind, and the field's model and current components (the value before the change in
    /// flight, else what is shown).
    func customFieldParts(_ layer: CALayer, _ key: String, _ field: ValueField)
        -> (CustomValueType, ValueKind, model: [Double], current: [Double])? {
        guard let model = layer.customModel(key), let (type, kind, width) = CustomValueType.of(model),
              let modelComponents = Boxing.components(model, kind: kind, width: width) else { return nil }
        let current = currentCustomComponents(layer, key, kind: kind, width: width, model: modelComponents)
        return (type, kind, field.part(of: modelComponents), field.part(of: current))
    }

    /// The components a custom key's animation starts from: the value before the change in
    /// flight, else what is shown (the class's default where nothing is); the model's when
    /// neither fits.
    func currentCustomComponents(_ layer: CALayer, _ key: String, kind: ValueKind, width: Int, model: [Double]) -> [Double] {
        var currentValue: Any? = layer.isCommitted ? layer.presentedCustom[key] ?? type(of: layer).defaultValue(forKey: key)
            : layer.customModel(key)
        if let change = changeInFlight, change.layer == ObjectIdentifier(layer), change.key == key {
            currentValue = change.oldObject
        }
        return currentValue.flatMap { Boxing.components($0, kind: kind, width: width) } ?? model
    }

    /// The built-in implicit animation of a property change: a CABasicAnimation from the old
    /// to the new value with the transaction's duration and timing function (or `.default`).
    func addImplicitAnimation(on layer: CALayer, _ key: String, from old: [Double], to new: [Double]) {
        let spec = PropertyCatalog.builtIn(key)
        var from = old, to = new
        if spec.kind == .color {
            // Interpolating from or to "no colour" uses transparent black.
            if from[0].isNaN { from = [0, 0, 0, 0] }
            if to[0].isNaN { to = [0, 0, 0, 0] }
        }
        let top = topTransaction()
        let curve = top.timingFunction ?? CAMediaTimingFunction(name: .default)
        let animation = CABasicAnimation(keyPath: key)
        animation.duration = top.animationDuration
        animation.timingFunction = curve
        animation.fromValue = Boxing.box(from, kind: spec.kind)
        animation.toValue = Boxing.box(to, kind: spec.kind)
        let runtime = AnimationRuntime(
            animation: animation, layer: layer, key: key, sequence: takeSequence(),
            effect: .components(property: key, offset: 0, width: spec.kind.width, from: from, to: to),
            duration: top.animationDuration, timingFunction: curve.isLinear ? nil : curve, isGroupChild: false)
        replace(with: runtime, on: layer)
    }

    /// The built-in implicit animation of an object property (mask, shadowPath, path): the
    /// old object until half time, then the new one.
    func addImplicitObjectAnimation(on layer: CALayer, _ key: String, from old: Any?, to new: Any?) {
        let top = topTransaction()
        let curve = top.timingFunction ?? CAMediaTimingFunction(name: .default)
        let animation = CABasicAnimation(keyPath: key)
        animation.duration = top.animationDuration
        animation.timingFunction = curve
        animation.fromValue = old
        animation.toValue = new
        let runtime = AnimationRuntime(
            animation: animation, layer: layer, key: key, sequence: takeSequence(),
            effect: objectEffect(key, from: old, to: new),
            duration: top.animationDuration, timingFunction: curve.isLinear ? nil : curve, isGroupChild: false)
        replace(with: runtime, on: layer)
    }

    /// The built-in action of contents, filters and sublayers changes: a fade CATransition.
    func addBuiltInTransition(on layer: CALayer) {
        let transition = CATransition()
        transition.timingFunction = topTransaction().timingFunction ?? CAMediaTimingFunction(name: .default)
        addAnimation(transition, forKey: kCATransition, to: layer, fromAction: true)
    }

    /// Validates `animation` and resolves what it does on `layer` (recursively for groups);
    /// nil after a diagnostic.
    func makeRuntime(_ animation: CAAnimation, layer: CALayer, key: String, fromAction: Bool,
                     groupDuration: Double?) -> AnimationRuntime? {
        guard animation.validateTiming(), animation.validateSpring() else { return nil }
        let top = topTransaction()
        let duration = animation.duration > 0 ? animation.duration : (groupDuration ?? top.animationDuration)
        var curve = animation.timingFunction ?? (fromAction ? top.timingFunction : nil)
        if curve?.isLinear == true { curve = nil }
        guard let effect = makeEffect(animation, layer: layer, duration: duration) else { return nil }
        return AnimationRuntime(animation: animation, layer: layer, key: key, sequence: takeSequence(),
                                effect: effect, duration: duration, timingFunction: curve,
                                isGroupChild: groupDuration != nil)
    }

    private func makeEffect(_ animation: CAAnimation, layer: CALayer, duration: Double) -> AnimationEffect? {
        if animation is CATransition { return .transition }
        if let group = animation as? CAAnimationGroup {
            var children: [AnimationRuntime] = []
            // A child that cannot run is dropped, with what refused it reworded; the others
            // run (Core Animation does not refuse the group).
            for (i, child) in (group.animations ?? []).enumerated() {
                let key = "\(ReferenceEngine.anonymousKeyPrefix)\(takeSequence())"
                let (runtime, held) = StrataDiagnostics.withholding {
                    makeRuntime(child, layer: layer, key: key, fromAction: false, groupDuration: duration)
                }
                for d in held { StrataDiagnostics.deliver(runtime == nil ? d.droppedFromGroup(child: i) : d) }
                if let runtime { children.append(runtime) }
            }
            return .group(children)
        }
        guard let propertyAnimation = animation as? CAPropertyAnimation else {
            StrataDiagnostics.emit(.invalidArgument,
                "\(type(of: animation)) animates nothing: add a CABasicAnimation, CAKeyframeAnimation, CAAnimationGroup or CATransition")
            return nil
        }
        guard let path = propertyAnimation.keyPath else {
            StrataDiagnostics.emit(.unknownKeyPath, "\(type(of: animation)) has no keyPath; animation not added")
            return nil
        }
        let target: KeyPathTarget
        if let resolved = KeyPaths.resolve(path, isShape: layer is CAShapeLayer) {
            target = resolved
        } else if KeyPaths.isCustomKey(path) {
            target = .custom(path)
        } else if let field = KeyPaths.customField(path, value: { layer.customModel($0) }) {
            target = field
        } else {
            StrataDiagnostics.emit(.unknownKeyPath,
                "\(type(of: animation)) keyPath \"\(path)\" names no animatable property of \(type(of: layer)); animation not added")
            return nil
        }
        switch (target, animation) {
        case (.components(let spec, let offset, let width), let basic as CABasicAnimation):
            let range = offset..<(offset + width)
            guard let (from, to) = endpoints(of: basic, kind: target.kind, width: width,
                                             changing: isChanging(layer, spec.name),
                                             current: { Array(self.currentComponents(of: layer, spec.name)[range]) },
                                             model: { Array(layer.components(spec.name)[range]) }) else { return nil }
            var f = from, t = to
            if target.kind == .color {
                if f[0].isNaN { f = [0, 0, 0, 0] }
                if t[0].isNaN { t = [0, 0, 0, 0] }
            }
            return .components(property: spec.name, offset: offset, width: width, from: f, to: t)
        case (.components(let spec, let offset, let width), let keyframes as CAKeyframeAnimation):
            guard let sequence = KeyframeBuilder.build(keyframes, kind: target.kind, width: width) else { return nil }
            let rotates = keyframes.path != nil && keyframes.rotationMode != nil
            return .keyframes(property: spec.name, offset: offset, width: width, sequence,
                              rotates: rotates, reverse: keyframes.rotationMode == .rotateAutoReverse)
        case (.timing, is CABasicAnimation), (.timing, is CAKeyframeAnimation):
            StrataDiagnostics.emit(.unknownKeyPath, "\"\(path)\" is a timing field, not an animatable property; animation not added")
            return nil
        case (.object(let spec), let basic as CABasicAnimation):
            guard KeyPaths.objectFits(spec.name, basic.fromValue), KeyPaths.objectFits(spec.name, basic.toValue) else {
                StrataDiagnostics.emit(.wrongValueType, "values of \"\(path)\" must be of its type; animation not added")
                return nil
            }
            var current: Any? = layer.isCommitted ? layer.presentedObjects[spec.name] : layer.objectValues[spec.name]
            var model: Any? = layer.objectValues[spec.name]
            if let change = changeInFlight, change.layer == ObjectIdentifier(layer), change.key == spec.name {
                current = change.oldObject
                model = change.newObject
            }
            return objectEffect(spec.name, from: basic.fromValue ?? current, to: basic.toValue ?? model)
        case (.object(let spec), let keyframes as CAKeyframeAnimation):
            return objectKeyframes(keyframes, spec.name)
        case (.transformField(let spec, let field), let basic as CABasicAnimation):
            let currentTransform = Boxing.transform(currentComponents(of: layer, spec.name))
            let modelTransform = layer.transform3D(spec.name)
            guard let (from, to) = endpoints(of: basic, kind: target.kind, width: field.width, changing: isChanging(layer, spec.name),
                                             current: { field.lanes(in: currentTransform) },
                                             model: { field.lanes(in: modelTransform) }) else { return nil }
            return .transformField(property: spec.name, field, from: from, to: to)
        case (.custom(let key), let basic as CABasicAnimation):
            let model = layer.customModel(key)
            guard let sample = model ?? basic.toValue ?? basic.fromValue ?? basic.byValue,
                  let (type, kind, width) = CustomValueType.of(sample) else { return refuseCustom(path) }
            let modelComponents = model.flatMap { Boxing.components($0, kind: kind, width: width) }
                ?? [Double](repeating: 0, count: width)
            let currentComponents = currentCustomComponents(layer, key, kind: kind, width: width, model: modelComponents)
            guard let (from, to) = endpoints(of: basic, kind: kind, width: width, changing: isChanging(layer, key),
                                             current: { currentComponents }, model: { modelComponents }) else { return nil }
            return .custom(key: key, type: type, kind: kind, field: nil, .endpoints(from: from, to: to))
        case (.customField(let key, let field), let basic as CABasicAnimation):
            guard let (type, kind, model, current) = customFieldParts(layer, key, field) else { return nil }
            guard let (from, to) = endpoints(of: basic, kind: target.kind, width: field.width, changing: isChanging(layer, key),
                                             current: { current }, model: { model }) else { return nil }
            return .custom(key: key, type: type, kind: kind, field: field, .endpoints(from: from, to: to))
        case (.customField(let key, let field), let keyframes as CAKeyframeAnimation):
            guard let (type, kind, _, _) = customFieldParts(layer, key, field),
                  let sequence = KeyframeBuilder.build(keyframes, kind: target.kind, width: field.width) else { return nil }
            return .custom(key: key, type: type, kind: kind, field: field, .keyframes(sequence))
        case (.transformField(let spec, let field), let keyframes as CAKeyframeAnimation):
            // Numbers (sizes, for `translation`), one per key time, set into the field frame by frame.
            guard let sequence = KeyframeBuilder.build(keyframes, kind: target.kind, width: field.width) else { return nil }
            return .transformFieldKeyframes(property: spec.name, field, sequence)
        case (.custom(let key), let keyframes as CAKeyframeAnimation):
            let model = layer.customModel(key)
            let pathSample: Any? = keyframes.path == nil ? nil : CGPoint.zero
            guard let sample = model ?? keyframes.values?.first ?? pathSample,
                  let (type, kind, width) = CustomValueType.of(sample) else { return refuseCustom(path) }
            guard let sequence = KeyframeBuilder.build(keyframes, kind: kind, width: width) else { return nil }
            return .custom(key: key, type: type, kind: kind, field: nil, .keyframes(sequence))
        default:
            StrataDiagnostics.emit(.invalidArgument,
                "\(type(of: animation)) on \"\(path)\" is not supported (keyframes animate properties and their components); animation not added")
            return nil
        }
    }

    /// An animation of object property `name` from `from` to `to`: two paths with the same
    /// elements (`path`, `shadowPath`) interpolate point by point; other values switch at
    /// half-way (SEMANTICS.md, "Paths").
    func objectEffect(_ name: String, from: Any?, to: Any?) -> AnimationEffect {
        if name == "path" || name == "shadowPath", let f = from as? CGPath, let t = to as? CGPath,
           PathPoints.sameStructure(f, t) {
            return .pathPoints(property: name, template: t,
                               .endpoints(from: PathPoints.coordinates(f), to: PathPoints.coordinates(t)))
        }
        return .object(property: name, from: from, to: to)
    }

    /// Keyframes of object property `name`: paths that all have the same elements interpolate
    /// point by point at the key times, in the calculation mode; other values (contents'
    /// sprite frames, paths of different structure) step: each shows from its key time on.
    private func objectKeyframes(_ keyframes: CAKeyframeAnimation, _ name: String) -> AnimationEffect? {
        guard keyframes.path == nil else {
            StrataDiagnostics.emit(.wrongValueType,
                "CAKeyframeAnimation.path needs a point key path; \"\(name)\" is not one; animation not added")
            return nil
        }
        guard let values = keyframes.values, !values.isEmpty else {
            StrataDiagnostics.emit(.invalidArgument, "CAKeyframeAnimation \"\(name)\" has no values and no path; animation not added")
            return nil
        }
        for (i, v) in values.enumerated() where !KeyPaths.objectFits(name, v) {
            StrataDiagnostics.emit(.wrongValueType,
                "CAKeyframeAnimation values[\(i)] of type \(type(of: v)) does not fit \"\(name)\"; animation not added")
            return nil
        }
        let paths = values.compactMap { $0 as? CGPath }
        if name == "path" || name == "shadowPath", paths.count == values.count, PathPoints.sameStructure(paths) {
            let points = paths.map { PathPoints.coordinates($0) }
            guard points.allSatisfy({ $0.allSatisfy(\.isFinite) }) else {
                StrataDiagnostics.emit(.nonFiniteValue, "CAKeyframeAnimation values of \"\(name)\" have a point that is not finite; animation not added")
                return nil
            }
            guard let sequence = KeyframeBuilder.build(keyframes, points: points) else { return nil }
            return .pathPoints(property: name, template: paths[0], .keyframes(sequence))
        }
        let n = values.count
        let mode = keyframes.calculationMode
        let segments = mode == .discrete ? n : max(n - 1, 1)
        let times: [Double]
        if mode == .paced || mode == .cubicPaced {
            times = (0...segments).map { Double($0) / Double(segments) }
        } else {
            guard let t = KeyframeBuilder.keyTimes(keyframes, count: segments + 1, what: "values: \(n), mode \(mode.rawValue)"),
                  KeyframeBuilder.timingFunctions(keyframes, segments: segments) != nil else { return nil }
            times = t
        }
        return .objectSteps(property: name, values: values, times: times)
    }

    private func refuseCustom(_ path: String) -> AnimationEffect? {
        StrataDiagnostics.emit(.wrongValueType,
            "custom key \"\(path)\" holds no interpolatable value (numbers, points, sizes, rects, colours, transforms, arrays of numbers or colours); animation not added")
        return nil
    }

    /// The value an animation of `key` starts from: the value before the change whose
    /// action is running, else the value on screen (the model value before the first commit).
    func currentComponents(of layer: CALayer, _ key: String) -> [Double] {
        if let change = changeInFlight, change.layer == ObjectIdentifier(layer), change.key == key,
           let old = change.oldComponents {
            return old
        }
        return layer.currentComponents(key)
    }

    /// Is a change of `key` on `layer` running its action?
    func isChanging(_ layer: CALayer, _ key: String) -> Bool {
        guard let change = changeInFlight else { return false }
        return change.layer == ObjectIdentifier(layer) && change.key == key
    }

    /// SEMANTICS.md's from/to/by table. nil (after a diagnostic) on values of the wrong type
    /// or not finite.
    /// `changing`: the animation is the action of a change of its property: a nil `toValue`
    /// after a `fromValue` ends at the new model value (what the change shows once committed).
    func endpoints(of animation: CABasicAnimation, kind: ValueKind, width: Int, changing: Bool = false,
                   current: () -> [Double], model: () -> [Double]) -> ([Double], [Double])? {
        func convert(_ value: Any?, _ name: String) -> [Double]?? {
            guard let value else { return .some(nil) }
            guard let c = Boxing.components(value, kind: kind, width: width) else {
                StrataDiagnostics.emit(.wrongValueType,
                    "\(name) of type \(type(of: value)) does not fit \"\(animation.keyPath ?? "")\" (\(kind)); animation not added")
                return nil
            }
            guard Boxing.isFinite(c, kind: kind) else {
                StrataDiagnostics.emit(.nonFiniteValue, "\(name) \(c) is not finite; animation not added")
                return nil
            }
            return .some(c)
        }
        guard let from = convert(animation.fromValue, "fromValue"),
              let to = convert(animation.toValue, "toValue"),
              let by = convert(animation.byValue, "byValue") else { return nil }
        // `a` moved by `b`, and `a` moved back by `b`: sums, and for whole transforms
        // concatenation (`to = Concat(by, from)`, Apple's byValue on transforms).
        let matrices = kind == .transform && width == 16
        func plus(_ a: [Double], _ b: [Double]) -> [Double] {
            if matrices { return Boxing.components(of: CATransform3DConcat(Boxing.transform(b), Boxing.transform(a))) }
            return zip(a, b).map { $0 + $1 }
        }
        func minus(_ a: [Double], _ b: [Double]) -> [Double] {
            if matrices {
                return Boxing.components(of: CATransform3DConcat(CATransform3DInvert(Boxing.transform(b)), Boxing.transform(a)))
            }
            return zip(a, b).map { $0 - $1 }
        }
        switch (from, to, by) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, plus(f, b))
        case let (nil, t?, b?): return (minus(t, b), t)
        case let (f?, nil, nil): return (f, changing ? model() : current())
        case let (nil, t?, nil): return (current(), t)
        case let (nil, nil, b?):
            let c = current()
            return (c, plus(c, b))
        case (nil, nil, nil): return (current(), model())
        }
    }

    /// Installs the runtime in place of the animation under its key. A replacement of the
    /// same property keeps what is shown until the next frame; one of another property (or
    /// of a group) leaves nothing to hold the old value, which snaps to the model at once.
    /// The old animation's delegate (finished: false) and completion blocks it was holding
    /// back are told once the new animation is in place: they may change the same key again.
    func replace(with runtime: AnimationRuntime, on layer: CALayer) {
        var stopped: [CAAnimation] = []
        if let old = layer.animations[runtime.key] {
            if let oldRuntime = old.runtime {
                var snap = oldRuntime.effect.animatedKey != runtime.effect.animatedKey
                if case .group = oldRuntime.effect { snap = true }
                detach(oldRuntime, from: layer, finished: false, snap: snap, stopped: &stopped)
            } else {
                layer.animations[runtime.key] = nil
                layer.animationOrder.removeAll { $0 == runtime.key }
            }
        }
        install(runtime, on: layer)
        deliverStops(stopped, finished: false)
        fireCompletionBlocks()
    }

    /// Puts a resolved animation on its layer, last in order; it begins at the next
    /// outermost commit and holds back the completion blocks of every open transaction.
    func install(_ runtime: AnimationRuntime, on layer: CALayer) {
        layer.animations[runtime.key] = runtime.animation
        layer.animationOrder.append(runtime.key)
        for r in runtime.flattened { r.animation.runtime = r }
        animatedLayers[ObjectIdentifier(layer)] = LayerRef(layer)
        uncommittedAnimations.append(runtime)
        runtime.completionGroups = openCompletionGroups()
        for group in runtime.completionGroups { group.pending += 1 }
    }

    /// Removes the animation under `key`, if any (its delegate is told finished: false).
    /// `snap`: the presentation shows the model at once; else it keeps its value until the
    /// next frame.
    func removeAnimation(from layer: CALayer, forKey key: String, snap: Bool) {
        guard let animation = layer.animations[key] else { return }
        guard let runtime = animation.runtime else {
            layer.animations[key] = nil
            layer.animationOrder.removeAll { $0 == key }
            return
        }
        var stopped: [CAAnimation] = []
        detach(runtime, from: layer, finished: false, snap: snap, stopped: &stopped)
        deliverStops(stopped, finished: false)
        fireCompletionBlocks()
    }

    /// Removes every animation of a layer, in the order they were added.
    func removeAllAnimations(from layer: CALayer) {
        var stopped: [CAAnimation] = []
        for runtime in layer.animationRuntimes {
            detach(runtime, from: layer, finished: false, snap: true, stopped: &stopped)
        }
        deliverStops(stopped, finished: false)
        fireCompletionBlocks()
    }

    /// Takes an animation off its layer. Delegates to tell are collected in `stopped` and told
    /// by the caller once the layer is consistent.
    func detach(_ runtime: AnimationRuntime, from layer: CALayer, finished: Bool, snap: Bool,
                stopped: inout [CAAnimation]) {
        guard runtime.isAttached else { return }
        if layer.animations[runtime.key] === runtime.animation {
            layer.animations[runtime.key] = nil
            layer.animationOrder.removeAll { $0 == runtime.key }
        }
        if layer.animations.isEmpty { animatedLayers[ObjectIdentifier(layer)] = nil }
        let all = runtime.flattened
        for r in all {
            r.isAttached = false
            r.animation.runtime = nil
        }
        if runtime.animation.delegate != nil { stopped.append(runtime.animation) }
        if runtime.isCommitted { releaseCompletion(of: runtime) }
        var keys: [String] = []
        for r in all {
            switch r.effect {
            case .custom(let key, _, _, _, _): keys.append(key)
            case .keyframes(let property, _, _, _, let rotates, _):
                keys.append(property)
                if rotates { keys.append("transform") }
            default:
                if let property = r.effect.property { keys.append(property) }
            }
        }
        if snap {
            for key in keys where !layer.hasAnimation(affecting: key) { layer.showModelValue(of: key) }
        } else {
            // Replaced: what it showed stays until the next frame, which shows the model
            // value unless an animation drives the property by then.
            valuesToRefresh[ObjectIdentifier(layer), default: (LayerRef(layer), [])].keys += keys
        }
    }

    /// A layer object goes away: its animations are removed (delegates told, completion
    /// blocks released).
    func layerWillGo(_ layer: CALayer) {
        let id = ObjectIdentifier(layer)
        animatedLayers[id] = nil
        changedProperties[id] = nil
        valuesToRefresh[id] = nil
        uncommittedLayers[id] = nil
        for child in layer.sublayerList { child.parentLayer = nil }
        var stopped: [CAAnimation] = []
        for key in layer.animationOrder {
            guard let runtime = layer.animations[key]?.runtime else { continue }
            for r in runtime.flattened {
                r.isAttached = false
                r.animation.runtime = nil
            }
            if runtime.animation.delegate != nil { stopped.append(runtime.animation) }
            if runtime.isCommitted { releaseCompletion(of: runtime) }
        }
        deliverStops(stopped, finished: false)
        fireCompletionBlocks()
    }

    func deliverStops(_ stopped: [CAAnimation], finished: Bool) {
        for animation in stopped { animation.delegate?.animationDidStop(animation, finished: finished) }
    }
}

extension CALayer {
    /// This layer's engine's display work.
    var displayQueue: DisplayQueue { engine.displayQueue }
}
