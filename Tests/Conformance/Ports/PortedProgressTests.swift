import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

// The ported code is in ProgressPorts.swift, which imports the engine alone.

final class PortedProgressTests: XCTestCase {
    func test_thePortingArticlesManagedPropertyExampleWorksAsWritten() throws {
        let ring = RingLayer()
        XCTAssertEqual(ring.progress, 0, "defaultValue(forKey:)")
        let renderer = CARenderer(layer: ring)
        renderer.renderFrame(atTime: 0)
        let fill = CABasicAnimation(keyPath: "progress")
        fill.fromValue = CGFloat(0)
        fill.toValue = CGFloat(1)
        fill.duration = 1
        CATransaction.begin()
        ring.progress = 1
        ring.add(fill, forKey: "fill")
        CATransaction.commit()
        renderer.renderFrame(atTime: 0.5)
        XCTAssertEqual(Double(try XCTUnwrap(ring.presentation()).progress), 0.5, accuracy: 1e-9)
        XCTAssertEqual(Double(try XCTUnwrap(ring.drawn.last)), 0.5, accuracy: 1e-9, "draw(in:) ran on the presentation copy")
        XCTAssertEqual(ring.progress, 1)
    }

    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    func test_ringProgress_animatesItsManagedKeyImplicitlyAndRedrawsEachFrame() throws {
        let ring = RingProgressLayer()
        ring.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let renderer = CARenderer(layer: ring)
        let diagnostics = StrataDiagnostics.capture {
            renderer.renderFrame(atTime: 0)
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            ring.progress = 1
            CATransaction.commit()
            for t in [0.25, 0.5] { renderer.renderFrame(atTime: t) }
        }
        XCTAssertEqual(diagnostics.map(\.message), [])
        XCTAssertEqual(ring.progress, 1, "the model at once")
        XCTAssertEqual(animationKeys(of: ring), ["progress"], "the re-targeted opacity action")
        XCTAssertEqual(Double(try XCTUnwrap(ring.presentation()).progress), 0.5, accuracy: 1e-9)
        let drawn = ring.drawnProgress.suffix(2).map { Double($0) }
        XCTAssertEqual(drawn.count, 2)
        for (d, e) in zip(drawn, [0.25, 0.5]) { XCTAssertEqual(d, e, accuracy: 1e-9, "the presentation draws each frame") }
        let drawing = try XCTUnwrap(ring.presentationDrawing)
        let arc = CGMutablePath()
        arc.addArc(center: CGPoint(x: 50, y: 50), radius: 40, startAngle: -.pi / 2, endAngle: -.pi / 2 + .pi, clockwise: false)
        XCTAssertEqual(drawing.operations, [.setLineWidth(20), .setLineCap(.round), .addPath(arc.elements), .strokePath])
    }

    func test_circularProgress_copiesItsStateAndPausesWhereItStands() throws {
        let progress = CircularProgress()
        let layer = progress.progressLayer
        layer.radius = 80
        layer.glowAmount = 0.3
        layer.colorsArray = [.red, .blue]
        let renderer = CARenderer(layer: layer)
        renderer.renderFrame(atTime: 0)
        let diagnostics = StrataDiagnostics.capture {
            inTransaction { progress.animate(fromAngle: 0, toAngle: 360, duration: 2) }
            renderer.renderFrame(atTime: 1)
        }
        XCTAssertEqual(diagnostics.map(\.message), [])
        let p = try XCTUnwrap(layer.presentation())
        XCTAssertEqual(p.angle, 180, accuracy: 1e-9, "linear (no timing function): half-way at 1 s of 2")
        XCTAssertEqual(p.radius, 80, "init(layer:) copied the stored properties")
        XCTAssertEqual(p.glowAmount, 0.3)
        XCTAssertEqual(p.colorsArray.count, 2)
        XCTAssertEqual(layer.angle, 360)
        progress.pauseAnimation()
        XCTAssertEqual(layer.angle, 180, accuracy: 1e-9, "the model takes the presented angle")
        XCTAssertEqual(animationKeys(of: layer), [])
        renderer.renderFrame(atTime: 1.5)
        XCTAssertEqual(try XCTUnwrap(layer.presentation()).angle, 180, accuracy: 1e-9, "and stays there")
        XCTAssertEqual(progress.completions, [false], "removed before it finished")
    }

    func test_pieSlices_takeTheTransactionsDurationAndStartFromWhatIsShown() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        let renderer = CARenderer(layer: root)
        let slices = [PieSliceLayer(), PieSliceLayer()]
        let start = 3 * Double.pi / 2
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for s in slices {
            s.startAngle = start
            s.endAngle = start
            root.addSublayer(s)
        }
        CATransaction.commit()
        renderer.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        slices[0].createArcAnimation(forKey: "endAngle", fromValue: start, toValue: start + .pi)
        slices[1].createArcAnimation(forKey: "startAngle", fromValue: start, toValue: start + .pi)
        slices[1].createArcAnimation(forKey: "endAngle", fromValue: start, toValue: start + 2 * .pi)
        CATransaction.commit()
        renderer.renderFrame(atTime: 0.25)
        let eased = ReferenceCurve.caDefault.progress(atFraction: 0.5)
        let p0 = try XCTUnwrap(slices[0].presentation()), p1 = try XCTUnwrap(slices[1].presentation())
        XCTAssertEqual(p0.endAngle, start + .pi * eased, accuracy: 1e-6, "0.5 s from the transaction; the default curve")
        XCTAssertEqual(p1.startAngle, start + .pi * eased, accuracy: 1e-6)
        XCTAssertEqual(p1.endAngle, start + 2 * .pi * eased, accuracy: 1e-6)
        renderer.renderFrame(atTime: 0.6)
        XCTAssertEqual(try XCTUnwrap(slices[0].presentation()).endAngle, start + .pi, accuracy: 1e-12, "over: the model's")
        XCTAssertEqual(animationKeys(of: slices[1]), [])
    }
}
