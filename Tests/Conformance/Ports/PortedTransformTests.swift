import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

// The ported code is in TransformPorts.swift, which imports the engine alone.

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
