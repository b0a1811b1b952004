import XCTest
@testable import Strata

/// Stores give back what finished animations held: a later frame does not scan entries of
/// animations long gone, nor take the slow group pass because a group once ran.
final class StoreReuseTests: XCTestCase {
    func test_timingStoreStartsOverWhenItsLastEntryIsFreed() {
        // A thread of its own: a fresh engine, whatever other tests left on this one.
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let root = CALayer()
            let layers = (0..<300).map { _ -> CALayer in let l = CALayer(); root.addSublayer(l); return l }
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            CATransaction.begin()
            for (i, l) in layers.enumerated() {
                let o = CABasicAnimation(keyPath: "opacity")
                o.fromValue = 0.0
                o.toValue = 1.0
                // A duration of its own: the member has an entry of its own, under the group's
                // (one with the group's timing would run on the group's entry).
                o.duration = 0.8
                let g = CAAnimationGroup()
                g.animations = [o]
                g.duration = 1
                g.timingFunction = CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3 + Float(i) / 1000, 1)
                l.add(g, forKey: "g")
            }
            CATransaction.commit()
            r.renderFrame(atTime: 0.5)
            let timings = EngineContext.current.timings
            XCTAssertEqual(timings.liveCount, 600)
            XCTAssertTrue(timings.hasChildren)
            r.renderFrame(atTime: 2)   // every group finished and was removed
            XCTAssertEqual(StrataEngine.activeAnimationCount, 0)
            XCTAssertEqual(timings.highWater, 0)
            XCTAssertFalse(timings.hasChildren)
            XCTAssertEqual(timings.maxDepth, 0)
            // Interned curves stay (300 distinct + linear), each found again in O(1).
            XCTAssertEqual(timings.curves.count, 301)
            XCTAssertEqual(timings.curveID(CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3 + Float(7) / 1000, 1)), 8)
            // The store works as new afterwards.
            layers[0].opacity = 0.25
            CATransaction.flush()
            r.renderFrame(atTime: 2.1)
            XCTAssertEqual(timings.liveCount, 1)
            XCTAssertEqual(timings.highWater, 1)
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
    }
}

/// Freed layer rows are reused lowest first, so a new batch of layers gets ascending,
/// consecutive rows whatever order the earlier ones were released in.
final class LayerRowReuseTests: XCTestCase {
    func test_aNewBatchReusesFreedRowsInAscendingOrder() {
        onFreshEngine {
            var first: [CALayer]? = (0..<64).map { _ in CALayer() }
            let rows = first!.map(\.row)
            XCTAssertEqual(rows, Array(rows[0]..<rows[0] + 64), "a fresh engine hands out consecutive rows")
            // Released in array order (what a stack would hand back in reverse), then a
            // second batch in shuffled order.
            first = nil
            var g = SystemRandomNumberGenerator()
            var second: [CALayer]? = (0..<64).map { _ in CALayer() }
            XCTAssertEqual(second!.map(\.row), rows, "the batch after a release reuses the same rows, ascending")
            var order = Array(0..<64); order.shuffle(using: &g)
            for i in order { second![i] = CALayer() }   // each replacement frees one row, then takes the lowest
            second = nil
            let third = (0..<64).map { _ in CALayer() }
            XCTAssertEqual(third.map(\.row), rows)
            // One more than were freed: the next row comes after the high-water mark.
            let extra = CALayer()
            XCTAssertEqual(extra.row, rows[63] + 1)
        }
    }
}

/// Deep trees: releasing the root of a long chain frees every layer without recursing once
/// per level (which overflowed the stack).
final class DeepTreeTests: XCTestCase {
    func test_releasingTheRootOfADeepChainFreesEveryLayer() {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let base = StrataEngine.layerCount
            do {
                // Built bottom-up (each new layer becomes the parent of the chain so far), so
                // every add is O(1).
                var top = CALayer()
                for _ in 1..<200_000 {
                    let parent = CALayer()
                    parent.addSublayer(top)
                    top = parent
                }
                XCTAssertEqual(StrataEngine.layerCount - base, 200_000)
                var depth = 0
                var l: CALayer? = top
                while let s = l?.sublayers?.first { depth += 1; l = s }
                XCTAssertEqual(depth, 199_999)
            }
            XCTAssertEqual(StrataEngine.layerCount, base)
        }
        // A small stack: recursion per level would overflow it quickly.
        thread.stackSize = 1 << 20
        thread.start()
        done.wait()
    }
}

/// Layers with timing of their own are counted, not flagged: when the last one is back to
/// defaults or gone, changes and inserts stop walking ancestors.
final class TimedLayerCountTests: XCTestCase {
    func test_timedLayerCountFollowsTimingChangesAndReleases() {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let store = EngineContext.current.layers
            XCTAssertEqual(store.timedLayers, 0)
            let a = CALayer(), b = CALayer()
            a.timeOffset = 1
            a.speed = 2            // still one timed layer
            XCTAssertEqual(store.timedLayers, 1)
            b.beginTime = 3
            XCTAssertEqual(store.timedLayers, 2)
            a.timeOffset = 0
            XCTAssertEqual(store.timedLayers, 2, "a still has speed 2")
            a.speed = 1
            XCTAssertEqual(store.timedLayers, 1)
            XCTAssertFalse(store.inTimedSubtree(a.row))
            withExtendedLifetime(b) {}
            _ = consume b
            XCTAssertEqual(store.timedLayers, 0, "a released timed layer is no longer counted")
            withExtendedLifetime(a) {}
        }
        thread.start()
        done.wait()
    }
}

/// Animation records freed in a scattered order (layers released one by one) are handed out
/// in ascending order again once the last one is gone, so the next batch's records lie in
/// the order they are added, not scattered over memory as the last batch's removals left
/// them.
final class RecordReuseTests: XCTestCase {
    func test_recordsAreHandedOutInOrderAgainOnceTheLastOneIsFreed() {
        onFreshEngine {
            let root = CALayer()
            let layers = (0..<64).map { _ in CALayer() }
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for l in layers { root.addSublayer(l) }
            CATransaction.commit()
            let animations = EngineContext.current.animations
            func addAll() -> [Int32] {
                CATransaction.begin()
                for l in layers {
                    let a = CABasicAnimation(keyPath: "opacity")
                    a.fromValue = 0.0
                    a.toValue = 1.0
                    a.duration = 10
                    l.add(a, forKey: "a")
                }
                CATransaction.commit()
                return layers.map { animations.firstOfLayer[Int($0.row)] }
            }
            let first = addAll()
            XCTAssertEqual(first, first.sorted())
            var order = Array(0..<64)
            var g = SystemRandomNumberGenerator()
            order.shuffle(using: &g)
            // All but one removed in a scattered order: a stack hands them back scattered.
            for i in order.dropLast() { layers[i].removeAnimation(forKey: "a") }
            XCTAssertEqual(StrataEngine.activeAnimationCount, 1)
            layers[order.last!].removeAnimation(forKey: "a")
            XCTAssertEqual(StrataEngine.activeAnimationCount, 0)
            let second = addAll()
            XCTAssertEqual(second, Array(0..<64), "added in layer order: records 0..<64 in that order")
        }
    }
}
