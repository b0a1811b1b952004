import XCTest
@testable import Strata

/// `n` layers added under a root with actions disabled, and a renderer of the root (which
/// holds it) after a first frame at 0: on a fresh engine, the layers take consecutive rows.
private func flatTree(_ n: Int) -> (renderer: CARenderer, layers: [CALayer]) {
    let root = CALayer()
    let renderer = CARenderer(layer: root)
    let layers = (0..<n).map { _ in CALayer() }
    withActionsDisabled { for l in layers { root.addSublayer(l) } }
    renderer.renderFrame(atTime: 0)
    return (renderer, layers)
}

/// Blocks of 8 animations on 8 consecutive layer rows are written with vector stores (lanes
/// interleaved per layer for 2- and 4-lane properties); every other block is scattered. Both
/// must show the same values, including after removals have swapped slots between blocks.
final class LaneRunTests: XCTestCase {
    func test_consecutiveRowsAndScatteredBlocksShowTheSameLinearValues() {
        onFreshEngine {
            let n = 83   // 10 whole blocks and a tail of 3
            let (renderer, layers) = flatTree(n)
            let rows = layers.map(\.row)
            XCTAssertEqual(rows, Array(rows[0]..<rows[0] + Int32(n)), "a fresh engine hands out consecutive rows")
            func colour(_ i: Int) -> CGColor {
                CGColor(red: Double(i % 7) / 7, green: Double(i % 5) / 5, blue: Double(i % 3) / 3, alpha: 1)
            }
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            for (i, l) in layers.enumerated() {
                l.opacity = Float(i % 4) / 4
                l.position = CGPoint(x: Double(i), y: Double(2 * i))
                l.backgroundColor = colour(i)
            }
            CATransaction.commit()
            // Remove every 17th layer's position animation: swap-removes move the last slots
            // into blocks 0, 2, 4, 6 and 8 and break their runs; the other blocks keep theirs.
            let removed = Set(stride(from: 3, to: n, by: 17))
            for i in removed { layers[i].removeAnimation(forKey: "position") }
            for t in [0.25, 0.5, 0.75] {
                renderer.renderFrame(atTime: t)
                for (i, l) in layers.enumerated() {
                    let p = l.presentation()!
                    XCTAssertEqual(Double(p.opacity), 1 + (Double(i % 4) / 4 - 1) * t, accuracy: 1e-6, "opacity of layer \(i) at \(t)")
                    let position = removed.contains(i) ? CGPoint(x: Double(i), y: Double(2 * i)) : CGPoint(x: Double(i) * t, y: Double(2 * i) * t)
                    XCTAssertEqual(p.position.x, position.x, accuracy: 1e-9, "position.x of layer \(i) at \(t)")
                    XCTAssertEqual(p.position.y, position.y, accuracy: 1e-9, "position.y of layer \(i) at \(t)")
                    // From no colour (transparent black, chosen) to the layer's colour.
                    let c = colour(i).components!, shown = p.backgroundColor!.components!
                    for k in 0..<4 { XCTAssertEqual(shown[k], c[k] * t, accuracy: 1e-9, "colour \(k) of layer \(i) at \(t)") }
                }
            }
            let track = EngineContext.current.animations.tracks.first { $0.property == .position }!
            XCTAssertEqual(track.count, n - removed.count)
            XCTAssertGreaterThan((0..<(track.count / 8)).filter { track.runs[$0] != 0 }.count, 0, "some blocks kept a run")
            XCTAssertLessThan((0..<(track.count / 8)).filter { track.runs[$0] != 0 }.count, track.count / 8, "removals broke some runs")
        }
    }

