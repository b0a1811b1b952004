import Foundation

/// Frames: commit at the frame's time, compute every animated layer's presentation values,
/// retire what finished.
extension ReferenceEngine {
    func beginFrame(atTime t: Double) {
        now = t
        flush()
    }

    /// Evaluates every animation of the engine at `now` and writes the presentation values
    /// of the layers they animate.
    func render() {
        renderedAt = now
        startedThisFrame = []
        completedThisFrame = []
        let refresh = valuesToRefresh
        valuesToRefresh = [:]
        for (ref, keys) in refresh.values {
            // A change not committed yet shows at its commit, not before.
            for key in keys where !ref.layer.hasAnimation(affecting: key) && !hasUncommittedChange(ref.layer, key) {
                ref.layer.showModelValue(of: key)
            }
        }
        evaluateLayers(at: now, shadow: false)
        startedThisFrame.sort { $0.sequence < $1.sequence }
        completedThisFrame.sort { $0.sequence < $1.sequence }
    }

    /// Evaluates the animations of layer properties at media time `t` as `render()` would,
    /// without its side effects (nothing starts or completes, no pending refresh is taken;
    /// custom keys and object values keep the frame's): the presentation values at `t`, for
    /// a replicator's delayed instances (`evaluationCheckpoint` keeps the frame's first).
    func renderShadow(atTime t: Double) { evaluateLayers(at: t, shadow: true) }

    /// Every animated layer's animations evaluated at media time `t` and applied; the first
    /// starts and completions listed for `endFrame` (a shadow evaluation has none).
    private func evaluateLayers(at t: Double, shadow: Bool) {
        for layer in layersWithAnimations {
            let localNow = activeLocalTime(of: layer, at: t)
            let runtimes = layer.animationRuntimes
            for runtime in runtimes {
                let (started, completed) = runtime.evaluate(at: localNow, shadow: shadow)
                if started && runtime.animation.delegate != nil { startedThisFrame.append(runtime) }
                if completed { completedThisFrame.append(runtime) }
            }
            layer.applyAnimations(runtimes, shadow: shadow)
        }
    }

    /// The evaluated state of the frame (every animated layer's presented values and its
    /// animations' phase, progress, iteration and path angle), to put back after
    /// `renderShadow`.
    func evaluationCheckpoint() -> () -> Void {
        var restores: [() -> Void] = []
        for layer in layersWithAnimations {
            let presented = layer.presentedComponents
            restores.append { layer.presentedComponents = presented }
            for top in layer.animationRuntimes {
                var all: [AnimationRuntime] = []
                top.appendFlattened(to: &all)
                for r in all {
                    let (phase, progress, iteration, angle) = (r.phase, r.progress, r.iteration, r.angle)
                    restores.append { r.phase = phase; r.progress = progress; r.iteration = iteration; r.angle = angle }
                }
            }
        }
        return { for r in restores { r() } }
    }

    /// Retires the animations that completed at the last render (in the order they were
    /// added), then tells delegates (starts, then stops) and runs completion blocks that
    /// are due.
    func endFrame() {
        if displayQueue.hasAnimating { displayQueue.displayAnimated() }
        let started = startedThisFrame.filter { $0.isAttached }
        let completed = completedThisFrame
        startedThisFrame = []
        completedThisFrame = []
        var stopped: [CAAnimation] = []
        for runtime in completed where runtime.isAttached {
            releaseCompletion(of: runtime)
            if runtime.removedOnCompletion {
                detach(runtime, from: runtime.layer, finished: true, snap: true, stopped: &stopped)
            } else if runtime.animation.delegate != nil {
                stopped.append(runtime.animation)
            }
        }
        for runtime in started { runtime.animation.delegate?.animationDidStart(runtime.animation) }
        deliverStops(stopped, finished: true)
        fireCompletionBlocks()
    }
}

