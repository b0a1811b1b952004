import XCTest
@testable import Strata

/// The literal constants the lookup's hot path reads instead of the table (no lazy global on
/// that path) must say what the table says, row by row.
final class PropertyTableTests: XCTestCase {
    /// The well-known keys' fixed ids (literals after the built-in names) name their keys both
    /// ways, and a key interned later gets an id after them.
    func test_wellKnownKeysHaveTheirFixedIds() {
        let fixed: [(PropertyID, String)] = [
            (KeyInterner.onOrderIn, "onOrderIn"), (KeyInterner.onOrderOut, "onOrderOut"),
            (KeyInterner.transition, "transition"), (KeyInterner.contentsCenter, "contentsCenter"),
            (KeyInterner.rasterizationScale, "rasterizationScale"),
        ]
        for (id, name) in fixed {
            XCTAssertEqual(KeyInterner.id(name), id, name)
            XCTAssertEqual(KeyInterner.name(id), name)
            XCTAssertFalse(id.isBuiltIn, name)
        }
        XCTAssertEqual(Set(fixed.map(\.0.raw)), Set((0..<5).map { Int32(PropertyTable.count + $0) }))
        let later = KeyInterner.id("strataWellKnownKeysTestKey")
        XCTAssertGreaterThan(later.raw, KeyInterner.rasterizationScale.raw)
        XCTAssertEqual(KeyInterner.name(later), "strataWellKnownKeysTestKey")
    }

    /// Step 5 answers every id below 64 by bit tests: the well-known keys and custom keys that
    /// took ids there have no action, but for the two keyed values that animate; ids past 64
    /// have none either. Each strategy agrees through `action(forKey:)`.
    func test_stepFiveForWellKnownAndCustomIds() {
        let layer = CALayer()
        let custom = (0..<24).map { "strataStepFiveKey\($0)" }
        let ids = (["onOrderIn", "onOrderOut", "transition", "contentsCenter", "rasterizationScale"] + custom)
            .map { ($0, KeyInterner.id($0)) }
        XCTAssertTrue(ids.contains { $0.1.raw > 64 }, "the custom keys reach past id 64")
        for (name, id) in ids {
            let animates = name == "contentsCenter" || name == "rasterizationScale"
            switch builtInOutcome(layer, id, flags: 0) {
            case .action(let a): XCTAssertTrue(animates && a === ToolboxImplicitAction.shared, name)
            case .none: XCTAssertFalse(animates, name)
            case .builtIn: XCTFail("\(name): a built-in action for a keyed value")
            }
            XCTAssertEqual(layer.action(forKey: name) != nil, animates, name)
        }
        XCTAssertNil(layer.action(forKey: "onOrderIn"))
    }

    func test_literalMasksAgreeWithTheTable() {
        let rows = PropertyTable.rows
        XCTAssertEqual(PropertyTable.count, rows.count)
        for (i, row) in rows.enumerated() {
            let bit = UInt64(1) << UInt64(i)
            XCTAssertEqual(PropertyTable.shapeOnlyBits & bit != 0, row.shapeOnly, row.name)
            XCTAssertEqual(PropertyTable.noActionBits & bit != 0, row.action == .none, row.name)
            XCTAssertEqual(PropertyTable.transitionBits & bit != 0, row.action == .transition, row.name)
        }
        XCTAssertEqual(KeyInterner.implicitKeyedBits,
                       1 << UInt64(KeyInterner.contentsCenter.raw) | 1 << UInt64(KeyInterner.rasterizationScale.raw))
        // Spot checks against SEMANTICS.md's table.
        XCTAssertNotEqual(PropertyTable.transitionBits & (1 << UInt64(KeyInterner.id("contents").raw)), 0)
        XCTAssertNotEqual(PropertyTable.noActionBits & (1 << UInt64(KeyInterner.id("doubleSided").raw)), 0)
        XCTAssertNotEqual(PropertyTable.shapeOnlyBits & (1 << UInt64(KeyInterner.id("strokeEnd").raw)), 0)
        XCTAssertEqual(PropertyTable.noActionBits & (1 << UInt64(KeyInterner.id("opacity").raw)), 0)
    }

    func test_builtInOutcomesFollowTheMasks() {
        let plain = CALayer()
        let shape = CAShapeLayer()
        func kind(_ layer: CALayer, _ key: String) -> String {
            switch InternedLookup().lookup(layer, KeyInterner.id(key)) {
            case .none: return "none"
            case .builtIn(let a): return "\(a)"
            case .action: return "action"
            }
        }
        XCTAssertEqual(kind(plain, "opacity"), "basic")
        XCTAssertEqual(kind(plain, "contents"), "transition")
        XCTAssertEqual(kind(plain, "doubleSided"), "none")
        XCTAssertEqual(kind(plain, "strokeEnd"), "none", "shape-only property on a plain layer")
        XCTAssertEqual(kind(shape, "strokeEnd"), "basic")
        XCTAssertEqual(kind(plain, "myCustomKey"), "none")
        XCTAssertEqual(kind(plain, "beginTime"), "none")
    }
}