    /// 2-, 4- and 16-lane tracks keep each slot's lanes together: a block whose 8 slots
    /// have three timings between them gives each layer its own progress, and scattered
    /// rows (after removals) each take their own lanes.
    func test_interleavedLanesWithTimingsOfTheirOwnAndScatteredRows() {
        onFreshEngine {
            let n = 77
            let (renderer, layers) = flatTree(n)
            func colour(_ i: Int) -> CGColor {
                CGColor(red: Double(i % 7) / 7, green: Double(i % 5) / 5, blue: Double(i % 3) / 3, alpha: Double(i % 2))
            }
            func duration(_ i: Int) -> Double { 1 + Double(i % 3) / 2 }
            inTransaction {
                for (i, l) in layers.enumerated() {
                    let c = CABasicAnimation(keyPath: "backgroundColor")
                    c.fromValue = colour(i + 1)
                    c.toValue = colour(i)
                    c.duration = duration(i)
                    c.timingFunction = CAMediaTimingFunction(name: .linear)
                    l.add(c, forKey: "c")
                    let p = CABasicAnimation(keyPath: "position")
                    p.fromValue = CGPoint(x: -Double(i), y: 5)
                    p.toValue = CGPoint(x: Double(i), y: Double(3 * i))
                    p.duration = duration(i)
                    p.timingFunction = CAMediaTimingFunction(name: .linear)
                    l.add(p, forKey: "p")
                    // Scale and translation only: entry by entry, no decomposition.
                    let m = CABasicAnimation(keyPath: "transform")
                    m.fromValue = CATransform3DMakeScale(Double(1 + i % 3), 1, 1)
                    m.toValue = CATransform3DMakeTranslation(Double(i), 3, 0)
                    m.duration = duration(i)
                    m.timingFunction = CAMediaTimingFunction(name: .linear)
                    l.add(m, forKey: "m")
                }
            }
            // Swap-removes move the last slots into the holes: those blocks' rows scatter.
            let removed = Set(stride(from: 2, to: n, by: 9))
            for i in removed { for key in ["c", "p", "m"] { layers[i].removeAnimation(forKey: key) } }
            for t in [0.2, 0.7, 1.2] {
                renderer.renderFrame(atTime: t)
                for (i, l) in layers.enumerated() {
                    let shown = l.presentation()!
                    if removed.contains(i) {
                        XCTAssertEqual(shown.position, .zero, "layer \(i) at \(t)")
                        XCTAssertNil(shown.backgroundColor, "layer \(i) at \(t)")
                        XCTAssertTrue(CATransform3DIsIdentity(shown.transform), "layer \(i) at \(t)")
                        continue
                    }
                    let u = t / duration(i)
                    if u >= 1 { continue }   // completed and removed
                    XCTAssertEqual(shown.position.x, -Double(i) + 2 * Double(i) * u, accuracy: 1e-9, "layer \(i) at \(t)")
                    XCTAssertEqual(shown.position.y, 5 + (3 * Double(i) - 5) * u, accuracy: 1e-9, "layer \(i) at \(t)")
                    let a = colour(i + 1).components!, b = colour(i).components!, c = shown.backgroundColor!.components!
                    for k in 0..<4 { XCTAssertEqual(c[k], a[k] + (b[k] - a[k]) * u, accuracy: 1e-9, "colour \(k) of layer \(i) at \(t)") }
                    let m = shown.transform
                    XCTAssertEqual(m.m11, Double(1 + i % 3) + (1 - Double(1 + i % 3)) * u, accuracy: 1e-9, "m11 of layer \(i) at \(t)")
                    XCTAssertEqual(m.m41, Double(i) * u, accuracy: 1e-9, "m41 of layer \(i) at \(t)")
                    XCTAssertEqual(m.m42, 3 * u, accuracy: 1e-9, "m42 of layer \(i) at \(t)")
                    XCTAssertEqual(m.m22, 1, "m22 of layer \(i) at \(t)")
                    XCTAssertEqual(m.m44, 1, "m44 of layer \(i) at \(t)")
                }
            }
            let tracks = EngineContext.current.animations.tracks
            let colours = tracks.first { $0.property == .backgroundColor }!, positions = tracks.first { $0.property == .position }!
            let matrices = tracks.first { $0.property == .transform && $0.width == 16 }!
            XCTAssertTrue(colours.interleaved && positions.interleaved && matrices.interleaved)
            XCTAssertLessThan((0..<(colours.count / 8)).filter { colours.runs[$0] != 0 }.count, colours.count / 8, "removals broke some runs")
        }
    }

