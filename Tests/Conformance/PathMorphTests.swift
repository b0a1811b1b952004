import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// SEMANTICS.md, "Fidelity rules", "Paths": `path` and `shadowPath` animations between paths
/// with the same elements interpolate every point (Apple's `CAShapeLayer.path`); paths of
/// different structure switch at half-way; keyframes on `path` are point-wise and on
/// `contents` discrete (sprite frames).
final class PathMorphTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private func square(_ side: CGFloat, at origin: CGPoint = .zero) -> CGPath {
        CGPath(rect: CGRect(origin: origin, size: CGSize(width: side, height: side)), transform: nil)
    }

    /// Every point of `path` in element order (a curve: end point, then control points).
    private func points(_ path: CGPath?) -> [CGPoint] {
        var out: [CGPoint] = []
        for e in path?.elements ?? [] {
            switch e {
            case .moveTo(let p), .addLine(let p): out.append(p)
            case .addQuadCurve(let p, let c): out += [p, c]
            case .addCurve(let p, let c1, let c2): out += [p, c1, c2]
            case .closeSubpath: break
            }
        }
        return out
    }

    private func assertPoints(_ path: CGPath?, _ expected: [CGPoint], _ message: String = "",
                              file: StaticString = #filePath, line: UInt = #line) {
        let got = points(path)
        XCTAssertEqual(got.count, expected.count, "point count. \(message)", file: file, line: line)
        for (g, e) in zip(got, expected) {
            XCTAssertEqual(Double(g.x), Double(e.x), accuracy: 1e-9, message, file: file, line: line)
            XCTAssertEqual(Double(g.y), Double(e.y), accuracy: 1e-9, message, file: file, line: line)
        }
    }

    private func add(_ a: CAAnimation, to layer: CALayer, key: String = "p") {
        CATransaction.begin()
        layer.add(a, forKey: key)
        CATransaction.commit()
    }

    /// A basic animation of `keyPath` (a nil `from`: the value shown) added under `key`.
    private func morph(_ layer: CALayer, _ keyPath: String = "path", from: CGPath? = nil, to: CGPath,
                       duration: Double = 1, beginTime: Double = 0, key: String = "p") {
        let a = CABasicAnimation(keyPath: keyPath)
        a.fromValue = from
        a.toValue = to
        a.duration = duration
        a.beginTime = beginTime
        add(a, to: layer, key: key)
    }

    /// A triangle: a path of another structure than a rectangle's.
    private var triangle: CGPath {
        let p = CGMutablePath()
        p.addLines(between: [.zero, CGPoint(x: 40, y: 0), CGPoint(x: 20, y: 30)])
        return p
    }

    func test_pathsWithTheSameElementsInterpolateEveryPoint() throws {
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        morph(scene.layer, from: square(10), to: square(30, at: CGPoint(x: 10, y: 0)))
        scene.frame(at: 0.25)
        let shown = try scene.presented().path
        // Corners of the square of side 15 at (2.5, 0): a quarter of the way.
        assertPoints(shown, [CGPoint(x: 2.5, y: 0), CGPoint(x: 17.5, y: 0), CGPoint(x: 17.5, y: 15), CGPoint(x: 2.5, y: 15)])
        XCTAssertEqual(shown?.elements.count, 5, "the elements are kept (move, three lines, close)")
        if case .closeSubpath? = shown?.elements.last {} else { XCTFail("the subpath stays closed") }
    }

    func test_curvesInterpolateTheirControlPointsToo() throws {
        func curve(_ y: CGFloat) -> CGPath {
            let p = CGMutablePath()
            p.move(to: .zero)
            p.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 25, y: y), control2: CGPoint(x: 75, y: y))
            p.addQuadCurve(to: CGPoint(x: 200, y: 0), control: CGPoint(x: 150, y: -y))
            return p
        }
        let scene = Scene(CAShapeLayer()) { $0.path = curve(0) }
        morph(scene.layer, from: curve(0), to: curve(80), duration: 2)
        scene.frame(at: 1.5)
        assertPoints(try scene.presented().path,
                     [.zero, CGPoint(x: 100, y: 0), CGPoint(x: 25, y: 60), CGPoint(x: 75, y: 60),
                      CGPoint(x: 200, y: 0), CGPoint(x: 150, y: -60)])
    }

    func test_implicitPathChangeMorphsFromTheShownPath() throws {
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        inTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            scene.layer.path = square(20)
        }
        scene.frame(at: 0.5)
        assertPoints(try scene.presented().path, [.zero, CGPoint(x: 15, y: 0), CGPoint(x: 15, y: 15), CGPoint(x: 0, y: 15)])
        // Interrupted half-way: the next change starts from the square of side 15 on screen.
        inTransaction(duration: 1) {
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            scene.layer.path = square(35)
        }
        scene.frame(at: 1.0)
        assertPoints(try scene.presented().path, [.zero, CGPoint(x: 25, y: 0), CGPoint(x: 25, y: 25), CGPoint(x: 0, y: 25)],
                     "half-way from 15 to 35")
        scene.frame(at: 2)
        XCTAssertEqual(try scene.presented().path, square(35), "ends at the model path")
    }

    func test_shadowPathMorphsToo() throws {
        let scene = Scene(CALayer()) { $0.shadowPath = self.square(10) }
        morph(scene.layer, "shadowPath", to: square(20))
        scene.frame(at: 0.5)
        assertPoints(try scene.presented().shadowPath, [.zero, CGPoint(x: 15, y: 0), CGPoint(x: 15, y: 15), CGPoint(x: 0, y: 15)])
    }

    func test_pathsOfDifferentStructureSwitchHalfWay() throws {
        let triangle = self.triangle
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        morph(scene.layer, from: square(10), to: triangle)
        scene.frame(at: 0.49)
        XCTAssertEqual(try scene.presented().path, square(10))
        scene.frame(at: 0.5)
        XCTAssertEqual(try scene.presented().path, triangle)
    }

    func test_aPresentationCopyKeepsThePathOfItsFrame() throws {
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        morph(scene.layer, to: square(20))
        scene.frame(at: 0.5)
        let copy = try scene.presented()
        let held = copy.path
        scene.frame(at: 0.75)
        assertPoints(copy.path, points(square(15)), "a copy shows its frame's path after the next frame")
        assertPoints(held, points(square(15)), "a path read before the next frame does not change")
        assertPoints(try scene.presented().path, points(square(17.5)))
    }

    func test_theRenderSnapshotDrawsTheMorphingPath() throws {
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        morph(scene.layer, to: square(20))
        scene.frame(at: 0.5)
        let snapshot = scene.renderer.snapshot()
        XCTAssertEqual(snapshot.shapeCount, 1)
        assertPoints(snapshot.path(ofShape: 0), points(square(15)))
        scene.frame(at: 0.75)
        assertPoints(scene.renderer.snapshot().path(ofShape: 0), points(square(17.5)))
    }

    func test_pathKeyframesInterpolatePointByPoint() throws {
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        let k = CAKeyframeAnimation(keyPath: "path")
        k.values = [square(10), square(30), square(20)]
        k.keyTimes = [0, 0.5, 1]
        k.duration = 1
        add(k, to: scene.layer)
        scene.frame(at: 0.25)
        assertPoints(try scene.presented().path, points(square(20)), "half-way through the first segment")
        scene.frame(at: 0.75)
        assertPoints(try scene.presented().path, points(square(25)), "half-way through the second")
    }

    func test_pathKeyframesFollowTheCalculationMode() throws {
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        let k = CAKeyframeAnimation(keyPath: "path")
        k.values = [square(10), square(30), square(20)]
        k.calculationMode = .discrete
        k.duration = 1
        add(k, to: scene.layer)
        scene.frame(at: 0.5)
        assertPoints(try scene.presented().path, points(square(30)), "discrete: the second value from 1/3 on")
    }

    func test_pathKeyframesOfDifferentStructureStepAtTheKeyTimes() throws {
        let triangle = self.triangle
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        let k = CAKeyframeAnimation(keyPath: "path")
        k.values = [square(10), triangle, square(40)]
        k.keyTimes = [0, 0.6, 1]
        k.duration = 1
        add(k, to: scene.layer)
        scene.frame(at: 0.5)
        XCTAssertEqual(try scene.presented().path, square(10))
        scene.frame(at: 0.6)
        XCTAssertEqual(try scene.presented().path, triangle)
    }

    func test_contentsKeyframesAreSpriteFrames() throws {
        let scene = Scene(CALayer()) { $0.contents = "frame-0" }
        let k = CAKeyframeAnimation(keyPath: "contents")
        k.values = ["frame-1", "frame-2", "frame-3", "frame-4"]
        k.calculationMode = .discrete
        k.duration = 1
        k.repeatCount = 2
        add(k, to: scene.layer)
        for (t, expected) in [(0.1, "frame-1"), (0.3, "frame-2"), (0.6, "frame-3"), (0.8, "frame-4"), (1.3, "frame-2")] {
            scene.frame(at: t)
            XCTAssertEqual(try scene.presented().contents as? String, expected, "at \(t)")
        }
        scene.frame(at: 2.5)
        XCTAssertEqual(try scene.presented().contents as? String, "frame-0", "the model once done")
    }

    func test_contentsKeyframesInLinearModeShowEachValueFromItsKeyTime() throws {
        let scene = Scene(CALayer()) { $0.contents = "frame-0" }
        let k = CAKeyframeAnimation(keyPath: "contents")
        k.values = ["a", "b", "c"]
        k.keyTimes = [0, 0.2, 0.9]
        k.duration = 1
        k.fillMode = .forwards
        k.isRemovedOnCompletion = false
        add(k, to: scene.layer)
        for (t, expected) in [(0.1, "a"), (0.5, "b"), (0.95, "c"), (2, "c")] {
            scene.frame(at: t)
            XCTAssertEqual(try scene.presented().contents as? String, expected, "at \(t)")
        }
    }

    func test_keyframesOfTheWrongTypeOrWithoutValuesAreRefused() {
        let layer = CAShapeLayer()
        let k = CAKeyframeAnimation(keyPath: "path")
        k.values = [square(10), "not a path"]
        layer.add(k, forKey: "bad")
        XCTAssertNil(layer.animation(forKey: "bad"), "a value that is not a path")
        let empty = CAKeyframeAnimation(keyPath: "contents")
        layer.add(empty, forKey: "empty")
        XCTAssertNil(layer.animation(forKey: "empty"), "no values")
        let times = CAKeyframeAnimation(keyPath: "contents")
        times.values = ["a", "b"]
        times.keyTimes = [0, 0.5, 1]
        layer.add(times, forKey: "times")
        XCTAssertNil(layer.animation(forKey: "times"), "key times that do not match the values")
    }

    func test_severalAnimationsOfOnePathShowTheLastActiveOne() throws {
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        morph(scene.layer, from: square(10), to: square(20), key: "first")
        morph(scene.layer, from: square(40), to: square(60), beginTime: 0.5, key: "second")
        scene.frame(at: 0.25)
        assertPoints(try scene.presented().path, points(square(12.5)), "the second has not begun: the first shows")
        scene.frame(at: 0.75)
        assertPoints(try scene.presented().path, points(square(45)), "both active: the one added last shows")
    }

    func test_removingAPathAnimationShowsTheModelAtOnce() throws {
        let scene = Scene(CAShapeLayer()) { $0.path = self.square(10) }
        morph(scene.layer, to: square(20))
        scene.frame(at: 0.5)
        assertPoints(try scene.presented().path, points(square(15)))
        scene.layer.removeAnimation(forKey: "p")
        XCTAssertEqual(try scene.presented().path, square(10), "no frame needed")
    }

    func test_customKeyArraysOfNumbersInterpolateElementByElement() throws {
        let move = CABasicAnimation()
        move.duration = 1
        let scene = Scene(CALayer()) { layer in
            layer.setValue([0.0, 10.0, 20.0], forKey: "levels")
            layer.actions = ["levels": move]
        }
        inTransaction { scene.layer.setValue([10.0, 10.0, 0.0], forKey: "levels") }
        scene.frame(at: 0.5)
        let shown = try XCTUnwrap(try scene.presented().value(forKey: "levels") as? [Double], "stays an array of Double")
        XCTAssertEqual(shown, [5, 10, 10])
    }

    func test_customKeyArraysOfNSNumbersAndOfColours() throws {
        let scene = Scene(CALayer()) { layer in
            layer.setValue([NSNumber(value: 1), NSNumber(value: 3)], forKey: "weights")
            layer.setValue([CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)],
                           forKey: "stops")
        }
        let w = CABasicAnimation(keyPath: "weights")
        w.toValue = [NSNumber(value: 3), NSNumber(value: 7)]
        w.duration = 1
        let c = CAKeyframeAnimation(keyPath: "stops")
        c.values = [[CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)],
                    [CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 0)]]
        c.duration = 1
        add(w, to: scene.layer, key: "w")
        add(c, to: scene.layer, key: "c")
        scene.frame(at: 0.25)
        let weights = try XCTUnwrap(try scene.presented().value(forKey: "weights") as? [NSNumber])
        XCTAssertEqual(weights.map(\.doubleValue), [1.5, 4])
        let stops = try XCTUnwrap(try scene.presented().value(forKey: "stops") as? [CGColor])
        XCTAssertEqual(stops.count, 2)
        assertColor(stops[0], [0.75, 0.25, 0, 1])
        assertColor(stops[1], [0.25, 0.25, 1, 0.75])
    }

    func test_customKeyArraysOfAnotherLengthAreRefused() {
        let layer = CALayer()
        layer.setValue([1.0, 2.0], forKey: "levels")
        let a = CABasicAnimation(keyPath: "levels")
        a.toValue = [1.0, 2.0, 3.0]
        layer.add(a, forKey: "a")
        XCTAssertNil(layer.animation(forKey: "a"))
        let b = CABasicAnimation(keyPath: "levels")
        b.toValue = [1.0, Double.nan]
        layer.add(b, forKey: "b")
        XCTAssertNil(layer.animation(forKey: "b"), "not finite")
    }
}
