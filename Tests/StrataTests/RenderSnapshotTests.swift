import Foundation
import XCTest
@_spi(Benchmarks) @testable import Strata

/// The render snapshot: painter's order, culling, world geometry, style columns, and the
/// incremental update agreeing with a full pass. (Agreement with the reference engine's
/// snapshot is checked by differential fuzzing: every generated frame is followed by a
/// `.snapshot` op.)
final class RenderSnapshotTests: XCTestCase {
    override func tearDown() {
        StrataEngine.renderThreads = 2
        CATransaction.flush()
        super.tearDown()
    }

    /// A layer with its geometry set without animation.
    private func layer(_ bounds: CGRect = CGRect(x: 0, y: 0, width: 10, height: 10), at p: CGPoint = .zero) -> CALayer {
        let l = CALayer()
        withActionsDisabled {
            l.bounds = bounds
            l.position = p
        }
        return l
    }

    private func layers(of s: RenderSnapshot) -> [CALayer?] { s.drawOrder.map { s.layer(at: Int($0)) } }

    private func assertPoint(_ p: CGPoint, _ x: Double, _ y: Double, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Double(p.x), x, accuracy: 1e-3, "\(message).x", file: file, line: line)
        XCTAssertEqual(Double(p.y), y, accuracy: 1e-3, "\(message).y", file: file, line: line)
    }

    func test_itemsArePaintersOrderWithSiblingsByZPosition() {
        let root = layer(), a = layer(), b = layer(), c = layer(), a1 = layer(), a2 = layer()
        withActionsDisabled {
            root.addSublayer(a); root.addSublayer(b); root.addSublayer(c)
            a.addSublayer(a1); a.addSublayer(a2)
            b.zPosition = -1
            a2.zPosition = -5
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        // b (z -1) before a and c (z 0, in sublayer order); a2 (z -5) before a1.
        let expected = [root, b, a, a2, a1, c]
        XCTAssertEqual(s.count, 6)
        XCTAssertTrue(zip(layers(of: s), expected).allSatisfy { $0 === $1 }, "painter's order")
        XCTAssertEqual(Array(s.parents), [-1, 0, 0, 2, 2, 0])
        XCTAssertEqual(Array(s.subtreeSizes), [6, 1, 3, 1, 1, 1])
        XCTAssertEqual(Array(s.drawOrder), [0, 1, 2, 3, 4, 5], "a full pass's slots are the draw order")
        XCTAssertEqual(s.slotCount, 6)
        XCTAssertTrue(s.wasFullPass)
        XCTAssertEqual(s.recomputedItems, 6)
    }

    func test_worldTransformComposesAnchorPositionTransformAndSublayerTransform() {
        let root = layer(CGRect(x: 0, y: 0, width: 0, height: 0))
        let parent = layer(CGRect(x: 0, y: 0, width: 200, height: 100), at: CGPoint(x: 100, y: 50))
        let child = layer(CGRect(x: 0, y: 0, width: 20, height: 10), at: CGPoint(x: 50, y: 50))
        withActionsDisabled {
            root.addSublayer(parent)
            parent.addSublayer(child)
            child.anchorPoint = .zero
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        var s = r.snapshot()
        // The parent sits with its bounds on the target's (0,0)-(200,100); the child's origin at
        // the parent's (50, 50).
        assertPoint(s.transforms[1].apply(to: CGPoint(x: 200, y: 100)), 200, 100, "parent corner")
        assertPoint(s.transforms[2].apply(to: .zero), 50, 50, "child origin")

        // The parent scaled 2x about its anchor (100, 50): the child's corners move with it.
        withActionsDisabled { parent.transform = CATransform3DMakeScale(2, 2, 1) }
        r.renderFrame(atTime: 1)
        s = r.snapshot()
        assertPoint(s.transforms[2].apply(to: .zero), 0, 50, "child origin, parent scaled")
        assertPoint(s.transforms[2].apply(to: CGPoint(x: 20, y: 10)), 40, 70, "child corner, parent scaled")

        // A sublayer transform halves the sublayers about the parent's anchor; the parent
        // itself keeps its own transform only.
        withActionsDisabled {
            parent.transform = CATransform3DIdentity
            parent.sublayerTransform = CATransform3DMakeScale(0.5, 0.5, 1)
        }
        r.renderFrame(atTime: 2)
        s = r.snapshot()
        assertPoint(s.transforms[1].apply(to: CGPoint(x: 200, y: 100)), 200, 100, "parent corner, sublayer transform")
        assertPoint(s.transforms[2].apply(to: .zero), 75, 50, "child origin, sublayer transform")
        assertPoint(s.transforms[2].apply(to: CGPoint(x: 20, y: 10)), 85, 55, "child corner, sublayer transform")

        // A bounds origin shifts the sublayers' coordinates (a scrolled view).
        withActionsDisabled {
            parent.sublayerTransform = CATransform3DIdentity
            parent.bounds = CGRect(x: 30, y: 0, width: 200, height: 100)
        }
        r.renderFrame(atTime: 3)
        s = r.snapshot()
        assertPoint(s.transforms[2].apply(to: .zero), 20, 50, "child origin, parent scrolled by 30")
    }

    func test_perspectiveRowsMoveWithThePosition() {
        // A transform with perspective: T(-anchor) · M · T(position) moves every row by its w.
        let root = layer(CGRect.zero)
        let l = layer(CGRect(x: 0, y: 0, width: 100, height: 100), at: CGPoint(x: 200, y: 100))
        var m = CATransform3DIdentity
        m.m34 = -1.0 / 500
        m = CATransform3DRotate(m, .pi / 6, 0, 1, 0)
        withActionsDisabled { root.addSublayer(l); l.transform = m }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        let expected = CATransform3DConcat(CATransform3DConcat(CATransform3DMakeTranslation(-50, -50, 0), m),
                                           CATransform3DMakeTranslation(200, 100, 0))
        for (x, y) in [(0.0, 0.0), (100.0, 0.0), (0.0, 100.0), (100.0, 100.0)] {
            let w = x * expected.m14 + y * expected.m24 + expected.m44
            let ex = (x * expected.m11 + y * expected.m21 + expected.m41) / w
            let ey = (x * expected.m12 + y * expected.m22 + expected.m42) / w
            assertPoint(s.transforms[1].apply(to: CGPoint(x: x, y: y)), Double(ex), Double(ey), "corner (\(x), \(y))")
        }
        XCTAssertTrue(s.flags[1].contains(.perspective))
        XCTAssertFalse(s.flags[0].contains(.perspective))
    }

    func test_hiddenTransparentUncommittedAndBackFacingLayersAreCulledWithTheirSublayers() {
        let root = layer(), hidden = layer(), clear = layer(), flipped = layer(), flippedTwoSided = layer(), shown = layer()
        let underHidden = layer(), underFlipped = layer()
        withActionsDisabled {
            for l in [hidden, clear, flipped, flippedTwoSided, shown] { root.addSublayer(l) }
            hidden.addSublayer(underHidden)
            flipped.addSublayer(underFlipped)
            hidden.isHidden = true
            clear.opacity = 0
            flipped.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
            flipped.isDoubleSided = false
            flippedTwoSided.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        var s = r.snapshot()
        XCTAssertTrue(zip(layers(of: s), [root, flippedTwoSided, shown]).allSatisfy { $0 === $1 } && s.count == 3,
                      "hidden, transparent and back-facing single-sided layers go, with their sublayers")
        // A layer added in an open transaction is not in the render tree until it commits.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        let late = layer()
        root.addSublayer(late)
        s = r.snapshot()
        XCTAssertFalse(layers(of: s).contains { $0 === late }, "uncommitted")
        CATransaction.commit()
        s = r.snapshot()
        XCTAssertTrue(layers(of: s).last! === late, "committed")
        // Turned back to the front: it shows again (its ancestors are unchanged: the update
        // must notice its own change).
        withActionsDisabled { flipped.transform = CATransform3DIdentity; hidden.isHidden = false }
        r.renderFrame(atTime: 1)
        s = r.snapshot()
        XCTAssertEqual(s.count, 8)
        XCTAssertTrue(layers(of: s).contains { $0 === underFlipped } && layers(of: s).contains { $0 === underHidden })
        // An opacity within `invisible` of 0 (what an animation ending at 0 can leave) is
        // culled; just above it, shown; and so for a background's alpha.
        withActionsDisabled {
            clear.opacity = Float(RenderSnapshot.invisible) / 2
            shown.opacity = Float(RenderSnapshot.invisible) * 4
            shown.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: CGFloat(RenderSnapshot.invisible) / 2)
        }
        r.renderFrame(atTime: 2)
        s = r.snapshot()
        XCTAssertFalse(layers(of: s).contains { $0 === clear })
        let i = layers(of: s).firstIndex { $0 === shown }
        XCTAssertNotNil(i)
        if let i { XCTAssertFalse(s.flags[i].contains(.background), "a background alpha of 5e-10 draws nothing") }
    }

    func test_opacityMultipliesDownTheTreeAndClipsNameTheMaskingAncestor() {
        let root = layer(), outer = layer(), inner = layer(), leaf = layer()
        withActionsDisabled {
            root.addSublayer(outer); outer.addSublayer(inner); inner.addSublayer(leaf)
            outer.opacity = 0.5
            inner.opacity = 0.5
            outer.masksToBounds = true
            outer.cornerRadius = 4
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        XCTAssertEqual(Array(s.opacities), [1, 0.5, 0.25, 0.25])
        XCTAssertEqual(Array(s.clips), [-1, -1, 1, 1], "outer clips inner and the leaf")
        XCTAssertTrue(s.flags[1].contains(.masksToBounds))
        XCTAssertEqual(s.cornerRadii[1], 4)
    }

    func test_styleAndShapeColumnsCarryThePresentedValues() {
        let root = layer()
        let shape = CAShapeLayer()
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 10, y: 10))
        withActionsDisabled {
            root.addSublayer(shape)
            root.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
            root.borderWidth = 2
            root.borderColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            root.shadowOpacity = 0.5
            root.shadowOffset = CGSize(width: 3, height: 4)
            root.shadowRadius = 6
            shape.path = path
            shape.strokeColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
            shape.lineWidth = 3
            shape.strokeEnd = 0.5
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        XCTAssertEqual(s.backgroundColors[0], SIMD4(1, 0.5, 0, 1))
        XCTAssertEqual(s.borderWidths[0], 2)
        XCTAssertEqual(s.borderColors[0], SIMD4(0, 0, 1, 1))
        XCTAssertEqual(s.shadows[0], SIMD4(3, 4, 6, 0.5))
        XCTAssertEqual(s.flags[0], [.background, .border, .shadow])
        XCTAssertEqual(s.backgroundColors[1], .zero, "a nil colour is (0, 0, 0, 0)")
        XCTAssertEqual(s.shapeCount, 1)
        XCTAssertEqual(s.shapeIndices[1], 0)
        XCTAssertEqual(s.shapeItems[0], 1)
        XCTAssertTrue(s.flags[1].contains(.shape))
        XCTAssertEqual(s.fillColors[0], SIMD4(0, 0, 0, 1), "fill defaults to opaque black")
        XCTAssertEqual(s.strokeColors[0], SIMD4(0, 1, 0, 1))
        XCTAssertEqual(s.strokes[0], SIMD4(3, 0, 0.5, 10))
        XCTAssertTrue(s.path(ofShape: 0) === path)
    }

    /// The update recomputes only what changed, and leaves every column as a full pass of the
    /// same tree would (a second renderer's snapshot is a full pass: it is not the owner).
    func test_updateRecomputesChangedSubtreesAndMatchesAFullPass() {
        let root = layer()
        var containers: [CALayer] = []
        withActionsDisabled {
            for c in 0..<20 {
                let container = layer(at: CGPoint(x: Double(c) * 10, y: 0))
                root.addSublayer(container)
                containers.append(container)
                for k in 0..<9 { container.addSublayer(layer(at: CGPoint(x: 0, y: Double(k) * 12))) }
            }
        }
        let r = CARenderer(layer: root), other = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        XCTAssertTrue(r.snapshot().wasFullPass)
        XCTAssertFalse(r.snapshot().wasFullPass, "nothing changed: an update")
        XCTAssertEqual(r.snapshot().recomputedItems, 0)

        // One container moves (an animation), one leaf changes colour (a commit).
        inTransaction(duration: 1) { containers[3].position = CGPoint(x: 500, y: 500) }
        withActionsDisabled { containers[7].sublayers![2].backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }
        // `other` taking a snapshot makes it the owner of the change log: `r`'s next one is a
        // full pass, so `r` takes one at once to be the owner again.
        func compare(_ t: Double, recomputed: Int) {
            let s = r.snapshot()
            XCTAssertFalse(s.wasFullPass, "t = \(t)")
            XCTAssertEqual(s.recomputedItems, recomputed, "t = \(t)")
            let mine = s.itemsInDrawOrder()
            let full = other.snapshot()
            XCTAssertTrue(full.wasFullPass)
            XCTAssertEqual(mine, full.itemsInDrawOrder(), "t = \(t): update = full pass")
            XCTAssertTrue(r.snapshot().wasFullPass)
        }
        r.renderFrame(atTime: 0.25)
        compare(0.25, recomputed: 11)   // the moving container's subtree (10) and the recoloured leaf
        for t in [0.5, 0.75] {
            r.renderFrame(atTime: t)
            compare(t, recomputed: 10)
        }
        // After the animation ends and is retired, its layer snaps to the model: seen too.
        r.renderFrame(atTime: 1.5)
        compare(1.5, recomputed: 10)
        r.renderFrame(atTime: 2)
        compare(2, recomputed: 0)
        let s = r.snapshot()
        let i = layers(of: s).firstIndex { $0 === containers[3] }!
        // The root (10 x 10, centred on the origin) shifts everything by (-5, -5).
        assertPoint(s.transforms[i].apply(to: CGPoint(x: 5, y: 5)), 495, 495, "container at its model position")
    }

    func test_treeZPositionAndVisibilityChangesRebuildTheOrder() {
        let root = layer(), a = layer(), b = layer()
        withActionsDisabled { root.addSublayer(a); root.addSublayer(b) }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        XCTAssertTrue(layers(of: r.snapshot()).elementsEqual([root, a, b], by: ===))
        withActionsDisabled { a.zPosition = 1 }
        r.renderFrame(atTime: 1)
        var s = r.snapshot()
        XCTAssertTrue(s.wasFullPass)
        XCTAssertTrue(layers(of: s).elementsEqual([root, b, a], by: ===), "a now in front")
        withActionsDisabled { b.removeFromSuperlayer(); a.addSublayer(b) }
        s = r.snapshot()
        XCTAssertTrue(layers(of: s).elementsEqual([root, a, b], by: ===))
        XCTAssertEqual(s.itemsInDrawOrder().map(\.parent), [-1, 0, 1])
        XCTAssertFalse(s.wasFullPass, "a moved layer is spliced")
        XCTAssertEqual(s.splicedItems, 2, "b out from under the root, and in under a")
        XCTAssertEqual(Array(s.drawOrder), [0, 2, 1], "a and root keep their slots, b its own again")
        XCTAssertEqual(Array(s.parents), [-1, 2, 0], "parents name slots")
        withActionsDisabled { a.isHidden = true }
        s = r.snapshot()
        XCTAssertTrue(layers(of: s).elementsEqual([root], by: ===))
        // Fading out to 0 (from the last frame's time, 1) culls it at the frame it reaches 0.
        withActionsDisabled { a.isHidden = false }
        inTransaction(duration: 1) { a.opacity = 0 }
        r.renderFrame(atTime: 1.5)
        s = r.snapshot()
        XCTAssertEqual(s.count, 3)
        XCTAssertEqual(Double(s.opacities[Int(s.drawOrder[1])]), 1 - ReferenceCurve.caDefault.progress(atFraction: 0.5), accuracy: 1e-5,
                       "half-way through the default curve")
        r.renderFrame(atTime: 2.5)
        XCTAssertEqual(r.snapshot().count, 1)
    }

    func test_twoThreadsComputeTheSameItemsAsOne() {
        func items(threads: Int) -> [RenderItem] {
            var out: [RenderItem] = []
            onFreshEngine {
                StrataEngine.renderThreads = threads
                let root = CALayer()
                var all = [root]
                withActionsDisabled {
                    // A balanced tree (fan-out 4) of 40,000 layers with varied geometry.
                    for i in 1..<40_000 {
                        let l = CALayer()
                        l.bounds = CGRect(x: 0, y: 0, width: Double(i % 17), height: Double(i % 5))
                        l.position = CGPoint(x: Double(i % 31), y: Double(i % 7))
                        if i % 11 == 0 { l.transform = CATransform3DMakeRotation(Double(i % 6), 0, 0, 1) }
                        if i % 13 == 0 { l.sublayerTransform = CATransform3DMakeScale(0.5, 2, 1) }
                        if i % 3 == 0 { l.opacity = 0.5 }
                        all[(i - 1) / 4].addSublayer(l)
                        all.append(l)
                    }
                }
                let r = CARenderer(layer: root)
                r.renderFrame(atTime: 0)
                XCTAssertTrue(r.snapshot().wasFullPass)
                // The second full pass of a large tree overlaps the walk with the items (two
                // threads take chunks of them); compare that one.
                let s = r.snapshotFullPass()
                out = s.itemsInDrawOrder()
            }
            return out
        }
        let one = items(threads: 1), two = items(threads: 2)
        XCTAssertEqual(one.count, 40_000)
        XCTAssertTrue(one == two, "two-thread snapshot differs from one-thread")
    }

    /// An update with many animated leaves splits them across two threads: the same items
    /// as one thread and as a full pass of the same frame, also when a leaf in the worker's
    /// half turns away (culled: the update gives way to a full pass).
    func test_twoThreadsUpdateTheSameLeavesAsOne() {
        func frames(threads: Int) -> [[RenderItem]] {
            var out: [[RenderItem]] = []
            onFreshEngine {
                StrataEngine.renderThreads = threads
                let root = CALayer()
                var leaves: [CALayer] = []
                withActionsDisabled {
                    // 100 containers of 100 leaves; a few containers transformed or clipping.
                    for c in 0..<100 {
                        let container = CALayer()
                        container.position = CGPoint(x: Double(c % 10) * 40, y: Double(c / 10) * 40)
                        if c % 7 == 0 { container.sublayerTransform = CATransform3DMakeScale(0.5, 1.5, 1) }
                        if c % 9 == 0 { container.masksToBounds = true; container.bounds = CGRect(x: 0, y: 0, width: 30, height: 30) }
                        root.addSublayer(container)
                        for i in 0..<100 {
                            let l = CALayer()
                            l.bounds = CGRect(x: 0, y: 0, width: Double(4 + i % 5), height: Double(3 + i % 7))
                            l.position = CGPoint(x: Double(i % 10) * 3, y: Double(i / 10) * 3)
                            l.backgroundColor = CGColor(red: Double(i % 3) / 2, green: 0.5, blue: Double(c % 4) / 3, alpha: 1)
                            l.isDoubleSided = i % 50 != 49
                            container.addSublayer(l)
                            leaves.append(l)
                        }
                    }
                }
                let r = CARenderer(layer: root)
                r.renderFrame(atTime: 0)
                _ = r.snapshot()
                // Every other leaf animates (5,000 leaves marked), in one transaction.
                CATransaction.begin()
                CATransaction.setAnimationDuration(1)
                for (k, l) in leaves.enumerated() where k % 2 == 0 {
                    l.opacity = 0.25
                    l.position = CGPoint(x: l.position.x + 7, y: l.position.y - 3)
                    if k % 3 == 0 { l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5) }
                }
                CATransaction.commit()
                for t in [0.25, 0.5] {
                    r.renderFrame(atTime: t)
                    let s = r.snapshot()
                    XCTAssertFalse(s.wasFullPass, "t = \(t): an update")
                    XCTAssertGreaterThanOrEqual(s.recomputedItems, 5_000)
                    let items = s.itemsInDrawOrder()
                    out.append(items)
                    let full = r.snapshotFullPass()
                    XCTAssertTrue(items == full.itemsInDrawOrder(), "t = \(t): the update differs from a full pass")
                }
                // While the 5,000 still animate, a single-sided leaf late in the order (the
                // worker's half) turns away: it is culled.
                let late = leaves[9_949]
                XCTAssertFalse(late.isDoubleSided)
                withActionsDisabled { late.transform = CATransform3DMakeRotation(.pi, 0, 1, 0) }
                r.renderFrame(atTime: 0.75)
                let turned = r.snapshot()
                XCTAssertEqual(turned.count, 1 + 100 + 10_000 - 1, "the turned leaf is culled")
                XCTAssertFalse(turned.drawOrder.contains { turned.layer(at: Int($0)) === late })
                let items = turned.itemsInDrawOrder()
                let full = r.snapshotFullPass()
                XCTAssertTrue(items == full.itemsInDrawOrder(), "the culled frame differs from a full pass")
                out.append(items)
                // Turned back: shown again.
                withActionsDisabled { late.transform = CATransform3DIdentity }
                r.renderFrame(atTime: 0.8)
                let back = r.snapshot()
                XCTAssertEqual(back.count, 1 + 100 + 10_000)
                out.append(back.itemsInDrawOrder())
            }
            return out
        }
        let one = frames(threads: 1), two = frames(threads: 2)
        XCTAssertEqual(one.count, 4)
        XCTAssertEqual(two.count, 4)
        for k in 0..<min(one.count, two.count) {
            XCTAssertEqual(one[k].count, two[k].count)
            XCTAssertTrue(one[k] == two[k], "frame \(k): the two-thread update differs from one thread")
        }
    }

    func test_nonFiniteWorldGeometryIsLeftOutWithADiagnostic() {
        let root = layer(), far = layer(at: CGPoint(x: 1e39, y: 0)), child = layer(), near = layer()
        withActionsDisabled { root.addSublayer(far); far.addSublayer(child); root.addSublayer(near) }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        var s: RenderSnapshot!
        let diagnostics = StrataDiagnostics.capture { s = r.snapshot() }
        XCTAssertEqual(diagnostics.map(\.code), [.nonFiniteValue])
        XCTAssertTrue(diagnostics.first?.message.contains("1 layer(s)") ?? false, "\(diagnostics)")
        XCTAssertEqual(s.nonFiniteLayers, 1)
        XCTAssertTrue(layers(of: s).elementsEqual([root, near], by: ===), "the far layer and its sublayer are left out")
        // Back in range: shown again.
        withActionsDisabled { far.position = CGPoint(x: 1, y: 1) }
        s = r.snapshot()
        XCTAssertEqual(s.count, 4)
        XCTAssertEqual(s.nonFiniteLayers, 0)
    }

    func test_layerAtReturnsNilForGoneLayers() {
        let root = layer()
        var child: CALayer? = layer()
        withActionsDisabled { root.addSublayer(child!) }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let s = r.snapshot()
        XCTAssertTrue(s.layer(at: 1) === child)
        XCTAssertNil(s.layer(at: 2))
        XCTAssertNil(s.layer(at: -1))
        withActionsDisabled { child!.removeFromSuperlayer() }
        child = nil
        XCTAssertNil(s.layer(at: 1), "the layer is gone")
    }
}

