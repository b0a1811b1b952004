import Foundation

// UIKit's animation API on `View` (UIView's spellings), one source for both engines: blocks
// with a delay, options and curves, the spring variant (a CASpringAnimation underneath),
// keyframes, transitions, performWithoutAnimation, and completion blocks told whether every
// animation they waited for finished (false when one was removed or interrupted).

extension View {
    /// UIKit's `UIView.AnimationOptions` (same bits).
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        /// Accepted (there are no touches here).
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        /// Start from what is shown (what the engine does for every block's animations).
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        /// Repeat forever.
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        /// Play forwards then backwards.
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        /// A nested block uses its own duration, not the enclosing block's.
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        /// A nested block uses its own curve, not the enclosing block's.
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 7)
        public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
        public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)
        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)
        public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
        public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
        public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
        public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
        public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
        public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

        /// The curve bits (16...19) as a timing function.
        var timingFunction: CAMediaTimingFunction {
            switch (rawValue >> 16) & 0xf {
            case 1: return CAMediaTimingFunction(name: .easeIn)
            case 2: return CAMediaTimingFunction(name: .easeOut)
            case 3: return CAMediaTimingFunction(name: .linear)
            default: return CAMediaTimingFunction(name: .easeInEaseOut)
            }
        }

        /// The transition bits (20...23) as a CATransition's type and subtype (Core
        /// Animation's public transitions have no flips or curls: those push or reveal).
        var transition: (CATransitionType, CATransitionSubtype?) {
            switch (rawValue >> 20) & 0xf {
            case 1: return (.push, .fromLeft)
            case 2: return (.push, .fromRight)
            case 3: return (.reveal, .fromBottom)
            case 4: return (.moveIn, .fromTop)
            case 6: return (.push, .fromTop)
            case 7: return (.push, .fromBottom)
            default: return (.fade, nil)
            }
        }
    }

    /// UIKit's `UIView.KeyframeAnimationOptions` (same bits): the animation options, and how
    /// values between keyframes are computed.
    public struct KeyframeAnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let layoutSubviews = KeyframeAnimationOptions(rawValue: 1 << 0)
        public static let allowUserInteraction = KeyframeAnimationOptions(rawValue: 1 << 1)
        public static let beginFromCurrentState = KeyframeAnimationOptions(rawValue: 1 << 2)
        public static let `repeat` = KeyframeAnimationOptions(rawValue: 1 << 3)
        public static let autoreverse = KeyframeAnimationOptions(rawValue: 1 << 4)
        public static let overrideInheritedDuration = KeyframeAnimationOptions(rawValue: 1 << 5)
        public static let overrideInheritedOptions = KeyframeAnimationOptions(rawValue: 1 << 9)
        public static let calculationModeLinear = KeyframeAnimationOptions(rawValue: 0 << 10)
        public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
        public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
        public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
        public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)

        var calculationMode: CAAnimationCalculationMode {
            switch (rawValue >> 10) & 0x7 {
            case 1: return .discrete
            case 2: return .paced
            case 3: return .cubic
            case 4: return .cubicPaced
            default: return .linear
            }
        }
    }

    /// UIKit's `UIView.AnimationCurve`.
    public enum AnimationCurve: Int, Sendable {
        case easeInOut, easeIn, easeOut, linear

        var timingFunction: CAMediaTimingFunction {
            switch self {
            case .easeInOut: return CAMediaTimingFunction(name: .easeInEaseOut)
            case .easeIn: return CAMediaTimingFunction(name: .easeIn)
            case .easeOut: return CAMediaTimingFunction(name: .easeOut)
            case .linear: return CAMediaTimingFunction(name: .linear)
            }
        }
    }

    /// The affine transform of the view's layer (UIView's `transform`; animatable).
    public var transform: CGAffineTransform {
        get { layer.affineTransform() }
        set { layer.setAffineTransform(newValue) }
    }

    /// Runs `animations` at once and animates the changes they make to views over `duration`
    /// seconds, after `delay` seconds (the old values are shown until then), with the curve
    /// and behaviour of `options`. `completion` gets true when every animation finished,
    /// false when one was removed or interrupted first. A block nested in another takes the
    /// outer duration and curve unless `overrideInheritedDuration` / `overrideInheritedCurve`.
    public class func animate(withDuration duration: Double, delay: Double, options: AnimationOptions = [],
                              animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        runBlock(ViewAnimationBlock(duration: duration, delay: delay, options: options), "animate(withDuration:delay:options:)",
                 animations: animations, completion: completion)
    }

    /// Runs `animations` at once and animates the changes they make to views over `duration`
    /// seconds (easeInEaseOut); `completion` as `animate(withDuration:delay:options:...)`.
    public class func animate(withDuration duration: Double, animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        runBlock(ViewAnimationBlock(duration: duration, delay: 0, options: []), "animate(withDuration:)",
                 animations: animations, completion: completion)
    }

    /// Animates as a damped spring (a `CASpringAnimation` per change): damping ratio
    /// `dampingRatio` (1: no overshoot), `velocity` in whole distances per second, mass 1 and
    /// stiffness (2 pi / duration)^2: the spring's period is the duration (UIKit's own
    /// mapping is not published).
    public class func animate(withDuration duration: Double, delay: Double, usingSpringWithDamping dampingRatio: CGFloat,
                              initialSpringVelocity velocity: CGFloat, options: AnimationOptions = [],
                              animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        let block = ViewAnimationBlock(duration: duration, delay: delay, options: options)
        block.spring = (Double(dampingRatio), Double(velocity))
        runBlock(block, "animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:)",
                 animations: animations, completion: completion)
    }

    /// Runs `actionsWithoutAnimation` with no view animation, even inside an animation block.
    public class func performWithoutAnimation(_ actionsWithoutAnimation: () -> Void) {
        let block = ViewAnimationBlock(duration: 0, delay: 0, options: [])
        block.disabled = true
        pushAnimationBlock(block)
        actionsWithoutAnimation()
        popAnimationBlock()
    }

    /// Animates over `duration` in keyframes: each `addKeyframe(withRelativeStartTime:
    /// relativeDuration:animations:)` inside `animations` changes values over its share of
    /// the duration; each property changed becomes one `CAKeyframeAnimation`.
    public class func animateKeyframes(withDuration duration: Double, delay: Double, options: KeyframeAnimationOptions = [],
                                       animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        let block = ViewAnimationBlock(duration: duration, delay: delay,
                                       options: AnimationOptions(rawValue: options.rawValue & 0x3ff | 3 << 16))
        block.keyframes = KeyframeCollector(mode: options.calculationMode)
        runBlock(block, "animateKeyframes(withDuration:delay:options:)", animations: animations, completion: completion)
    }

    /// A keyframe of the enclosing `animateKeyframes` block: the changes `animations` makes
    /// happen from `frameStartTime` for `frameDuration` (fractions of the whole duration).
    public class func addKeyframe(withRelativeStartTime frameStartTime: Double, relativeDuration frameDuration: Double,
                                  animations: () -> Void) {
        guard let block = currentAnimationBlock, let keyframes = block.keyframes else {
            StrataDiagnostics.emit(.invalidArgument, "View.addKeyframe outside animateKeyframes: its changes are applied without animation")
            performWithoutAnimation(animations)
            return
        }
        let start = frameStartTime.isFinite ? min(max(frameStartTime, 0), 1) : 0
        let length = frameDuration.isFinite ? min(max(frameDuration, 0), 1 - start) : 0
        keyframes.interval = (start, length)
        animations()
        keyframes.interval = nil
    }

    /// Changes `view` with `animations` (not animated themselves) behind a transition of the
    /// kind in `options` (cross dissolve is a fade; flips and curls push or reveal).
    public class func transition(with view: View, duration: Double, options: AnimationOptions = [],
                                 animations: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        let block = ViewAnimationBlock(duration: duration, delay: 0, options: options)
        guard block.validate("transition(with:duration:options:)", completion) else {
            animations?()
            return
        }
        CATransaction.begin()
        if let animations { performWithoutAnimation(animations) }
        let t = CATransition()
        (t.type, t.subtype) = options.transition
        t.duration = duration
        t.timingFunction = options.timingFunction
        t.delegate = block.tracker
        block.tracker.expect()
        view.layer.add(t, forKey: kCATransition)
        block.tracker.close(completion)
        CATransaction.commit()
    }

    /// Replaces `fromView` with `toView` in its superview behind a transition (with
    /// `showHideTransitionViews`: hides one and shows the other instead).
    public class func transition(from fromView: View, to toView: View, duration: Double, options: AnimationOptions = [],
                                 completion: ((Bool) -> Void)? = nil) {
        guard let parent = fromView.superview else {
            completion?(false)
            return
        }
        transition(with: parent, duration: duration, options: options, animations: {
            if options.contains(.showHideTransitionViews) {
                fromView.isHidden = true
                toView.isHidden = false
            } else {
                parent.addSubview(toView)
                fromView.removeFromSuperview()
            }
        }, completion: completion)
    }

    /// Runs a block's animations in a transaction, the block current while they run.
    static func runBlock(_ block: ViewAnimationBlock, _ what: String, animations: () -> Void, completion: ((Bool) -> Void)?) {
        guard block.validate(what, completion) else {
            animations()
            return
        }
        if let outer = currentAnimationBlock, !outer.disabled {
            // Nested: the enclosing block's duration and curve unless overridden.
            if !block.options.contains(.overrideInheritedDuration) { block.duration = outer.duration }
            if !block.options.contains(.overrideInheritedCurve) && outer.spring == nil { block.curve = outer.curve }
        }
        CATransaction.begin()
        CATransaction.setAnimationDuration(block.duration)
        pushAnimationBlock(block)
        animations()
        popAnimationBlock()
        block.keyframes?.addAnimations(block)
        block.tracker.close(completion)
        CATransaction.commit()
    }

    /// The animation a view answers with inside `block` for a change of `event`.
    static func blockAction(_ block: ViewAnimationBlock, for layer: CALayer, forKey event: String) -> CAAction? {
        if block.disabled { return NSNull() }
        if let keyframes = block.keyframes { return keyframes.record(layer, event) }
        let a = block.makeAnimation(keyPath: event)
        block.tracker.expect()
        a.delegate = block.tracker
        block.animator?.record(layer, event)
        return a
    }
}

