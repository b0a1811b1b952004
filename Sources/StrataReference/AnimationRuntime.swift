import Foundation

/// What an added animation does to its layer, resolved once when it is added.
enum AnimationEffect {
    /// Interpolates components `offset ..< offset + width` of a property from `from` to `to`.
    case components(property: String, offset: Int, width: Int, from: [Double], to: [Double])
    /// Keyframes (values or a path) of components of a property; `rotates` turns the
    /// presentation transform along the path's tangent (`reverse`: plus 180 degrees).
    case keyframes(property: String, offset: Int, width: Int, KeyframeSequence, rotates: Bool, reverse: Bool)
    /// An object value (contents, mask, paths of different structure): `from` before
    /// progress 0.5, `to` after.
    case object(property: String, from: Any?, to: Any?)
    /// A path whose points interpolate (paths with the same elements): the coordinates of
    /// `template`'s points (`PathPoints`) from endpoints or keyframes.
    case pathPoints(property: String, template: CGPath, CustomValues)
    /// Keyframes of objects that do not interpolate (contents' sprite frames, paths of
    /// different structure): `values[i]` shows from key time `times[i]` on.
    case objectSteps(property: String, values: [Any?], times: [Double])
    /// A derived field of a transform property (`transform.rotation.z` ...): one number, two
    /// for `transform.translation`.
    case transformField(property: String, TransformField, from: [Double], to: [Double])
    /// Keyframes of one field of a transform (`transform.rotation.z` shakes ...).
    case transformFieldKeyframes(property: String, TransformField, KeyframeSequence)
    /// A custom key's value (from/to or keyframes), boxed back as `type`; with a `field`, the
    /// values are that field's (`startPoint.x`) and set into the key's value.
    case custom(key: String, type: CustomValueType, kind: ValueKind, field: ValueField?, CustomValues)
    /// A transition: no property value, only its progress.
    case transition
    /// A group: the children run on the group's eased local time.
    case group([AnimationRuntime])

    /// The property or custom key whose presentation value the effect writes, if any.
    var animatedKey: String? {
        if case .custom(let key, _, _, _, _) = self { return key }
        return property
    }

    /// The built-in property whose presentation value the effect writes, if any.
    var property: String? {
        switch self {
        case .components(let p, _, _, _, _), .keyframes(let p, _, _, _, _, _),
             .object(let p, _, _), .transformField(let p, _, _, _), .transformFieldKeyframes(let p, _, _),
             .pathPoints(let p, _, _), .objectSteps(let p, _, _):
            return p
        case .custom, .transition, .group:
            return nil
        }
    }
}

/// How a custom key's animation produces its components.
enum CustomValues {
    case endpoints(from: [Double], to: [Double])
    case keyframes(KeyframeSequence)
}

/// Where an animation stands at the last rendered frame.
enum AnimationPhase {
    /// Not committed yet: it changes nothing on screen.
    case pending
    /// Inside its active time, or held by its fill mode: it writes its value.
    case active
    /// Outside its active time with no fill: the model value shows.
    case inactive
}

/// The running state of one added animation (one object per animation): its resolved
/// timing and values, where it stood at the last frame, and its bookkeeping.
final class AnimationRuntime {
    /// The copy that was added (what `animation(forKey:)` returns).
    let animation: CAAnimation
    /// The layer it animates. Only read while the animation is attached (a layer detaches
    /// its animations when it goes).
    unowned(unsafe) let layer: CALayer
    /// The key it is stored under on the layer (synthesised for a nil key).
    let key: String
    /// Position in the order animations were added, engine-wide.
    let sequence: Int
    let effect: AnimationEffect
    let isAdditive: Bool
    let isCumulative: Bool
    let isGroupChild: Bool

    // Timing, resolved at add.
    let beginTime: Double
    let duration: Double
    let speed: Double
    let timeOffset: Double
    let repeatCount: Double
    let repeatDuration: Double
    let autoreverses: Bool
    let fillsForwards: Bool
    let fillsBackwards: Bool
    let removedOnCompletion: Bool
    let timingFunction: CAMediaTimingFunction?
    /// A spring animation's motion, applied to the eased fraction times the duration.
    let spring: SpringMotion?

    // Lifecycle.
    /// The begin time in the layer's time, known once committed.
    var begin: Double = 0
    var isCommitted = false
    var isAttached = true
    var hasStarted = false
    var hasCompleted = false
    /// Completion blocks waiting for this animation.
    var completionGroups: [CompletionGroup] = []