extension CALayer {
    /// Writes the presentation values this layer's animations give at the last evaluated
    /// time: start from the model value, apply the animations of each property in the order
    /// they were added (non-additive ones replace, additive ones add), then
    /// derived transform fields, custom keys, rotation along paths, and object values.
    /// `shadow`: an evaluation at another time than the frame's (a replicator's delayed
    /// instance): custom keys and object values keep the frame's.
    func applyAnimations(_ runtimes: [AnimationRuntime], shadow: Bool = false) {
        var all: [AnimationRuntime] = []
        for runtime in runtimes { runtime.appendFlattened(to: &all) }
        var propertyOrder: [String] = []
        var byProperty: [String: [AnimationRuntime]] = [:]
        var fieldOrder: [String] = []
        var fieldsByProperty: [String: [AnimationRuntime]] = [:]
        var customOrder: [String] = []
        var customByKey: [String: [AnimationRuntime]] = [:]
        var objectOrder: [String] = []
        var objectsByProperty: [String: [AnimationRuntime]] = [:]
        var rotating: [AnimationRuntime] = []
        func append(_ r: AnimationRuntime, _ key: String, _ order: inout [String], _ table: inout [String: [AnimationRuntime]]) {
            if table[key] == nil { order.append(key) }
            table[key, default: []].append(r)
        }
        for r in all {
            switch r.effect {
            case .components(let property, _, _, _, _):
                append(r, property, &propertyOrder, &byProperty)
            case .keyframes(let property, _, _, _, let rotates, _):
                append(r, property, &propertyOrder, &byProperty)
                r.angle = nil
                if rotates { rotating.append(r) }
            case .transformField(let property, _, _, _), .transformFieldKeyframes(let property, _, _):
                append(r, property, &fieldOrder, &fieldsByProperty)
            case .custom(let key, _, _, _, _):
                append(r, key, &customOrder, &customByKey)
            case .object(let property, _, _), .pathPoints(let property, _, _), .objectSteps(let property, _, _):
                append(r, property, &objectOrder, &objectsByProperty)
            case .transition, .group:
                break
            }
        }

        // Interpolated properties and their components: the model value with each
        // animation applied in the order they were added (non-additive ones replace their
        // components, additive ones add; additive whole transforms concatenate). While only pending animations drive it, the property keeps
        // what it shows.
        // Properties whose value this frame composed (derived fields and rotation start from
        // it; from the model otherwise, not from what is shown, so evaluating twice at one
        // time gives one value).
        var composed: Set<String> = []
        for property in propertyOrder {
            var value = components(property)
            var anyActive = false, anyPending = false
            let isTransform = value.count == 16
            for r in byProperty[property]! {
                switch r.phase {
                case .pending:
                    anyPending = true
                case .inactive:
                    break
                case .active:
                    anyActive = true
                    guard let range = r.componentRange else { continue }
                    let v = r.currentComponents()
                    if isTransform && r.isAdditive && range.count == 16 {
                        // Additive transforms concatenate: the animated one, then the value so far.
                        value = Boxing.components(of: CATransform3DConcat(Boxing.transform(v), Boxing.transform(value)))
                        continue
                    }
                    for (c, x) in zip(range, v) {
                        value[c] = r.isAdditive ? value[c] + x : x
                    }
                }
            }
            if anyActive || !anyPending {
                presentedComponents[property] = value
                composed.insert(property)
            }
        }

        // Derived transform fields, applied in order to the transform of this frame.
        for property in fieldOrder {
            let base = composed.contains(property) ? presentedComponentsOf(property) : components(property)
            var transform = Boxing.transform(base)
            var anyEvaluated = false
            for r in fieldsByProperty[property]! {
                guard r.phase != .pending else { continue }
                let field: TransformField, v: [Double]
                switch r.effect {
                case .transformField(_, let f, let from, let to):
                    field = f
                    v = zip(from, to).map { $0 + ($1 - $0) * (r.progress + r.iteration) }
                case .transformFieldKeyframes(_, let f, let sequence):
                    field = f
                    v = zip(sequence.sample(at: r.progress).value, sequence.span).map { $0 + r.iteration * $1 }
                default:
                    continue
                }
                anyEvaluated = true
                guard r.phase == .active else { continue }
                let value = r.isAdditive ? zip(v, field.lanes(in: transform)).map { $0 + $1 } : v
                transform = field.setting(value[0], value.count > 1 ? value[1] : 0, in: transform)
            }
            if anyEvaluated {
                presentedComponents[property] = Boxing.components(of: transform)
                composed.insert(property)
            }
        }

        // Custom keys: composed like the properties above, from the model value, in the
        // order the animations were added: non-additive ones replace, additive ones add.
        for key in customOrder where !shadow {
            var value: [Double]? = nil
            var boxAs: CustomValueType? = nil
            var anyActive = false, anyPending = false
            for r in customByKey[key]! {
                guard case .custom(_, let type, let kind, let field, _) = r.effect else { continue }
                if r.phase == .pending { anyPending = true; continue }
                guard r.phase == .active else { continue }
                let v = r.currentComponents()
                if let field {
                    // A field (`startPoint.x`) set into the value so far, the model's first.
                    let width = kind.width
                    let whole = value ?? customModel(key).flatMap { Boxing.components($0, kind: kind, width: width) }
                        ?? [Double](repeating: 0, count: width)
                    if whole.count == width { value = field.writing(v, additive: r.isAdditive, into: whole) }
                    boxAs = type
                    anyActive = true
                    continue
                }
                if value == nil {
                    value = customModel(key).flatMap { Boxing.components($0, kind: kind, width: v.count) }
                        ?? [Double](repeating: 0, count: v.count)
                }
                // An additive one adds to the elements it has; those of a longer value so
                // far stay (a two-colour additive over three colours leaves the third).
                if r.isAdditive {
                    for c in 0..<min(value!.count, v.count) { value![c] += v[c] }
                } else {
                    value = v
                }
                boxAs = type
                anyActive = true
            }
            if anyActive, let value, let boxAs {
                presentedCustom[key] = boxAs.box(value)
            } else if !anyPending {
                presentedCustom[key] = customModel(key)
            }
        }

        // Rotation along paths turns the transform of this frame about z.
        if !rotating.isEmpty {
            let driven = byProperty["transform"] != nil || fieldsByProperty["transform"] != nil
            var transform = Boxing.transform(composed.contains("transform") ? presentedComponentsOf("transform") : components("transform"))
            var anyActive = false
            for r in rotating where r.phase == .active {
                guard let angle = r.angle else { continue }
                transform = CATransform3DRotate(transform, CGFloat(angle), 0, 0, 1)
                anyActive = true
            }
            if anyActive {
                presentedComponents["transform"] = Boxing.components(of: transform)
            } else if !driven {
                presentedComponents["transform"] = componentValues["transform"]
            }
        }

        // Object values: paths with the same elements point by point, other objects switch
        // at half time, keyframes of objects step from key time to key time. As for the
        // properties above: the last active one shows, with none active the model, and while
        // only pending animations (and inactive ones) drive it, what it shows stays.
        for property in objectOrder where !shadow {
            var value: Any? = objectValues[property]
            var anyActive = false, anyPending = false
            for r in objectsByProperty[property]! {
                switch r.phase {
                case .pending: anyPending = true
                case .inactive: break
                case .active:
                    anyActive = true
                    value = r.currentObject()
                }
            }
            if anyActive || !anyPending { presentedObjects[property] = value }
        }
    }

}