    /// Composed slots (two animations on one layer's position) moved by swap-removes, and an
    /// uncomposed slot moved by one that becomes composed afterwards, show the composed value:
    /// the animation list's value with the additive one added. (A moved slot carries its
    /// scratch lanes only when composed; a frame writes them before composing.)
    func test_composedSlotsMovedBySwapRemovesKeepTheirValues() {
        onFreshEngine {
            let n = 24
            let (renderer, layers) = flatTree(n)
            func linear(_ from: CGPoint, _ to: CGPoint, begin: Double, additive: Bool) -> CABasicAnimation {
                let a = CABasicAnimation(keyPath: "position")
                a.fromValue = from
                a.toValue = to
                a.isAdditive = additive
                a.beginTime = begin   // absolute, in layer time (0: at the commit)
                a.duration = 1
                a.timingFunction = CAMediaTimingFunction(name: .linear)
                return a
            }
            func offset(_ i: Int) -> CGPoint { CGPoint(x: 1, y: Double(100 + i)) }
            // Every layer: an implicit move from (0, 0) to (10 i, -i); odd layers: an additive
            // animation on top, whose slots come after all the implicit ones in the track.
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            for (i, l) in layers.enumerated() { l.position = CGPoint(x: Double(10 * i), y: -Double(i)) }
            for i in stride(from: 1, to: n, by: 2) { layers[i].add(linear(.zero, offset(i), begin: 0, additive: true), forKey: "add") }
            CATransaction.commit()
            renderer.renderFrame(atTime: 0.1)
            // Removing an implicit animation moves the track's last slot, a composed additive
            // one, into its hole: layer 1's (composed itself), 2's and 6's.
            for i in [1, 2, 6] { layers[i].removeAnimation(forKey: "position") }
            // Layer 6 moves on from (60, -6) to (70, -7), from 0.1: an uncomposed slot at the
            // track's end, which the removal of layer 10's animation moves into its hole; then
            // an additive animation from 0.1 makes it composed.
            layers[6].add(linear(CGPoint(x: 60, y: -6), CGPoint(x: 70, y: -7), begin: 0.1, additive: false), forKey: "again")
            layers[10].removeAnimation(forKey: "position")
            layers[6].add(linear(.zero, offset(6), begin: 0.1, additive: true), forKey: "add")
            let track = EngineContext.current.animations.tracks.first { $0.property == .position && $0.width == 2 }!
            XCTAssertEqual(track.layer[10], layers[6].row, "layer 6's first animation was moved into slot 10")
            XCTAssertEqual(track.layer[track.count - 1], layers[6].row, "its additive one is the last slot")
            func expected(_ i: Int, _ t: Double) -> CGPoint {
                let model = CGPoint(x: Double(10 * i), y: -Double(i))
                var p: CGPoint
                switch i {
                case 1, 2, 10: p = model
                case 6: p = CGPoint(x: 60 + 10 * (t - 0.1), y: -6 - (t - 0.1))
                default: p = CGPoint(x: model.x * t, y: model.y * t)
                }
                if i % 2 == 1 || i == 6 {
                    let v = i == 6 ? t - 0.1 : t
                    p.x += offset(i).x * v
                    p.y += offset(i).y * v
                }
                return p
            }
            for t in [0.25, 0.5, 0.75] {
                renderer.renderFrame(atTime: t)
                for (i, l) in layers.enumerated() {
                    let shown = l.presentation()!.position, p = expected(i, t)
                    XCTAssertEqual(shown.x, p.x, accuracy: 1e-9, "x of layer \(i) at \(t)")
                    XCTAssertEqual(shown.y, p.y, accuracy: 1e-9, "y of layer \(i) at \(t)")
                }
            }
            // 24 implicit less 4, 12 additive and layer 6's two.
            XCTAssertEqual(track.count, n - 4 + n / 2 + 2)
        }
    }
}

/// Keyframe tracks keep their keys in pools compacted once half is garbage, and remember
/// each animation's segment between frames. Neither may change a value.
final class KeyframePoolTests: XCTestCase {
    static let n = 300

    /// `n` layers under a root, layer i given `animation(i)` as "k" in one transaction, then
    /// a frame at each of `times`; before the frame of step `removeAt`, every layer but each
    /// fifth loses its animation. `check(i, layer, t, removed)` after every frame. Returns
    /// the root and the layers, for the caller to keep alive while it reads the track.
    private static func framesWithRemovals(times: [Double], removeAt: Int, animation: (Int) -> CAAnimation,
                                           check: (Int, CALayer, Double, Bool) -> Void) -> [CALayer] {
        let (renderer, layers) = flatTree(n)
        inTransaction { for (i, l) in layers.enumerated() { l.add(animation(i), forKey: "k") } }
        var removed = Set<Int>()
        for (step, t) in times.enumerated() {
            if step == removeAt {
                for i in 0..<n where i % 5 != 0 { layers[i].removeAnimation(forKey: "k"); removed.insert(i) }
            }
            renderer.renderFrame(atTime: t)
            for (i, l) in layers.enumerated() { check(i, l, t, removed.contains(i)) }
        }
        return [renderer.layer!] + layers
    }

