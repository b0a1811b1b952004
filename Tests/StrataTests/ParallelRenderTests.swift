import XCTest
@testable import Strata

/// `render()` splits a lane track of 131,072 lanes or more across two threads. The split
/// must not change a single value: two identical scenes, one rendered on one thread and one
/// on two, show bit-identical presentation values at every frame.
final class ParallelRenderTests: XCTestCase {
    override func tearDown() {
        StrataEngine.renderThreads = 2
        CATransaction.flush()
        super.tearDown()
    }

    /// 70,003 layers (a partial last block), implicit position changes on all of them (two
    /// lanes each: 140,006), layers moved so rows are not in order, and an additive explicit
    /// animation on every 97th (composed slots in both halves); each layer's position at four
    /// frames.
    private func scene(threads: Int) -> [[Double]] {
        StrataEngine.renderThreads = threads
        XCTAssertEqual(StrataEngine.renderThreads, threads)
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let n = 70_003
        var layers = (0..<n).map { _ in CALayer() }
        withActionsDisabled {
            for l in layers { root.addSublayer(l) }
            for (i, l) in layers.enumerated() { l.position = CGPoint(x: Double(i % 10), y: 0) }
        }
        // Release and recreate some layers so rows are reused out of order.
        withActionsDisabled {
            for i in stride(from: 0, to: n, by: 13) { layers[i].removeFromSuperlayer() }
            for i in stride(from: 0, to: n, by: 13) {
                let l = CALayer()
                l.position = CGPoint(x: 5, y: 5)
                root.addSublayer(l)
                layers[i] = l
            }
        }
        renderer.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        for (i, l) in layers.enumerated() { l.position = CGPoint(x: Double((i * 7) % 11), y: Double(i % 3)) }
        CATransaction.commit()
        inTransaction {
            for i in stride(from: 0, to: n, by: 97) {
                let a = CABasicAnimation(keyPath: "position")
                a.fromValue = CGPoint(x: 0, y: 0)
                a.toValue = CGPoint(x: 0.25, y: 1)
                a.isAdditive = true
                a.duration = 0.5
                layers[i].add(a, forKey: "bump")
            }
        }
        var frames: [[Double]] = []
        for t in [0.1, 0.3, 0.45, 0.8] {
            renderer.renderFrame(atTime: t)
            frames.append(layers.flatMap { l -> [Double] in
                let p = l.presentation()?.position ?? CGPoint(x: -1, y: -1)
                return [Double(p.x), Double(p.y)]
            })
        }
        XCTAssertGreaterThanOrEqual(2 * StrataEngine.activeAnimationCount, 131_072, "the track must be large enough to split")
        return frames
    }

    func test_splittingTheKernelAcrossTwoThreadsChangesNoValue() {
        let one = scene(threads: 1)
        CATransaction.flush()
        let two = scene(threads: 2)
        XCTAssertEqual(one.count, two.count)
        for (f, (a, b)) in zip(one, two).enumerated() {
            XCTAssertEqual(a.count, b.count)
            let differing = zip(a, b).filter { $0.0.bitPattern != $0.1.bitPattern }.count
            XCTAssertEqual(differing, 0, "frame \(f): \(differing) layers differ between one and two threads")
        }
        // Values really moved (the frames are not all the model values).
        XCTAssertNotEqual(one[0], one[3])
        XCTAssertTrue(one[1].contains { $0 != $0.rounded() && !$0.isNaN }, "values between keys")
    }
}
