import XCTest
@testable import Strata

/// Basic animations of custom keys live in custom tracks: the only animation of a layer's key
/// writes its holder directly (not in the per-frame list of derived records); a second one
/// sends both to per-layer composition; back to one, the survivor is direct again. Values
/// must be the same either way, including after swap-removals moved slots.
final class CustomTrackTests: XCTestCase {
    private static func slotState(_ layer: CALayer, _ key: String) -> (direct: Bool, listed: Bool)? {
        let e = EngineContext.current, k = KeyInterner.id(key).raw
        var id = e.animations.firstOfLayer[Int(layer.row)]
        while id >= 0 {
            let r = e.animations.records[Int(id)]
            if r.kind == .custom, e.animations.derivedValues[id]?.customKey == k, r.track >= 0 {
                let t = e.animations.customTracks[Int(r.track)]
                return (t.flags[Int(r.slot)] & CustomTrack.direct != 0, e.animations.isListedDerived(id))
            }
            id = r.nextInLayer
        }
        return nil
    }

    private static func level(_ layer: CALayer) -> Double {
        (layer.presentation()?.value(forKey: "level") as? Double) ?? .nan
    }

    func test_soleAnimationIsDirect_secondDemotes_removalPromotes() {
        onFreshEngine {
            let root = CALayer(), layer = CALayer()
            let renderer = CARenderer(layer: root)
            withActionsDisabled {
                layer.setValue(0.0, forKey: "level")
                root.addSublayer(layer)
            }
            renderer.renderFrame(atTime: 0)
            let a = CABasicAnimation(keyPath: "level")
            a.fromValue = 0.0; a.toValue = 10.0; a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: .linear)
            inTransaction { layer.add(a, forKey: "a") }
            XCTAssertEqual(Self.slotState(layer, "level")?.direct, true)
            XCTAssertEqual(Self.slotState(layer, "level")?.listed, false, "not evaluated per record")
            renderer.renderFrame(atTime: 0.25)
            XCTAssertEqual(Self.level(layer), 2.5, accuracy: 1e-12)
            renderer.renderFrame(atTime: 0.5)
            XCTAssertEqual(Self.level(layer), 5, accuracy: 1e-12, "written through the holder")
            let b = CABasicAnimation(keyPath: "level")
            b.fromValue = 0.0; b.toValue = 100.0; b.duration = 1; b.isAdditive = true
            b.timingFunction = CAMediaTimingFunction(name: .linear)
            inTransaction { layer.add(b, forKey: "b") }
            let e = EngineContext.current
            XCTAssertEqual(e.animations.derivedRecords.filter { $0 >= 0 }.count, 2, "both composed per layer")
            renderer.renderFrame(atTime: 0.75)
            XCTAssertEqual(Self.level(layer), 7.5 + 25, accuracy: 1e-9)
            layer.removeAnimation(forKey: "b")
            XCTAssertEqual(Self.slotState(layer, "level")?.direct, true, "alone again: direct")
            XCTAssertEqual(e.animations.derivedRecords.filter { $0 >= 0 }.count, 0)
            renderer.renderFrame(atTime: 0.8)
            renderer.renderFrame(atTime: 0.9)
            XCTAssertEqual(Self.level(layer), 9, accuracy: 1e-9)
        }
    }

    func test_manySlots_swapRemovals_keepEachLayersValue() {
        onFreshEngine {
            let root = CALayer()
            let renderer = CARenderer(layer: root)
            let layers = (0..<37).map { _ in CALayer() }
            withActionsDisabled {
                for l in layers { l.setValue(0.0, forKey: "level"); root.addSublayer(l) }
            }
            renderer.renderFrame(atTime: 0)
            CATransaction.begin()
            for (i, l) in layers.enumerated() {
                let a = CABasicAnimation(keyPath: "level")
                a.fromValue = Double(i); a.toValue = Double(i) + 8; a.duration = 1
                a.timingFunction = CAMediaTimingFunction(name: .linear)
                l.add(a, forKey: "a")
            }
            CATransaction.commit()
            renderer.renderFrame(atTime: 0.25)
            for (i, l) in layers.enumerated() {
                XCTAssertEqual(Self.level(l), Double(i) + 2, accuracy: 1e-9, "layer \(i) at 0.25")
            }
            let removed = Set(stride(from: 0, to: 37, by: 5))
            for i in removed { layers[i].removeAnimation(forKey: "a") }
            let track = EngineContext.current.animations.customTracks.first { $0.width == 1 }!
            XCTAssertEqual(track.count, 37 - removed.count)
            for t in [0.5, 0.75] {
                renderer.renderFrame(atTime: t)
                for (i, l) in layers.enumerated() {
                    XCTAssertEqual(Self.level(l), removed.contains(i) ? 0 : Double(i) + 8 * t, accuracy: 1e-9, "layer \(i) at \(t)")
                }
            }
        }
    }
}
