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

/// A progress layer written as Apple documents custom animatable state: a key stored through
/// `setValue(_:forKey:)` (an `@NSManaged` property on Apple's platforms), redrawn when it
/// changes, and copied by `init(layer:)` with `setValue(_:forKey:)` as real code does.
private final class ProgressLayer: CALayer {
    var progress: CGFloat {
        get { (value(forKey: "progress") as? CGFloat) ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }
    var drawn: [CGFloat] = []

    override init() { super.init() }
    override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? ProgressLayer {
            progress = other.progress
            setValue(other.value(forKey: "tint"), forKey: "tint")
            cornerRadius = 2
        }
    }
    required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }
    override func draw(in ctx: CGContext) { model().drawn.append(progress) }
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

    func test_writesInInitLayer_areTheCopyBeingMade() throws {
        let scene = Scene(ProgressLayer()) {
            $0.progress = 0.2
            $0.setValue("red", forKey: "tint")
        }
        let a = CABasicAnimation(keyPath: "progress")
        a.fromValue = CGFloat(0.2)
        a.toValue = CGFloat(1)
        a.duration = 1
        let diagnostics = StrataDiagnostics.capture {
            inTransaction { scene.layer.add(a, forKey: "fill") }
            for t in [0.25, 0.5, 0.75] { scene.frame(at: t) }
        }
        XCTAssertEqual(diagnostics.map(\.message), [], "init(layer:) writes to the copy it is making: no diagnostic, frame after frame")
        let p = try scene.presented()
        XCTAssertEqual(Double(p.progress), 0.8, accuracy: 1e-9, "the presentation shows the animated value, not the model's the copy wrote")
        XCTAssertEqual(p.value(forKey: "tint") as? String, "red")
        let drawn = scene.layer.drawn.suffix(3).map { Double($0) }
        XCTAssertEqual(drawn.count, 3)
        for (d, e) in zip(drawn, [0.4, 0.6, 0.8]) { XCTAssertEqual(d, e, accuracy: 1e-9, "the presentation draws each frame: \(drawn)") }
        // A copy the application makes keeps what its init(layer:) wrote.
        let own = ProgressLayer(layer: scene.layer)
        XCTAssertEqual(own.progress, 0.2)
        XCTAssertEqual(own.cornerRadius, 2)
        XCTAssertEqual(own.value(forKey: "tint") as? String, "red")
        // A presentation copy, once made, is read-only.
        let refused = StrataDiagnostics.capture { p.setValue(0.5, forKey: "progress") }
        XCTAssertEqual(refused.map(\.code), [.invalidArgument])
        XCTAssertEqual(Double(p.progress), 0.8, accuracy: 1e-9)
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
