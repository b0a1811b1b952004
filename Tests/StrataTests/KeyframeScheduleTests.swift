import XCTest
@testable import Strata

/// Keyframe slots that share key times and curves are evaluated by schedule (the segment
/// found once, coefficients read segment-major); slots that turn the layer keep the per-slot
/// loop. A path animation and its twin with `rotationMode` set must show the same position,
/// whatever the timing, key times, curves, calculation mode, cumulative repeats, additive
/// composition and removals.
final class KeyframeScheduleTests: XCTestCase {
    private struct Variant {
        var begin = 0.0
        var keyTimes: [NSNumber]?
        var curves: [CAMediaTimingFunction]?
        var mode = CAAnimationCalculationMode.linear
        var cumulative = false
        var additive = false
        var bend = 0.0
    }

    /// Layer i's animation of variant v: paced, one path for every layer (its schedule is
    /// shared only by equal geometry); otherwise a path of the layer's own.
    private static func animation(_ v: Variant, _ i: Int) -> CAKeyframeAnimation {
        let own = v.mode == .paced || v.mode == .cubicPaced ? 0 : Double(i)
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 10 + own))
        path.addCurve(to: CGPoint(x: 100, y: 10), control1: CGPoint(x: 25, y: v.bend),
                      control2: CGPoint(x: 75 - own, y: 60))
        path.addLine(to: CGPoint(x: 100 + 2 * own, y: 90))
        path.addLine(to: CGPoint(x: 40, y: 50 - own))
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = path
        a.beginTime = v.begin
        a.duration = 1
        a.keyTimes = v.keyTimes
        a.timingFunctions = v.curves
        a.calculationMode = v.mode
        a.isCumulative = v.cumulative
        if v.cumulative { a.repeatCount = 3 }
        a.isAdditive = v.additive
        return a
    }

    func test_scheduledSlotsShowWhatTheirPooledTwinsShow() {
        onFreshEngine {
            let variants = [
                Variant(),
                Variant(begin: 0.13),
                Variant(keyTimes: [0, 0.1, 0.7, 1]),
                Variant(curves: [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .linear),
                                 CAMediaTimingFunction(controlPoints: 0.3, 0.9, 0.6, 0.1)]),
                Variant(mode: .paced),
                Variant(mode: .paced, bend: 33),
                Variant(begin: 0.4, mode: .cubicPaced),
                Variant(mode: .discrete),
                Variant(begin: 0.05, cumulative: true),
                Variant(additive: true),
            ]
            let perVariant = 6
            let n = variants.count * perVariant
            let root = CALayer()
            let renderer = CARenderer(layer: root)
            // Pairs of layers: the even one's slot is scheduled, the odd one's turns.
            let layers = (0..<2 * n).map { _ in CALayer() }
            withActionsDisabled {
                for (i, l) in layers.enumerated() {
                    root.addSublayer(l)
                    l.position = CGPoint(x: Double(i % 7), y: 3)
                }
            }
            renderer.renderFrame(atTime: 0)
            inTransaction {
                // Variants interleaved, so one schedule's members alternate timing entries.
                for i in 0..<n {
                    let v = variants[i % variants.count]
                    layers[2 * i].add(Self.animation(v, i), forKey: "k")
                    let twin = Self.animation(v, i)
                    twin.rotationMode = .rotateAuto
                    layers[2 * i + 1].add(twin, forKey: "k")
                }
            }
            let track = EngineContext.current.animations.keyframeTracks[0]
            XCTAssertEqual(track.pooledSlots, n, "the turning twins")
            XCTAssertEqual(track.count, 2 * n)
            // One schedule per distinct keys: variants 0, 1, 8 and 9 share the even one.
            // One schedule per distinct keys: the even key times (variants 0, 1, 7, 8 and 9: a
            // discrete slot differs only in its coefficients), the given key times, the
            // curves, and two geometries paced (a path's cubicPaced compiles as its paced).
            XCTAssertEqual(track.schedules.map(\.count), [5 * perVariant, perVariant, perVariant, 2 * perVariant, perVariant])
            XCTAssertEqual(track.schedules.map { $0.arcs != nil }, [false, false, false, true, true])

            var removed = Set<Int>()
            var moved = 0
            for (step, t) in [0.02, 0.2, 0.45, 0.61, 0.99, 1.7, 2.35, 0.3].enumerated() {
                if step == 3 {
                    for i in stride(from: 0, to: n, by: 4) {
                        layers[2 * i].removeAnimation(forKey: "k"); layers[2 * i + 1].removeAnimation(forKey: "k")
                        removed.insert(i)
                    }
                }
                renderer.renderFrame(atTime: t)
                for i in 0..<n {
                    let a = layers[2 * i].presentation()!.position, b = layers[2 * i + 1].presentation()!.position
                    let modelA = layers[2 * i].position, modelB = layers[2 * i + 1].position
                    if removed.contains(i) {
                        XCTAssertEqual(a, modelA, "pair \(i) at \(t): removed")
                        XCTAssertEqual(b, modelB, "pair \(i) at \(t): removed")
                        continue
                    }
                    // Both show their models (not begun, or completed), or both animate. The
                    // twins' models differ in x: an additive pair is compared less its model.
                    if a == modelA && b == modelB { continue }
                    moved += 1
                    let additive = variants[i % variants.count].additive
                    if additive {
                        // Less two different models: a rounding apart.
                        XCTAssertEqual(a.x - modelA.x, b.x - modelB.x, accuracy: 1e-12, "pair \(i) at \(t)")
                        XCTAssertEqual(a.y - modelA.y, b.y - modelB.y, accuracy: 1e-12, "pair \(i) at \(t)")
                    } else {
                        XCTAssertEqual(a, b, "pair \(i) at \(t)")
                    }
                }
            }
            XCTAssertGreaterThan(moved, 3 * n, "the animations moved their layers")
            for s in 0..<track.count where track.schedule[s] >= 0 {
                XCTAssertEqual(track.schedules[Int(track.schedule[s])].members[Int(track.member[s])], Int32(s))
            }
        }
    }

    /// A schedule whose last member leaves is freed and its index reused; the track's bytes
    /// come back down.
    func test_emptiedSchedulesAreFreedAndReused() {
        onFreshEngine {
            let root = CALayer()
            let renderer = CARenderer(layer: root)
            let layers = (0..<40).map { _ in CALayer() }
            withActionsDisabled { for l in layers { root.addSublayer(l) } }
            renderer.renderFrame(atTime: 0)
            func add(_ l: CALayer, times: [NSNumber]) {
                let a = CAKeyframeAnimation(keyPath: "opacity")
                a.values = [0.0, 1.0, 0.5]
                a.keyTimes = times
                a.duration = 1
                l.add(a, forKey: "k")
            }
            inTransaction { for (i, l) in layers.enumerated() { add(l, times: [0, NSNumber(value: 0.1 + 0.02 * Double(i % 4)), 1]) } }
            let track = EngineContext.current.animations.keyframeTracks[0]
            XCTAssertEqual(track.schedules.count, 4)
            let full = track.bytesAllocated
            for (i, l) in layers.enumerated() where i % 4 != 0 { l.removeAnimation(forKey: "k") }
            renderer.renderFrame(atTime: 0.5)
            XCTAssertEqual(track.schedules.filter { $0.count > 0 }.count, 1)
            XCTAssertLessThan(track.bytesAllocated, full)
            for (i, l) in layers.enumerated() where i % 4 == 0 {
                // At 0.5 every layer is in its second segment: from 1 at 0.1 to 0.5 at 1.
                XCTAssertEqual(Double(l.presentation()!.opacity), Double(Float(1 - 0.5 * (0.5 - 0.1) / 0.9)), accuracy: 1e-6)
            }
            inTransaction { for l in layers.prefix(3) { add(l, times: [0, 0.9, 1]) } }
            XCTAssertEqual(track.schedules.count, 4, "a freed schedule's index is reused")
            // Slabs grow by doubling from one member: the first 10 took 16 places (9 are
            // left: layer 0's animation was replaced), the 3 new ones take 4.
            XCTAssertEqual(track.schedules.filter { $0.count > 0 }.map { [$0.count, $0.capacity] }.sorted { $0[0] < $1[0] },
                           [[3, 4], [9, 16]])
            // The new animations began at the last frame's time, 0.5.
            renderer.renderFrame(atTime: 0.95)
            // Layers 1 and 2 only have the new animation: 0.45 of the way to 0.9, from 0 to 1.
            XCTAssertEqual(Double(layers[1].presentation()!.opacity), Double(Float(0.5)), accuracy: 1e-6)
            XCTAssertEqual(Double(layers[2].presentation()!.opacity), Double(Float(0.5)), accuracy: 1e-6)
        }
    }
}
