import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

// The ported code is in EffectsPorts.swift, which imports the engine alone.

final class PortedEffectsTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    func test_pulseHalo_scalesAndFadesEachCopyOneDelayLater() throws {
        let halo = PulseHalo()
        let root = CALayer()
        withActionsDisabled {
            root.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
            halo.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
            halo.position = CGPoint(x: 200, y: 200)
            halo.numPulse = 3
            root.addSublayer(halo)
        }
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        XCTAssertEqual(halo.instanceCount, 3)
        XCTAssertEqual(halo.instanceDelay, 1, accuracy: 1e-12)
        XCTAssertEqual(halo.repeatCount, .greatestFiniteMagnitude, "MAXFLOAT, as Darwin's math.h has it")
        inTransaction { halo.start() }
        renderer.renderFrame(atTime: 2.5)
        // The group's default curve warps its children's time; opacity's keyframes 0.45, 0.225, 0
        // at 0, 0.2, 1.
        func expected(_ t: Double) -> (scale: Double, opacity: Double) {
            let e = ReferenceCurve.caDefault.progress(atFraction: t / 3)
            return (e, e < 0.2 ? lerp(0.45, 0.225, e / 0.2) : lerp(0.225, 0, (e - 0.2) / 0.8))
        }
        let dot = try XCTUnwrap(halo.dot.presentation())
        XCTAssertEqual(Double(dot.value(forKeyPath: "transform.scale.x") as? CGFloat ?? .nan), expected(2.5).scale, accuracy: 1e-6)
        XCTAssertEqual(Double(dot.value(forKeyPath: "transform.scale.y") as? CGFloat ?? .nan), expected(2.5).scale, accuracy: 1e-6)
        XCTAssertEqual(Double(dot.opacity), expected(2.5).opacity, accuracy: 1e-6)
        // The render snapshot draws the three copies, each a delay earlier.
        let s = renderer.snapshot()
        let items = (0..<s.count).filter { s.layer(at: $0) === halo.dot }
        XCTAssertEqual(items.count, 3)
        for (k, i) in items.enumerated() {
            XCTAssertEqual(Double(s.opacities[i]), expected(2.5 - Double(k)).opacity, accuracy: 1e-5, "copy \(k)")
        }
    }

    func test_skeleton_slidesItsGradientAndPulsesItsColour() throws {
        let gradient = CAGradientLayer()
        let scene = Scene(gradient) {
            $0.colors = [UIColor(white: 0.8, alpha: 1).cgColor, UIColor(white: 0.9, alpha: 1).cgColor, UIColor(white: 0.8, alpha: 1).cgColor]
            $0.backgroundColor = UIColor(white: 0.2, alpha: 1).cgColor
        }
        inTransaction {
            SkeletonGradient.slide(gradient)
            SkeletonGradient.pulse(gradient, to: UIColor(white: 0.8, alpha: 1))
        }
        for t in [0.75, 1.5 * 4 + 0.75] {
            scene.frame(at: t)
            let e = ReferenceCurve.easeIn.progress(atFraction: 0.5)
            let p = try scene.presented()
            assertPoint(p.startPoint, -1 + 2 * e, 0.5, "at \(t)", accuracy: 1e-6)
            assertPoint(p.endPoint, 2 * e, 0.5, "at \(t)", accuracy: 1e-6)
        }
        scene.frame(at: 1.25)
        // Autoreversing: 0.25 s into the way back is 0.75 of the way there.
        let grey = lerp(0.2, 0.8, ReferenceCurve.easeInEaseOut.progress(atFraction: 0.75))
        assertColor(try scene.presented().backgroundColor, [grey, grey, grey, 1], "autoreversing", accuracy: 1e-6)
    }

    func test_marquee_pausesWhereItIsAndResumesFromThere() throws {
        let marquee = Marquee()
        let scene = Scene(marquee.textLayer) { $0.position = CGPoint(x: 100, y: 20) }
        marquee.scroll(from: CGPoint(x: 100, y: 20), away: CGPoint(x: -300, y: 20), delay: 1, duration: 7)
        scene.frame(at: 4.5)
        assertPoint(try scene.presented().position, 100 - 400 * 3.5 / 7, 20, "half-way through the 7 s scroll after 1 s at home")
        marquee.pause()
        for t in [5.0, 9.0] {
            scene.frame(at: t)
            assertPoint(try scene.presented().position, -100, 20, "paused at \(t)")
        }
        marquee.resume()
        scene.frame(at: 10)
        assertPoint(try scene.presented().position, 100 - 400 * 4.5 / 7, 20, "resumed: 1 s on from where it stopped")
    }

    func test_burstRing_morphsItsArcAndWidensThenNarrows() throws {
        let burst = BurstRing()
        let scene = Scene(burst.ring)
        // The ring was made (lineWidth 1 -> 0 and its path set: implicit animations) long before
        // the tap.
        scene.frame(at: 1)
        inTransaction { burst.burst(expand: 0.2, collapse: 0.1) }
        scene.frame(at: 1.1)
        let e = ReferenceCurve.easeOut.progress(atFraction: 0.5)
        let p = try scene.presented()
        XCTAssertEqual(Double(p.lineWidth), 6 * e, accuracy: 1e-6)
        // Same elements at both radii: the path interpolates point by point; the arc's first
        // point sits at (centre + radius, centre).
        let shown = try XCTUnwrap(p.path)
        guard case let .moveTo(start)? = shown.elements.first else { return XCTFail("a move first") }
        XCTAssertEqual(Double(start.x), 20 + lerp(0.01, 20, e), accuracy: 1e-6)
        scene.frame(at: 1.25)
        XCTAssertEqual(Double(try scene.presented().lineWidth), 3, accuracy: 1e-9, "the later animation, begun at 1.2, wins")
        scene.frame(at: 1.5)
        XCTAssertEqual(Double(try scene.presented().lineWidth), 0, accuracy: 1e-9, "held at its end")
        let held = try XCTUnwrap(try scene.presented().path).boundingBoxOfPath
        XCTAssertEqual(Double(held.width), 40, accuracy: 1e-6, "the grown arc held")
    }

    func test_shrinkButton_commitsTheImplicitTransactionsCompletionBlock() throws {
        let button = ShrinkButton()
        let scene = Scene(button.layer) { $0.bounds = CGRect(x: 0, y: 0, width: 200, height: 40) }
        withActionsDisabled { scene.root.addSublayer(button.spinner) }
        scene.frame(at: 0)
        // `commit()` with only the implicit transaction open: the engine's chosen rule
        // (SEMANTICS.md) leaves that transaction to the end of the turn, with a diagnostic; the
        // frame at the same time commits it, as the run loop's end would.
        let diagnostics = StrataDiagnostics.capture { button.startAnimation(width: 200, height: 40) }
        XCTAssertEqual(diagnostics.map(\.code), [.unbalancedCommit])
        scene.frame(at: 0)
        scene.frame(at: 0.05)
        XCTAssertEqual(Double(try scene.presented().bounds.width), lerp(200, 40, ReferenceCurve.easeInEaseOut.progress(atFraction: 0.5)),
                       accuracy: 1e-6)
        XCTAssertEqual(Double(try XCTUnwrap(button.spinner.presentation()).value(forKeyPath: "transform.rotation.z") as? CGFloat ?? .nan),
                       2 * .pi * 0.05 / 0.4, accuracy: 1e-9)
        scene.frame(at: 0.2)
        XCTAssertEqual(Double(try scene.presented().bounds.width), 40, accuracy: 1e-12, "held")
        XCTAssertEqual(button.finished, 0, "the spinner repeats: the transaction is not complete")
        button.spinner.removeAllAnimations()
        scene.frame(at: 0.3)
        XCTAssertEqual(button.finished, 1, "all its animations done or removed")
    }
}
