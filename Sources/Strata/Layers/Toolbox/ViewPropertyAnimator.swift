import Foundation

/// Where a property animator ended (UIKit's `UIViewAnimatingPosition`).
public enum ViewAnimatingPosition: Int, Sendable {
    case end, start, current
}

/// A property animator's state (UIKit's `UIViewAnimatingState`).
public enum ViewAnimatingState: Int, Sendable {
    /// Not started, or finished.
    case inactive
    /// Started: running or paused.
    case active
    /// Stopped by `stopAnimation(false)`, waiting for `finishAnimation(at:)`.
    case stopped
}

/// An interruptible animation of views (the role of UIKit's `UIViewPropertyAnimator`):
/// start, pause, scrub with `fractionComplete`, reverse with `isReversed`, continue, stop and
/// finish at the end, the start or where it is. Each property its animations change is
/// animated by one animation on its layer, re-timed as the animator is driven (paused: speed
/// 0 at `fractionComplete` of the duration; running: begun that far in the past).
///
///     let animator = ViewPropertyAnimator(duration: 1, curve: .linear) { view.alpha = 0 }
///     animator.pauseAnimation()
///     animator.fractionComplete = 0.3          // the view shows alpha 0.7
///     animator.isReversed = true
///     animator.startAnimation()                // back to alpha 1, completion(.start)
public final class ViewPropertyAnimator: NSObject, CAAnimationDelegate {
    /// The duration in seconds.
    public let duration: Double
    /// The timing curve (nil for a spring).
    public let timingFunction: CAMediaTimingFunction?
    /// The spring's damping ratio, when the animator is a spring.
    public let dampingRatio: Double?
    /// Whether the animator can be paused, scrubbed and reversed (always here).
    public var isInterruptible = true
    /// Whether a finished animator stays active (paused at its end) instead of completing.
    public var pausesOnCompletion = false
    /// Whether scrubbing maps `fractionComplete` linearly (accepted; the curve applies).
    public var scrubsLinearly = true

    public private(set) var state: ViewAnimatingState = .inactive
    public private(set) var isRunning = false

    private var animationBlocks: [() -> Void] = []
    private var completions: [(ViewAnimatingPosition) -> Void] = []
    private struct Record {
        weak var layer: CALayer?
        let key: String
        var start: Any?
        var end: Any?
    }
    private var records: [Record] = []
    /// The time fraction reached, forward (0 at the start values, 1 at the end values).
    private var fraction = 0.0
    /// When running: the media time the fraction was `fraction` at.
    private var anchorTime = 0.0
    private var reversed = false
    /// Animations of the current timing; stops of older ones (replaced) are ignored.
    private var generation = 0
    private var pending = 0

    /// An animator with one of UIKit's curves.
    public init(duration: Double, curve: View.AnimationCurve, animations: (() -> Void)? = nil) {
        self.duration = Self.valid(duration)
        timingFunction = curve.timingFunction
        dampingRatio = nil
        super.init()
        if let animations { animationBlocks.append(animations) }
    }

    /// An animator with a cubic Bézier curve.
    public init(duration: Double, controlPoint1 p1: CGPoint, controlPoint2 p2: CGPoint, animations: (() -> Void)? = nil) {
        self.duration = Self.valid(duration)
        timingFunction = CAMediaTimingFunction(controlPoints: Float(p1.x), Float(p1.y), Float(p2.x), Float(p2.y))
        dampingRatio = nil
        super.init()
        if let animations { animationBlocks.append(animations) }
    }

    /// A spring animator (as `View.animate(withDuration:delay:usingSpringWithDamping:...)`).
    public init(duration: Double, dampingRatio ratio: CGFloat, animations: (() -> Void)? = nil) {
        self.duration = Self.valid(duration)
        timingFunction = nil
        dampingRatio = ratio.isFinite && ratio >= 0 ? Double(ratio) : 1
        super.init()
        if let animations { animationBlocks.append(animations) }
    }

    private static func valid(_ d: Double) -> Double {
        guard d.isFinite && d > 0 else {
            StrataDiagnostics.emit(.nonFiniteValue, "ViewPropertyAnimator: duration \(d) must be finite and > 0; 0.25 used")
            return 0.25
        }
        return d
    }

    /// Adds animations (run when the animator starts; at once when it already has).
    public func addAnimations(_ animation: @escaping () -> Void) {
        if state == .inactive { animationBlocks.append(animation) } else {
            capture(animation)
            retime()
        }
    }

    /// Adds a completion, called with where the animator ended.
    public func addCompletion(_ completion: @escaping (ViewAnimatingPosition) -> Void) {
        completions.append(completion)
    }

    /// The time fraction of the animation, 0...1 (settable while paused: scrubbing).
    public var fractionComplete: CGFloat {
        get { CGFloat(currentFraction()) }
        set {
            guard state == .active, !isRunning, newValue.isFinite else { return }
            fraction = min(max(Double(newValue), 0), 1)
            retime()
        }
    }

    /// Runs backwards, toward the start values (their model values are set at once).
    public var isReversed: Bool {
        get { reversed }
        set {
            guard newValue != reversed else { return }
            fraction = currentFraction()
            reversed = newValue
            anchorTime = CACurrentMediaTime()
            if state == .active { retime() }
        }
    }

    /// Starts (or continues) the animation.
    public func startAnimation() {
        switch state {
        case .stopped: return
        case .inactive:
            begin()
        case .active:
            guard !isRunning else { return }
        }
        isRunning = true
        anchorTime = CACurrentMediaTime()
        retime()
    }

