import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

// MARK: - Test support shared by the Strata behaviour tests

/// Runs `body` on a thread of its own and waits for it: a fresh engine (engines are per
/// thread), whatever other tests left on this one.
func onFreshEngine(_ body: @escaping () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    done.wait()
}

/// A cubic Bézier timing curve from (0,0) to (1,1), solved here independently of the engine.
///
/// Built from `Float` control points, as `CAMediaTimingFunction` stores them.
struct ReferenceCurve {
    let x1: Double, y1: Double, x2: Double, y2: Double

    init(_ x1: Float, _ y1: Float, _ x2: Float, _ y2: Float) {
        self.x1 = Double(x1); self.y1 = Double(y1); self.x2 = Double(x2); self.y2 = Double(y2)
    }

    static let linear = ReferenceCurve(0, 0, 1, 1)
    static let easeIn = ReferenceCurve(0.42, 0, 1, 1)
    static let easeOut = ReferenceCurve(0, 0, 0.58, 1)
    static let easeInEaseOut = ReferenceCurve(0.42, 0, 0.58, 1)
    static let caDefault = ReferenceCurve(0.25, 0.1, 0.25, 1)

    private func bezier(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * c1 + 3 * u * s * s * c2 + s * s * s
    }

    /// The eased progress at `fraction` of the duration: solves x(s) = fraction by bisection to
    /// 1e-12, then returns y(s).
    func progress(atFraction fraction: Double) -> Double {
        if fraction <= 0 { return 0 }
        if fraction >= 1 { return 1 }
        var lo = 0.0, hi = 1.0
        while hi - lo > 1e-12 {
            let mid = (lo + hi) / 2
            if bezier(mid, x1, x2) < fraction { lo = mid } else { hi = mid }
        }
        return bezier((lo + hi) / 2, y1, y2)
    }
}

func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double { a + (b - a) * p }

/// Component-wise interpolation of RGBA (or any) component lists.
func mix(_ a: [Double], _ b: [Double], _ p: Double) -> [Double] {
    zip(a, b).map { lerp($0, $1, p) }
}

/// A number read back through the untyped (`Any?`) API, whatever numeric type the engine chose.
func numericValue(_ value: Any?) -> Double? {
    switch value {
    case let v as CGFloat: return Double(v)
    case let v as Double: return v
    case let v as Float: return Double(v)
    case let v as Int: return Double(v)
    case let v as NSNumber: return v.doubleValue
    default: return nil
    }
}

/// The layer's animation keys, with "no animations" (nil) read as an empty list.
func animationKeys(of layer: CALayer) -> [String] { layer.animationKeys() ?? [] }

/// Runs `body` in an explicit transaction with actions disabled: set-up that must not animate.
func withActionsDisabled(_ body: () -> Void) {
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    body()
    CATransaction.commit()
}

/// Runs `body` in an explicit transaction, so that what it adds starts at the current media time.
func inTransaction(duration: Double? = nil, _ body: () -> Void) {
    CATransaction.begin()
    if let duration { CATransaction.setAnimationDuration(duration) }
    body()
    CATransaction.commit()
}

/// The eight control-point coordinates (x0 y0 x1 y1 x2 y2 x3 y3) through Apple's
/// `getControlPoint(at:values:)`.
func controlPoints(of function: CAMediaTimingFunction?) -> [Float] {
    guard let function else { return [] }
    var all: [Float] = []
    for index in 0..<4 {
        var point: [Float] = [-9, -9]
        function.getControlPoint(at: index, values: &point)
        all += point
    }
    return all
}

func assertColor(_ color: CGColor?, _ expected: [Double], _ message: String = "", accuracy: Double = 1e-6,
                 file: StaticString = #filePath, line: UInt = #line) {
    guard let components = color?.components else {
        XCTFail("expected colour \(expected), got \(String(describing: color)). \(message)", file: file, line: line)
        return
    }
    XCTAssertEqual(components.count, expected.count, "component count. \(message)", file: file, line: line)
    for (got, want) in zip(components, expected) where abs(Double(got) - want) > accuracy {
        XCTFail("expected colour \(expected), got \(components). \(message)", file: file, line: line)
        return
    }
}

