import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// CAMediaTiming in full (SEMANTICS.md "Timing"): speed, timeOffset, repeatCount, repeatDuration,
/// autoreverses on animations, and the layer tree as a tree of timed objects — a layer's
/// beginTime, speed and timeOffset govern its sublayers' animations, `convertTime(_:from:)` and
/// `convertTime(_:to:)`, and Apple's pause / resume recipe.
///
/// Most tests animate a CGFloat property from 0 to 10 over 1 s, so the presented value is ten
/// times the animation's fraction; expected fractions are worked out in the comments from
/// a = (parentTime - begin) * speed, local = a + timeOffset folded into an iteration.
final class TimingModelTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// 0 -> 10 over `duration`: the presented value is 10 x the fraction.
    private func ramp(_ keyPath: String = "cornerRadius", duration: Double = 1) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = 0.0
        animation.toValue = 10.0
        animation.duration = duration
        return animation
    }

    private func add(_ animation: CAAnimation, to layer: CALayer, forKey key: String = "ramp") {
        inTransaction { layer.add(animation, forKey: key) }
    }

    /// A scene whose layer's model cornerRadius is 3 (what shows when no animation applies).
    private func modelScene(configure: @escaping (CALayer) -> Void = { _ in }) -> Scene<CALayer> {
        Scene(CALayer()) { layer in
            layer.cornerRadius = 3
            configure(layer)
        }
    }

    private func radius(_ layer: CALayer, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        Double(try XCTUnwrap(layer.presentation(), "no presentation layer", file: file, line: line).cornerRadius)
    }

    // MARK: Animation timing

    func test_speedScalesTheActiveTime() throws {
        let scene = modelScene()
        let fast = ramp("cornerRadius")
        fast.speed = 2
        let slow = ramp("borderWidth")
        slow.speed = 0.5
        add(fast, to: scene.layer, forKey: "fast")
        add(slow, to: scene.layer, forKey: "slow")
        scene.frame(at: 0.25)
        XCTAssertEqual(try radius(scene.layer), 5, accuracy: 1e-6)
        XCTAssertEqual(Double(try scene.presented().borderWidth), 1.25, accuracy: 1e-6)
        scene.frame(at: 0.5)
        XCTAssertEqual(try radius(scene.layer), 3, accuracy: 1e-6, "1 s at double speed is over at 0.5")
        XCTAssertEqual(animationKeys(of: scene.layer), ["slow"])
        scene.frame(at: 1.5)
        XCTAssertEqual(Double(try scene.presented().borderWidth), 7.5, accuracy: 1e-6)
        scene.frame(at: 2)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_speedCountsFromTheBeginTime() throws {
        let scene = modelScene()
        let animation = ramp()
        animation.beginTime = 1
        animation.speed = 2
        add(animation, to: scene.layer)
        scene.frame(at: 0.9)
        XCTAssertEqual(try radius(scene.layer), 3, accuracy: 1e-6, "not begun")
        scene.frame(at: 1.25)
        XCTAssertEqual(try radius(scene.layer), 5, accuracy: 1e-6, "a = (1.25 - 1) * 2")
        scene.frame(at: 1.5)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_timeOffsetStartsPartWayAndWrapsWithinTheActiveDuration() throws {
        let scene = modelScene()
        let animation = ramp()
        animation.timeOffset = 0.25
        add(animation, to: scene.layer)
        for (t, value) in [(0.0, 2.5), (0.5, 7.5), (0.9, 1.5)] {  // local 0.25, 0.75, 1.15 -> 0.15
            scene.frame(at: t)
            XCTAssertEqual(try radius(scene.layer), value, accuracy: 1e-6, "at \(t)")
        }
        scene.frame(at: 1)
        XCTAssertEqual(try radius(scene.layer), 3, accuracy: 1e-6, "the active duration is still 1 s")
    }

    func test_backwardsFillHoldsTheFractionAtTheTimeOffset() throws {
        let scene = modelScene()
        let animation = ramp()
        animation.beginTime = 2
        animation.timeOffset = 0.25
        animation.fillMode = .backwards
        add(animation, to: scene.layer)
        scene.frame(at: 1)
        XCTAssertEqual(try radius(scene.layer), 2.5, accuracy: 1e-6)
        scene.frame(at: 2.5)
        XCTAssertEqual(try radius(scene.layer), 7.5, accuracy: 1e-6)
    }

    func test_repeatCountRunsWholeIterations() throws {
        let scene = modelScene()
        let recorder = AnimationEventRecorder()
        let animation = ramp()
        animation.repeatCount = 2
        animation.delegate = recorder
        add(animation, to: scene.layer)
        for (t, value) in [(0.5, 5.0), (1.25, 2.5), (1.99, 9.9)] {
            scene.frame(at: t)
            XCTAssertEqual(try radius(scene.layer), value, accuracy: 1e-6, "at \(t)")
        }
        XCTAssertEqual(recorder.events, ["start"], "one start for all iterations")
        scene.frame(at: 2)
        XCTAssertEqual(try radius(scene.layer), 3, accuracy: 1e-6)
        XCTAssertEqual(recorder.events, ["start", "stop(true)"])
    }

    func test_fractionalRepeatCountEndsPartWay() throws {
        let scene = modelScene()
        let animation = ramp()
        animation.repeatCount = 1.5
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        add(animation, to: scene.layer)
        scene.frame(at: 1.25)
        XCTAssertEqual(try radius(scene.layer), 2.5, accuracy: 1e-6)
        scene.frame(at: 1.5)
        XCTAssertEqual(try radius(scene.layer), 5, accuracy: 1e-6, "ended half-way through the second iteration")
        scene.frame(at: 3)
        XCTAssertEqual(try radius(scene.layer), 5, accuracy: 1e-6, "and held there")
    }

    func test_repeatDurationLimitsTheActiveTimeAndOverridesRepeatCount() throws {
        let scene = modelScene()
        let limited = ramp("cornerRadius")
        limited.repeatDuration = 2.5
        limited.fillMode = .forwards
        limited.isRemovedOnCompletion = false
        let both = ramp("borderWidth")
        both.repeatCount = 5
        both.repeatDuration = 1.5
        add(limited, to: scene.layer, forKey: "limited")
        add(both, to: scene.layer, forKey: "both")
        scene.frame(at: 1.25)
        XCTAssertEqual(Double(try scene.presented().borderWidth), 2.5, accuracy: 1e-6)
        scene.frame(at: 2.25)
        XCTAssertEqual(try radius(scene.layer), 2.5, accuracy: 1e-6, "third iteration")
        XCTAssertEqual(Double(try scene.presented().borderWidth), 0, accuracy: 1e-6, "repeatDuration 1.5 won over 5 repeats")
        XCTAssertEqual(animationKeys(of: scene.layer), ["limited"])
        scene.frame(at: 4)
        XCTAssertEqual(try radius(scene.layer), 5, accuracy: 1e-6, "held where 2.5 s of repeating ended")
    }

    func test_autoreversesPlaysForwardThenBackAndEndsAtTheStart() throws {
        let scene = modelScene()
        let animation = ramp()
        animation.autoreverses = true
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        add(animation, to: scene.layer)
        for (t, value) in [(0.25, 2.5), (0.75, 7.5), (1.25, 7.5), (1.75, 2.5)] {
            scene.frame(at: t)
            XCTAssertEqual(try radius(scene.layer), value, accuracy: 1e-6, "at \(t)")
        }
        scene.frame(at: 3)
        XCTAssertEqual(try radius(scene.layer), 0, accuracy: 1e-6, "a whole autoreversed iteration ends at fraction 0")
    }

    func test_autoreversesMirrorsTheFractionBeforeTheTimingFunction() throws {
        let scene = modelScene()
        let animation = ramp()
        animation.autoreverses = true
        animation.timingFunction = CAMediaTimingFunction(name: .easeIn)
        add(animation, to: scene.layer)
        scene.frame(at: 0.75)
        XCTAssertEqual(try radius(scene.layer), 10 * ReferenceCurve.easeIn.progress(atFraction: 0.75), accuracy: 1e-5)
        scene.frame(at: 1.25)
        XCTAssertEqual(try radius(scene.layer), 10 * ReferenceCurve.easeIn.progress(atFraction: 0.75), accuracy: 1e-5,
                       "the way back retraces the same eased values")
    }

    func test_autoreversesWithRepeatCountDoublesEachIteration() throws {
        let scene = modelScene()
        let animation = ramp()
        animation.autoreverses = true
        animation.repeatCount = 2
        add(animation, to: scene.layer)
        for (t, value) in [(2.25, 2.5), (2.75, 7.5), (3.75, 2.5)] {
            scene.frame(at: t)
            XCTAssertEqual(try radius(scene.layer), value, accuracy: 1e-6, "at \(t)")
        }
        scene.frame(at: 4)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_infiniteRepeatCountNeverEnds() throws {
        let scene = modelScene()
        let recorder = AnimationEventRecorder()
        let animation = ramp()
        animation.repeatCount = .infinity
        animation.delegate = recorder
        add(animation, to: scene.layer)
        scene.frame(at: 1000.25)
        XCTAssertEqual(try radius(scene.layer), 2.5, accuracy: 1e-6)
        XCTAssertEqual(animationKeys(of: scene.layer), ["ramp"])
        XCTAssertEqual(recorder.stops, [])
    }

    func test_zeroSpeedAnimationHoldsItsTimeOffset() throws {
        let scene = modelScene()
        let recorder = AnimationEventRecorder()
        let animation = ramp()
        animation.speed = 0
        animation.timeOffset = 0.4
        animation.delegate = recorder
        add(animation, to: scene.layer)
        for t in [0.0, 0.5, 10] {
            scene.frame(at: t)
            XCTAssertEqual(try radius(scene.layer), 4, accuracy: 1e-6, "at \(t)")
        }
        XCTAssertEqual(recorder.stops, [], "its active time never advances")
    }

    // MARK: Layer time governs its sublayers' animations

    func test_layerSpeedScalesItsAnimations() throws {
        let scene = modelScene { $0.speed = 2 }
        let recorder = AnimationEventRecorder()
        let animation = ramp()
        animation.delegate = recorder
        add(animation, to: scene.layer)
        scene.frame(at: 0.25)
        XCTAssertEqual(try radius(scene.layer), 5, accuracy: 1e-6, "layer time 0.5")
        scene.frame(at: 0.5)
        XCTAssertEqual(try radius(scene.layer), 3, accuracy: 1e-6)
        XCTAssertEqual(recorder.stops, [true], "finished at media time 0.5")
    }

    func test_layerSpeedsCompoundDownTheTree() throws {
        let root = CALayer(), parent = CALayer(), child = CALayer()
        let renderer = CARenderer(layer: root)
        withActionsDisabled {
            parent.speed = 2
            child.speed = 1.5
            child.cornerRadius = 50
            root.addSublayer(parent)
            parent.addSublayer(child)
        }
        renderer.renderFrame(atTime: 0)
        renderer.renderFrame(atTime: 1)
        XCTAssertEqual(child.convertTime(CACurrentMediaTime(), from: nil), 3, accuracy: 1e-12)
        add(ramp(), to: child)  // begins at the child's local time 3
        renderer.renderFrame(atTime: 1.1)
        XCTAssertEqual(try radius(child), 3, accuracy: 1e-6, "0.1 s at speed 3: fraction 0.3")
        renderer.renderFrame(atTime: 1.3)
        XCTAssertEqual(try radius(child), 9, accuracy: 1e-6)
        renderer.renderFrame(atTime: 1.34)
        XCTAssertEqual(animationKeys(of: child), [])
    }

    func test_implicitAnimationOnASpedUpLayerRunsInItsLocalTime() throws {
        let scene = modelScene { $0.speed = 2 }
        scene.layer.opacity = 0
        scene.frame(at: 1)  // commits at layer time 2
        scene.frame(at: 1.0625)
        XCTAssertEqual(Double(try scene.presented().opacity), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: 0.5)),
                       accuracy: 1e-6, "0.125 s of layer time into the 0.25 s fade")
        scene.frame(at: 1.125)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_animationBeginTimeIsInTheLayersLocalTime() throws {
        let scene = modelScene { $0.timeOffset = 100 }
        XCTAssertEqual(scene.layer.convertTime(CACurrentMediaTime(), from: nil), 100, accuracy: 1e-12)
        let delayed = ramp()
        delayed.beginTime = scene.layer.convertTime(CACurrentMediaTime(), from: nil) + 0.5  // Apple's delay recipe
        add(delayed, to: scene.layer)
        scene.frame(at: 0.25)
        XCTAssertEqual(try radius(scene.layer), 3, accuracy: 1e-6, "begins at layer time 100.5 = media 0.5")
        scene.frame(at: 0.75)
        XCTAssertEqual(try radius(scene.layer), 2.5, accuracy: 1e-6)
    }

    func test_layerBeginTimeShiftsItsLocalTime() throws {
        let scene = modelScene { $0.beginTime = 2 }
        XCTAssertEqual(scene.layer.convertTime(3, from: nil), 1, accuracy: 1e-12)
        let now = ramp("borderWidth")  // beginTime 0: the layer's local time at the commit, -2
        let later = ramp("cornerRadius")
        later.beginTime = 1  // layer time 1 = media 3
        add(now, to: scene.layer, forKey: "now")
        add(later, to: scene.layer, forKey: "later")
        scene.frame(at: 0.5)
        // Media 0.5 is before the layer begins (at 2) and its fillMode is `removed`: the
        // layer's timing is inactive (layer timing, SEMANTICS.md "Fidelity rules"), so its
        // animations have no effect and the model borderWidth (0) shows.
        XCTAssertEqual(Double(try scene.presented().borderWidth), 0, accuracy: 1e-6)
        scene.frame(at: 2.5)
        XCTAssertEqual(try radius(scene.layer), 3, accuracy: 1e-6)
        scene.frame(at: 3.5)
        XCTAssertEqual(try radius(scene.layer), 5, accuracy: 1e-6)
    }

    func test_changingLayerSpeedMidAnimationTakesEffectAtTheNextFrame() throws {
        let scene = modelScene()
        add(ramp(), to: scene.layer)
        scene.frame(at: 0.2)
        XCTAssertEqual(try radius(scene.layer), 2, accuracy: 1e-6)
        scene.layer.speed = 2  // no offset correction: layer time jumps to 2t
        scene.frame(at: 0.3)
        XCTAssertEqual(try radius(scene.layer), 6, accuracy: 1e-6)
    }

    // MARK: Pause and resume (Apple's recipe)

    private func pause(_ layer: CALayer) {
        let pausedTime = layer.convertTime(CACurrentMediaTime(), from: nil)
        layer.speed = 0
        layer.timeOffset = pausedTime
    }

    private func resume(_ layer: CALayer) {
        let pausedTime = layer.timeOffset
        layer.speed = 1
        layer.timeOffset = 0
        layer.beginTime = 0
        let timeSincePause = layer.convertTime(CACurrentMediaTime(), from: nil) - pausedTime
        layer.beginTime = timeSincePause
    }

    func test_pausingALayerFreezesItsAnimations() throws {
        let scene = modelScene()
        let recorder = AnimationEventRecorder()
        let animation = ramp()
        animation.delegate = recorder
        add(animation, to: scene.layer)
        scene.frame(at: 0.4)
        pause(scene.layer)
        for t in [0.4, 1, 5] {
            scene.frame(at: t)
            XCTAssertEqual(try radius(scene.layer), 4, accuracy: 1e-6, "frozen, at \(t)")
        }
        XCTAssertEqual(animationKeys(of: scene.layer), ["ramp"])
        XCTAssertEqual(recorder.stops, [])
    }

    func test_resumingALayerContinuesWhereItPaused() throws {
        let scene = modelScene()
        let recorder = AnimationEventRecorder()
        let animation = ramp()
        animation.delegate = recorder
        add(animation, to: scene.layer)
        scene.frame(at: 0.4)
        pause(scene.layer)
        scene.frame(at: 5)
        resume(scene.layer)
        scene.frame(at: 5)
        XCTAssertEqual(try radius(scene.layer), 4, accuracy: 1e-6, "no jump on resuming")
        scene.frame(at: 5.3)
        XCTAssertEqual(try radius(scene.layer), 7, accuracy: 1e-6)
        XCTAssertEqual(recorder.stops, [])
        scene.frame(at: 5.6)
        XCTAssertEqual(recorder.stops, [true], "the remaining 0.6 s ran after the pause")
        XCTAssertEqual(try radius(scene.layer), 3, accuracy: 1e-6)
    }

    func test_pausingAParentFreezesTheWholeSubtreeOnly() throws {
        let root = CALayer(), parent = CALayer(), child = CALayer(), grandchild = CALayer(), sibling = CALayer()
        let renderer = CARenderer(layer: root)
        withActionsDisabled {
            root.addSublayer(parent)
            root.addSublayer(sibling)
            parent.addSublayer(child)
            child.addSublayer(grandchild)
        }
        renderer.renderFrame(atTime: 0)
        inTransaction {
            for layer in [child, grandchild, sibling] { layer.add(ramp(), forKey: "ramp") }
        }
        renderer.renderFrame(atTime: 0.4)
        pause(parent)
        renderer.renderFrame(atTime: 0.7)
        XCTAssertEqual(try radius(child), 4, accuracy: 1e-6)
        XCTAssertEqual(try radius(grandchild), 4, accuracy: 1e-6)
        XCTAssertEqual(try radius(sibling), 7, accuracy: 1e-6, "outside the paused subtree")
        renderer.renderFrame(atTime: 3)
        XCTAssertEqual(animationKeys(of: child), ["ramp"])
        XCTAssertEqual(animationKeys(of: grandchild), ["ramp"])
        XCTAssertEqual(animationKeys(of: sibling), [])
    }

    func test_animationAddedToAPausedLayerWaitsAtItsStart() throws {
        let scene = modelScene { layer in
            layer.speed = 0
            layer.timeOffset = 5
        }
        scene.frame(at: 1)
        add(ramp(), to: scene.layer)  // begins at the layer's frozen time 5
        scene.frame(at: 3)
        XCTAssertEqual(try radius(scene.layer), 0, accuracy: 1e-6, "active at fraction 0")
        resume(scene.layer)
        scene.frame(at: 3.5)
        XCTAssertEqual(try radius(scene.layer), 5, accuracy: 1e-6)
    }

    // MARK: convertTime

    /// root -> a (beginTime 1, speed 2, timeOffset 3) -> b (speed 0.5, timeOffset -1); c beside a, speed 4.
    /// a's local time is 2t + 1, b's is t - 0.5, c's is 4t.
    private func timedTree() -> (root: CALayer, a: CALayer, b: CALayer, c: CALayer) {
        let root = CALayer(), a = CALayer(), b = CALayer(), c = CALayer()
        a.beginTime = 1
        a.speed = 2
        a.timeOffset = 3
        b.speed = 0.5
        b.timeOffset = -1
        c.speed = 4
        withActionsDisabled {
            root.addSublayer(a)
            a.addSublayer(b)
            root.addSublayer(c)
        }
        return (root, a, b, c)
    }

    func test_convertTimeFromAndToTheGlobalTimeline() {
        let (root, a, b, _) = timedTree()
        XCTAssertEqual(root.convertTime(5, from: nil), 5, accuracy: 1e-12)
        XCTAssertEqual(a.convertTime(5, from: nil), 11, accuracy: 1e-12)
        XCTAssertEqual(b.convertTime(5, from: nil), 4.5, accuracy: 1e-12)
        XCTAssertEqual(a.convertTime(11, to: nil), 5, accuracy: 1e-12)
        XCTAssertEqual(b.convertTime(4.5, to: nil), 5, accuracy: 1e-12)
        for t in [-3.0, 0, 0.7, 12.25] {
            XCTAssertEqual(b.convertTime(b.convertTime(t, from: nil), to: nil), t, accuracy: 1e-12, "round trip of \(t)")
        }
    }

    func test_convertTimeBetweenLayersGoesThroughTheirCommonTimeline() {
        let (_, a, b, c) = timedTree()
        XCTAssertEqual(b.convertTime(11, from: a), 4.5, accuracy: 1e-12)
        XCTAssertEqual(a.convertTime(4.5, from: b), 11, accuracy: 1e-12)
        XCTAssertEqual(a.convertTime(11, to: b), 4.5, accuracy: 1e-12)
        XCTAssertEqual(c.convertTime(11, from: a), 20, accuracy: 1e-12, "a's 11 is media time 5, c's 20")
        XCTAssertEqual(a.convertTime(20, from: c), 11, accuracy: 1e-12)
    }

    func test_rootLayerTimingAppliesToEveryLayer() throws {
        let root = CALayer(), child = CALayer()
        let renderer = CARenderer(layer: root)
        withActionsDisabled {
            root.speed = 2
            root.timeOffset = 10
            child.cornerRadius = 3
            root.addSublayer(child)
        }
        XCTAssertEqual(root.convertTime(3, from: nil), 16, accuracy: 1e-12)
        XCTAssertEqual(child.convertTime(3, from: nil), 16, accuracy: 1e-12)
        renderer.renderFrame(atTime: 0)
        add(ramp(), to: child)  // begins at the child's local time 10
        renderer.renderFrame(atTime: 0.25)
        XCTAssertEqual(try radius(child), 5, accuracy: 1e-6)
        XCTAssertEqual(CACurrentMediaTime(), 0.25, "layer time does not move the media clock")
    }
}