    /// Starts after `delay` seconds (the values are shown unchanged until then).
    public func startAnimation(afterDelay delay: Double) {
        startAnimation()
        guard delay.isFinite && delay > 0 else { return }
        anchorTime = CACurrentMediaTime() + delay
        retime()
    }

    /// Pauses where the animation is (starting it paused when it has not started).
    public func pauseAnimation() {
        if state == .inactive { begin() }
        guard state == .active else { return }
        fraction = currentFraction()
        isRunning = false
        retime()
    }

    /// Continues a paused animator, optionally over `durationFactor` times the remaining time
    /// (accepted; the duration is kept).
    public func continueAnimation(withTimingParameters parameters: Any?, durationFactor: CGFloat) {
        startAnimation()
    }

    /// Stops where it is: `withoutFinishing` true leaves the views at the values shown and
    /// the animator inactive (no completion); false stops it (`state` .stopped) until
    /// `finishAnimation(at:)`.
    public func stopAnimation(_ withoutFinishing: Bool) {
        guard state == .active else { return }
        fraction = currentFraction()
        isRunning = false
        settle(at: .current)
        state = withoutFinishing ? .inactive : .stopped
        if withoutFinishing { records = [] }
    }

    /// Finishes a stopped animator at `position` and calls the completions with it.
    public func finishAnimation(at position: ViewAnimatingPosition) {
        guard state == .stopped else { return }
        settle(at: position)
        complete(position)
    }

    // MARK: driving the layers

    /// Runs the animation blocks in a view animation block whose animations this animator
    /// records, and holds their start and end values.
    private func begin() {
        state = .active
        fraction = 0
        let blocks = animationBlocks
        animationBlocks = []
        for b in blocks { capture(b) }
    }

    private func capture(_ animations: () -> Void) {
        let block = ViewAnimationBlock(duration: duration, delay: 0, options: [])
        block.animator = self
        View.pushAnimationBlock(block)
        CATransaction.begin()
        CATransaction.setDisableActions(false)
        animations()
        View.popAnimationBlock()
        CATransaction.commit()
        // Each property's end value is its model value now; the start is what was shown.
        for i in records.indices where records[i].end == nil {
            records[i].end = records[i].layer?.value(forKey: records[i].key)
        }
    }

    /// Called by the view's delegate inside `capture`: a change of `key` on `layer`.
    func record(_ layer: CALayer, _ key: String) {
        guard !records.contains(where: { $0.layer === layer && $0.key == key }) else { return }
        let shown = layer.presentation()?.value(forKey: key) ?? layer.value(forKey: key)
        records.append(Record(layer: layer, key: key, start: shown, end: nil))
    }

    private func currentFraction() -> Double {
        guard state == .active, isRunning else { return fraction }
        let elapsed = max(0, CACurrentMediaTime() - anchorTime) / duration
        return min(max(reversed ? fraction - elapsed : fraction + elapsed, 0), 1)
    }

    /// Re-adds every property's animation for the animator's state: paused at `fraction`,
    /// or running from it (forward toward the end values, reversed toward the start values,
    /// whose model values are set so that the layer rests there afterwards).
    private func retime() {
        generation += 1
        pending = 0
        let now = CACurrentMediaTime()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for r in records {
            guard let layer = r.layer, let start = r.start, let end = r.end else { continue }
            layer.setValue(reversed ? start : end, forKey: r.key)
            let a = makeAnimation(r.key)
            a.delegate = self
            a.setValue(generation, forKey: "strataAnimatorGeneration")
            if reversed {
                a.fromValue = end
                a.toValue = start
            } else {
                a.fromValue = start
                a.toValue = end
            }
            let local = reversed ? 1 - fraction : fraction
            if isRunning {
                a.beginTime = max(0, anchorTime - local * duration)
                if anchorTime > now { a.fillMode = .backwards }
            } else {
                a.speed = 0
                a.timeOffset = local * duration
                a.fillMode = .both
                a.isRemovedOnCompletion = false
            }
            pending += 1
            layer.add(a, forKey: r.key)
        }
        CATransaction.commit()
    }

    private func makeAnimation(_ key: String) -> CABasicAnimation {
        let a: CABasicAnimation
        if let ratio = dampingRatio {
            let s = CASpringAnimation(keyPath: key)
            let w0 = 2 * Double.pi / duration
            s.stiffness = CGFloat(w0 * w0)
            s.damping = CGFloat(2 * ratio * w0)
            a = s
        } else {
            a = CABasicAnimation(keyPath: key)
            a.timingFunction = timingFunction
        }
        a.duration = duration
        return a
    }

    /// Removes the animations and leaves the layers at `position`'s values.
    private func settle(at position: ViewAnimatingPosition) {
        generation += 1
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for r in records {
            guard let layer = r.layer else { continue }
            let value: Any?
            switch position {
            case .end: value = r.end
            case .start: value = r.start
            case .current: value = layer.presentation()?.value(forKey: r.key) ?? layer.value(forKey: r.key)
            }
            layer.removeAnimation(forKey: r.key)
            if let value { layer.setValue(value, forKey: r.key) }
        }
        CATransaction.commit()
    }

    private func complete(_ position: ViewAnimatingPosition) {
        state = .inactive
        isRunning = false
        records = []
        fraction = position == .end ? 1 : 0
        let c = completions
        completions = []
        for f in c { f(position) }
    }

    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        guard (anim.value(forKey: "strataAnimatorGeneration") as? Int) == generation, flag, isRunning else { return }
        pending -= 1
        guard pending <= 0 else { return }
        if pausesOnCompletion {
            fraction = reversed ? 0 : 1
            isRunning = false
            retime()
            return
        }
        complete(reversed ? .start : .end)
    }
}
