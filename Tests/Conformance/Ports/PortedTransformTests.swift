import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

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

private final class CardFlip {
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

private final class FoldingItems {
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

private final class CheckBounce {
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

private final class SpringPress {
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

private final class SquareSpin {
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
private final class TabIconBounce {
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

final class PortedTransformTests: XCTestCase {
    func test_tabIcon_bouncesThroughItsCubicKeysAndTurnsOnce() throws {
        let scene = Scene(CALayer())
        inTransaction { TabIconBounce.bounce(scene.layer) }
        let scale = { Double(try scene.presented().value(forKeyPath: "transform.scale") as? CGFloat ?? .nan) }
        // A cubic spline passes through its keys: 1.4 at 1/6 of 0.5 s, 0.9 at 2/6.
        scene.frame(at: 0.5 / 6)
        XCTAssertEqual(try scale(), 1.4, accuracy: 1e-9)
        scene.frame(at: 1.0 / 6)
        XCTAssertEqual(try scale(), 0.9, accuracy: 1e-9)
        // Half-way between those keys, the uniform Catmull-Rom spline through 1, 1.4, 0.9, 1.15
        // (Kochanek-Bartels with tension, continuity and bias 0): 1.159375.
        scene.frame(at: 0.125)
        XCTAssertEqual(try scale(), 1.159375, accuracy: 1e-9)
        let spin = Scene(CALayer())
        inTransaction { TabIconBounce.spin(spin.layer) }
        spin.frame(at: 0.125)
        XCTAssertEqual(Double(try spin.presented().value(forKeyPath: "transform.rotation") as? CGFloat ?? .nan), .pi / 2, accuracy: 1e-9)
    }

    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    func test_cardFlip_turnsWithPerspectiveThenAZeroAxisIsTheIdentity() throws {
        let scene = Scene(CALayer())
        let back = CALayer()
        withActionsDisabled { scene.root.addSublayer(back); back.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0) }
        scene.frame(at: 0)
        CardFlip().flip(scene.layer, to: back, duration: 0.6)
        scene.frame(at: 0.3)
        let p = try scene.presented()
        XCTAssertEqual(Double(p.value(forKeyPath: "transform.rotation.y") as? CGFloat ?? .nan), -.pi / 4, accuracy: 1e-9,
                       "a quarter turn about -y, half done (the matrix interpolates by decomposition)")
        XCTAssertNotEqual(p.transform.m34, 0, "perspective on the way")
        XCTAssertFalse(CATransform3DIsAffine(p.transform))
        scene.frame(at: 0.6)
        scene.frame(at: 0.61)
        assertTransform(back.transform, CATransform3DIdentity, "the completion block's rotation about (0, 0, 0)")
        scene.frame(at: 1)
        assertTransform(try XCTUnwrap(back.presentation()).transform, CATransform3DIdentity, accuracy: 1e-12)
    }

    func test_folds_turnAboutXOverThePerspectiveOneAfterTheOther() throws {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 800
        let scene = Scene(CALayer()) { $0.transform = perspective }
        let second = CALayer()
        withActionsDisabled { second.transform = perspective; scene.root.addSublayer(second) }
        scene.frame(at: 1)
        inTransaction { FoldingItems().openAnimation([scene.layer, second]) }
        let rx = { (l: CALayer) -> Double in Double(l.presentation()?.value(forKeyPath: "transform.rotation.x") as? CGFloat ?? .nan) }
        scene.frame(at: 1.2)
        XCTAssertEqual(rx(scene.layer), -.pi / 2 * ReferenceCurve.easeIn.progress(atFraction: 0.5), accuracy: 1e-9)
        XCTAssertNotEqual(try XCTUnwrap(scene.layer.presentation()).transform.m34, 0, "the perspective stays while a field turns")
        XCTAssertEqual(rx(second), 0, accuracy: 1e-12, "the second fold waits for the first: the model's")
        scene.frame(at: 1.6)
        XCTAssertEqual(rx(scene.layer), -.pi / 2, accuracy: 1e-9, "held by forwards fill")
        scene.frame(at: 1.7)
        XCTAssertEqual(rx(second), .pi / 2 * (1 - ReferenceCurve.easeOut.progress(atFraction: 0.75)), accuracy: 1e-9,
                       "begun at 1.4, 0.3 s of 0.4 in")
        scene.frame(at: 3)
        XCTAssertEqual(rx(second), 0, accuracy: 1e-9)
        XCTAssertEqual(animationKeys(of: second), ["rotation.x"], "kept: not removed on completion")
    }

    func test_checkBounce_wrappedTransformKeyframesPeakHalfWay() throws {
        let scene = Scene(CALayer())
        inTransaction { CheckBounce().bounce(scene.layer) }
        scene.frame(at: 0.25)
        assertTransform(try scene.presented().transform, CATransform3DMakeScale(1.18, 1.18, 1), accuracy: 1e-9)
        scene.frame(at: 0.125)
        assertTransform(try scene.presented().transform, CATransform3DMakeScale(1.09, 1.09, 1), accuracy: 1e-9)
    }

    func test_springPress_settlesAndScrubs() throws {
        // stiffness 250, damping 30, mass 1: w0 = sqrt(250), zeta = 30 / (2 sqrt(250)) < 1.
        let w0 = 250.0.squareRoot(), zeta = 30 / (2 * w0), wd = w0 * (1 - zeta * zeta).squareRoot()
        let b = zeta * w0 / wd
        func progress(_ t: Double) -> Double { 1 - exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t)) }
        let scene = Scene(CALayer())
        var spring: CASpringAnimation!
        inTransaction { spring = SpringPress().press(scene.layer) }
        XCTAssertGreaterThan(spring.settlingDuration, 0.4)
        XCTAssertLessThan(spring.settlingDuration, 1)
        for t in [0.1, 0.2] {
            scene.frame(at: t)
            let scale = Double(try scene.presented().value(forKeyPath: "transform.scale") as? CGFloat ?? .nan)
            XCTAssertEqual(scale, 0.5 + 0.5 * progress(t), accuracy: 1e-9, "at \(t)")
        }
        // Scrubbing: a copy frozen at 0.2 s of its own time.
        let scrub = try XCTUnwrap(spring.copy() as? CASpringAnimation)
        scrub.speed = 0
        scrub.timeOffset = 0.2
        scrub.beginTime = 0
        let still = Scene(CALayer())
        inTransaction { still.layer.add(scrub, forKey: "scrub") }
        for t in [0.5, 3.0] {
            still.frame(at: t)
            let scale = Double(try still.presented().value(forKeyPath: "transform.scale") as? CGFloat ?? .nan)
            XCTAssertEqual(scale, 0.5 + 0.5 * progress(0.2), accuracy: 1e-9, "speed 0: always 0.2 s in")
        }
    }

    func test_squareSpin_showsEachKeyframeAtItsKeyTime() throws {
        let scene = Scene(CALayer())
        inTransaction { SquareSpin().setUpAnimation(in: scene.layer) }
        for (k, expected) in [(1, SquareSpin.turn(.pi, 0)), (2, SquareSpin.turn(.pi, .pi)), (3, SquareSpin.turn(0, .pi))] {
            scene.frame(at: 3 * 7 + 0.75 * Double(k))
            assertTransform(try scene.presented().transform, expected, "key time \(k) / 4", accuracy: 1e-9)
        }
    }
}
