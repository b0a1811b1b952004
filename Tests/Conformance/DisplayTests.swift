import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// A layer subclass that draws a bar of its `level` (a key it displays for).
private final class BarLayer: CALayer {
    var draws: [CGFloat] = []

    var level: CGFloat {
        get { (value(forKey: "level") as? CGFloat) ?? 0 }
        set { setValue(newValue, forKey: "level") }
    }

    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "level" || super.needsDisplay(forKey: key)
    }

    override func draw(in ctx: CGContext) {
        model().draws.append(level)
        ctx.setFillColor(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * level, height: bounds.height))
    }
}

/// A layer subclass that displays for a built-in key: it draws at its opacity.
private final class FadeLayer: CALayer {
    var draws: [Float] = []
    override init() { super.init() }
    override init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { super.init(coder: coder) }
    override class func needsDisplay(forKey key: String) -> Bool {
        key == "opacity" || super.needsDisplay(forKey: key)
    }
    override func draw(in ctx: CGContext) { (model() as FadeLayer).draws.append(opacity) }
}

private final class DrawingDelegate: NSObject, CALayerDelegate {
    var drawn = 0, willDraw = 0
    func draw(_ layer: CALayer, in ctx: CGContext) {
        drawn += 1
        ctx.addRect(CGRect(x: 1, y: 2, width: 3, height: 4))
        ctx.strokePath()
    }
    func layerWillDraw(_ layer: CALayer) { willDraw += 1 }
}

private final class DisplayingDelegate: NSObject, CALayerDelegate {
    var displayed = 0
    func display(_ layer: CALayer) {
        displayed += 1
        layer.contents = "image"
    }
}

