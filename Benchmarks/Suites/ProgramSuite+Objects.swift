import Foundation
import StrataBench
import Strata

// The program suite's object-level paths (see `ProgramSuite`): every property of the layer
// classes and of a view set and read back, and animations of every kind made and configured.

extension ProgramSuite {
    /// `n` slots, each a layer of every class (plain, shape, gradient, text, replicator) and a
    /// view; the body sets every public property of each (in one transaction, actions
    /// disabled: the setters' own paths, not the lookup's) and reads every one back.
    static func propertiesWorkload(n: Int) throws -> Workload {
        let root = CALayer()
        var plain: [CALayer] = [], shapes: [CAShapeLayer] = [], gradients: [CAGradientLayer] = []
        var texts: [CATextLayer] = [], replicators: [CAReplicatorLayer] = [], views: [View] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for _ in 0..<n {
            let l = CALayer(), s = CAShapeLayer(), g = CAGradientLayer(), t = CATextLayer(), r = CAReplicatorLayer()
            let v = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            for x in [l, s, g, t, r, v.layer] { root.addSublayer(x) }
            plain.append(l); shapes.append(s); gradients.append(g); texts.append(t); replicators.append(r); views.append(v)
        }
        CATransaction.commit()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        let image = CGContext(size: CGSize(width: 4, height: 4))
        var on = false
        let set = {
            on.toggle()
            let k: CGFloat = on ? 1 : 2, c = on ? red : blue
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for i in 0..<n {
                let l = plain[i]
                l.bounds = CGRect(x: 0, y: 0, width: 10 * k, height: 10)
                l.position = CGPoint(x: k, y: 2 * k)
                l.anchorPoint = CGPoint(x: 0.5, y: 0.5 * k)
                l.anchorPointZ = k
                l.zPosition = k
                l.frame = CGRect(x: k, y: k, width: 10, height: 10 * k)
                l.transform = CATransform3DMakeScale(k, k, 1)
                l.sublayerTransform = CATransform3DMakeTranslation(k, 0, 0)
                l.opacity = Float(k) / 2
                l.isHidden = !on
                l.masksToBounds = on
                l.isDoubleSided = on
                l.backgroundColor = c
                l.borderColor = c
                l.borderWidth = k
                l.cornerRadius = k
                l.shadowColor = c
                l.shadowOffset = CGSize(width: k, height: -k)
                l.shadowOpacity = Float(k) / 4
                l.shadowRadius = k
                l.shadowPath = path
                l.contents = on ? image : nil
                l.contentsRect = CGRect(x: 0, y: 0, width: 1 / k, height: 1)
                l.contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1 / k)
                l.contentsScale = k
                l.contentsGravity = on ? .resizeAspect : .resize
                l.cornerCurve = on ? .continuous : .circular
                l.maskedCorners = on ? [.layerMinXMinYCorner] : [.layerMaxXMaxYCorner]
                l.isOpaque = on
                l.shouldRasterize = on
                l.rasterizationScale = k
                l.allowsEdgeAntialiasing = on
                l.allowsGroupOpacity = on
                l.needsDisplayOnBoundsChange = false
                l.name = on ? "a" : "b"
                l.mask = nil
                l.filters = nil
                l.backgroundFilters = nil
                l.compositingFilter = nil
                l.beginTime = 0
                l.duration = 0
                l.speed = 1
                l.timeOffset = 0
                l.repeatCount = 0
                l.repeatDuration = 0
                l.autoreverses = false
                l.fillMode = .removed
                l.actions = nil
                l.style = nil
                l.delegate = nil
                let s = shapes[i]
                s.path = path
                s.fillColor = c
                s.strokeColor = c
                s.lineWidth = k
                s.strokeStart = 0.1 * k
                s.strokeEnd = 0.5 * k
                s.miterLimit = k
                s.lineDashPhase = k
                s.lineDashPattern = [2, NSNumber(value: Double(k))]
                s.lineCap = on ? .round : .butt
                s.lineJoin = on ? .bevel : .miter
                s.fillRule = on ? .evenOdd : .nonZero
                let g = gradients[i]
                g.colors = [c, blue]
                g.locations = [0, 1]
                g.startPoint = CGPoint(x: 0, y: 0.5 * k)
                g.endPoint = CGPoint(x: 1, y: 0.5)
                g.type = on ? .radial : .axial
                let t = texts[i]
                t.string = on ? "on" : "off"
                t.font = "Helvetica"
                t.fontSize = 10 * k
                t.foregroundColor = c
                t.isWrapped = on
                t.truncationMode = on ? .end : .none
                t.alignmentMode = on ? .center : .natural
                t.allowsFontSubpixelQuantization = on
                let r = replicators[i]
                r.instanceCount = on ? 3 : 2
                r.preservesDepth = on
                r.instanceDelay = 0.1 * Double(k)
                r.instanceTransform = CATransform3DMakeTranslation(k, 0, 0)
                r.instanceColor = c
                r.instanceRedOffset = -0.1
                r.instanceGreenOffset = -0.1
                r.instanceBlueOffset = -0.1
                r.instanceAlphaOffset = -0.1 * Float(k)
                let v = views[i]
                v.frame = CGRect(x: k, y: 0, width: 10, height: 10)
                v.bounds = CGRect(x: 0, y: 0, width: 10, height: 10 * k)
                v.center = CGPoint(x: k, y: k)
                v.alpha = k / 2
                v.isHidden = !on
                v.backgroundColor = c
                v.transform = CGAffineTransform(scaleX: k, y: 1)
            }
            CATransaction.commit()
        }
        let get: () -> Double = {
            var s = 0.0
            for i in 0..<n {
                let l = plain[i]
                s += l.bounds.width + l.position.x + l.anchorPoint.y + l.anchorPointZ + l.zPosition + l.frame.minX
                s += l.transform.m11 + l.sublayerTransform.m41 + Double(l.opacity) + (l.isHidden ? 1 : 0) + (l.masksToBounds ? 1 : 0)
                s += (l.isDoubleSided ? 1 : 0) + (l.backgroundColor?.components?[0] ?? 0) + (l.borderColor?.components?[2] ?? 0)
                s += l.borderWidth + l.cornerRadius + (l.shadowColor?.components?[0] ?? 0) + l.shadowOffset.width
                s += Double(l.shadowOpacity) + l.shadowRadius + (l.shadowPath == nil ? 0 : 1) + (l.contents == nil ? 0 : 1)
                s += l.contentsRect.width + l.contentsCenter.height + l.contentsScale + (l.contentsGravity == .resize ? 1 : 0)
                s += (l.cornerCurve == .continuous ? 1 : 0) + Double(l.maskedCorners.rawValue) + (l.isOpaque ? 1 : 0)
                s += (l.shouldRasterize ? 1 : 0) + l.rasterizationScale + (l.allowsEdgeAntialiasing ? 1 : 0) + (l.allowsGroupOpacity ? 1 : 0)
                s += (l.needsDisplayOnBoundsChange ? 1 : 0) + Double(l.name?.count ?? 0) + (l.mask == nil ? 0 : 1)
                s += Double(l.filters?.count ?? 0) + Double(l.backgroundFilters?.count ?? 0) + (l.compositingFilter == nil ? 0 : 1)
                s += l.beginTime + l.duration + Double(l.speed) + l.timeOffset + Double(l.repeatCount) + l.repeatDuration
                s += (l.autoreverses ? 1 : 0) + (l.fillMode == .removed ? 1 : 0) + (l.actions == nil ? 0 : 1) + (l.style == nil ? 0 : 1)
                s += (l.delegate == nil ? 0 : 1) + (l.superlayer === root ? 1 : 0) + Double(l.sublayers?.count ?? 0)
                let sh = shapes[i]
                s += (sh.path == nil ? 0 : 1) + (sh.fillColor?.components?[0] ?? 0) + (sh.strokeColor?.components?[0] ?? 0) + sh.lineWidth
                s += sh.strokeStart + sh.strokeEnd + sh.miterLimit + sh.lineDashPhase + Double(sh.lineDashPattern?.count ?? 0)
                s += (sh.lineCap == .round ? 1 : 0) + (sh.lineJoin == .bevel ? 1 : 0) + (sh.fillRule == .evenOdd ? 1 : 0)
                let g = gradients[i]
                s += Double(g.colors?.count ?? 0) + Double(g.locations?.count ?? 0) + g.startPoint.y + g.endPoint.x + (g.type == .radial ? 1 : 0)
                let t = texts[i]
                s += Double((t.string as? String)?.count ?? 0) + (t.font == nil ? 0 : 1) + t.fontSize + (t.foregroundColor?.components?[0] ?? 0)
                s += (t.isWrapped ? 1 : 0) + (t.truncationMode == .end ? 1 : 0) + (t.alignmentMode == .center ? 1 : 0) + (t.allowsFontSubpixelQuantization ? 1 : 0)
                let r = replicators[i]
                s += Double(r.instanceCount) + (r.preservesDepth ? 1 : 0) + r.instanceDelay + r.instanceTransform.m41
                s += (r.instanceColor?.components?[0] ?? 0) + Double(r.instanceRedOffset + r.instanceGreenOffset + r.instanceBlueOffset + r.instanceAlphaOffset)
                let v = views[i]
                s += v.frame.minX + v.bounds.height + v.center.x + v.alpha + (v.isHidden ? 1 : 0) + (v.backgroundColor?.components?[0] ?? 0)
                s += v.transform.a + (v.layer.delegate === v ? 1 : 0) + (v.superview == nil ? 0 : 1) + Double(v.subviews.count)
            }
            return s
        }
        // Precondition: what was set reads back (a sample of each class).
        set()
        let name = "program/properties/\(n)"
        let l = plain[n - 1], s = shapes[n - 1], g = gradients[n - 1], t = texts[n - 1], r = replicators[n - 1], v = views[n - 1]
        try BenchmarkError.check(l.frame == CGRect(x: 1, y: 1, width: 10, height: 10) && l.opacity == 0.5 && l.cornerCurve == .continuous,
                                 "\(name): a layer's frame \(l.frame), opacity \(l.opacity), corner curve \(l.cornerCurve.rawValue)")
        try BenchmarkError.check(s.strokeEnd == 0.5 && s.lineCap == .round && g.type == .radial && (t.string as? String) == "on"
                                     && r.instanceCount == 3 && v.center == CGPoint(x: 1, y: 1),
                                 "\(name): a toolbox property did not read back")
        try BenchmarkError.check(get().isFinite, "\(name): a read gave no number")
        return Workload(retaining: [root, renderer, plain as AnyObject, shapes as AnyObject, gradients as AnyObject,
                                    texts as AnyObject, replicators as AnyObject, views as AnyObject],
                        run: planted {
                            set()
                            blackHole(get())
                        })
    }

    /// Animations of every kind made and configured per layer, as real code writes them
    /// (each class's every public property; timing functions made and evaluated), added, and
    /// the layer's animations removed again.
    static func makeAnimationsWorkload(n: Int) throws -> Workload {
        let (root, layers, renderer) = flatTree(n)
        let ease = CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)
        let addAll: () -> Double = {
            var check = 0.0
            CATransaction.begin()
            for (i, l) in layers.enumerated() {
                let x = Double(i % 100) * 20
                let basic = CABasicAnimation.animation()
                basic.keyPath = "opacity"
                basic.fromValue = 0.0
                basic.toValue = 1.0
                basic.byValue = nil
                basic.duration = 0.5
                basic.timingFunction = CAMediaTimingFunction(name: .easeIn)
                basic.beginTime = CACurrentMediaTime() + 0.1
                let keyframe = CAKeyframeAnimation(keyPath: "position")
                keyframe.values = [CGPoint(x: x, y: 0), CGPoint(x: x + 10, y: 10), CGPoint(x: x, y: 20)]
                keyframe.keyTimes = [0, 0.3, 1]
                keyframe.timingFunctions = [ease, CAMediaTimingFunction(name: .linear)]
                keyframe.calculationMode = .cubic
                keyframe.tensionValues = [0, 0, 0]
                keyframe.continuityValues = [0, 0, 0]
                keyframe.biasValues = [0, 0, 0]
                keyframe.duration = 0.5
                let spring = i & 1 == 0 ? CASpringAnimation(keyPath: "transform.scale") : CASpringAnimation(perceptualDuration: 0.5, bounce: 0.2)
                if i & 1 != 0 { spring.keyPath = "transform.scale" }
                spring.fromValue = 1.0
                spring.toValue = 1.2
                spring.mass = 1
                spring.stiffness = 200
                spring.damping = 12
                spring.initialVelocity = 0.5
                spring.allowsOverdamping = false
                spring.duration = spring.settlingDuration
                let along = CAKeyframeAnimation(keyPath: "position")
                let p = CGMutablePath()
                p.move(to: CGPoint(x: x, y: 0))
                p.addQuadCurve(to: CGPoint(x: x + 40, y: 0), control: CGPoint(x: x + 20, y: 30))
                along.path = p
                along.rotationMode = .rotateAutoReverse
                along.calculationMode = .paced
                let group = CAAnimationGroup()
                let fade = CABasicAnimation(keyPath: "backgroundColor")
                fade.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
                group.animations = [fade, along]
                group.duration = 0.6
                let transition = CATransition()
                transition.type = .moveIn
                transition.subtype = .fromTop
                transition.startProgress = 0.1
                transition.endProgress = 0.9
                transition.duration = 0.3
                l.add(basic, forKey: "basic")
                l.add(keyframe, forKey: "keyframe")
                l.add(spring, forKey: "spring")
                l.add(group, forKey: "group")
                l.add(transition, forKey: kCATransition)
                check += Double(ease.evaluate(at: 0.5))
                if i == 0 {
                    var point: [Float] = [0, 0]
                    ease.getControlPoint(at: 1, values: &point)
                    check += Double(point[0]) + (CABasicAnimation.defaultValue(forKey: "duration") == nil ? 0 : 1)
                }
            }
            CATransaction.commit()
            return check
        }
        let run = {
            blackHole(addAll())
            for l in layers { l.removeAllAnimations() }
        }
        // Precondition: every kind is accepted on every layer (none refused as bad input), and
        // removal leaves nothing running.
        let name = "program/make-animations/\(n)"
        let before = StrataEngine.activeAnimationCount
        let check = addAll()
        try BenchmarkError.check(check.isFinite && check > 0, "\(name): the timing function evaluated to \(check)")
        for (i, l) in layers.enumerated() where l.animationKeys() != ["basic", "keyframe", "spring", "group", kCATransition] {
            throw BenchmarkError("\(name): layer \(i) runs \(l.animationKeys() ?? []), expected all five kinds")
        }
        renderer.renderFrame(atTime: 0.2)
        for l in layers { l.removeAllAnimations() }
        try BenchmarkError.check(StrataEngine.activeAnimationCount == before, "\(name): \(StrataEngine.activeAnimationCount - before) animations left after removal")
        return Workload(retaining: [root, renderer, layers as AnyObject], run: planted(run))
    }
}
