import Foundation
import StrataReference
import XCTest

/// Keyframe and path animations, groups and transitions.
final class KeyframeGroupTransitionTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataDiagnostics.handler = { _ in }
    }

    private func keyframes(_ keyPath: String, _ values: [Any], duration: Double = 1,
                           mode: CAAnimationCalculationMode = .linear) -> CAKeyframeAnimation {
        let a = CAKeyframeAnimation(keyPath: keyPath)
        a.values = values
        a.duration = duration
        a.calculationMode = mode
        return a
    }

    private func add(_ a: CAAnimation, to layer: CALayer, key: String? = "k") {
        refTransaction { layer.add(a, forKey: key) }
    }

    private func cornerRadius(_ scene: RefScene<CALayer>, at t: Double) -> Double {
        scene.frame(t)
        return Double(scene.shown.cornerRadius)
    }

    // MARK: values

    func test_linearKeyframesWithEvenlySpacedDefaultKeyTimes() {
        let scene = RefScene(CALayer())
        add(keyframes("cornerRadius", [0.0, 10.0, 40.0], duration: 2), to: scene.layer)
        XCTAssertEqual(cornerRadius(scene, at: 0.5), 5, accuracy: 1e-12)
        XCTAssertEqual(cornerRadius(scene, at: 1.5), 25, accuracy: 1e-12)
    }

    func test_keyTimesAndOneTimingFunctionPerSegment() {
        let scene = RefScene(CALayer())
        let a = keyframes("cornerRadius", [0.0, 10.0, 20.0])
        a.keyTimes = [0, 0.2, 1]
        a.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut)]
        add(a, to: scene.layer)
        XCTAssertEqual(cornerRadius(scene, at: 0.1), 10 * ReferenceCurve.easeIn.progress(atFraction: 0.5), accuracy: 1e-9)
        XCTAssertEqual(cornerRadius(scene, at: 0.6), 10 + 10 * ReferenceCurve.easeOut.progress(atFraction: 0.5), accuracy: 1e-9)
    }

    func test_discreteKeyframesJumpAndTakeOneMoreKeyTime() {
        let scene = RefScene(CALayer())
        add(keyframes("cornerRadius", [1.0, 2.0, 3.0], mode: .discrete), to: scene.layer)
        XCTAssertEqual(cornerRadius(scene, at: 0.3), 1)
        XCTAssertEqual(cornerRadius(scene, at: 0.34), 2)
        XCTAssertEqual(cornerRadius(scene, at: 0.7), 3)

        let explicit = keyframes("cornerRadius", [1.0, 2.0, 3.0], mode: .discrete)
        explicit.keyTimes = [0, 0.5, 0.9, 1]
        let scene2 = RefScene(CALayer())
        add(explicit, to: scene2.layer)
        XCTAssertEqual(cornerRadius(scene2, at: 0.6), 2)
        XCTAssertEqual(cornerRadius(scene2, at: 0.95), 3)
    }

    func test_pacedKeyframesSpaceTheKeysByDistanceAndIgnoreKeyTimes() {
        let scene = RefScene(CALayer())
        let a = keyframes("position", [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 40), CGPoint(x: 30, y: 190)], mode: .paced)
        a.keyTimes = [0, 0.9, 1]
        add(a, to: scene.layer)
        scene.frame(0.125)   // 50 of 200 points are a quarter of the time
        refAssertPoint(scene.shown.position, 15, 20)
        scene.frame(0.625)
        refAssertPoint(scene.shown.position, 30, 115)
    }

    func test_cubicKeyframesFollowTheCatmullRomSpline() {
        // Tangents 10, 20, 30; Hermite basis at s = 0.5 is (1/2, 1/8, 1/2, -1/8).
        let scene = RefScene(CALayer())
        add(keyframes("cornerRadius", [0.0, 10.0, 40.0], mode: .cubic), to: scene.layer)
        XCTAssertEqual(cornerRadius(scene, at: 0.25), 0.5 * 0 + 0.125 * 10 + 0.5 * 10 - 0.125 * 20, accuracy: 1e-12)
        XCTAssertEqual(cornerRadius(scene, at: 0.75), 0.5 * 10 + 0.125 * 20 + 0.5 * 40 - 0.125 * 30, accuracy: 1e-12)
    }

    func test_cubicPacedMovesAtConstantSpeedAlongTheSpline() {
        // The spline through 0, 10, 40 is monotone: constant speed means value = 40 * progress.
        let scene = RefScene(CALayer())
        add(keyframes("cornerRadius", [0.0, 10.0, 40.0], mode: .cubicPaced), to: scene.layer)
        XCTAssertEqual(cornerRadius(scene, at: 0.3), 12, accuracy: 1e-9)
        XCTAssertEqual(cornerRadius(scene, at: 0.75), 30, accuracy: 1e-9)
    }

    func test_badKeyframesAreRefusedWithADiagnostic() {
        let scene = RefScene(CALayer())
        let wrongCount = keyframes("cornerRadius", [0.0, 1.0])
        wrongCount.keyTimes = [0, 0.5, 1]
        let wrongType = keyframes("cornerRadius", [0.0, CGPoint(x: 1, y: 1)])
        let diagnostics = StrataDiagnostics.capture {
            scene.layer.add(wrongCount, forKey: "a")
            scene.layer.add(wrongType, forKey: "b")
        }
        XCTAssertEqual(diagnostics.map(\.code), [.invalidArgument, .wrongValueType])
        XCTAssertNil(scene.layer.animationKeys())
    }

    // MARK: paths

    func test_pathSegmentsShareTimeEquallyAndRotateAlongTheTangent() {
        let scene = RefScene(CALayer())
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 300))
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = path
        a.duration = 1
        a.rotationMode = .rotateAuto
        add(a, to: scene.layer)
        scene.frame(0.25)
        refAssertPoint(scene.shown.position, 50, 0)
        XCTAssertEqual(scene.shown.transform, CATransform3DIdentity)
        scene.frame(0.75)
        refAssertPoint(scene.shown.position, 100, 150)
        let t = scene.shown.transform
        XCTAssertEqual(Double(t.m11), 0, accuracy: 1e-12)
        XCTAssertEqual(Double(t.m12), 1, accuracy: 1e-12, "a quarter turn: heading down the y axis")
        XCTAssertEqual(scene.layer.transform, CATransform3DIdentity, "the model transform is untouched")
        scene.frame(1)
        XCTAssertEqual(scene.shown.transform, CATransform3DIdentity, "finished: the model transform shows")
    }

    func test_pacedPathRunsAtConstantSpeedAcrossSegmentsAndAlongCurves() {
        let scene = RefScene(CALayer())
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        // A quadratic curve along the x axis whose parameter runs fast then slow (x = 180 t - 80 t²).
        path.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 90, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 300))
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = path
        a.duration = 1
        a.calculationMode = .paced
        add(a, to: scene.layer)
        scene.frame(0.125)       // 50 of 400 points
        refAssertPoint(scene.shown.position, 50, 0, accuracy: 1e-7)
        scene.frame(0.5)         // 200 of 400 points
        refAssertPoint(scene.shown.position, 100, 100, accuracy: 1e-7)
    }

    func test_closeSubpathDrawsBackAndAutoReverseTurnsHalfAround() {
        let scene = RefScene(CALayer())
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 0, y: 100))
        path.closeSubpath()
        let a = CAKeyframeAnimation(keyPath: "position")
        a.path = path
        a.duration = 1
        a.rotationMode = .rotateAutoReverse
        add(a, to: scene.layer)
        scene.frame(0.25)
        refAssertPoint(scene.shown.position, 0, 50)
        // Heading +y (pi/2) plus pi.
        XCTAssertEqual(Double(scene.shown.transform.m12), sin(Double.pi / 2 + .pi), accuracy: 1e-12)
        scene.frame(0.75)
        refAssertPoint(scene.shown.position, 0, 50)
        XCTAssertEqual(Double(scene.shown.transform.m12), sin(-Double.pi / 2 + .pi), accuracy: 1e-12)
    }

    // MARK: groups

    func test_groupChildrenTakeTheGroupsDurationAndAreClippedToIt() {
        let scene = RefScene(CALayer()) { $0.cornerRadius = 3 }
        let group = CAAnimationGroup()
        group.animations = [refBasic("cornerRadius", from: 0.0, to: 10.0, duration: 0),
                            refBasic("zPosition", from: 0.0, to: 40.0, duration: 4)]
        group.duration = 2
        add(group, to: scene.layer, key: "g")
        XCTAssertEqual(StrataEngine.activeAnimationCount, 3, "the group and its two children")
        scene.frame(1)
        XCTAssertEqual(scene.shown.cornerRadius, 5)
        XCTAssertEqual(scene.shown.zPosition, 10)
        scene.frame(2)
        XCTAssertEqual(scene.shown.cornerRadius, 3, "the group is over: the model")
        XCTAssertEqual(scene.shown.zPosition, 0)
        XCTAssertNil(scene.layer.animationKeys())
    }

    func test_groupTimingFunctionWarpsItsChildrensTime() {
        let scene = RefScene(CALayer())
        let group = CAAnimationGroup()
        let child = refBasic("cornerRadius", from: 0.0, to: 10.0, duration: 0)
        child.timingFunction = CAMediaTimingFunction(name: .easeOut)
        group.animations = [child, refBasic("zPosition", from: 0.0, to: 10.0, duration: 0)]
        group.duration = 2
        group.timingFunction = CAMediaTimingFunction(name: .easeIn)
        add(group, to: scene.layer)
        scene.frame(0.5)
        let childTime = ReferenceCurve.easeIn.progress(atFraction: 0.25) * 2
        XCTAssertEqual(Double(scene.shown.zPosition), 10 * childTime / 2, accuracy: 1e-9)
        XCTAssertEqual(Double(scene.shown.cornerRadius), 10 * ReferenceCurve.easeOut.progress(atFraction: childTime / 2), accuracy: 1e-9)
    }

    // MARK: transitions

    func test_seed004_actionsTransitionReplacesTheColourFade() {
        let scene = RefScene(CALayer()) { $0.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }
        let push = CATransition()
        push.type = .push
        push.subtype = .fromLeft
        scene.layer.actions = ["backgroundColor": push]
        scene.layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        XCTAssertEqual(scene.layer.animationKeys(), [kCATransition])
        scene.frame(0.1)      // commits: begins now, linear (no timing function), 0.25 s
        scene.frame(0.2)
        refAssertColor(scene.shown.backgroundColor, [0, 0, 1, 1])
        let state = scene.shown.runningTransition
        XCTAssertEqual(state?.type, .push)
        XCTAssertEqual(state?.subtype, .fromLeft)
        XCTAssertEqual(state?.progress ?? -1, 0.4, accuracy: 1e-6)
        scene.frame(0.4)
        XCTAssertNil(scene.layer.runningTransition)
        XCTAssertNil(scene.layer.animationKeys())
    }

    func test_contentsFadeAndTransitionProgressRange() {
        let scene = RefScene(CALayer())
        scene.layer.contents = "image"
        XCTAssertTrue(scene.layer.animation(forKey: kCATransition) is CATransition)
        scene.frame(0.1)
        scene.frame(0.225)
        XCTAssertEqual(scene.layer.runningTransition?.type, .fade)
        XCTAssertEqual(Double(scene.layer.runningTransition?.progress ?? -1), ReferenceCurve.caDefault.progress(atFraction: 0.5), accuracy: 1e-6)
        XCTAssertEqual(scene.shown.contents as? String, "image")

        let partial = CATransition()
        partial.startProgress = 0.2
        partial.endProgress = 0.6
        partial.duration = 1
        add(partial, to: scene.layer, key: "ignored")
        XCTAssertEqual(scene.layer.animationKeys(), [kCATransition], "a transition always runs under kCATransition")
        scene.frame(0.725)
        XCTAssertEqual(scene.layer.runningTransition?.progress ?? -1, 0.4, accuracy: 1e-6)
        XCTAssertEqual(scene.layer.runningTransition?.subtype, .fromLeft, "nil subtype reads as fromLeft")
    }
}
