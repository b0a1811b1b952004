import XCTest
@_spi(Benchmarks) @testable import Strata

/// An engine at its capacity limits refuses cleanly: a new layer is inert and says so, an
/// animation is not added and says so, an implicit change applies without its animation; the
/// engine keeps working once there is room again. (The limits are lowered here; the defaults
/// are what Int32 indices allow, and `strata-bench limits` runs 10 million of each.)
final class CapacityTests: XCTestCase {
    func test_layersPastTheLimitAreInertWithADiagnosticNamingIt() {
        onFreshEngine {
            StrataEngine.capacityLimits = CapacityLimits(layers: 10, animations: 1_000)
            let root = CALayer()
            var layers = (0..<9).map { _ in CALayer() }
            XCTAssertEqual(StrataEngine.layerCount, 10)
            var extra: CALayer?
            let d = StrataDiagnostics.capture { extra = CALayer() }
            XCTAssertEqual(d.map(\.code), [.outOfCapacity])
            XCTAssertTrue(d[0].message.contains("at most 10 layers"), d[0].message)
            XCTAssertEqual(StrataEngine.layerCount, 10, "no row was taken")
            let inert = extra!
            XCTAssertEqual(inert.opacity, 1, "an inert layer reads the defaults")
            let refused = StrataDiagnostics.capture {
                inert.opacity = 0.5
                root.addSublayer(inert)
            }
            XCTAssertEqual(refused.count, 2)
            XCTAssertNil(root.sublayers)
            XCTAssertEqual(inert.opacity, 1)
            // Room again: a new layer is a real one.
            layers.removeLast()
            let again = CALayer()
            root.addSublayer(again)
            XCTAssertTrue(again.superlayer === root)
            XCTAssertEqual(StrataEngine.layerCount, 10)
            withExtendedLifetime(layers) {}
        }
    }

    func test_animationsPastTheLimitAreRefusedAndChangesStillApply() {
        onFreshEngine {
            StrataEngine.capacityLimits = CapacityLimits(layers: 1_000, animations: 5)
            let root = CALayer()
            let layers = (0..<8).map { _ in CALayer() }
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for l in layers { root.addSublayer(l) }
            CATransaction.commit()
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            let d = StrataDiagnostics.capture {
                CATransaction.begin()
                CATransaction.setAnimationDuration(1)
                for l in layers { l.opacity = 0 }   // 5 animate, 3 only change
                CATransaction.commit()
            }
            XCTAssertEqual(d.map(\.code), [.outOfCapacity], "one report per transaction")
            XCTAssertTrue(d[0].message.contains("at most 5 running animations"), d[0].message)
            XCTAssertEqual(StrataEngine.activeAnimationCount, 5)
            XCTAssertTrue(layers.allSatisfy { $0.opacity == 0 }, "every model value changed")
            let explicit = CABasicAnimation(keyPath: "position.x")
            explicit.fromValue = 0.0
            explicit.toValue = 1.0
            let e = StrataDiagnostics.capture { layers[7].add(explicit, forKey: "x") }
            XCTAssertEqual(e.map(\.code), [.outOfCapacity])
            XCTAssertNil(layers[7].animationKeys())
            r.renderFrame(atTime: 0.5)
            XCTAssertGreaterThan(layers[0].presentation()!.opacity, 0)
            XCTAssertEqual(layers[7].presentation()!.opacity, 0, "no animation: the model value")
            r.renderFrame(atTime: 1.5)
            XCTAssertEqual(StrataEngine.activeAnimationCount, 0)
            layers[7].add(explicit, forKey: "x")   // room again
            XCTAssertEqual(layers[7].animationKeys(), ["x"])
        }
    }
}