func assertPoint(_ point: CGPoint?, _ x: Double, _ y: Double, _ message: String = "", accuracy: Double = 1e-6,
                 file: StaticString = #filePath, line: UInt = #line) {
    guard let point else {
        XCTFail("expected (\(x), \(y)), got nil. \(message)", file: file, line: line)
        return
    }
    if abs(Double(point.x) - x) > accuracy || abs(Double(point.y) - y) > accuracy {
        XCTFail("expected (\(x), \(y)), got \(point). \(message)", file: file, line: line)
    }
}

func transformEntries(_ t: CATransform3D) -> [Double] {
    [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
     t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map { Double($0) }
}

func assertTransform(_ transform: CATransform3D?, _ expected: CATransform3D, _ message: String = "",
                     accuracy: Double = 1e-6, file: StaticString = #filePath, line: UInt = #line) {
    guard let transform else {
        XCTFail("expected a transform, got nil. \(message)", file: file, line: line)
        return
    }
    let got = transformEntries(transform), want = transformEntries(expected)
    if zip(got, want).contains(where: { abs($0 - $1) > accuracy }) {
        XCTFail("expected transform \(want), got \(got). \(message)", file: file, line: line)
    }
}

/// Records what a `CAAnimationDelegate` is told, in order: "start", "stop(true)", "stop(false)".
final class AnimationEventRecorder: NSObject, CAAnimationDelegate {
    private(set) var events: [String] = []
    var onStop: ((Bool) -> Void)?

    var stops: [Bool] { events.compactMap { $0 == "stop(true)" ? true : $0 == "stop(false)" ? false : nil } }
    var starts: Int { events.filter { $0 == "start" }.count }

    func animationDidStart(_ anim: CAAnimation) { events.append("start") }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        events.append("stop(\(flag))")
        onStop?(flag)
    }
}

/// A custom `CAAction` that records each run: the event key and the object it ran for.
final class RecordingAction: NSObject, CAAction {
    private(set) var events: [String] = []
    private(set) var objects: [AnyObject] = []

    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        events.append(event)
        objects.append(anObject as AnyObject)
    }

    func reset() {
        events = []
        objects = []
    }
}

/// A layer delegate answering lookups with a closure, recording every key it is asked about.
final class ClosureLayerDelegate: NSObject, CALayerDelegate {
    private(set) var askedKeys: [String] = []
    private(set) var askedLayers: [CALayer] = []
    let answer: (CALayer, String) -> CAAction?

    init(_ answer: @escaping (CALayer, String) -> CAAction?) { self.answer = answer }

    func action(for layer: CALayer, forKey event: String) -> CAAction? {
        askedKeys.append(event)
        askedLayers.append(layer)
        return answer(layer, event)
    }
}

/// Stands in for an image as a layer's `contents`.
final class FakeImage {
    let name: String
    init(name: String) { self.name = name }
}

/// A root layer with one sublayer, set up without actions and rendered once at media time 0, so
/// that anything a test commits next starts at 0.
final class Scene<Layer: CALayer> {
    let root = CALayer()
    let layer: Layer
    let renderer: CARenderer

    init(_ layer: Layer, configure: (Layer) -> Void = { _ in }) {
        self.layer = layer
        renderer = CARenderer(layer: root)
        withActionsDisabled {
            root.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
            configure(layer)
            root.addSublayer(layer)
        }
        renderer.renderFrame(atTime: 0)
    }

    func frame(at time: Double) { renderer.renderFrame(atTime: time) }

    /// The presentation layer after the last frame.
    func presented(file: StaticString = #filePath, line: UInt = #line) throws -> Layer {
        try XCTUnwrap(layer.presentation(), "no presentation layer", file: file, line: line)
    }
}