/// Presentation copies read the engine's columns until what is presented changes; then
/// the ones still held keep the values of the moment they were made.
final class PresentationCopyTests: XCTestCase {
    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private func fadingLayer() -> (CALayer, CARenderer) {
        let root = CALayer(), l = CALayer()
        withActionsDisabled {
            root.addSublayer(l)
            l.contents = "first"
            l.position = CGPoint(x: 1, y: 2)
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        l.opacity = 0
        l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        CATransaction.commit()
        return (l, r)
    }

    func test_aCopyKeepsItsValuesThroughLaterFramesCommitsAndRemovals() throws {
        let (l, r) = fadingLayer()
        r.renderFrame(atTime: 0.25)
        let p = try XCTUnwrap(l.presentation())
        XCTAssertEqual(p.opacity, 0.75, accuracy: 1e-6)
        r.renderFrame(atTime: 0.5)
        XCTAssertEqual(p.opacity, 0.75, accuracy: 1e-6, "a later frame leaves the copy as it was")
        XCTAssertEqual(l.presentation()!.opacity, 0.5, accuracy: 1e-6, "a new copy shows the new frame")
        let q = try XCTUnwrap(l.presentation())
        withActionsDisabled {
            l.position = CGPoint(x: 9, y: 9)
            l.contents = "second"
        }
        XCTAssertEqual(q.position, CGPoint(x: 1, y: 2), "a commit leaves the copy as it was")
        XCTAssertEqual(q.contents as? String, "first")
        XCTAssertEqual(l.presentation()!.position, CGPoint(x: 9, y: 9))
        XCTAssertEqual(l.presentation()!.contents as? String, "second")
        let s = try XCTUnwrap(l.presentation())
        l.removeAllAnimations()
        XCTAssertEqual(s.opacity, 0.5, accuracy: 1e-6, "a removal leaves the copy as it was")
        XCTAssertEqual(l.presentation()!.opacity, 0, "the presentation snapped to the model")
        XCTAssertTrue(p.model() === l && q.model() === l && s.model() === l)
        XCTAssertTrue(p.presentation() === p, "a copy's presentation is itself")
        XCTAssertTrue(p.superlayer?.model() === l.superlayer, "a copy's superlayer is in the presentation tree")
        XCTAssertFalse(p.superlayer === l.superlayer, "a presentation copy, not the model layer")
    }

    func test_aCopyOfACopyAndCopiesOfSubclassesKeepTheirValues() throws {
        final class Badge: CALayer {
            var count = 0
            override init() { super.init() }
            required init?(coder: NSCoder) { super.init(coder: coder) }
            override init(layer: Any) {
                super.init(layer: layer)
                count = (layer as? Badge)?.count ?? -1
            }
        }
        let root = CALayer(), b = Badge()
        withActionsDisabled { root.addSublayer(b) }
        b.count = 7
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        b.cornerRadius = 10
        CATransaction.commit()
        r.renderFrame(atTime: 0.5)
        let p = try XCTUnwrap(b.presentation())
        XCTAssertEqual(p.count, 7, "the subclass's init(layer:) ran")
        XCTAssertEqual(p.cornerRadius, 5, accuracy: 1e-9)
        let copy = Badge(layer: p)
        XCTAssertEqual(copy.cornerRadius, 5, accuracy: 1e-9, "a copy of a copy has its values")
        XCTAssertEqual(copy.count, 7)
        r.renderFrame(atTime: 0.75)
        XCTAssertEqual(p.cornerRadius, 5, accuracy: 1e-9)
        XCTAssertEqual(copy.cornerRadius, 5, accuracy: 1e-9)
        XCTAssertTrue(p.model() === b)
    }

    func test_copiesNobodyHoldsAreLetGoInBoundedNumbers() {
        let root = CALayer(), l = CALayer()
        withActionsDisabled { root.addSublayer(l) }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let held = (0..<10).map { _ in l.presentation()! }
        var sum: Float = 0
        for _ in 0..<50_000 { sum += l.presentation()!.opacity }
        XCTAssertEqual(sum, 50_000)
        XCTAssertLessThan(l.engine.layerObjects.liveCopyCount, 4_096 + 10, "unheld copies are swept")
        XCTAssertTrue(l.engine.hasLiveCopies, "the engine knows copies read its columns")
        XCTAssertTrue(held.allSatisfy { $0.presentedRow == l.row }, "held copies still read the columns")
        XCTAssertGreaterThan(l.engine.layerObjects.recycledCount, 0, "unheld copies are kept for reuse")
        r.renderFrame(atTime: 1)
        XCTAssertEqual(l.engine.layerObjects.liveCopyCount, 0, "a frame freezes the held ones and lets go of the rest")
        XCTAssertFalse(l.engine.hasLiveCopies, "and the engine's next change checks nothing more")
        XCTAssertTrue(held.allSatisfy { $0.presentedRow < 0 && $0.opacity == 1 && $0.model() === l })
    }
}

extension PresentationCopyTests {
    /// A copy does not keep its model layer alive; when the layer goes, the copy keeps what
    /// it showed (and its row may be reused by a new layer without the copy noticing).
    func test_aCopyOutlivesItsModelLayerWithItsValues() throws {
        let root = CALayer()
        var l: CALayer? = CALayer()
        weak var gone = l
        withActionsDisabled {
            root.addSublayer(l!)
            l!.position = CGPoint(x: 3, y: 4)
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let p = try XCTUnwrap(l!.presentation())
        withActionsDisabled { l!.removeFromSuperlayer() }
        let row = l!.row
        l = nil
        XCTAssertNil(gone, "the copy does not hold its model layer")
        let reuse = CALayer()
        withActionsDisabled { reuse.position = CGPoint(x: 100, y: 100); root.addSublayer(reuse) }
        XCTAssertEqual(reuse.row, row, "the freed row was reused")
        r.renderFrame(atTime: 1)
        XCTAssertEqual(p.position, CGPoint(x: 3, y: 4))
        XCTAssertTrue(p.model() === p, "no model layer any more")
    }
}

extension RenderSnapshotTests {
    func test_builderBitsAreTheFlagsBits() {
        typealias B = SnapshotBuilder.ItemBit
        XCTAssertEqual([B.masksToBounds, B.shape, B.background, B.border, B.shadow, B.contents, B.mask, B.shadowPath, B.perspective],
                       [RenderItemFlags.masksToBounds, .shape, .background, .border, .shadow, .contents, .mask, .shadowPath, .perspective].map(\.rawValue))
    }
}
