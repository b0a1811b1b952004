import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// SEMANTICS.md, "Custom keys": `defaultValue(forKey:)` gives the model value of an unset key,
/// and NSValue-wrapped points, sizes and rectangles are values (of custom keys and of
/// built-in properties).
final class CustomKeyValueTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    func test_defaultValueGivesTheModelOfAnUnsetKeyAndAnimationsStartThere() throws {
        let fade = CABasicAnimation()
        fade.duration = 1
        let scene = Scene(DefaultsLayer()) { $0.actions = ["progress": fade] }
        XCTAssertEqual(numericValue(scene.layer.value(forKey: "progress")) ?? .nan, 5)
        XCTAssertNil(scene.layer.value(forKey: "unlisted"))
        CATransaction.begin()
        scene.layer.setValue(9.0, forKey: "progress")
        CATransaction.commit()
        scene.frame(at: 0.5)
        XCTAssertEqual(numericValue(try scene.presented().value(forKey: "progress")) ?? .nan, 7, accuracy: 1e-9,
                       "from the default 5 to 9, half-way")
    }

    func test_nsValuePointOfACustomKeyAnimatesAndStaysAnNSValue() throws {
        let move = CABasicAnimation()
        move.duration = 1
        let scene = Scene(CALayer()) { layer in
            layer.setValue(NSValue(point: CGPoint(x: 0, y: 10)), forKey: "target")
            layer.actions = ["target": move]
        }
        CATransaction.begin()
        scene.layer.setValue(NSValue(point: CGPoint(x: 20, y: 30)), forKey: "target")
        CATransaction.commit()
        scene.frame(at: 0.5)
        let shown = try XCTUnwrap(try scene.presented().value(forKey: "target") as? NSValue)
        XCTAssertEqual(Double(shown.pointValue.x), 10, accuracy: 1e-9)
        XCTAssertEqual(Double(shown.pointValue.y), 20, accuracy: 1e-9)
    }

    func test_nsValueFitsBuiltInPropertiesAndAnimationValues() throws {
        let scene = Scene(CALayer())
        withActionsDisabled {
            scene.layer.setValue(NSValue(point: CGPoint(x: 4, y: 8)), forKeyPath: "position")
            scene.layer.setValue(NSValue(rect: CGRect(x: 0, y: 0, width: 30, height: 40)), forKeyPath: "bounds")
        }
        XCTAssertEqual(scene.layer.position, CGPoint(x: 4, y: 8))
        XCTAssertEqual(scene.layer.bounds.size, CGSize(width: 30, height: 40))
        let a = CABasicAnimation(keyPath: "position")
        a.fromValue = NSValue(point: CGPoint(x: 0, y: 0))
        a.toValue = NSValue(point: CGPoint(x: 100, y: 50))
        a.duration = 1
        CATransaction.begin()
        scene.layer.add(a, forKey: "move")
        CATransaction.commit()
        scene.frame(at: 0.5)
        XCTAssertEqual(Double(try scene.presented().position.x), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(try scene.presented().position.y), 25, accuracy: 1e-9)
    }

    func test_nsNumberIsNotTakenForAPoint() {
        let layer = CALayer()
        withActionsDisabled { layer.setValue(NSNumber(value: 3), forKeyPath: "position") }
        XCTAssertEqual(layer.position, .zero, "a number does not fit a point: refused, unchanged")
    }
}

private final class DefaultsLayer: CALayer {
    override class func defaultValue(forKey key: String) -> Any? {
        key == "progress" ? 5.0 : super.defaultValue(forKey: key)
    }
}

extension CustomKeyValueTests {
    /// Many custom-key animations removed and added again: the ones left keep their values
    /// (the engine's per-frame list of them loses holes in bulk).
    func test_manyCustomKeyAnimations_removedAndAddedAgain_keepTheirValues() throws {
        let root = CALayer()
        let layers = (0..<120).map { _ in CALayer() }
        withActionsDisabled { for l in layers { root.addSublayer(l) } }
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        func add(_ l: CALayer, _ i: Int, key: String) {
            let a = CABasicAnimation(keyPath: key)
            a.fromValue = Double(i)
            a.toValue = Double(i) + 10
            a.duration = 10
            l.add(a, forKey: key)
        }
        inTransaction { for (i, l) in layers.enumerated() { add(l, i, key: "level") } }
        renderer.renderFrame(atTime: 1)
        inTransaction { for (i, l) in layers.enumerated() where i % 4 != 0 { l.removeAnimation(forKey: "level") } }
        inTransaction { for (i, l) in layers.enumerated() where i % 8 == 1 { add(l, 1000 + i, key: "gauge") } }
        renderer.renderFrame(atTime: 2)
        for (i, l) in layers.enumerated() {
            let p = try XCTUnwrap(l.presentation())
            if i % 4 == 0 {
                XCTAssertEqual(p.value(forKey: "level") as? Double ?? -1, Double(i) + 2, accuracy: 1e-9, "layer \(i)")
            } else {
                XCTAssertNil(p.value(forKey: "level"), "layer \(i): removed, no model value")
            }
            if i % 8 == 1 {
                XCTAssertEqual(p.value(forKey: "gauge") as? Double ?? -1, Double(1000 + i) + 1, accuracy: 1e-9, "layer \(i)")
            }
        }
    }
}
