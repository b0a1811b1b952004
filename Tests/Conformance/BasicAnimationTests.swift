import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// CABasicAnimation and the layer model it animates: interpolation values, timing functions,
/// fill modes, the animation list of a layer, delegates, model vs presentation, geometry, key
/// paths and Apple's defaults (SEMANTICS.md "Layers" and "Animations").
///
/// Animations are added in an explicit transaction right after the scene's first frame, so they
/// start at media time 0 unless a test says otherwise; with no timing function they are linear.
final class BasicAnimationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// Adds `animation` in an explicit transaction, so it starts at the current media time.
    private func add(_ animation: CAAnimation, to layer: CALayer, forKey key: String?) {
        inTransaction { layer.add(animation, forKey: key) }
    }

    private func basic(_ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil,
                       duration: Double = 1) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.byValue = by
        animation.duration = duration
        return animation
    }

    // MARK: from / to / by (the SEMANTICS.md table)

    func test_fromAndTo_interpolatesFromTo() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 10, y: 20) }
        add(basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 50)), to: scene.layer, forKey: "move")
        scene.frame(at: 0)
        assertPoint(try scene.presented().position, 0, 0)
        scene.frame(at: 0.25)
        assertPoint(try scene.presented().position, 25, 12.5)
        scene.frame(at: 0.75)
        assertPoint(try scene.presented().position, 75, 37.5)
        scene.frame(at: 1)
        assertPoint(try scene.presented().position, 10, 20, "back to the model after the end")
    }

    func test_fromAndBy_interpolatesFromToFromPlusBy() throws {
        let scene = Scene(CALayer()) { $0.cornerRadius = 2 }
        add(basic("cornerRadius", from: CGFloat(10), by: CGFloat(30)), to: scene.layer, forKey: "round")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 25, accuracy: 1e-6)
        scene.frame(at: 0.9)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 37, accuracy: 1e-6)
    }

    func test_toAndBy_interpolatesToMinusByToTo() throws {
        let scene = Scene(CALayer())
        add(basic("opacity", to: NSNumber(value: 0.9), by: NSNumber(value: 0.6)), to: scene.layer, forKey: "fade")
        scene.frame(at: 0)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.3, accuracy: 1e-6)
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.6, accuracy: 1e-6)
    }

    func test_fromOnly_interpolatesFromToCurrentValue() throws {
        let scene = Scene(CALayer()) { $0.borderWidth = 8 }
        add(basic("borderWidth", from: 2), to: scene.layer, forKey: "border")
        scene.frame(at: 0.25)
        XCTAssertEqual(Double(try scene.presented().borderWidth), 3.5, accuracy: 1e-6)
        scene.frame(at: 0.75)
        XCTAssertEqual(Double(try scene.presented().borderWidth), 6.5, accuracy: 1e-6)
    }

    func test_toOnly_interpolatesCurrentValueToTo() throws {
        let scene = Scene(CALayer())  // shadowRadius defaults to 3
        add(basic("shadowRadius", to: 13.0), to: scene.layer, forKey: "blur")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().shadowRadius), 8, accuracy: 1e-6)
    }

    func test_byOnly_interpolatesCurrentValueToCurrentPlusBy() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 10, y: 20) }
        add(basic("position", by: CGPoint(x: 30, y: 40)), to: scene.layer, forKey: "nudge")
        scene.frame(at: 0.5)
        assertPoint(try scene.presented().position, 25, 40)
        scene.frame(at: 0.99)
        assertPoint(try scene.presented().position, 39.7, 59.6)
    }

    func test_rectAndSizeValuesInterpolateFieldByField() throws {
        let scene = Scene(CALayer()) { $0.bounds = CGRect(x: 0, y: 0, width: 100, height: 100) }
        add(basic("bounds", from: CGRect(x: 0, y: 0, width: 100, height: 100), to: CGRect(x: 10, y: 20, width: 200, height: 50)),
            to: scene.layer, forKey: "resize")
        add(basic("shadowOffset", from: CGSize(width: 0, height: 0), to: CGSize(width: 4, height: -8)),
            to: scene.layer, forKey: "shadow")
        scene.frame(at: 0.25)
        let presented = try scene.presented()
        let bounds = presented.bounds
        XCTAssertEqual(Double(bounds.origin.x), 2.5, accuracy: 1e-6)
        XCTAssertEqual(Double(bounds.origin.y), 5, accuracy: 1e-6)
        XCTAssertEqual(Double(bounds.size.width), 125, accuracy: 1e-6)
        XCTAssertEqual(Double(bounds.size.height), 87.5, accuracy: 1e-6)
        XCTAssertEqual(Double(presented.shadowOffset.width), 1, accuracy: 1e-6)
        XCTAssertEqual(Double(presented.shadowOffset.height), -2, accuracy: 1e-6)
    }

    func test_colourInterpolatesComponentWiseInRGBA() throws {
        let scene = Scene(CALayer())
        add(basic("backgroundColor", from: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                  to: CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)), to: scene.layer, forKey: "tint")
        scene.frame(at: 0.25)
        assertColor(try scene.presented().backgroundColor, [0.75, 0, 0.25, 0.875])
        scene.frame(at: 0.5)
        assertColor(try scene.presented().backgroundColor, [0.5, 0, 0.5, 0.75])
    }

    func test_transformAnimationReachesItsEndpoints() throws {
        let scene = Scene(CALayer())
        let rotation = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let spin = basic("transform", from: CATransform3DIdentity, to: rotation)
        spin.isRemovedOnCompletion = false
        spin.fillMode = .forwards
        add(spin, to: scene.layer, forKey: "spin")
        scene.frame(at: 0)
        assertTransform(try scene.presented().transform, CATransform3DIdentity)
        scene.frame(at: 1)
        assertTransform(try scene.presented().transform, rotation)
        assertTransform(scene.layer.transform, CATransform3DIdentity, "the model is untouched")
    }

    func test_keyPathIntoPositionAnimatesOneField() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 5, y: 7) }
        add(basic("position.x", from: 0.0, to: 100.0), to: scene.layer, forKey: "slide")
        scene.frame(at: 0.5)
        assertPoint(try scene.presented().position, 50, 7)
    }

    func test_booleanPropertySwitchesAtHalfProgress() throws {
        let scene = Scene(CALayer()) { $0.masksToBounds = true }
        add(basic("hidden", from: NSNumber(value: false), to: NSNumber(value: true)), to: scene.layer, forKey: "blink")
        add(basic("masksToBounds", from: NSNumber(value: true), to: NSNumber(value: false)), to: scene.layer, forKey: "clip")
        scene.frame(at: 0.499)
        XCTAssertFalse(try scene.presented().isHidden, "the from value before the midpoint")
        XCTAssertTrue(try scene.presented().masksToBounds)
        scene.frame(at: 0.501)
        XCTAssertTrue(try scene.presented().isHidden, "the to value from the midpoint on")
        XCTAssertFalse(try scene.presented().masksToBounds)
        scene.frame(at: 1)
        XCTAssertFalse(try scene.presented().isHidden, "the model value after the end")
        XCTAssertTrue(try scene.presented().masksToBounds)
    }

    func test_booleanPropertySwitchUsesEasedProgress() throws {
        let scene = Scene(CALayer())
        let blink = basic("hidden", from: NSNumber(value: false), to: NSNumber(value: true))
        blink.timingFunction = CAMediaTimingFunction(name: .easeIn)
        add(blink, to: scene.layer, forKey: "blink")
        // easeIn reaches progress 0.5 late: at 60 % of the time it is still below.
        XCTAssertLessThan(ReferenceCurve.easeIn.progress(atFraction: 0.6), 0.5)
        scene.frame(at: 0.6)
        XCTAssertFalse(try scene.presented().isHidden)
        XCTAssertGreaterThan(ReferenceCurve.easeIn.progress(atFraction: 0.75), 0.5)
        scene.frame(at: 0.75)
        XCTAssertTrue(try scene.presented().isHidden)
    }

    func test_shapeLayerStrokeAndFillAnimate() throws {
        let scene = Scene(CAShapeLayer())
        add(basic("strokeEnd", from: 0.0, to: 1.0), to: scene.layer, forKey: "draw")
        add(basic("fillColor", to: CGColor(red: 1, green: 1, blue: 1, alpha: 1)), to: scene.layer, forKey: "fill")
        scene.frame(at: 0.25)
        let presented: CAShapeLayer = try scene.presented()
        XCTAssertEqual(Double(presented.strokeEnd), 0.25, accuracy: 1e-6)
        assertColor(presented.fillColor, [0.25, 0.25, 0.25, 1], "from the default opaque black")
    }

    // MARK: Timing functions

    func test_namedTimingFunctionsHaveApplesControlPoints() {
        let expected: [(CAMediaTimingFunctionName, [Float])] = [
            (.linear, [0, 0, 0, 0, 1, 1, 1, 1]),
            (.easeIn, [0, 0, 0.42, 0, 1, 1, 1, 1]),
            (.easeOut, [0, 0, 0, 0, 0.58, 1, 1, 1]),
            (.easeInEaseOut, [0, 0, 0.42, 0, 0.58, 1, 1, 1]),
            (.default, [0, 0, 0.25, 0.1, 0.25, 1, 1, 1]),
        ]
        for (name, points) in expected {
            XCTAssertEqual(controlPoints(of: CAMediaTimingFunction(name: name)), points, "\(name.rawValue)")
        }
    }

    func test_getControlPointWritesThroughAPointer() {
        let function = CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.4)
        let values = UnsafeMutablePointer<Float>.allocate(capacity: 2)
        defer { values.deallocate() }
        let expected: [[Float]] = [[0, 0], [0.1, 0.2], [0.3, 0.4], [1, 1]]
        for index in 0..<4 {
            values[0] = -1
            values[1] = -1
            function.getControlPoint(at: index, values: values)
            XCTAssertEqual([values[0], values[1]], expected[index], "control point \(index)")
        }
    }

    func test_namedTimingFunctionsShapeTheInterpolation() throws {
        let curves: [(CAMediaTimingFunctionName, ReferenceCurve)] = [
            (.linear, .linear), (.easeIn, .easeIn), (.easeOut, .easeOut),
            (.easeInEaseOut, .easeInEaseOut), (.default, .caDefault),
        ]
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let layers = curves.map { _ in CALayer() }
        withActionsDisabled { layers.forEach(root.addSublayer) }
        renderer.renderFrame(atTime: 0)
        inTransaction {
            for (layer, (name, _)) in zip(layers, curves) {
                let move = basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 200))
                move.timingFunction = CAMediaTimingFunction(name: name)
                layer.add(move, forKey: "move")
            }
        }
        for t in [0.1, 0.3, 0.5, 0.7, 0.95] {
            renderer.renderFrame(atTime: t)
            for (layer, (name, curve)) in zip(layers, curves) {
                let p = curve.progress(atFraction: t)
                assertPoint(layer.presentation()?.position, 100 * p, 200 * p, "\(name.rawValue) at \(t)")
            }
        }
    }

    func test_customControlPointsShapeTheInterpolation() throws {
        let scene = Scene(CALayer())
        let fade = basic("opacity", from: 0.0, to: 1.0, duration: 2)
        fade.timingFunction = CAMediaTimingFunction(controlPoints: 0.6, 0.05, 0.3, 0.95)
        add(fade, to: scene.layer, forKey: "fade")
        let curve = ReferenceCurve(0.6, 0.05, 0.3, 0.95)
        for t in [0.2, 0.9, 1.3, 1.8] {
            scene.frame(at: t)
            XCTAssertEqual(Double(try scene.presented().opacity), curve.progress(atFraction: t / 2), accuracy: 1e-6, "at \(t)")
        }
    }

    func test_animationWithoutTimingFunctionIsLinear() throws {
        let scene = Scene(CALayer())
        let fade = basic("opacity", from: 0.0, to: 1.0, duration: 4)
        XCTAssertNil(fade.timingFunction)
        add(fade, to: scene.layer, forKey: "fade")
        for t in [0.4, 2.0, 3.6] {
            scene.frame(at: t)
            XCTAssertEqual(Double(try scene.presented().opacity), t / 4, accuracy: 1e-6, "at \(t)")
        }
    }

    // MARK: Active interval, removal on completion, fill modes, beginTime

    func test_activeIntervalIsHalfOpenAndRetirementHappensInEndFrame() throws {
        let scene = Scene(CALayer())
        add(basic("opacity", from: 0.0, to: 0.5), to: scene.layer, forKey: "fade")
        scene.frame(at: 0.999)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.4995, accuracy: 1e-6)
        XCTAssertEqual(animationKeys(of: scene.layer), ["fade"])

        scene.renderer.beginFrame(atTime: 1)
        scene.renderer.render()
        XCTAssertEqual(Double(try scene.presented().opacity), 1, accuracy: 1e-6, "finished at begin + duration")
        XCTAssertEqual(animationKeys(of: scene.layer), ["fade"], "render() retires nothing")
        scene.renderer.endFrame()
        XCTAssertEqual(animationKeys(of: scene.layer), [], "endFrame() retires it")
    }

    func test_removedOnCompletionByDefault() {
        let scene = Scene(CALayer())
        let recorder = AnimationEventRecorder()
        let fade = basic("opacity", to: 0.0)
        XCTAssertTrue(fade.isRemovedOnCompletion)
        fade.delegate = recorder
        add(fade, to: scene.layer, forKey: "fade")
        scene.frame(at: 1)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
        XCTAssertNil(scene.layer.animation(forKey: "fade"))
        XCTAssertEqual(recorder.stops, [true])
    }

    func test_notRemovedOnCompletionStaysListedButFillRemovedShowsModel() throws {
        let scene = Scene(CALayer())
        let fade = basic("opacity", from: 0.0, to: 0.5)
        fade.isRemovedOnCompletion = false
        add(fade, to: scene.layer, forKey: "fade")
        scene.frame(at: 1)
        scene.frame(at: 3)
        XCTAssertEqual(animationKeys(of: scene.layer), ["fade"])
        XCTAssertEqual(Double(try scene.presented().opacity), 1, accuracy: 1e-6, "fill mode removed: no effect after the end")
    }

    func test_fillModeForwardsHoldsToValueAfterEnd() throws {
        let scene = Scene(CALayer())
        let fade = basic("opacity", from: 0.0, to: 0.5)
        fade.isRemovedOnCompletion = false
        fade.fillMode = .forwards
        add(fade, to: scene.layer, forKey: "fade")
        scene.frame(at: 1)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.5, accuracy: 1e-6)
        scene.frame(at: 10)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.5, accuracy: 1e-6)
        XCTAssertEqual(scene.layer.opacity, 1, "the model is untouched")
    }

    func test_fillModeBackwardsAppliesFromValueBeforeBeginTime() throws {
        let scene = Scene(CALayer())
        let fade = basic("opacity", from: 0.2, to: 0.6)
        fade.beginTime = 2
        fade.fillMode = .backwards
        add(fade, to: scene.layer, forKey: "fade")
        scene.frame(at: 1)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.2, accuracy: 1e-6, "backwards fill before the start")
        scene.frame(at: 2.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.4, accuracy: 1e-6)
        scene.frame(at: 3)
        XCTAssertEqual(Double(try scene.presented().opacity), 1, accuracy: 1e-6, "no forwards fill")
    }

    func test_fillModeBothHoldsBeforeAndAfter() throws {
        let scene = Scene(CALayer())
        let fade = basic("opacity", from: 0.2, to: 0.6)
        fade.beginTime = 2
        fade.fillMode = .both
        fade.isRemovedOnCompletion = false
        add(fade, to: scene.layer, forKey: "fade")
        scene.frame(at: 1)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.2, accuracy: 1e-6)
        scene.frame(at: 4)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.6, accuracy: 1e-6)
    }

    func test_fillModeRemovedHasNoEffectOutsideTheActiveInterval() throws {
        let scene = Scene(CALayer())
        let fade = basic("opacity", from: 0.2, to: 0.6)
        XCTAssertEqual(fade.fillMode, .removed)
        fade.beginTime = 2
        fade.isRemovedOnCompletion = false
        add(fade, to: scene.layer, forKey: "fade")
        scene.frame(at: 1)
        XCTAssertEqual(Double(try scene.presented().opacity), 1, accuracy: 1e-6)
        scene.frame(at: 2.25)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.3, accuracy: 1e-6)
        scene.frame(at: 3.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 1, accuracy: 1e-6)
    }

    func test_beginTimeIsAnAbsoluteMediaTime() throws {
        let scene = Scene(CALayer())
        scene.frame(at: 5)
        let later = basic("cornerRadius", from: 2.0, to: 10.0)
        later.beginTime = 6  // absolute: not 5 + 6
        let now = basic("borderWidth", from: 0.0, to: 10.0)  // beginTime 0: starts at the commit, 5
        inTransaction {
            scene.layer.add(later, forKey: "later")
            scene.layer.add(now, forKey: "now")
        }
        scene.frame(at: 5.5)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 0, accuracy: 1e-6, "not started: the model value")
        XCTAssertEqual(Double(try scene.presented().borderWidth), 5, accuracy: 1e-6)
        scene.frame(at: 6.5)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 6, accuracy: 1e-6)
    }

    func test_animationAddedOutsideTransactionStartsWithNextFrame() throws {
        let scene = Scene(CALayer())
        scene.layer.add(basic("opacity", from: 0.0, to: 1.0), forKey: "fade")
        scene.frame(at: 3)
        XCTAssertEqual(Double(try scene.presented().opacity), 0, accuracy: 1e-6)
        scene.frame(at: 3.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.5, accuracy: 1e-6)
    }

    // MARK: The animation list of a layer

    func test_animationForKeyReturnsACopy() throws {
        let scene = Scene(CALayer())
        let fade = basic("opacity", from: 0.0, to: 0.5)
        add(fade, to: scene.layer, forKey: "fade")
        let stored = try XCTUnwrap(scene.layer.animation(forKey: "fade") as? CABasicAnimation)
        XCTAssertFalse(stored === fade, "add(_:forKey:) copies the animation")
        XCTAssertEqual(stored.keyPath, "opacity")
        XCTAssertEqual(stored.duration, 1)
        XCTAssertEqual(numericValue(stored.toValue), 0.5)

        fade.toValue = 1.0  // changing the original afterwards changes nothing on the layer
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.25, accuracy: 1e-6)
        XCTAssertNil(scene.layer.animation(forKey: "nothing"))
    }

    func test_animationKeysAreInInsertionOrder() {
        let scene = Scene(CALayer())
        XCTAssertEqual(animationKeys(of: scene.layer), [])
        inTransaction {
            scene.layer.add(basic("opacity", to: 0.0), forKey: "b")
            scene.layer.add(basic("position", to: CGPoint(x: 1, y: 1)), forKey: "a")
            scene.layer.add(basic("cornerRadius", to: 3.0), forKey: "c")
        }
        XCTAssertEqual(scene.layer.animationKeys(), ["b", "a", "c"])
        scene.layer.removeAnimation(forKey: "a")
        XCTAssertEqual(scene.layer.animationKeys(), ["b", "c"])
    }

    func test_addingUnderAKeyInUseReplacesAndStopsTheOldAnimation() throws {
        let scene = Scene(CALayer())
        let first = AnimationEventRecorder(), second = AnimationEventRecorder()
        let fadeOut = basic("opacity", from: 1.0, to: 0.0)
        fadeOut.delegate = first
        add(fadeOut, to: scene.layer, forKey: "fade")
        scene.frame(at: 0.5)

        let fadeHalf = basic("opacity", from: 0.2, to: 0.6)
        fadeHalf.delegate = second
        add(fadeHalf, to: scene.layer, forKey: "fade")  // starts at 0.5
        scene.frame(at: 0.75)
        XCTAssertEqual(first.stops, [false], "the replaced animation did not finish")
        XCTAssertEqual(animationKeys(of: scene.layer), ["fade"])
        XCTAssertEqual(Double(try scene.presented().opacity), 0.3, accuracy: 1e-6)
        scene.frame(at: 1.5)
        XCTAssertEqual(second.stops, [true])
        XCTAssertEqual(first.stops, [false])
    }

    func test_removeAnimationSnapsToModelAndStopsUnfinished() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 10, y: 10) }
        let recorder = AnimationEventRecorder()
        let move = basic("position", from: CGPoint(x: 100, y: 100), to: CGPoint(x: 200, y: 200))
        move.delegate = recorder
        add(move, to: scene.layer, forKey: "move")
        add(basic("opacity", from: 0.0, to: 1.0), to: scene.layer, forKey: "fade")
        scene.frame(at: 0.5)
        assertPoint(try scene.presented().position, 150, 150)

        scene.layer.removeAnimation(forKey: "move")
        XCTAssertEqual(animationKeys(of: scene.layer), ["fade"])
        scene.frame(at: 0.6)
        assertPoint(try scene.presented().position, 10, 10, "snapped to the model")
        XCTAssertEqual(Double(try scene.presented().opacity), 0.6, accuracy: 1e-6, "the other animation runs on")
        XCTAssertEqual(recorder.stops, [false])
    }

    func test_removeAllAnimationsSnapsEveryPropertyToModel() throws {
        let scene = Scene(CALayer()) { $0.cornerRadius = 1 }
        add(basic("opacity", from: 0.0, to: 0.5), to: scene.layer, forKey: "fade")
        add(basic("position", to: CGPoint(x: 100, y: 0)), to: scene.layer, forKey: "move")
        add(basic("cornerRadius", by: 8.0), to: scene.layer, forKey: "round")
        scene.frame(at: 0.5)
        let before = StrataEngine.activeAnimationCount

        scene.layer.removeAllAnimations()
        XCTAssertEqual(StrataEngine.activeAnimationCount, before - 3)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
        scene.frame(at: 0.5)
        let presented = try scene.presented()
        XCTAssertEqual(Double(presented.opacity), 1, accuracy: 1e-6)
        assertPoint(presented.position, 0, 0)
        XCTAssertEqual(Double(presented.cornerRadius), 1, accuracy: 1e-6)
    }

    // MARK: retirement of animations that finish together

    /// Animations of one property on several layers finish at once, some earlier than
    /// others that were added between them: the finished ones show the model, the one
    /// still running goes on from where it is, and is itself retired at its end.
    func test_animationsFinishingTogetherLeaveTheOnesStillRunningIntact() throws {
        let root = CALayer()
        let layers = (0..<3).map { _ in CALayer() }
        withActionsDisabled {
            for l in layers { root.addSublayer(l); l.opacity = 0.25 }
        }
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        inTransaction {
            layers[0].add(basic("opacity", from: 0.0, to: 1.0, duration: 0.5), forKey: "short")
            layers[1].add(basic("opacity", from: 0.0, to: 1.0, duration: 2), forKey: "long")
            layers[2].add(basic("opacity", from: 0.0, to: 1.0, duration: 0.5), forKey: "short")
        }
        renderer.renderFrame(atTime: 0.25)
        XCTAssertEqual(Double(try XCTUnwrap(layers[0].presentation()).opacity), 0.5, accuracy: 1e-6)
        XCTAssertEqual(Double(try XCTUnwrap(layers[1].presentation()).opacity), 0.125, accuracy: 1e-6)
        renderer.renderFrame(atTime: 1)
        XCTAssertEqual(animationKeys(of: layers[0]), [])
        XCTAssertEqual(animationKeys(of: layers[1]), ["long"])
        XCTAssertEqual(animationKeys(of: layers[2]), [])
        XCTAssertEqual(Double(try XCTUnwrap(layers[0].presentation()).opacity), 0.25, accuracy: 1e-6, "the model")
        XCTAssertEqual(Double(try XCTUnwrap(layers[2].presentation()).opacity), 0.25, accuracy: 1e-6, "the model")
        XCTAssertEqual(Double(try XCTUnwrap(layers[1].presentation()).opacity), 0.5, accuracy: 1e-6)
        renderer.renderFrame(atTime: 1.5)
        XCTAssertEqual(Double(try XCTUnwrap(layers[1].presentation()).opacity), 0.75, accuracy: 1e-6)
        // A new animation joins the survivor; then the survivor is removed by hand: it goes
        // and shows the model, and the new one runs on.
        inTransaction { layers[0].add(basic("opacity", from: 1.0, to: 0.0), forKey: "again") }
        layers[1].removeAnimation(forKey: "long")
        renderer.renderFrame(atTime: 1.75)
        XCTAssertEqual(animationKeys(of: layers[0]), ["again"])
        XCTAssertEqual(animationKeys(of: layers[1]), [])
        XCTAssertEqual(Double(try XCTUnwrap(layers[1].presentation()).opacity), 0.25, accuracy: 1e-6, "the model")
        XCTAssertEqual(Double(try XCTUnwrap(layers[0].presentation()).opacity), 0.75, accuracy: 1e-6)
        renderer.renderFrame(atTime: 2.5)
        XCTAssertEqual(animationKeys(of: layers[0]), [])
        XCTAssertEqual(Double(try XCTUnwrap(layers[0].presentation()).opacity), 0.25, accuracy: 1e-6, "the model")
    }

    /// The object `animation(forKey:)` makes for a built-in implicit animation goes with
    /// it: after that animation ends, the next implicit animation of the property (which may
    /// take the same place in the engine's stores) answers with an object of its own, with
    /// its own values, and so does one whose object nobody asked for before it ended.
    func test_anImplicitAnimationsObjectGoesWithItWhenItEnds() throws {
        let root = CALayer()
        let layer = CALayer()
        withActionsDisabled { root.addSublayer(layer) }
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        inTransaction(duration: 0.5) { layer.opacity = 0.5 }
        renderer.renderFrame(atTime: 0.1)
        let first = try XCTUnwrap(layer.animation(forKey: "opacity") as? CABasicAnimation)
        XCTAssertEqual(numericValue(first.fromValue), 1)
        XCTAssertEqual(numericValue(first.toValue), 0.5)
        renderer.renderFrame(atTime: 5)
        XCTAssertEqual(animationKeys(of: layer), [])
        inTransaction(duration: 0.5) { layer.opacity = 0.2 }
        let second = try XCTUnwrap(layer.animation(forKey: "opacity") as? CABasicAnimation)
        XCTAssertFalse(second === first, "the ended animation's object")
        XCTAssertEqual(numericValue(second.fromValue), 0.5)
        XCTAssertEqual(try XCTUnwrap(numericValue(second.toValue)), 0.2, accuracy: 1e-7)
        renderer.renderFrame(atTime: 5.1)
        // Nobody asks for the third one's object before it ends; the fourth's is its own.
        inTransaction(duration: 0.5) { layer.opacity = 0.9 }
        renderer.renderFrame(atTime: 10)
        XCTAssertEqual(animationKeys(of: layer), [])
        inTransaction(duration: 0.5) { layer.opacity = 0.4 }
        let fourth = try XCTUnwrap(layer.animation(forKey: "opacity") as? CABasicAnimation)
        XCTAssertFalse(fourth === first || fourth === second)
        XCTAssertEqual(try XCTUnwrap(numericValue(fourth.fromValue)), 0.9, accuracy: 1e-7)
        XCTAssertEqual(try XCTUnwrap(numericValue(fourth.toValue)), 0.4, accuracy: 1e-7)
    }

    /// One transaction's animations of several kinds on one layer (basic, keyframe, a
    /// transform field, two of one property) end together and all go: the model shows for
    /// each property, and the delegate of one of them hears of its stop once.
    func test_animationsOfSeveralKindsEndingTogetherAllGo() throws {
        let scene = Scene(CALayer()) {
            $0.opacity = 0.5
            $0.position = CGPoint(x: 10, y: 20)
            $0.cornerRadius = 2
        }
        let recorder = AnimationEventRecorder()
        let keyframes = CAKeyframeAnimation(keyPath: "position")
        keyframes.values = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100)]
        keyframes.duration = 1
        let spin = basic("transform.rotation.z", from: 0.0, to: Double.pi)
        let round = basic("cornerRadius", from: 0.0, to: 10.0)
        round.delegate = recorder
        inTransaction {
            scene.layer.add(basic("opacity", from: 0.0, to: 1.0), forKey: "fade")
            scene.layer.add(basic("opacity", by: 0.25), forKey: "fade-more")
            scene.layer.add(keyframes, forKey: "path")
            scene.layer.add(spin, forKey: "spin")
            scene.layer.add(round, forKey: "round")
        }
        scene.frame(at: 0.5)
        XCTAssertEqual(animationKeys(of: scene.layer), ["fade", "fade-more", "path", "spin", "round"])
        scene.frame(at: 1)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
        let presented = try scene.presented()
        XCTAssertEqual(Double(presented.opacity), 0.5, accuracy: 1e-6)
        assertPoint(presented.position, 10, 20)
        XCTAssertEqual(Double(presented.cornerRadius), 2, accuracy: 1e-6)
        XCTAssertEqual(presented.transform.m11, 1, accuracy: 1e-9)
        XCTAssertEqual(presented.transform.m12, 0, accuracy: 1e-9)
        XCTAssertEqual(recorder.stops, [true])
        // A new animation of the property two animations composed starts alone.
        inTransaction { scene.layer.add(basic("opacity", from: 0.0, to: 0.25), forKey: "fade") }
        scene.frame(at: 1.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.125, accuracy: 1e-6)
    }

    /// Implicit animations of many layers, started in a scattered order in one transaction,
    /// end in one frame: every layer shows its model, none is left running, and each layer's
    /// next change animates from the model.
    func test_implicitAnimationsOfManyLayersEndingInOneFrameAllShowTheModel() throws {
        let root = CALayer()
        let layers = (0..<200).map { _ in CALayer() }
        withActionsDisabled { for l in layers { root.addSublayer(l) } }
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        let before = StrataEngine.activeAnimationCount
        inTransaction(duration: 1) {
            for k in 0..<200 { layers[k * 7 % 200].opacity = Float(k % 10) / 10 }
        }
        renderer.renderFrame(atTime: 0.5)
        XCTAssertEqual(StrataEngine.activeAnimationCount - before, 200)
        renderer.renderFrame(atTime: 1)
        XCTAssertEqual(StrataEngine.activeAnimationCount, before)
        for (k, l) in layers.enumerated() {
            XCTAssertEqual(try XCTUnwrap(l.presentation()).opacity, l.opacity, "layer \(k)")
            XCTAssertNil(l.animationKeys(), "layer \(k)")
        }
        let model3 = Double(layers[3].opacity)   // set at k = 29 (29 * 7 % 200 = 3): 0.9
        XCTAssertEqual(model3, 0.9, accuracy: 1e-6)
        inTransaction(duration: 1) { layers[3].opacity = 0.1 }
        renderer.renderFrame(atTime: 1.5)
        XCTAssertEqual(Double(try XCTUnwrap(layers[3].presentation()).opacity),
                       model3 + (0.1 - model3) * ReferenceCurve.caDefault.progress(atFraction: 0.5), accuracy: 1e-6)
    }

    /// An implicit animation that goes before its transaction commits (removed, removed
    /// with every other, or replaced under its key by an animation of another property)
    /// leaves the change's model value showing from the next frame, as a change without
    /// animation does.
    func test_implicitAnimationGoneBeforeTheCommitLeavesTheModelShowing() throws {
        let scene = Scene(CALayer()) { $0.opacity = 1; $0.position = CGPoint(x: 5, y: 5) }
        scene.frame(at: 0.1)
        inTransaction(duration: 1) {
            scene.layer.opacity = 0.2
            XCTAssertEqual(animationKeys(of: scene.layer), ["opacity"])
            scene.layer.removeAnimation(forKey: "opacity")
        }
        scene.frame(at: 0.2)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.2, accuracy: 1e-6, "removed")

        inTransaction(duration: 1) {
            scene.layer.opacity = 0.4
            scene.layer.removeAllAnimations()
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            scene.layer.opacity = 0.7
            CATransaction.commit()
        }
        scene.frame(at: 0.3)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
        XCTAssertEqual(Double(try scene.presented().opacity), 0.7, accuracy: 1e-6, "removed with the others, then set without animation")

        inTransaction(duration: 1) {
            scene.layer.opacity = 0.9
            scene.layer.add(basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 0)), forKey: "opacity")
        }
        scene.frame(at: 0.8)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.9, accuracy: 1e-6, "replaced by an animation of another property")
        assertPoint(try scene.presented().position, 50, 0)
    }

    func test_delegateIsToldStartThenStopFinished() {
        let scene = Scene(CALayer())
        let recorder = AnimationEventRecorder()
        let fade = basic("opacity", to: 0.0)
        fade.delegate = recorder
        add(fade, to: scene.layer, forKey: "fade")
        scene.frame(at: 0)
        XCTAssertEqual(recorder.events, ["start"])
        scene.frame(at: 0.5)
        XCTAssertEqual(recorder.events, ["start"])
        scene.frame(at: 1)
        XCTAssertEqual(recorder.events, ["start", "stop(true)"])
        scene.frame(at: 2)
        XCTAssertEqual(recorder.events, ["start", "stop(true)"])
    }

    // MARK: Model and presentation

    func test_explicitAnimationChangesNoModelValue() throws {
        let scene = Scene(CALayer()) { $0.position = CGPoint(x: 3, y: 4) }
        add(basic("opacity", to: 0.0), to: scene.layer, forKey: "fade")
        add(basic("position", to: CGPoint(x: 50, y: 50)), to: scene.layer, forKey: "move")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.5, accuracy: 1e-6)
        XCTAssertEqual(scene.layer.opacity, 1)
        XCTAssertEqual(numericValue(scene.layer.value(forKey: "opacity")), 1)
        XCTAssertEqual(scene.layer.position, CGPoint(x: 3, y: 4))
        scene.frame(at: 2)
        XCTAssertEqual(scene.layer.opacity, 1)
        XCTAssertEqual(Double(try scene.presented().opacity), 1, accuracy: 1e-6)
    }

    func test_interruptingImplicitAnimationStartsFromPresentationValue() throws {
        let scene = Scene(CALayer())
        scene.layer.opacity = 0
        scene.frame(at: 0)  // commits: the fade out starts at 0
        scene.frame(at: 0.125)
        let midway = 1 - ReferenceCurve.caDefault.progress(atFraction: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), midway, accuracy: 1e-6)

        scene.layer.opacity = 1  // fromValue: what is on screen now, not the old model value 0
        scene.frame(at: 0.125)
        XCTAssertEqual(animationKeys(of: scene.layer), ["opacity"])
        XCTAssertEqual(Double(try scene.presented().opacity), midway, accuracy: 1e-6)
        scene.frame(at: 0.25)
        XCTAssertEqual(Double(try scene.presented().opacity),
                       lerp(midway, 1, ReferenceCurve.caDefault.progress(atFraction: 0.5)), accuracy: 1e-6)
    }

    func test_presentationIsNilBeforeFirstCommittedFrame() {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let layer = CALayer()
        XCTAssertNil(layer.presentation())
        withActionsDisabled {
            layer.opacity = 0.5
            root.addSublayer(layer)
        }
        renderer.renderFrame(atTime: 0)
        XCTAssertEqual(layer.presentation()?.opacity, 0.5)
    }

    func test_presentationIsACopyAndModelIsTheLayerItself() throws {
        let scene = Scene(CALayer())
        XCTAssertIdentical(scene.layer.model(), scene.layer)
        let presented = try scene.presented()
        XCTAssertFalse(presented === scene.layer)
        add(basic("opacity", from: 0.0, to: 1.0), to: scene.layer, forKey: "fade")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.5, accuracy: 1e-6)
        XCTAssertEqual(scene.layer.opacity, 1)
    }

    func test_presentationReflectsTheLastRenderedFrame() throws {
        let scene = Scene(CALayer())
        add(basic("cornerRadius", from: 0.0, to: 10.0), to: scene.layer, forKey: "round")
        scene.frame(at: 0.3)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 3, accuracy: 1e-6)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 3, accuracy: 1e-6, "reading twice changes nothing")
        scene.frame(at: 0.6)
        XCTAssertEqual(Double(try scene.presented().cornerRadius), 6, accuracy: 1e-6)
    }

    // MARK: Geometry

    func test_frameIsDerivedFromBoundsPositionAndAnchorPoint() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 10, y: 10, width: 100, height: 50)
        layer.position = CGPoint(x: 200, y: 100)
        XCTAssertEqual(layer.frame, CGRect(x: 150, y: 75, width: 100, height: 50))
        layer.anchorPoint = CGPoint(x: 0, y: 0)
        XCTAssertEqual(layer.frame, CGRect(x: 200, y: 100, width: 100, height: 50))
        layer.anchorPoint = CGPoint(x: 1, y: 0.25)
        XCTAssertEqual(layer.frame, CGRect(x: 100, y: 87.5, width: 100, height: 50))
    }

    func test_frameIsTheBoundingBoxUnderTheTransform() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.position = CGPoint(x: 200, y: 100)
        layer.transform = CATransform3DMakeScale(2, 2, 1)
        let frame = layer.frame
        XCTAssertEqual(Double(frame.origin.x), 100, accuracy: 1e-9)
        XCTAssertEqual(Double(frame.origin.y), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(frame.size.width), 200, accuracy: 1e-9)
        XCTAssertEqual(Double(frame.size.height), 100, accuracy: 1e-9)
    }

    func test_settingFrameSetsBoundsSizeAndPosition() {
        let layer = CALayer()
        layer.anchorPoint = CGPoint(x: 0.25, y: 0.5)
        layer.frame = CGRect(x: 10, y: 20, width: 40, height: 60)
        XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 40, height: 60))
        XCTAssertEqual(layer.position, CGPoint(x: 20, y: 50))
        XCTAssertEqual(layer.frame, CGRect(x: 10, y: 20, width: 40, height: 60))
    }

    func test_settingFrameAnimatesBoundsAndPositionNotFrame() throws {
        let scene = Scene(CALayer()) { $0.frame = CGRect(x: 0, y: 0, width: 10, height: 10) }
        scene.layer.frame = CGRect(x: 100, y: 100, width: 50, height: 50)
        scene.frame(at: 1)
        XCTAssertEqual(Set(animationKeys(of: scene.layer)), ["bounds", "position"])
        scene.frame(at: 1.125)
        let p = ReferenceCurve.caDefault.progress(atFraction: 0.5)
        let presented = try scene.presented()
        assertPoint(presented.position, lerp(5, 125, p), lerp(5, 125, p))
        XCTAssertEqual(Double(presented.bounds.size.width), lerp(10, 50, p), accuracy: 1e-6)
    }

    // MARK: Key-value coding

    func test_valueForKeyPathReachesIntoStructs() {
        let layer = CALayer()
        layer.position = CGPoint(x: 12, y: 34)
        layer.bounds = CGRect(x: 1, y: 2, width: 56, height: 78)
        XCTAssertEqual(numericValue(layer.value(forKeyPath: "position.x")), 12)
        XCTAssertEqual(numericValue(layer.value(forKeyPath: "position.y")), 34)
        XCTAssertEqual(numericValue(layer.value(forKeyPath: "bounds.size.width")), 56)
        XCTAssertEqual(numericValue(layer.value(forKeyPath: "bounds.origin.y")), 2)
        XCTAssertEqual(layer.value(forKeyPath: "position") as? CGPoint, CGPoint(x: 12, y: 34))
        XCTAssertEqual(layer.value(forKey: "bounds") as? CGRect, CGRect(x: 1, y: 2, width: 56, height: 78))
        XCTAssertEqual(numericValue(layer.value(forKey: "opacity")), 1)
    }

    func test_setValueForKeyPathChangesOneField() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.position = CGPoint(x: 5, y: 6)
        layer.setValue(CGFloat(80), forKeyPath: "bounds.size.width")
        XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 80, height: 50))
        layer.setValue(NSNumber(value: 7), forKeyPath: "position.y")
        XCTAssertEqual(layer.position, CGPoint(x: 5, y: 7))
        layer.setValue(NSNumber(value: 0.5), forKey: "opacity")
        XCTAssertEqual(layer.opacity, 0.5)
        layer.setValue(CGPoint(x: 1, y: 2), forKey: "anchorPoint")
        XCTAssertEqual(layer.anchorPoint, CGPoint(x: 1, y: 2))
    }

    func test_customKeysRoundTripAndDoNotAnimate() {
        let scene = Scene(CALayer())
        XCTAssertNil(scene.layer.value(forKey: "team"))
        scene.layer.setValue("blue team", forKey: "team")
        scene.layer.setValue(NSNumber(value: 3), forKey: "score")
        XCTAssertEqual(scene.layer.value(forKey: "team") as? String, "blue team")
        XCTAssertEqual(numericValue(scene.layer.value(forKey: "score")), 3)
        scene.frame(at: 1)
        XCTAssertEqual(animationKeys(of: scene.layer), [], "custom keys have no built-in action")
        XCTAssertEqual(scene.layer.value(forKey: "team") as? String, "blue team")
    }

    // MARK: Defaults

    func test_layerDefaultsAreApples() {
        let layer = CALayer()
        XCTAssertEqual(layer.opacity, 1)
        XCTAssertEqual(layer.anchorPoint, CGPoint(x: 0.5, y: 0.5))
        XCTAssertEqual(layer.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(layer.bounds, .zero)
        XCTAssertEqual(layer.position, .zero)
        XCTAssertEqual(layer.zPosition, 0)
        XCTAssertEqual(layer.shadowOpacity, 0)
        XCTAssertEqual(layer.shadowRadius, 3)
        XCTAssertEqual(layer.shadowOffset, CGSize(width: 0, height: -3))
        assertColor(layer.shadowColor, [0, 0, 0, 1], "shadowColor is opaque black")
        XCTAssertNil(layer.backgroundColor)
        XCTAssertNil(layer.shadowPath)
        XCTAssertNil(layer.contents)
        XCTAssertNil(layer.mask)
        assertTransform(layer.transform, CATransform3DIdentity)
        assertTransform(layer.sublayerTransform, CATransform3DIdentity)
        XCTAssertFalse(layer.isHidden)
        XCTAssertFalse(layer.masksToBounds)
        XCTAssertTrue(layer.isDoubleSided)
        XCTAssertEqual(layer.cornerRadius, 0)
        XCTAssertEqual(layer.borderWidth, 0)
        XCTAssertEqual(layer.speed, 1)
        XCTAssertEqual(layer.beginTime, 0)
        XCTAssertEqual(layer.timeOffset, 0)
        XCTAssertEqual(layer.fillMode, .removed)
        XCTAssertTrue(layer.sublayers?.isEmpty ?? true)
        XCTAssertNil(layer.delegate)
        XCTAssertNil(layer.actions)
        XCTAssertNil(layer.style)
        XCTAssertEqual(animationKeys(of: layer), [])
    }

    func test_shapeLayerStrokeDefaults() {
        let shape = CAShapeLayer()
        XCTAssertEqual(shape.strokeStart, 0)
        XCTAssertEqual(shape.strokeEnd, 1)
        XCTAssertEqual(shape.lineWidth, 1)
        assertColor(shape.fillColor, [0, 0, 0, 1], "fillColor is opaque black")
        XCTAssertNil(shape.strokeColor)
        XCTAssertNil(shape.path)
        XCTAssertEqual(shape.opacity, 1, "and a CALayer's defaults")
    }

    func test_animationDefaults() {
        let animation = CABasicAnimation(keyPath: "opacity")
        XCTAssertEqual(animation.keyPath, "opacity")
        XCTAssertNil(animation.fromValue)
        XCTAssertNil(animation.toValue)
        XCTAssertNil(animation.byValue)
        XCTAssertEqual(animation.duration, 0)
        XCTAssertEqual(animation.beginTime, 0)
        XCTAssertEqual(animation.speed, 1)
        XCTAssertEqual(animation.timeOffset, 0)
        XCTAssertEqual(animation.repeatCount, 0)
        XCTAssertFalse(animation.autoreverses)
        XCTAssertEqual(animation.fillMode, .removed)
        XCTAssertTrue(animation.isRemovedOnCompletion)
        XCTAssertFalse(animation.isAdditive)
        XCTAssertFalse(animation.isCumulative)
        XCTAssertNil(animation.timingFunction)
        XCTAssertNil(animation.delegate)

        let transition = CATransition()
        XCTAssertEqual(transition.type, .fade)
        XCTAssertEqual(transition.startProgress, 0)
        XCTAssertEqual(transition.endProgress, 1)
    }
}

/// Key-value coding of a layer's own timing fields.
final class LayerTimingKeyValueTests: XCTestCase {
    func test_setValueForKeyFillMode_acceptsAFillMode() {
        let layer = CALayer()
        let d = StrataDiagnostics.capture { layer.setValue(CAMediaTimingFillMode.forwards, forKey: "fillMode") }
        XCTAssertTrue(d.isEmpty)
        XCTAssertEqual(layer.fillMode, .forwards)
        XCTAssertEqual(layer.value(forKey: "fillMode") as? CAMediaTimingFillMode, .forwards)
    }
}
