import Foundation
import StrataReference
import XCTest

/// Explicit animations: the from/to/by table, timing, fill, composition, key paths, value kinds,
/// replacement and removal, delegates, layer time.
final class AnimationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataDiagnostics.handler = { _ in }
    }

    private func add(_ a: CAAnimation, to layer: CALayer, key: String? = "a") {
        refTransaction { layer.add(a, forKey: key) }
    }

    func test_fromToByTable() throws {
        // current presentation value 10, model value 10; each row read at half time.
        let rows: [(Any?, Any?, Any?, Double)] = [
            (2.0, 6.0, nil, 4),       // from + to
            (2.0, nil, 6.0, 5),       // from + by: 2 -> 8
            (nil, 6.0, 2.0, 5),       // to + by: 4 -> 6
            (2.0, nil, nil, 6),       // from only: 2 -> current 10
            (nil, 6.0, nil, 8),       // to only: current 10 -> 6
            (nil, nil, 4.0, 12),      // by only: 10 -> 14
        ]
        for (i, (from, to, by, expected)) in rows.enumerated() {
            let scene = RefScene(CALayer()) { $0.cornerRadius = 10 }
            add(refBasic("cornerRadius", from: from, to: to, by: by, duration: 2), to: scene.layer)
            scene.frame(1)
            XCTAssertEqual(Double(scene.shown.cornerRadius), expected, accuracy: 1e-12, "row \(i)")
        }
    }

    func test_explicitAnimationChangesNoModelValueAndSnapsBack() {
        let scene = RefScene(CALayer()) { $0.opacity = 1 }
        add(refBasic("opacity", from: 1.0, to: 0.0, duration: 1), to: scene.layer)
        scene.frame(0.5)
        XCTAssertEqual(scene.shown.opacity, 0.5)
        XCTAssertEqual(scene.layer.opacity, 1, "the model is untouched")
        scene.frame(1)
        XCTAssertEqual(scene.shown.opacity, 1, "removed at its end: the model shows")
    }

    func test_seed003_forwardsFillWithoutRemovalHoldsTheEndValue() {
        let scene = RefScene(CALayer()) { $0.position = CGPoint(x: 0, y: 0) }
        let move = refBasic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 40), duration: 1)
        move.fillMode = .forwards
        move.isRemovedOnCompletion = false
        let recorder = RefRecorder()
        move.delegate = recorder
        add(move, to: scene.layer, key: "move")
        scene.frame(3)
        refAssertPoint(scene.shown.position, 100, 40)
        XCTAssertEqual(scene.layer.animationKeys(), ["move"])
        XCTAssertEqual(recorder.events, ["start", "stop(true)"])
    }

    func test_beginTimeRepeatAutoreverseSpeedAndTimeOffset() {
        let scene = RefScene(CALayer())
        let a = refBasic("zPosition", from: 0.0, to: 10.0, duration: 1)
        a.beginTime = 2          // absolute media time
        a.repeatCount = 2
        a.autoreverses = true
        a.speed = 2
        a.timeOffset = 0.25
        add(a, to: scene.layer)
        scene.frame(1.5)
        XCTAssertEqual(scene.shown.zPosition, 0, "not begun, no fill")
        // local time = (t - 2) * 2 + 0.25; cycle 2 s (forwards then back), two cycles.
        let expectations: [(Double, Double)] = [(2, 2.5), (2.25, 7.5), (2.5, 7.5), (2.75, 2.5), (3.25, 7.5), (3.75, 2.5)]
        for (t, value) in expectations {
            scene.frame(t)
            XCTAssertEqual(Double(scene.shown.zPosition), value, accuracy: 1e-12, "at \(t)")
        }
        scene.frame(4)
        XCTAssertEqual(scene.shown.zPosition, 0, "active 4 s of local time = 2 s of media time")
    }

    func test_backwardsFillShowsTheStartBeforeTheBegin() {
        let scene = RefScene(CALayer()) { $0.borderWidth = 1 }
        let a = refBasic("borderWidth", from: 5.0, to: 9.0, duration: 1)
        a.beginTime = 1
        a.fillMode = .backwards
        add(a, to: scene.layer)
        scene.frame(0.5)
        XCTAssertEqual(scene.shown.borderWidth, 5)
        scene.frame(1.5)
        XCTAssertEqual(scene.shown.borderWidth, 7)
    }

    func test_keyOrderCompositionAndCumulativeRepeats() {
        let scene = RefScene(CALayer()) { $0.position = CGPoint(x: 100, y: 100) }
        let shake = refBasic("position.x", from: 0.0, to: 10.0, duration: 1)
        shake.isAdditive = true
        let move = refBasic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 40, y: 80), duration: 1)
        refTransaction {
            scene.layer.add(shake, forKey: "shake")   // added first: the replacing one hides it
            scene.layer.add(move, forKey: "move")
        }
        scene.frame(0.5)
        refAssertPoint(scene.shown.position, 20, 40)

        let scene2 = RefScene(CALayer())
        let step = refBasic("cornerRadius", from: 0.0, to: 4.0, duration: 1)
        step.isCumulative = true
        step.repeatCount = 3
        add(step, to: scene2.layer)
        scene2.frame(2.5)
        XCTAssertEqual(Double(scene2.shown.cornerRadius), 2 * 4 + 2, accuracy: 1e-12, "iteration 2 starts at 8")
    }

    func test_subrangeKeyPathsAnimateTheirComponentsWhileTheRestFollowsTheModel() {
        let scene = RefScene(CALayer()) { $0.bounds = CGRect(x: 1, y: 2, width: 100, height: 50) }
        add(refBasic("bounds.size.width", from: 100.0, to: 300.0, duration: 1), to: scene.layer)
        scene.frame(0.5)
        XCTAssertEqual(scene.shown.bounds, CGRect(x: 1, y: 2, width: 200, height: 50))
        refWithoutActions { scene.layer.bounds = CGRect(x: 7, y: 8, width: 0, height: 60) }
        scene.frame(0.75)
        XCTAssertEqual(scene.shown.bounds, CGRect(x: 7, y: 8, width: 250, height: 60))
    }

    func test_transformRotationZAnimatesByRecomposingTheTransform() {
        let scale = CATransform3DMakeScale(2, 2, 1)
        let scene = RefScene(CALayer()) { $0.transform = scale }
        add(refBasic("transform.rotation.z", from: 0.0, to: Double.pi / 2, duration: 1), to: scene.layer)
        scene.frame(0.5)
        let angle = Double.pi / 4
        let t = scene.shown.transform
        XCTAssertEqual(Double(t.m11), 2 * cos(angle), accuracy: 1e-12)
        XCTAssertEqual(Double(t.m12), 2 * sin(angle), accuracy: 1e-12)
        XCTAssertEqual(Double(t.m21), -2 * sin(angle), accuracy: 1e-12)
        XCTAssertEqual((scene.shown.value(forKeyPath: "transform.rotation.z") as? CGFloat).map(Double.init) ?? -1, angle, accuracy: 1e-12)
        XCTAssertEqual((scene.shown.value(forKeyPath: "transform.scale.x") as? CGFloat).map(Double.init) ?? -1, 2, accuracy: 1e-12)
    }

    func test_nilColourInterpolatesAsTransparentBlackAndBooleansSwitchAtHalf() {
        let scene = RefScene(CALayer())
        XCTAssertNil(scene.layer.backgroundColor)
        refTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            scene.layer.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
            scene.layer.isHidden = true
        }
        scene.frame(0.25)
        refAssertColor(scene.shown.backgroundColor, [0.25, 0.125, 0, 0.25])
        XCTAssertFalse(scene.shown.isHidden)
        scene.frame(0.5)
        XCTAssertTrue(scene.shown.isHidden)
    }

    func test_objectValuesSwitchAtHalfProgress() {
        let first = CGMutablePath(), second = CGMutablePath()
        first.addRect(CGRect(x: 0, y: 0, width: 1, height: 1))
        second.addEllipse(in: CGRect(x: 0, y: 0, width: 2, height: 2))
        let scene = RefScene(CAShapeLayer()) { $0.path = first }
        refTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            scene.layer.path = second
        }
        scene.frame(0.49)
        XCTAssertTrue(scene.shown.path === first)
        scene.frame(0.5)
        XCTAssertTrue(scene.shown.path === second)
        XCTAssertTrue(scene.layer.path === second, "the model changed at once")
    }

    func test_replacingUnderAKeyTellsTheOldDelegateAndAppendsTheKey() {
        let scene = RefScene(CALayer())
        let old = RefRecorder("old")
        let first = refBasic("zPosition", from: 0.0, to: 1.0)
        first.delegate = old
        refTransaction {
            scene.layer.add(first, forKey: "a")
            scene.layer.add(refBasic("opacity", from: 0.0, to: 1.0), forKey: "b")
        }
        scene.frame(0.5)
        XCTAssertEqual(old.events, ["startold"])
        scene.layer.add(refBasic("zPosition", from: 5.0, to: 6.0), forKey: "a")
        XCTAssertEqual(old.events, ["startold", "stopold(false)"], "told at once")
        XCTAssertEqual(scene.layer.animationKeys(), ["b", "a"])
        XCTAssertEqual(scene.shown.zPosition, 0.5, "a replacement keeps what is shown until the next frame")
        XCTAssertEqual((scene.layer.animation(forKey: "a") as? CABasicAnimation)?.fromValue as? Double, 5)
    }

    func test_removeAnimationSnapsToTheModelAtOnce() {
        let scene = RefScene(CALayer()) { $0.cornerRadius = 3 }
        let recorder = RefRecorder()
        let a = refBasic("cornerRadius", from: 10.0, to: 20.0)
        a.delegate = recorder
        add(a, to: scene.layer)
        scene.frame(0.5)
        XCTAssertEqual(scene.shown.cornerRadius, 15)
        scene.layer.removeAnimation(forKey: "a")
        XCTAssertEqual(scene.shown.cornerRadius, 3)
        XCTAssertEqual(recorder.events, ["start", "stop(false)"])
        XCTAssertEqual(StrataEngine.activeAnimationCount, 0)
    }

    func test_addCopiesTheAnimation() {
        let scene = RefScene(CALayer())
        let a = refBasic("cornerRadius", from: 0.0, to: 10.0)
        add(a, to: scene.layer)
        a.toValue = 1000.0
        scene.frame(0.5)
        XCTAssertEqual(scene.shown.cornerRadius, 5)
        XCTAssertFalse(scene.layer.animation(forKey: "a") === a)
    }

    func test_layerSpeedAndTimeOffsetGovernTheSubtree() {
        let scene = RefScene(CALayer())
        let child = CALayer()
        refWithoutActions { scene.layer.addSublayer(child) }
        scene.frame(0)
        add(refBasic("cornerRadius", from: 0.0, to: 10.0, duration: 1), to: child)
        scene.frame(0.2)
        XCTAssertEqual(Double(child.presentation()!.cornerRadius), 2, accuracy: 1e-12)
        // Pause the parent at its current local time (Apple's recipe).
        let paused = scene.layer.convertTime(CACurrentMediaTime(), from: nil)
        scene.layer.speed = 0
        scene.layer.timeOffset = paused
        scene.frame(5)
        XCTAssertEqual(Double(child.presentation()!.cornerRadius), 2, accuracy: 1e-12, "paused")
        XCTAssertEqual(child.convertTime(5, from: nil), 0.2, accuracy: 1e-12)
        XCTAssertEqual(scene.layer.convertTime(0.2, to: nil), 0, accuracy: 1e-12, "a zero speed maps to beginTime")
        // Resume at half speed from t = 5.
        scene.layer.beginTime = 5
        scene.layer.speed = 0.5
        scene.frame(6)
        XCTAssertEqual(Double(child.presentation()!.cornerRadius), 7, accuracy: 1e-12, "local 0.2 + 0.5")
    }

    func test_keyValueCodingAndCustomKeys() {
        let scene = RefScene(CALayer())
        refWithoutActions {
            scene.layer.setValue(CGFloat(30), forKeyPath: "position.y")
            scene.layer.setValue(2.0, forKey: "progress")
            scene.layer.setValue(CGSize(width: 4, height: 5), forKeyPath: "bounds.size")
        }
        refAssertPoint(scene.layer.position, 0, 30)
        XCTAssertEqual(scene.layer.bounds.size, CGSize(width: 4, height: 5))
        XCTAssertEqual(scene.layer.value(forKeyPath: "bounds.size.height") as? CGFloat, 5)
        XCTAssertEqual(scene.layer.value(forKey: "progress") as? Double, 2)
        add(refBasic("progress", from: 0.0, to: 8.0), to: scene.layer)
        scene.frame(0.25)
        let shown = scene.shown.value(forKey: "progress")
        XCTAssertTrue(shown is Double, "a Double model is handed back as a Double")
        XCTAssertEqual(shown as? Double ?? -1, 2, accuracy: 1e-12)
        refWithoutActions { scene.layer.frame = CGRect(x: 10, y: 20, width: 40, height: 60) }
        refAssertPoint(scene.layer.position, 30, 50)
        XCTAssertEqual(scene.layer.frame, CGRect(x: 10, y: 20, width: 40, height: 60))
    }
}
