import XCTest
@testable import Strata

/// Local time by the public timing fields (beginTime, speed, timeOffset), root first: the
/// definition the time tests check the engine against.
func definitionLocalTime(_ l: CALayer, _ t: Double) -> Double {
    var chain: [CALayer] = []
    var x: CALayer? = l
    while let y = x { chain.append(y); x = y.superlayer }
    var time = t
    for y in chain.reversed() { time = (time - y.beginTime) * Double(y.speed) + y.timeOffset }
    return time
}

/// Local times under timed ancestors: a frame or commit converts `now` through each ancestor
/// once (a per-pass cache), with the same results as converting each layer on its own.
final class TimedTreeTests: XCTestCase {
    /// A 400-layer tree (random parents, so depths vary up to ~20) with beginTime, speed and
    /// timeOffset on a third of its layers.
    func timedTree() -> (root: CALayer, layers: [CALayer]) {
        var state: UInt64 = 42
        func next() -> UInt64 {   // deterministic: LCG
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        let root = CALayer()
        var layers = [root]
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for i in 1..<400 {
            let l = CALayer()
            // Mostly the recent layers as parents: a deep, branching tree.
            let p = max(0, i - 1 - Int(next() % 3))
            layers[p].addSublayer(l)
            layers.append(l)
        }
        for (i, l) in layers.enumerated() where i % 3 == 0 {
            l.speed = [0.5, 1, 2][Int(next() % 3)]
            l.timeOffset = Double(next() % 7) / 4
            l.beginTime = Double(next() % 5) / 8
        }
        CATransaction.commit()
        return (root, layers)
    }

    func test_cachedLocalTimesEqualTheDefinitionInAnyOrder() {
        onFreshEngine {
            let (root, layers) = self.timedTree()
            let store = EngineContext.current.layers
            var cache = LocalTimeCache(media: 3.25)
            // Deepest first, then shallowest first: the cache is filled from both ends.
            for l in layers.reversed() + layers {
                let got = store.localTime(l.row, cache: &cache)
                XCTAssertEqual(got, definitionLocalTime(l, 3.25), accuracy: 1e-12)
                XCTAssertEqual(got, store.localTime(l.row, 3.25), accuracy: 1e-12)
            }
            withExtendedLifetime(root) {}
        }
    }

    func test_animationsUnderTimedAncestorsRunOnTheirLayersTime() {
        onFreshEngine {
            let (root, layers) = self.timedTree()
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            CATransaction.begin()
            for l in layers {
                let a = CABasicAnimation(keyPath: "opacity")
                a.fromValue = 0.0
                a.toValue = 1.0
                a.duration = 1_000
                l.add(a, forKey: "fade")
            }
            CATransaction.commit()   // at the engine's time, 0: each begins at its layer's local time of 0
            r.renderFrame(atTime: 1)
            r.renderFrame(atTime: 5)
            for (i, l) in layers.enumerated() {
                let elapsed = definitionLocalTime(l, 5) - definitionLocalTime(l, 0)
                XCTAssertEqual(Double(l.presentation()?.opacity ?? -1), elapsed / 1_000, accuracy: 1e-6, "layer \(i)")
            }
        }
    }

    /// A frame of N animations under timed ancestors converts each timed ancestor once, and
    /// only the timed ones: each layer names its time space (the nearest layer with timing
    /// of its own), and the walk steps from one to the next. On an 8,000-deep chain with a
    /// time offset on every 100th layer, converting every layer takes 80 steps (a walk per
    /// layer through every ancestor took 32 million, a cached walk through every ancestor
    /// 8,000). The end-to-end values are checked too; the cost itself is measured by the
    /// tree suite (`tree/frame-timed-root/...`), not here.
    func test_frameUnderATimedRootOfADeepChainConvertsEachTimedAncestorOnce() {
        onFreshEngine {
            let n = 8_000
            let layers = (0..<n).map { _ in CALayer() }
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for i in stride(from: n - 1, to: 0, by: -1) { layers[i - 1].addSublayer(layers[i]) }
            for i in stride(from: 0, to: n, by: 100) { layers[i].timeOffset = 0.5 }
            CATransaction.commit()
            let store = EngineContext.current.layers
            var cache = LocalTimeCache(media: 10)
            for (i, l) in layers.enumerated().reversed() {
                XCTAssertEqual(store.localTime(l.row, cache: &cache), 10 + 0.5 * Double(i / 100 + 1), "layer \(i)")
                XCTAssertEqual(store.timeSpace[Int(l.row)], layers[i / 100 * 100].row, "layer \(i)'s time space")
            }
            XCTAssertEqual(cache.steps, n / 100)
            let r = CARenderer(layer: layers[0])
            r.renderFrame(atTime: 0)
            CATransaction.begin()
            CATransaction.setAnimationDuration(100)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            for l in layers { l.opacity = 0 }
            CATransaction.commit()
            r.renderFrame(atTime: 1)
            r.renderFrame(atTime: 50)
            XCTAssertEqual(Double(layers[n - 1].presentation()?.opacity ?? -1), 0.5, accuracy: 1e-6)
            XCTAssertEqual(Double(layers[0].presentation()?.opacity ?? -1), 0.5, accuracy: 1e-6)
            // One entry for each time space's implicit animations, not one for each layer.
            let animations = EngineContext.current.animations
            let entries = Set(layers.map { animations.records[Int(animations.firstOfLayer[Int($0.row)])].timing })
            XCTAssertEqual(entries.count, n / 100)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for l in layers { l.removeAllAnimations() }
            CATransaction.commit()
        }
    }
}
