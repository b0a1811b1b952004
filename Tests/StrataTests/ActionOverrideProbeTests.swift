@testable import Strata
import StrataOverrides
import XCTest

/// The per-class decision behind "one entry point": which classes override
/// `action(forKey:)`, read from their vtables. If the metadata could not be read, every
/// subclass would be asked (correct, but plain subclasses would lose the allocation-free
/// lookup): these tests make sure that fallback is not what runs here.
final class ActionOverrideProbeTests: XCTestCase {
    func test_probeReadsTheVtable() throws {
        let probe = try XCTUnwrap(ActionOverride.probe, "the class metadata layout was not recognised")
        XCTAssertGreaterThan(probe.slot, 7)
        XCTAssertFalse(probe.overrides(CALayer.self))
        XCTAssertFalse(probe.overrides(CAShapeLayer.self))
        XCTAssertFalse(probe.overrides(PlainSubclass.self))
        XCTAssertFalse(probe.overrides(DefaultActionOnly.self))
        XCTAssertTrue(probe.overrides(Overrides.self))
        XCTAssertTrue(probe.overrides(InheritsOverride.self))
        XCTAssertTrue(probe.overrides(ShapeOverrides.self))
        XCTAssertTrue(probe.overrides(GenericOverrides<Int>.self))
        XCTAssertFalse(probe.overrides(GenericPlain<Int>.self))
    }

    func test_layersOfOverridingClassesCarryTheFlag() {
        func flags(_ l: CALayer) -> UInt16 { l.engine.layers.flags[Int(l.row)] }
        XCTAssertEqual(flags(CALayer()) & (LayerFlags.overridesAction | LayerFlags.customClass), 0)
        XCTAssertEqual(flags(PlainSubclass()) & LayerFlags.overridesAction, 0)
        XCTAssertNotEqual(flags(PlainSubclass()) & LayerFlags.customClass, 0)
        XCTAssertNotEqual(flags(Overrides()) & LayerFlags.overridesAction, 0)
        XCTAssertNotEqual(flags(InheritsOverride()) & LayerFlags.overridesAction, 0)
    }
}

private class PlainSubclass: CALayer {
    var extra = 1
    override func removeAllAnimations() { extra += 1; super.removeAllAnimations() }
}
private final class DefaultActionOnly: CALayer {
    override class func defaultAction(forKey event: String) -> CAAction? { nil }
}
private class Overrides: CALayer {
    override func action(forKey event: String) -> CAAction? { super.action(forKey: event) }
}
private final class InheritsOverride: Overrides {}
private final class ShapeOverrides: CAShapeLayer {
    override func action(forKey event: String) -> CAAction? { nil }
}
private final class GenericOverrides<T>: CALayer {
    override func action(forKey event: String) -> CAAction? { nil }
}
private final class GenericPlain<T>: CALayer {}
