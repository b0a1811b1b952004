import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// Every key path of Apple's "Core Animation Extensions To Key-Value Coding" (the CATransform3D
/// fields `rotation.x` ... `translation`, and `scale.xy`, which Apple does not document but real
/// code uses), and the CGPoint, CGSize and CGRect fields, animated by each kind of animation:
/// basic, keyframe, spring, and the implicit animation a `setValue(_:forKeyPath:)` change runs.
/// Expected values come from the documented rules: a linear basic animation is half-way at half
/// its duration; keyframes interpolate linearly between evenly spaced key times; a spring
/// follows SEMANTICS.md's damped oscillator (computed here, not by the engine); the fields of a
/// transform are read by decomposition.
final class KeyValueCodingExtensionTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// A transform field, the value an animation starts and ends at, and the value it
    /// reaches half-way (keyframes pass through it).
    private struct Field {
        let path: String
        let from: [Double]
        let to: [Double]
        /// The number (a CGSize for `translation`) to hand the engine.
        func boxed(_ v: [Double]) -> Any { v.count == 2 ? NSValue(cgSize: CGSize(width: v[0], height: v[1])) : v[0] as Any }
    }

    /// The model transform every field test starts from: a translation, so every field but
    /// the translations starts at its identity value and the translation must be kept.
    private let model = CATransform3DMakeTranslation(5, 7, 0)

    private let fields: [Field] = [
        Field(path: "rotation.x", from: [0], to: [0.8]),
        Field(path: "rotation.y", from: [0], to: [0.6]),
        Field(path: "rotation.z", from: [0], to: [1.2]),
        Field(path: "rotation", from: [0], to: [1.0]),
        Field(path: "scale.x", from: [1], to: [3]),
        Field(path: "scale.y", from: [1], to: [2.5]),
        Field(path: "scale.z", from: [1], to: [4]),
        Field(path: "scale", from: [1], to: [2]),
        Field(path: "scale.xy", from: [1], to: [3]),
        Field(path: "translation.x", from: [5], to: [25]),
        Field(path: "translation.y", from: [7], to: [-13]),
        Field(path: "translation.z", from: [0], to: [30]),
        Field(path: "translation", from: [5, 7], to: [45, -33]),
    ]

    /// The field's value in `t`, read by decomposition as Apple documents each field.
    private func read(_ path: String, _ t: CATransform3D) -> [Double] {
        let m = transformEntries(t)
        let sx = (m[0] * m[0] + m[1] * m[1] + m[2] * m[2]).squareRoot()
        let sy = (m[4] * m[4] + m[5] * m[5] + m[6] * m[6]).squareRoot()
        let sz = (m[8] * m[8] + m[9] * m[9] + m[10] * m[10]).squareRoot()
        switch path {
        case "rotation.x": return [atan2(m[6], m[10])]
        case "rotation.y": return [atan2(-m[2], (m[6] * m[6] + m[10] * m[10]).squareRoot())]
        case "rotation.z", "rotation": return [atan2(m[1], m[0])]
        case "scale.x": return [sx]
        case "scale.y": return [sy]
        case "scale.z": return [sz]
        case "scale": return [(sx + sy + sz) / 3]
        case "scale.xy": return [(sx + sy) / 2]
        case "translation.x": return [m[12]]
        case "translation.y": return [m[13]]
        case "translation.z": return [m[14]]
        default: return [m[12], m[13]]
        }
    }

    /// Checks, on `property` of a scene's layer, that `field` shows `expected` and that what
    /// the field does not touch is the model's: x and y scale both for `scale.xy`, the
    /// translation for every rotation and scale field, z scale for `scale.xy`.
    private func assertField(_ field: Field, of property: String, _ presented: CALayer, _ expected: [Double],
                             _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let t = try! XCTUnwrap(presented.value(forKey: property) as? CATransform3D, file: file, line: line)
        let got = read(field.path, t)
        for (g, e) in zip(got, expected) {
            XCTAssertEqual(g, e, accuracy: 1e-6, "\(property).\(field.path) \(message)", file: file, line: line)
        }
        // The same value through the key path itself.
        let direct = presented.value(forKeyPath: "\(property).\(field.path)")
        if field.path == "translation" {
            let s = try! XCTUnwrap(direct as? CGSize, "\(property).translation reads as a CGSize", file: file, line: line)
            XCTAssertEqual(Double(s.width), expected[0], accuracy: 1e-6, file: file, line: line)
            XCTAssertEqual(Double(s.height), expected[1], accuracy: 1e-6, file: file, line: line)
        } else {
            XCTAssertEqual(try XCTUnwrap(numericValue(direct), file: file, line: line), expected[0], accuracy: 1e-6,
                           "value(forKeyPath: \"\(property).\(field.path)\") \(message)", file: file, line: line)
        }
        if field.path == "scale.xy" {
            XCTAssertEqual(read("scale.x", t)[0], expected[0], accuracy: 1e-6, "scale.xy sets x", file: file, line: line)
            XCTAssertEqual(read("scale.y", t)[0], expected[0], accuracy: 1e-6, "scale.xy sets y", file: file, line: line)
            XCTAssertEqual(read("scale.z", t)[0], 1, accuracy: 1e-6, "scale.xy leaves z", file: file, line: line)
        }
        if !field.path.hasPrefix("translation") {
            XCTAssertEqual(read("translation", t), [5, 7], "\(property).\(field.path) keeps the translation", file: file, line: line)
        }
    }

    private func scene(_ property: String) -> Scene<CALayer> {
        Scene(CALayer()) { $0.setValue(self.model, forKey: property) }
    }

    // MARK: Transform fields, every kind of animation

    func test_everyTransformFieldAnimatesWithABasicAnimation() throws {
        for property in ["transform", "sublayerTransform"] {
            for field in fields {
                let scene = scene(property)
                let a = CABasicAnimation(keyPath: "\(property).\(field.path)")
                a.fromValue = field.boxed(field.from)
                a.toValue = field.boxed(field.to)
                a.duration = 1
                let diagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(a, forKey: "a") } }
                XCTAssertEqual(diagnostics.map(\.message), [], "\(property).\(field.path) is accepted")
                scene.frame(at: 0.5)
                assertField(field, of: property, try scene.presented(), mix(field.from, field.to, 0.5), "half-way")
                scene.frame(at: 2)
                assertField(field, of: property, try scene.presented(), field.from, "after the end: the model's")
            }
        }
    }

    func test_everyTransformFieldAnimatesWithKeyframes() throws {
        for property in ["transform", "sublayerTransform"] {
            for field in fields {
                let scene = scene(property)
                let peak = field.to.map { $0 * 2 }
                let k = CAKeyframeAnimation(keyPath: "\(property).\(field.path)")
                k.values = [field.boxed(field.from), field.boxed(peak), field.boxed(field.to)]
                k.duration = 1
                inTransaction { scene.layer.add(k, forKey: "k") }
                scene.frame(at: 0.25)
                assertField(field, of: property, try scene.presented(), mix(field.from, peak, 0.5), "a quarter in")
                scene.frame(at: 0.75)
                assertField(field, of: property, try scene.presented(), mix(peak, field.to, 0.5), "three quarters in")
            }
        }
    }

    func test_everyTransformFieldAnimatesWithASpring() throws {
        // mass 1, stiffness 100, damping 10: zeta 0.5, w0 10 (SEMANTICS.md's oscillator).
        let w0 = 10.0, zeta = 0.5, wd = w0 * (1 - zeta * zeta).squareRoot(), b = zeta * w0 / wd
        func progress(_ t: Double) -> Double { 1 - exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t)) }
        for field in fields {
            let scene = scene("transform")
            let s = CASpringAnimation(keyPath: "transform.\(field.path)")
            s.mass = 1
            s.stiffness = 100
            s.damping = 10
            s.fromValue = field.boxed(field.from)
            s.toValue = field.boxed(field.to)
            s.duration = 2
            inTransaction { scene.layer.add(s, forKey: "s") }
            for t in [0.1, 0.3] {
                scene.frame(at: t)
                assertField(field, of: "transform", try scene.presented(), mix(field.from, field.to, progress(t)), "at \(t)")
            }
        }
    }

    func test_everyTransformFieldSetByKeyPathRunsTheTransformsImplicitAnimation() throws {
        for field in fields {
            let layer = CALayer()
            withActionsDisabled { layer.transform = model }
            let renderer = CARenderer(layer: layer)
            renderer.renderFrame(atTime: 0)
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            layer.setValue(field.boxed(field.to), forKeyPath: "transform.\(field.path)")
            CATransaction.commit()
            assertField(field, of: "transform", layer, field.to, "the model changes at once")
            XCTAssertEqual(animationKeys(of: layer), ["transform"], "\(field.path): the implicit animation is the transform's")
            renderer.renderFrame(atTime: 0.5)
            // The whole matrix interpolates by decomposition: each field half-way.
            assertField(field, of: "transform", try XCTUnwrap(layer.presentation()), mix(field.from, field.to, 0.5), "half-way")
        }
    }

    func test_severalFieldsOfOneTransformComposeInTheOrderTheyWereAdded() throws {
        let scene = Scene(CALayer()) { $0.transform = CATransform3DMakeTranslation(5, 7, 0) }
        func field(_ path: String, _ from: Double, _ to: Double) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: path)
            a.fromValue = from
            a.toValue = to
            a.duration = 1
            return a
        }
        inTransaction {
            scene.layer.add(field("transform.scale", 1, 3), forKey: "grow")
            scene.layer.add(field("transform.rotation.z", 0, 1), forKey: "turn")
            scene.layer.add(field("transform.translation.x", 5, 25), forKey: "slide")
        }
        scene.frame(at: 0.5)
        // Each field set on what the fields before it left: scale 2, then a turn of 0.5, then x 15.
        var expected = CATransform3DConcat(CATransform3DMakeScale(2, 2, 2), CATransform3DMakeRotation(0.5, 0, 0, 1))
        expected.m41 = 15
        expected.m42 = 7
        assertTransform(try scene.presented().transform, expected, accuracy: 1e-9)
        scene.frame(at: 2)
        assertTransform(try scene.presented().transform, CATransform3DMakeTranslation(5, 7, 0), "all over: the model")
    }

    func test_translationTakesASizeOrAnNSValueAndRefusesOtherTypes() throws {
        let scene = scene("transform")
        let a = CABasicAnimation(keyPath: "transform.translation")
        a.toValue = CGSize(width: 25, height: 27)
        a.duration = 1
        inTransaction { scene.layer.add(a, forKey: "a") }
        scene.frame(at: 0.5)
        assertField(fields.last!, of: "transform", try scene.presented(), [15, 17], "from the model's (5, 7)")
        let bad = CABasicAnimation(keyPath: "transform.translation")
        bad.toValue = 3.0
        let diagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(bad, forKey: "bad") } }
        XCTAssertEqual(diagnostics.map(\.code), [.wrongValueType], "a number is not a translation")
        XCTAssertEqual(animationKeys(of: scene.layer), ["a"])
        withActionsDisabled { scene.layer.setValue(CGSize(width: 1, height: 2), forKeyPath: "transform.translation") }
        XCTAssertEqual(scene.layer.value(forKeyPath: "transform.translation") as? CGSize, CGSize(width: 1, height: 2))
    }

    func test_scaleXYByValueAddsToTheCurrentScaleOfBothAxes() throws {
        let scene = Scene(CALayer()) { $0.transform = CATransform3DMakeScale(2, 2, 1) }
        let a = CABasicAnimation(keyPath: "transform.scale.xy")
        a.byValue = 1.0
        a.duration = 1
        inTransaction { scene.layer.add(a, forKey: "grow") }
        scene.frame(at: 0.5)
        let t = try scene.presented().transform
        XCTAssertEqual(read("scale.x", t)[0], 2.5, accuracy: 1e-9)
        XCTAssertEqual(read("scale.y", t)[0], 2.5, accuracy: 1e-9)
        XCTAssertEqual(read("scale.z", t)[0], 1, accuracy: 1e-9)
    }

    // MARK: Fields of points, sizes and rectangles, every kind of animation

    /// Each built-in point, size and rectangle property with every field path, the model value
    /// and the field's lanes in it.
    private let geometryPaths: [(path: String, model: [Double], offset: Int, width: Int)] = [
        ("position.x", [10, 20], 0, 1), ("position.y", [10, 20], 1, 1),
        ("anchorPoint.x", [0.5, 0.5], 0, 1), ("anchorPoint.y", [0.5, 0.5], 1, 1),
        ("shadowOffset.width", [0, -3], 0, 1), ("shadowOffset.height", [0, -3], 1, 1),
        ("bounds.origin", [0, 0, 40, 30], 0, 2), ("bounds.size", [0, 0, 40, 30], 2, 2),
        ("bounds.origin.x", [0, 0, 40, 30], 0, 1), ("bounds.origin.y", [0, 0, 40, 30], 1, 1),
        ("bounds.size.width", [0, 0, 40, 30], 2, 1), ("bounds.size.height", [0, 0, 40, 30], 3, 1),
        ("contentsRect.origin.x", [0, 0, 1, 1], 0, 1), ("contentsRect.size.height", [0, 0, 1, 1], 3, 1),
        ("contentsRect.size", [0, 0, 1, 1], 2, 2),
    ]

    private func lanes(of layer: CALayer, _ property: String) -> [Double] {
        switch layer.value(forKey: property) {
        case let p as CGPoint: return [Double(p.x), Double(p.y)]
        case let s as CGSize: return [Double(s.width), Double(s.height)]
        case let r as CGRect: return [r.origin.x, r.origin.y, r.size.width, r.size.height].map { Double($0) }
        default: return []
        }
    }

    private func setModel(_ layer: CALayer, _ property: String, _ m: [Double]) {
        switch property {
        case "bounds", "contentsRect": layer.setValue(CGRect(x: m[0], y: m[1], width: m[2], height: m[3]), forKey: property)
        case "shadowOffset": layer.shadowOffset = CGSize(width: m[0], height: m[1])
        default: layer.setValue(CGPoint(x: m[0], y: m[1]), forKey: property)
        }
    }

    private func boxPoint(_ v: [Double], _ path: String) -> Any {
        if v.count == 1 { return v[0] as Any }
        return path.hasSuffix("origin") ? NSValue(cgPoint: CGPoint(x: v[0], y: v[1])) : NSValue(cgSize: CGSize(width: v[0], height: v[1]))
    }

    func test_everyGeometryFieldAnimatesWithEachKind() throws {
        let w0 = 10.0, zeta = 0.5, wd = w0 * (1 - zeta * zeta).squareRoot(), b = zeta * w0 / wd
        let spring = 1 - exp(-zeta * w0 * 0.3) * (cos(wd * 0.3) + b * sin(wd * 0.3))
        for g in geometryPaths {
            let property = String(g.path[..<g.path.firstIndex(of: ".")!])
            let to = (0..<g.width).map { Double($0 + 1) * 8 }
            let from = Array(g.model[g.offset..<(g.offset + g.width)])
            var kinds: [(String, CAAnimation, Double, [Double])] = []
            let basic = CABasicAnimation(keyPath: g.path)
            basic.toValue = boxPoint(to, g.path)
            basic.duration = 1
            kinds.append(("basic", basic, 0.5, mix(from, to, 0.5)))
            let keyframes = CAKeyframeAnimation(keyPath: g.path)
            keyframes.values = [boxPoint(from, g.path), boxPoint(to, g.path)]
            keyframes.keyTimes = [0, 1]
            keyframes.duration = 1
            kinds.append(("keyframes", keyframes, 0.25, mix(from, to, 0.25)))
            let s = CASpringAnimation(keyPath: g.path)
            s.stiffness = 100
            s.damping = 10
            s.fromValue = boxPoint(from, g.path)
            s.toValue = boxPoint(to, g.path)
            s.duration = 2
            kinds.append(("spring", s, 0.3, mix(from, to, spring)))
            for (name, animation, t, expected) in kinds {
                let scene = Scene(CALayer()) { self.setModel($0, property, g.model) }
                let diagnostics = StrataDiagnostics.capture { inTransaction { scene.layer.add(animation, forKey: name) } }
                XCTAssertEqual(diagnostics.map(\.message), [], "\(name) on \(g.path)")
                scene.frame(at: t)
                let shown = lanes(of: try scene.presented(), property)
                var want = g.model
                for c in 0..<g.width { want[g.offset + c] = expected[c] }
                XCTAssertEqual(shown.count, want.count, "\(name) \(g.path)")
                for (a, e) in zip(shown, want) { XCTAssertEqual(a, e, accuracy: 1e-6, "\(name) \(g.path) at \(t): \(shown)") }
            }
            // Implicit: a change through the key path animates the whole property.
            let layer = CALayer()
            withActionsDisabled { setModel(layer, property, g.model) }
            let renderer = CARenderer(layer: layer)
            renderer.renderFrame(atTime: 0)
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            layer.setValue(boxPoint(to, g.path), forKeyPath: g.path)
            CATransaction.commit()
            XCTAssertEqual(animationKeys(of: layer), [property], "\(g.path): the implicit animation is the property's")
            renderer.renderFrame(atTime: 0.5)
            let shown = lanes(of: try XCTUnwrap(layer.presentation()), property)
            var want = g.model
            for c in 0..<g.width { want[g.offset + c] = mix(from, to, 0.5)[c] }
            for (a, e) in zip(shown, want) { XCTAssertEqual(a, e, accuracy: 1e-6, "implicit \(g.path): \(shown)") }
        }
    }

    // MARK: Fields of the layer classes' keys and of custom keys

    func test_fieldsOfAGradientsPointsAnimateWithEachKind() throws {
        let scene = Scene(CAGradientLayer()) { $0.startPoint = CGPoint(x: 0, y: 0.5); $0.endPoint = CGPoint(x: 1, y: 0.5) }
        let slide = CABasicAnimation(keyPath: "startPoint.x")
        slide.fromValue = 0
        slide.toValue = 1
        slide.duration = 1
        let bob = CAKeyframeAnimation(keyPath: "endPoint.y")
        bob.values = [0.5, 1.0, 0.0]
        bob.duration = 1
        let diagnostics = StrataDiagnostics.capture {
            inTransaction { scene.layer.add(slide, forKey: "slide"); scene.layer.add(bob, forKey: "bob") }
        }
        XCTAssertEqual(diagnostics.map(\.message), [])
        scene.frame(at: 0.25)
        var p = try scene.presented()
        assertPoint(p.startPoint, 0.25, 0.5, "x animated, y the model's")
        assertPoint(p.endPoint, 1, 0.75)
        XCTAssertEqual(numericValue(p.value(forKeyPath: "startPoint.x")) ?? .nan, 0.25, accuracy: 1e-12)
        scene.frame(at: 2)
        p = try scene.presented()
        assertPoint(p.startPoint, 0, 0.5, "over: the model")
        // A spring on a field.
        let s = CASpringAnimation(keyPath: "startPoint.y")
        s.stiffness = 100
        s.damping = 10
        s.fromValue = 0.5
        s.toValue = 1.5
        s.duration = 2
        inTransaction { scene.layer.add(s, forKey: "spring") }
        scene.frame(at: 2.3)
        let w0 = 10.0, zeta = 0.5, wd = w0 * (1 - zeta * zeta).squareRoot()
        let progress = 1 - exp(-zeta * w0 * 0.3) * (cos(wd * 0.3) + zeta * w0 / wd * sin(wd * 0.3))
        assertPoint(try scene.presented().startPoint, 0, 0.5 + progress, accuracy: 1e-9)
    }

    func test_aFieldSetByKeyPathRunsTheKeysImplicitAnimation() throws {
        let gradient = CAGradientLayer()
        withActionsDisabled { gradient.startPoint = CGPoint(x: 0, y: 0.5) }
        let renderer = CARenderer(layer: gradient)
        renderer.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        gradient.setValue(0.8, forKeyPath: "startPoint.x")
        CATransaction.commit()
        XCTAssertEqual(gradient.startPoint, CGPoint(x: 0.8, y: 0.5), "the model at once")
        XCTAssertEqual(animationKeys(of: gradient), ["startPoint"], "the key's own implicit animation")
        renderer.renderFrame(atTime: 0.5)
        assertPoint(try XCTUnwrap(gradient.presentation()).startPoint, 0.4, 0.5, accuracy: 1e-12)
        let bad = StrataDiagnostics.capture { gradient.setValue(CGPoint.zero, forKeyPath: "startPoint.x") }
        XCTAssertEqual(bad.map(\.code), [.wrongValueType])
        XCTAssertEqual(gradient.startPoint, CGPoint(x: 0.8, y: 0.5))
    }

    func test_fieldsOfAReplicatorsInstanceTransformAnimate() throws {
        let scene = Scene(CAReplicatorLayer()) { $0.instanceTransform = CATransform3DMakeTranslation(10, 0, 0) }
        let turn = CABasicAnimation(keyPath: "instanceTransform.rotation.z")
        turn.toValue = 1.0
        turn.duration = 1
        let step = CAKeyframeAnimation(keyPath: "instanceTransform.translation")
        step.values = [CGSize(width: 10, height: 0), NSValue(cgSize: CGSize(width: 30, height: 20))]
        step.duration = 1
        inTransaction {
            scene.layer.add(turn, forKey: "turn")
            scene.layer.add(step, forKey: "step")
        }
        scene.frame(at: 0.5)
        var expected = CATransform3DMakeRotation(0.5, 0, 0, 1)
        expected.m41 = 20
        expected.m42 = 10
        assertTransform(try scene.presented().instanceTransform, expected, "both fields, in add order", accuracy: 1e-9)
    }

    func test_fieldsOfAnApplicationsCustomKeyAnimateAndKeepItsType() throws {
        let scene = Scene(CALayer()) { $0.setValue(NSValue(cgRect: CGRect(x: 0, y: 0, width: 10, height: 20)), forKey: "hotArea") }
        let grow = CABasicAnimation(keyPath: "hotArea.size.width")
        grow.toValue = 30
        grow.duration = 1
        inTransaction { scene.layer.add(grow, forKey: "grow") }
        scene.frame(at: 0.5)
        let shown = try XCTUnwrap(try scene.presented().value(forKey: "hotArea"))
        XCTAssertTrue(type(of: shown) is NSValue.Type, "an NSValue, as the model: \(type(of: shown))")
        XCTAssertEqual((shown as? NSValue)?.cgRectValue, CGRect(x: 0, y: 0, width: 20, height: 20))
        let refused = StrataDiagnostics.capture {
            let a = CABasicAnimation(keyPath: "hotArea.depth")
            a.toValue = 1
            inTransaction { scene.layer.add(a, forKey: "depth") }
        }
        XCTAssertEqual(refused.map(\.code), [.unknownKeyPath], "a rectangle has no depth")
    }
}
