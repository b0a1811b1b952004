import Foundation
import StrataReference
import XCTest


/// Runs `body` in an explicit transaction with actions disabled: set-up that must not animate.
func refWithoutActions(_ body: () -> Void) {
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    body()
    CATransaction.commit()
}

/// Runs `body` in an explicit transaction (optionally with a duration).
func refTransaction(duration: Double? = nil, _ body: () -> Void) {
    CATransaction.begin()
    if let duration { CATransaction.setAnimationDuration(duration) }
    body()
    CATransaction.commit()
}

func refAssertPoint(_ p: CGPoint?, _ x: Double, _ y: Double, accuracy: Double = 1e-9,
                 file: StaticString = #filePath, line: UInt = #line) {
    guard let p else { return XCTFail("no point", file: file, line: line) }
    XCTAssertEqual(Double(p.x), x, accuracy: accuracy, "x", file: file, line: line)
    XCTAssertEqual(Double(p.y), y, accuracy: accuracy, "y", file: file, line: line)
}

func refAssertColor(_ c: CGColor?, _ rgba: [Double], accuracy: Double = 1e-9,
                 file: StaticString = #filePath, line: UInt = #line) {
    guard let components = c?.components, components.count == 4 else {
        return XCTFail("expected \(rgba), got \(String(describing: c))", file: file, line: line)
    }
    for (got, want) in zip(components, rgba) {
        XCTAssertEqual(Double(got), want, accuracy: accuracy, "\(components) vs \(rgba)", file: file, line: line)
    }
}

/// Records what a CAAnimationDelegate is told, in order.
final class RefRecorder: NSObject, CAAnimationDelegate {
    var events: [String] = []
    let name: String
    init(_ name: String = "") { self.name = name }
    func animationDidStart(_ anim: CAAnimation) { events.append("start\(name)") }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { events.append("stop\(name)(\(flag))") }
}

/// A CAAction that records each run.
final class RefRecordingAction: NSObject, CAAction {
    var runs: [(String, AnyObject)] = []
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        runs.append((event, anObject as AnyObject))
    }
}

/// A layer delegate answering with a closure and recording the keys it is asked about.
final class RefAnswering: NSObject, CALayerDelegate {
    var asked: [String] = []
    let answer: (String) -> CAAction?
    init(_ answer: @escaping (String) -> CAAction?) { self.answer = answer }
    func action(for layer: CALayer, forKey event: String) -> CAAction? {
        asked.append(event)
        return answer(event)
    }
}

/// A root with one layer set up without actions and rendered at media time 0, so whatever a
/// test commits next starts at 0.
final class RefScene<Layer: CALayer> {
    let root = CALayer()
    let layer: Layer
    let renderer: CARenderer

    init(_ layer: Layer, _ configure: (Layer) -> Void = { _ in }) {
        CATransaction.flush()
        self.layer = layer
        renderer = CARenderer(layer: root)
        refWithoutActions {
            configure(layer)
            root.addSublayer(layer)
        }
        renderer.renderFrame(atTime: 0)
    }

    func frame(_ t: Double) { renderer.renderFrame(atTime: t) }

    var shown: Layer {
        guard let p = layer.presentation() else { fatalError("no presentation") }
        return p
    }
}

func refBasic(_ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil, duration: Double = 1) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: keyPath)
    a.fromValue = from
    a.toValue = to
    a.byValue = by
    a.duration = duration
    return a
}
