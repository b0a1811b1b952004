import XCTest
@testable import Strata

/// Each layer's time space (`LayerStore.timeSpace`: the nearest layer, itself included, with
/// timing of its own) is kept through every way the tree and the timing change, and the
/// animations of a layer whose time space changes move to entries in the new one, so they
/// run on their layer's time as before, while the animations of layers under one timed layer
/// share their entries.
final class TimeSpaceTests: XCTestCase {
    /// The definition: the nearest layer from `l` to the root with a timing field off its
    /// default, or nil.
    private func expectedSpace(_ l: CALayer) -> CALayer? {
        var x: CALayer? = l
        while let y = x {
            if y.beginTime != 0 || y.speed != 1 || y.timeOffset != 0 || y.duration != 0 || y.repeatCount != 0
                || y.repeatDuration != 0 || y.autoreverses || y.fillMode != .removed { return y }
            x = y.superlayer
        }
        return nil
    }


    /// 3,000 random steps on 120 layers: timing set and reset (speed, timeOffset, beginTime),
    /// subtrees moved anywhere (within a time space, across, out of the tree), layers
    /// released and made. After each, every layer's time space is the definition's and its
    /// local time the definition's.
    func test_timeSpacesFollowEveryTreeAndTimingChange() {
        onFreshEngine {
            var state: UInt64 = 7
            func next(_ n: Int) -> Int {   // deterministic: LCG
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Int((state >> 33) % UInt64(n))
            }
            let store = EngineContext.current.layers
            var layers = (0..<120).map { _ in CALayer() }
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for i in 1..<layers.count { layers[next(i)].addSublayer(layers[i]) }
            for step in 0..<3_000 {
                let a = layers[next(layers.count)], b = layers[next(layers.count)]
                switch next(8) {
                case 0: a.speed = [0, 0.5, 1, 2][next(4)]
                case 1: a.timeOffset = [0, 0, 0.25, 1][next(4)]
                case 2: a.beginTime = [0, 0, 0.5][next(3)]
                case 3, 4:
                    // A move: refused (and the tree unchanged) when b is inside a's subtree.
                    var x: CALayer? = b, cycle = false
                    while let y = x { if y === a { cycle = true }; x = y.superlayer }
                    if !cycle { b.addSublayer(a) }
                case 5: a.removeFromSuperlayer()
                case 6:
                    // Back to the defaults: a timed layer stops being one.
                    a.speed = 1; a.timeOffset = 0; a.beginTime = 0
                default:
                    // Released (its sublayers, if no one else holds them, go with it) and a new
                    // layer made under b, where one may reuse its row.
                    let i = next(layers.count)
                    layers[i].removeFromSuperlayer()
                    layers[i] = CALayer()
                    b.addSublayer(layers[i])
                }
                for (i, l) in layers.enumerated() {
                    let space = store.timeSpace[Int(l.row)]
                    XCTAssertEqual(space, self.expectedSpace(l)?.row ?? -1, "step \(step): layer \(i)'s time space")
                    XCTAssertEqual(store.localTime(l.row, 2.5), definitionLocalTime(l, 2.5), accuracy: 1e-12, "step \(step): layer \(i)")
                    if space >= 0 && step % 50 == 0 {
                        XCTAssertEqual(store.localTime(l.row, 2.5), store.localTime(space, 2.5), "step \(step): layer \(i) keeps its space's time")
                    }
                }
            }
            CATransaction.commit()
        }
    }

