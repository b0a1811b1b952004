import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

// Ported patterns: layers with animatable state of their own, as progress rings and charts
// write them (MKRingProgressView, KDCircularProgress, XYPieChart; MIT), written anew:
// - an `@NSManaged var progress` becomes a computed property over `value(forKey:)` and
//   `setValue(_:forKey:)` (the porting article's replacement), redrawn through
//   `needsDisplay(forKey:)`, animated implicitly by an `action(forKey:)` override that
//   re-targets the action `super` finds for `opacity`;
// - a layer that copies its fourteen stored properties in `init(layer:)`, whose `angle`
//   animation is paused by reading the presentation and writing it to the model;
// - pie slices whose animations leave `duration` at 0 and take the transaction's.

private final class RingProgressLayer: CALayer {
    // `@NSManaged var progress: CGFloat` on Apple's platforms.
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }
    var ringWidth: CGFloat = 20
    var drawnProgress: [CGFloat] = []

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }

    override func action(forKey event: String) -> CAAction? {
        guard event == "progress" else { return super.action(forKey: event) }
        if let template = super.action(forKey: "opacity") as? CABasicAnimation,
           let animation = template.copy() as? CABasicAnimation {
            animation.keyPath = "progress"
            animation.fromValue = presentation()?.value(forKey: "progress") ?? progress
            animation.toValue = nil
            return animation
        }
        let animation = CABasicAnimation(keyPath: "progress")
        animation.duration = 0.001
        return animation
    }

    override func draw(in ctx: CGContext) {
        model().drawnProgress.append(progress)
        ctx.setLineWidth(ringWidth)
        ctx.setLineCap(.round)
        ctx.addArc(center: CGPoint(x: bounds.midX, y: bounds.midY), radius: bounds.width / 2 - ringWidth / 2,
                   startAngle: -.pi / 2, endAngle: -.pi / 2 + 2 * .pi * progress, clockwise: false)
        ctx.strokePath()
    }
}

private final class CircularProgressLayer: CALayer {
    var angle: Double {
        get { value(forKey: "angle") as? Double ?? 0 }
        set { setValue(newValue, forKey: "angle") }
    }
    var startAngle: CGFloat = 0
    var clockwise = true
    var roundedCorners = true
    var lerpColorMode = false
    var gradientRotateSpeed: CGFloat = 0
    var glowAmount: CGFloat = 1
    var glowMode = 0
    var progressThickness: CGFloat = 0.5
    var trackThickness: CGFloat = 0.5
    var trackColor = UIColor.black
    var progressInsideFillColor = UIColor.clear
    var colorsArray: [UIColor] = []
    var radius: CGFloat = 50

    override init() { super.init() }

    override init(layer: Any) {
        super.init(layer: layer)
        guard let l = layer as? CircularProgressLayer else { return }
        startAngle = l.startAngle
        clockwise = l.clockwise
        roundedCorners = l.roundedCorners
        lerpColorMode = l.lerpColorMode
        gradientRotateSpeed = l.gradientRotateSpeed
        glowAmount = l.glowAmount
        glowMode = l.glowMode
        progressThickness = l.progressThickness
        trackThickness = l.trackThickness
        trackColor = l.trackColor
        colorsArray = l.colorsArray
        progressInsideFillColor = l.progressInsideFillColor
        radius = l.radius
        angle = l.angle
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "angle" || super.needsDisplay(forKey: key)
    }
}

/// The view-side code: animate to an angle, pause where it stands.
private final class CircularProgress: NSObject, CAAnimationDelegate {
    let progressLayer = CircularProgressLayer()
    var completions: [Bool] = []

    func animate(fromAngle: Double, toAngle: Double, duration: TimeInterval) {
        progressLayer.removeAllAnimations()
        let animation = CABasicAnimation(keyPath: "angle")
        animation.fromValue = fromAngle
        animation.toValue = toAngle
        animation.duration = duration
        animation.delegate = self
        animation.isRemovedOnCompletion = false
        progressLayer.angle = toAngle
        progressLayer.add(animation, forKey: "angle")
    }

    func pauseAnimation() {
        guard let presentation = progressLayer.presentation() else { return }
        let current = presentation.angle
        progressLayer.removeAllAnimations()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        progressLayer.angle = current
        CATransaction.commit()
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { completions.append(flag) }
}

private final class PieSliceLayer: CAShapeLayer {
    var startAngle: Double {
        get { value(forKey: "startAngle") as? Double ?? 0 }
        set { setValue(newValue, forKey: "startAngle") }
    }
    var endAngle: Double {
        get { value(forKey: "endAngle") as? Double ?? 0 }
        set { setValue(newValue, forKey: "endAngle") }
    }

    override init() { super.init() }
    override init(layer: Any) {
        super.init(layer: layer)
        if let slice = layer as? PieSliceLayer {
            startAngle = slice.startAngle
            endAngle = slice.endAngle
        }
    }
    required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "startAngle" || key == "endAngle" || super.needsDisplay(forKey: key)
    }

    func createArcAnimation(forKey key: String, fromValue: Double, toValue: Double) {
        let from = presentation()?.value(forKey: key) ?? fromValue
        let arc = CABasicAnimation(keyPath: key)
        arc.fromValue = from
        arc.toValue = toValue
        arc.timingFunction = CAMediaTimingFunction(name: kCAMediaTimingFunctionDefault)
        add(arc, forKey: key)
        setValue(toValue, forKey: key)
    }
}

/// The porting article's example of an `@NSManaged` property written for Linux, as it stands
/// there (PortingFromQuartzCore.md, "Edits only Linux asks for").
private final class RingLayer: CALayer {
    // On Apple's platforms: @NSManaged var progress: CGFloat
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }
    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }
    override class func defaultValue(forKey key: String) -> Any? {
        key == "progress" ? CGFloat(0) : super.defaultValue(forKey: key)
    }
    var drawn: [CGFloat] = []
    override func draw(in ctx: CGContext) { model().drawn.append(progress) }
}

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
