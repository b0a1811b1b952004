import Foundation
import StrataReference
import XCTest

/// A layer class with its own default action for `zPosition`.
final class Special: CALayer {
    static let fallback = RefRecordingAction()
    override class func defaultAction(forKey event: String) -> CAAction? {
        event == "zPosition" ? fallback : nil
    }
}

/// The action lookup chain and CATransaction: what runs on a property change, when it starts,
/// how long it takes, and when completion blocks run.
final class LookupAndTransactionTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataDiagnostics.handler = { _ in }
    }

    // MARK: the lookup chain

    func test_delegateActionEndsTheLookupAndNSNullStopsIt() {
        let layer = CALayer()
        let action = RefRecordingAction()
        let style = RefRecordingAction()
        let delegate = RefAnswering { key in key == "opacity" ? action : (key == "position" ? NSNull() : nil) }
        layer.delegate = delegate
        layer.style = ["actions": ["opacity": style, "cornerRadius": style]]
        XCTAssertTrue(layer.action(forKey: "opacity") === action, "the delegate's answer wins over the style")
        XCTAssertNil(layer.action(forKey: "position"), "NSNull from the delegate: no action at all")
        XCTAssertTrue(layer.action(forKey: "cornerRadius") === style, "nil from the delegate continues to the style")
        XCTAssertEqual(delegate.asked, ["opacity", "position", "cornerRadius"])
    }

    func test_actionsDictionaryThenNestedStyleThenDefaultThenBuiltIn() {
        let layer = Special()
        let fromActions = RefRecordingAction(), fromInnerStyle = RefRecordingAction()
        layer.actions = ["position": fromActions, "opacity": NSNull()]
        layer.style = ["style": ["style": ["actions": ["bounds": fromInnerStyle]]]]
        XCTAssertTrue(layer.action(forKey: "position") === fromActions)
        XCTAssertNil(layer.action(forKey: "opacity"), "NSNull in actions stops the lookup")
        XCTAssertTrue(layer.action(forKey: "bounds") === fromInnerStyle, "style[\"style\"] is searched recursively")
        XCTAssertTrue(layer.action(forKey: "zPosition") === Special.fallback)
        let builtIn = layer.action(forKey: "cornerRadius") as? CABasicAnimation
        XCTAssertEqual(builtIn?.keyPath, "cornerRadius")
        XCTAssertTrue(layer.action(forKey: "contents") is CATransition, "contents fades")
        XCTAssertNil(layer.action(forKey: "frame"), "frame is not animatable")
        XCTAssertNil(layer.action(forKey: "doubleSided"), "doubleSided has no implied animation")
        XCTAssertNil(layer.action(forKey: "strokeEnd"), "a shape property on a plain layer")
        XCTAssertNotNil(CAShapeLayer().action(forKey: "strokeEnd"))
    }

    func test_customActionRunsWithTheKeyAndLayerAfterTheModelChanged() {
        let scene = RefScene(CALayer())
        let action = RefRecordingAction()
        scene.layer.actions = ["opacity": action, "myKey": action]
        scene.layer.opacity = 0.5
        scene.layer.setValue(3.0, forKey: "myKey")
        XCTAssertEqual(action.runs.map { $0.0 }, ["opacity", "myKey"])
        XCTAssertTrue(action.runs[0].1 === scene.layer)
        XCTAssertEqual(scene.layer.opacity, 0.5, "the model changes at once")
        XCTAssertNil(scene.layer.animationKeys(), "a custom action adds no animation")
    }

    func test_seed000_nsNullActionsDisableImplicitButNotExplicitAnimations() {
        let scene = RefScene(CAShapeLayer())
        scene.layer.actions = ["strokeStart": NSNull(), "strokeEnd": NSNull(), "transform": NSNull()]
        scene.layer.strokeEnd = 0.5
        scene.layer.add(refBasic("strokeStart", from: 0.0, to: 1.0, duration: 2), forKey: "draw")
        XCTAssertEqual(scene.layer.animationKeys(), ["draw"])
        CATransaction.flush()
        scene.frame(0.5)
        XCTAssertEqual(Double(scene.shown.strokeEnd), 0.5, "committed at once, no animation")
        XCTAssertEqual(Double(scene.shown.strokeStart), 0.25, accuracy: 1e-12)
    }

    // MARK: implicit animations and transactions

    func test_implicitAnimationUsesQuarterSecondAndTheDefaultCurve() {
        let scene = RefScene(CALayer()) { $0.opacity = 1 }
        scene.layer.opacity = 0
        XCTAssertEqual(scene.layer.animationKeys(), ["opacity"])
        CATransaction.flush()   // the end of the run-loop turn: begins at the current time, 0
        for t in [0.05, 0.125, 0.2] {
            scene.frame(t)
            XCTAssertEqual(Double(scene.shown.opacity), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: t / 0.25)), accuracy: 1e-6, "at \(t)")
        }
        scene.frame(0.25)
        XCTAssertEqual(scene.shown.opacity, 0)
        XCTAssertNil(scene.layer.animationKeys(), "retired at its end")
    }

    func test_seed001_transactionDurationAndTimingFunction() {
        let scene = RefScene(CALayer()) { $0.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
        scene.layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        CATransaction.commit()
        scene.frame(0.4)
        let p = ReferenceCurve.easeIn.progress(atFraction: 0.4)
        refAssertColor(scene.shown.backgroundColor, [1 - p, 0, p, 1], accuracy: 1e-6)
    }

    func test_nestedTransactionsInheritSettings() {
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setDisableActions(true)
        CATransaction.setValue("v", forKey: "custom")
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 2)
        XCTAssertTrue(CATransaction.disableActions())
        XCTAssertEqual(CATransaction.value(forKey: "custom") as? String, "v")
        XCTAssertEqual((CATransaction.value(forKey: "animationDuration") as? NSNumber)?.doubleValue, 2)
        CATransaction.setAnimationDuration(3)
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 2, "the inner setting ends with the inner transaction")
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
    }

    func test_disableActionsChangesWithoutAnimationVisibleAfterTheCommit() {
        let scene = RefScene(CALayer()) { $0.position = CGPoint(x: 0, y: 0) }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        scene.layer.position = CGPoint(x: 50, y: 60)
        refAssertPoint(scene.shown.position, 0, 0)
        CATransaction.commit()
        XCTAssertNil(scene.layer.animationKeys())
        refAssertPoint(scene.shown.position, 50, 60)
    }

    func test_presentationIsNilBeforeTheFirstCommitAndHidesUncommittedChanges() {
        let layer = CALayer()
        XCTAssertNil(layer.presentation())
        let renderer = CARenderer(layer: layer)
        renderer.renderFrame(atTime: 0)
        let copy = layer.presentation()
        XCTAssertNotNil(copy)
        XCTAssertTrue(copy?.model() === layer)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.cornerRadius = 9
        renderer.renderFrame(atTime: 0.1)
        XCTAssertEqual(layer.presentation()?.cornerRadius, 0, "still inside an open transaction")
        CATransaction.commit()
        XCTAssertEqual(layer.presentation()?.cornerRadius, 9)
    }

    func test_commitWithoutBeginIsADiagnosticAndChangesNothing() {
        let scene = RefScene(CALayer())
        scene.layer.opacity = 0.5   // opens the implicit transaction
        let diagnostics = StrataDiagnostics.capture { CATransaction.commit() }
        XCTAssertEqual(diagnostics.map(\.code), [.unbalancedCommit])
        XCTAssertEqual(scene.shown.opacity, 1, "the implicit transaction is still open")
        scene.frame(0.1)      // commits: the fade begins at 0.1
        scene.frame(0.35)
        XCTAssertEqual(scene.shown.opacity, 0.5)
    }

    func test_animationsBeginAtTheOutermostCommit() {
        let scene = RefScene(CALayer())
        scene.frame(1)
        CATransaction.begin()
        refTransaction { scene.layer.add(refBasic("cornerRadius", from: 0.0, to: 10.0), forKey: "r") }
        scene.frame(2)
        XCTAssertEqual(scene.shown.cornerRadius, 0, "pending until the outer commit: the model value")
        CATransaction.commit()   // media time is still 2
        scene.frame(2.25)
        XCTAssertEqual(Double(scene.shown.cornerRadius), 2.5, accuracy: 1e-12)
    }

    // MARK: completion blocks

    func test_completionBlockWithoutAnimationsRunsAtCommit() {
        var ran = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { ran += 1 }
        XCTAssertEqual(ran, 0)
        CATransaction.commit()
        XCTAssertEqual(ran, 1)
    }

    func test_completionBlockRunsInEndFrameWhenItsAnimationsFinish() {
        let scene = RefScene(CALayer())
        var log: [String] = []
        let recorder = RefRecorder()
        CATransaction.begin()
        CATransaction.setCompletionBlock { log.append("done at \(CACurrentMediaTime())") }
        let a = refBasic("zPosition", from: 0.0, to: 1.0, duration: 0.5)
        a.delegate = recorder
        scene.layer.add(a, forKey: "z")
        scene.layer.cornerRadius = 4   // implicit, 0.25 s
        CATransaction.commit()
        scene.frame(0.3)
        XCTAssertEqual(log, [])
        scene.renderer.beginFrame(atTime: 0.5)
        scene.renderer.render()
        XCTAssertEqual(log, [], "render does not retire")
        XCTAssertEqual(recorder.events, ["start"])
        scene.renderer.endFrame()
        XCTAssertEqual(recorder.events, ["start", "stop(true)"])
        XCTAssertEqual(log, ["done at 0.5"])
    }

    func test_completionBlockRunsAtOnceWhenItsAnimationIsRemoved() {
        let scene = RefScene(CALayer())
        var ran = false
        refTransaction {
            CATransaction.setCompletionBlock { ran = true }
            scene.layer.add(refBasic("zPosition", from: 0.0, to: 1.0, duration: 5), forKey: "z")
        }
        scene.frame(1)
        XCTAssertFalse(ran)
        scene.layer.removeAnimation(forKey: "z")
        XCTAssertTrue(ran)
    }

    func test_outerCompletionBlockWaitsForNestedTransactionsAnimations() {
        let scene = RefScene(CALayer())
        var log: [String] = []
        CATransaction.begin()
        CATransaction.setCompletionBlock { log.append("outer") }
        scene.layer.add(refBasic("zPosition", from: 0.0, to: 1.0, duration: 1), forKey: "short")
        CATransaction.begin()
        CATransaction.setCompletionBlock { log.append("inner") }
        scene.layer.add(refBasic("cornerRadius", from: 0.0, to: 1.0, duration: 2), forKey: "long")
        CATransaction.commit()
        CATransaction.commit()
        scene.frame(1)
        XCTAssertEqual(log, [], "the outer block also waits for the inner transaction's animation")
        scene.frame(2)
        XCTAssertEqual(log, ["inner", "outer"])
    }

    func test_seed003_completionBlockRotatesAfterTheColourChange() {
        let scene = RefScene(CALayer()) { $0.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1) }
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setCompletionBlock {
            scene.layer.setAffineTransform(scene.layer.affineTransform().rotated(by: .pi / 2))
        }
        scene.layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        CATransaction.commit()
        scene.frame(0.5)
        XCTAssertEqual(scene.layer.animationKeys(), ["backgroundColor"])
        scene.frame(1)
        XCTAssertEqual(scene.layer.animationKeys(), ["transform"], "the block ran at the end of the fade")
        scene.frame(1.125)    // the block's change is committed here: the rotation begins
        scene.frame(1.25)
        let p = ReferenceCurve.caDefault.progress(atFraction: 0.5)
        let shown = scene.shown.transform
        // Transforms interpolate by decomposition: the turn's angle eases, at unit scale.
        XCTAssertEqual(Double(shown.m11), cos(.pi / 2 * p), accuracy: 1e-9)
        XCTAssertEqual(Double(shown.m12), sin(.pi / 2 * p), accuracy: 1e-9,
                       "not the entries' interpolation \(lerp(0, 1, p))")
    }
}
