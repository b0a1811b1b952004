import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

// Ported patterns: activity indicators as NVActivityIndicatorView (MIT) builds them, written
// anew for this corpus: a ring that spins while it pulses (a group of two keyframe animations
// whose children take the group's duration, repeating `HUGE` times), a stroke spinner (a
// group of strokeEnd, a delayed strokeStart and a `byValue` rotation), and rippling rings (one
// group object added to three layers, each begun later through `CACurrentMediaTime()`).
// Each class is the code as an application writes it; only the import differs from iOS.

private final class ClipRotateIndicator {
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

private final class StrokeSpinIndicator {
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

private final class RippleIndicator {
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

final class PortedIndicatorTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// A host layer of 100 x 100 rendered once at `start`, the indicator set up in it, committed.
    private func host(at start: Double = 0, _ setUp: (CALayer) -> Void) -> (CARenderer, CALayer) {
        let host = CALayer()
        host.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let renderer = CARenderer(layer: host)
        renderer.renderFrame(atTime: start)
        setUp(host)
        CATransaction.flush()
        return (renderer, host)
    }

    func test_clipRotateRing_spinsAndPulsesForever() throws {
        let (renderer, host) = self.host { ClipRotateIndicator().setUpAnimation(in: $0, size: CGSize(width: 40, height: 40), color: .red) }
        let ring = try XCTUnwrap(host.sublayers?.first as? CAShapeLayer)
        assertPoint(ring.position, 50, 50, "centred by its frame")
        // Keyframes at 0, 0.5, 1 of 0.75 s: scale 1 -> 0.6 -> 1, rotation 0 -> pi -> 2 pi.
        for (t, scale, angle) in [(0.1875, 0.8, Double.pi / 2), (0.375 + 0.75 * 40, 0.6, Double.pi), (0.5625 + 0.75 * 3, 0.8, 1.5 * Double.pi)] {
            renderer.renderFrame(atTime: t)
            let shown = try XCTUnwrap(ring.presentation()).transform
            let expected = CATransform3DConcat(CATransform3DMakeScale(CGFloat(scale), CGFloat(scale), CGFloat(scale)),
                                               CATransform3DMakeRotation(CGFloat(angle), 0, 0, 1))
            assertTransform(shown, expected, "at \(t)", accuracy: 1e-9)
        }
        XCTAssertEqual(animationKeys(of: ring), ["animation"], "HUGE repeats: still running")
    }

    func test_strokeSpinner_drawsAndErasesItsArcWhileItTurns() throws {
        let (renderer, host) = self.host { StrokeSpinIndicator().setUpAnimation(in: $0, size: CGSize(width: 40, height: 40), color: .red) }
        let circle = try XCTUnwrap(host.sublayers?.first as? CAShapeLayer)
        let curve = ReferenceCurve(0.4, 0, 0.2, 1)
        for cycle in [0.0, 1.7 * 5] {
            renderer.renderFrame(atTime: cycle + 0.35)
            var p = try XCTUnwrap(circle.presentation())
            XCTAssertEqual(Double(p.strokeEnd), curve.progress(atFraction: 0.5), accuracy: 1e-6, "strokeEnd half its time in")
            XCTAssertEqual(Double(p.strokeStart), 0, accuracy: 1e-12, "strokeStart has not begun: the model's")
            XCTAssertEqual(Double(p.value(forKeyPath: "transform.rotation.z") as? CGFloat ?? -1), Double(Float.pi * 2) * 0.35 / 1.7,
                           accuracy: 1e-9, "byValue 2 pi (a Float) over the group's 1.7 s, which the rotation takes as its duration")
            renderer.renderFrame(atTime: cycle + 1.1)
            p = try XCTUnwrap(circle.presentation())
            XCTAssertEqual(Double(p.strokeStart), curve.progress(atFraction: 0.5), accuracy: 1e-6, "strokeStart begun at 0.5 s")
            XCTAssertEqual(Double(p.strokeEnd), 1, accuracy: 1e-12, "strokeEnd is over: the model's")
        }
    }

    func test_rippleRings_eachBeginsLaterFromTheOneGroupObject() throws {
        let (renderer, host) = self.host(at: 10) { RippleIndicator().setUpAnimation(in: $0, size: CGSize(width: 40, height: 40), color: .blue) }
        let rings = try XCTUnwrap(host.sublayers)
        XCTAssertEqual(rings.count, 3)
        for (ring, begin) in zip(rings, [10, 10.2, 10.4]) {
            XCTAssertEqual(try XCTUnwrap(ring.animation(forKey: "animation")).beginTime, begin, accuracy: 1e-12,
                           "each ring keeps the begin time the group had when it was added")
        }
        let curve = ReferenceCurve(0.21, 0.53, 0.56, 0.8)
        let t = 10.5
        renderer.renderFrame(atTime: t)
        for (i, ring) in rings.enumerated() {
            let local = (t - 10 - 0.2 * Double(i)) / 1.25
            // Scale: the animation's own curve first, then its keyframes, which reach 1 at key
            // time 0.7 and hold. Opacity: 1 -> 0.7 -> 0, the curve within each segment.
            let eased = curve.progress(atFraction: local)
            let scale = min(eased / 0.7, 1)
            let opacity = local < 0.7 ? lerp(1, 0.7, curve.progress(atFraction: local / 0.7))
                : lerp(0.7, 0, curve.progress(atFraction: (local - 0.7) / 0.3))
            let p = try XCTUnwrap(ring.presentation())
            XCTAssertEqual(Double(p.value(forKeyPath: "transform.scale") as? CGFloat ?? -1), scale, accuracy: 1e-6, "ring \(i) scale")
            XCTAssertEqual(Double(p.opacity), opacity, accuracy: 1e-6, "ring \(i) opacity")
        }
    }
}