    // The last frame.
    var phase: AnimationPhase = .pending
    /// Eased progress of the current iteration.
    var progress: Double = 0
    /// Iteration index (isCumulative animations add iteration * (end - start)).
    var iteration: Double = 0
    /// Tangent angle of a rotating path animation (nil when not active).
    var angle: Double?

    init(animation: CAAnimation, layer: CALayer, key: String, sequence: Int, effect: AnimationEffect,
         duration: Double, timingFunction: CAMediaTimingFunction?, isGroupChild: Bool) {
        self.animation = animation
        self.layer = layer
        self.key = key
        self.sequence = sequence
        self.effect = effect
        let property = animation as? CAPropertyAnimation
        isAdditive = property?.isAdditive ?? false
        isCumulative = property?.isCumulative ?? false
        self.isGroupChild = isGroupChild
        beginTime = animation.beginTime
        self.duration = duration
        speed = Double(animation.speed)
        timeOffset = animation.timeOffset
        repeatCount = Double(animation.repeatCount)
        repeatDuration = animation.repeatDuration
        autoreverses = animation.autoreverses
        fillsForwards = animation.fillMode.fillsForwards
        fillsBackwards = animation.fillMode.fillsBackwards
        // Children live as long as their group.
        removedOnCompletion = isGroupChild ? false : animation.isRemovedOnCompletion
        self.timingFunction = timingFunction
        spring = (animation as? CASpringAnimation).flatMap(SpringMotion.init)
        if isGroupChild { begin = beginTime }
    }

    var children: [AnimationRuntime] {
        if case .group(let c) = effect { return c }
        return []
    }

    /// This animation followed by its children, depth first (the order values are applied).
    var flattened: [AnimationRuntime] {
        var all: [AnimationRuntime] = []
        appendFlattened(to: &all)
        return all
    }

    func appendFlattened(to all: inout [AnimationRuntime]) {
        all.append(self)
        if case .group(let children) = effect {
            for child in children { child.appendFlattened(to: &all) }
        }
    }

    /// Number of running animations this stands for (itself and its children).
    var count: Int { 1 + children.reduce(0) { $0 + $1.count } }

    // MARK: timing

    /// Commits the animation at `localNow` (its layer's time at the commit): a zero
    /// beginTime becomes that time. Children keep their beginTime, relative to the group.
    func commit(localNow: Double) {
        if !isGroupChild { begin = beginTime == 0 ? localNow : beginTime }
        isCommitted = true
        for child in children { child.commit(localNow: localNow) }
    }

    /// Where the animation stands at `parentTime` (its layer's time, or its group's eased time):
    /// active time a = (parentTime - begin) * speed; inside [0, activeDuration) the local
    /// time a + timeOffset is folded into one iteration; outside, the fill mode decides.
    /// Returns the linear fraction of the iteration (nil: no effect), whether it has started,
    /// whether its active duration is over, and the iteration index.
    func timingState(at parentTime: Double) -> (fraction: Double?, started: Bool, finished: Bool, iteration: Double) {
        let cycle = autoreverses ? 2 * duration : duration
        let activeDuration = repeatDuration > 0 ? repeatDuration : (repeatCount > 0 ? repeatCount : 1) * cycle
        let active = (parentTime - begin) * speed
        if active.isNaN || active == -.infinity { return (nil, false, false, 0) }
        if active < 0 {
            guard fillsBackwards else { return (nil, false, false, 0) }
            let folded = fold(timeOffset, cycle: cycle, atEnd: false)
            return (folded.fraction, false, false, folded.iteration)
        }
        if active >= activeDuration {
            guard fillsForwards else { return (nil, true, true, 0) }
            let folded = fold(activeDuration + timeOffset, cycle: cycle, atEnd: true)
            return (folded.fraction, true, true, folded.iteration)
        }
        let folded = fold(active + timeOffset, cycle: cycle, atEnd: false)
        return (folded.fraction, true, false, folded.iteration)
    }

    /// Local time folded into one iteration: the fraction 0...1 and the iteration index. At
    /// the end of the active duration a whole number of iterations ends on the last value.
    private func fold(_ local: Double, cycle: Double, atEnd: Bool) -> (fraction: Double, iteration: Double) {
        guard duration > 0, cycle.isFinite, local.isFinite else { return (1, 0) }
        var iteration = (local / cycle).rounded(.down)
        var withinCycle = local - iteration * cycle
        if withinCycle < 0 {
            withinCycle += cycle
            iteration -= 1
        }
        if atEnd && withinCycle == 0 && local > 0 {
            withinCycle = cycle
            iteration -= 1
        }
        if autoreverses && withinCycle > duration { withinCycle = cycle - withinCycle }
        return (min(max(withinCycle / duration, 0), 1), iteration)
    }

