import XCTest
import Foundation
@testable import Strata

/// Core Animation's per-thread model: each thread has its own transaction stack and engine.
final class ThreadTests: XCTestCase {
    override func setUp() { CATransaction.flush() }

    /// Runs `body` on a new thread and waits for it (and for the thread to end).
    private func onNewThread(_ body: @escaping () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let t = Thread {
            body()
            done.signal()
        }
        t.start()
        done.wait()
        // Let the thread finish exiting (its thread-local destructor runs after the block).
        Thread.sleep(forTimeInterval: 0.05)
    }

    func test_transactionStacks_arePerThread() {
        CATransaction.begin()
        CATransaction.setAnimationDuration(3)
        var otherDuration = -1.0
        var otherDisabled = true
        onNewThread {
            otherDuration = CATransaction.animationDuration()
            otherDisabled = CATransaction.disableActions()
        }
        XCTAssertEqual(otherDuration, 0.25, "a new thread starts with no open transaction")
        XCTAssertFalse(otherDisabled)
        XCTAssertEqual(CATransaction.animationDuration(), 3, "this thread's transaction is untouched")
        CATransaction.commit()
    }

    func test_layersOfAnotherThread_liveInItsOwnEngine() {
        let before = StrataEngine.layerCount
        var otherCount = 0
        var presented: Float = -1
        onNewThread {
            let root = CALayer()
            let l = CALayer()
            root.addSublayer(l)
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            l.opacity = 0
            r.renderFrame(atTime: 1)
            r.renderFrame(atTime: 1.125)
            presented = l.presentation()!.opacity
            otherCount = StrataEngine.layerCount
        }
        XCTAssertEqual(otherCount, 2)
        XCTAssertEqual(StrataEngine.layerCount, before, "no layer was added to this thread's engine")
        // Halfway in time on the default curve (0.25,0.1)(0.25,1): 1 -> 0.
        let eased = ReferenceCurve.caDefault.progress(atFraction: 0.5)
        XCTAssertEqual(Double(presented), 1 - eased, accuracy: 1e-6)
    }

    func test_threadEndingWithOpenTransaction_commitsIt() {
        var completionRan = false
        onNewThread {
            CATransaction.begin()
            CATransaction.setCompletionBlock { completionRan = true }
            // no commit: the thread ends with the transaction open
        }
        XCTAssertTrue(completionRan, "the open transaction was committed at thread exit; with no animation its block ran")
    }

    func test_layerFromAnotherThread_cannotJoinThisTree() {
        var foreign: CALayer?
        onNewThread { foreign = CALayer() }
        let root = CALayer()
        let d = StrataDiagnostics.capture { root.addSublayer(foreign!) }
        XCTAssertEqual(d.map(\.code), [.invalidArgument])
        XCTAssertNil(root.sublayers)
    }
}
