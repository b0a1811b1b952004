#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif

// Ported patterns: 3-D flips, folds, bounces and springs as real code writes them
// (Presentr's card flip, Ramotion's folding cell, BEMCheckBox's check, Hero's springs,
// NVActivityIndicatorView's square spin; MIT), written anew:
// - a flip: a perspective (m34) and a quarter turn about y, set in a transaction, then a
//   rotation about a zero axis, which is the identity;
// - a fold: `transform.rotation.x` over a perspective transform, each fold begun when the
//   last ends (`beginTime = CACurrentMediaTime() + delay`), held by forwards fill;
// - a check's bounce: whole transforms wrapped by `NSValue(caTransform3D:)` as keyframes;
// - a press: `CASpringAnimation` of `transform.scale` lasting its `settlingDuration`, and the
//   same spring scrubbed with `speed = 0` and `timeOffset`;
// - a square that flips through keyframes of perspective rotations, one curve per segment.

final class CardFlip {
    func flip(_ from: CALayer, to: CALayer, duration: CFTimeInterval) {
        var perspective = CATransform3DIdentity
        perspective.m34 = -0.003
        CATransaction.begin()
        CATransaction.setAnimationDuration(duration)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        from.transform = CATransform3DRotate(perspective, .pi / 2, 0, -1, 0)
        to.zPosition = 999
        CATransaction.setCompletionBlock {
            to.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 0)   // a zero axis: the identity
        }
        CATransaction.commit()
    }
}

final class FoldingItems {
    var durations: [TimeInterval] = [0.4, 0.4]

    func openAnimation(_ items: [CALayer]) {
        var delay: TimeInterval = 0
        var from: CGFloat = 0, to: CGFloat = -.pi / 2
        for (index, item) in items.enumerated() {
            let fold = CABasicAnimation(keyPath: "transform.rotation.x")
            fold.timingFunction = CAMediaTimingFunction(name: index % 2 == 0 ? .easeIn : .easeOut)
            fold.fromValue = from
            fold.toValue = to
            fold.duration = durations[index]
            fold.beginTime = CACurrentMediaTime() + delay
            fold.fillMode = .forwards
            fold.isRemovedOnCompletion = false
            item.add(fold, forKey: "rotation.x")
            delay += durations[index]
            (from, to) = (.pi / 2, 0)
        }
    }
}

final class CheckBounce {
    func bounce(_ layer: CALayer) {
        let animation = CAKeyframeAnimation(keyPath: "transform")
        animation.values = [
            NSValue(caTransform3D: CATransform3DMakeScale(1, 1, 1)),
            NSValue(caTransform3D: CATransform3DMakeScale(1.18, 1.18, 1)),
            NSValue(caTransform3D: CATransform3DMakeScale(1, 1, 1)),
        ]
        animation.duration = 0.5
        animation.keyTimes = [0, 0.5, 1]
        layer.add(animation, forKey: "transform")
    }
}

final class SpringPress {
    func press(_ layer: CALayer) -> CASpringAnimation {
        let spring = CASpringAnimation(keyPath: "transform.scale")
        spring.stiffness = 250
        spring.damping = 30
        spring.mass = 1
        spring.initialVelocity = 0
        spring.fromValue = 0.5
        spring.toValue = 1
        spring.duration = spring.settlingDuration
        layer.add(spring, forKey: "press")
        return spring
    }
}

final class SquareSpin {
    func setUpAnimation(in layer: CALayer) {
        let timingFunction = CAMediaTimingFunction(controlPoints: 0.09, 0.57, 0.49, 0.9)
        let animation = CAKeyframeAnimation(keyPath: "transform")
        animation.keyTimes = [0, 0.25, 0.5, 0.75, 1]
        animation.timingFunctions = [timingFunction, timingFunction, timingFunction, timingFunction]
        animation.values = [
            NSValue(caTransform3D: Self.turn(0, 0)),
            NSValue(caTransform3D: Self.turn(.pi, 0)),
            NSValue(caTransform3D: Self.turn(.pi, .pi)),
            NSValue(caTransform3D: Self.turn(0, .pi)),
            NSValue(caTransform3D: Self.turn(0, 0)),
        ]
        animation.duration = 3
        animation.repeatCount = HUGE
        animation.isRemovedOnCompletion = false
        layer.add(animation, forKey: "animation")
    }

    static func turn(_ x: CGFloat, _ y: CGFloat) -> CATransform3D {
        var tx = CATransform3DMakeRotation(x, 1, 0, 0)
        tx.m34 = -1 / 100
        var ty = CATransform3DMakeRotation(y, 0, 1, 0)
        ty.m34 = -1 / 100
        return CATransform3DConcat(tx, ty)
    }
}

/// A tab icon's bounce and turn (Ramotion's animated tab bar, MIT): a cubic keyframe spline
/// of scales, and a linear full turn about `transform.rotation`.
final class TabIconBounce {
    static func bounce(_ icon: CALayer) {
        let bounce = CAKeyframeAnimation(keyPath: "transform.scale")
        bounce.values = [1.0, 1.4, 0.9, 1.15, 0.95, 1.02, 1.0]
        bounce.duration = 0.5
        bounce.calculationMode = .cubic
        icon.add(bounce, forKey: nil)
    }

    static func spin(_ icon: CALayer) {
        let turn = CABasicAnimation(keyPath: "transform.rotation")
        turn.fromValue = 0.0
        turn.toValue = CGFloat.pi * 2
        turn.duration = 0.5
        icon.add(turn, forKey: nil)
    }
}
