import Foundation
import StrataReference
import XCTest

/// The layer tree and its order events, the host view, bad input, per-thread engines.
final class TreeViewAndDiagnosticsTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataDiagnostics.handler = { _ in }
    }

    func test_orderEventsOnAddMoveRemoveAndHide() {
        let a = CALayer(), b = CALayer(), child = CALayer()
        let action = RefRecordingAction()
        child.actions = [kCAOnOrderIn: action, kCAOnOrderOut: action, "hidden": NSNull()]
        a.addSublayer(child)
        b.addSublayer(child)          // moved: joins b
        a.addSublayer(child)
        child.removeFromSuperlayer()
        child.isHidden = true
        child.isHidden = false
        XCTAssertEqual(action.runs.map { $0.0 }, [kCAOnOrderIn, kCAOnOrderIn, kCAOnOrderIn, kCAOnOrderOut, kCAOnOrderOut, kCAOnOrderIn])
        refWithoutActions { a.addSublayer(child) }
        XCTAssertEqual(action.runs.count, 6, "disabled actions run no events")
    }

    func test_sublayerInsertionReplacementAndSublayersSetter() {
        let root = CALayer()
        let l = (0..<5).map { _ in CALayer() }
        refWithoutActions {
            root.addSublayer(l[0])
            root.insertSublayer(l[1], at: 0)
            root.insertSublayer(l[2], above: l[1])
            root.insertSublayer(l[3], below: l[0])
            root.insertSublayer(l[4], at: 99)
        }
        func order() -> [Int] { (root.sublayers ?? []).map { s in l.firstIndex { $0 === s }! } }
        XCTAssertEqual(order(), [1, 2, 3, 0, 4])
        refWithoutActions { root.insertSublayer(l[1], above: l[0]) }
        XCTAssertEqual(order(), [2, 3, 0, 1, 4], "moving within the same parent")
        let newcomer = CALayer()
        refWithoutActions { root.replaceSublayer(l[3], with: newcomer) }
        XCTAssertNil(l[3].superlayer)
        XCTAssertTrue(root.sublayers?[1] === newcomer)
        root.sublayers = [l[4], l[2]]
        XCTAssertEqual(order(), [4, 2])
        XCTAssertEqual(root.animationKeys(), [kCATransition], "setting sublayers runs the built-in transition")
        XCTAssertNil(l[0].superlayer)
    }

    func test_cyclesAndCopiesAreRefusedFromTheTree() {
        let parent = CALayer(), child = CALayer()
        parent.addSublayer(child)
        let renderer = CARenderer(layer: parent)
        renderer.renderFrame(atTime: 0)
        let diagnostics = StrataDiagnostics.capture {
            child.addSublayer(parent)
            child.addSublayer(child)
            child.mask = child
            parent.addSublayer(child.presentation()!)
        }
        XCTAssertEqual(diagnostics.map(\.code), [.layerCycle, .layerCycle, .layerCycle, .invalidArgument])
        XCTAssertNil(parent.superlayer)
        XCTAssertEqual(parent.sublayers?.count, 1)
    }

    func test_seed004_viewAnimatesOnlyInsideAnimationBlocks() {
        CATransaction.flush()
        let view = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let renderer = CARenderer(layer: view.layer)
        renderer.renderFrame(atTime: 0)
        refAssertPoint(view.layer.presentation()?.position, 50, 50)
        view.layer.opacity = 0
        XCTAssertNil(view.layer.animationKeys(), "the view answers NSNull outside a block")
        renderer.renderFrame(atTime: 0.1)
        var finished: [Bool] = []
        View.animate(withDuration: 1, animations: { view.layer.opacity = 1 }, completion: { finished.append($0) })
        XCTAssertEqual(view.layer.animationKeys(), ["opacity"])
        renderer.renderFrame(atTime: 0.4)
        XCTAssertEqual(Double(view.layer.presentation()!.opacity), ReferenceCurve.easeInEaseOut.progress(atFraction: 0.3), accuracy: 1e-6)
        renderer.renderFrame(atTime: 1.1)
        XCTAssertEqual(finished, [true])
        let child = View(frame: .zero)
        view.addSubview(child)
        XCTAssertTrue(child.superview === view)
        XCTAssertTrue(child.layer.superlayer === view.layer)
    }

    func test_badValuesAreRefusedAndChangeNothing() {
        let scene = RefScene(CALayer()) { $0.opacity = 0.5 }
        let bad = refBasic("opacity", from: CGPoint(x: 1, y: 1), to: 1.0)
        let diagnostics = StrataDiagnostics.capture {
            scene.layer.setValue(CGPoint(x: 1, y: 2), forKey: "opacity")
            scene.layer.opacity = .nan
            scene.layer.setValue(1.0, forKeyPath: "position.z")
            scene.layer.setValue(1.0, forKey: "strokeEnd")
            scene.layer.add(bad, forKey: "bad")
            scene.layer.add(refBasic("speed", to: 2.0), forKey: "timing")
            scene.shown.opacity = 0.1
            let negative = refBasic("opacity", to: 0.0)
            negative.duration = -1
            scene.layer.add(negative, forKey: "negative")
        }
        XCTAssertEqual(diagnostics.map(\.code), [.wrongValueType, .nonFiniteValue, .unknownKeyPath, .unknownKeyPath,
                                                 .wrongValueType, .unknownKeyPath, .invalidArgument, .invalidArgument])
        XCTAssertEqual(scene.layer.opacity, 0.5)
        XCTAssertNil(scene.layer.animationKeys())
        XCTAssertEqual(scene.shown.opacity, 0.5)
    }

    func test_engineCountsLayersAndAnimations() {
        let before = StrataEngine.layerCount
        var layers: [CALayer] = [CALayer(), CAShapeLayer()]
        XCTAssertEqual(StrataEngine.layerCount, before + 2)
        _ = layers[0].presentation()
        layers[0].opacity = 0
        layers[1].add(refBasic("strokeEnd", from: 0.0, to: 1.0), forKey: nil)
        XCTAssertEqual(StrataEngine.activeAnimationCount, 2)
        XCTAssertNil(layers[1].animationKeys(), "a nil key is not listed")
        layers.removeAll()
        XCTAssertEqual(StrataEngine.layerCount, before)
        XCTAssertEqual(StrataEngine.activeAnimationCount, 0)
    }

    func test_transactionsArePerThreadAndCommittedAtThreadExit() {
        final class Observed: @unchecked Sendable {
            let lock = NSLock()
            var codes: [StrataDiagnosticCode] = []
            var otherDuration = 0.0
            var completionRan = false
        }
        let observed = Observed()
        StrataDiagnostics.handler = { d in observed.lock.lock(); observed.codes.append(d.code); observed.lock.unlock() }
        CATransaction.begin()
        CATransaction.setAnimationDuration(3)
        let done = DispatchSemaphore(value: 0), exited = DispatchSemaphore(value: 0)
        let thread = Thread {
            let duration = CATransaction.animationDuration()
            observed.lock.lock(); observed.otherDuration = duration; observed.lock.unlock()
            CATransaction.begin()
            CATransaction.setCompletionBlock {
                observed.lock.lock(); observed.completionRan = true; observed.lock.unlock()
                exited.signal()
            }
            done.signal()
        }
        thread.start()
        done.wait()
        // The thread's exit commits its open transaction (the diagnostic first, then the
        // completion block): waited for by the block's signal, not by a sleep a busy machine can
        // outlast. The bound only keeps a broken exit from hanging the run.
        XCTAssertEqual(exited.wait(timeout: .now() + 60), .success, "the open transaction was committed at thread exit")
        XCTAssertEqual(CATransaction.animationDuration(), 3, "this thread's stack is untouched")
        CATransaction.commit()
        observed.lock.lock(); defer { observed.lock.unlock() }
        XCTAssertEqual(observed.otherDuration, 0.25, "another thread has its own stack")
        XCTAssertEqual(observed.codes, [.openTransactionsAtThreadExit])
        XCTAssertTrue(observed.completionRan, "the open transaction was committed at exit")
    }

    func test_timingFunctionControlPointsAndShapeDefaults() {
        var p: [Float] = [0, 0]
        CAMediaTimingFunction(name: .easeInEaseOut).getControlPoint(at: 2, values: &p)
        XCTAssertEqual(p, [0.58, 1])
        CAMediaTimingFunction(controlPoints: -1, 0.5, 2, 0.5).getControlPoint(at: 1, values: &p)
        XCTAssertEqual(p, [0, 0.5], "x is clamped to 0...1")
        XCTAssertEqual(CAMediaTimingFunction(name: .default), CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1))
        XCTAssertEqual(CAMediaTimingFunction(name: .easeOut).evaluate(at: 0.3), ReferenceCurve.easeOut.progress(atFraction: 0.3), accuracy: 1e-9)
        let shape = CAShapeLayer()
        XCTAssertEqual([shape.strokeStart, shape.strokeEnd, shape.lineWidth, shape.miterLimit, shape.lineDashPhase], [0, 1, 1, 10, 0])
        XCTAssertEqual(shape.fillColor, CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        XCTAssertNil(shape.strokeColor)
        let layer = CALayer()
        XCTAssertEqual(layer.shadowOffset, CGSize(width: 0, height: -3))
        XCTAssertEqual(layer.shadowRadius, 3)
        XCTAssertEqual(layer.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        refAssertPoint(layer.anchorPoint, 0.5, 0.5)
        XCTAssertTrue(layer.isDoubleSided)
        XCTAssertNil(layer.backgroundColor)
    }
}
