import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// A subclass written the way Apple documents it: `override init()`, `override init(layer:)`
/// copying its own state, `required init?(coder:)`.
private final class GaugeLayer: CALayer {
    var level: CGFloat = 0
    var copiesMade = 0
    var madeByInit = false

    override init() {
        super.init()
        madeByInit = true
    }

    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? GaugeLayer {
            level = other.level
            copiesMade = other.copiesMade + 1
        }
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

/// A subclass with no initialisers of its own (inherits them all).
private final class TaggedLayer: CALayer {
    var tag = "tagged"
}

private final class GaugeView: View {
    override class var layerClass: CALayer.Type { GaugeLayer.self }
}

/// Subclassing CALayer as Apple documents it (SEMANTICS.md, layers): the initialisers compile
/// unchanged, presentation copies are made with the subclass's `init(layer:)` so its state is
/// copied, and a view's `layerClass` is made with the subclass's `init()`.
final class LayerSubclassTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    func test_presentationCopies_areMadeWithTheSubclassesInitLayer() throws {
        let scene = Scene(GaugeLayer()) { $0.level = 0.75 }
        XCTAssertTrue(scene.layer.madeByInit)
        inTransaction(duration: 1) { scene.layer.opacity = 0 }
        scene.frame(at: 0.5)
        let p = try scene.presented()
        XCTAssertEqual(p.level, 0.75, "custom state copied by init(layer:)")
        XCTAssertEqual(p.copiesMade, 1)
        XCTAssertFalse(p.madeByInit, "a copy is not made with init()")
        XCTAssertTrue(p.model() === scene.layer)
        XCTAssertGreaterThan(p.opacity, 0)
        XCTAssertLessThan(p.opacity, 1)
    }

    func test_aSubclassWithoutInitialisers_inheritsThemAll() throws {
        let scene = Scene(TaggedLayer())
        scene.layer.tag = "changed"
        inTransaction(duration: 1) { scene.layer.position = CGPoint(x: 10, y: 10) }
        scene.frame(at: 0.5)
        let p = try scene.presented()
        XCTAssertEqual(p.tag, "tagged", "no init(layer:) of its own: its properties start at their defaults")
        XCTAssertTrue(type(of: p) == TaggedLayer.self)
        XCTAssertTrue(type(of: TaggedLayer.layer()) == TaggedLayer.self)
    }

    func test_copyingWithInitLayer_directly() {
        let g = GaugeLayer()
        g.level = 0.3
        g.cornerRadius = 4
        let copy = GaugeLayer(layer: g)
        XCTAssertEqual(copy.level, 0.3)
        XCTAssertEqual(copy.cornerRadius, 4, "CALayer's values copied by super.init(layer:)")
    }

    func test_initCoder_givesADefaultLayer() throws {
        let coder = NSKeyedUnarchiver(forReadingWith: NSKeyedArchiver.archivedData(withRootObject: [String: Int]()))
        let layer = try XCTUnwrap(GaugeLayer(coder: coder))
        XCTAssertEqual(layer.opacity, 1)
        XCTAssertEqual(layer.level, 0)
        let root = CALayer()
        root.addSublayer(layer)
        XCTAssertTrue(layer.superlayer === root, "a decoded layer joins trees as any other")
    }

    func test_aViewsLayerClass_isMadeWithItsInit() throws {
        let view = GaugeView(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        let layer = try XCTUnwrap(view.layer as? GaugeLayer)
        XCTAssertTrue(layer.madeByInit)
        XCTAssertEqual(layer.bounds.width, 20)
    }
}
