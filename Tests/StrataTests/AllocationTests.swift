import XCTest
import CAllocationCounter
@testable import Strata

/// The per-frame evaluation allocates nothing: 1,000 frames of 10,000 running animations,
/// malloc-family calls counted by the interposing C shim.
final class AllocationTests: XCTestCase {
    override func setUp() {
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    private func makeRunning(_ n: Int, root: CALayer) -> [CALayer] {
        var layers: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for _ in 0..<n { let l = CALayer(); root.addSublayer(l); layers.append(l) }
        CATransaction.commit()
        return layers
    }

    func test_thousandFramesOfTenThousandAnimations_allocateNothing() {
        let root = CALayer()
        let layers = makeRunning(10_000, root: root)
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let before = StrataEngine.activeAnimationCount
        CATransaction.begin()
        CATransaction.setAnimationDuration(100)
        for (i, l) in layers.enumerated() {
            // Three value widths in flight: scalar, point, colour.
            switch i % 3 {
            case 0: l.opacity = 0.5
            case 1: l.position = CGPoint(x: 10, y: 20)
            default: l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            }
        }
        CATransaction.commit()
        XCTAssertEqual(StrataEngine.activeAnimationCount - before, 10_000)
        r.renderFrame(atTime: 0.5)  // warm-up frame
        strata_alloc_counting_begin()
        for f in 1...1_000 { r.renderFrame(atTime: 0.5 + Double(f) / 60) }
        strata_alloc_counting_end()
        XCTAssertEqual(strata_alloc_count(), 0, "mallocs during 1,000 frames")
        XCTAssertEqual(StrataEngine.activeAnimationCount - before, 10_000)
        // The frames did evaluate: a layer is part-way to its target.
        let p = layers[0].presentation()!.opacity
        XCTAssertGreaterThan(p, 0.5)
        XCTAssertLessThan(p, 1)
        for l in layers { l.removeAllAnimations(); l.removeFromSuperlayer() }
    }

    /// The render snapshot of those frames allocates nothing either: its updates (the
    /// animated layers recomputed) and a full pass once the tree changed.
    func test_thousandSnapshotsOfTenThousandAnimatedLayers_allocateNothing() {
        let root = CALayer()
        let layers = makeRunning(10_000, root: root)
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(100)
        for (i, l) in layers.enumerated() where i % 5 == 0 { l.position = CGPoint(x: Double(i % 100), y: 20) }
        CATransaction.commit()
        r.renderFrame(atTime: 0.5)
        XCTAssertTrue(r.snapshot().wasFullPass)  // warm-up: sizes the columns
        r.renderFrame(atTime: 0.6)
        XCTAssertFalse(r.snapshot().wasFullPass)
        var recomputed = 0
        strata_alloc_counting_begin()
        for f in 1...1_000 {
            r.beginFrame(atTime: 0.6 + Double(f) / 60)
            r.render()
            recomputed += r.snapshot().recomputedItems
            r.endFrame()
        }
        strata_alloc_counting_end()
        XCTAssertEqual(strata_alloc_count(), 0, "mallocs during 1,000 frames with snapshots")
        XCTAssertEqual(recomputed, 1_000 * 2_000, "each update recomputed the 2,000 animated layers")
        // A full pass over the same tree (the order rebuilt) allocates nothing once sized. The
        // first one of this size (split across two threads) starts the render worker and sizes
        // its chunk counters; the next one is counted.
        func treeChanged() {
            withExtendedLifetime(CALayer()) { extra in
                CATransaction.begin(); CATransaction.setDisableActions(true)
                root.addSublayer(extra); extra.removeFromSuperlayer()
                CATransaction.commit()
            }
        }
        treeChanged()
        XCTAssertTrue(r.snapshot().wasFullPass)
        treeChanged()
        strata_alloc_counting_begin()
        let full = r.snapshot()
        strata_alloc_counting_end()
        XCTAssertTrue(full.wasFullPass)
        XCTAssertEqual(full.count, 10_001)
        XCTAssertEqual(strata_alloc_count(), 0, "mallocs during a full pass")
        for l in layers { l.removeAllAnimations(); l.removeFromSuperlayer() }
    }

    /// `presentation()` makes one object and copies nothing.
    func test_presentationAllocatesOnlyTheCopy() {
        let root = CALayer()
        let layers = makeRunning(2_000, root: root)
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        var sum: Float = 0
        for l in layers { sum += l.presentation()!.opacity }   // warm-up: the copy list's capacity
        r.renderFrame(atTime: 1)
        // What reading a model value costs here (0 in a release build; this debug build's
        // engine accessors allocate): the copy may add one object to it, no more.
        strata_alloc_counting_begin()
        for l in layers { sum += l.opacity }
        strata_alloc_counting_end()
        let modelReads = strata_alloc_count()
        strata_alloc_counting_begin()
        for l in layers { sum += l.presentation()!.opacity }
        strata_alloc_counting_end()
        XCTAssertEqual(sum, 6_000)
        XCTAssertLessThanOrEqual(strata_alloc_count(), modelReads + 2_000, "one malloc per copy beyond a model read")
        for l in layers { l.removeFromSuperlayer() }
    }

    func test_counterSeesAllocations() {
        // The counter works: a region that allocates is counted.
        strata_alloc_counting_begin()
        let a = [Int](repeating: 7, count: 1000)
        strata_alloc_counting_end()
        XCTAssertEqual(a[999], 7)
        XCTAssertGreaterThan(strata_alloc_count(), 0)
    }
}