/// One animation block's settings: what the views' delegate answers with inside it.
final class ViewAnimationBlock {
    var duration: Double
    let delay: Double
    let options: View.AnimationOptions
    var curve: CAMediaTimingFunction
    var spring: (damping: Double, velocity: Double)?
    var disabled = false
    var keyframes: KeyframeCollector?
    let tracker = CompletionTracker()
    weak var animator: ViewPropertyAnimator?

    init(duration: Double, delay: Double, options: View.AnimationOptions) {
        self.duration = duration
        self.delay = delay
        self.options = options
        curve = options.timingFunction
    }

    /// Refuses a duration or delay that is not a finite number >= 0 (the changes are then
    /// made without animation and the completion gets false).
    func validate(_ what: String, _ completion: ((Bool) -> Void)?) -> Bool {
        guard duration.isFinite && duration >= 0 && delay.isFinite && delay >= 0,
              spring.map({ $0.damping.isFinite && $0.damping >= 0 && $0.velocity.isFinite }) ?? true else {
            StrataDiagnostics.emit(.nonFiniteValue,
                "View.\(what): duration \(duration), delay \(delay)\(spring.map { ", damping \($0.damping), velocity \($0.velocity)" } ?? "") must be finite and >= 0; changes applied without animation")
            completion?(false)
            return false
        }
        return true
    }

