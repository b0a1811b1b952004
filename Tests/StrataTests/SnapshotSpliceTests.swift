import XCTest
@_spi(Benchmarks) @testable import Strata

/// Tree edits (moves, removals, additions) spliced into the render snapshot's order: every
/// frame must draw what a full pass of the same tree draws.
final class SnapshotSpliceTests: XCTestCase {
    /// A seeded script of tree edits and property changes, run twice on fresh engines: once
    /// taking each frame's snapshot as the renderer does (splicing the edits), once as a full
    /// pass. The frames (items in draw order, parents and clips as draw positions) must agree.
    private func run(seed: UInt64, frames: Int, fullPass: Bool, shapes: Bool = false) -> (frames: [[RenderItem]], spliced: Int, splicedItems: Int) {
        var out: [[RenderItem]] = []
        var spliced = 0, splicedItems = 0
        onFreshEngine {
            var rng = seed
            func next(_ n: Int) -> Int {
                rng = rng &* 6364136223846793005 &+ 1442695040888963407
                return Int((rng >> 33) % UInt64(max(n, 1)))
            }
            func make(_ depth: Int) -> CALayer {
                let l: CALayer = shapes && next(12) == 0 ? CAShapeLayer() : CALayer()
                l.bounds = CGRect(x: 0, y: 0, width: Double(10 + next(40)), height: Double(10 + next(30)))
                l.position = CGPoint(x: Double(next(300)), y: Double(next(200)))
                l.backgroundColor = CGColor(red: Double(next(10)) / 10, green: 0.5, blue: 0.25, alpha: 1)
                if next(5) == 0 { l.masksToBounds = true }
                if next(7) == 0 { l.opacity = 0.5 }
                if next(9) == 0 { l.sublayerTransform = CATransform3DMakeScale(0.5, 1.5, 1) }
                if next(11) == 0 { l.transform = CATransform3DMakeRotation(Double(next(6)), 0, 0, 1) }
                if depth > 0 { for _ in 0..<next(4) { l.addSublayer(make(depth - 1)) } }
                return l
            }
            let root = CALayer()
            var pool: [CALayer] = []
            withActionsDisabled {
                root.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
                for _ in 0..<8 { root.addSublayer(make(3)) }
                for _ in 0..<6 { pool.append(make(2)) }
            }
            func all(_ l: CALayer, into list: inout [CALayer]) {
                list.append(l)
                for c in l.sublayers ?? [] { all(c, into: &list) }
            }
            func inside(_ x: CALayer, _ y: CALayer) -> Bool {
                var p: CALayer? = y
                while let q = p { if q === x { return true }; p = q.superlayer }
                return false
            }
            let r = CARenderer(layer: root)
            for f in 0..<frames {
                var tree: [CALayer] = []
                all(root, into: &tree)
                let edits = 1 + next(5)
                withActionsDisabled {
                    for _ in 0..<edits {
                        let x = tree[1 + next(tree.count - 1)]
                        switch next(10) {
                        case 0, 1, 2:
                            // Moved under another layer (not its own subtree), at any index.
                            let y = tree[next(tree.count)]
                            guard !inside(x, y) else { continue }
                            y.insertSublayer(x, at: UInt32(next((y.sublayers?.count ?? 0) + 1)))
                        case 3:
                            // Moved among its siblings.
                            guard let p = x.superlayer else { continue }
                            p.insertSublayer(x, at: UInt32(next(p.sublayers!.count)))
                        case 4:
                            guard x.superlayer != nil else { continue }
                            x.removeFromSuperlayer()
                            pool.append(x)
                        case 5 where !pool.isEmpty:
                            let y = tree[next(tree.count)]
                            y.insertSublayer(pool.removeLast(), at: UInt32(next((y.sublayers?.count ?? 0) + 1)))
                        case 6:
                            tree[next(tree.count)].addSublayer(make(2))
                        case 7 where next(3) == 0:
                            x.isHidden.toggle()
                        case 8:
                            x.opacity = next(4) == 0 ? 0 : 0.75
                        default:
                            x.position = CGPoint(x: Double(next(300)), y: Double(next(200)))
                        }
                    }
                }
                // Animated changes too: the update recomputes them after the splice.
                inTransaction(duration: 0.5) {
                    for _ in 0..<3 { tree[1 + next(tree.count - 1)].position = CGPoint(x: Double(next(300)), y: 7) }
                }
                if next(25) == 0 { withActionsDisabled { tree[1 + next(tree.count - 1)].zPosition = Double(next(3)) } }
                r.renderFrame(atTime: Double(f) * 0.05)
                let s = fullPass ? r.snapshotFullPass() : r.snapshot()
                if !s.wasFullPass && s.splicedItems > 0 {
                    spliced += 1
                    splicedItems += s.splicedItems
                }
                // The columns are consistent: each listed slot holds an item, and no slot twice.
                XCTAssertEqual(Set(s.drawOrder).count, s.count, "frame \(f): a slot listed twice")
                XCTAssertTrue(s.drawOrder.allSatisfy { s.layerIndices[Int($0)] >= 0 }, "frame \(f): a free slot listed")
                out.append(s.itemsInDrawOrder())
            }
        }
        return (out, spliced, splicedItems)
    }

