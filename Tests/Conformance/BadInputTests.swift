import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// Bad input (API.md, SEMANTICS.md "commit() without a matching begin()"): each gets exactly one
/// diagnostic with the right code, and nothing else changes — no model value, no animation, no
/// action, no tree edge, no transaction state.
final class BadInputTests: XCTestCase {
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

    private func fade(from: Double, to: Double) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.fromValue = from
        animation.toValue = to
        animation.duration = 1
        return animation
    }

    // MARK: Values of the wrong type

    func test_pointToValueOnOpacityIsNotAdded() throws {
        let scene = Scene(CALayer())
        inTransaction { scene.layer.add(fade(from: 0, to: 0.5), forKey: "keep") }

        let bad = CABasicAnimation(keyPath: "opacity")
        bad.toValue = CGPoint(x: 1, y: 2)
        bad.duration = 1
        let diagnostics = StrataDiagnostics.capture {
            inTransaction { scene.layer.add(bad, forKey: "bad") }
        }

        assertOneDiagnostic(diagnostics, .wrongValueType, "CGPoint for opacity")
        XCTAssertEqual(animationKeys(of: scene.layer), ["keep"], "animationKeys unchanged")
        XCTAssertNil(scene.layer.animation(forKey: "bad"))
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.25, accuracy: 1e-6, "only the good animation runs")
        XCTAssertEqual(scene.layer.opacity, 1)
    }

    func test_wrongTypeUnderAKeyInUseDoesNotReplaceTheRunningAnimation() throws {
        let scene = Scene(CALayer())
        let recorder = AnimationEventRecorder()
        let good = fade(from: 0, to: 0.5)
        good.delegate = recorder
        inTransaction { scene.layer.add(good, forKey: "fade") }

        let bad = CABasicAnimation(keyPath: "opacity")
        bad.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let diagnostics = StrataDiagnostics.capture {
            inTransaction { scene.layer.add(bad, forKey: "fade") }
        }

        assertOneDiagnostic(diagnostics, .wrongValueType, "CGColor for opacity")
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().opacity), 0.25, accuracy: 1e-6)
        XCTAssertEqual(recorder.stops, [], "the running animation was not replaced")
        XCTAssertEqual(animationKeys(of: scene.layer), ["fade"])
    }

    func test_wrongTypeInFromOrByValueIsNotAdded() {
        let scene = Scene(CALayer())
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        move.toValue = CGPoint(x: 5, y: 5)
        let round = CABasicAnimation(keyPath: "cornerRadius")
        round.byValue = CGSize(width: 1, height: 1)

        let moveDiagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(move, forKey: "move") } }
        let roundDiagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(round, forKey: "round") } }

        assertOneDiagnostic(moveDiagnostics, .wrongValueType, "CGColor for position")
        assertOneDiagnostic(roundDiagnostics, .wrongValueType, "CGSize for cornerRadius")
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    // MARK: Values that are not finite

    func test_nonFinitePropertyValueKeepsTheOldModelValue() throws {
        let action = RecordingAction()
        let scene = Scene(CALayer()) { layer in
            layer.opacity = 0.8
            layer.position = CGPoint(x: 1, y: 2)
            layer.cornerRadius = 3
            layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            layer.actions = ["opacity": action]
        }
        let layer = scene.layer

        assertOneDiagnostic(StrataDiagnostics.capture { layer.opacity = .nan }, .nonFiniteValue, "opacity = nan")
        assertOneDiagnostic(StrataDiagnostics.capture { layer.position = CGPoint(x: CGFloat.nan, y: 0) }, .nonFiniteValue,
                            "position.x = nan")
        assertOneDiagnostic(StrataDiagnostics.capture { layer.cornerRadius = .infinity }, .nonFiniteValue,
                            "cornerRadius = inf")
        assertOneDiagnostic(StrataDiagnostics.capture {
            layer.bounds = CGRect(x: 0, y: 0, width: -CGFloat.infinity, height: 1)
        }, .nonFiniteValue, "bounds.width = -inf")
        assertOneDiagnostic(StrataDiagnostics.capture {
            layer.setValue(NSNumber(value: Double.nan), forKey: "shadowOpacity")
        }, .nonFiniteValue, "setValue(nan, forKey: shadowOpacity)")

        XCTAssertEqual(layer.opacity, 0.8)
        XCTAssertEqual(layer.position, CGPoint(x: 1, y: 2))
        XCTAssertEqual(layer.cornerRadius, 3)
        XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(layer.shadowOpacity, 0)
        XCTAssertEqual(action.events, [], "a rejected change runs no action")
        scene.frame(at: 1)
        XCTAssertEqual(animationKeys(of: layer), [])
        let presented = try scene.presented()
        XCTAssertEqual(Double(presented.opacity), 0.8, accuracy: 1e-6)
        assertPoint(presented.position, 1, 2)
    }

    /// A transform is checked and written as 16 lanes: a non-finite entry anywhere (the last
    /// one too) refuses the whole value, and a finite one is written whole.
    func test_transformWithANonFiniteEntryAnywhereKeepsTheWholeOldTransform() throws {
        let scene = Scene(CALayer()) { layer in layer.transform = CATransform3DMakeScale(2, 3, 1) }
        let layer = scene.layer
        var lastNaN = CATransform3DMakeTranslation(5, 6, 7)
        lastNaN.m44 = .nan
        assertOneDiagnostic(StrataDiagnostics.capture { layer.transform = lastNaN }, .nonFiniteValue, "transform.m44 = nan")
        var infinite = CATransform3DIdentity
        infinite.m12 = -.infinity
        assertOneDiagnostic(StrataDiagnostics.capture { layer.transform = infinite }, .nonFiniteValue, "transform.m12 = -inf")
        XCTAssertTrue(CATransform3DEqualToTransform(layer.transform, CATransform3DMakeScale(2, 3, 1)))

        let c = (1...16).map { CGFloat($0) / 4 }
        let every = CATransform3D(m11: c[0], m12: c[1], m13: c[2], m14: c[3], m21: c[4], m22: c[5], m23: c[6], m24: c[7],
                                  m31: c[8], m32: c[9], m33: c[10], m34: c[11], m41: c[12], m42: c[13], m43: c[14], m44: c[15])
        layer.transform = every
        let t = layer.transform
        XCTAssertEqual([t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                        t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44], c)
        scene.frame(at: 10)   // the implicit transaction commits here: its animation starts at 10
        scene.frame(at: 11)
        let p = try scene.presented().transform
        XCTAssertEqual([p.m11, p.m12, p.m13, p.m14, p.m21, p.m22, p.m23, p.m24,
                        p.m31, p.m32, p.m33, p.m34, p.m41, p.m42, p.m43, p.m44], c)
    }

    func test_nonFiniteAnimationValueIsNotAdded() {
        let scene = Scene(CALayer())
        let fadeToNaN = CABasicAnimation(keyPath: "opacity")
        fadeToNaN.toValue = Double.nan
        let moveToInfinity = CABasicAnimation(keyPath: "position")
        moveToInfinity.toValue = CGPoint(x: CGFloat.infinity, y: 0)
        let roundFromMinusInfinity = CABasicAnimation(keyPath: "cornerRadius")
        roundFromMinusInfinity.fromValue = -Double.infinity
        roundFromMinusInfinity.toValue = 4.0

        for (animation, key) in [(fadeToNaN, "fade"), (moveToInfinity, "move"), (roundFromMinusInfinity, "round")] {
            let diagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(animation, forKey: key) } }
            assertOneDiagnostic(diagnostics, .nonFiniteValue, key)
        }
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    // MARK: Unknown key paths

    func test_unknownKeyPathInValueForKeyPathReturnsNil() {
        let layer = CALayer()
        var value: Any? = "unset"
        assertOneDiagnostic(StrataDiagnostics.capture { value = layer.value(forKeyPath: "position.z") },
                            .unknownKeyPath, "position.z")
        XCTAssertNil(value)
        value = "unset"
        assertOneDiagnostic(StrataDiagnostics.capture { value = layer.value(forKeyPath: "bounds.size.depth") },
                            .unknownKeyPath, "bounds.size.depth")
        XCTAssertNil(value)
    }

    func test_unknownKeyPathInSetValueForKeyPathChangesNothing() {
        let delegate = ClosureLayerDelegate { _, _ in nil }
        let scene = Scene(CALayer()) { layer in
            layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
            layer.position = CGPoint(x: 3, y: 4)
        }
        scene.layer.delegate = delegate

        assertOneDiagnostic(StrataDiagnostics.capture { scene.layer.setValue(CGFloat(5), forKeyPath: "bounds.size.depth") },
                            .unknownKeyPath, "bounds.size.depth")
        assertOneDiagnostic(StrataDiagnostics.capture { scene.layer.setValue(NSNumber(value: 5), forKeyPath: "position.z") },
                            .unknownKeyPath, "position.z")

        XCTAssertEqual(scene.layer.bounds, CGRect(x: 0, y: 0, width: 10, height: 20))
        XCTAssertEqual(scene.layer.position, CGPoint(x: 3, y: 4))
        XCTAssertEqual(delegate.askedKeys, [], "no action was looked up for a rejected change")
        scene.frame(at: 1)
        XCTAssertEqual(animationKeys(of: scene.layer), [])
    }

    func test_unknownKeyPathInAnimationIsNotAdded() {
        let scene = Scene(CALayer())
        let animation = CABasicAnimation(keyPath: "position.z")
        animation.fromValue = 0.0
        animation.toValue = 1.0
        let diagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(animation, forKey: "lift") } }
        assertOneDiagnostic(diagnostics, .unknownKeyPath, "animation on position.z")
        XCTAssertEqual(animationKeys(of: scene.layer), [])
        XCTAssertNil(scene.layer.animation(forKey: "lift"))
    }

    // MARK: Layer cycles

    func test_addingLayerToItselfIsRejected() {
        let scene = Scene(CALayer())
        let diagnostics = StrataDiagnostics.capture { scene.layer.addSublayer(scene.layer) }
        assertOneDiagnostic(diagnostics, .layerCycle, "addSublayer(self)")
        XCTAssertEqual(scene.layer.sublayers?.count ?? 0, 0)
        XCTAssertEqual(scene.root.sublayers?.count, 1)
        XCTAssertIdentical(scene.root.sublayers?.first, scene.layer, "still where it was")
        scene.frame(at: 1)  // and the tree can still be rendered
    }

    func test_addingAncestorToItsDescendantIsRejected() {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let middle = CALayer(), leaf = CALayer()
        let orderOut = RecordingAction(), orderIn = RecordingAction()
        withActionsDisabled {
            root.addSublayer(middle)
            middle.addSublayer(leaf)
            middle.actions = [kCAOnOrderOut: orderOut, kCAOnOrderIn: orderIn]
        }
        renderer.renderFrame(atTime: 0)

        assertOneDiagnostic(StrataDiagnostics.capture { leaf.addSublayer(middle) }, .layerCycle, "leaf.addSublayer(middle)")
        assertOneDiagnostic(StrataDiagnostics.capture { leaf.insertSublayer(root, at: 0) }, .layerCycle,
                            "leaf.insertSublayer(root, at: 0)")
        assertOneDiagnostic(StrataDiagnostics.capture { middle.insertSublayer(middle, at: 0) }, .layerCycle,
                            "middle.insertSublayer(middle, at: 0)")

        XCTAssertEqual(root.sublayers?.count, 1)
        XCTAssertIdentical(root.sublayers?.first, middle)
        XCTAssertEqual(middle.sublayers?.count, 1)
        XCTAssertIdentical(middle.sublayers?.first, leaf)
        XCTAssertEqual(leaf.sublayers?.count ?? 0, 0)
        XCTAssertEqual(orderOut.events + orderIn.events, [], "the rejected move ordered nothing out or in")
        renderer.renderFrame(atTime: 1)
        XCTAssertNotNil(leaf.presentation())
    }

    // MARK: commit() without begin()

    func test_commitWithoutBeginIsDiagnosedAndLaterPairsWork() throws {
        let scene = Scene(CALayer())
        assertOneDiagnostic(StrataDiagnostics.capture { CATransaction.commit() }, .unbalancedCommit, "commit() alone")

        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        XCTAssertEqual(CATransaction.animationDuration(), 2)
        scene.layer.opacity = 0
        CATransaction.commit()
        scene.frame(at: 1)
        XCTAssertEqual(Double(try scene.presented().opacity), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: 0.5)),
                       accuracy: 1e-6, "a 2 s animation committed at 0")
    }

    func test_commitWithoutBeginLeavesTheOpenImplicitTransactionUntouched() throws {
        let scene = Scene(CALayer())
        scene.layer.opacity = 0  // opens the implicit transaction
        assertOneDiagnostic(StrataDiagnostics.capture { CATransaction.commit() }, .unbalancedCommit,
                            "commit() with only the implicit transaction open")

        scene.frame(at: 1)  // the implicit transaction is committed here, not by the stray commit at 0
        XCTAssertEqual(Double(try scene.presented().opacity), 1, accuracy: 1e-6)
        scene.frame(at: 1.125)
        XCTAssertEqual(Double(try scene.presented().opacity), lerp(1, 0, ReferenceCurve.caDefault.progress(atFraction: 0.5)),
                       accuracy: 1e-6)
    }

    func test_extraCommitAfterNestedPairsLeavesDefaultsIntact() {
        let scene = Scene(CALayer())
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.begin()
        CATransaction.setAnimationDuration(5)
        CATransaction.commit()
        CATransaction.commit()
        assertOneDiagnostic(StrataDiagnostics.capture { CATransaction.commit() }, .unbalancedCommit, "third commit")
        assertOneDiagnostic(StrataDiagnostics.capture { CATransaction.commit() }, .unbalancedCommit, "fourth commit")

        CATransaction.begin()
        XCTAssertFalse(CATransaction.disableActions())
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        scene.layer.opacity = 0.5
        CATransaction.commit()
        XCTAssertEqual(animationKeys(of: scene.layer), ["opacity"])
    }

    // MARK: Good input stays quiet

    func test_validInputProducesNoDiagnostics() {
        let diagnostics = StrataDiagnostics.capture {
            let scene = Scene(CALayer())
            scene.layer.opacity = 0.5
            scene.layer.setValue(CGFloat(20), forKeyPath: "bounds.size.width")
            _ = scene.layer.value(forKeyPath: "position.x")
            let move = CABasicAnimation(keyPath: "position")
            move.toValue = CGPoint(x: 10, y: 10)
            inTransaction { scene.layer.add(move, forKey: "move") }
            let child = CALayer()
            scene.layer.addSublayer(child)
            child.removeFromSuperlayer()
            scene.frame(at: 1)
        }
        XCTAssertEqual(codes(diagnostics), [])
    }
}
