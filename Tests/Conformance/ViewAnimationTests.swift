import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// UIKit's animation API on View (SEMANTICS.md, host view animations): delay, options and
/// curves, nesting, the spring variant, keyframes, transitions, performWithoutAnimation,
/// completion values, `transform`, and the property animator.
final class ViewAnimationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// A root view and a 100 x 100 view at (0, 0) in it, rendered once at time 0.
    private func scene() -> (root: View, view: View, renderer: CARenderer) {
        let root = View(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        let view = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        root.addSubview(view)
        let renderer = CARenderer(layer: root.layer)
        renderer.renderFrame(atTime: 0)
        return (root, view, renderer)
    }

    private func shownAlpha(_ v: View) -> Double { Double(v.layer.presentation()?.opacity ?? .nan) }

    func test_delayAndLinearCurve() {
        let (_, view, r) = scene()
        View.animate(withDuration: 1, delay: 0.5, options: [.curveLinear], animations: { view.alpha = 0 })
        XCTAssertEqual(view.alpha, 0, "the model changes at once")
        r.renderFrame(atTime: 0.25)
        XCTAssertEqual(shownAlpha(view), 1, accuracy: 1e-9, "the old value is shown during the delay")
        r.renderFrame(atTime: 1.0)
        XCTAssertEqual(shownAlpha(view), 0.5, accuracy: 1e-6)
        r.renderFrame(atTime: 1.6)
        XCTAssertEqual(shownAlpha(view), 0, accuracy: 1e-9)
    }

    func test_curveOptions_andRepeatAutoreverse() throws {
        let (_, view, r) = scene()
        View.animate(withDuration: 1, delay: 0, options: [.curveEaseIn, .repeat, .autoreverse],
                     animations: { view.center = CGPoint(x: 150, y: 50) })
        let a = try XCTUnwrap(view.layer.animation(forKey: "position"))
        XCTAssertEqual(a.repeatCount, .infinity)
        XCTAssertTrue(a.autoreverses)
        XCTAssertEqual(controlPoints(of: a.timingFunction), [0, 0, 0.42, 0, 1, 1, 1, 1])
        r.renderFrame(atTime: 0.5)
        let p = ReferenceCurve.easeIn.progress(atFraction: 0.5)
        XCTAssertEqual(Double(view.layer.presentation()!.position.x), 50 + 100 * p, accuracy: 1e-6)
        r.renderFrame(atTime: 1.5)
        XCTAssertEqual(Double(view.layer.presentation()!.position.x), 50 + 100 * p, accuracy: 1e-6, "on the way back")
        r.renderFrame(atTime: 7.5)
        XCTAssertNotNil(view.layer.animation(forKey: "position"), "repeats forever")
    }

    func test_nestedBlocks_inheritDurationAndCurve_unlessOverridden() throws {
        let (_, view, _) = scene()
        let other = View(frame: .zero)
        View.animate(withDuration: 2, delay: 0, options: [.curveLinear], animations: {
            View.animate(withDuration: 0.5, delay: 0, options: [], animations: { view.alpha = 0.5 })
            View.animate(withDuration: 0.5, delay: 0, options: [.overrideInheritedDuration, .overrideInheritedCurve],
                         animations: { other.alpha = 0.5 })
        })
        let inner = try XCTUnwrap(view.layer.animation(forKey: "opacity"))
        XCTAssertEqual(inner.duration, 2)
        XCTAssertEqual(controlPoints(of: inner.timingFunction), [0, 0, 0, 0, 1, 1, 1, 1])
        let overriding = try XCTUnwrap(other.layer.animation(forKey: "opacity"))
        XCTAssertEqual(overriding.duration, 0.5)
        XCTAssertEqual(controlPoints(of: overriding.timingFunction), [0, 0, 0.42, 0, 0.58, 1, 1, 1])
    }

    func test_completion_trueWhenFinished_falseWhenInterruptedOrRemoved() {
        let (_, view, r) = scene()
        var results: [String] = []
        View.animate(withDuration: 1, delay: 0, options: [], animations: { view.alpha = 0 },
                     completion: { results.append("a \($0)") })
        r.renderFrame(atTime: 0.5)
        View.animate(withDuration: 1, delay: 0, options: [], animations: { view.alpha = 1 },
                     completion: { results.append("b \($0)") })
        r.renderFrame(atTime: 0.6)
        XCTAssertEqual(results, ["a false"], "interrupted by a new animation of the same property")
        r.renderFrame(atTime: 1.7)
        XCTAssertEqual(results, ["a false", "b true"])
        View.animate(withDuration: 1, delay: 0, options: [], animations: { view.center = CGPoint(x: 5, y: 5) },
                     completion: { results.append("c \($0)") })
        r.renderFrame(atTime: 1.8)
        view.layer.removeAllAnimations()
        r.renderFrame(atTime: 1.9)
        XCTAssertEqual(results.last, "c false", "removed")
        View.animate(withDuration: 1, delay: 0, options: [], animations: { }, completion: { results.append("d \($0)") })
        r.renderFrame(atTime: 2.0)
        XCTAssertEqual(results.last, "d true", "a block with nothing to animate completes")
    }

    func test_springVariant_isACASpringAnimation() throws {
        let (_, view, r) = scene()
        View.animate(withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.3, initialSpringVelocity: 2, options: [],
                     animations: { view.center = CGPoint(x: 250, y: 50) })
        let s = try XCTUnwrap(view.layer.animation(forKey: "position") as? CASpringAnimation)
        let w0 = 2 * Double.pi / 0.5
        XCTAssertEqual(Double(s.stiffness), w0 * w0, accuracy: 1e-9)
        XCTAssertEqual(Double(s.damping), 2 * 0.3 * w0, accuracy: 1e-9)
        XCTAssertEqual(s.initialVelocity, 2)
        XCTAssertEqual(s.duration, 0.5)
        r.renderFrame(atTime: 0.2)
        let zeta = 0.3, wd = w0 * (1 - zeta * zeta).squareRoot(), b = (zeta * w0 - 2) / wd
        let p = 1 - exp(-zeta * w0 * 0.2) * (cos(wd * 0.2) + b * sin(wd * 0.2))
        XCTAssertEqual(Double(view.layer.presentation()!.position.x), 50 + 200 * p, accuracy: 1e-6)
    }

    func test_performWithoutAnimation_insideABlock() {
        let (_, view, _) = scene()
        View.animate(withDuration: 1, delay: 0, options: [], animations: {
            View.performWithoutAnimation { view.alpha = 0.2 }
            view.center = CGPoint(x: 10, y: 10)
        })
        XCTAssertNil(view.layer.animation(forKey: "opacity"))
        XCTAssertNotNil(view.layer.animation(forKey: "position"))
    }

    func test_keyframes() throws {
        let (_, view, r) = scene()
        View.animateKeyframes(withDuration: 2, delay: 0, options: [], animations: {
            View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) { view.alpha = 0.5 }
            View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.25) { view.alpha = 0 }
        })
        let k = try XCTUnwrap(view.layer.animation(forKey: "opacity") as? CAKeyframeAnimation)
        XCTAssertEqual(k.keyTimes?.map(\.doubleValue), [0, 0.5, 0.75, 1])
        XCTAssertEqual(view.alpha, 0)
        r.renderFrame(atTime: 0.5)
        XCTAssertEqual(shownAlpha(view), 0.75, accuracy: 1e-6)
        r.renderFrame(atTime: 1.25)
        XCTAssertEqual(shownAlpha(view), 0.25, accuracy: 1e-6)
        r.renderFrame(atTime: 1.75)
        XCTAssertEqual(shownAlpha(view), 0, accuracy: 1e-9)
    }

    func test_transitionWithView() throws {
        let (_, view, r) = scene()
        var done: Bool?
        View.transition(with: view, duration: 0.4, options: [.transitionCrossDissolve],
                        animations: { view.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) },
                        completion: { done = $0 })
        let t = try XCTUnwrap(view.layer.animation(forKey: kCATransition) as? CATransition)
        XCTAssertEqual(t.type, .fade)
        XCTAssertNil(view.layer.animation(forKey: "backgroundColor"), "the change itself is not animated")
        r.renderFrame(atTime: 0.5)
        XCTAssertEqual(done, true)
    }

    func test_transform_isTheLayersAffineTransform_andAnimates() {
        let (_, view, r) = scene()
        View.animate(withDuration: 1, delay: 0, options: [.curveLinear], animations: {
            view.transform = CGAffineTransform(scaleX: 3, y: 3)
        })
        XCTAssertEqual(view.layer.transform.m11, 3)
        r.renderFrame(atTime: 0.5)
        XCTAssertEqual(Double(view.layer.presentation()!.transform.m11), 2, accuracy: 1e-9)
    }

    func test_badDuration_appliesWithoutAnimation_andCompletesFalse() {
        let (_, view, _) = scene()
        var done: Bool?
        let diagnostics = StrataDiagnostics.capture {
            View.animate(withDuration: .nan, delay: 0, options: [], animations: { view.alpha = 0.3 }, completion: { done = $0 })
        }
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual(done, false)
        XCTAssertEqual(view.alpha, 0.3, accuracy: 1e-6)
        XCTAssertNil(view.layer.animation(forKey: "opacity"))
    }

    func test_propertyAnimator_pauseScrubReverseFinish() {
        let (_, view, r) = scene()
        var ended: [ViewAnimatingPosition] = []
        let animator = ViewPropertyAnimator(duration: 1, curve: .linear) { view.alpha = 0 }
        animator.addCompletion { ended.append($0) }
        XCTAssertEqual(animator.state, .inactive)
        animator.pauseAnimation()
        XCTAssertEqual(animator.state, .active)
        XCTAssertFalse(animator.isRunning)
        animator.fractionComplete = 0.3
        r.renderFrame(atTime: 0.1)
        XCTAssertEqual(shownAlpha(view), 0.7, accuracy: 1e-6, "scrubbed")
        r.renderFrame(atTime: 2)
        XCTAssertEqual(shownAlpha(view), 0.7, accuracy: 1e-6, "stays paused")
        animator.isReversed = true
        animator.startAnimation()
        r.renderFrame(atTime: 2.15)
        XCTAssertEqual(shownAlpha(view), 0.85, accuracy: 1e-6, "running back toward the start")
        r.renderFrame(atTime: 2.4)
        XCTAssertEqual(ended, [.start])
        XCTAssertEqual(view.alpha, 1, accuracy: 1e-9, "the model back at the start value")
        XCTAssertEqual(animator.state, .inactive)

        let second = ViewPropertyAnimator(duration: 1, curve: .linear) { view.center = CGPoint(x: 150, y: 50) }
        second.addCompletion { ended.append($0) }
        second.startAnimation()
        r.renderFrame(atTime: 2.9)
        XCTAssertEqual(Double(second.fractionComplete), 0.5, accuracy: 1e-9)
        second.stopAnimation(false)
        XCTAssertEqual(second.state, .stopped)
        second.finishAnimation(at: .current)
        XCTAssertEqual(ended, [.start, .current])
        XCTAssertEqual(Double(view.center.x), 100, accuracy: 1e-9, "left where it was shown")
    }

    func test_completion_isFalse_whenTheBlocksAnimationIsRemovedInsideIt() {
        let (_, view, r) = scene()
        var done: Bool?
        View.animate(withDuration: 1, delay: 0, options: [], animations: {
            view.alpha = 0.5
            view.layer.removeAnimation(forKey: "opacity")
        }, completion: { done = $0 })
        r.renderFrame(atTime: 0.1)
        XCTAssertEqual(done, false)
    }
}