    /// Evaluates the animation (and its children) at `parentTime`; reports whether it started
    /// or completed for the first time.
    /// `shadow`: an evaluation at another time than the frame's (a replicator's delayed
    /// instance): nothing starts or completes.
    func evaluate(at parentTime: Double, shadow: Bool = false) -> (justStarted: Bool, justCompleted: Bool) {
        guard isCommitted else {
            phase = .pending
            return (false, false)
        }
        let state = timingState(at: parentTime)
        var started = false, completed = false
        if state.started && !hasStarted && !shadow {
            hasStarted = true
            started = true
        }
        if state.finished && !hasCompleted && !repeatCount.isInfinite && !shadow {
            hasCompleted = true
            completed = true
        }
        if let fraction = state.fraction {
            phase = .active
            progress = timingFunction?.progress(at: fraction) ?? fraction
            if let spring { progress = spring.progress(at: progress * duration) }
            iteration = isCumulative ? state.iteration : 0
            for child in children { _ = child.evaluate(at: progress * duration, shadow: shadow) }
        } else {
            phase = .inactive
            for child in children { child.deactivate() }
        }
        return (started, completed)
    }

    /// The group this child belongs to has no effect now: neither has the child.
    private func deactivate() {
        phase = isCommitted ? .inactive : .pending
        for child in children { child.deactivate() }
    }

    // MARK: values

    /// The components this animation contributes at the last frame (for component and
    /// keyframe effects); also records the path tangent of rotating keyframes.
    func currentComponents() -> [Double] {
        switch effect {
        case .components(_, _, _, let from, let to):
            if from.count == 16 {
                // Whole transforms: by decomposition; each cumulative repetition concatenates
                // the end value.
                let start = Boxing.transform(from), end = Boxing.transform(to)
                var m = TransformBlend(from: start, to: end).value(at: progress, from: start, to: end)
                if iteration > 0 { m = CATransform3DConcat(m, TransformBlend.power(end, Int(iteration))) }
                return Boxing.components(of: m)
            }
            let p = progress + iteration
            return zip(from, to).map { f, t in f + (t - f) * p }
        case .keyframes(_, _, 16, let sequence, _, _):
            // Whole transforms: segments by decomposition; each cumulative repetition
            // concatenates the last key.
            var value = sequence.transformValue(at: progress)
            if iteration > 0 {
                let m = CATransform3DConcat(Boxing.transform(value), TransformBlend.power(Boxing.transform(sequence.lastValue), Int(iteration)))
                value = Boxing.components(of: m)
            }
            return value
        case .keyframes(_, _, _, let sequence, let rotates, let reverse):
            let sample = sequence.sample(at: progress)
            if rotates {
                let (dx, dy) = sample.tangent
                var a = (dx == 0 && dy == 0) ? 0 : atan2(dy, dx)
                if reverse { a += Double.pi }
                angle = a
            }
            if iteration == 0 { return sample.value }
            return zip(sample.value, sequence.span).map { v, s in v + iteration * s }
        case .custom(_, _, _, _, .endpoints(let from, let to)):
            let p = progress + iteration
            return zip(from, to).map { f, t in f + (t - f) * p }
        case .custom(_, _, _, _, .keyframes(let sequence)):
            let value = sequence.sample(at: progress).value
            if iteration == 0 { return value }
            return zip(value, sequence.span).map { v, s in v + iteration * s }
        case .pathPoints(_, _, .endpoints(let from, let to)):
            // Paths are neither additive nor cumulative: the progress alone.
            return zip(from, to).map { f, t in f + (t - f) * progress }
        case .pathPoints(_, _, .keyframes(let sequence)):
            return sequence.sample(at: progress).value
        default:
            return []
        }
    }

    /// The object this animation shows at the last frame (object, path-point and step
    /// effects).
    func currentObject() -> Any? {
        switch effect {
        case .object(_, let from, let to):
            return progress < 0.5 ? from : to
        case .pathPoints(_, let template, _):
            return PathPoints.path(template, coordinates: currentComponents())
        case .objectSteps(_, let values, let times):
            // The last value whose key time the progress has reached.
            var i = 0
            while i + 1 < values.count && progress >= times[i + 1] { i += 1 }
            return values[i]
        default:
            return nil
        }
    }
}
