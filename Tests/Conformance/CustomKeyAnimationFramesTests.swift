import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// Custom-key animations frame after frame (SEMANTICS.md, "Custom keys"): one animation of a
/// key, a second one joining it (additive or replacing), one of them removed, replaced by a
/// new one, repeated cumulatively, and many layers animating at once, each removed in turn.
/// The values shown must follow whichever way the engine evaluates them.
final class CustomKeyAnimationFramesTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private func basic(_ key: String, from: Any?, to: Any?, duration: Double = 1, additive: Bool = false) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: key)
        a.fromValue = from
        a.toValue = to
        a.duration = duration
        a.isAdditive = additive
        a.timingFunction = CAMediaTimingFunction(name: .linear)
        return a
    }

    private func shown(_ scene: Scene<CALayer>, _ key: String) throws -> Double {
        try XCTUnwrap(numericValue(try scene.presented().value(forKey: key)), "\(key) shown")
    }

    func test_oneAnimation_everyFrame_thenTheModel() throws {
        let scene = Scene(CALayer()) { $0.setValue(3.0, forKey: "level") }
        inTransaction { scene.layer.add(basic("level", from: 0.0, to: 10.0), forKey: "a") }
        for t in [0.1, 0.25, 0.5, 0.75, 0.9] {
            scene.frame(at: t)
            XCTAssertEqual(try shown(scene, "level"), 10 * t, accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertTrue(try scene.presented().value(forKey: "level") is Double, "shown as the model's type")
        scene.frame(at: 1.5)
        XCTAssertEqual(try shown(scene, "level"), 3, accuracy: 1e-12, "finished: the model value")
    }

    func test_aSecondAnimationJoinsAndLeaves_theValueFollowsBoth() throws {
        let scene = Scene(CALayer()) { $0.setValue(0.0, forKey: "level") }
        inTransaction { scene.layer.add(basic("level", from: 0.0, to: 10.0, duration: 2), forKey: "base") }
        scene.frame(at: 0.5)
        XCTAssertEqual(try shown(scene, "level"), 2.5, accuracy: 1e-9)
        inTransaction { scene.layer.add(basic("level", from: 0.0, to: 100.0, additive: true), forKey: "extra") }
        scene.frame(at: 0.75)
        // base at 0.75 / 2 of 10, plus the additive one at 0.25 of 100.
        XCTAssertEqual(try shown(scene, "level"), 3.75 + 25, accuracy: 1e-9)
        scene.layer.removeAnimation(forKey: "extra")
        scene.frame(at: 1)
        XCTAssertEqual(try shown(scene, "level"), 5, accuracy: 1e-9, "the first one alone again")
        scene.frame(at: 1.5)
        XCTAssertEqual(try shown(scene, "level"), 7.5, accuracy: 1e-9)
    }

    func test_aLaterReplacingAnimationWins_andTheFirstShowsAgainWhenItGoes() throws {
        let scene = Scene(CALayer()) { $0.setValue(0.0, forKey: "level") }
        inTransaction { scene.layer.add(basic("level", from: 0.0, to: 10.0, duration: 2), forKey: "first") }
        scene.frame(at: 0.5)
        inTransaction { scene.layer.add(basic("level", from: 50.0, to: 60.0), forKey: "second") }
        scene.frame(at: 1)
        XCTAssertEqual(try shown(scene, "level"), 55, accuracy: 1e-9, "the later one replaces")
        scene.layer.removeAnimation(forKey: "second")
        scene.frame(at: 1.2)
        XCTAssertEqual(try shown(scene, "level"), 6, accuracy: 1e-9)
        scene.layer.removeAnimation(forKey: "first")
        scene.frame(at: 1.3)
        XCTAssertEqual(try shown(scene, "level"), 0, accuracy: 1e-12, "none left: the model")
    }

    func test_sameKeyReplaced_theNewAnimationRunsFromItsOwnValues() throws {
        let scene = Scene(CALayer()) { $0.setValue(0.0, forKey: "level") }
        inTransaction { scene.layer.add(basic("level", from: 0.0, to: 10.0), forKey: "a") }
        scene.frame(at: 0.5)
        inTransaction { scene.layer.add(basic("level", from: 20.0, to: 40.0), forKey: "a") }
        for (t, v) in [(0.75, 25.0), (1.0, 30.0), (1.25, 35.0)] {
            scene.frame(at: t)
            XCTAssertEqual(try shown(scene, "level"), v, accuracy: 1e-9, "t = \(t)")
        }
    }

    func test_cumulativeRepeats_addEachIteration() throws {
        let scene = Scene(CALayer()) { $0.setValue(0.0, forKey: "level") }
        let a = basic("level", from: 0.0, to: 10.0)
        a.isCumulative = true
        a.repeatCount = 3
        inTransaction { scene.layer.add(a, forKey: "a") }
        for (t, v) in [(0.5, 5.0), (1.5, 15.0), (2.25, 22.5)] {
            scene.frame(at: t)
            XCTAssertEqual(try shown(scene, "level"), v, accuracy: 1e-9, "t = \(t)")
        }
    }

    func test_wideValues_gradientColours_manyLayers_eachRemovedInTurn() throws {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let gradients = (0..<20).map { _ in CAGradientLayer() }
        withActionsDisabled {
            for g in gradients { g.colors = [red, red]; root.addSublayer(g) }
        }
        renderer.renderFrame(atTime: 0)
        inTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            for g in gradients { g.colors = [blue, red] }
        }
        func firstRed(_ g: CAGradientLayer) throws -> Double {
            let c = try XCTUnwrap(g.presentation()?.colors?.first as! CGColor?)
            return Double(try XCTUnwrap(c.components)[0])
        }
        renderer.renderFrame(atTime: 0.25)
        for g in gradients { XCTAssertEqual(try firstRed(g), 0.75, accuracy: 1e-9) }
        // Remove every third layer's animation: the others keep theirs.
        for (i, g) in gradients.enumerated() where i % 3 == 0 { g.removeAllAnimations() }
        renderer.renderFrame(atTime: 0.5)
        for (i, g) in gradients.enumerated() {
            XCTAssertEqual(try firstRed(g), i % 3 == 0 ? 0 : 0.5, accuracy: 1e-9, "layer \(i)")
            let second = try XCTUnwrap(g.presentation()?.colors?.last as! CGColor?)
            XCTAssertEqual(Double(try XCTUnwrap(second.components)[0]), 1, accuracy: 1e-12, "red stays red")
        }
        XCTAssertTrue(gradients[1].presentation()?.colors is [CGColor], "an array of colours, as set")
        renderer.renderFrame(atTime: 2)
        for g in gradients { XCTAssertEqual(try firstRed(g), 0, accuracy: 1e-12, "finished: the model's blue") }
    }

    func test_pendingAnimation_showsNothingUntilItBegins() throws {
        let scene = Scene(CALayer()) { $0.setValue(1.0, forKey: "level") }
        let a = basic("level", from: 10.0, to: 20.0)
        a.beginTime = 1
        inTransaction { scene.layer.add(a, forKey: "a") }
        scene.frame(at: 0.5)
        XCTAssertEqual(try shown(scene, "level"), 1, accuracy: 1e-12, "before its begin time: the model")
        scene.frame(at: 1.5)
        XCTAssertEqual(try shown(scene, "level"), 15, accuracy: 1e-9)
        scene.frame(at: 1.75)
        XCTAssertEqual(try shown(scene, "level"), 17.5, accuracy: 1e-9)
    }

    /// Seed 2500000078051 (differential fuzz): an additive animation with fewer elements than
    /// the value so far adds to the elements it has; the others stay.
    func test_additiveArrayShorterThanTheValueSoFar_leavesTheRestAsTheyAre() throws {
        let scene = Scene(CALayer())   // no model value: each animation's values give its width
        inTransaction {
            scene.layer.add(basic("levels", from: [10.0, 20.0, 30.0], to: [10.0, 20.0, 30.0]), forKey: "base")
            scene.layer.add(basic("levels", from: [1.0, 1.0], to: [3.0, 3.0], additive: true), forKey: "add")
        }
        scene.frame(at: 0.5)
        let shown = try XCTUnwrap(try scene.presented().value(forKey: "levels") as? [Double])
        XCTAssertEqual(shown, [12, 22, 30], "two elements added to, the third as the base animation has it")
    }
}