    func test_valuesSurviveCompactionAndSegmentHints() {
        onFreshEngine {
            let n = Self.n
            func keys(_ i: Int) -> [Double] { (0..<8).map { Double((i * 7 + $0 * 13) % 50) } }
            // Frames forward (the hint moves a segment at a time), then removals enough to
            // compact the pools (the survivors' keys are copied), then a jump back in time.
            let alive = Self.framesWithRemovals(times: [0.05, 0.2, 0.33, 0.5, 0.51, 0.9, 0.12], removeAt: 4, animation: { i in
                let a = CAKeyframeAnimation(keyPath: "position.x")
                a.values = keys(i).map { NSNumber(value: $0) }
                a.duration = 1
                return a
            }) { i, l, t, removed in
                let shown = Double(l.presentation()!.position.x)
                if removed { XCTAssertEqual(shown, 0, "layer \(i) at \(t): no animation, the model"); return }
                let k = keys(i), u = t * 7, seg = min(Int(u), 6), local = u - Double(seg)
                XCTAssertEqual(shown, k[seg] + (k[seg + 1] - k[seg]) * local, accuracy: 1e-9, "layer \(i) at \(t)")
            }
            // One key schedule for all of them (equal key times, no curves): its members and
            // the slots still point at each other after the swaps.
            withExtendedLifetime(alive) {
                let track = EngineContext.current.animations.keyframeTracks[0]
                XCTAssertEqual(track.count, n / 5)
                XCTAssertEqual(track.pooledSlots, 0)
                XCTAssertEqual(track.schedules.filter { $0.count > 0 }.count, 1)
                for s in 0..<track.count {
                    let g = Int(track.schedule[s])
                    XCTAssertGreaterThanOrEqual(g, 0)
                    XCTAssertEqual(track.schedules[g].members[Int(track.member[s])], Int32(s), "slot \(s)")
                }
            }
        }
    }

    /// Slots that turn the layer keep their keys in the pools: removals compact them.
    func test_pooledSlotsSurviveCompaction() {
        onFreshEngine {
            let n = Self.n
            // Each layer a straight path of its own, 4 segments, turning the layer.
            func ends(_ i: Int) -> [Double] { (0..<5).map { Double((i * 7 + $0 * 13) % 50) } }
            let alive = Self.framesWithRemovals(times: [0.05, 0.3, 0.5, 0.55, 0.9, 0.1], removeAt: 3, animation: { i in
                let path = CGMutablePath()
                let e = ends(i)
                path.move(to: CGPoint(x: e[0], y: 0))
                for k in 1..<5 { path.addLine(to: CGPoint(x: e[k], y: Double(k))) }
                let a = CAKeyframeAnimation(keyPath: "position")
                a.path = path
                a.rotationMode = .rotateAuto
                a.duration = 1
                return a
            }) { i, l, t, removed in
                let shown = l.presentation()!.position
                if removed { XCTAssertEqual(shown, .zero, "layer \(i) at \(t): the model"); return }
                // Linear calculation mode: 4 segments of equal time.
                let e = ends(i), u = t * 4, seg = min(Int(u), 3), local = u - Double(seg)
                XCTAssertEqual(Double(shown.x), e[seg] + (e[seg + 1] - e[seg]) * local, accuracy: 1e-9, "layer \(i) at \(t)")
                XCTAssertEqual(Double(shown.y), Double(seg) + local, accuracy: 1e-9, "layer \(i) at \(t)")
            }
            withExtendedLifetime(alive) {
                let track = EngineContext.current.animations.keyframeTracks[0]
                XCTAssertEqual(track.count, n / 5)
                XCTAssertEqual(track.pooledSlots, n / 5)
                XCTAssertTrue(track.schedules.allSatisfy { $0.count == 0 })
                XCTAssertLessThan(track.coefficients.count, 2 * (n / 5) * 4 * 2 * 4, "the pools were compacted")
            }
        }
    }
}
