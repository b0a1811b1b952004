import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// CAGradientLayer, CATextLayer, CAReplicatorLayer, CATransformLayer and the rest of
/// CALayer's and CAShapeLayer's properties: Apple's defaults, model and presentation values,
/// implicit and explicit animation of the animatable ones (element by element for arrays),
/// and no animation for the others.
final class LayerClassesTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private func rgba(_ c: Any?) -> [Double] { ((c as? CGColor)?.components ?? []).map { Double($0) } }

    func test_gradient_defaults() {
        let g = CAGradientLayer()
        XCTAssertNil(g.colors)
        XCTAssertNil(g.locations)
        XCTAssertEqual(g.startPoint, CGPoint(x: 0.5, y: 0))
        XCTAssertEqual(g.endPoint, CGPoint(x: 0.5, y: 1))
        XCTAssertEqual(g.type, .axial)
        XCTAssertEqual(CAGradientLayerType.conic.rawValue, "conic")
    }

    func test_gradient_colorsAndLocations_animateImplicitly_elementByElement() throws {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let scene = Scene(CAGradientLayer()) {
            $0.colors = [red, blue]
            $0.locations = [0, 1]
        }
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        scene.layer.colors = [green, red]
        scene.layer.locations = [0.2, 0.6]
        scene.layer.startPoint = CGPoint(x: 0, y: 0.5)
        CATransaction.commit()
        XCTAssertEqual(scene.layer.colors?.count, 2, "the model holds the new colours at once")
        XCTAssertEqual(rgba(scene.layer.colors?[0]), [0, 1, 0, 1])
        scene.frame(at: 0.25)
        let p = try scene.presented()
        let colors = try XCTUnwrap(p.colors)
        XCTAssertEqual(colors.count, 2)
        for (a, b) in zip(rgba(colors[0]), [0.75, 0.25, 0, 1]) { XCTAssertEqual(a, b, accuracy: 1e-9) }
        for (a, b) in zip(rgba(colors[1]), [0.25, 0, 0.75, 1]) { XCTAssertEqual(a, b, accuracy: 1e-9) }
        let locations = try XCTUnwrap(p.locations).map(\.doubleValue)
        XCTAssertEqual(locations[0], 0.05, accuracy: 1e-9)
        XCTAssertEqual(locations[1], 0.9, accuracy: 1e-9)
        XCTAssertEqual(p.startPoint.x, 0.375, accuracy: 1e-9)
        XCTAssertEqual(p.startPoint.y, 0.125, accuracy: 1e-9)
        scene.frame(at: 1.5)
        XCTAssertEqual(rgba(try scene.presented().colors?[1]), [1, 0, 0, 1])
    }

    func test_gradient_explicitAnimationOfColors() throws {
        let a = [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 1)]
        let b = [CGColor(red: 1, green: 1, blue: 1, alpha: 1), CGColor(red: 0, green: 0, blue: 0, alpha: 1)]
        let scene = Scene(CAGradientLayer()) { $0.colors = a }
        let anim = CABasicAnimation(keyPath: "colors")
        anim.fromValue = a
        anim.toValue = b
        anim.duration = 2
        inTransaction { scene.layer.add(anim, forKey: "swap") }
        scene.frame(at: 0.5)
        let c = try XCTUnwrap(try scene.presented().colors)
        XCTAssertEqual(rgba(c[0])[0], 0.25, accuracy: 1e-9)
        XCTAssertEqual(rgba(c[1])[0], 0.75, accuracy: 1e-9)
    }

    func test_gradient_typeDoesNotAnimate() throws {
        let scene = Scene(CAGradientLayer())
        inTransaction(duration: 1) { scene.layer.type = .radial }
        XCTAssertNil(scene.layer.animation(forKey: "type"))
        scene.frame(at: 0.5)
        XCTAssertEqual(try scene.presented().type, .radial)
    }

    func test_text_defaultsAndAnimation() throws {
        let t = CATextLayer()
        XCTAssertEqual(t.fontSize, 36)
        XCTAssertEqual(rgba(t.foregroundColor), [1, 1, 1, 1])
        XCTAssertFalse(t.isWrapped)
        XCTAssertEqual(t.alignmentMode, .natural)
        XCTAssertEqual(t.truncationMode, CATextLayerTruncationMode.none)
        XCTAssertNil(t.string)
        let scene = Scene(CATextLayer()) { $0.string = "Hello"; $0.fontSize = 12 }
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        scene.layer.fontSize = 20
        scene.layer.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        scene.layer.string = "World"
        scene.layer.alignmentMode = .center
        scene.layer.isWrapped = true
        CATransaction.commit()
        scene.frame(at: 0.5)
        let p = try scene.presented()
        XCTAssertEqual(p.fontSize, 16, accuracy: 1e-9)
        for (a, b) in zip(rgba(p.foregroundColor), [0.5, 0.5, 0.5, 1]) { XCTAssertEqual(a, b, accuracy: 1e-9) }
        XCTAssertEqual(p.string as? String, "World", "strings do not animate")
        XCTAssertEqual(p.alignmentMode, .center)
        XCTAssertTrue(p.isWrapped)
        XCTAssertNil(scene.layer.animation(forKey: "string"))
    }

    func test_replicator_defaultsAndAnimatableProperties() throws {
        let r = CAReplicatorLayer()
        XCTAssertEqual(r.instanceCount, 1)
        XCTAssertEqual(r.instanceDelay, 0)
        XCTAssertTrue(CATransform3DIsIdentity(r.instanceTransform))
        XCTAssertEqual(rgba(r.instanceColor), [1, 1, 1, 1])
        XCTAssertEqual(r.instanceRedOffset, 0)
        let scene = Scene(CAReplicatorLayer()) { $0.instanceCount = 3 }
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        scene.layer.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        scene.layer.instanceAlphaOffset = -0.2
        scene.layer.instanceDelay = 0.5
        CATransaction.commit()
        scene.frame(at: 0.5)
        let p = try scene.presented()
        XCTAssertEqual(p.instanceTransform.m41, 10, accuracy: 1e-9)
        XCTAssertEqual(p.instanceAlphaOffset, -0.1, accuracy: 1e-6)
        XCTAssertEqual(p.instanceDelay, 0.25, accuracy: 1e-9)
        XCTAssertEqual(p.instanceCount, 3)
        scene.frame(at: 1)
        let m = try scene.presented()
        XCTAssertEqual(m.effectiveInstanceTransform(at: 2).m41, 40, accuracy: 1e-9)
        XCTAssertEqual(Double(m.effectiveInstanceColor(at: 2)[3]), 0.6, accuracy: 1e-6)
        XCTAssertEqual(Double(m.effectiveInstanceColor(at: 9)[3]), 0, accuracy: 1e-9, "clamped at 0")
    }

    func test_transformLayer_isAClassOfItsOwn_withSublayersHit() {
        let root = CALayer()
        let t = CATransformLayer()
        let child = CALayer()
        withActionsDisabled {
            root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
            t.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            child.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
            t.addSublayer(child)
            root.addSublayer(t)
        }
        XCTAssertTrue(root.hitTest(CGPoint(x: 15, y: 15)) === child)
        XCTAssertTrue(root.hitTest(CGPoint(x: 80, y: 80)) === root, "the transform layer itself is never hit")
    }

    func test_layerProperties_defaults_andNoImplicitAnimation() throws {
        let l = CALayer()
        XCTAssertEqual(l.contentsScale, 1)
        XCTAssertEqual(l.contentsGravity, .resize)
        XCTAssertEqual(l.contentsCenter, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertFalse(l.shouldRasterize)
        XCTAssertEqual(l.rasterizationScale, 1)
        XCTAssertEqual(l.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner])
        XCTAssertEqual(l.cornerCurve, .circular)
        XCTAssertFalse(l.isOpaque)
        XCTAssertFalse(l.needsDisplayOnBoundsChange)
        XCTAssertEqual(l.value(forKey: "contentsScale") as? CGFloat, 1, "KVC reads Apple's default")
        let scene = Scene(CALayer())
        inTransaction(duration: 1) {
            scene.layer.contentsScale = 3
            scene.layer.maskedCorners = [.layerMinXMinYCorner]
            scene.layer.cornerCurve = .continuous
            scene.layer.contentsGravity = .resizeAspectFill
        }
        XCTAssertEqual(scene.layer.animationKeys() ?? [], [], "none of them animates implicitly")
        scene.frame(at: 0.5)
        let p = try scene.presented()
        XCTAssertEqual(p.contentsScale, 3)
        XCTAssertEqual(p.maskedCorners, [.layerMinXMinYCorner])
        XCTAssertEqual(p.cornerCurve, .continuous)
        XCTAssertEqual(p.contentsGravity, .resizeAspectFill)
    }

    func test_shapeStrokeProperties() throws {
        let s = CAShapeLayer()
        XCTAssertEqual(s.lineCap, .butt)
        XCTAssertEqual(s.lineJoin, .miter)
        XCTAssertEqual(s.fillRule, .nonZero)
        XCTAssertEqual(s.fillRule.rawValue, "non-zero")
        XCTAssertEqual(s.miterLimit, 10)
        XCTAssertNil(s.lineDashPattern)
        let scene = Scene(CAShapeLayer()) { $0.lineDashPattern = [4, 2] }
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        scene.layer.lineCap = .round
        scene.layer.lineJoin = .bevel
        scene.layer.fillRule = .evenOdd
        scene.layer.lineDashPhase = 8
        scene.layer.miterLimit = 4
        CATransaction.commit()
        scene.frame(at: 0.5)
        let p = try scene.presented()
        XCTAssertEqual(p.lineDashPhase, 4, accuracy: 1e-9, "lineDashPhase animates")
        XCTAssertEqual(p.miterLimit, 7, accuracy: 1e-9, "miterLimit animates")
        XCTAssertEqual(p.lineCap, .round)
        XCTAssertEqual(p.lineJoin, .bevel)
        XCTAssertEqual(p.fillRule, .evenOdd)
        XCTAssertEqual(p.lineDashPattern?.map(\.doubleValue), [4, 2])
    }

    func test_wrongValueTypes_areRefusedWithADiagnostic_andChangeNothing() {
        let g = CAGradientLayer()
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        g.colors = [red]
        g.startPoint = CGPoint(x: 0.2, y: 0.3)
        let bad: [(CALayer, String, Any)] = [
            (g, "colors", "red"), (g, "colors", [1, 2]), (g, "locations", ["a"]), (g, "locations", [Double.nan]),
            (g, "startPoint", 3), (CATextLayer(), "fontSize", "big"), (CATextLayer(), "foregroundColor", 1),
            (CAReplicatorLayer(), "instanceTransform", CGPoint.zero), (CAReplicatorLayer(), "instanceCount", Double.infinity),
            (CAShapeLayer(), "lineDashPattern", "dashed"), (CALayer(), "contentsScale", "2x"),
        ]
        for (layer, key, value) in bad {
            let diagnostics = StrataDiagnostics.capture { layer.setValue(value, forKey: key) }
            XCTAssertEqual(diagnostics.map(\.code), [.wrongValueType], "\(type(of: layer)).\(key) = \(value)")
        }
        XCTAssertEqual(g.colors?.count, 1, "unchanged")
        XCTAssertEqual(g.startPoint, CGPoint(x: 0.2, y: 0.3))
        let custom = CALayer()
        let none = StrataDiagnostics.capture { custom.setValue("anything", forKey: "colors") }
        XCTAssertTrue(none.isEmpty, "on a plain layer \"colors\" is a custom key: anything fits")
        XCTAssertEqual(custom.value(forKey: "colors") as? String, "anything")
    }

    func test_transformLayer_drawsNothingOfItsOwn_inTheRenderSnapshot() throws {
        let root = CALayer(), t = CATransformLayer(), child = CALayer()
        withActionsDisabled {
            root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
            t.frame = CGRect(x: 10, y: 10, width: 100, height: 100)
            t.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            t.borderWidth = 2
            t.shadowOpacity = 1
            t.masksToBounds = true
            t.transform = CATransform3DMakeRotation(0.5, 0, 1, 0)
            child.frame = CGRect(x: 5, y: 5, width: 20, height: 20)
            child.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            t.addSublayer(child)
            root.addSublayer(t)
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        var own: RenderItemFlags?, childFlags: RenderItemFlags?
        for i in 0..<s.count {
            if s.layer(at: i) === t { own = s.flags[i] }
            if s.layer(at: i) === child { childFlags = s.flags[i] }
        }
        let tf = try XCTUnwrap(own, "the transform layer has an item (its sublayers hang from it)")
        XCTAssertTrue(tf.intersection([.background, .border, .shadow, .masksToBounds]).isEmpty, "none of its own appearance")
        XCTAssertTrue(try XCTUnwrap(childFlags).contains(.background), "its sublayer draws")
    }
}

