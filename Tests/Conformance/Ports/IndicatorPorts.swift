#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif

// Ported patterns: activity indicators as NVActivityIndicatorView (MIT) builds them, written
// anew for this corpus: a ring that spins while it pulses (a group of two keyframe animations
// whose children take the group's duration, repeating `HUGE` times), a stroke spinner (a
// group of strokeEnd, a delayed strokeStart and a `byValue` rotation), and rippling rings (one
// group object added to three layers, each begun later through `CACurrentMediaTime()`).
// Each class is the code as an application writes it; only the import differs from iOS.

final class ClipRotateIndicator {
    func setUpAnimation(in layer: CALayer, size: CGSize, color: UIColor) {
        let duration: CFTimeInterval = 0.75

        let scaleAnimation = CAKeyframeAnimation(keyPath: "transform.scale")
        scaleAnimation.keyTimes = [0, 0.5, 1]
        scaleAnimation.values = [1, 0.6, 1]

        let rotateAnimation = CAKeyframeAnimation(keyPath: "transform.rotation.z")
        rotateAnimation.keyTimes = scaleAnimation.keyTimes
        rotateAnimation.values = [0, Double.pi, 2 * Double.pi]

        let animation = CAAnimationGroup()
        animation.animations = [scaleAnimation, rotateAnimation]
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        animation.duration = duration
        animation.repeatCount = HUGE
        animation.isRemovedOnCompletion = false

        let ring = CAShapeLayer()
        let path = UIBezierPath(arcCenter: CGPoint(x: size.width / 2, y: size.height / 2), radius: size.width / 2,
                                startAngle: -3 * .pi / 4, endAngle: -.pi / 4, clockwise: false)
        ring.fillColor = nil
        ring.strokeColor = color.cgColor
        ring.lineWidth = 2
        ring.path = path.cgPath
        ring.frame = CGRect(x: (layer.bounds.width - size.width) / 2, y: (layer.bounds.height - size.height) / 2,
                            width: size.width, height: size.height)
        ring.add(animation, forKey: "animation")
        layer.addSublayer(ring)
    }
}

final class StrokeSpinIndicator {
    func setUpAnimation(in layer: CALayer, size: CGSize, color: UIColor) {
        let beginTime: Double = 0.5
        let strokeStartDuration: Double = 1.2
        let strokeEndDuration: Double = 0.7

        let rotationAnimation = CABasicAnimation(keyPath: "transform.rotation")
        rotationAnimation.byValue = Float.pi * 2
        rotationAnimation.timingFunction = CAMediaTimingFunction(name: .linear)

        let strokeEndAnimation = CABasicAnimation(keyPath: "strokeEnd")
        strokeEndAnimation.duration = strokeEndDuration
        strokeEndAnimation.timingFunction = CAMediaTimingFunction(controlPoints: 0.4, 0.0, 0.2, 1.0)
        strokeEndAnimation.fromValue = 0
        strokeEndAnimation.toValue = 1

        let strokeStartAnimation = CABasicAnimation(keyPath: "strokeStart")
        strokeStartAnimation.duration = strokeStartDuration
        strokeStartAnimation.timingFunction = CAMediaTimingFunction(controlPoints: 0.4, 0.0, 0.2, 1.0)
        strokeStartAnimation.fromValue = 0
        strokeStartAnimation.toValue = 1
        strokeStartAnimation.beginTime = beginTime

        let groupAnimation = CAAnimationGroup()
        groupAnimation.animations = [rotationAnimation, strokeEndAnimation, strokeStartAnimation]
        groupAnimation.duration = strokeStartDuration + beginTime
        groupAnimation.repeatCount = .infinity
        groupAnimation.isRemovedOnCompletion = false
        groupAnimation.fillMode = .forwards

        let circle = CAShapeLayer()
        circle.path = UIBezierPath(ovalIn: CGRect(origin: .zero, size: size)).cgPath
        circle.lineWidth = 2
        circle.fillColor = nil
        circle.strokeColor = color.cgColor
        circle.frame = CGRect(origin: .zero, size: size)
        circle.add(groupAnimation, forKey: "animation")
        layer.addSublayer(circle)
    }
}

final class RippleIndicator {
    func setUpAnimation(in layer: CALayer, size: CGSize, color: UIColor) {
        let duration: CFTimeInterval = 1.25
        let beginTime = CACurrentMediaTime()
        let beginTimes = [0, 0.2, 0.4]
        let timingFunction = CAMediaTimingFunction(controlPoints: 0.21, 0.53, 0.56, 0.8)

        let scaleAnimation = CAKeyframeAnimation(keyPath: "transform.scale")
        scaleAnimation.keyTimes = [0, 0.7]
        scaleAnimation.timingFunction = timingFunction
        scaleAnimation.values = [0, 1]
        scaleAnimation.duration = duration

        let opacityAnimation = CAKeyframeAnimation(keyPath: "opacity")
        opacityAnimation.keyTimes = [0, 0.7, 1]
        opacityAnimation.timingFunctions = [timingFunction, timingFunction]
        opacityAnimation.values = [1, 0.7, 0]
        opacityAnimation.duration = duration

        let animation = CAAnimationGroup()
        animation.animations = [scaleAnimation, opacityAnimation]
        animation.duration = duration
        animation.repeatCount = HUGE
        animation.isRemovedOnCompletion = false

        for i in 0 ..< 3 {
            let circle = CAShapeLayer()
            circle.path = UIBezierPath(ovalIn: CGRect(origin: .zero, size: size)).cgPath
            circle.fillColor = nil
            circle.strokeColor = color.cgColor
            circle.frame = CGRect(origin: .zero, size: size)
            animation.beginTime = beginTime + beginTimes[i]   // the same object, changed: add copies it
            circle.add(animation, forKey: "animation")
            layer.addSublayer(circle)
        }
    }
}
