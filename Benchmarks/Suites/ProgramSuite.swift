import Foundation
import StrataBench
import Strata

/// What a program does with the engine, end to end through its public entry points only: a
/// frame with `renderFrame(atTime:)` over explicit animations of each kind, the frame read out
/// through `presentation()`, the read-out alone, `snapshot()` after a frame, `hitTest(_:)` on
/// an animated tree, reads of the model (`model()`, getters) and by key path
/// (`value(forKeyPath:)`), and a UIKit-style `View.animate` block. The frame, lookup and commit
/// suites count the kernels; these count the paths around them, where a 2x regression of a
/// frame and its read-out once went unseen (issue 58: an exclusivity check on every copy).
///
/// Every body is counted (instructions, estimated cycles, mallocs) and gated in CI, and
/// `PublicEntryPoints` names the body that covers each public entry point. The file uses the
/// engine's public API only, as a user's package does (`scripts/history-backfill` compiles it
/// against earlier commits of the engine).
///
/// Sizes keep each body near 3 million instructions an iteration, so that callgrind counts
/// all of them in about two minutes on two cores (a size is in the name; figures are per
/// item).
///
/// - `program/frame/KIND/1000`: `renderFrame(atTime:)` of 1,000 layers, each running one
///   explicit animation of KIND: `basic` (position), `keyframe` (position, 5 values),
///   `spring` (position), `group` (opacity and position), `path` (position along a cubic
///   path, rotating), `transition` (a push `CATransition`, its state read for one layer in
///   ten); ease-in-ease-out, lasting longer than any run (`long`).
/// - `program/frame-readout/10000`: the issue's program (its animations lasting 1,000 s
///   there, longer than any run here). `renderFrame(atTime:)`, then
///   `presentation()?.position` of each of 10,000 layers (over 4,096 copies a frame, so the
///   engine's sweeps of dropped copies run too).
/// - `program/presentation/1000`: the read-out alone (`presentation()?.position` and
///   `.opacity`), the frame before it in the reset; one layer in ten is of an app's own
///   class, whose copies run its `init(layer:)`.
/// - `program/snapshot/1000`: `renderFrame(atTime:)` and `snapshot()` of a balanced tree of
///   1,000 layers whose 875 leaves animate their position; items mapped back to layers
///   (`layer(at:)`). `program/snapshot-replicator/100`: the same of 100 layers beside a
///   replicator (a spinner), whose instances are read: a tree showing a replicator is built
///   by a full pass every snapshot.
/// - `program/hit-test/20`: `hitTest(_:)` on a 111-layer tree whose cards move (one column a
///   `CATransformLayer`): half on the model tree, half on `presentation()` of the root.
/// - `program/model/1000`: getters of the model (`model()`, position, opacity, bounds,
///   `affineTransform()`) of 1,000 animating layers, and `model()` of a presentation copy.
/// - `program/kvc/100`: `value(forKeyPath:)` of `position.x`, `opacity`,
///   `transform.rotation.z` and `bounds.size.width`, and `value(forKey:)` of an unset custom
///   key, of 100 animating layers.
/// - `program/view-animate/100`: `View.animate(withDuration:...)` (with and without delay and
///   options, a completion, `performWithoutAnimation` inside) moving 100 views; the reset
///   retires the animations. `program/view-spring/100`, `view-keyframes/10` and
///   `view-transition/100`: UIKit's other blocks; `program/property-animator/10`: a
///   `ViewPropertyAnimator` started, paused, scrubbed, continued and finished, and one
///   stopped and finished at its end.
/// - `program/kvc-set/100`: `setValue(_:forKeyPath:)` (`position.x`), `setValue(_:forKey:)`
///   (a custom key) and `setAffineTransform(_:)` in one transaction.
/// - `program/animations/50`: two explicit animations a layer, made with every timing field,
///   a delegate and a value by key, added, started by a frame, read back
///   (`animationKeys()`, `animation(forKey:)`, `value(forKey:)`) and removed
///   (`removeAnimation(forKey:)`, `removeAllAnimations()`).
/// - `program/transaction/1000`: a transaction with its duration, curve, a value and a
///   completion block changing 1,000 layers, and the frames in which its animations run and
///   end (the block runs there); an implicit change flushed.
/// - `program/convert/100`: points and rectangles converted between layers of a moving, timed
///   tree (`convert(_:from:)`, `convert(_:to:)`), `contains(_:)`, `convertTime` both ways.
/// - `program/tree-edits/1000`: `insertSublayer(_:at:)`, `above`, `below`,
///   `replaceSublayer(_:with:)`, `removeFromSuperlayer()` and `sublayers` set in one
///   transaction, and the frame.
/// - `program/layer-churn/100`: 100 layers of the toolbox's classes (and views) made, set up
///   and added, and the previous 100 removed and released (a list recycling its cells).
/// - `program/properties/2`: every public property of each layer class and of a view, set
///   (actions disabled) and read back; `program/make-animations/20`: every animation class
///   made and configured as real code does, added and removed.
/// - `program/action/1000`: `action(forKey:)` called directly, on view, dictionary, style,
///   delegate and toolbox layers.
/// - `program/display/40`: `setNeedsDisplay()` of 40 layers drawn by their delegate and of 10
///   views' layers at the commit (`display()`, `draw(in:)`), `render(in:)` of their tree, and
///   10 progress rings drawn by the frame while their key animates.
public enum ProgramSuite {
    /// The explicit animation kinds `program/frame/KIND/1000` runs.
    public enum Kind: String, CaseIterable {
        case basic, keyframe, spring, group, path, transition
    }