    /// Two timed subtrees under one root: A offset by 1 s, B at double speed. Implicit fades
    /// of A's layers share one entry; a layer moved from A to B mid-fade runs on B's time from
    /// then on, from the same begin time (a beginTime is in the layer's time), and one moved
    /// out of both on media time; a layer whose parent becomes timed mid-fade follows its new
    /// time. The others keep theirs.
    func test_animationsFollowTheirLayerIntoAnotherTimeSpace() {
        onFreshEngine {
            let root = CALayer(), a = CALayer(), b = CALayer(), mid = CALayer()
            let under = (0..<6).map { _ in CALayer() }
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            root.addSublayer(a); root.addSublayer(b); a.addSublayer(mid)
            a.timeOffset = 1
            b.speed = 2
            for (i, l) in under.enumerated() { (i < 3 ? a : mid).addSublayer(l) }
            CATransaction.commit()
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            CATransaction.begin()
            CATransaction.setAnimationDuration(8)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            for l in under { l.opacity = 0 }
            CATransaction.commit()   // at media time 0: A's local time 1, so each begins at 1
            let animations = EngineContext.current.animations
            func entry(_ l: CALayer) -> Int32 { animations.records[Int(animations.firstOfLayer[Int(l.row)])].timing }
            XCTAssertEqual(Set(under.map(entry)).count, 1, "one transaction, one time space: one entry")
            r.renderFrame(atTime: 2)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            b.addSublayer(under[1])        // into B: local time 2t, begin still 1
            under[2].removeFromSuperlayer()
            root.addSublayer(under[2])     // out of both: media time t, begin still 1
            mid.speed = 0.5                // under[3...]: local time (t + 1) * 0.5, begin still 1
            CATransaction.commit()
            XCTAssertEqual(Set(under.map(entry)).count, 4, "A's, B's, media time's and mid's")
            for t in [3.0, 4.0, 6.0] {
                r.renderFrame(atTime: t)
                func shown(_ l: CALayer) -> Double { Double(l.presentation()?.opacity ?? -1) }
                // opacity 1 -> 0 over 8 s of each layer's own time from its begin, 1.
                func expected(_ local: Double) -> Double { max(0, 1 - (local - 1) / 8) }
                XCTAssertEqual(shown(under[0]), expected(t + 1), accuracy: 1e-9, "stayed in A at \(t)")
                XCTAssertEqual(shown(under[1]), expected(2 * t), accuracy: 1e-9, "moved into B at \(t)")
                XCTAssertEqual(shown(under[2]), expected(t), accuracy: 1e-9, "moved out at \(t)")
                for l in under[3...] { XCTAssertEqual(shown(l), expected((t + 1) * 0.5), accuracy: 1e-9, "under mid at \(t)") }
            }
            // mid back to its defaults: its layers are in A's time space again, A's entry or
            // one like it, and run on A's time.
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            mid.speed = 1
            CATransaction.commit()
            r.renderFrame(atTime: 6.5)
            XCTAssertEqual(Double(under[4].presentation()?.opacity ?? -1), max(0, 1 - (7.5 - 1) / 8), accuracy: 1e-9)
            XCTAssertEqual(EngineContext.current.layers.timeSpace[Int(under[4].row)], a.row)
        }
    }

    /// A paused root (speed 0) holds every layer's running animation where it is, and the
    /// implicit animations of a transaction over the paused tree share one entry: a frame
    /// evaluates one timing, not one per layer.
    func test_aPausedRootHoldsItsSubtreeOnOneEntry() {
        onFreshEngine {
            let root = CALayer()
            let layers = (0..<500).map { _ in CALayer() }
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for (i, l) in layers.enumerated() { (i == 0 ? root : layers[(i - 1) / 4]).addSublayer(l) }
            CATransaction.commit()
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            CATransaction.begin()
            CATransaction.setAnimationDuration(4)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            for l in layers { l.opacity = 0 }
            CATransaction.commit()
            r.renderFrame(atTime: 1)
            // Pause at a quarter: root's local time is held at 1 (timeOffset 1, speed 0).
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            root.timeOffset = root.convertTime(1, from: nil)
            root.speed = 0
            CATransaction.commit()
            let animations = EngineContext.current.animations
            let entries = Set(layers.map { animations.records[Int(animations.firstOfLayer[Int($0.row)])].timing })
            XCTAssertEqual(entries.count, 1)
            for t in [2.0, 30.0] {
                r.renderFrame(atTime: t)
                for (i, l) in layers.enumerated() {
                    XCTAssertEqual(Double(l.presentation()?.opacity ?? -1), 0.75, accuracy: 1e-9, "layer \(i) at \(t)")
                }
            }
        }
    }

    /// Groups of equal timing added in one transaction share the group's entry, and their
    /// equal members share the members' entries. A layer moved into a timed subtree mid-group
    /// takes its group and members onto entries of their own in the new time; the others keep
    /// theirs.
    func test_groupsSharingEntriesFollowTheirLayerIntoATimedSubtree() {
        onFreshEngine {
            let root = CALayer(), fast = CALayer()
            let layers = (0..<4).map { _ in CALayer() }
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            root.addSublayer(fast)
            fast.speed = 2
            for l in layers { root.addSublayer(l) }
            CATransaction.commit()
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            func basic(_ key: String, to: Double, duration: Double) -> CABasicAnimation {
                let a = CABasicAnimation(keyPath: key)
                a.fromValue = 0.0
                a.toValue = to
                a.duration = duration
                a.timingFunction = CAMediaTimingFunction(name: .linear)
                return a
            }
            let g = CAAnimationGroup()
            g.animations = [basic("opacity", to: 1, duration: 8), basic("borderWidth", to: 10, duration: 4)]
            g.duration = 8
            g.timingFunction = CAMediaTimingFunction(name: .linear)
            CATransaction.begin()
            for l in layers { l.add(g, forKey: "g") }
            CATransaction.commit()   // at 0
            let animations = EngineContext.current.animations
            func entries(_ l: CALayer) -> [Int32] {
                let gid = animations.firstOfLayer[Int(l.row)]
                return [animations.records[Int(gid)].timing] + animations.groupChildren[gid]!.map { animations.records[Int($0)].timing }
            }
            XCTAssertEqual(Set(layers.map(entries)).count, 1, "equal groups: one group entry, one entry per member timing")
            // The opacity member has the group's timing and none of its own: it runs on the
            // group's entry; borderWidth's, 4 s long, on an entry of its own under it.
            XCTAssertEqual(Set(entries(layers[0])).count, 2)
            XCTAssertEqual(entries(layers[0])[1], entries(layers[0])[0])
            r.renderFrame(atTime: 1)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            fast.addSublayer(layers[1])
            CATransaction.commit()
            XCTAssertEqual(Set(layers.map(entries)).count, 2)
            XCTAssertEqual(entries(layers[1])[1], entries(layers[1])[0], "the member on the group's entry moved with it")
            XCTAssertTrue(Set(entries(layers[1])).isDisjoint(with: entries(layers[0])), "the moved group's entries are its own")
            for t in [1.5, 3.0] {
                r.renderFrame(atTime: t)
                for (i, l) in layers.enumerated() {
                    // The group's time: media time, or the fast layer's (twice it) once moved.
                    let local = i == 1 ? 2 * t : t
                    let p = l.presentation()!
                    XCTAssertEqual(Double(p.opacity), local / 8, accuracy: 1e-9, "layer \(i) at \(t)")
                    // borderWidth's member lasts 4 s of the group's time, no fill: the model's 0 after.
                    XCTAssertEqual(Double(p.borderWidth), local < 4 ? 10 * local / 4 : 0, accuracy: 1e-9, "layer \(i) at \(t)")
                }
            }
        }
    }
}