    /// The animation of one change: a spring or a basic animation with the block's curve,
    /// duration, delay (shown from its start value until it begins) and repetition.
    func makeAnimation(keyPath: String?) -> CABasicAnimation {
        let a: CABasicAnimation
        if let spring {
            let s = CASpringAnimation(keyPath: keyPath)
            let w0 = duration > 0 ? 2 * Double.pi / duration : 2 * Double.pi
            s.mass = 1
            s.stiffness = CGFloat(w0 * w0)
            s.damping = CGFloat(2 * spring.damping * w0)
            s.initialVelocity = CGFloat(spring.velocity)
            a = s
        } else {
            a = CABasicAnimation(keyPath: keyPath)
            a.timingFunction = curve
        }
        a.duration = duration
        if delay > 0 {
            a.beginTime = CACurrentMediaTime() + delay
            a.fillMode = .backwards
        }
        if options.contains(.repeat) { a.repeatCount = .infinity }
        if options.contains(.autoreverse) { a.autoreverses = true }
        return a
    }
}

/// Counts a block's animations and calls its completion once all have stopped: true when
/// every one finished, false when one was removed or interrupted. A block that made no
/// animation completes (true) when its transaction does.
final class CompletionTracker: NSObject, CAAnimationDelegate {
    private var pending = 0
    private var allFinished = true
    private var completion: ((Bool) -> Void)?
    private var closed = false

