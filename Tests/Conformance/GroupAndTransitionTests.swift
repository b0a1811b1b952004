import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// CAAnimationGroup (children on the group's timeline, clipped to its duration, the group's
/// timing on top) and CATransition (always under kCATransition; type, subtype and progress
/// exposed through `runningTransition`; the built-in transitions of `contents`, `filters` and
/// `sublayers`).
///
/// Animations are added in an explicit transaction right after the scene's first frame, so they
/// start at media time 0 unless a test says otherwise; with no timing function they are linear.
final class GroupAndTransitionTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private func basic(_ keyPath: String, from: Any, to: Any, duration: Double = 0) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.duration = duration
        return animation
    }

    private func group(_ children: [CAAnimation], duration: Double) -> CAAnimationGroup {
        let group = CAAnimationGroup()
        group.animations = children
        group.duration = duration
        return group
    }

    private func add(_ animation: CAAnimation, to layer: CALayer, forKey key: String? = "group") {
        inTransaction { layer.add(animation, forKey: key) }
    }

    /// A scene whose layer has cornerRadius 3, borderWidth 1, zPosition 0 in the model.
    private func modelScene() -> Scene<CALayer> {
        Scene(CALayer()) { layer in
            layer.cornerRadius = 3
            layer.borderWidth = 1
        }
    }

    private func value(_ scene: Scene<CALayer>, _ keyPath: String, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        try XCTUnwrap(numericValue(try scene.presented(file: file, line: line).value(forKeyPath: keyPath)),
                      "\(keyPath) is not a number", file: file, line: line)
    }

    // MARK: Groups: the children's timeline

    func test_childrenWithoutDurationTakeTheGroupsDuration() throws {
        let scene = modelScene()
        add(group([basic("cornerRadius", from: 0.0, to: 10.0),
                   basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 200))], duration: 2),
            to: scene.layer)
        scene.frame(at: 0.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 2.5, accuracy: 1e-6)
        assertPoint(try scene.presented().position, 25, 50)
        scene.frame(at: 1.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 7.5, accuracy: 1e-6)
        assertPoint(try scene.presented().position, 75, 150)
        scene.frame(at: 2)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "the group is over: the model")
        assertPoint(try scene.presented().position, 0, 0)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_childWithItsOwnShorterDurationEndsInsideTheGroup() throws {
        let scene = modelScene()
        add(group([basic("cornerRadius", from: 0.0, to: 10.0, duration: 1),
                   basic("borderWidth", from: 0.0, to: 20.0)], duration: 2), to: scene.layer)
        scene.frame(at: 0.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 5, accuracy: 1e-6)
        XCTAssertEqual(try value(scene, "borderWidth"), 5, accuracy: 1e-6)
        scene.frame(at: 1.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "its own 1 s are over, no fill")
        XCTAssertEqual(try value(scene, "borderWidth"), 15, accuracy: 1e-6)
    }

    func test_childForwardsFillHoldsOnlyUntilTheGroupEnds() throws {
        let scene = modelScene()
        let short = basic("cornerRadius", from: 0.0, to: 10.0, duration: 1)
        short.fillMode = .forwards
        add(group([short], duration: 2), to: scene.layer)
        scene.frame(at: 1.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 10, accuracy: 1e-6, "held inside the group")
        scene.frame(at: 2.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "the group ended without fill")
    }

    func test_childrenAreClippedToTheGroupsDuration() throws {
        let scene = modelScene()
        let recorder = AnimationEventRecorder()
        let groupAnimation = group([basic("cornerRadius", from: 0.0, to: 10.0, duration: 4)], duration: 2)
        groupAnimation.delegate = recorder
        add(groupAnimation, to: scene.layer)
        scene.frame(at: 1)
        XCTAssertEqual(try value(scene, "cornerRadius"), 2.5, accuracy: 1e-6, "a quarter of the child's 4 s")
        scene.frame(at: 1.9)
        XCTAssertEqual(try value(scene, "cornerRadius"), 4.75, accuracy: 1e-6)
        scene.frame(at: 2)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "cut off at the group's end")
        XCTAssertEqual(animationKeys(of: scene.layer), [])
        XCTAssertEqual(recorder.stops, [true])
    }

    func test_childBeginTimeIsRelativeToTheGroupsStart() throws {
        let scene = modelScene()
        scene.frame(at: 1)
        let late = basic("cornerRadius", from: 0.0, to: 10.0, duration: 1)
        late.beginTime = 0.5
        let lateFilled = basic("borderWidth", from: 10.0, to: 20.0, duration: 1)
        lateFilled.beginTime = 0.5
        lateFilled.fillMode = .backwards
        add(group([late, lateFilled], duration: 3), to: scene.layer)  // the group starts at 1
        scene.frame(at: 1.25)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "not started: the model")
        XCTAssertEqual(try value(scene, "borderWidth"), 10, accuracy: 1e-6, "backwards fill before its start")
        scene.frame(at: 2)
        XCTAssertEqual(try value(scene, "cornerRadius"), 5, accuracy: 1e-6, "began at 1 + 0.5")
        XCTAssertEqual(try value(scene, "borderWidth"), 15, accuracy: 1e-6)
        scene.frame(at: 2.4)
        XCTAssertEqual(try value(scene, "cornerRadius"), 9, accuracy: 1e-6)
    }

    func test_groupTimingFunctionWarpsItsChildrensTime() throws {
        let scene = modelScene()
        let eased = basic("borderWidth", from: 0.0, to: 10.0)
        eased.timingFunction = CAMediaTimingFunction(name: .easeOut)
        let groupAnimation = group([basic("cornerRadius", from: 0.0, to: 10.0),
                                    eased,
                                    basic("zPosition", from: 0.0, to: 10.0, duration: 4)], duration: 2)
        groupAnimation.timingFunction = CAMediaTimingFunction(name: .easeIn)
        add(groupAnimation, to: scene.layer)
        for t in [0.5, 1, 1.5] {
            scene.frame(at: t)
            let childTime = ReferenceCurve.easeIn.progress(atFraction: t / 2) * 2
            XCTAssertEqual(try value(scene, "cornerRadius"), 10 * childTime / 2, accuracy: 1e-5, "at \(t)")
            XCTAssertEqual(try value(scene, "borderWidth"), 10 * ReferenceCurve.easeOut.progress(atFraction: childTime / 2),
                           accuracy: 1e-5, "the child's own curve applies to the warped time, at \(t)")
            XCTAssertEqual(try value(scene, "zPosition"), 10 * childTime / 4, accuracy: 1e-5, "at \(t)")
        }
    }

    func test_groupSpeedAndRepeatCountDriveItsChildren() throws {
        let scene = modelScene()
        let groupAnimation = group([basic("cornerRadius", from: 0.0, to: 10.0)], duration: 1)
        groupAnimation.speed = 2
        groupAnimation.repeatCount = 2
        add(groupAnimation, to: scene.layer)
        scene.frame(at: 0.25)
        XCTAssertEqual(try value(scene, "cornerRadius"), 5, accuracy: 1e-6, "group time 0.5")
        scene.frame(at: 0.6)
        XCTAssertEqual(try value(scene, "cornerRadius"), 2, accuracy: 1e-6, "group time 1.2: the second iteration")
        scene.frame(at: 1)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "two iterations at double speed end at 1 s")
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_groupAutoreversesRunsItsChildrenBackwards() throws {
        let scene = modelScene()
        let groupAnimation = group([basic("cornerRadius", from: 0.0, to: 10.0)], duration: 1)
        groupAnimation.autoreverses = true
        add(groupAnimation, to: scene.layer)
        scene.frame(at: 0.25)
        XCTAssertEqual(try value(scene, "cornerRadius"), 2.5, accuracy: 1e-6)
        scene.frame(at: 1.25)
        XCTAssertEqual(try value(scene, "cornerRadius"), 7.5, accuracy: 1e-6)
        scene.frame(at: 1.9)
        XCTAssertEqual(try value(scene, "cornerRadius"), 1, accuracy: 1e-6)
    }

    func test_groupForwardsFillFreezesItsTimeAndChildrenUseTheirOwnFill() throws {
        let scene = modelScene()
        let filled = basic("cornerRadius", from: 0.0, to: 10.0)
        filled.fillMode = .forwards
        let unfilled = basic("borderWidth", from: 0.0, to: 20.0)
        let long = basic("zPosition", from: 0.0, to: 100.0, duration: 4)
        let groupAnimation = group([filled, unfilled, long], duration: 2)
        groupAnimation.fillMode = .forwards
        groupAnimation.isRemovedOnCompletion = false
        add(groupAnimation, to: scene.layer)
        scene.frame(at: 5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 10, accuracy: 1e-6, "ended at the group's end, held by its fill")
        XCTAssertEqual(try value(scene, "borderWidth"), 1, accuracy: 1e-6, "ended at the group's end, no fill: the model")
        XCTAssertEqual(try value(scene, "zPosition"), 50, accuracy: 1e-6, "still active at the frozen group time 2")
        XCTAssertEqual(animationKeys(of: scene.layer), ["group"])
    }

    func test_groupWithoutFillHasNoEffectOutsideItsActiveTime() throws {
        let scene = modelScene()
        let filled = basic("cornerRadius", from: 0.0, to: 10.0)
        filled.fillMode = .both
        let groupAnimation = group([filled], duration: 1)
        groupAnimation.beginTime = 1
        groupAnimation.isRemovedOnCompletion = false
        add(groupAnimation, to: scene.layer)
        scene.frame(at: 0.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "the group has not begun")
        scene.frame(at: 1.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 5, accuracy: 1e-6)
        scene.frame(at: 3)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "the group is over: the child's fill cannot hold")
    }

    func test_onlyTheGroupsKeyIsListed() throws {
        let scene = modelScene()
        add(group([basic("cornerRadius", from: 0.0, to: 10.0), basic("borderWidth", from: 0.0, to: 20.0)], duration: 2),
            to: scene.layer)
        XCTAssertEqual(animationKeys(of: scene.layer), ["group"])
        XCTAssertNil(scene.layer.animation(forKey: "cornerRadius"))
        XCTAssertNil(scene.layer.animation(forKey: "borderWidth"))
        let stored = try XCTUnwrap(scene.layer.animation(forKey: "group") as? CAAnimationGroup)
        XCTAssertEqual(stored.animations?.count, 2)
        XCTAssertEqual(stored.duration, 2)
        XCTAssertEqual((stored.animations?.first as? CABasicAnimation)?.keyPath, "cornerRadius")
    }

    func test_removingTheGroupRemovesItsChildrensEffectAtOnce() throws {
        let scene = modelScene()
        let recorder = AnimationEventRecorder()
        let groupAnimation = group([basic("cornerRadius", from: 0.0, to: 10.0),
                                    basic("position", from: CGPoint(x: 50, y: 50), to: CGPoint(x: 150, y: 50))], duration: 2)
        groupAnimation.delegate = recorder
        add(groupAnimation, to: scene.layer)
        add(basic("borderWidth", from: 0.0, to: 10.0, duration: 2), to: scene.layer, forKey: "border")
        scene.frame(at: 1)
        XCTAssertEqual(try value(scene, "cornerRadius"), 5, accuracy: 1e-6)

        scene.layer.removeAnimation(forKey: "group")
        XCTAssertEqual(animationKeys(of: scene.layer), ["border"])
        scene.frame(at: 1)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6)
        assertPoint(try scene.presented().position, 0, 0)
        XCTAssertEqual(try value(scene, "borderWidth"), 5, accuracy: 1e-6, "other animations run on")
        XCTAssertEqual(recorder.stops, [false])
    }

    func test_groupDelegateIsToldStartAndStopOnce() {
        let scene = modelScene()
        let recorder = AnimationEventRecorder()
        let groupAnimation = group([basic("cornerRadius", from: 0.0, to: 10.0, duration: 1),
                                    basic("borderWidth", from: 0.0, to: 20.0)], duration: 2)
        groupAnimation.delegate = recorder
        add(groupAnimation, to: scene.layer)
        scene.frame(at: 0)
        XCTAssertEqual(recorder.events, ["start"])
        scene.frame(at: 1.5)
        XCTAssertEqual(recorder.events, ["start"], "a child ending is not the group ending")
        scene.frame(at: 2)
        XCTAssertEqual(recorder.events, ["start", "stop(true)"])
        scene.frame(at: 3)
        XCTAssertEqual(recorder.events, ["start", "stop(true)"])
    }

    func test_aGroupDropsOnlyTheChildrenItCannotRun() throws {
        let scene = Scene(CALayer()) { $0.opacity = 1 }
        let recorder = AnimationEventRecorder()
        let g = group([
            basic("opacity", from: 0.0, to: 1.0),
            basic("noSuchProperty.x", from: 0.0, to: 1.0),            // names nothing
            basic("cornerRadius", from: CGPoint.zero, to: CGPoint(x: 1, y: 1)),   // wrong type
            basic("position.x", from: 0.0, to: 100.0),
        ], duration: 1)
        g.delegate = recorder
        let diagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(g, forKey: "g") } }
        XCTAssertEqual(diagnostics.map(\.code), [.unknownKeyPath, .wrongValueType])
        XCTAssertTrue(diagnostics[0].message.hasSuffix("CAAnimationGroup child 1 dropped, the other children run"), diagnostics[0].message)
        XCTAssertTrue(diagnostics[1].message.hasSuffix("CAAnimationGroup child 2 dropped, the other children run"), diagnostics[1].message)
        XCTAssertFalse(diagnostics.contains { $0.message.contains("animation not added") }, "the group is added")
        XCTAssertEqual(animationKeys(of: scene.layer), ["g"])
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.5, accuracy: 1e-6, "the children it can run, run")
        XCTAssertEqual(Double(try scene.presented().position.x), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 0)
        scene.frame(at: 1.5)
        XCTAssertEqual(recorder.events, ["start", "stop(true)"], "the group runs its course")
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_aGroupOfChildrenItCannotRunStillRunsItsTimeAndTellsItsDelegate() throws {
        let scene = Scene(CALayer())
        let recorder = AnimationEventRecorder()
        let inner = group([basic("nowhere.y", from: 0.0, to: 1.0)], duration: 0)
        let g = group([inner, basic("opacity", from: CGColor(gray: 0, alpha: 1), to: 1.0)], duration: 1)
        g.delegate = recorder
        let diagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(g, forKey: "g") } }
        XCTAssertEqual(diagnostics.map(\.code), [.unknownKeyPath, .wrongValueType])
        XCTAssertTrue(diagnostics[0].message.hasSuffix("child 0 dropped, the other children run"),
                      "a nested group drops its own child and is kept: \(diagnostics[0].message)")
        XCTAssertEqual(animationKeys(of: scene.layer), ["g"])
        scene.frame(at: 0.5)
        XCTAssertEqual(try scene.presented().opacity, 1, "nothing animates")
        scene.frame(at: 1.5)
        XCTAssertEqual(recorder.events, ["start", "stop(true)"])
    }

    func test_groupChildrenMayBeKeyframeAndPathAnimations() throws {
        let scene = modelScene()
        let keyframes = CAKeyframeAnimation(keyPath: "cornerRadius")
        keyframes.values = [0.0, 10.0, 30.0]
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 300))
        let follow = CAKeyframeAnimation(keyPath: "position")
        follow.path = path
        add(group([keyframes, follow], duration: 2), to: scene.layer)
        scene.frame(at: 0.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 5, accuracy: 1e-6)
        assertPoint(try scene.presented().position, 50, 0)
        scene.frame(at: 1.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 20, accuracy: 1e-6)
        assertPoint(try scene.presented().position, 100, 150)
    }

    func test_nestedGroupRunsOnItsParentGroupsTimeline() throws {
        let scene = modelScene()
        let inner = group([basic("cornerRadius", from: 0.0, to: 10.0)], duration: 2)
        inner.beginTime = 1
        add(group([inner, basic("borderWidth", from: 0.0, to: 40.0)], duration: 4), to: scene.layer)
        scene.frame(at: 0.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "the inner group begins at outer time 1")
        XCTAssertEqual(try value(scene, "borderWidth"), 5, accuracy: 1e-6)
        scene.frame(at: 2)
        XCTAssertEqual(try value(scene, "cornerRadius"), 5, accuracy: 1e-6)
        scene.frame(at: 3.5)
        XCTAssertEqual(try value(scene, "cornerRadius"), 3, accuracy: 1e-6, "the inner group is over")
        XCTAssertEqual(try value(scene, "borderWidth"), 35, accuracy: 1e-6)
    }

    // MARK: Transitions

    private func transition(_ type: CATransitionType, _ subtype: CATransitionSubtype? = nil, duration: Double = 1) -> CATransition {
        let transition = CATransition()
        transition.type = type
        transition.subtype = subtype
        transition.duration = duration
        return transition
    }

    private func assertState(_ state: CATransitionState?, _ type: CATransitionType, _ subtype: CATransitionSubtype,
                             _ progress: Double, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        guard let state else {
            XCTFail("no running transition. \(message)", file: file, line: line)
            return
        }
        XCTAssertEqual(state.type, type, message, file: file, line: line)
        XCTAssertEqual(state.subtype, subtype, message, file: file, line: line)
        XCTAssertEqual(Double(state.progress), progress, accuracy: 1e-5, message, file: file, line: line)
    }

    func test_transitionIsStoredUnderTheTransitionKeyWhateverKeyIsGiven() throws {
        let scene = modelScene()
        add(transition(.push), to: scene.layer, forKey: "slide")
        XCTAssertEqual(animationKeys(of: scene.layer), [kCATransition])
        XCTAssertNil(scene.layer.animation(forKey: "slide"))
        XCTAssertEqual((scene.layer.animation(forKey: kCATransition) as? CATransition)?.type, .push)
        add(transition(.reveal), to: scene.layer, forKey: nil)
        XCTAssertEqual(animationKeys(of: scene.layer), [kCATransition], "one transition per layer")
        XCTAssertEqual((scene.layer.animation(forKey: kCATransition) as? CATransition)?.type, .reveal)
    }

    func test_runningTransitionReportsTypeSubtypeAndLinearProgress() throws {
        let scene = modelScene()
        XCTAssertNil(scene.layer.runningTransition)
        add(transition(.push, .fromRight, duration: 2), to: scene.layer)
        XCTAssertNil(scene.layer.runningTransition, "as of the last rendered frame, which had none")
        scene.frame(at: 0.5)
        assertState(scene.layer.runningTransition, .push, .fromRight, 0.25)
        assertState(try scene.presented().runningTransition, .push, .fromRight, 0.25, "the presentation copy agrees")
        scene.frame(at: 1.5)
        assertState(scene.layer.runningTransition, .push, .fromRight, 0.75)
    }

    func test_runningTransitionIsNilOnceTheTransitionIsOver() throws {
        let scene = modelScene()
        let recorder = AnimationEventRecorder()
        let fade = transition(.fade)
        fade.delegate = recorder
        add(fade, to: scene.layer)
        scene.frame(at: 0.9)
        XCTAssertNotNil(scene.layer.runningTransition)
        scene.frame(at: 1.5)
        XCTAssertNil(scene.layer.runningTransition)
        XCTAssertNil(try scene.presented().runningTransition)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
        XCTAssertEqual(recorder.stops, [true])
    }

    func test_everyTypeAndSubtypeIsExposed() {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let cases: [(CATransitionType, CATransitionSubtype?)] = [
            (.fade, .fromBottom), (.moveIn, .fromTop), (.push, .fromRight), (.reveal, .fromLeft), (.moveIn, .fromBottom),
            (.fade, nil), (.push, nil),
        ]
        let layers = cases.map { _ in CALayer() }
        withActionsDisabled { layers.forEach(root.addSublayer) }
        renderer.renderFrame(atTime: 0)
        inTransaction {
            for (layer, (type, subtype)) in zip(layers, cases) { layer.add(transition(type, subtype, duration: 4), forKey: nil) }
        }
        renderer.renderFrame(atTime: 1)
        for (layer, (type, subtype)) in zip(layers, cases) {
            assertState(layer.runningTransition, type, subtype ?? .fromLeft, 0.25,
                        "\(type.rawValue) \(subtype?.rawValue ?? "nil: reported as fromLeft")")
        }
        XCTAssertNil(root.runningTransition, "a transition belongs to the layer it was added to")
    }

    func test_startAndEndProgressBoundTheReportedProgress() {
        let scene = modelScene()
        let partial = transition(.moveIn, .fromTop)
        partial.startProgress = 0.2
        partial.endProgress = 0.8
        add(partial, to: scene.layer)
        for t in [0.0, 0.5, 0.75, 0.99] {
            scene.frame(at: t)
            assertState(scene.layer.runningTransition, .moveIn, .fromTop, 0.2 + 0.6 * t, "at \(t)")
        }
    }

    func test_transitionTimingFunctionEasesTheProgress() {
        let scene = modelScene()
        let eased = transition(.reveal, .fromBottom, duration: 2)
        eased.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        eased.startProgress = 0.1
        eased.endProgress = 0.9
        add(eased, to: scene.layer)
        for t in [0.3, 1, 1.6] {
            scene.frame(at: t)
            let expected = 0.1 + 0.8 * ReferenceCurve.easeInEaseOut.progress(atFraction: t / 2)
            assertState(scene.layer.runningTransition, .reveal, .fromBottom, expected, "at \(t)")
        }
    }

    func test_transitionWithoutDurationTakesTheTransactionDuration() {
        let scene = modelScene()
        let push = transition(.push, .fromLeft, duration: 0)
        inTransaction(duration: 2) { scene.layer.add(push, forKey: nil) }
        scene.frame(at: 1)
        assertState(scene.layer.runningTransition, .push, .fromLeft, 0.5)
        scene.frame(at: 2.1)
        XCTAssertNil(scene.layer.runningTransition)
    }

    func test_transitionChangesNoPropertyValue() throws {
        let scene = modelScene()
        inTransaction {
            CATransaction.setDisableActions(true)
            scene.layer.add(transition(.push, .fromRight, duration: 2), forKey: nil)
            scene.layer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            scene.layer.opacity = 0.5
            scene.layer.position = CGPoint(x: 40, y: 60)
        }
        scene.frame(at: 1)
        XCTAssertNotNil(scene.layer.runningTransition)
        let presented = try scene.presented()
        assertColor(presented.backgroundColor, [1, 0, 0, 1], "the new value at once: the renderer draws the transition")
        XCTAssertEqual(Double(presented.opacity), 0.5, accuracy: 1e-6)
        assertPoint(presented.position, 40, 60)
        XCTAssertEqual(Double(presented.cornerRadius), 3, accuracy: 1e-6)
    }

    func test_secondTransitionReplacesTheFirst() {
        let scene = modelScene()
        let first = AnimationEventRecorder(), second = AnimationEventRecorder()
        let push = transition(.push, .fromTop, duration: 2)
        push.delegate = first
        add(push, to: scene.layer)
        scene.frame(at: 0.5)
        let reveal = transition(.reveal, .fromRight, duration: 1)
        reveal.delegate = second
        add(reveal, to: scene.layer)  // at 0.5
        scene.frame(at: 1)
        XCTAssertEqual(first.stops, [false])
        assertState(scene.layer.runningTransition, .reveal, .fromRight, 0.5)
        scene.frame(at: 1.5)
        XCTAssertEqual(second.stops, [true])
        XCTAssertNil(scene.layer.runningTransition)
    }

    // MARK: Built-in transitions

    func test_contentsChangeRunsABuiltInFadeWithTheDefaultCurve() throws {
        let scene = modelScene()
        let image = FakeImage(name: "next")
        scene.layer.contents = image
        scene.frame(at: 1)  // commits the implicit transaction: the fade starts at 1
        XCTAssertEqual(animationKeys(of: scene.layer), [kCATransition])
        scene.frame(at: 1.1)
        assertState(scene.layer.runningTransition, .fade, .fromLeft, ReferenceCurve.caDefault.progress(atFraction: 0.4))
        XCTAssertIdentical(try scene.presented().contents as AnyObject?, image, "the contents themselves change at once")
        scene.frame(at: 1.25)
        XCTAssertNil(scene.layer.runningTransition)
    }

    func test_filtersChangeRunsABuiltInTransition() {
        let scene = modelScene()
        scene.layer.filters = ["blur"]
        scene.frame(at: 1)
        XCTAssertEqual(animationKeys(of: scene.layer), [kCATransition])
        scene.frame(at: 1.125)
        XCTAssertEqual(scene.layer.runningTransition?.type, .fade)
        XCTAssertEqual(scene.layer.filters?.first as? String, "blur")
    }

    func test_assigningSublayersRunsABuiltInTransitionOnTheLayer() {
        let scene = modelScene()
        let a = CALayer(), b = CALayer()
        scene.layer.sublayers = [a, b]
        scene.frame(at: 1)
        XCTAssertEqual(animationKeys(of: scene.layer), [kCATransition])
        XCTAssertEqual(animationKeys(of: scene.root), [], "the transition is on the layer whose sublayers changed")
        scene.frame(at: 1.1)
        XCTAssertEqual(scene.layer.runningTransition?.type, .fade)
        XCTAssertEqual(scene.layer.sublayers?.count, 2)

        scene.frame(at: 2)
        withActionsDisabled { scene.layer.sublayers = [b] }
        scene.frame(at: 2.1)
        XCTAssertEqual(animationKeys(of: scene.layer), [], "disabled actions: no transition")
        XCTAssertNil(scene.layer.runningTransition)
    }
}
