import XCTest
import CAllocationCounter
@_spi(Benchmarks) @testable import Strata

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

    /// The count worker's placements (`Counts.collectInstructions`): spacing holds a chunk
    /// before about one allocation in two, moves what follows, and leaves the counts exact.
    func test_spacingHoldsChunksBetweenAllocationsAndCountsOnlyTheCallersOwn() {
        XCTAssertEqual(strata_alloc_counting_is_active(), 1, "the interposer is linked into the tests")
        XCTAssertEqual(strata_alloc_spacer_count(), 0)
        // Room for the blocks made first: the loops below allocate nothing but the blocks.
        let blocks = UnsafeMutableBufferPointer<UnsafeMutableRawPointer?>.allocate(capacity: 200)
        defer { blocks.deallocate() }
        strata_alloc_spacing_begin(3)
        strata_alloc_counting_begin()
        for i in 0..<200 { blocks[i] = malloc(48) }
        strata_alloc_counting_end()
        strata_alloc_spacing_end()
        let spacers = strata_alloc_spacer_count()
        XCTAssertEqual(strata_alloc_count(), 200, "spacers are not counted")
        XCTAssertEqual(strata_alloc_bytes(), 200 * 48)
        XCTAssertGreaterThan(spacers, 50)
        XCTAssertLessThan(spacers, 150)
        // Chunks of 48 bytes are 64 apart when nothing comes between them; some spacer does.
        let addresses = blocks.map { UInt(bitPattern: $0!) }.sorted()
        let gaps = zip(addresses.dropFirst(), addresses).map { $0 - $1 }
        XCTAssertTrue(gaps.contains { $0 >= 64 + 32 }, "no spacer between any two blocks: \(gaps.prefix(20))")
        // After spacing ends, no more spacers; release frees them all.
        let after = malloc(48)
        XCTAssertEqual(strata_alloc_spacer_count(), spacers)
        free(after)
        strata_alloc_spacing_release()
        XCTAssertEqual(strata_alloc_spacer_count(), 0)
        for i in 0..<200 { free(blocks[i]) }
        // The same seed spaces the same allocations.
        strata_alloc_spacing_begin(3)
        for i in 0..<200 { blocks[i] = malloc(48) }
        strata_alloc_spacing_end()
        XCTAssertEqual(strata_alloc_spacer_count(), spacers)
        strata_alloc_spacing_release()
        for i in 0..<200 { free(blocks[i]) }
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

    /// Subtrees moved between containers every frame are spliced into the snapshot's order,
    /// and the splice allocates nothing once its scratch is grown (the first frames).
    func test_framesThatMoveSubtreesSpliceThemAndAllocateNothing() {
        let root = CALayer()
        var containers: [CALayer] = [], subtrees: [CALayer] = []
        withActionsDisabled {
            for c in 0..<100 {
                let container = CALayer()
                container.position = CGPoint(x: Double(c), y: 0)
                for k in 0..<90 {
                    let cell = CALayer()
                    cell.position = CGPoint(x: 0, y: Double(k))
                    container.addSublayer(cell)
                }
                root.addSublayer(container)
                containers.append(container)
            }
            for s in 0..<200 {
                let subtree = CALayer()
                for _ in 0..<9 { subtree.addSublayer(CALayer()) }
                containers[s % 100].addSublayer(subtree)
                subtrees.append(subtree)
            }
        }
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        XCTAssertTrue(r.snapshot().wasFullPass)
        var mallocs = 0, spliced = 0, items = 0
        func frame(_ f: Int) {
            // 100 subtrees a frame: half moved to another container, half out of the tree or back in.
            withActionsDisabled {
                for k in 0..<100 {
                    let s = subtrees[(f * 100 + k) % 200]
                    if k % 2 == 0 || s.superlayer == nil {
                        containers[(f * 7 + k * 13) % 100].addSublayer(s)
                    } else {
                        s.removeFromSuperlayer()
                    }
                }
            }
            r.beginFrame(atTime: Double(f) / 60)
            r.render()
            strata_alloc_counting_begin()
            let s = r.snapshot()
            strata_alloc_counting_end()
            mallocs += Int(strata_alloc_count())
            if !s.wasFullPass && s.splicedItems > 0 { spliced += 1 }
            items = s.count
            r.endFrame()
        }
        for f in 1...10 { frame(f) }
        mallocs = 0
        spliced = 0
        for f in 11...60 { frame(f) }
        XCTAssertEqual(spliced, 50, "every frame spliced its moves")
        XCTAssertEqual(mallocs, 0, "mallocs in the snapshots of 50 frames of 100 subtree moves")
        XCTAssertEqual(items, 1 + 100 * 91 + 10 * subtrees.filter { $0.superlayer != nil }.count)
    }

    /// The render snapshot of those frames allocates nothing either: its updates (the
    /// animated layers recomputed, 2,500 leaves: split across two threads) and a full pass
    /// once the tree changed.
    func test_thousandSnapshotsOfTenThousandAnimatedLayers_allocateNothing() {
        let root = CALayer()
        let layers = makeRunning(10_000, root: root)
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(100)
        for (i, l) in layers.enumerated() where i % 4 == 0 { l.position = CGPoint(x: Double(i % 100), y: 20) }
        CATransaction.commit()
        r.renderFrame(atTime: 0.5)
        XCTAssertTrue(r.snapshot().wasFullPass)  // warm-up: sizes the columns
        r.renderFrame(atTime: 0.6)
        XCTAssertFalse(r.snapshot().wasFullPass)  // the first split update starts the render worker
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
        XCTAssertEqual(recomputed, 1_000 * 2_500, "each update recomputed the 2,500 animated layers")
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
        XCTAssertTrue(r.snapshotFullPass().wasFullPass)
        treeChanged()
        strata_alloc_counting_begin()
        let full = r.snapshotFullPass()
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

    /// Reading a custom key by name (`value(forKeyPath:)` of a key that is neither built in nor
    /// a path) allocates no more than a built-in key's read: whether the name is a path is
    /// decided on its UTF-8 bytes. Foundation's `String.contains(_:)` of a string bridged the
    /// name to an NSString, a malloc or more per read, depending on where the string lived.
    func test_readingACustomKeyByNameAllocatesNoMoreThanABuiltInKey() {
        let layers = (0..<200).map { _ in CALayer() }
        let glow = String(repeating: "glow", count: 1) + "Radius"   // built at run time, as a user's key often is
        for (i, l) in layers.enumerated() { l.setValue(Double(i), forKey: glow) }
        func count(_ key: String) -> (mallocs: UInt64, sum: Double) {
            var sum = 0.0
            for l in layers { sum += l.value(forKeyPath: key) as? Double ?? 0 }   // warm-up
            strata_alloc_counting_begin()
            for l in layers { sum += l.value(forKeyPath: key) as? Double ?? 0 }
            strata_alloc_counting_end()
            return (strata_alloc_count(), sum)
        }
        let builtIn = count("zPosition"), custom = count(glow), literal = count("glowRadius")
        XCTAssertEqual(custom.sum, 2 * 19_900)
        XCTAssertEqual(literal.sum, 2 * 19_900)
        XCTAssertLessThanOrEqual(custom.mallocs, builtIn.mallocs, "mallocs reading \(glow) of 200 layers")
        XCTAssertLessThanOrEqual(literal.mallocs, builtIn.mallocs, "mallocs reading glowRadius of 200 layers")
    }

    func test_counterSeesAllocations() {
        // The counter works: a region that allocates is counted.
        strata_alloc_counting_begin()
        let a = [Int](repeating: 7, count: 1000)
        strata_alloc_counting_end()
        XCTAssertEqual(a[999], 7)
        XCTAssertGreaterThan(strata_alloc_count(), 0)
    }

    // MARK: The frame's other paths

    /// Frames of `layers` animated by `add` (called once per layer, inside one transaction)
    /// allocate nothing after a warm-up frame; `check` sees the last frame's values.
    private func assertFramesAllocateNothing(_ what: String, layers n: Int = 200,
                                             add: (Int, CALayer) -> Void,
                                             check: ([CALayer]) -> Void,
                                             file: StaticString = #filePath, line: UInt = #line) {
        let root = CALayer()
        let layers = makeRunning(n, root: root)
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        CATransaction.begin()
        for (i, l) in layers.enumerated() { add(i, l) }
        CATransaction.commit()
        r.renderFrame(atTime: 0.1)   // warm-up frame: scratch sized
        r.renderFrame(atTime: 0.2)
        strata_alloc_counting_begin()
        for f in 1...100 { r.renderFrame(atTime: 0.2 + Double(f) / 1_000) }
        strata_alloc_counting_end()
        XCTAssertEqual(strata_alloc_count(), 0, "mallocs during 100 frames of \(what)", file: file, line: line)
        check(layers)
        for l in layers { l.removeAllAnimations(); l.removeFromSuperlayer() }
    }

    /// Several animations on one property (composition: a replacing one, then additive ones).
    func test_framesOfComposedAnimationsAllocateNothing() {
        assertFramesAllocateNothing("composed opacity and position", add: { i, l in
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.0; fade.toValue = 1.0; fade.duration = 10
            l.add(fade, forKey: "fade")
            let pulse = CABasicAnimation(keyPath: "opacity")
            pulse.fromValue = 0.0; pulse.toValue = 0.5; pulse.duration = 10; pulse.isAdditive = true
            l.add(pulse, forKey: "pulse")
            let move = CAKeyframeAnimation(keyPath: "position")
            move.values = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100)]
            move.duration = 10
            l.add(move, forKey: "move")
            let nudge = CABasicAnimation(keyPath: "position")
            nudge.fromValue = CGPoint(x: 0, y: 0); nudge.toValue = CGPoint(x: 0, y: 10); nudge.duration = 10
            nudge.isAdditive = true
            l.add(nudge, forKey: "nudge")
        }, check: { layers in
            // At 0.3 s of 10 s: 0.03 + 0.015 (additive).
            XCTAssertEqual(Double(layers[7].presentation()!.opacity), 0.045, accuracy: 1e-5)
            XCTAssertEqual(Double(layers[7].presentation()!.position.y), 0.3, accuracy: 1e-6)
        })
    }

    /// Derived transform fields (`transform.rotation.z`, `transform.scale`), alone and on top
    /// of a whole-transform animation.
    func test_framesOfDerivedTransformFieldsAllocateNothing() {
        assertFramesAllocateNothing("transform.rotation.z and transform.scale", add: { i, l in
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0.0; spin.toValue = Double.pi; spin.duration = 10
            l.add(spin, forKey: "spin")
            if i % 2 == 0 {
                let grow = CABasicAnimation(keyPath: "transform.scale")
                grow.fromValue = 1.0; grow.toValue = 2.0; grow.duration = 10; grow.isAdditive = true
                l.add(grow, forKey: "grow")
                let shift = CABasicAnimation(keyPath: "transform")
                shift.fromValue = CATransform3DIdentity
                shift.toValue = CATransform3DMakeTranslation(100, 0, 0); shift.duration = 10
                l.add(shift, forKey: "shift")
            }
        }, check: { layers in
            let angle = layers[1].presentation()!.value(forKeyPath: "transform.rotation.z") as? CGFloat
            XCTAssertEqual(Double(angle ?? -1), Double.pi * 0.03, accuracy: 1e-6)
            XCTAssertEqual(Double(layers[0].presentation()!.transform.m41), 3, accuracy: 1e-6)
        })
    }

    /// Whole transforms that turn (interpolated by decomposition), alone, cumulative, and
    /// composed with an additive one (concatenated).
    func test_framesOfDecomposedTransformsAllocateNothing() {
        assertFramesAllocateNothing("decomposed, cumulative and concatenated transforms and keyframes", add: { i, l in
            let turn = CABasicAnimation(keyPath: "transform")
            turn.fromValue = CATransform3DIdentity
            turn.toValue = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
            turn.duration = 0.01 * Double(1 + i % 3)
            turn.repeatCount = 1000
            turn.isCumulative = i % 3 == 0
            l.add(turn, forKey: "turn")
            if i % 5 == 0 {
                // Keyframes that turn (by decomposition), cumulative.
                let wobble = CAKeyframeAnimation(keyPath: "transform")
                wobble.values = [CATransform3DIdentity, CATransform3DMakeRotation(.pi / 3, 0, 1, 0), CATransform3DMakeScale(2, 2, 1)]
                wobble.duration = 0.05; wobble.repeatCount = 1000; wobble.isCumulative = i % 10 == 0
                l.add(wobble, forKey: "wobble")
            }
            if i % 2 == 0 {
                let tilt = CABasicAnimation(keyPath: "transform")
                tilt.fromValue = CATransform3DIdentity
                tilt.toValue = CATransform3DMakeRotation(.pi / 3, 1, 0, 0)
                tilt.duration = 10
                tilt.isAdditive = true
                l.add(tilt, forKey: "tilt")
            }
        }, check: { layers in
            // Layer 1: no cumulative, 0.02 s turns; at 0.3 s (15 repeats) the turn is back at 0.
            let m = layers[1].presentation()!.transform
            XCTAssertEqual(Double(m.m11), 1, accuracy: 1e-6)
            XCTAssertEqual(Double((m.m11 * m.m11 + m.m12 * m.m12 + m.m13 * m.m13).squareRoot()), 1, accuracy: 1e-9)
        })
    }

    /// Custom keys of scalar and point values (boxed inline in `Any`: no allocation).
    func test_framesOfCustomKeysAllocateNothing() {
        assertFramesAllocateNothing("custom keys", add: { i, l in
            CATransaction.setDisableActions(true)
            l.setValue(0.0, forKey: "progress")
            l.setValue(CGPoint.zero, forKey: "anchor")
            let progress = CABasicAnimation(keyPath: "progress")
            progress.fromValue = 0.0; progress.toValue = 1.0; progress.duration = 10
            l.add(progress, forKey: "progress")
            let more = CABasicAnimation(keyPath: "progress")
            more.fromValue = 0.0; more.toValue = 1.0; more.duration = 10; more.isAdditive = true
            l.add(more, forKey: "more")
            let anchor = CAKeyframeAnimation(keyPath: "anchor")
            anchor.values = [CGPoint.zero, CGPoint(x: 10, y: 10)]; anchor.duration = 10
            l.add(anchor, forKey: "anchor")
        }, check: { layers in
            XCTAssertEqual(layers[3].presentation()!.value(forKey: "progress") as? Double ?? -1, 0.06, accuracy: 1e-9)
            XCTAssertEqual(Double((layers[3].presentation()!.value(forKey: "anchor") as? CGPoint)?.x ?? -1), 0.3,
                           accuracy: 1e-9)
        })
    }

    /// Custom keys whose values do not box inline (a gradient's colours, locations, a
    /// transform, a rectangle): their lanes are kept in a reused holder and boxed when read.
    func test_framesOfGradientColoursAndWideCustomKeysAllocateNothing() {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        assertFramesAllocateNothing("wide custom keys", add: { i, l in
            CATransaction.setDisableActions(true)
            let colors = CABasicAnimation(keyPath: "colors")
            colors.fromValue = [red, blue]; colors.toValue = [blue, red]; colors.duration = 10
            l.add(colors, forKey: "colors")
            let locations = CABasicAnimation(keyPath: "locations")
            locations.fromValue = [0.0, 1.0]; locations.toValue = [0.5, 1.0]; locations.duration = 10
            l.add(locations, forKey: "locations")
            let frame = CABasicAnimation(keyPath: "box")
            frame.fromValue = CGRect(x: 0, y: 0, width: 1, height: 1); frame.toValue = CGRect(x: 10, y: 10, width: 11, height: 11)
            frame.duration = 10
            l.add(frame, forKey: "box")
        }, check: { layers in
            let c = layers[3].presentation()!.value(forKey: "colors") as? [CGColor] ?? []
            XCTAssertEqual(c.count, 2)
            XCTAssertEqual(Double(c.first?.components?[0] ?? -1), 0.97, accuracy: 1e-9)
            XCTAssertEqual(Double((layers[3].presentation()!.value(forKey: "box") as? CGRect)?.minX ?? -1), 0.3, accuracy: 1e-9)
        })
    }

    /// Path morphs (shadow paths with the same elements, basic and keyframes) and contents'
    /// sprite frames: the morph's coordinates are evaluated in place, its `CGPath` is made
    /// only when read (here after the counted frames).
    func test_framesOfPathMorphsAndObjectKeyframesAllocateNothing() {
        func square(_ side: CGFloat) -> CGPath { CGPath(rect: CGRect(x: 0, y: 0, width: side, height: side), transform: nil) }
        assertFramesAllocateNothing("path morphs and contents keyframes", add: { i, l in
            let morph = CABasicAnimation(keyPath: "shadowPath")
            morph.fromValue = square(10); morph.toValue = square(20); morph.duration = 10
            l.add(morph, forKey: "morph")
            if i % 2 == 0 {
                let shapes = CAKeyframeAnimation(keyPath: "shadowPath")
                shapes.values = [square(10), square(30), square(20)]; shapes.duration = 10
                shapes.calculationMode = .cubic
                l.add(shapes, forKey: "shapes")
            }
            let sprite = CAKeyframeAnimation(keyPath: "contents")
            sprite.values = ["a", "b", "c"]; sprite.calculationMode = .discrete; sprite.duration = 0.03
            sprite.repeatCount = .infinity
            l.add(sprite, forKey: "sprite")
        }, check: { layers in
            // At 0.3 s of 10 s: the square of side 10.3.
            XCTAssertEqual(layers[1].presentation()!.shadowPath, square(10.3))
            XCTAssertNotNil(layers[1].presentation()!.contents as? String)
        })
    }

    /// Path animations with `rotationMode` turning the layer along the path.
    func test_framesOfPathRotationAllocateNothing() {
        assertFramesAllocateNothing("paths with rotationMode", add: { i, l in
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 0))
            path.addLine(to: CGPoint(x: 100, y: 0))
            path.addCurve(to: CGPoint(x: 200, y: 100), control1: CGPoint(x: 150, y: 0), control2: CGPoint(x: 200, y: 50))
            let follow = CAKeyframeAnimation(keyPath: "position")
            follow.path = path; follow.duration = 10
            follow.rotationMode = i % 2 == 0 ? .rotateAuto : .rotateAutoReverse
            l.add(follow, forKey: "follow")
        }, check: { layers in
            XCTAssertEqual(Double(layers[0].presentation()!.transform.m11), 1, accuracy: 1e-9, "heading +x")
            XCTAssertEqual(Double(layers[1].presentation()!.transform.m11), -1, accuracy: 1e-9, "reversed: half a turn")
        })
    }
}
