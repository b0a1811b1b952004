import XCTest
@testable import Strata

/// The composed (layer, property) pairs: found, added and removed through each row's chain,
/// with the last pair moved into a removed one's place. Checked against a plain set under
/// random operations, and through the engine: every layer interrupted at once, the
/// interruptions ending in a scattered order, each layer showing its own value throughout.
final class ComposedPairsTests: XCTestCase {
    func test_pairsAgreeWithASetUnderRandomInsertsAndRemovals() {
        var pairs = ComposedPairs()
        defer { pairs.free() }
        var model = Set<Int64>()
        var seed: UInt64 = 0x5eed
        func next(_ n: Int) -> Int {   // splitmix64: the same sequence every run
            seed &+= 0x9e37_79b9_7f4a_7c15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return Int((z ^ (z >> 31)) % UInt64(n))
        }
        for row in 0..<40 { pairs.rowMade(Int32(row)) }
        for step in 0..<20_000 {
            // Few rows and properties, so rows hold chains of several pairs.
            let row = Int32(next(40)), p = Int32(next(6))
            let key = Int64(row) << 8 | Int64(p)
            let i = pairs.index(row: row, property: p)
            XCTAssertEqual(i >= 0, model.contains(key), "step \(step): membership of (\(row), \(p))")
            if i >= 0 {
                XCTAssertEqual(pairs[i], key, "step \(step)")
                pairs.remove(at: i)
                model.remove(key)
            } else {
                pairs.insert(row: row, property: p)
                model.insert(key)
            }
            XCTAssertEqual(pairs.count, model.count, "step \(step)")
            if step % 997 == 0 {
                XCTAssertEqual(Set((0..<pairs.count).map { pairs[$0] }), model, "step \(step): the pairs listed")
                for k in model {
                    let at = pairs.index(row: Int32(k >> 8), property: Int32(k & 0xff))
                    XCTAssertTrue(at >= 0 && pairs[at] == k, "step \(step): \(k) found where it is")
                }
            }
        }
        // A row made after the others, far beyond them, starts empty.
        pairs.rowMade(1_000)
        XCTAssertEqual(pairs.index(row: 1_000, property: 1), -1)
        pairs.insert(row: 1_000, property: 1)
        XCTAssertEqual(pairs[pairs.index(row: 1_000, property: 1)], 1_000 << 8 | 1)
    }

    /// 300 layers each run a long opacity animation; one transaction changes every layer's
    /// opacity implicitly, interrupting it (two animations of the property: composed, the
    /// later one on top), with durations that end the interruptions in a scattered order.
    /// Each frame, every layer shows the interruption while it runs and its running
    /// animation after; the composed pairs are exactly the layers still interrupted.
    func test_interruptionsEndingInScatteredOrderShowEachLayersOwnValue() {
        onFreshEngine {
            let n = 300
            let root = CALayer()
            let renderer = CARenderer(layer: root)
            let layers = (0..<n).map { _ in CALayer() }
            withActionsDisabled { for l in layers { root.addSublayer(l) } }
            let running = CABasicAnimation(keyPath: "opacity")
            running.fromValue = 0.2
            running.toValue = 0.3
            running.duration = 100
            running.timingFunction = CAMediaTimingFunction(name: .linear)
            running.beginTime = 0
            for l in layers { l.add(running, forKey: "running") }
            renderer.renderFrame(atTime: 0)
            // Layer i's interruption lasts 1 + (i * 37 mod 300) / 100 s: ends between 1 and 4 s.
            func duration(_ i: Int) -> Double { 1 + Double(i * 37 % n) / 100 }
            CATransaction.begin()
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            for (i, l) in layers.enumerated() {
                CATransaction.begin()
                CATransaction.setAnimationDuration(duration(i))
                l.opacity = 0.5
                CATransaction.commit()
            }
            CATransaction.commit()
            let store = EngineContext.current.animations
            XCTAssertEqual(store.composed.count, n, "every layer's opacity composes two animations")
            // Frames at 0.025 + 0.05k: never on an end (whole hundredths).
            var t = -0.025
            while t < 4.5 {
                t += 0.05
                renderer.renderFrame(atTime: t)
                var interrupted = 0
                for (i, l) in layers.enumerated() {
                    let shown = Double(l.presentation()!.opacity)
                    let d = duration(i)
                    // The implicit animation starts at the transaction's commit, time 0, from
                    // the value shown then (the running animation's 0.2) to the model's 0.5.
                    let expected = t < d ? 0.2 + 0.3 * t / d : 0.2 + 0.1 * t / 100
                    XCTAssertEqual(shown, expected, accuracy: 1e-6, "layer \(i) at \(t)")
                    let pair = store.composed.index(row: l.row, property: PropertyID.opacity.raw)
                    XCTAssertEqual(pair >= 0, t < d, "layer \(i) at \(t): composed while interrupted only")
                    if t < d { interrupted += 1 }
                }
                XCTAssertEqual(store.composed.count, interrupted, "at \(t)")
            }
            XCTAssertEqual(store.composed.count, 0)
            for l in layers { XCTAssertNotNil(l.animation(forKey: "running")) }
        }
    }
}