    func expect() { pending += 1 }

    func close(_ completion: ((Bool) -> Void)?) {
        closed = true
        guard let completion else { return }
        if pending == 0 {
            // Nothing left to wait for (nothing animated, or every animation already stopped
            // inside the block): done when the transaction is, finished unless one was cut off.
            let finished = allFinished
            CATransaction.setCompletionBlock { completion(finished) }
        } else {
            self.completion = completion
        }
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        pending -= 1
        if !flag { allFinished = false }
        guard closed, pending <= 0, let c = completion else { return }
        completion = nil
        c(allFinished)
    }
}

/// What `animateKeyframes` collects: each changed (layer, key)'s value before the block and
/// after each keyframe, turned into one `CAKeyframeAnimation` each when the block ends.
final class KeyframeCollector {
    let mode: CAAnimationCalculationMode
    var interval: (start: Double, length: Double)?
    private struct Track {
        weak var layer: CALayer?
        let key: String
        let initial: Any?
        var frames: [(start: Double, length: Double, value: Any?)] = []
    }
    private var tracks: [Track] = []

    init(mode: CAAnimationCalculationMode) { self.mode = mode }

    /// The action for a change inside the block: it records the change (the new value is
    /// read when it runs) and animates nothing itself.
    func record(_ layer: CALayer, _ key: String) -> CAAction {
        if !tracks.contains(where: { $0.layer === layer && $0.key == key }) {
            let shown = layer.presentation()?.value(forKey: key) ?? layer.value(forKey: key)
            tracks.append(Track(layer: layer, key: key, initial: shown))
        }
        return Recorder(collector: self)
    }

    private final class Recorder: NSObject, CAAction {
        let collector: KeyframeCollector
        init(collector: KeyframeCollector) { self.collector = collector }
        func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
            guard let layer = anObject as? CALayer,
                  let i = collector.tracks.firstIndex(where: { $0.layer === layer && $0.key == event }) else { return }
            let interval = collector.interval ?? (0, 1)
            collector.tracks[i].frames.append((interval.start, interval.length, layer.value(forKey: event)))
        }
    }

    /// One keyframe animation per changed property: the value before the block, held until
    /// its first keyframe starts, each keyframe's value reached at its end.
    func addAnimations(_ block: ViewAnimationBlock) {
        for t in tracks {
            guard let layer = t.layer, !t.frames.isEmpty else { continue }
            var values: [Any] = [], times: [NSNumber] = []
            var last: Any? = t.initial
            var time = 0.0
            func key(_ at: Double, _ v: Any?) {
                guard let v else { return }
                values.append(v)
                times.append(NSNumber(value: at))
            }
            key(0, last)
            for f in t.frames.sorted(by: { $0.start < $1.start }) {
                if f.start > time { key(f.start, last) }
                key(f.start + f.length, f.value)
                last = f.value
                time = f.start + f.length
            }
            if time < 1 { key(1, last) }
            guard values.count >= 2 else { continue }
            let a = CAKeyframeAnimation(keyPath: t.key)
            a.values = values
            a.keyTimes = times
            a.calculationMode = mode
            a.duration = block.duration
            if block.delay > 0 {
                a.beginTime = CACurrentMediaTime() + block.delay
                a.fillMode = .backwards
            }
            if block.options.contains(.repeat) { a.repeatCount = .infinity }
            if block.options.contains(.autoreverse) { a.autoreverses = true }
            block.tracker.expect()
            a.delegate = block.tracker
            layer.add(a, forKey: t.key)
        }
    }
}