    /// Every body's name, in the order they run.
    public static var names: [String] { cases().map(\.name) }

    public static func cases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for kind in Kind.allCases {
            cases.append(programCase("program/frame/\(kind.rawValue)/1000", items: 1_000, item: "layer",
                                     ["entry": "renderFrame(atTime:)", "kind": kind.rawValue]) { try frameWorkload(kind, n: 1_000) })
        }
        cases.append(programCase("program/frame-readout/10000", items: 10_000, item: "layer",
                                 ["entry": "renderFrame(atTime:) + presentation()"], unit: .microseconds) { try readoutWorkload(n: 10_000, withFrame: true) })
        cases.append(programCase("program/presentation/1000", items: 1_000, item: "layer",
                                 ["entry": "presentation()"], resets: true) { try readoutWorkload(n: 1_000, withFrame: false) })
        cases.append(programCase("program/snapshot/1000", items: 1_000, item: "layer",
                                 ["entry": "renderFrame(atTime:) + snapshot()"]) { try snapshotWorkload(n: 1_000, replicator: false) })
        cases.append(programCase("program/snapshot-replicator/100", items: 100, item: "layer",
                                 ["entry": "renderFrame(atTime:) + snapshot() beside a CAReplicatorLayer"]) { try snapshotWorkload(n: 100, replicator: true) })
        cases.append(programCase("program/hit-test/20", items: 20, item: "call",
                                 ["entry": "hitTest(_:)"]) { try hitTestWorkload(calls: 20) })
        cases.append(programCase("program/model/1000", items: 1_000, item: "layer",
                                 ["entry": "model() + getters"]) { try modelWorkload(n: 1_000, keyPaths: false) })
        cases.append(programCase("program/kvc/100", items: 100, item: "layer",
                                 ["entry": "value(forKeyPath:)"]) { try modelWorkload(n: 100, keyPaths: true) })
        cases.append(programCase("program/view-animate/100", items: 100, item: "view",
                                 ["entry": "View.animate(withDuration:delay:options:animations:completion:)"], resets: true) { try viewAnimateWorkload(n: 100) })
        for block in ViewBlock.allCases {
            let n = block == .keyframes ? 10 : 100
            cases.append(programCase("program/view-\(block.rawValue)/\(n)", items: n, item: "view",
                                     ["entry": block.entry], resets: true) { try viewBlockWorkload(block, n: n) })
        }
        cases.append(programCase("program/property-animator/10", items: 10, item: "view",
                                 ["entry": "ViewPropertyAnimator"], resets: true) { try propertyAnimatorWorkload(n: 10) })
        cases.append(programCase("program/kvc-set/100", items: 100, item: "layer",
                                 ["entry": "setValue(_:forKeyPath:)"], resets: true) { try kvcSetWorkload(n: 100) })
        cases.append(programCase("program/animations/50", items: 50, item: "layer",
                                 ["entry": "add(_:forKey:) + animation(forKey:) + removeAnimation(forKey:)"]) { try animationsWorkload(n: 50) })
        cases.append(programCase("program/transaction/1000", items: 1_000, item: "change",
                                 ["entry": "CATransaction + completion block"]) { try transactionWorkload(n: 1_000) })
        cases.append(programCase("program/convert/100", items: 100, item: "call",
                                 ["entry": "convert(_:from:) + convertTime(_:from:)"]) { try convertWorkload() })
        cases.append(programCase("program/tree-edits/1000", items: 1_000, item: "edit",
                                 ["entry": "insertSublayer + replaceSublayer + removeFromSuperlayer"]) { try treeEditsWorkload(n: 1_000) })
        cases.append(programCase("program/layer-churn/100", items: 100, item: "layer",
                                 ["entry": "CALayer.init() + deinit"]) { try layerChurnWorkload(n: 100) })
        cases.append(programCase("program/properties/2", items: 2, item: "slot",
                                 ["entry": "every layer and view property, set and read"]) { try propertiesWorkload(n: 2) })
        cases.append(programCase("program/make-animations/20", items: 20, item: "layer",
                                 ["entry": "every animation class, made and configured"]) { try makeAnimationsWorkload(n: 20) })
        cases.append(programCase("program/action/1000", items: 1_000, item: "lookup",
                                 ["entry": "action(forKey:)"]) { try actionWorkload(n: 1_000) })
        cases.append(programCase("program/display/40", items: 40, item: "layer",
                                 ["entry": "setNeedsDisplay() + draw(in:) + render(in:)"]) { try displayWorkload(n: 40) })
        return cases
    }

    /// Timed in CI's quick run too (every body is counted whatever the selection).
    static let quickNames: Set<String> = ["program/frame/basic/1000", "program/frame-readout/10000", "program/presentation/1000",
                                          "program/snapshot/1000", "program/view-animate/100"]

    private static func programCase(_ name: String, items: Int, item: String, _ parameters: [String: String],
                                    unit: TimeUnit = .nanoseconds, resets: Bool = false,
                                    make: @escaping () throws -> Workload) -> BenchmarkCase {
        BenchmarkCase(name, items: items, item: item, unit: unit, quick: quickNames.contains(name), resets: resets,
                      parameters: parameters.merging(["suite": "program", "n": "\(items)"]) { a, _ in a }, make: make)
    }

    // MARK: fixtures

    static let step = 1.0 / 120
    /// Every body's animations outlast any run: Google Benchmark times a body for up to
    /// millions of iterations, each a frame 1/120 s on, and animations of 1,000 s ended
    /// inside the timed repetitions (the frames then had nothing to do: a frame of 1,000
    /// layers "took" 0.09 ns a layer, the repetitions' spread over 100%).
    static let long = 1e9

    /// `n` layers under a root, 20 x 20 each in a grid, committed and rendered once.
    static func flatTree(_ n: Int, make: (Int) -> CALayer = { _ in CALayer() }) -> (CALayer, [CALayer], CARenderer) {
        let root = CALayer()
        var layers: [CALayer] = []
        layers.reserveCapacity(n)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 2_000, height: 2_000)
        for i in 0..<n {
            let l = make(i)
            l.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
            l.position = CGPoint(x: Double(i % 100) * 20, y: Double(i / 100) * 20)
            root.addSublayer(l)
            layers.append(l)
        }
        CATransaction.commit()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        return (root, layers, renderer)
    }

    /// Layer `i`'s explicit animation of `kind`, lasting `long`, ease-in-ease-out.
    static func animation(_ kind: Kind, _ i: Int) -> CAAnimation {
        let x = Double(i % 100) * 20, y = Double(i / 100) * 20
        let a: CAAnimation
        switch kind {
        case .basic:
            let b = CABasicAnimation(keyPath: "position")
            b.fromValue = CGPoint(x: x, y: y)
            b.toValue = CGPoint(x: x + 200, y: y + 100)
            a = b
        case .keyframe:
            let k = CAKeyframeAnimation(keyPath: "position")
            k.values = (0..<5).map { CGPoint(x: x + Double($0) * 50, y: y + Double($0 % 2) * 40) }
            k.keyTimes = [0, 0.2, 0.5, 0.7, 1]
            a = k
        case .spring:
            let s = CASpringAnimation(keyPath: "position")
            s.fromValue = CGPoint(x: x, y: y)
            s.toValue = CGPoint(x: x + 200, y: y)
            s.stiffness = 0.01   // slow enough to be mid-flight for the whole run
            s.damping = 0.05
            a = s
        case .group:
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.0
            fade.toValue = 1.0
            let move = CABasicAnimation(keyPath: "position")
            move.fromValue = CGPoint(x: x, y: y)
            move.toValue = CGPoint(x: x, y: y + 300)
            let g = CAAnimationGroup()
            g.animations = [fade, move]
            a = g
        case .path:
            let k = CAKeyframeAnimation(keyPath: "position")
            let p = CGMutablePath()
            p.move(to: CGPoint(x: x, y: y))
            p.addCurve(to: CGPoint(x: x + 300, y: y), control1: CGPoint(x: x + 100, y: y - 200), control2: CGPoint(x: x + 200, y: y + 200))
            k.path = p
            k.rotationMode = .rotateAuto
            a = k
        case .transition:
            let t = CATransition()
            t.type = .push
            t.subtype = .fromRight
            a = t
        }
        a.duration = long
        a.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        return a
    }

    /// The key each kind is added under (a transition's is always `kCATransition`).
    static func key(_ kind: Kind) -> String { kind == .transition ? kCATransition : "program" }

    /// The benchmark-only slowdown knob (`STRATA_BENCH_INJECT_SLOWDOWN=P`, as the frame
    /// bodies'): the body's work once more every 100/P iterations. 0 when unset.
    static let plantedPeriod: Int = {
        guard let text = ProcessInfo.processInfo.environment["STRATA_BENCH_INJECT_SLOWDOWN"], let p = Double(text), p > 0, p <= 100 else { return 0 }
        return Int((100 / p).rounded())
    }()

    /// `work` as the body, run once more every `plantedPeriod` iterations under the knob.
    static func planted(_ work: @escaping () -> Void) -> () -> Void {
        let period = plantedPeriod
        guard period > 0 else { return work }
        var iteration = 0
        return {
            work()
            iteration += 1
            if iteration % period == 0 { work() }
        }
    }

    // MARK: bodies

    static func frameWorkload(_ kind: Kind, n: Int) throws -> Workload {
        let (root, layers, renderer) = flatTree(n)
        CATransaction.begin()
        for (i, l) in layers.enumerated() { l.add(animation(kind, i), forKey: key(kind)) }
        CATransaction.commit()
        var t = long / 2   // halfway: every kind mid-flight
        renderer.renderFrame(atTime: t)
        let name = "program/frame/\(kind.rawValue)/\(n)"
        // Precondition: every layer runs its animation and shows it mid-flight.
        for i in stride(from: 0, to: n, by: 97) {
            let l = layers[i]
            try BenchmarkError.check(l.animationKeys() == [key(kind)], "\(name): layer \(i) runs \(l.animationKeys() ?? [])")
            guard let p = l.presentation() else { throw BenchmarkError("\(name): layer \(i) has no presentation") }
            switch kind {
            case .transition:
                break
            case .group:
                try BenchmarkError.check(p.opacity > 0 && p.opacity < 1, "\(name): layer \(i) opacity \(p.opacity), expected mid-fade")
            default:
                try BenchmarkError.check(p.position != l.position, "\(name): layer \(i) is not moving (\(p.position))")
            }
        }
        if kind == .transition {
            let state = layers[0].presentation()?.runningTransition
            try BenchmarkError.check(state.map { $0.progress > 0 && $0.progress < 1 } ?? false,
                                     "\(name): layer 0 shows no transition in flight (\(String(describing: state)))")
        }
        let shown = kind == .transition ? stride(from: 0, to: n, by: 10).map { layers[$0] } : []
        return Workload(retaining: [root, renderer, layers as AnyObject], run: planted {
            t += step
            renderer.renderFrame(atTime: t)
            // A renderer drawing transitions reads each one's state.
            for l in shown { blackHole(l.runningTransition) }
        })
    }

    /// `withFrame`: a frame, then the read-out (the body); otherwise the read-out alone, the
    /// frame in the reset. Each layer moves on its own explicit position animation.
    static func readoutWorkload(n: Int, withFrame: Bool) throws -> Workload {
        // The read-out alone: one layer in ten of a class of the app's own (its copies run
        // its `init(layer:)`).
        let (root, layers, renderer) = flatTree(n) { i in !withFrame && i % 10 == 9 ? ProgramCardLayer() : CALayer() }
        CATransaction.begin()
        for (i, l) in layers.enumerated() { l.add(animation(.basic, i), forKey: "move") }
        CATransaction.commit()
        var t = long / 2
        renderer.renderFrame(atTime: t)
        let readOut: () -> Double = {
            var s = 0.0
            if withFrame {
                for l in layers { if let p = l.presentation()?.position { s += p.x + p.y } }
            } else {
                for l in layers {
                    if let p = l.presentation() { s += p.position.x + Double(p.opacity) }
                }
            }
            return s
        }
        if !withFrame {
            let card = layers[9].presentation() as? ProgramCardLayer
            try BenchmarkError.check(card?.copiedFrom == 9, "program/presentation/\(n): the card's copy did not run its init(layer:)")
        }
        // Precondition: the read-out sees the layers moving (not the model values).
        let model = layers.reduce(0.0) { $0 + $1.position.x + $1.position.y }
        let shown = readOut()
        try BenchmarkError.check(shown.isFinite && abs(shown - model) > 1, "program read-out of \(n): \(shown), the model's \(model): not animating")
        if withFrame {
            return Workload(retaining: [root, renderer, layers as AnyObject], run: planted {
                t += step
                renderer.renderFrame(atTime: t)
                blackHole(readOut())
            })
        }
        return Workload(retaining: [root, renderer, layers as AnyObject],
                        reset: { t += step; renderer.renderFrame(atTime: t) },
                        run: planted { blackHole(readOut()) })
    }

    /// A balanced tree (fan-out 8) of `n` layers whose leaves move; a frame and its snapshot.
    /// `replicator`: a spinner beside the tree (a replicator drawing its dot 8 times), whose
    /// instances are read too; a tree showing a replicator is built by a full pass every
    /// snapshot (`SnapshotBuilder.snapshot`), so this is a path of its own.
    static func snapshotWorkload(n: Int, replicator: Bool) throws -> Workload {
        let root = CALayer()
        var all = [root], leaves: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        var next = 0
        while all.count < n {
            let parent = all[next]
            next += 1
            for _ in 0..<8 where all.count < n {
                let l = CALayer()
                l.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
                l.position = CGPoint(x: Double(all.count % 50) * 4, y: Double(all.count % 30) * 4)
                l.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: Double(all.count % 10) / 10, alpha: 1)
                parent.addSublayer(l)
                all.append(l)
            }
        }
        for l in all where l.sublayers?.isEmpty ?? true { leaves.append(l) }
        let spinner = CAReplicatorLayer(), dot = CALayer()
        spinner.instanceCount = 8
        spinner.instanceTransform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        spinner.instanceColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        spinner.instanceAlphaOffset = -0.1
        dot.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        dot.backgroundColor = CGColor(red: 0.9, green: 0.9, blue: 0.9, alpha: 1)
        spinner.addSublayer(dot)
        if replicator { root.addSublayer(spinner) }
        CATransaction.commit()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        _ = renderer.snapshot()
        CATransaction.begin()
        for (i, l) in leaves.enumerated() { l.add(animation(.basic, i), forKey: "move") }
        CATransaction.commit()
        var t = long / 2
        renderer.renderFrame(atTime: t)
        let first = renderer.snapshot()
        let name = replicator ? "program/snapshot-replicator/\(n)" : "program/snapshot/\(n)"
        // The tree's layers (and the replicator and its dot's 8 instances).
        let items = n + (replicator ? 9 : 0)
        try BenchmarkError.check(first.count == items, "\(name): \(first.count) items, expected \(items)")
        // (Slot 0 after a full pass is the root; slots, not draw positions, so that this
        // file also builds against engines from before the draw order, for history-backfill.)
        try BenchmarkError.check(first.layer(at: 0) === root, "\(name): the first item is not the root")
        t += step
        renderer.renderFrame(atTime: t)
        let update = renderer.snapshot()
        try BenchmarkError.check(update.recomputedItems >= leaves.count,
                                 "\(name): the update recomputed \(update.recomputedItems) items, \(leaves.count) move")
        try BenchmarkError.check(update.wasFullPass == replicator, "\(name): the snapshot after a frame was \(update.wasFullPass ? "" : "not ")a full pass")
        return Workload(retaining: [root, renderer, all as AnyObject, spinner], run: planted {
            t += step
            renderer.renderFrame(atTime: t)
            let frame = renderer.snapshot()
            // A renderer mapping items back to layers (one in ten) and the replicator's instances.
            var mapped = 0
            for k in stride(from: 0, to: frame.count, by: 10) where frame.layer(at: k) != nil { mapped += 1 }
            if replicator {
                for k in 0..<spinner.instanceCount {
                    blackHole((spinner.effectiveInstanceTransform(at: k), spinner.effectiveInstanceColor(at: k)))
                }
            }
            blackHole(mapped)
        })
    }

    /// A root of 10 columns, each with 10 cards (111 layers); the cards move, the columns
    /// slide. 100 points a call each: even calls on the model tree, odd ones on the
    /// presentation tree (what code hit-testing moving layers does).
    static func hitTestWorkload(calls: Int) throws -> Workload {
        let root = CALayer()
        var cards: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 1_000, height: 1_000)
        root.position = CGPoint(x: 500, y: 500)
        for c in 0..<10 {
            // The first column a transform layer (its own hitTest: only its sublayers are hit).
            let column = c == 0 ? CATransformLayer() : CALayer()
            column.bounds = CGRect(x: 0, y: 0, width: 100, height: 1_000)
            column.position = CGPoint(x: Double(c) * 100 + 50, y: 500)
            root.addSublayer(column)
            for r in 0..<10 {
                let card = CALayer()
                card.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
                card.position = CGPoint(x: 50, y: Double(r) * 100 + 50)
                column.addSublayer(card)
                cards.append(card)
            }
        }
        CATransaction.commit()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        CATransaction.begin()
        for (i, card) in cards.enumerated() {
            let wobble = CABasicAnimation(keyPath: "position.x")
            wobble.fromValue = 40.0
            wobble.toValue = 60.0
            wobble.duration = long
            wobble.beginTime = 0.001 * Double(i)
            card.add(wobble, forKey: "wobble")
        }
        CATransaction.commit()
        renderer.renderFrame(atTime: 10)
        let points = (0..<calls).map { CGPoint(x: Double($0 % 10) * 100 + 50, y: Double($0 / 10 % 10) * 100 + 50) }
        // Precondition: every point hits its card, on both trees.
        for (i, p) in points.enumerated() {
            try BenchmarkError.check(root.hitTest(p) === cards[(i % 10) * 10 + i / 10 % 10], "program/hit-test/\(calls): point \(p) misses its card on the model tree")
            try BenchmarkError.check(root.presentation()?.hitTest(p)?.model() === cards[(i % 10) * 10 + i / 10 % 10],
                                     "program/hit-test/\(calls): point \(p) misses its card on the presentation tree")
        }
        var t = 10.0
        return Workload(retaining: [root, renderer, cards as AnyObject],
                        run: planted {
                            t += step
                            renderer.renderFrame(atTime: t)
                            var hits = 0
                            let shown = root.presentation()
                            for (i, p) in points.enumerated() {
                                if (i & 1 == 0 ? root.hitTest(p) : shown?.hitTest(p)) != nil { hits += 1 }
                            }
                            blackHole(hits)
                        })
    }

    /// Model reads (`keyPaths` false) or key-path reads of `n` layers each running an explicit
    /// position animation and a rotation.
    static func modelWorkload(n: Int, keyPaths: Bool) throws -> Workload {
        let (root, layers, renderer) = flatTree(n)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for (i, l) in layers.enumerated() { l.transform = CATransform3DMakeRotation(Double(i % 7) * 0.1, 0, 0, 1) }
        CATransaction.commit()
        for (i, l) in layers.enumerated() { l.add(animation(.basic, i), forKey: "move") }
        renderer.renderFrame(atTime: 1)
        let copy = layers[n / 2].presentation()
        try BenchmarkError.check(copy?.model() === layers[n / 2], "program/model: a presentation copy's model() is not its layer")
        let name = keyPaths ? "program/kvc/\(n)" : "program/model/\(n)"
        let keys = ["position.x", "opacity", "transform.rotation.z", "bounds.size.width"]
        let kvc: (CALayer) -> Double = { l in
            // A custom key never set reads its class's default (nil for CALayer's).
            var s = l.value(forKey: "programUnset") == nil ? 0.0 : .nan
            for k in keys {
                switch l.value(forKeyPath: k) {
                case let v as CGFloat: s += Double(v)
                case let v as Double: s += v
                case let v as Float: s += Double(v)
                case let v as NSNumber: s += v.doubleValue
                default: s = .nan
                }
            }
            return s
        }
        let reads: () -> Double = keyPaths ? {
            var s = 0.0
            for l in layers { s += kvc(l) }
            return s
        } : {
            var s = 0.0
            for l in layers {
                let m = l.model()
                s += m.position.x + Double(m.opacity) + m.bounds.width + m.affineTransform().b
            }
            if let c = copy { s += c.model().position.y }
            return s
        }
        // Precondition: the reads give the model values (not the animated ones), all readable.
        let layer = layers[n - 1]
        let expected = keyPaths
            ? Double(layer.position.x) + Double(layer.opacity) + Double((n - 1) % 7) * 0.1 + 20
            : Double(layer.position.x) + 1 + 20
        let got = keyPaths ? kvc(layer) : { let m = layer.model(); return m.position.x + Double(m.opacity) + m.bounds.width }()
        let b = layer.affineTransform().b, turn = Double((n - 1) % 7) * 0.1
        try BenchmarkError.check(abs(b - sin(turn)) < 1e-9, "\(name): affineTransform().b \(b), expected sin(\(turn))")
        try BenchmarkError.check(abs(got - expected) < 1e-6, "\(name): the last layer reads \(got), expected \(expected)")
        try BenchmarkError.check(reads().isFinite, "\(name): a key path gave no number")
        return Workload(retaining: [root, renderer, layers as AnyObject] + (copy.map { [$0] } ?? []),
                        run: planted { blackHole(reads()) })
    }

    /// `n` host views moved and faded in one animation block; the reset retires the block's
    /// animations (a frame 1,000 s on).
    static func viewAnimateWorkload(n: Int) throws -> Workload {
        let container = View(frame: CGRect(x: 0, y: 0, width: 2_000, height: 2_000))
        var views: [View] = []
        for i in 0..<n {
            let v = View(frame: CGRect(x: Double(i % 100) * 20, y: Double(i / 100) * 20, width: 20, height: 20))
            container.addSubview(v)
            views.append(v)
        }
        let renderer = CARenderer(layer: container.layer)
        var t = 0.0
        renderer.renderFrame(atTime: t)
        var on = false, completions = 0
        let run = {
            on.toggle()
            let dy = on ? 10.0 : -10.0
            let changes = {
                for v in views {
                    v.alpha = on ? 0.5 : 1
                    v.center = CGPoint(x: v.center.x, y: v.center.y + dy)
                }
                // A change inside the block that must not animate.
                View.performWithoutAnimation { views[0].isHidden = false }
            }
            if on {
                View.animate(withDuration: 0.3, delay: 0, options: [.curveEaseOut], animations: changes,
                             completion: { finished in completions += finished ? 1 : 0 })
            } else {
                View.animate(withDuration: 0.3, animations: changes, completion: { finished in completions += finished ? 1 : 0 })
            }
        }
        let reset = {
            t += 1_000
            renderer.renderFrame(atTime: t)
        }
        // Precondition: one block starts two animations a view, and the views move.
        reset()
        let before = StrataEngine.activeAnimationCount
        run()
        renderer.renderFrame(atTime: t + 0.15)
        let started = StrataEngine.activeAnimationCount - before
        try BenchmarkError.check(started == 2 * n, "program/view-animate/\(n): \(started) animations running, expected \(2 * n)")
        let alpha = views[n / 2].layer.presentation()?.opacity ?? -1
        try BenchmarkError.check(alpha > 0.5 && alpha < 1, "program/view-animate/\(n): presented alpha \(alpha) mid-block, expected between 0.5 and 1")
        reset()
        try BenchmarkError.check(StrataEngine.activeAnimationCount == before, "program/view-animate/\(n): animations left after reset")
        try BenchmarkError.check(completions == 1, "program/view-animate/\(n): the block's completion ran \(completions) times, expected once")
        return Workload(retaining: [container, renderer, views as AnyObject], reset: reset, run: planted(run))
    }
}

/// A layer class of the app's own with state its `init(layer:)` copies (`program/presentation`).
final class ProgramCardLayer: CALayer {
    var copiedFrom = -1
    var index = 9

    override init() { super.init() }

    override init(layer: Any) {
        super.init(layer: layer)
        if let card = layer as? ProgramCardLayer { index = card.index; copiedFrom = card.index }
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }
}
