#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif

// Ported patterns: effects built of layers and timing (Pulsator, SkeletonView, MarqueeLabel,
// fave-button, TransitionButton; MIT), written anew:
// - a radar pulse: a CAReplicatorLayer subclass whose `init(layer:)` copies its settings,
//   scaling a dot by `transform.scale.xy` while it fades, each copy `instanceDelay` later;
// - a skeleton's sliding gradient (startPoint and endPoint in a repeating group) and its
//   pulsing colour (autoreverses);
// - a marquee's pause and resume through the layer's own `speed`, `timeOffset` and
//   `beginTime`;
// - a like button's burst: a ring's path morphs between arcs while its line widens, the
//   next animations on the same key path added without keys after a delay;
// - a button's shrink and spinner, with the transaction's completion block set and
//   committed without a `begin()` (the implicit transaction's).

final class PulseHalo: CAReplicatorLayer {
    private let pulse = CALayer()
    var haloRadius: CGFloat = 60 { didSet { updatePulse() } }
    var pulseDuration: TimeInterval = 3
    var pulseInterval: TimeInterval = 0
    var numPulse = 1 {
        didSet {
            instanceCount = numPulse
            instanceDelay = (pulseDuration + pulseInterval) / Double(numPulse)
        }
    }
    var keyTimeForHalfOpacity: Float = 0.2
    var fromValueForRadius: Float = 0
    var fromValueForAlpha: Float = 0.45

    override init() {
        super.init()
        pulse.contentsScale = 2
        pulse.opacity = 0
        addSublayer(pulse)
        updatePulse()
        repeatCount = MAXFLOAT
    }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? PulseHalo {
            haloRadius = other.haloRadius
            pulseDuration = other.pulseDuration
            pulseInterval = other.pulseInterval
            keyTimeForHalfOpacity = other.keyTimeForHalfOpacity
        }
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }

    private func updatePulse() {
        let diameter = haloRadius * 2
        pulse.bounds = CGRect(origin: .zero, size: CGSize(width: diameter, height: diameter))
        pulse.cornerRadius = haloRadius
        pulse.backgroundColor = UIColor(red: 0, green: 0.455, blue: 0.756, alpha: 0.45).cgColor
    }

    func start() {
        let scaleAnimation = CABasicAnimation(keyPath: "transform.scale.xy")
        scaleAnimation.fromValue = NSNumber(value: fromValueForRadius)
        scaleAnimation.toValue = 1.0
        scaleAnimation.duration = pulseDuration

        let opacityAnimation = CAKeyframeAnimation(keyPath: "opacity")
        opacityAnimation.duration = pulseDuration
        opacityAnimation.values = [fromValueForAlpha, 0.45 * 0.5, 0]
        opacityAnimation.keyTimes = [0, NSNumber(value: keyTimeForHalfOpacity), 1]

        let group = CAAnimationGroup()
        group.duration = pulseDuration + pulseInterval
        group.repeatCount = repeatCount
        group.timingFunction = CAMediaTimingFunction(name: .default)
        group.animations = [scaleAnimation, opacityAnimation]
        pulse.add(group, forKey: "pulse")
    }

    var dot: CALayer { pulse }
}

final class SkeletonGradient {
    static func slide(_ layer: CAGradientLayer) {
        let startPoint = CABasicAnimation(keyPath: "startPoint")   // #keyPath(CAGradientLayer.startPoint)
        startPoint.fromValue = CGPoint(x: -1, y: 0.5)
        startPoint.toValue = CGPoint(x: 1, y: 0.5)
        let endPoint = CABasicAnimation(keyPath: "endPoint")
        endPoint.fromValue = CGPoint(x: 0, y: 0.5)
        endPoint.toValue = CGPoint(x: 2, y: 0.5)
        let group = CAAnimationGroup()
        group.animations = [startPoint, endPoint]
        group.duration = 1.5
        group.timingFunction = CAMediaTimingFunction(name: .easeIn)
        group.repeatCount = .infinity
        group.isRemovedOnCompletion = false
        layer.add(group, forKey: "skeletonSlide")
    }