extension AnimationRuntime {
    /// The components of its property an interpolating animation writes.
    var componentRange: Range<Int>? {
        switch effect {
        case .components(_, let offset, let width, _, _), .keyframes(_, let offset, let width, _, _, _):
            return offset..<(offset + width)
        default:
            return nil
        }
    }
}

/// The reference engine's side of `CARenderer` (Sources/Strata/Vocabulary/CARenderer.swift,
/// shared): the frame covers every animation of the thread's engine, and the snapshot is
/// always a full walk.
final class FrameDriver {
    let engine: ReferenceEngine
    private var snapshotter: ReferenceSnapshotter?

    init(layer: CALayer?) { engine = layer?.engine ?? ReferenceEngine.current }

    func beginFrame(atTime t: Double, of renderer: CARenderer) { engine.beginFrame(atTime: t) }
    func render() { engine.render() }
    func endFrame() { engine.endFrame() }
    func renderFrame(atTime t: Double, of renderer: CARenderer) {
        engine.beginFrame(atTime: t)
        engine.render()
        engine.endFrame()
    }

    func snapshot(root: CALayer?, invalidated: Bool) -> RenderSnapshot {
        let s = snapshotter ?? { let s = ReferenceSnapshotter(); snapshotter = s; return s }()
        return s.snapshot(root: root, time: engine.now, engine: engine)
    }
}

extension CARenderer {
    /// The engine this renderer drives.
    var engine: ReferenceEngine { driver.engine }
}
