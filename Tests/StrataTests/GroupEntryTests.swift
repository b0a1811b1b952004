import XCTest
@testable import Strata

/// A group member with the group's timing and none of its own runs on the group's timing
/// entry (`AnimationCompiler.runsOnGroupEntry`, `TimingStore.applyMemberRule`): the values
/// are those of a member on an entry of its own, including where such a member has no effect.
final class GroupEntryTests: XCTestCase {
    private static func basic(_ key: String, from: Any, to: Any) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: key)
        a.fromValue = from
        a.toValue = to
        return a
    }

    /// Groups of their own begin time and curve, each of an opacity and a position member,
    /// show what the same two animations show added alone with the group's timing, frame by
    /// frame, and the model after the end; the groups take one timing entry each.
    func test_membersOfTheGroupsTimingShowWhatTheSameAnimationsShowAlone() {
        onFreshEngine {
            let root = CALayer()
            let n = 40
            let grouped = (0..<n).map { _ in CALayer() }, alone = (0..<n).map { _ in CALayer() }
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for l in grouped + alone { root.addSublayer(l) }
            CATransaction.commit()
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            CATransaction.begin()
            for i in 0..<n {
                let begin = 0.01 * Double(i)
                let curve = CAMediaTimingFunction(controlPoints: 0.1 + Float(i) / 100, 0.05, 0.6, 1)
                let o = Self.basic("opacity", from: 0.0, to: 1.0)
                let p = Self.basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: Double(i), y: 50))
                let g = CAAnimationGroup()
                g.animations = [o, p]
                g.duration = 1
                g.beginTime = begin
                g.timingFunction = curve
                grouped[i].add(g, forKey: "g")
                for a in [Self.basic("opacity", from: 0.0, to: 1.0),
                          Self.basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: Double(i), y: 50))] {
                    a.duration = 1
                    a.beginTime = begin
                    a.timingFunction = curve
                    alone[i].add(a, forKey: a.keyPath)
                }
            }
            CATransaction.commit()
            let timings = EngineContext.current.timings
            let animations = EngineContext.current.animations
            for l in grouped {
                let gid = animations.firstOfLayer[Int(l.row)]
                let members = animations.groupChildren[gid]!
                XCTAssertEqual(members.count, 2)
                for m in members { XCTAssertEqual(animations.records[Int(m)].timing, animations.records[Int(gid)].timing) }
            }
            XCTAssertFalse(timings.hasChildren, "no member has an entry of its own")
            for t in [0.2, 0.45, 0.7, 0.95, 1.005, 1.3] {
                r.renderFrame(atTime: t)
                for i in 0..<n {
                    let g = grouped[i].presentation()!, a = alone[i].presentation()!
                    XCTAssertEqual(Double(g.opacity), Double(a.opacity), accuracy: 1e-12, "layer \(i) at \(t)")
                    XCTAssertEqual(g.position.x, a.position.x, accuracy: 1e-9, "layer \(i) at \(t)")
                    XCTAssertEqual(g.position.y, a.position.y, accuracy: 1e-9, "layer \(i) at \(t)")
                    // beginTime is a media time: before it and from its end on, the model.
                    if t < 0.01 * Double(i) || t >= 0.01 * Double(i) + 1 {
                        XCTAssertEqual(g.opacity, 1, "layer \(i) at \(t): the model outside the group's duration")
                    } else {
                        XCTAssertGreaterThanOrEqual(g.opacity, 0, "layer \(i) at \(t)")
                        XCTAssertLessThan(g.opacity, 1, "layer \(i) at \(t)")
                    }
                }
            }
            r.renderFrame(atTime: 1.5)
            XCTAssertEqual(StrataEngine.activeAnimationCount, 0)
            XCTAssertEqual(timings.liveCount, 0)
        }
    }

    /// Where a member on an entry of its own would have no effect, the member on the group's
    /// entry has none: past the end of a group held by its fill mode (a member with a fill
    /// of its own holds), and where the group's curve overshoots its duration.
    func test_aMemberOnTheGroupsEntryHasNoEffectOutsideItsDuration() {
        onFreshEngine {
            let root = CALayer(), held = CALayer(), overshoot = CALayer()
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            root.addSublayer(held)
            root.addSublayer(overshoot)
            held.opacity = 0.5
            overshoot.opacity = 0.5
            CATransaction.commit()
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            CATransaction.begin()
            let g = CAAnimationGroup()
            let filled = Self.basic("borderWidth", from: 0.0, to: 8.0)
            filled.fillMode = .forwards
            g.animations = [Self.basic("opacity", from: 0.0, to: 1.0), filled]
            g.duration = 1
            g.fillMode = .forwards
            g.isRemovedOnCompletion = false
            held.add(g, forKey: "g")
            let o = CAAnimationGroup()
            o.animations = [Self.basic("opacity", from: 0.0, to: 1.0)]
            o.duration = 1
            o.timingFunction = CAMediaTimingFunction(controlPoints: 0.3, 1.8, 0.6, 1.5)
            overshoot.add(o, forKey: "o")
            CATransaction.commit()
            let curve = UnitBezier(0.3, 1.8, 0.6, 1.5)
            var sawNone = false, sawSome = false
            for k in 1...40 {
                let t = Double(k) * 0.025 - 0.0001
                r.renderFrame(atTime: t)
                let y = curve.solve(t)
                let expected = y * 1 < 1 && y >= 0 ? y : 0.5   // no effect: the model's 0.5
                if y >= 1 { sawNone = true } else { sawSome = true }
                XCTAssertEqual(Double(overshoot.presentation()!.opacity), expected, accuracy: 1e-6, "at \(t)")
                XCTAssertEqual(Double(held.presentation()!.opacity), t, accuracy: 1e-6, "at \(t)")
            }
            XCTAssertTrue(sawNone && sawSome, "the curve overshoots in some frames, not all")
            r.renderFrame(atTime: 1.5)
            let p = held.presentation()!
            XCTAssertEqual(p.opacity, 0.5, "no fill of its own: the model past the end")
            XCTAssertEqual(p.borderWidth, 8, "a fill of its own: held")
            XCTAssertEqual(held.animationKeys(), ["g"])
        }
    }

    /// Removing a group takes its members from the group's entry; a group that completes
    /// tells its delegate once, and its members go with it.
    func test_groupsOnTheirEntryAreRemovedAndRetiredWithTheirMembers() {
        final class Stops: NSObject, CAAnimationDelegate {
            var finished: [Bool] = []
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { finished.append(flag) }
        }
        onFreshEngine {
            let root = CALayer(), a = CALayer(), b = CALayer()
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            root.addSublayer(a)
            root.addSublayer(b)
            CATransaction.commit()
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            let stops = Stops()
            CATransaction.begin()
            for (l, delegate) in [(a, nil), (b, stops)] as [(CALayer, Stops?)] {
                let g = CAAnimationGroup()
                g.animations = [Self.basic("opacity", from: 0.0, to: 0.5), Self.basic("borderWidth", from: 2.0, to: 4.0)]
                g.duration = 1
                g.delegate = delegate
                l.add(g, forKey: "g")
            }
            CATransaction.commit()
            r.renderFrame(atTime: 0.5)
            XCTAssertEqual(Double(a.presentation()!.opacity), 0.25, accuracy: 1e-9)
            XCTAssertEqual(Double(b.presentation()!.borderWidth), 3, accuracy: 1e-9)
            XCTAssertEqual(StrataEngine.activeAnimationCount, 6)
            XCTAssertEqual(EngineContext.current.timings.liveCount, 1, "equal groups share one entry, members on it")
            a.removeAnimation(forKey: "g")
            XCTAssertEqual(a.presentation()!.opacity, 1, "removed: the model at once")
            XCTAssertEqual(StrataEngine.activeAnimationCount, 3)
            r.renderFrame(atTime: 1.2)
            XCTAssertEqual(stops.finished, [true])
            XCTAssertEqual(StrataEngine.activeAnimationCount, 0)
            XCTAssertEqual(EngineContext.current.timings.liveCount, 0)
            XCTAssertEqual(b.presentation()!.borderWidth, 0)
        }
    }
}