    static func pulse(_ layer: CALayer, to color: UIColor) {
        let pulse = CABasicAnimation(keyPath: "backgroundColor")
        pulse.fromValue = layer.backgroundColor
        pulse.toValue = color.cgColor
        pulse.duration = 1
        pulse.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        pulse.autoreverses = true
        pulse.repeatCount = .infinity
        layer.add(pulse, forKey: "pulse")
    }
}

final class Marquee {
    let textLayer = CALayer()

    func scroll(from home: CGPoint, away: CGPoint, delay: CFTimeInterval, duration: CFTimeInterval) {
        CATransaction.begin()
        CATransaction.setAnimationDuration(delay + duration)
        let scroll = CAKeyframeAnimation(keyPath: "position")
        scroll.values = [NSValue(cgPoint: home), NSValue(cgPoint: home), NSValue(cgPoint: away)]
        scroll.keyTimes = [0, NSNumber(value: delay / (delay + duration)), 1]
        scroll.timingFunctions = [CAMediaTimingFunction(name: .linear), CAMediaTimingFunction(name: .linear)]
        textLayer.add(scroll, forKey: "position")
        CATransaction.commit()
    }

    func pause() {
        guard textLayer.speed != 0 else { return }
        let pausedTime = textLayer.convertTime(CACurrentMediaTime(), from: nil)
        textLayer.speed = 0
        textLayer.timeOffset = pausedTime
    }

    func resume() {
        guard textLayer.speed == 0 else { return }
        let pausedTime = textLayer.timeOffset
        textLayer.speed = 1
        textLayer.timeOffset = 0
        textLayer.beginTime = 0
        let sincePause = textLayer.convertTime(CACurrentMediaTime(), from: nil) - pausedTime
        textLayer.beginTime = sincePause
    }
}

final class BurstRing {
    let ring = CAShapeLayer()
    let radius: CGFloat = 20

    init() {
        ring.fillColor = UIColor.clear.cgColor
        ring.strokeColor = UIColor.red.cgColor
        ring.lineWidth = 0
        ring.path = arc(0.01)
    }

    func arc(_ r: CGFloat) -> CGPath {
        UIBezierPath(arcCenter: CGPoint(x: radius, y: radius), radius: r, startAngle: 0, endAngle: 2 * .pi, clockwise: true).cgPath
    }

    func burst(expand: CFTimeInterval, collapse: CFTimeInterval) {
        let begin = CACurrentMediaTime()
        let grow = CABasicAnimation(keyPath: "path")
        grow.toValue = arc(radius)
        let widen = CABasicAnimation(keyPath: "lineWidth")
        widen.toValue = 6
        for a in [grow, widen] {
            a.duration = expand
            a.beginTime = begin
            a.fillMode = .forwards
            a.isRemovedOnCompletion = false
            a.timingFunction = CAMediaTimingFunction(name: kCAMediaTimingFunctionEaseOut)
            ring.add(a, forKey: nil)
        }
        let narrow = CABasicAnimation(keyPath: "lineWidth")
        narrow.fromValue = 6
        narrow.toValue = 0
        narrow.duration = collapse
        narrow.beginTime = begin + expand
        narrow.fillMode = .forwards
        narrow.isRemovedOnCompletion = false
        ring.add(narrow, forKey: nil)
    }
}

final class ShrinkButton {
    let layer = CALayer()
    let spinner = CAShapeLayer()
    var finished = 0

    func startAnimation(width: CGFloat, height: CGFloat) {
        CATransaction.setCompletionBlock { self.finished += 1 }
        let shrink = CABasicAnimation(keyPath: "bounds.size.width")
        shrink.fromValue = width
        shrink.toValue = height
        shrink.duration = 0.1
        shrink.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        shrink.fillMode = .forwards
        shrink.isRemovedOnCompletion = false
        layer.add(shrink, forKey: shrink.keyPath)

        let rotate = CABasicAnimation(keyPath: "transform.rotation.z")
        rotate.fromValue = 0
        rotate.toValue = Double.pi * 2
        rotate.duration = 0.4
        rotate.timingFunction = CAMediaTimingFunction(name: .linear)
        rotate.repeatCount = HUGE
        spinner.add(rotate, forKey: nil)
        CATransaction.commit()
    }
}
