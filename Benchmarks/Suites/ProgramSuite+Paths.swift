import Foundation
import StrataBench
import Strata

// The program suite's other paths (see `ProgramSuite`): UIKit's blocks and the property
// animator, key-value writes, animation keys and removal, a transaction with its completion,
// coordinate and time conversion, tree edits, layer churn, drawing and the public lookup.

extension ProgramSuite {
    /// UIKit's animation blocks besides `animate(withDuration:delay:options:...)`.
    public enum ViewBlock: String, CaseIterable {
        /// `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:...)`.
        case spring
        /// `animateKeyframes(withDuration:delay:options:...)` with `addKeyframe(...)`.
        case keyframes
        /// `transition(from:to:duration:options:completion:)` (which runs
        /// `transition(with:duration:options:animations:completion:)`).
        case transition

        var entry: String {
            switch self {
            case .spring: return "View.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:animations:completion:)"
            case .keyframes: return "View.animateKeyframes + View.addKeyframe"
            case .transition: return "View.transition(from:to:duration:options:completion:)"
            }
        }
    }

    /// `n` views in slots of a container (each slot a view holding one child, and a spare
    /// child for transitions), rendered once.
    static func viewSlots(_ n: Int) -> (View, [View], [View], [View], CARenderer) {
        let container = View(frame: CGRect(x: 0, y: 0, width: 2_000, height: 2_000))
        var slots: [View] = [], children: [View] = [], spares: [View] = []
        for i in 0..<n {
            let slot = View(frame: CGRect(x: Double(i % 10) * 50, y: Double(i / 10) * 50, width: 40, height: 40))
            let child = View(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
            slot.addSubview(child)
            container.addSubview(slot)
            slots.append(slot)
            children.append(child)
            spares.append(View(frame: CGRect(x: 0, y: 0, width: 40, height: 40)))
        }
        let renderer = CARenderer(layer: container.layer)
        renderer.renderFrame(atTime: 0)
        return (container, slots, children, spares, renderer)
    }

    static func viewBlockWorkload(_ block: ViewBlock, n: Int) throws -> Workload {
        var (container, slots, children, spares, renderer) = viewSlots(n)
        var t = 0.0, on = false, completions = 0
        let run = {
            on.toggle()
            let dy = on ? 10.0 : -10.0
            switch block {
            case .spring:
                View.animate(withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.7, initialSpringVelocity: 0.5, options: [], animations: {
                    for v in slots {
                        v.alpha = on ? 0.5 : 1
                        v.center = CGPoint(x: v.center.x, y: v.center.y + dy)
                    }
                }, completion: { finished in completions += finished ? 1 : 0 })
            case .keyframes:
                View.animateKeyframes(withDuration: 0.5, delay: 0, options: [.calculationModeLinear], animations: {
                    View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
                        for v in slots { v.alpha = on ? 0.5 : 1 }
                    }
                    View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
                        for v in slots { v.center = CGPoint(x: v.center.x, y: v.center.y + dy) }
                    }
                }, completion: { finished in completions += finished ? 1 : 0 })
            case .transition:
                for i in 0..<n {
                    View.transition(from: children[i], to: spares[i], duration: 0.3, options: [.transitionFlipFromLeft],
                                    completion: { finished in completions += finished ? 1 : 0 })
                    swap(&children[i], &spares[i])
                }
            }
        }
        let reset = {
            t += 1_000
            renderer.renderFrame(atTime: t)
        }
        let name = "program/view-\(block.rawValue)/\(n)"
        reset()
        let before = StrataEngine.activeAnimationCount
        run()
        renderer.renderFrame(atTime: t + 0.1)
        let started = StrataEngine.activeAnimationCount - before
        let expected = block == .transition ? n : 2 * n
        try BenchmarkError.check(started == expected, "\(name): \(started) animations running, expected \(expected)")
        if block == .transition {
            try BenchmarkError.check(slots[0].subviews.count == 1 && slots[0].subviews[0] === children[0],
                                     "\(name): the transition did not swap the slot's child")
        } else {
            let alpha = slots[n / 2].layer.presentation()?.opacity ?? -1
            try BenchmarkError.check(alpha > 0.5 && alpha < 1, "\(name): presented alpha \(alpha) mid-block, expected between 0.5 and 1")
        }
        reset()
        try BenchmarkError.check(StrataEngine.activeAnimationCount == before, "\(name): animations left after reset")
        let calls = block == .transition ? n : 1
        try BenchmarkError.check(completions == calls, "\(name): \(completions) completions, expected \(calls)")
        return Workload(retaining: [container, renderer, slots as AnyObject], reset: reset, run: planted(run))
    }

    /// A property animator over `n` views, started, paused, scrubbed and continued (the reset
    /// lets it finish); and a spring animator started, stopped and finished at its end.
    static func propertyAnimatorWorkload(n: Int) throws -> Workload {
        let (container, slots, _, _, renderer) = viewSlots(n)
        var t = 0.0, on = false, iteration = 0, completions = 0
        let run = {
            on.toggle()
            iteration += 1
            let dy = on ? 10.0 : -10.0
            let fade = { for v in slots { v.alpha = on ? 0.5 : 1 } }
            let a = iteration & 1 == 0
                ? ViewPropertyAnimator(duration: 0.5, curve: .easeInOut, animations: fade)
                : ViewPropertyAnimator(duration: 0.5, controlPoint1: CGPoint(x: 0.25, y: 0.1), controlPoint2: CGPoint(x: 0.25, y: 1), animations: fade)
            a.isInterruptible = true
            a.scrubsLinearly = true
            a.pausesOnCompletion = false
            a.addAnimations { for v in slots { v.center = CGPoint(x: v.center.x, y: v.center.y + dy) } }
            a.addCompletion { _ in completions += 1 }
            a.startAnimation()
            a.pauseAnimation()
            a.fractionComplete = 0.5
            a.continueAnimation(withTimingParameters: nil, durationFactor: 1)
            blackHole((a.state, a.isRunning, a.isReversed, a.fractionComplete, a.duration, a.timingFunction, a.dampingRatio))
            let b = ViewPropertyAnimator(duration: 0.5, dampingRatio: 0.8) {
                for v in slots { v.transform = on ? CGAffineTransform(rotationAngle: 0.1) : .identity }
            }
            b.addCompletion { _ in completions += 1 }
            b.startAnimation(afterDelay: 0)
            b.stopAnimation(false)
            b.finishAnimation(at: .end)
        }
        let reset = {
            t += 1_000
            renderer.renderFrame(atTime: t)
        }
        let name = "program/property-animator/\(n)"
        reset()
        let before = StrataEngine.activeAnimationCount
        run()
        renderer.renderFrame(atTime: t + 0.1)
        let started = StrataEngine.activeAnimationCount - before
        try BenchmarkError.check(started == 2 * n, "\(name): \(started) animations running, expected \(2 * n) (the stopped animator's none)")
        try BenchmarkError.check(CATransform3DEqualToTransform(slots[0].layer.transform, CATransform3DMakeAffineTransform(CGAffineTransform(rotationAngle: 0.1))),
                                 "\(name): the stopped animator did not leave its end value")
        reset()
        try BenchmarkError.check(StrataEngine.activeAnimationCount == before, "\(name): animations left after reset")
        try BenchmarkError.check(completions == 2, "\(name): \(completions) completions, expected 2 (each animator's once: the finished one's at its end, the stopped one's at finishAnimation(at:))")
        return Workload(retaining: [container, renderer, slots as AnyObject], reset: reset, run: planted(run))
    }

    /// Key-value writes of `n` layers in one transaction: `position.x` (an implicit animation
    /// each) and a custom key (stored).
    static func kvcSetWorkload(n: Int) throws -> Workload {
        let (root, layers, renderer) = flatTree(n)
        var t = 0.0, on = false
        let run = {
            on.toggle()
            CATransaction.begin()
            for (i, l) in layers.enumerated() {
                l.setValue(Double(i % 100) * 20 + (on ? 5 : 0), forKeyPath: "position.x")
                l.setValue(on ? 1.0 : 0.0, forKey: "programProgress")
                if i & 7 == 0 { l.setAffineTransform(on ? CGAffineTransform(rotationAngle: 0.2) : .identity) }
            }
            CATransaction.commit()
        }
        let reset = {
            t += 1_000
            renderer.renderFrame(atTime: t)
        }
        reset()
        let before = StrataEngine.activeAnimationCount
        run()
        let started = StrataEngine.activeAnimationCount - before
        let name = "program/kvc-set/\(n)"
        // position.x of each, and the transform of one in eight.
        let expected = n + (n + 7) / 8
        try BenchmarkError.check(started == expected, "\(name): \(started) animations started, expected \(expected)")
        try BenchmarkError.check(layers[7].position.x == 7 * 20 + 5, "\(name): position.x set to \(layers[7].position.x)")
        try BenchmarkError.check((layers[7].value(forKey: "programProgress") as? Double) == 1, "\(name): the custom key reads \(String(describing: layers[7].value(forKey: "programProgress")))")
        reset()
        return Workload(retaining: [root, renderer, layers as AnyObject], reset: reset, run: planted(run))
    }

    /// Each of `n` layers gets two explicit animations, made and configured as apps write
    /// them (every timing field, a delegate, a value by key, `beginTime` from
    /// `CACurrentMediaTime()`), the frame that starts them (delegates told), then their keys
    /// and one of them read and both removed: half one by one, half all at once (delegates told
    /// they stopped).
    static func animationsWorkload(n: Int) throws -> Workload {
        let (root, layers, renderer) = flatTree(n)
        let delegate = ProgramAnimationDelegate()
        let curve = CAMediaTimingFunction(name: .easeInEaseOut)
        var t = 1.0
        renderer.renderFrame(atTime: t)
        let run = {
            CATransaction.begin()
            for (i, l) in layers.enumerated() {
                let fade = CABasicAnimation(keyPath: "opacity")
                fade.fromValue = 0.0
                fade.toValue = 1.0
                fade.duration = long
                fade.beginTime = CACurrentMediaTime()
                fade.timingFunction = curve
                fade.fillMode = .both
                fade.isRemovedOnCompletion = false
                fade.delegate = delegate
                fade.setValue(i, forKey: "programIndex")
                let move = CABasicAnimation(keyPath: "position")
                move.byValue = CGPoint(x: 10, y: 0)
                move.duration = long
                move.speed = 2
                move.timeOffset = 1
                move.repeatCount = 2
                move.autoreverses = true
                move.isAdditive = true
                move.isCumulative = false
                l.add(fade, forKey: "fade")
                l.add(move, forKey: "move")
            }
            CATransaction.commit()
            t += step
            renderer.renderFrame(atTime: t)
            var found = 0
            for (i, l) in layers.enumerated() {
                found += l.animationKeys()?.count ?? 0
                if let a = l.animation(forKey: "fade"), a.value(forKey: "programIndex") as? Int == i { found += 1 }
                if i & 1 == 0 {
                    l.removeAnimation(forKey: "fade")
                    l.removeAnimation(forKey: "move")
                } else {
                    l.removeAllAnimations()
                }
            }
            blackHole(found)
        }
        let name = "program/animations/\(n)"
        let before = StrataEngine.activeAnimationCount
        let (started, stopped) = (delegate.started, delegate.stopped)
        run()
        try BenchmarkError.check(StrataEngine.activeAnimationCount == before, "\(name): \(StrataEngine.activeAnimationCount - before) animations left after removal")
        try BenchmarkError.check(delegate.started - started == n && delegate.stopped - stopped == n,
                                 "\(name): the delegate heard \(delegate.started - started) starts and \(delegate.stopped - stopped) stops, expected \(n) of each")
        try BenchmarkError.check(layers[3].presentation()?.position == layers[3].position, "\(name): a removed animation still shows")
        return Workload(retaining: [root, renderer, delegate, layers as AnyObject], run: planted(run))
    }

    /// A transaction as apps write one (duration, curve, a value, a completion block) changing
    /// `n` layers, the frame mid-flight and the frame in which the animations end and the
    /// completion block runs; an implicit change flushed; the transaction lock.
    static func transactionWorkload(n: Int) throws -> Workload {
        let (root, layers, renderer) = flatTree(n)
        var t = 1.0, on = false, completions = 0
        let curve = CAMediaTimingFunction(name: .easeOut)
        let run = {
            on.toggle()
            CATransaction.lock()
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.25)
            CATransaction.setAnimationTimingFunction(curve)
            CATransaction.setValue("program", forKey: "programTag")
            CATransaction.setCompletionBlock { completions += 1 }
            blackHole((CATransaction.animationDuration(), CATransaction.disableActions(), CATransaction.animationTimingFunction(),
                       CATransaction.completionBlock() != nil, CATransaction.value(forKey: "programTag")))
            for l in layers { l.opacity = on ? 0.5 : 1 }
            CATransaction.commit()
            CATransaction.unlock()
            layers[0].zPosition = on ? 1 : 0
            CATransaction.flush()
            t += 0.1
            renderer.renderFrame(atTime: t)
            t += 0.5
            renderer.renderFrame(atTime: t)
        }
        let name = "program/transaction/\(n)"
        let before = StrataEngine.activeAnimationCount
        run()
        try BenchmarkError.check(completions == 1, "\(name): the completion block ran \(completions) times, expected once")
        try BenchmarkError.check(StrataEngine.activeAnimationCount == before, "\(name): \(StrataEngine.activeAnimationCount - before) animations left after their end")
        try BenchmarkError.check(layers[n - 1].presentation()?.opacity == 0.5, "\(name): opacity shows \(layers[n - 1].presentation()?.opacity ?? -1), expected 0.5")
        return Workload(retaining: [root, renderer, layers as AnyObject], run: planted(run))
    }

    /// A root of 10 timed containers (each its own speed, time offset and sublayer transform),
    /// each holding 10 moving leaves; 100 conversions a call between leaves and the root.
    static func convertWorkload() throws -> Workload {
        let root = CALayer()
        var leaves: [CALayer] = [], containers: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 1_000, height: 1_000)
        for c in 0..<10 {
            let container = CALayer()
            container.bounds = CGRect(x: 0, y: 0, width: 100, height: 1_000)
            container.position = CGPoint(x: Double(c) * 100 + 50, y: 500)
            container.sublayerTransform = CATransform3DMakeScale(1 + Double(c) / 20, 1, 1)
            container.speed = 1 + Float(c) / 10
            container.timeOffset = Double(c)
            root.addSublayer(container)
            containers.append(container)
            for r in 0..<10 {
                let leaf = CALayer()
                leaf.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
                leaf.position = CGPoint(x: 50, y: Double(r) * 100 + 50)
                leaf.transform = CATransform3DMakeRotation(Double(r) * 0.05, 0, 0, 1)
                container.addSublayer(leaf)
                leaves.append(leaf)
            }
        }
        CATransaction.commit()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        for (i, leaf) in leaves.enumerated() { leaf.add(animation(.basic, i), forKey: "move") }
        renderer.renderFrame(atTime: 1)
        let probe = CGPoint(x: 10, y: 20), box = CGRect(x: 5, y: 5, width: 10, height: 10)
        let convert: () -> Double = {
            var s = 0.0
            for (i, leaf) in leaves.enumerated() {
                let other = leaves[(i + 37) % leaves.count]
                let p = leaf.convert(probe, to: root)
                let q = root.convert(p, from: other)
                let r = leaf.convert(box, from: other)
                let b = other.convert(box, to: nil)
                let inside = leaf.contains(probe) ? 1.0 : 0
                s += p.x + q.y + r.minX + b.maxY + inside
                s += leaf.convertTime(2, from: root) + root.convertTime(3, to: leaf)
            }
            return s
        }
        // Precondition: a round trip comes back, and time runs at the containers' speeds.
        let back = root.convert(leaves[23].convert(probe, to: root), to: leaves[23])
        try BenchmarkError.check(abs(back.x - probe.x) < 1e-9 && abs(back.y - probe.y) < 1e-9, "program/convert/100: a round trip gave \(back), expected \(probe)")
        let local = leaves[23].convertTime(2, from: root)
        let expected = 2 * Double(Float(1.2)) + 2   // speed is a Float
        try BenchmarkError.check(abs(local - expected) < 1e-9, "program/convert/100: time 2 of the root is \(local) in the leaf, expected \(expected)")
        try BenchmarkError.check(convert().isFinite, "program/convert/100: a conversion gave no number")
        return Workload(retaining: [root, renderer, leaves as AnyObject], run: planted { blackHole(convert()) })
    }

    /// 10 containers with an anchor each and `n` movable layers; each iteration moves every
    /// movable layer into another container with one of five edits (at an index, above or
    /// below the anchor, replacing it by a spare, removed and added), sets one container's
    /// sublayers, commits, and renders the frame.
    static func treeEditsWorkload(n: Int) throws -> Workload {
        let root = CALayer()
        var containers: [CALayer] = [], anchors: [CALayer] = [], movable: [CALayer] = [], spares: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for c in 0..<10 {
            let container = CALayer(), anchor = CALayer()
            container.position = CGPoint(x: Double(c) * 100, y: 0)
            container.addSublayer(anchor)
            root.addSublayer(container)
            containers.append(container)
            anchors.append(anchor)
        }
        for i in 0..<n {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            containers[i % 10].addSublayer(l)
            movable.append(l)
            if i % 5 == 3 { spares.append(CALayer()) }
        }
        CATransaction.commit()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        var t = 0.0, iteration = 0
        let run = {
            iteration += 1
            CATransaction.begin()
            var spare = 0
            for i in 0..<n {
                let k = (i + iteration) % 10
                let target = containers[k], l = movable[i]
                switch i % 5 {
                case 0: target.insertSublayer(l, at: 0)
                case 1: target.insertSublayer(l, above: anchors[k])
                case 2: target.insertSublayer(l, below: anchors[k])
                case 3:
                    // The spare takes the layer's place; the layer waits as the next spare.
                    l.superlayer?.replaceSublayer(l, with: spares[spare])
                    movable[i] = spares[spare]
                    spares[spare] = l
                    spare += 1
                default:
                    l.removeFromSuperlayer()
                    target.addSublayer(l)
                }
            }
            let shuffled = containers[iteration % 10]
            shuffled.sublayers = shuffled.sublayers?.reversed()
            CATransaction.commit()
            t += step
            renderer.renderFrame(atTime: t)
        }
        let name = "program/tree-edits/\(n)"
        run()
        let inTree = containers.reduce(0) { $0 + ($1.sublayers?.count ?? 0) }
        try BenchmarkError.check(inTree == n + 10, "\(name): \(inTree) layers in the containers, expected \(n + 10)")
        try BenchmarkError.check(spares.allSatisfy { $0.superlayer == nil }, "\(name): a spare is still in the tree")
        return Workload(retaining: [root, renderer, containers as AnyObject], run: planted(run))
    }

    /// `n` layers made, set up and added (most plain; shapes, gradients, text, replicators,
    /// transform layers and views' layers among them), and the previous `n` removed and
    /// released.
    static func layerChurnWorkload(n: Int) throws -> Workload {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        let path = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 20, height: 20), cornerWidth: 4, cornerHeight: 4, transform: nil)
        let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1), white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        var current: [CALayer] = [], views: [View] = []
        var t = 0.0
        let run = {
            CATransaction.begin()
            for l in current { l.removeFromSuperlayer() }
            current.removeAll(keepingCapacity: true)
            views.removeAll(keepingCapacity: true)
            for i in 0..<n {
                let l: CALayer
                switch i % 20 {
                case 0, 1:
                    let s = CAShapeLayer()
                    s.path = path
                    s.fillColor = blue
                    l = s
                case 2:
                    let g = CAGradientLayer()
                    g.colors = [blue, white]
                    l = g
                case 3:
                    let text = CATextLayer()
                    text.string = "cell"
                    l = text
                case 4: l = i % 40 == 4 ? CAReplicatorLayer() : CATransformLayer()
                case 5:
                    let v = View(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
                    v.backgroundColor = blue
                    l = v.layer
                    views.append(v)
                default: l = CALayer.layer()
                }
                l.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
                l.position = CGPoint(x: Double(i % 50) * 20, y: Double(i / 50) * 20)
                l.backgroundColor = blue
                root.addSublayer(l)
                current.append(l)
            }
            CATransaction.commit()
            t += step
            renderer.renderFrame(atTime: t)
        }
        let name = "program/layer-churn/\(n)"
        run()
        let layers = StrataEngine.layerCount
        run()
        try BenchmarkError.check(StrataEngine.layerCount == layers, "\(name): \(StrataEngine.layerCount) layers after a second batch, \(layers) after the first: the removed ones are not released")
        try BenchmarkError.check(root.sublayers?.count == n, "\(name): \(root.sublayers?.count ?? 0) layers in the tree, expected \(n)")
        return Workload(retaining: [root, renderer], run: planted(run))
    }

    /// `n` layers drawn by their delegate and 10 views' layers (the view is the delegate),
    /// marked and displayed at the commit, then the tree rendered into a context; and 10 rings
    /// of a class that displays for its `progress` key, drawn again by every frame while
    /// `progress` animates.
    static func displayWorkload(n: Int) throws -> Workload {
        let root = CALayer()
        let painter = ProgramPainter()
        var layers: [CALayer] = [], rings: [ProgramRingLayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 1_000, height: 1_000)
        for i in 0..<n {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 30, height: 30)
            l.position = CGPoint(x: Double(i % 10) * 40, y: Double(i / 10) * 40)
            l.delegate = painter
            l.needsDisplayOnBoundsChange = true
            root.addSublayer(l)
            layers.append(l)
        }
        var views: [View] = []
        for i in 0..<10 {
            let v = View(frame: CGRect(x: Double(i) * 50, y: 700, width: 40, height: 40))
            root.addSublayer(v.layer)
            views.append(v)
        }
        for i in 0..<10 {
            let ring = ProgramRingLayer()
            ring.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            ring.position = CGPoint(x: Double(i) * 50, y: 600)
            root.addSublayer(ring)
            rings.append(ring)
        }
        CATransaction.commit()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        for ring in rings {
            let fill = CABasicAnimation(keyPath: "progress")
            fill.fromValue = 0.0
            fill.toValue = 1.0
            fill.duration = long
            ring.add(fill, forKey: "fill")
        }
        var t = 1.0
        renderer.renderFrame(atTime: t)
        let run = {
            CATransaction.begin()
            for l in layers { l.setNeedsDisplay() }
            for v in views { v.layer.setNeedsDisplay() }
            blackHole(layers[0].needsDisplay())
            CATransaction.commit()
            layers[1].setNeedsDisplay(CGRect(x: 0, y: 0, width: 5, height: 5))
            layers[1].displayIfNeeded()
            let ctx = CGContext(size: root.bounds.size)
            root.render(in: ctx)
            t += step
            renderer.renderFrame(atTime: t)
            blackHole((ctx, rings[0].presentationDrawing))
        }
        let name = "program/display/\(n)"
        let drawn = painter.draws
        run()
        try BenchmarkError.check(painter.draws - drawn == n + 1, "\(name): \(painter.draws - drawn) drawings, expected \(n + 1)")
        try BenchmarkError.check(layers[5].contents is CGContext && !layers[5].needsDisplay(), "\(name): a marked layer was not displayed")
        try BenchmarkError.check(rings[3].presentationDrawing != nil, "\(name): an animating ring drew no presentation")
        try BenchmarkError.check(views[2].layer.contents is CGContext, "\(name): a view's layer was not displayed")
        return Workload(retaining: [root, renderer, painter, layers as AnyObject, rings as AnyObject, views as AnyObject], run: planted(run))
    }

    /// `action(forKey:)` of `n` layers as apps and subclasses call it: on view layers (the
    /// view answers), layers with an actions dictionary, a style, a delegate that defers, and
    /// layers of the toolbox's classes; built-in keys, events and a custom key.
    static func actionWorkload(n: Int) throws -> Workload {
        let root = CALayer()
        let deferring = ProgramDeferringDelegate()
        let fade = CABasicAnimation()
        fade.duration = 0.2
        var views: [View] = [], layers: [CALayer] = []
        for i in 0..<n {
            let l: CALayer
            switch i % 5 {
            case 0:
                let v = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
                views.append(v)
                l = v.layer
            case 1:
                l = CALayer()
                l.actions = ["opacity": fade, "position": NSNull()]
            case 2:
                l = CALayer()
                l.style = ["actions": ["opacity": fade]]
            case 3:
                l = CALayer()
                l.delegate = deferring
            default:
                // The toolbox's classes answer their own defaults first.
                switch i % 20 {
                case 4: l = CAGradientLayer()
                case 9: l = CATextLayer()
                case 14: l = CAReplicatorLayer()
                default: l = CAShapeLayer()
                }
            }
            root.addSublayer(l)
            layers.append(l)
        }
        let keys = ["opacity", "position", kCAOnOrderIn, "programCustom"]
        let look: () -> Int = {
            var found = 0
            for (i, l) in layers.enumerated() where l.action(forKey: keys[i & 3]) != nil { found += 1 }
            return found
        }
        // Precondition: a plain layer finds the built-in animation for opacity, a view's layer
        // outside a block finds none, a dictionary's NSNull ends the search.
        try BenchmarkError.check(layers[19].action(forKey: "opacity") is CABasicAnimation, "program/action/\(n): no built-in action on a shape layer")
        try BenchmarkError.check(layers[0].action(forKey: "opacity") == nil, "program/action/\(n): a view's layer found an action outside a block")
        try BenchmarkError.check(layers[1].action(forKey: "position") == nil, "program/action/\(n): NSNull did not end the search")
        try BenchmarkError.check(layers[2].action(forKey: "opacity") === fade, "program/action/\(n): the style's action was not found")
        return Workload(retaining: [root, deferring, views as AnyObject, layers as AnyObject], run: planted { blackHole(look()) })
    }
}