    func test_splicedFramesDrawWhatAFullPassDraws() {
        for seed: UInt64 in 1...10 {
            let spliced = run(seed: seed, frames: 80, fullPass: false)
            let full = run(seed: seed, frames: 80, fullPass: true)
            XCTAssertEqual(full.spliced, 0)
            XCTAssertGreaterThan(spliced.spliced, 20, "seed \(seed): frames that spliced their edits")
            XCTAssertEqual(spliced.frames.count, full.frames.count)
            for f in 0..<min(spliced.frames.count, full.frames.count) where spliced.frames[f] != full.frames[f] {
                XCTFail("seed \(seed), frame \(f): the spliced snapshot differs from a full pass "
                        + "(\(spliced.frames[f].count) items against \(full.frames[f].count))")
                break
            }
        }
    }

    func test_shapeLayersInAnEditMakeAFullPassThatStillAgrees() {
        let spliced = run(seed: 9, frames: 40, fullPass: false, shapes: true)
        let full = run(seed: 9, frames: 40, fullPass: true, shapes: true)
        XCTAssertTrue(spliced.frames == full.frames, "frames differ with shape layers in the edits")
    }

    /// A layer gone and its row given to a new layer in one frame: the new layer's item is
    /// computed whole, not the gone layer's kept.
    func test_aRowGivenToANewLayerInTheSameFrameIsNotTheGoneLayersItem() {
        onFreshEngine {
            let root = CALayer(), container = CALayer()
            var gone: CALayer? = CALayer()
            withActionsDisabled {
                root.addSublayer(container)
                gone!.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
                gone!.borderWidth = 2
                gone!.borderColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
                root.addSublayer(gone!)
            }
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            XCTAssertTrue(r.snapshot().wasFullPass)
            let row = gone!.row
            withActionsDisabled { gone!.removeFromSuperlayer() }
            gone = nil
            let fresh = CALayer()
            XCTAssertEqual(fresh.row, row, "the new layer has the gone layer's row")
            // (No property set: a change would mark it for the update, which recomputes it.)
            withActionsDisabled { container.addSublayer(fresh) }
            r.renderFrame(atTime: 0.1)
            let s = r.snapshot()
            XCTAssertFalse(s.wasFullPass)
            XCTAssertGreaterThan(s.splicedItems, 0)
            let slot = Int(s.drawOrder.last!)
            XCTAssertTrue(s.layer(at: slot) === fresh)
            XCTAssertFalse(s.flags[slot].contains(.background), "no background: the gone layer's was red")
            XCTAssertFalse(s.flags[slot].contains(.border))
            XCTAssertEqual(s.itemsInDrawOrder(), r.snapshotFullPass().itemsInDrawOrder())
        }
    }

    func test_aMovedSubtreeKeepsItsSlotsOutOfTheWayAndTheUpdateTouchesOnlyIt() {
        onFreshEngine {
            let root = CALayer(), a = CALayer(), b = CALayer()
            var leaves: [CALayer] = []
            withActionsDisabled {
                root.addSublayer(a); root.addSublayer(b)
                for k in 0..<100 {
                    let l = CALayer()
                    l.position = CGPoint(x: Double(k), y: 0)
                    (k < 50 ? a : b).addSublayer(l)
                    leaves.append(l)
                }
            }
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            XCTAssertTrue(r.snapshot().wasFullPass)
            // Leaf 3 (under a) moves to the end of b's sublayers, with a child of its own.
            let moved = leaves[3]
            withActionsDisabled {
                moved.addSublayer(CALayer())
                b.addSublayer(moved)
            }
            r.renderFrame(atTime: 0.1)
            let s = r.snapshot()
            XCTAssertFalse(s.wasFullPass)
            XCTAssertEqual(s.splicedItems, 1 + 2, "the leaf's item out, it and its new child in")
            XCTAssertEqual(s.count, 1 + 2 + 100 + 1)
            let order = s.drawOrder.map { s.layer(at: Int($0)) }
            XCTAssertTrue(order.last! === moved.sublayers![0] && order[order.count - 2] === moved, "drawn last, under b")
            let at = s.drawPositions()
            let bSlot = Int(s.drawOrder[order.firstIndex { $0 === b }!])
            XCTAssertEqual(Int(s.subtreeSizes[bSlot]), 1 + 50 + 2)
            XCTAssertEqual(Int(s.subtreeSizes[Int(s.drawOrder[0])]), s.count)
            XCTAssertEqual(Int(at[bSlot]) + Int(s.subtreeSizes[bSlot]), s.count)
            // Its world position is b's now: b is at the origin like a, so it sits at (3, 0).
            let slot = Int(s.drawOrder[order.count - 2])
            XCTAssertEqual(Int(s.parents[slot]), bSlot)
            XCTAssertEqual(Double(s.transforms[slot].row4.x), 3, accuracy: 1e-6)
            // Removed: its slots are free, listed nowhere, and hold no item.
            withActionsDisabled { moved.removeFromSuperlayer() }
            r.renderFrame(atTime: 0.2)
            let t = r.snapshot()
            XCTAssertFalse(t.wasFullPass)
            XCTAssertEqual(t.count, 1 + 2 + 99)
            XCTAssertGreaterThanOrEqual(t.slotCount, t.count + 2)
            XCTAssertNil(t.layer(at: slot))
            XCTAssertEqual(t.layerIndices[slot], -1)
            XCTAssertEqual(t.flags[slot], [])
        }
    }
}
