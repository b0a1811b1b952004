import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// CASpringAnimation (SEMANTICS.md "Fidelity rules", springs): the damped oscillator of
/// WebKit's SpringSolver on the animation's local time, Apple's defaults, settlingDuration,
/// shared and per-animation springs, springs run as actions, and bad parameters.
final class SpringAnimationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// The expected progress, written out here from the formula (not the engine's code).
    private func expected(_ t: Double, mass m: Double = 1, stiffness k: Double = 100, damping c: Double = 10,
                          velocity v: Double = 0) -> Double {
        let w0 = sqrt(k / m), zeta = c / (2 * sqrt(k * m))
        if zeta < 1 {
            let wd = w0 * sqrt(1 - zeta * zeta)
            let b = (zeta * w0 - v) / wd
            return 1 - exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        }
        return 1 - (1 + (w0 - v) * t) * exp(-w0 * t)
    }

    private func spring(_ keyPath: String, from: Any?, to: Any?, duration: Double = 3,
                        mass: CGFloat = 1, stiffness: CGFloat = 100, damping: CGFloat = 10,
                        velocity: CGFloat = 0) -> CASpringAnimation {
        let s = CASpringAnimation(keyPath: keyPath)
        s.fromValue = from
        s.toValue = to
        s.duration = duration
        s.mass = mass
        s.stiffness = stiffness
        s.damping = damping
        s.initialVelocity = velocity
        return s
    }

    func test_defaults_areApples() {
        let s = CASpringAnimation()
        XCTAssertEqual(s.mass, 1)
        XCTAssertEqual(s.stiffness, 100)
        XCTAssertEqual(s.damping, 10)
        XCTAssertEqual(s.initialVelocity, 0)
        XCTAssertTrue((s as CAAnimation) is CABasicAnimation, "a spring is a basic animation")
    }

    func test_underDamped_followsTheOscillatorAndOvershoots() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 7, y: 9) }
        inTransaction { scene.layer.add(spring("position.x", from: 0, to: 100), forKey: "s") }
        var maximum = -Double.infinity
        for t in [0.0, 0.05, 0.1, 0.2, 0.3, 0.45, 0.7, 1.0, 1.6, 2.5] {
            scene.frame(at: t)
            let x = Double(try scene.presented().position.x)
            XCTAssertEqual(x, 100 * expected(t), accuracy: 1e-6, "t = \(t)")
            maximum = max(maximum, x)
        }
        XCTAssertGreaterThan(maximum, 110, "zeta 0.5 overshoots the end value by about 16%")
        scene.frame(at: 3)
        XCTAssertEqual(Double(try scene.presented().position.x), 7, accuracy: 1e-9, "removed at its duration")
    }

    func test_criticallyAndOverDamped_doNotOvershoot() throws {
        for damping in [20.0, 45.0] {
            let scene = Scene(CALayer())
            inTransaction {
                scene.layer.add(spring("opacity", from: 0, to: 1, damping: CGFloat(damping)), forKey: "s")
            }
            var last = -1.0
            for t in [0.0, 0.02, 0.1, 0.25, 0.5, 1.0, 2.0] {
                scene.frame(at: t)
                let o = Double(try scene.presented().opacity)
                XCTAssertEqual(o, expected(t, damping: damping), accuracy: 1e-6, "damping \(damping), t = \(t)")
                XCTAssertLessThanOrEqual(o, 1 + 1e-6)
                XCTAssertGreaterThanOrEqual(o, last - 1e-7, "rises monotonically")
                last = o
            }
        }
    }

    func test_initialVelocityAndMass_shapeTheMotion() throws {
        let scene = Scene(CALayer())
        inTransaction {
            scene.layer.add(spring("cornerRadius", from: 10, to: 30, mass: 2, stiffness: 50, damping: 4, velocity: -5),
                            forKey: "s")
        }
        for t in [0.05, 0.15, 0.4, 0.9] {
            scene.frame(at: t)
            let p = expected(t, mass: 2, stiffness: 50, damping: 4, velocity: -5)
            XCTAssertEqual(Double(try scene.presented().cornerRadius), 10 + 20 * p, accuracy: 1e-6, "t = \(t)")
        }
        scene.frame(at: 0.05)
        XCTAssertLessThan(Double(try scene.presented().cornerRadius), 10, "a negative velocity moves away first")
    }

    func test_springTime_isTheAnimationsLocalTime_speedAndBeginTime() throws {
        let scene = Scene(CALayer())
        let s = spring("position.y", from: 0, to: 50, duration: 2)
        s.speed = 2
        s.beginTime = 0.5
        inTransaction { scene.layer.add(s, forKey: "s") }
        scene.frame(at: 0.6)
        XCTAssertEqual(Double(try scene.presented().position.y), 50 * expected(0.2), accuracy: 1e-6)
        scene.frame(at: 0.9)
        XCTAssertEqual(Double(try scene.presented().position.y), 50 * expected(0.8), accuracy: 1e-6)
    }

    func test_manySprings_sharedAndOwn_matchTheFormula() throws {
        // 40 layers: the first 20 share one spring (one timing entry), the next 20 each have
        // their own stiffness; evaluated over several frames after they started.
        let root = CALayer()
        let layers = (0..<40).map { _ in CALayer() }
        withActionsDisabled { for l in layers { root.addSublayer(l) } }
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        inTransaction {
            for (i, l) in layers.enumerated() {
                let k = i < 20 ? 100 : 60 + 7 * Double(i)
                l.add(spring("position.x", from: 0, to: 10 + Double(i), duration: 5, stiffness: CGFloat(k), damping: 3),
                      forKey: "s")
            }
        }
        for t in [0.0, 1.0 / 60, 0.1, 0.37, 1.2, 4.9] {
            renderer.renderFrame(atTime: t)
            for (i, l) in layers.enumerated() {
                let k = i < 20 ? 100 : 60 + 7 * Double(i)
                let x = Double(try XCTUnwrap(l.presentation()).position.x)
                XCTAssertEqual(x, (10 + Double(i)) * expected(t, stiffness: k, damping: 3), accuracy: 1e-6, "layer \(i), t = \(t)")
            }
        }
    }

    func test_springAsAnAction_startsFromTheOldValue() throws {
        let delegate = ClosureLayerDelegate { _, key in
            guard key == "position" else { return nil }
            let s = CASpringAnimation()
            s.damping = 12
            s.duration = 2
            return s
        }
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 0, y: 0) }
        scene.layer.delegate = delegate
        inTransaction { scene.layer.position = CGPoint(x: 200, y: 100) }
        for t in [0.1, 0.4] {
            scene.frame(at: t)
            let p = expected(t, damping: 12)
            assertPoint(try scene.presented().position, 200 * p, 100 * p, "t = \(t)")
        }
        XCTAssertTrue(scene.layer.animation(forKey: "position") is CASpringAnimation)
    }

    func test_settlingDuration_isWhereTheEnvelopeFallsBelowAThousandth() {
        // Under-damped: exp(-zeta w0 t) sqrt(1 + B^2) = 0.001.
        let s = CASpringAnimation()
        let zw = 5.0, wd = 10 * sqrt(0.75), b = zw / wd
        XCTAssertEqual(s.settlingDuration, log(1000 * sqrt(1 + b * b)) / zw, accuracy: 1e-3)
        // Critically damped: (1 + w0 t) exp(-w0 t) = 0.001 with w0 = 10.
        s.damping = 20
        let settle = s.settlingDuration
        XCTAssertEqual((1 + 10 * settle) * exp(-10 * settle), 1e-3, accuracy: 1e-6)
        // No damping never settles.
        s.damping = 0
        XCTAssertEqual(s.settlingDuration, .infinity)
        // Stiffer springs settle sooner.
        s.damping = 10
        s.stiffness = 400
        XCTAssertLessThan(s.settlingDuration, CASpringAnimation().settlingDuration)
    }

    func test_copy_keepsTheSpring() throws {
        let s = spring("opacity", from: 0, to: 1, mass: 3, stiffness: 70, damping: 2, velocity: 4)
        let c = try XCTUnwrap(s.copy() as? CASpringAnimation)
        XCTAssertEqual([c.mass, c.stiffness, c.damping, c.initialVelocity], [3, 70, 2, 4])
        XCTAssertEqual(c.keyPath, "opacity")
    }

    func test_perceptualDurationAndBounce() {
        let s = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.2)
        XCTAssertEqual(Double(s.stiffness), pow(2 * Double.pi / 0.5, 2), accuracy: 1e-9)
        XCTAssertEqual(Double(s.damping), 4 * Double.pi * 0.8 / 0.5, accuracy: 1e-9)
        XCTAssertEqual(s.mass, 1)
    }

    func test_badParameters_areRefusedWithADiagnostic() {
        let scene = Scene(CALayer())
        for (mass, stiffness, damping) in [(0.0, 100.0, 10.0), (1, -5, 10), (1, 100, -1), (.nan, 100, 10), (1, 100, .infinity)] {
            let diagnostics = StrataDiagnostics.capture {
                inTransaction {
                    scene.layer.add(spring("opacity", from: 0, to: 1, mass: CGFloat(mass), stiffness: CGFloat(stiffness),
                                           damping: CGFloat(damping)), forKey: "bad")
                }
            }
            XCTAssertEqual(diagnostics.count, 1, "\(mass), \(stiffness), \(damping)")
            XCTAssertNil(scene.layer.animation(forKey: "bad"), "not added")
        }
        scene.frame(at: 0.5)
        XCTAssertEqual(scene.layer.presentation()?.opacity, 1, "nothing changed")
    }
}