/// Draws a cell: a fill and a border (`program/display`).
final class ProgramPainter: NSObject, CALayerDelegate {
    private(set) var draws = 0

    func layerWillDraw(_ layer: CALayer) {}

    func draw(_ layer: CALayer, in ctx: CGContext) {
        draws += 1
        ctx.setFillColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
        ctx.fill(layer.bounds)
        ctx.setStrokeColor(gray: 0, alpha: 1)
        ctx.setLineWidth(1)
        ctx.addRect(layer.bounds.insetBy(dx: 2, dy: 2))
        ctx.strokePath()
    }
}

/// A progress ring drawn from its `progress` key, which it displays for (`program/display`).
final class ProgramRingLayer: CALayer {
    override class func needsDisplay(forKey key: String) -> Bool { key == "progress" || super.needsDisplay(forKey: key) }
    override class func defaultValue(forKey key: String) -> Any? { key == "progress" ? 0.0 : super.defaultValue(forKey: key) }

    override func draw(in ctx: CGContext) {
        let progress = (value(forKey: "progress") as? Double) ?? 0
        ctx.addArc(center: CGPoint(x: 20, y: 20), radius: 15, startAngle: 0, endAngle: progress * 2 * .pi, clockwise: false)
        ctx.strokePath()
    }
}

/// Defers every key to the rest of the chain (`program/action`).
final class ProgramDeferringDelegate: NSObject, CALayerDelegate {
    func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
}

/// Counts the starts and stops it is told of (`program/animations`).
final class ProgramAnimationDelegate: NSObject, CAAnimationDelegate {
    private(set) var started = 0, stopped = 0
    func animationDidStart(_ anim: CAAnimation) { started += 1 }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { stopped += 1 }
}
