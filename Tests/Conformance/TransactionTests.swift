import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// CATransaction: the per-thread stack, its settings and their inheritance, the implicit
/// transaction, when animations start, and completion blocks (SEMANTICS.md "Transactions").
///
/// Every scene is rendered at media time 0 first; an explicit commit then starts its animations
/// at the clock's time (the last `beginFrame`), an implicit change at the next frame.
final class TransactionTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private func opacity(_ scene: Scene<CALayer>, file: StaticString = #filePath, line: UInt = #line) throws -> Double {
        Double(try scene.presented(file: file, line: line).opacity)
    }

    // MARK: Settings and their defaults

    func test_defaultSettingsAreQuarterSecondNoTimingFunctionActionsEnabled() {
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        XCTAssertNil(CATransaction.animationTimingFunction())
        XCTAssertFalse(CATransaction.disableActions())
        XCTAssertNil(CATransaction.completionBlock())
        CATransaction.commit()
    }

    func test_settingsAreReadBackFromTheInnermostTransaction() {
        CATransaction.begin()
        CATransaction.setAnimationDuration(3)
        CATransaction.setDisableActions(true)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeOut))
        XCTAssertEqual(CATransaction.animationDuration(), 3)
        XCTAssertTrue(CATransaction.disableActions())
        XCTAssertEqual(controlPoints(of: CATransaction.animationTimingFunction()), [0, 0, 0, 0, 0.58, 1, 1, 1])
        CATransaction.commit()

        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25, "a new transaction starts from the defaults")
        XCTAssertFalse(CATransaction.disableActions())
        XCTAssertNil(CATransaction.animationTimingFunction())
        CATransaction.commit()
    }

    func test_nestedTransactionInheritsAnimationDuration() throws {
        let scene = Scene(CALayer())
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 2)
        scene.layer.opacity = 0
        CATransaction.commit()
        CATransaction.commit()

        scene.frame(at: 1)
        XCTAssertEqual(try opacity(scene), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: 0.5)), accuracy: 1e-6)
        scene.frame(at: 2)
        XCTAssertEqual(try opacity(scene), 0, accuracy: 1e-6)
    }

    func test_nestedOverrideOfAnimationDurationEndsWithTheNestedTransaction() throws {
        let scene = Scene(CALayer())
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        XCTAssertEqual(CATransaction.animationDuration(), 0.5)
        scene.layer.position = CGPoint(x: 100, y: 0)
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 2, "the outer setting is back")
        scene.layer.opacity = 0
        CATransaction.commit()

        scene.frame(at: 0.25)
        let position = try scene.presented().position
        assertPoint(position, lerp(0, 100, ReferenceCurve.caDefault.progress(atFraction: 0.5)), 0, "0.5 s position animation")
        XCTAssertEqual(try opacity(scene), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: 0.125)), accuracy: 1e-6,
                       "2 s opacity animation")
        scene.frame(at: 0.5)
        assertPoint(try scene.presented().position, 100, 0)
        XCTAssertEqual(animationKeys(of: scene.layer), ["opacity"])
    }

    func test_nestedTransactionInheritsAndOverridesDisableActions() {
        let scene = Scene(CALayer())
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.begin()
        XCTAssertTrue(CATransaction.disableActions(), "inherited")
        scene.layer.opacity = 0.5
        CATransaction.begin()
        CATransaction.setDisableActions(false)
        scene.layer.position = CGPoint(x: 10, y: 10)
        CATransaction.commit()
        XCTAssertTrue(CATransaction.disableActions(), "the override ended with its transaction")
        scene.layer.cornerRadius = 4
        CATransaction.commit()
        CATransaction.commit()

        XCTAssertEqual(animationKeys(of: scene.layer), ["position"], "only the change made with actions enabled animates")
    }

    func test_nestedTransactionInheritsTimingFunction() throws {
        let scene = Scene(CALayer())
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
        CATransaction.begin()
        scene.layer.opacity = 0
        CATransaction.commit()
        CATransaction.commit()

        scene.frame(at: 0.4)
        XCTAssertEqual(try opacity(scene), lerp(1, 0, ReferenceCurve.easeIn.progress(atFraction: 0.4)), accuracy: 1e-6)
    }

    func test_transactionTimingFunctionReplacesDefaultCurveOfImplicitAnimations() throws {
        let scene = Scene(CALayer())
        inTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(controlPoints: 0.7, 0.1, 0.2, 0.9))
            scene.layer.opacity = 0
        }
        scene.frame(at: 0.3)
        let curve = ReferenceCurve(0.7, 0.1, 0.2, 0.9)
        XCTAssertEqual(try opacity(scene), lerp(1, 0, curve.progress(atFraction: 0.3)), accuracy: 1e-6)
    }

    func test_setValueForKeyAnimationDurationTakesNSNumber() throws {
        let scene = Scene(CALayer())
        CATransaction.begin()
        CATransaction.setValue(NSNumber(value: 2.0), forKey: "animationDuration")
        XCTAssertEqual(CATransaction.animationDuration(), 2)
        CATransaction.setAnimationDuration(1.5)
        XCTAssertEqual((CATransaction.value(forKey: "animationDuration") as? NSNumber)?.doubleValue, 1.5)
        CATransaction.setValue(NSNumber(value: 2.0), forKey: "animationDuration")
        scene.layer.opacity = 0
        CATransaction.commit()

        scene.frame(at: 1.5)
        XCTAssertEqual(try opacity(scene), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: 0.75)), accuracy: 1e-6)
    }

    func test_setValueForKeyDisableActionsTakesNSNumber() {
        let scene = Scene(CALayer())
        CATransaction.begin()
        CATransaction.setValue(NSNumber(value: true), forKey: "disableActions")
        XCTAssertTrue(CATransaction.disableActions())
        scene.layer.opacity = 0
        CATransaction.commit()
        XCTAssertEqual(animationKeys(of: scene.layer), [])

        CATransaction.begin()
        CATransaction.setDisableActions(true)
        XCTAssertEqual((CATransaction.value(forKey: "disableActions") as? NSNumber)?.boolValue, true)
        CATransaction.setDisableActions(false)
        XCTAssertEqual((CATransaction.value(forKey: "disableActions") as? NSNumber)?.boolValue, false)
        CATransaction.commit()
    }

    func test_customTransactionValueIsInheritedAndEndsWithItsTransaction() {
        CATransaction.begin()
        XCTAssertNil(CATransaction.value(forKey: "reason"))
        CATransaction.setValue("rotation", forKey: "reason")
        XCTAssertEqual(CATransaction.value(forKey: "reason") as? String, "rotation")
        CATransaction.begin()
        XCTAssertEqual(CATransaction.value(forKey: "reason") as? String, "rotation", "inherited by a nested transaction")
        CATransaction.setValue("scroll", forKey: "reason")
        XCTAssertEqual(CATransaction.value(forKey: "reason") as? String, "scroll")
        CATransaction.commit()
        XCTAssertEqual(CATransaction.value(forKey: "reason") as? String, "rotation", "the override ended")
        CATransaction.commit()

        CATransaction.begin()
        XCTAssertNil(CATransaction.value(forKey: "reason"), "gone with its transaction")
        CATransaction.commit()
    }

    // MARK: When animations start

    func test_implicitTransactionIsCommittedAtNextFrame() throws {
        let scene = Scene(CALayer())
        scene.layer.opacity = 0
        XCTAssertEqual(scene.layer.opacity, 0, "the model changes at once")

        scene.frame(at: 1)
        XCTAssertEqual(try opacity(scene), 1, accuracy: 1e-6, "the animation starts with the frame that commits it")
        scene.frame(at: 1.1)
        XCTAssertEqual(try opacity(scene), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: 0.4)), accuracy: 1e-6)
        scene.frame(at: 1.25)
        XCTAssertEqual(try opacity(scene), 0, accuracy: 1e-6)
    }

    func test_implicitTransactionUsesQuarterSecondAndDefaultCurve() throws {
        let scene = Scene(CALayer())
        scene.layer.position = CGPoint(x: 40, y: 80)
        scene.frame(at: 0)
        for t in [0.05, 0.1, 0.2] {
            scene.frame(at: t)
            let p = ReferenceCurve.caDefault.progress(atFraction: t / 0.25)
            assertPoint(try scene.presented().position, lerp(0, 40, p), lerp(0, 80, p), "at \(t)")
        }
        scene.frame(at: 0.25)
        assertPoint(try scene.presented().position, 40, 80)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_flushCommitsImplicitTransactionAtCurrentMediaTime() throws {
        let scene = Scene(CALayer())
        scene.layer.opacity = 0
        CATransaction.flush()  // the clock is at 0
        scene.frame(at: 0.125)
        XCTAssertEqual(try opacity(scene), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: 0.5)), accuracy: 1e-6,
                       "started at 0 by the flush, not at 0.125 by the frame")
    }

    func test_explicitCommitStartsAnimationsAtLastFrameTime() throws {
        let scene = Scene(CALayer())
        scene.frame(at: 2)
        XCTAssertEqual(CACurrentMediaTime(), 2)
        inTransaction { scene.layer.opacity = 0 }
        scene.frame(at: 2.125)
        XCTAssertEqual(try opacity(scene), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: 0.5)), accuracy: 1e-6)
    }

    func test_beginFrameSetsMediaTime() {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 3.5)
        XCTAssertEqual(CACurrentMediaTime(), 3.5)
        renderer.beginFrame(atTime: 4.25)
        XCTAssertEqual(CACurrentMediaTime(), 4.25)
        renderer.render()
        renderer.endFrame()
        XCTAssertEqual(CACurrentMediaTime(), 4.25)
    }

    func test_beginFrameRenderEndFrameActLikeRenderFrame() throws {
        let scene = Scene(CALayer())
        scene.layer.opacity = 0.5
        scene.renderer.beginFrame(atTime: 1)  // commits the implicit transaction: starts at 1
        scene.renderer.render()
        scene.renderer.endFrame()
        XCTAssertEqual(try opacity(scene), 1, accuracy: 1e-6)
        scene.renderer.beginFrame(atTime: 1.125)
        scene.renderer.render()
        scene.renderer.endFrame()
        XCTAssertEqual(try opacity(scene), lerp(1, 0.5, ReferenceCurve.caDefault.progress(atFraction: 0.5)), accuracy: 1e-6)
    }

    func test_explicitAnimationWithoutDurationTakesTransactionDuration() throws {
        let scene = Scene(CALayer())
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        inTransaction(duration: 2) { scene.layer.add(fade, forKey: "fade") }
        scene.frame(at: 1)
        XCTAssertEqual(try opacity(scene), 0.5, accuracy: 1e-6, "linear over the transaction's 2 s")
        scene.frame(at: 2)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_explicitAnimationWithoutDurationDefaultsToQuarterSecond() throws {
        let scene = Scene(CALayer())
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        inTransaction { scene.layer.add(fade, forKey: "fade") }
        scene.frame(at: 0.1)
        XCTAssertEqual(try opacity(scene), 0.6, accuracy: 1e-6)
        scene.frame(at: 0.25)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_explicitAnimationKeepsItsOwnDurationInsideTransaction() throws {
        let scene = Scene(CALayer())
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 4
        inTransaction(duration: 2) { scene.layer.add(fade, forKey: "fade") }
        scene.frame(at: 1)
        XCTAssertEqual(try opacity(scene), 0.75, accuracy: 1e-6)
    }

    // MARK: Completion blocks

    func test_completionBlockRunsAfterAllAnimationsIncludingNestedOnes() {
        let scene = Scene(CALayer())
        var runs = 0
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setCompletionBlock { runs += 1 }
        scene.layer.opacity = 0
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        scene.layer.position = CGPoint(x: 50, y: 50)
        CATransaction.commit()
        CATransaction.commit()

        XCTAssertEqual(runs, 0, "not at commit: it added animations")
        scene.frame(at: 1)
        XCTAssertEqual(animationKeys(of: scene.layer), ["position"])
        XCTAssertEqual(runs, 0, "the nested transaction's 2 s animation is still running")
        scene.frame(at: 1.99)
        XCTAssertEqual(runs, 0)
        scene.frame(at: 2)
        XCTAssertEqual(runs, 1)
        scene.frame(at: 3)
        XCTAssertEqual(runs, 1, "runs once")
    }

    func test_completionBlockRunsAtCommitWhenTransactionAddedNoAnimation() {
        let scene = Scene(CALayer())
        var runs = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        CATransaction.setDisableActions(true)
        scene.layer.opacity = 0
        XCTAssertEqual(runs, 0)
        CATransaction.commit()
        XCTAssertEqual(runs, 1, "no animation: the block runs at commit, before any frame")

        var emptyRuns = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { emptyRuns += 1 }
        CATransaction.commit()
        XCTAssertEqual(emptyRuns, 1)
        scene.frame(at: 1)
        XCTAssertEqual(runs, 1)
        XCTAssertEqual(emptyRuns, 1)
    }

    func test_nestedCompletionBlocksEachWaitForTheirOwnAnimations() {
        let scene = Scene(CALayer())
        var order: [String] = []
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setCompletionBlock { order.append("outer") }
        scene.layer.opacity = 0
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        CATransaction.setCompletionBlock { order.append("inner") }
        scene.layer.position = CGPoint(x: 5, y: 5)
        CATransaction.commit()
        CATransaction.commit()

        scene.frame(at: 0.5)
        XCTAssertEqual(order, ["inner"])
        scene.frame(at: 1)
        XCTAssertEqual(order, ["inner", "outer"])
    }

    func test_completionBlockWaitsForExplicitAnimationsAddedInTransaction() {
        let scene = Scene(CALayer())
        var runs = 0
        let move = CABasicAnimation(keyPath: "position")
        move.toValue = CGPoint(x: 30, y: 0)
        move.duration = 3
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        scene.layer.add(move, forKey: "move")
        CATransaction.commit()

        scene.frame(at: 2.5)
        XCTAssertEqual(runs, 0)
        scene.frame(at: 3)
        XCTAssertEqual(runs, 1)
    }

    func test_completionBlockRunsWhenItsAnimationsAreRemoved() {
        let scene = Scene(CALayer())
        var runs = 0
        CATransaction.begin()
        CATransaction.setAnimationDuration(5)
        CATransaction.setCompletionBlock { runs += 1 }
        scene.layer.opacity = 0
        CATransaction.commit()

        scene.frame(at: 1)
        XCTAssertEqual(runs, 0)
        scene.layer.removeAnimation(forKey: "opacity")
        scene.frame(at: 1.1)
        XCTAssertEqual(runs, 1, "removed counts as done")
        scene.frame(at: 6)
        XCTAssertEqual(runs, 1)
    }

    func test_completionBlockRunsInEndFrameAfterAnimationDidStop() {
        let scene = Scene(CALayer())
        var order: [String] = []
        let recorder = AnimationEventRecorder()
        recorder.onStop = { order.append("animationDidStop(\($0))") }
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.toValue = 0.0
        fade.duration = 1
        fade.delegate = recorder
        CATransaction.begin()
        CATransaction.setCompletionBlock { order.append("completion") }
        scene.layer.add(fade, forKey: "fade")
        CATransaction.commit()

        scene.renderer.beginFrame(atTime: 1)
        scene.renderer.render()
        XCTAssertEqual(order, [], "nothing is retired by render()")
        XCTAssertEqual(animationKeys(of: scene.layer), ["fade"])
        scene.renderer.endFrame()
        XCTAssertEqual(order, ["animationDidStop(true)", "completion"])
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_completionBlockMayBeginAndCommitATransaction() throws {
        let scene = Scene(CALayer())
        var innerRuns = 0
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setCompletionBlock {
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.5)
            CATransaction.setCompletionBlock { innerRuns += 1 }
            scene.layer.position = CGPoint(x: 100, y: 0)
            CATransaction.commit()
        }
        scene.layer.opacity = 0
        CATransaction.commit()

        scene.frame(at: 1)  // the block runs in this frame's endFrame; its animation starts at 1
        XCTAssertEqual(scene.layer.position, CGPoint(x: 100, y: 0))
        XCTAssertEqual(animationKeys(of: scene.layer), ["position"])
        scene.frame(at: 1.25)
        assertPoint(try scene.presented().position, lerp(0, 100, ReferenceCurve.caDefault.progress(atFraction: 0.5)), 0)
        XCTAssertEqual(innerRuns, 0)
        scene.frame(at: 1.5)
        assertPoint(try scene.presented().position, 100, 0)
        XCTAssertEqual(innerRuns, 1)

        // The stack is balanced afterwards: a new transaction starts from the defaults.
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        XCTAssertNil(CATransaction.completionBlock())
        CATransaction.commit()
    }

    func test_completionBlockIsReadBack() {
        var runs = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        let block = CATransaction.completionBlock()
        XCTAssertNotNil(block)
        block?()
        XCTAssertEqual(runs, 1, "the block read back is the one set")
        CATransaction.commit()
        XCTAssertEqual(runs, 2, "and the transaction still runs it at commit")
    }
}
