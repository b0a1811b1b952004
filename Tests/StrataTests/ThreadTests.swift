import XCTest
import Foundation
@testable import Strata

/// Core Animation's per-thread model: each thread has its own transaction stack and engine.
final class ThreadTests: XCTestCase {
    override func setUp() { CATransaction.flush() }

    /// Runs `body` on a new thread and waits for the thread to end: a joined pthread, so
    /// `pthread_join` returns after its thread-local destructors ran (where the engine lets go
    /// of an ended thread's work), however long a busy machine keeps the thread off the CPU.
    /// (A sleep after the body was a guess at that time: 50 ms, too short under load.)
    private func onNewThread(_ body: @escaping () -> Void) {
        joinedThread(body)
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
        // The block runs in the thread's exit (after its body): waited for by a semaphore it
        // signals, not by sleeping.
        let ran = DispatchSemaphore(value: 0)
        onNewThread {
            CATransaction.begin()
            CATransaction.setCompletionBlock { ran.signal() }
            // no commit: the thread ends with the transaction open
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 5), .success,
                       "the open transaction was committed at thread exit; with no animation its block ran")
    }

    /// A thread's engine goes when the thread ends and its layers are gone, even though it
    /// kept presentation copies for reuse (each copy refers to its engine).
    func test_engineOfAnEndedThread_isReleasedWithTheCopiesItKept() {
        weak var engine: EngineContext?
        var recycled = 0, live = 0
        onNewThread {
            let root = CALayer()
            let l = CALayer()
            let s = CAShapeLayer()
            root.addSublayer(l)
            root.addSublayer(s)
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            l.opacity = 0
            r.renderFrame(atTime: 1)
            for _ in 0..<3 { _ = l.presentation()?.opacity; _ = s.presentation()?.opacity }
            r.renderFrame(atTime: 1.1)  // the copies nobody held are kept for reuse
            _ = l.presentation()       // and one stays live until the thread ends
            engine = root.engine
            recycled = root.engine.layerObjects.recycledCount
            live = root.engine.layerObjects.liveCopyCount
        }
        XCTAssertGreaterThan(recycled, 1, "the engine kept copies for reuse (the case under test)")
        XCTAssertEqual(live, 1)
        XCTAssertNil(engine, "the ended thread's engine was released")
    }

    /// Several threads each run their own transactions and frames at the same time, on their
    /// own engines: every thread sees exactly its own animations' values. (Run under
    /// ThreadSanitizer by `scripts/sanitize`: no race report.)
    func test_transactionsOnSeveralThreadsAtOnce() {
        let threads = 4, n = 2_000
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let lock = NSLock()
        var results: [Int: (count: Int, mid: [Float], end: [Float])] = [:]
        for k in 0..<threads {
            done.enter()
            let t = Thread {
                defer { done.leave() }
                start.wait()   // all threads go at once
                let root = CALayer()
                let layers = (0..<n).map { _ in CALayer() }
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                for l in layers { root.addSublayer(l) }
                CATransaction.commit()
                let r = CARenderer(layer: root)
                r.renderFrame(atTime: 0)
                CATransaction.begin()
                CATransaction.setAnimationDuration(1)
                CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
                for (i, l) in layers.enumerated() { l.opacity = Float((i + k) % 10) / 10 }
                CATransaction.commit()
                r.renderFrame(atTime: 0.5)
                let mid = layers.map { $0.presentation()!.opacity }
                r.renderFrame(atTime: 1)
                let end = layers.map { $0.presentation()!.opacity }
                lock.lock()
                results[k] = (StrataEngine.layerCount, mid, end)
                lock.unlock()
            }
            t.start()
        }
        for _ in 0..<threads { start.signal() }
        done.wait()
        XCTAssertEqual(results.count, threads)
        for (k, r) in results {
            XCTAssertEqual(r.count, n + 1, "thread \(k): its engine holds its own layers only")
            for i in 0..<n {
                let target = Float((i + k) % 10) / 10
                XCTAssertEqual(r.mid[i], 1 + (target - 1) * 0.5, accuracy: 1e-6, "thread \(k) layer \(i) halfway")
                XCTAssertEqual(r.end[i], target, "thread \(k) layer \(i) at the end")
            }
        }
    }

    /// A layer used on a thread that did not create it: every change is refused with a
    /// `.wrongThread` diagnostic (not applied to the other thread's engine), a read is reported,
    /// and the owning thread's state is untouched.
    func test_layerUsedOnAnotherThread_isRefusedWithADiagnostic() {
        let handedOver = DispatchSemaphore(value: 0), used = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        var layer: CALayer?
        var ownerView: (opacity: Float, position: CGPoint, keys: [String]?, sublayers: Int, actions: Int)?
        let owner = Thread {
            let root = CALayer()
            let l = CALayer()
            l.name = "handed"
            root.addSublayer(l)
            CATransaction.flush()
            layer = l
            handedOver.signal()
            used.wait()   // the other thread tries its changes now
            CATransaction.flush()
            ownerView = (l.opacity, l.position, l.animationKeys(), l.sublayers?.count ?? 0, l.actions?.count ?? 0)
            finished.signal()
            _ = root
        }
        owner.start()
        handedOver.wait()
        let l = layer!
        let d = StrataDiagnostics.capture {
            l.opacity = 0.25
            l.position = CGPoint(x: 9, y: 9)
            l.addSublayer(CALayer())
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0.0
            a.toValue = 1.0
            l.add(a, forKey: "fade")
            l.actions = ["opacity": NSNull()]
            _ = l.opacity   // a read: reported, not refused
        }
        used.signal()
        finished.wait()
        layer = nil
        XCTAssertGreaterThanOrEqual(d.filter { $0.code == .wrongThread }.count, 6, d.map(\.message).joined(separator: "\n"))
        XCTAssertTrue(d.contains { $0.code == .wrongThread && $0.message.contains("'handed'") })
        XCTAssertEqual(ownerView?.opacity, 1, "the change was not applied")
        XCTAssertEqual(ownerView?.position, .zero)
        XCTAssertNil(ownerView?.keys, "no animation was added")
        XCTAssertEqual(ownerView?.sublayers, 0)
        XCTAssertEqual(ownerView?.actions, 0, "the actions were put back")
    }

    /// The last reference to a layer released on another thread: reported, and the layer's
    /// row is freed by its own thread at its next frame (not by the releasing thread).
    func test_layerReleasedOnAnotherThread_isFreedByItsOwnThread() {
        let handedOver = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        var layer: CALayer?
        var counts: (before: Int, afterRelease: Int, afterFrame: Int) = (0, 0, 0)
        let owner = Thread {
            let root = CALayer()
            let r = CARenderer(layer: root)
            r.renderFrame(atTime: 0)
            layer = CALayer()
            counts.before = StrataEngine.layerCount
            handedOver.signal()
            released.wait()
            counts.afterRelease = StrataEngine.layerCount
            r.renderFrame(atTime: 1)
            counts.afterFrame = StrataEngine.layerCount
            finished.signal()
        }
        owner.start()
        handedOver.wait()
        let d = StrataDiagnostics.capture { layer = nil }
        released.signal()
        finished.wait()
        XCTAssertEqual(d.map(\.code), [.wrongThread])
        XCTAssertEqual(counts.before, 2)
        XCTAssertEqual(counts.afterRelease, 2, "not freed by the releasing thread")
        XCTAssertEqual(counts.afterFrame, 1, "freed by its own thread at the next frame")
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

/// Runs `body` on a pthread of its own (the default attributes: glibc's 8 MiB stack) and joins
/// it: returns once the thread has ended, its thread-local destructors included.
func joinedThread(_ body: @escaping () -> Void) {
    final class Body { let run: () -> Void; init(_ run: @escaping () -> Void) { self.run = run } }
    var thread: pthread_t = 0
    let started = pthread_create(&thread, nil, { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, Unmanaged.passRetained(Body(body)).toOpaque())
    precondition(started == 0, "pthread_create failed: \(started)")
    pthread_join(thread, nil)
}
