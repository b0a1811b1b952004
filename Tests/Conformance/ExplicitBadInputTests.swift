import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// Bad input to keyframe, path, group and transition animations and to the timing model: a clear
/// diagnostic and nothing added (the animation under the same key keeps running), or, where Apple
/// documents a behaviour instead (negative speed with fill modes, repeating forever with
/// autoreverses), that behaviour — never a crash, never a non-finite presentation value.
final class ExplicitBadInputTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private func codes(_ diagnostics: [StrataDiagnostic]) -> [StrataDiagnosticCode] { diagnostics.map(\.code) }

    private func assertOneDiagnostic(_ diagnostics: [StrataDiagnostic], _ code: StrataDiagnosticCode, _ what: String,
                                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(codes(diagnostics), [code], what, file: file, line: line)
        XCTAssertFalse(diagnostics.first?.message.isEmpty ?? true, "the diagnostic says something: \(what)", file: file, line: line)
    }

    private func keyframe(_ values: [Any]?, keyPath: String = "cornerRadius", keyTimes: [Double]? = nil,
                          mode: CAAnimationCalculationMode = .linear) -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        animation.values = values
        animation.keyTimes = keyTimes?.map { NSNumber(value: $0) }
        animation.calculationMode = mode
        animation.duration = 1
        return animation
    }

    /// A scene with a good 0 -> 10 cornerRadius animation running under "radius" (model value 3),
    /// to show that refused input leaves it alone.
    private func sceneWithRunningAnimation(recorder: AnimationEventRecorder? = nil) -> Scene<CALayer> {
        let scene = Scene(CALayer()) { $0.cornerRadius = 3 }
        let good = CABasicAnimation(keyPath: "cornerRadius")
        good.fromValue = 0.0
        good.toValue = 10.0
        good.duration = 1
        good.delegate = recorder
        inTransaction { scene.layer.add(good, forKey: "radius") }
        return scene
    }

    /// Adds `animation` under "radius" and expects exactly one diagnostic `code`, the running
    /// animation untouched, and nothing else listed.
    private func assertRefused(_ animation: CAAnimation, _ code: StrataDiagnosticCode, _ what: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let recorder = AnimationEventRecorder()
        let scene = sceneWithRunningAnimation(recorder: recorder)
        let diagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(animation, forKey: "radius") } }
        assertOneDiagnostic(diagnostics, code, what, file: file, line: line)
        XCTAssertEqual(animationKeys(of: scene.layer), ["radius"], what, file: file, line: line)
        XCTAssertTrue(scene.layer.animation(forKey: "radius") is CABasicAnimation, "not replaced: \(what)", file: file, line: line)
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented(file: file, line: line).cornerRadius), 5, accuracy: 1e-6,
                       "the running animation runs on: \(what)", file: file, line: line)
        XCTAssertEqual(recorder.stops, [], "the running animation was not stopped: \(what)", file: file, line: line)
    }

    // MARK: keyTimes, values, timingFunctions

    func test_keyTimesOfTheWrongCountAreRefused() throws {
        try assertRefused(keyframe([0.0, 10.0, 20.0], keyTimes: [0, 1]), .invalidArgument, "2 keyTimes for 3 values")
        try assertRefused(keyframe([0.0, 10.0, 20.0], keyTimes: [0, 0.2, 0.5, 1]), .invalidArgument, "4 keyTimes for 3 values")
    }

    func test_discreteKeyTimesNeedOneMoreEntryThanValues() throws {
        try assertRefused(keyframe([0.0, 10.0, 20.0], keyTimes: [0, 0.5, 1], mode: .discrete), .invalidArgument,
                          "3 keyTimes for 3 discrete values")
        let scene = Scene(CALayer())
        let good = keyframe([0.0, 10.0, 20.0], keyTimes: [0, 0.2, 0.6, 1], mode: .discrete)
        XCTAssertEqual(codes(StrataDiagnostics.capture { inTransaction { scene.layer.add(good, forKey: "steps") } }), [])
        XCTAssertEqual(animationKeys(of: scene.layer), ["steps"])
    }

    func test_keyTimesOutOfOrderAreRefused() throws {
        try assertRefused(keyframe([0.0, 10.0, 20.0], keyTimes: [0, 0.7, 0.3]), .invalidArgument, "decreasing keyTimes")
    }

    func test_keyTimesOutsideZeroToOneAreRefused() throws {
        try assertRefused(keyframe([0.0, 10.0, 20.0], keyTimes: [0, 0.5, 1.5]), .invalidArgument, "a keyTime above 1")
        try assertRefused(keyframe([0.0, 10.0, 20.0], keyTimes: [-0.5, 0.5, 1]), .invalidArgument, "a keyTime below 0")
    }

    func test_emptyValuesWithoutAPathAreRefused() throws {
        try assertRefused(keyframe([]), .invalidArgument, "values = []")
    }

    func test_missingValuesWithoutAPathAreRefused() throws {
        try assertRefused(keyframe(nil), .invalidArgument, "values = nil, path = nil")
    }

    func test_timingFunctionsOfTheWrongCountAreRefused() throws {
        let tooMany = keyframe([0.0, 10.0, 20.0])
        tooMany.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeIn),
                                   CAMediaTimingFunction(name: .easeIn)]
        try assertRefused(tooMany, .invalidArgument, "3 timing functions for 2 segments")
        let tooFew = keyframe([0.0, 10.0, 20.0, 30.0])
        tooFew.timingFunctions = [CAMediaTimingFunction(name: .easeOut)]
        try assertRefused(tooFew, .invalidArgument, "1 timing function for 3 segments")
    }

    func test_valuesOfTheWrongTypeAreRefused() throws {
        try assertRefused(keyframe([0.0, CGPoint(x: 1, y: 1), 20.0]), .wrongValueType, "a CGPoint among cornerRadius values")
        try assertRefused(keyframe([CGPoint(x: 0, y: 0), CGColor(red: 1, green: 0, blue: 0, alpha: 1)], keyPath: "position"),
                          .wrongValueType, "a CGColor among position values")
    }

    func test_nonFiniteKeyframesAndKeyTimesAreRefused() throws {
        let cases: [(CAKeyframeAnimation, String)] = [
            (keyframe([0.0, Double.nan, 20.0]), "a NaN value"),
            (keyframe([0.0, 10.0, Double.infinity]), "an infinite value"),
            (keyframe([CGPoint(x: 0, y: 0), CGPoint(x: CGFloat.nan, y: 1)], keyPath: "position"), "a NaN point"),
            (keyframe([0.0, 10.0, 20.0], keyTimes: [0, .nan, 1]), "a NaN keyTime"),
        ]
        for (animation, what) in cases {
            let recorder = AnimationEventRecorder()
            let scene = sceneWithRunningAnimation(recorder: recorder)
            let diagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(animation, forKey: "radius") } }
            XCTAssertEqual(diagnostics.count, 1, "one diagnostic for \(what): \(diagnostics)")
            XCTAssertTrue([.nonFiniteValue, .invalidArgument].contains(diagnostics.first?.code), "\(what): \(diagnostics)")
            scene.frame(at: 0.5)
            XCTAssertEqual(Double(try scene.presented().cornerRadius), 5, accuracy: 1e-6, "not replaced by \(what)")
            XCTAssertTrue(scene.layer.animation(forKey: "radius") is CABasicAnimation, what)
            XCTAssertEqual(recorder.stops, [], what)
        }
    }

    // MARK: Paths

    func test_pathAnimationOnAKeyPathThatIsNotAPointIsRefused() throws {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 10))
        for keyPath in ["cornerRadius", "position.x", "backgroundColor"] {
            let animation = CAKeyframeAnimation(keyPath: keyPath)
            animation.path = path
            animation.duration = 1
            try assertRefused(animation, .wrongValueType, "a path for \(keyPath)")
        }
        let scene = Scene(CALayer())
        let onOpacity = CAKeyframeAnimation(keyPath: "opacity")
        onOpacity.path = path
        assertOneDiagnostic(StrataDiagnostics.capture { inTransaction { scene.layer.add(onOpacity, forKey: "fade") } },
                            .wrongValueType, "a path for opacity")
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_pathKeyTimesOfTheWrongCountAreRefused() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 10))
        let scene = Scene(CALayer())
        let animation = CAKeyframeAnimation(keyPath: "position")
        animation.path = path
        animation.keyTimes = [0, 1]  // two segments need three
        assertOneDiagnostic(StrataDiagnostics.capture { inTransaction { scene.layer.add(animation, forKey: "follow") } },
                            .invalidArgument, "2 keyTimes for a 2-segment path")
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_pathsWithNonFinitePointsAreRefusedInEveryMode() throws {
        func path(_ bad: CGPoint, at slot: Int) -> CGMutablePath {
            var points = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 40), CGPoint(x: 30, y: 40), CGPoint(x: 50, y: 0)]
            points[slot] = bad
            let p = CGMutablePath()
            p.move(to: points[0])
            p.addCurve(to: points[3], control1: points[1], control2: points[2])
            return p
        }
        for mode in [CAAnimationCalculationMode.linear, .discrete, .paced, .cubicPaced] {
            for (bad, slot, what) in [(CGPoint(x: CGFloat.nan, y: 1), 1, "a NaN control point"),
                                      (CGPoint(x: 5, y: -CGFloat.infinity), 3, "an infinite end point"),
                                      (CGPoint(x: CGFloat.infinity, y: 0), 0, "an infinite start")] {
                let animation = CAKeyframeAnimation(keyPath: "position")
                animation.path = path(bad, at: slot)
                animation.calculationMode = mode
                animation.duration = 1
                try assertRefused(animation, .nonFiniteValue, "\(what), mode \(mode.rawValue)")
            }
        }
    }

    /// Paced motion measures the path's length, and a curve through points beyond 1e150
    /// overflows its squared speed (this hung both engines' length quadrature): refused with a
    /// diagnostic, while the same points are accepted where nothing is measured and points
    /// just inside the limit pace correctly.
    func test_pacedMotionBeyondTheMeasurableRangeIsRefused() throws {
        func curve(_ scale: Double) -> CGMutablePath {
            let p = CGMutablePath()
            p.move(to: CGPoint(x: 0, y: 0))
            p.addCurve(to: CGPoint(x: scale, y: 0), control1: CGPoint(x: 0, y: scale), control2: CGPoint(x: scale, y: scale))
            return p
        }
        for mode in [CAAnimationCalculationMode.paced, .cubicPaced] {
            let far = CAKeyframeAnimation(keyPath: "position")
            far.path = curve(1e200)
            far.calculationMode = mode
            far.duration = 1
            try assertRefused(far, .invalidArgument, "a paced path through 1e200, mode \(mode.rawValue)")
            try assertRefused(keyframe([CGPoint(x: 0, y: 0), CGPoint(x: 1e151, y: 1), CGPoint(x: 0, y: 2)],
                                       keyPath: "position", mode: mode),
                              .invalidArgument, "paced values beyond 1e150, mode \(mode.rawValue)")
        }
        // Unpaced, the same path only evaluates its polynomial: accepted, no diagnostic.
        let scene = Scene(CALayer())
        let unpaced = CAKeyframeAnimation(keyPath: "position")
        unpaced.path = curve(1e200)
        unpaced.duration = 1
        XCTAssertEqual(StrataDiagnostics.capture { inTransaction { scene.layer.add(unpaced, forKey: "far") } }.count, 0)
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().position.x), 5e199, accuracy: 1e187)
        XCTAssertEqual(Double(try scene.presented().position.y), 7.5e199, accuracy: 1e187)
        // Inside the limit, paced: the curve is symmetric, so half its length is at its middle.
        for mode in [CAAnimationCalculationMode.paced, .cubicPaced] {
            let near = Scene(CALayer())
            let paced = CAKeyframeAnimation(keyPath: "position")
            paced.path = curve(1e140)
            paced.calculationMode = mode
            paced.duration = 1
            XCTAssertEqual(StrataDiagnostics.capture { inTransaction { near.layer.add(paced, forKey: "near") } }.count, 0)
            near.frame(at: 0.5)
            XCTAssertEqual(Double(try near.presented().position.x), 5e139, accuracy: 1e131, "mode \(mode.rawValue)")
            XCTAssertEqual(Double(try near.presented().position.y), 7.5e139, accuracy: 1e131, "mode \(mode.rawValue)")
        }
    }

    // MARK: Timing that Apple defines instead of refusing

    func test_negativeSpeedWithEveryFillModeStaysFinite() throws {
        let scene = Scene(CALayer()) { layer in
            layer.cornerRadius = 3
            layer.position = CGPoint(x: 1, y: 2)
        }
        inTransaction {
            for (index, fill) in [CAMediaTimingFillMode.removed, .forwards, .backwards, .both].enumerated() {
                for speed: Float in [-1, -2.5] {
                    let radius = CABasicAnimation(keyPath: "cornerRadius")
                    radius.fromValue = 0.0
                    radius.toValue = 10.0
                    radius.duration = 1
                    radius.speed = speed
                    radius.fillMode = fill
                    radius.beginTime = index.isMultiple(of: 2) ? 0 : 2
                    radius.isRemovedOnCompletion = false
                    radius.isAdditive = true
                    scene.layer.add(radius, forKey: "radius \(fill.rawValue) \(speed)")
                }
            }
            let move = CAKeyframeAnimation(keyPath: "position")
            move.values = [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 50), CGPoint(x: 100, y: 0)]
            move.duration = 1
            move.speed = -1
            move.fillMode = .both
            move.isRemovedOnCompletion = false
            scene.layer.add(move, forKey: "move")
        }
        for k in 0...80 {
            let t = Double(k) * 0.137
            scene.frame(at: t)
            let presented = try scene.presented()
            XCTAssertTrue(Double(presented.cornerRadius).isFinite, "cornerRadius at \(t)")
            XCTAssertLessThanOrEqual(Double(presented.cornerRadius), 3 + 8 * 10 + 1e-9, "at most every additive end value")
            XCTAssertGreaterThanOrEqual(Double(presented.cornerRadius), 3 - 1e-9)
            XCTAssertTrue(presented.position.x.isFinite && presented.position.y.isFinite, "position at \(t)")
            XCTAssertTrue((0...100).contains(presented.position.x) && (0...50).contains(presented.position.y),
                          "a keyframe value or the model at \(t): \(presented.position)")
        }
    }

    func test_infiniteRepeatWithAutoreversesNeverCompletes() throws {
        let scene = Scene(CALayer()) { $0.cornerRadius = 3 }
        let recorder = AnimationEventRecorder()
        var completions = 0
        let bounce = CABasicAnimation(keyPath: "cornerRadius")
        bounce.fromValue = 0.0
        bounce.toValue = 10.0
        bounce.duration = 1
        bounce.repeatCount = .infinity
        bounce.autoreverses = true
        bounce.delegate = recorder
        let wave = CAKeyframeAnimation(keyPath: "position")
        wave.values = [CGPoint(x: 0, y: 0), CGPoint(x: 40, y: 20), CGPoint(x: 80, y: 0)]
        wave.duration = 0.5
        wave.repeatCount = .infinity
        wave.autoreverses = true
        CATransaction.begin()
        CATransaction.setCompletionBlock { completions += 1 }
        scene.layer.add(bounce, forKey: "bounce")
        scene.layer.add(wave, forKey: "wave")
        CATransaction.commit()

        for t in stride(from: 0.0, through: 2_000, by: 7.3) {
            scene.frame(at: t)
            let presented = try scene.presented()
            XCTAssertTrue(Double(presented.cornerRadius).isFinite && presented.position.x.isFinite && presented.position.y.isFinite,
                          "at \(t)")
        }
        scene.frame(at: 1_000_000.25)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 2.5, accuracy: 1e-5, "still running, forwards half")
        scene.frame(at: 1_000_001.25)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 7.5, accuracy: 1e-5, "and the backwards half")
        XCTAssertEqual(animationKeys(of: scene.layer), ["bounce", "wave"])
        XCTAssertEqual(recorder.stops, [], "never stopped")
        XCTAssertEqual(completions, 0, "the transaction never completes")
    }

    func test_groupWithNegativeSpeedStaysFinite() throws {
        let scene = Scene(CALayer()) { $0.cornerRadius = 3 }
        let child = CABasicAnimation(keyPath: "cornerRadius")
        child.fromValue = 0.0
        child.toValue = 10.0
        child.fillMode = .both
        let group = CAAnimationGroup()
        group.animations = [child]
        group.duration = 1
        group.speed = -2
        group.fillMode = .both
        group.isRemovedOnCompletion = false
        inTransaction { scene.layer.add(group, forKey: "group") }
        for t in [0.0, 0.3, 0.99, 1.5, 40] {
            scene.frame(at: t)
            let radius = Double(try scene.presented().cornerRadius)
            XCTAssertTrue(radius.isFinite, "at \(t)")
            XCTAssertTrue((0...10).contains(radius), "a value of the child or the model (3) at \(t): \(radius)")
        }
    }

    // MARK: Good input stays quiet

    func test_validExplicitAnimationsProduceNoDiagnostics() {
        let scene = Scene(CALayer())
        let diagnostics = StrataDiagnostics.capture {
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 0))
            path.addQuadCurve(to: CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 5))
            path.closeSubpath()
            let follow = CAKeyframeAnimation(keyPath: "position")
            follow.path = path
            follow.calculationMode = .paced
            follow.rotationMode = .rotateAuto
            let colours = CAKeyframeAnimation(keyPath: "backgroundColor")
            colours.values = [CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(red: 1, green: 0, blue: 0, alpha: 1)]
            colours.keyTimes = [0, 1]
            colours.timingFunctions = [CAMediaTimingFunction(name: .easeIn)]
            let group = CAAnimationGroup()
            group.animations = [follow, colours]
            group.duration = 2
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.toValue = Double.pi
            spin.isAdditive = true
            spin.isCumulative = true
            spin.repeatCount = 2
            inTransaction {
                scene.layer.add(group, forKey: "group")
                scene.layer.add(spin, forKey: "spin")
                scene.layer.add(CATransition(), forKey: nil)
            }
            scene.frame(at: 0.1)
            XCTAssertEqual(animationKeys(of: scene.layer), ["group", "spin", kCATransition], "all were added")
            for t in [1.0, 3] { scene.frame(at: t) }
        }
        XCTAssertEqual(codes(diagnostics), [])
    }
}