/// Group members are timed 8 at a time on their groups' eased times (`evaluateMemberBlock`)
/// with the values the one-by-one path gives: the definition, computed here.
final class GroupMemberTimingTests: XCTestCase {
    /// 40 groups, each its own begin time and an ease-out curve, of two members: opacity
    /// with an ease-in curve over the group's 10 s, borderWidth linear over 4 s (over inside
    /// the group: the model after). Every frame, every layer shows the definition's values;
    /// the blocks path ran while all members were inside their durations, and the members
    /// after one ended were timed one by one with the same values.
    func test_membersTimedTogetherShowTheDefinitionsValues() {
        onFreshEngine {
            let root = CALayer()
            let layers = (0..<40).map { _ in CALayer() }
            withActionsDisabled { for l in layers { root.addSublayer(l) } }
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            CATransaction.begin()
            for (i, l) in layers.enumerated() {
                let o = CABasicAnimation(keyPath: "opacity")
                o.fromValue = 0.0
                o.toValue = 1.0
                o.timingFunction = CAMediaTimingFunction(name: .easeIn)
                let w = CABasicAnimation(keyPath: "borderWidth")
                w.fromValue = 0.0
                w.toValue = 10.0
                w.duration = 4
                w.timingFunction = CAMediaTimingFunction(name: .linear)
                let g = CAAnimationGroup()
                g.animations = [o, w]
                g.duration = 10
                g.beginTime = 0.5 + 0.01 * Double(i)   // absolute (media time, the root's)
                g.timingFunction = CAMediaTimingFunction(name: .easeOut)
                l.add(g, forKey: "g")
            }
            CATransaction.commit()
            let easeIn = UnitBezier(0.42, 0, 1, 1), easeOut = UnitBezier(0, 0, 0.58, 1)
            let timings = EngineContext.current.timings
            var blocksBefore = timings.memberBlocksTimed, blockFrames = 0
            for t in [0.75, 1.0, 2.0, 3.0, 4.5, 6.0, 9.0] {
                r.renderFrame(atTime: t)
                var allInside = true
                for (i, l) in layers.enumerated() {
                    let p = l.presentation()!
                    guard t >= 0.5 + 0.01 * Double(i) else {
                        // Before its group's begin (no fill): the model.
                        XCTAssertEqual(p.opacity, 1, "layer \(i) at \(t)")
                        XCTAssertEqual(p.borderWidth, 0, "layer \(i) at \(t)")
                        allInside = false
                        continue
                    }
                    let groupTime = 10 * easeOut.solve((t - 0.5 - 0.01 * Double(i)) / 10)
                    // To the curve solver's tolerance: the group's time is eased by the vector
                    // pass (Newton to 1e-12 in x), here by the scalar solve.
                    XCTAssertEqual(Double(p.opacity), easeIn.solve(groupTime / 10), accuracy: 1e-7, "layer \(i) at \(t)")
                    XCTAssertEqual(Double(p.borderWidth), groupTime < 4 ? 10 * groupTime / 4 : 0, accuracy: 1e-6, "layer \(i) at \(t)")
                    if groupTime >= 4 { allInside = false }
                }
                // The frame after a group's begin starts its members (one by one; the last
                // begin at 0.89); from the next, while every member is inside its duration,
                // all 80 go in blocks of 8.
                if t > 1 && allInside { XCTAssertEqual(timings.memberBlocksTimed - blocksBefore, 10, "at \(t)"); blockFrames += 1 }
                blocksBefore = timings.memberBlocksTimed
            }
            XCTAssertGreaterThanOrEqual(blockFrames, 1, "a frame timed every member in blocks")
        }
    }
}
