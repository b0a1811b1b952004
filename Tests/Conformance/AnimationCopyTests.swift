import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// A subclass of the application's own that copies its property in `copy(with:)`, as Apple's
/// documentation asks of NSCopying subclasses.
private final class TaggedAnimation: CABasicAnimation {
    var tag = 0
    override func copy(with zone: NSZone? = nil) -> Any {
        let c = super.copy(with: zone) as! TaggedAnimation
        c.tag = tag
        return c
    }
}

/// A subclass that does not override `copy(with:)`: copies keep its class and everything
/// CABasicAnimation declares.
private final class PlainSubclassAnimation: CABasicAnimation {}

/// `copy()` and `copy(with:)` of every animation class, and the copy `add(_:forKey:)` stores:
/// the same class, every property of it and of its superclasses, and later changes to the
/// original reach neither.
final class AnimationCopyTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// The timing values every animation copies.
    private func setTiming(_ a: CAAnimation) {
        a.beginTime = 2; a.duration = 3; a.speed = 0.5; a.timeOffset = 0.25; a.repeatCount = 2.5
        a.repeatDuration = 9; a.autoreverses = true; a.fillMode = .both; a.isRemovedOnCompletion = false
        a.timingFunction = CAMediaTimingFunction(name: .easeIn)
    }

    private func assertTiming(_ c: CAAnimation, _ o: CAAnimation, _ what: String, line: UInt = #line) {
        XCTAssertEqual([c.beginTime, c.duration, c.timeOffset, c.repeatDuration], [2, 3, 0.25, 9], what, line: line)
        XCTAssertEqual([c.speed, c.repeatCount], [0.5, 2.5], what, line: line)
        XCTAssertTrue(c.autoreverses, what, line: line)
        XCTAssertEqual(c.fillMode, .both, what, line: line)
        XCTAssertFalse(c.isRemovedOnCompletion, what, line: line)
        XCTAssertIdentical(c.timingFunction, o.timingFunction, what, line: line)
        XCTAssertFalse(c === o, "\(what): a new object", line: line)
    }

    func test_everyClassCopiesItsOwnAndItsSuperclassesProperties() throws {
        let basic = CABasicAnimation(keyPath: "position")
        setTiming(basic)
        basic.fromValue = CGPoint(x: 1, y: 2); basic.toValue = CGPoint(x: 3, y: 4); basic.byValue = CGPoint(x: 5, y: 6)
        basic.isAdditive = true; basic.isCumulative = true
        for c in [basic.copy(), basic.copy(with: nil)] {
            let b = try XCTUnwrap(c as? CABasicAnimation)
            XCTAssertTrue(type(of: b) == CABasicAnimation.self)
            assertTiming(b, basic, "basic")
            XCTAssertEqual(b.keyPath, "position")
            XCTAssertTrue(b.isAdditive && b.isCumulative)
            XCTAssertEqual(b.fromValue as? CGPoint, CGPoint(x: 1, y: 2))
            XCTAssertEqual(b.toValue as? CGPoint, CGPoint(x: 3, y: 4))
            XCTAssertEqual(b.byValue as? CGPoint, CGPoint(x: 5, y: 6))
        }

        let keyframe = CAKeyframeAnimation(keyPath: "opacity")
        setTiming(keyframe)
        keyframe.values = [1, 0.2, 0.8]
        keyframe.keyTimes = [0, 0.3, 1]
        keyframe.timingFunctions = [CAMediaTimingFunction(name: .easeOut), CAMediaTimingFunction(name: .linear)]
        keyframe.calculationMode = .cubic
        keyframe.tensionValues = [0.1, 0.2, 0.3]; keyframe.continuityValues = [0.4, 0.5, 0.6]; keyframe.biasValues = [0.7, 0.8, 0.9]
        let k = try XCTUnwrap(keyframe.copy() as? CAKeyframeAnimation)
        assertTiming(k, keyframe, "keyframe")
        XCTAssertEqual(k.keyPath, "opacity")
        XCTAssertEqual(k.values?.compactMap { $0 as? Double }, [0.2, 0.8], "the Double values (1 is an Int)")
        XCTAssertEqual(k.values?.first as? Int, 1)
        XCTAssertEqual(k.keyTimes?.map(\.doubleValue), [0, 0.3, 1])
        XCTAssertEqual(k.timingFunctions?.count, 2)
        XCTAssertIdentical(k.timingFunctions?[0], keyframe.timingFunctions?[0])
        XCTAssertEqual(k.calculationMode, .cubic)
        XCTAssertEqual(k.tensionValues?.map(\.doubleValue), [0.1, 0.2, 0.3])
        XCTAssertEqual(k.continuityValues?.map(\.doubleValue), [0.4, 0.5, 0.6])
        XCTAssertEqual(k.biasValues?.map(\.doubleValue), [0.7, 0.8, 0.9])

        let along = CAKeyframeAnimation(keyPath: "position")
        let path = CGMutablePath()
        path.move(to: .zero); path.addLine(to: CGPoint(x: 10, y: 0))
        along.path = path
        along.rotationMode = .rotateAutoReverse
        let a = try XCTUnwrap(along.copy() as? CAKeyframeAnimation)
        XCTAssertEqual(a.path, path)
        XCTAssertEqual(a.rotationMode, .rotateAutoReverse)

        let spring = CASpringAnimation(keyPath: "opacity")
        setTiming(spring)
        spring.mass = 2; spring.stiffness = 50; spring.damping = 3; spring.initialVelocity = -1; spring.allowsOverdamping = true
        spring.fromValue = 0; spring.toValue = 1
        let s = try XCTUnwrap(spring.copy() as? CASpringAnimation)
        assertTiming(s, spring, "spring")
        XCTAssertEqual([s.mass, s.stiffness, s.damping, s.initialVelocity], [2, 50, 3, -1])
        XCTAssertTrue(s.allowsOverdamping)
        XCTAssertEqual(s.toValue as? Int, 1, "CABasicAnimation's values too")

        let transition = CATransition()
        setTiming(transition)
        transition.type = .push; transition.subtype = .fromTop; transition.startProgress = 0.2; transition.endProgress = 0.7
        let t = try XCTUnwrap(transition.copy() as? CATransition)
        assertTiming(t, transition, "transition")
        XCTAssertEqual(t.type, .push)
        XCTAssertEqual(t.subtype, .fromTop)
        XCTAssertEqual([t.startProgress, t.endProgress], [0.2, 0.7])

        let group = CAAnimationGroup()
        setTiming(group)
        group.animations = [basic, keyframe]
        let g = try XCTUnwrap(group.copy() as? CAAnimationGroup)
        assertTiming(g, group, "group")
        XCTAssertEqual(g.animations?.count, 2)
        XCTAssertFalse(g.animations?[0] === basic, "the group's animations are copied too")
        XCTAssertEqual((g.animations?[0] as? CABasicAnimation)?.toValue as? CGPoint, CGPoint(x: 3, y: 4))
        XCTAssertEqual((g.animations?[1] as? CAKeyframeAnimation)?.keyTimes?.count, 3)
    }

    func test_aCopyDoesNotFollowTheOriginal() throws {
        let basic = CABasicAnimation(keyPath: "opacity")
        basic.toValue = 0.5
        let c = try XCTUnwrap(basic.copy() as? CABasicAnimation)
        basic.toValue = 0.9; basic.keyPath = "position"; basic.duration = 7
        XCTAssertEqual(c.toValue as? Double, 0.5)
        XCTAssertEqual(c.keyPath, "opacity")
        XCTAssertEqual(c.duration, 0)
    }

    /// A subclass of the application's keeps its class and its own property through `copy()`
    /// and through the copy `add` stores; one without an override keeps its class and what
    /// CABasicAnimation declares.
    func test_subclassesKeepTheirClassAndPropertiesThroughAdd() throws {
        let tagged = TaggedAnimation(keyPath: "opacity")
        tagged.tag = 42
        tagged.fromValue = 0; tagged.toValue = 1; tagged.duration = 1
        let c = try XCTUnwrap(tagged.copy() as? TaggedAnimation)
        XCTAssertEqual(c.tag, 42)
        XCTAssertEqual(c.toValue as? Int, 1)

        let plain = PlainSubclassAnimation(keyPath: "opacity")
        plain.fromValue = 0.25; plain.toValue = 0.45; plain.duration = 1
        let p = try XCTUnwrap(plain.copy() as? PlainSubclassAnimation)
        XCTAssertEqual(p.toValue as? Double, 0.45)
        XCTAssertEqual(p.duration, 1)

        let scene = Scene(CALayer())
        inTransaction {
            scene.layer.add(tagged, forKey: "tagged")
            scene.layer.add(plain, forKey: "plain")
        }
        let stored = try XCTUnwrap(scene.layer.animation(forKey: "tagged") as? TaggedAnimation)
        XCTAssertFalse(stored === tagged, "add stores a copy")
        XCTAssertEqual(stored.tag, 42)
        tagged.tag = 7
        XCTAssertEqual((scene.layer.animation(forKey: "tagged") as? TaggedAnimation)?.tag, 42, "later changes do not reach the copy")
        let storedPlain = try XCTUnwrap(scene.layer.animation(forKey: "plain") as? PlainSubclassAnimation)
        XCTAssertEqual(storedPlain.fromValue as? Double, 0.25)
        // Both run: the later one (plain, 0.25 -> 0.45) shows, half-way at 0.5 s.
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.35, accuracy: 1e-6)
    }
}