/// setNeedsDisplay / display / draw(in:) as Core Animation calls them: at the commit, once
/// per marked layer; the delegate's display(_:) or draw(_:in:); needsDisplay(forKey:) and
/// needsDisplayOnBoundsChange; the presentation copy drawing each frame of an animation of a
/// displayed key.
final class DisplayTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    func test_setNeedsDisplay_drawsAtTheCommit_throughTheDelegate() throws {
        let layer = CALayer(), delegate = DrawingDelegate()
        layer.delegate = delegate
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 20)
        layer.contentsScale = 2
        CATransaction.flush()   // the implicit transaction those opened: a later commit is the outermost
        CATransaction.begin()
        layer.setNeedsDisplay()
        layer.setNeedsDisplay()
        XCTAssertTrue(layer.needsDisplay())
        XCTAssertEqual(delegate.drawn, 0, "not before the commit")
        CATransaction.commit()
        XCTAssertEqual(delegate.drawn, 1, "once, however often it was marked")
        XCTAssertEqual(delegate.willDraw, 1)
        XCTAssertFalse(layer.needsDisplay())
        let ctx = try XCTUnwrap(layer.contents as? CGContext, "the drawing is the contents")
        XCTAssertEqual(ctx.size, CGSize(width: 30, height: 20))
        XCTAssertEqual(ctx.scale, 2)
        XCTAssertEqual(ctx.operations.last, .strokePath)
        XCTAssertNil(layer.animation(forKey: "contents"), "a layer's own drawing does not animate")
    }

    func test_delegateDisplay_takesOver() {
        let layer = CALayer(), delegate = DisplayingDelegate()
        layer.delegate = delegate
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertEqual(delegate.displayed, 1)
        XCTAssertEqual(layer.contents as? String, "image")
    }

    func test_displayIfNeeded_displaysNow() {
        let layer = BarLayer()
        layer.level = 0.5
        CATransaction.flush()
        let before = layer.draws.count
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        XCTAssertEqual(layer.draws.count, before + 1)
        layer.displayIfNeeded()
        XCTAssertEqual(layer.draws.count, before + 1, "no longer marked")
    }

    func test_needsDisplayForKey_andOnBoundsChange_markTheLayer() {
        let bar = BarLayer()
        CATransaction.flush()
        bar.draws = []
        bar.level = 0.25
        CATransaction.flush()
        XCTAssertEqual(bar.draws, [0.25], "a displayed key changed: drawn at the commit")
        bar.cornerRadius = 3
        CATransaction.flush()
        XCTAssertEqual(bar.draws, [0.25], "other keys do not redraw")

        let plain = CALayer(), delegate = DrawingDelegate()
        plain.delegate = delegate
        plain.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        CATransaction.flush()
        XCTAssertEqual(delegate.drawn, 0)
        plain.needsDisplayOnBoundsChange = true
        plain.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        CATransaction.flush()
        XCTAssertEqual(delegate.drawn, 1)
        plain.position = CGPoint(x: 5, y: 5)
        CATransaction.flush()
        XCTAssertEqual(delegate.drawn, 1)
    }

    /// `layer` with `bounds` (no animation) under a new root, and a renderer of that root
    /// (which holds it) after its first frame at time 0.
    private func renderedUnderARoot(_ layer: CALayer, bounds: CGRect) -> CARenderer {
        let root = CALayer()
        withActionsDisabled {
            layer.bounds = bounds
            root.addSublayer(layer)
        }
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        return renderer
    }

    func test_animatingADisplayedKey_drawsThePresentationEachFrame() throws {
        let bar = BarLayer()
        let renderer = renderedUnderARoot(bar, bounds: CGRect(x: 0, y: 0, width: 100, height: 10))
        bar.draws = []
        let a = CABasicAnimation(keyPath: "level")
        a.fromValue = CGFloat(0)
        a.toValue = CGFloat(1)
        a.duration = 1
        inTransaction { bar.add(a, forKey: "grow") }
        renderer.renderFrame(atTime: 0.25)
        renderer.renderFrame(atTime: 0.5)
        XCTAssertEqual(bar.draws.count, 2)
        XCTAssertEqual(Double(bar.draws[0]), 0.25, accuracy: 1e-9)
        XCTAssertEqual(Double(bar.draws[1]), 0.5, accuracy: 1e-9)
        let drawing = try XCTUnwrap(bar.presentationDrawing)
        XCTAssertEqual(drawing.operations.last, .fill(CGRect(x: 0, y: 0, width: 50, height: 10)))
        renderer.renderFrame(atTime: 1.5)
        renderer.renderFrame(atTime: 2)
        XCTAssertEqual(bar.draws.count, 3, "drawn once more at the frame the animation ended, then no more")
    }

    func test_implicitAnimationOfADisplayedBuiltInKey_drawsThePresentationEachFrame() {
        let fade = FadeLayer()
        let renderer = renderedUnderARoot(fade, bounds: CGRect(x: 0, y: 0, width: 10, height: 10))
        fade.draws = []
        inTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            fade.opacity = 0
        }
        XCTAssertEqual(fade.draws, [0], "marked by the change: the model layer draws at the commit")
        renderer.renderFrame(atTime: 0.25)
        renderer.renderFrame(atTime: 0.5)
        XCTAssertEqual(fade.draws.count, 3, "then the presentation each frame of the implicit animation")
        XCTAssertEqual(Double(fade.draws[1]), 0.75, accuracy: 1e-6)
        XCTAssertEqual(Double(fade.draws[2]), 0.5, accuracy: 1e-6)
        renderer.renderFrame(atTime: 1.5)
        renderer.renderFrame(atTime: 2)
        XCTAssertEqual(fade.draws.count, 4, "once more at the frame it ended, then no more")
    }

    // MARK: render(in:)

    func test_renderIn_drawsTheTreeFromItsModelValuesInCompositingOrder() {
        let root = CALayer(), bar = BarLayer(), shape = CAShapeLayer(), hidden = CALayer(), tilted = CALayer()
        withActionsDisabled {
            root.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
            root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            root.borderWidth = 2
            root.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            bar.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
            bar.position = CGPoint(x: 30, y: 15)
            bar.level = 0.5
            bar.opacity = 0.5
            shape.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            shape.position = CGPoint(x: 5, y: 5)
            shape.zPosition = -1
            let line = CGMutablePath()
            line.move(to: .zero)
            line.addLine(to: CGPoint(x: 10, y: 0))
            shape.path = line
            shape.fillColor = nil
            shape.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            shape.lineWidth = 3
            shape.strokeEnd = 0.25
            hidden.isHidden = true
            hidden.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            tilted.transform = CATransform3DMakeRotation(0.5, 1, 0, 0)
            tilted.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            for l in [bar, shape, hidden, tilted] { root.addSublayer(l) }
        }
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)   // the commit displays the bar: its recorded contents
        inTransaction(duration: 1) { root.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1) }
        renderer.renderFrame(atTime: 0.5)
        let ctx = CGContext(size: CGSize(width: 100, height: 50))
        root.render(in: ctx)
        let rect = { (r: CGRect) in CGPath(rect: r, transform: nil).elements }
        XCTAssertEqual(ctx.operations, [
            .saveGState,
            // The model's background (green), not the animated one.
            .setFillColor([0, 1, 0, 1]), .addPath(rect(CGRect(x: 0, y: 0, width: 100, height: 50))), .fillPath(evenOdd: false),
            // Sublayers by zPosition: the shape (z -1) first, moved so its anchor sits at its position.
            .saveGState, .concatenate(CGAffineTransform(translationX: 5, y: 5)), .concatenate(CGAffineTransform(translationX: -5, y: -5)),
            .saveGState,
            .setStrokeColor([1, 0, 0, 1]), .setLineWidth(3), .setLineCap(.butt), .setLineJoin(.miter),
            .addPath([.moveTo(.zero), .addLine(CGPoint(x: 2.5, y: 0))]), .strokePath,   // strokeEnd 0.25
            .restoreGState, .restoreGState,
            // The bar at half opacity, its recorded drawing in its bounds.
            .saveGState, .concatenate(CGAffineTransform(translationX: 30, y: 15)), .concatenate(CGAffineTransform(translationX: -10, y: -5)),
            .saveGState, .setAlpha(0.5),
            .saveGState, .concatenate(CGAffineTransform(translationX: 0, y: 0)),
            .saveGState, .setFillColor([0, 1, 0, 1]), .fill(CGRect(x: 0, y: 0, width: 10, height: 10)), .restoreGState,
            .restoreGState,
            .restoreGState, .restoreGState,
            // No hidden layer, no layer with a 3-D transform; then the border, above the sublayers.
            .setStrokeColor([0, 0, 0, 1]), .setLineWidth(2), .addPath(rect(CGRect(x: 1, y: 1, width: 98, height: 48))), .strokePath,
            .restoreGState,
        ])
    }
}

