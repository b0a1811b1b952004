import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

// The ported code is in IndicatorPorts.swift, which imports the engine alone.

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
