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

    func test_contentsCenterAndRasterizationScale_animateImplicitly() throws {
        let scene = Scene(CALayer())
        inTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            scene.layer.contentsCenter = CGRect(x: 0.2, y: 0.4, width: 0.6, height: 0.2)
            scene.layer.rasterizationScale = 3
        }
        XCTAssertEqual(Set(scene.layer.animationKeys() ?? []), ["contentsCenter", "rasterizationScale"],
                       "Apple documents both as animatable")
        scene.frame(at: 0.5)
        let p = try scene.presented()
        XCTAssertEqual(Double(p.rasterizationScale), 2, accuracy: 1e-9, "half-way from 1 to 3")
        XCTAssertEqual(Double(p.contentsCenter.minX), 0.1, accuracy: 1e-9)
        XCTAssertEqual(Double(p.contentsCenter.minY), 0.2, accuracy: 1e-9)
        XCTAssertEqual(Double(p.contentsCenter.width), 0.8, accuracy: 1e-9)
        XCTAssertEqual(Double(p.contentsCenter.height), 0.6, accuracy: 1e-9)
        scene.frame(at: 2)
        XCTAssertEqual(scene.layer.animationKeys() ?? [], [], "finished and removed")
        withActionsDisabled { scene.layer.rasterizationScale = 5 }
        XCTAssertEqual(scene.layer.animationKeys() ?? [], [], "with actions disabled: no animation")
        scene.frame(at: 2.1)
        XCTAssertEqual(Double(try scene.presented().rasterizationScale), 5, accuracy: 1e-12)
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

    // MARK: replicator instances in the render snapshot

    /// The items showing `layer`, in item order.
    private func items(of layer: CALayer, in s: RenderSnapshot) -> [Int] {
        s.drawOrder.map(Int.init).filter { s.layer(at: $0) === layer }
    }

    /// Where item i's bounds point p lands in the render target.
    private func world(_ p: CGPoint, _ s: RenderSnapshot, _ i: Int) -> CGPoint {
        s.transforms[i].apply(to: p)
    }

    private func replicatorScene(count: Int, step: CATransform3D) -> (CALayer, CAReplicatorLayer, CALayer) {
        let root = CALayer(), rep = CAReplicatorLayer(), child = CALayer()
        withActionsDisabled {
            root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
            rep.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            rep.instanceCount = count
            rep.instanceTransform = step
            child.frame = CGRect(x: 45, y: 0, width: 10, height: 10)
            child.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            rep.addSublayer(child)
            root.addSublayer(rep)
        }
        return (root, rep, child)
    }

    func test_replicator_snapshot_drawsEachInstance_translated() throws {
        let (root, rep, child) = replicatorScene(count: 3, step: CATransform3DMakeTranslation(20, 0, 0))
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        let copies = items(of: child, in: s)
        XCTAssertEqual(copies.count, 3, "one item per instance")
        XCTAssertEqual(copies.map { world(.zero, s, $0).x }, [45, 65, 85], "instance k moved by k steps")
        XCTAssertEqual(copies.map { world(.zero, s, $0).y }, [0, 0, 0])
        let repItem = try XCTUnwrap(items(of: rep, in: s).first)
        XCTAssertEqual(Int(s.drawPositions()[repItem]) + Int(s.subtreeSizes[repItem]), s.count,
                       "every instance hangs from the replicator")
        for i in copies {
            XCTAssertEqual(Int(s.parents[i]), repItem)
            XCTAssertTrue(s.flags[i].contains(.background))
        }
        XCTAssertEqual(s.count, 5, "root, replicator, three instances")
    }

    func test_replicator_snapshot_stepTurnsAboutTheLayersCentre() throws {
        let (root, _, child) = replicatorScene(count: 4, step: CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        let copies = items(of: child, in: s)
        XCTAssertEqual(copies.count, 4)
        // The child's centre (50, 5) turns about the replicator's centre (50, 50): 45 away.
        let centres = copies.map { world(CGPoint(x: 5, y: 5), s, $0) }
        for c in centres {
            XCTAssertEqual(Double(hypot(c.x - 50, c.y - 50)), 45, accuracy: 1e-3, "\(c)")
        }
        XCTAssertEqual(Double(centres[0].x), 50, accuracy: 1e-3)
        XCTAssertEqual(Double(centres[0].y), 5, accuracy: 1e-3)
        XCTAssertEqual(Double(centres[2].x), 50, accuracy: 1e-3, "half a turn")
        XCTAssertEqual(Double(centres[2].y), 95, accuracy: 1e-3)
        XCTAssertEqual(Double(abs(centres[1].x - 50)), 45, accuracy: 1e-3, "a quarter turn")
        XCTAssertEqual(Double(centres[1].x + centres[3].x), 100, accuracy: 1e-3, "opposite quarter turns")
    }

    func test_replicator_snapshot_tintsInstancesByInstanceColourAndOffsets() {
        let (root, rep, child) = replicatorScene(count: 3, step: CATransform3DMakeTranslation(20, 0, 0))
        withActionsDisabled {
            rep.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.8)
            rep.instanceRedOffset = -0.5
            rep.instanceAlphaOffset = 0.5
            rep.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        let copies = items(of: child, in: s)
        XCTAssertEqual(copies.count, 3)
        let colours = copies.map { s.backgroundColors[$0] }
        XCTAssertEqual(colours.map(\.x), [1, 0.5, 0], "red: 1 - 0.5 k, clamped")
        XCTAssertEqual(colours.map(\.w), [0.8, 1, 1], "alpha: 0.8 + 0.5 k, clamped")
        XCTAssertEqual(colours.map(\.y), [0, 0, 0])
        XCTAssertEqual(s.backgroundColors[items(of: rep, in: s)[0]], SIMD4(0, 1, 0, 1), "the replicator's own colour is not tinted")
    }

    func test_replicator_snapshot_nestedReplicatorsMultiply() {
        let root = CALayer(), outer = CAReplicatorLayer(), inner = CAReplicatorLayer(), dot = CALayer()
        withActionsDisabled {
            root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
            outer.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
            outer.instanceCount = 2
            outer.instanceTransform = CATransform3DMakeTranslation(0, 30, 0)
            outer.instanceBlueOffset = -1
            inner.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
            inner.instanceCount = 3
            inner.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            dot.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            dot.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            inner.addSublayer(dot)
            outer.addSublayer(inner)
            root.addSublayer(outer)
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        let dots = items(of: dot, in: s)
        XCTAssertEqual(dots.count, 6, "2 outer instances of 3 inner ones")
        let origins = dots.map { world(.zero, s, $0) }
        XCTAssertEqual(origins.map(\.x), [0, 20, 40, 0, 20, 40])
        XCTAssertEqual(origins.map(\.y), [0, 0, 0, 30, 30, 30])
        XCTAssertEqual(dots.map { s.backgroundColors[$0].z }, [1, 1, 1, 0, 0, 0], "the outer tint reaches the inner instances")
        XCTAssertEqual(items(of: inner, in: s).count, 2)
    }

    func test_replicator_snapshot_followsChanges_andZeroInstancesDrawNone() {
        let (root, rep, child) = replicatorScene(count: 2, step: CATransform3DMakeTranslation(20, 0, 0))
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        XCTAssertEqual(items(of: child, in: r.snapshot()).count, 2)
        withActionsDisabled { rep.instanceCount = 4 }
        r.renderFrame(atTime: 0.1)
        XCTAssertEqual(items(of: child, in: r.snapshot()).count, 4, "the next snapshot shows the new count")
        withActionsDisabled { child.position = CGPoint(x: 10, y: 10) }
        r.renderFrame(atTime: 0.2)
        let s = r.snapshot()
        XCTAssertEqual(items(of: child, in: s).map { world(.zero, s, $0).x }, [5, 25, 45, 65], "a moved sublayer moves in every instance")
        withActionsDisabled { rep.instanceCount = 0 }
        r.renderFrame(atTime: 0.3)
        let none = r.snapshot()
        XCTAssertEqual(items(of: child, in: none).count, 0, "no instance, no sublayer")
        XCTAssertEqual(items(of: rep, in: none).count, 1, "the replicator itself still draws")
    }

    func test_replicator_snapshot_instancesOfAnAnimatedSublayerMoveTogether() {
        let (root, _, child) = replicatorScene(count: 3, step: CATransform3DMakeTranslation(20, 0, 0))
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        inTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            child.position = CGPoint(x: 50, y: 105)
        }
        r.renderFrame(atTime: 0.5)
        let s = r.snapshot()
        let ys = items(of: child, in: s).map { Double(world(.zero, s, $0).y) }
        XCTAssertEqual(ys.count, 3)
        for y in ys { XCTAssertEqual(y, 50, accuracy: 1, "halfway from 0 to 100") }
    }

    // MARK: instanceDelay

    /// A replicator of `count` instances 20 apart with `delay`, whose child moves from
    /// y 0 to 100 (its frame's top) over 1 s from t = 0, linearly; the renderer at `t`.
    private func delayedScene(count: Int, delay: Double, at t: Double) -> (CARenderer, CAReplicatorLayer, CALayer) {
        let (root, rep, child) = replicatorScene(count: count, step: CATransform3DMakeTranslation(20, 0, 0))
        withActionsDisabled { rep.instanceDelay = delay }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        inTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            child.position = CGPoint(x: 50, y: 105)
        }
        r.renderFrame(atTime: t)
        return (r, rep, child)
    }

    /// The top-left corners of `layer`'s items in the render target.
    private func corners(of layer: CALayer, _ s: RenderSnapshot) -> [CGPoint] {
        items(of: layer, in: s).map { world(.zero, s, $0) }
    }

    func test_instanceDelay_instanceKShowsItsSublayersKDelaysEarlier() {
        let (r, _, child) = delayedScene(count: 3, delay: 0.1, at: 0.5)
        let c = corners(of: child, r.snapshot())
        XCTAssertEqual(c.count, 3)
        for (k, expected) in [(45.0, 50.0), (65, 40), (85, 30)].enumerated() where k < c.count {
            XCTAssertEqual(Double(c[k].x), expected.0, accuracy: 1e-3, "instance \(k) x")
            XCTAssertEqual(Double(c[k].y), expected.1, accuracy: 1e-3, "instance \(k) at t = 0.5 - \(k) * 0.1")
        }
    }

    func test_instanceDelay_beforeTheAnimationBeginsAnInstanceShowsTheModelValue() {
        // At t = 0.05 instance 1 is at -0.05: the animation has not begun there.
        let (r, _, child) = delayedScene(count: 2, delay: 0.1, at: 0.05)
        let c = corners(of: child, r.snapshot())
        XCTAssertEqual(c.count, 2)
        if c.count == 2 {
            XCTAssertEqual(Double(c[0].y), 5, accuracy: 1e-3)
            XCTAssertEqual(Double(c[1].y), 100, accuracy: 1e-3, "the model value")
        }
    }

    func test_instanceDelay_isAnimatable_andTheSnapshotLeavesThePresentationAsRendered() {
        let (r, rep, child) = delayedScene(count: 3, delay: 0.2, at: 0.5)
        let before = child.presentation()!.position
        _ = r.snapshot()
        XCTAssertEqual(child.presentation()!.position, before, "presentation values are the frame's again")
        XCTAssertEqual(Double(rep.presentation()!.instanceDelay), 0.2, accuracy: 1e-12)
        // The next frame and its snapshot are as if no delayed instance had been evaluated.
        r.renderFrame(atTime: 0.75)
        XCTAssertEqual(Double(child.presentation()!.position.y), 80, accuracy: 1e-9)
        let c = corners(of: child, r.snapshot())
        XCTAssertEqual(c.map { Double($0.y) }.count, 3)
        for (k, y) in c.map({ Double($0.y) }).enumerated() { XCTAssertEqual(y, 75 - 20 * Double(k), accuracy: 1e-3) }
    }

    func test_instanceDelay_aSnapshotAfterAnAnimationWasRemovedChangesNoPresentationValue() {
        // Two animations drive the child's position; the short one ends at the frame and
        // endFrame removes it. Evaluating the instances must not recompose what is shown.
        let (root, rep, child) = replicatorScene(count: 3, step: CATransform3DMakeTranslation(20, 0, 0))
        withActionsDisabled { rep.instanceDelay = 0.25 }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        inTransaction {
            let long = CABasicAnimation(keyPath: "position.y")
            long.fromValue = 5.0
            long.toValue = 105.0
            long.duration = 2
            long.timingFunction = CAMediaTimingFunction(name: .linear)
            child.add(long, forKey: "long")
            let short = CABasicAnimation(keyPath: "position.x")
            short.byValue = 30.0
            short.isAdditive = true
            short.duration = 0.5
            short.fillMode = .forwards
            child.add(short, forKey: "short")
        }
        r.renderFrame(atTime: 0.5)
        XCTAssertNil(child.animation(forKey: "short"), "removed at the end of the frame")
        let shown = child.presentation()!.position
        let s = r.snapshot()
        XCTAssertEqual(child.presentation()!.position, shown)
        XCTAssertEqual(corners(of: child, s).map { Double($0.y) }.count, 3)
        for (k, y) in corners(of: child, s).map({ Double($0.y) }).enumerated() { XCTAssertEqual(y, 25 - 12.5 * Double(k), accuracy: 1e-3) }
        _ = r.snapshot()
        XCTAssertEqual(child.presentation()!.position, shown, "a second snapshot too")
    }

    func test_instanceDelay_aDelayedInstancePastTheEndCompletesNothing() {
        // A negative delay puts instance 1 ahead: past the animation's end at t = 0.8.
        final class Recorder: NSObject, CAAnimationDelegate {
            var stops: [Bool] = []
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { stops.append(flag) }
        }
        let (root, rep, child) = replicatorScene(count: 2, step: CATransform3DMakeTranslation(20, 0, 0))
        withActionsDisabled { rep.instanceDelay = -0.3 }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let recorder = Recorder()
        var completions = 0
        inTransaction {
            CATransaction.setCompletionBlock { completions += 1 }
            let a = CABasicAnimation(keyPath: "position.y")
            a.fromValue = 5.0
            a.toValue = 105.0
            a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            a.delegate = recorder
            child.add(a, forKey: "drop")
        }
        r.renderFrame(atTime: 0.8)
        let c = corners(of: child, r.snapshot())
        XCTAssertEqual(c.map { Double($0.y) }, [80, 0].map { CGFloat($0) }.map { Double($0) }, "instance 1 is past the end: the model value")
        r.renderFrame(atTime: 0.9)
        XCTAssertEqual(recorder.stops, [])
        XCTAssertEqual(completions, 0)
        XCTAssertNotNil(child.animation(forKey: "drop"), "still running at 0.9")
        r.renderFrame(atTime: 1.1)
        XCTAssertEqual(recorder.stops, [true])
        XCTAssertEqual(completions, 1)
    }

    func test_instanceDelay_visibilityIsDecidedAtEachInstancesTime() {
        // The child fades in over 1 s from t = 0 (model opacity 1): transparent at 0, so culled.
        let (root, rep, child) = replicatorScene(count: 3, step: CATransform3DMakeTranslation(20, 0, 0))
        withActionsDisabled { rep.instanceDelay = 0.5 }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        inTransaction {
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0.0
            a.toValue = 1.0
            a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            child.add(a, forKey: "fade")
        }
        r.renderFrame(atTime: 0)
        var s = r.snapshot()
        XCTAssertEqual(items(of: child, in: s).map { s.opacities[$0] }, [1, 1],
                       "instance 0 is transparent; instances 1 and 2 are before the fade: the model's opacity")
        XCTAssertEqual(corners(of: child, s).map { Double($0.x) }, [65, 85])
        r.renderFrame(atTime: 0.5)
        s = r.snapshot()
        XCTAssertEqual(items(of: child, in: s).map { s.opacities[$0] }, [0.5, 1], "instance 1 at 0 is transparent")
        XCTAssertEqual(corners(of: child, s).map { Double($0.x) }, [45, 85])
    }

    func test_instanceDelay_nestedReplicatorsAddTheirDelays() {
        let root = CALayer(), outer = CAReplicatorLayer(), inner = CAReplicatorLayer(), dot = CALayer()
        withActionsDisabled {
            root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
            outer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            outer.instanceCount = 2
            outer.instanceDelay = 0.1
            outer.instanceTransform = CATransform3DMakeTranslation(100, 0, 0)
            inner.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            inner.instanceCount = 2
            inner.instanceDelay = 0.01
            inner.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            dot.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            inner.addSublayer(dot)
            outer.addSublayer(inner)
            root.addSublayer(outer)
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        inTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            dot.position = CGPoint(x: 5, y: 105)
        }
        r.renderFrame(atTime: 0.5)
        let c = corners(of: dot, r.snapshot())
        XCTAssertEqual(c.map { Double($0.x) }, [0, 20, 100, 120])
        let ys = c.map { Double($0.y) }
        XCTAssertEqual(ys.count, 4)
        for (y, expected) in zip(ys, [50.0, 49, 40, 39]) { XCTAssertEqual(y, expected, accuracy: 1e-3) }
    }
}
