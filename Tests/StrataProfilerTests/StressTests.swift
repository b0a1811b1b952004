import CSampler
import Foundation
@testable import StrataProfiler
import XCTest

/// Profiling at a high rate while other threads throw and catch C++ exceptions and Swift
/// errors and dlopen / dlclose libraries: the run finishes (no hang: a watchdog kills it),
/// nothing crashes, every exception is caught.
final class StressTests: XCTestCase {
    /// The optimised executable's stress mode, once per unwinder: 5 threads at 10 kHz for 1.5 s.
    func test_highRateProfilingSurvivesExceptionsAndDlopenWithEveryUnwinder() throws {
        let exe = try AcceptanceExecutable.url()
        for unwinder in ["backtrace", "dwarf", "fp"] {
            let dir = try AcceptanceExecutable.temporaryDirectory("stress")
            defer { try? FileManager.default.removeItem(at: dir) }
            let r = try AcceptanceExecutable.run(exe, ["stress", "--out", dir.path, "--seconds", "1.5", "--hz", "10000",
                                                       "--unwinder", unwinder], timeout: 90)
            XCTAssertFalse(r.timedOut, "\(unwinder): hang (killed by the test's watchdog)\n\(r.output)")
            XCTAssertFalse(r.crashed, "\(unwinder): crashed\n\(r.output)")
            XCTAssertNotEqual(r.status, 3, "\(unwinder): hang (the executable's own watchdog)\n\(r.output)")
            XCTAssertEqual(r.status, 0, "\(unwinder)\n\(r.output)")
            guard r.status == 0 else { continue }
            let s = try AcceptanceExecutable.summary(in: dir)
            let thrown = try XCTUnwrap(s["cxxThrown"] as? Int)
            XCTAssertGreaterThan(thrown, 1_000, unwinder)
            XCTAssertEqual(s["cxxCaught"] as? Int, thrown, "\(unwinder): every C++ exception caught")
            let swiftThrown = try XCTUnwrap(s["swiftThrown"] as? Int)
            XCTAssertGreaterThan(swiftThrown, 1_000, unwinder)
            XCTAssertEqual(s["swiftCaught"] as? Int, swiftThrown, "\(unwinder): every Swift error caught")
            XCTAssertGreaterThan(s["dlopens"] as? Int ?? 0, 50, "\(unwinder): \(s)")
            XCTAssertNil(s["dlopenFailures"], "\(unwinder): \(s)")
            XCTAssertEqual(s["dlsyms"] as? Int, s["dlopens"] as? Int, unwinder)
            // The signals really landed in the dangerous places.
            XCTAssertGreaterThan(s["samples"] as? Int ?? 0, 2_000, "\(unwinder): \(s)")
            XCTAssertGreaterThan(s["samplesInUnwindRaise"] as? Int ?? 0, 0, "\(unwinder): samples inside C++ unwinding")
            XCTAssertGreaterThan(s["samplesInDlopen"] as? Int ?? 0, 0, "\(unwinder): samples inside dlopen/dlclose")
            XCTAssertEqual(s["threads"] as? Int, 5, unwinder)
            // Every signal is a sample or counted under its cause. The ring can fill when the
            // collector waits on a handler whose thread the scheduler parked (seven busy threads
            // on two cores): that is counted, never silent, and must stay rare.
            let signals = try XCTUnwrap(s["signals"] as? Int)
            let dropped = try XCTUnwrap(s["dropped"] as? Int)
            XCTAssertEqual((s["samples"] as? Int ?? 0) + dropped + (s["paused"] as? Int ?? -1), signals,
                           "\(unwinder): every signal accounted for: \(s)")
            XCTAssertLessThanOrEqual(dropped * 1_000, signals, "\(unwinder): at most 0.1% dropped: \(s)")
            if unwinder != "fp" {
                XCTAssertGreaterThan(s["inLoader"] as? Int ?? 0, 0, "\(unwinder): loader samples walked by frame pointers")
            }
            XCTAssertTrue((s["unwindRaiseProvider"] as? String ?? "").contains("libgcc_s"), "\(s)")
        }
    }

    /// The same in this test process (which links CSampler too), shorter.
    func test_inProcessProfilingSurvivesExceptionsAndDlopen() throws {
        let profiler = try SamplingProfiler.start(.init(rate: 5_000, clock: .wall))
        let deadline = Date(timeIntervalSinceNow: 1.0)
        let group = DispatchGroup()
        let counts = Counts()
        func spawn(_ body: @escaping () -> Void) {
            group.enter()
            Thread {
                do { try profiler.registerCurrentThread() } catch { XCTFail("\(error)") }
                body()
                profiler.unregisterCurrentThread()
                group.leave()
            }.start()
        }
        spawn {
            while Date() < deadline { counts.add(thrown: 20, caught: UnwinderLinkage.cxxThrowCatch(20)) }
        }
        spawn {
            while Date() < deadline {
                for d in 0..<100 {
                    do { try Self.throwing(d % 6) } catch { counts.add(thrown: 1, caught: 1) }
                }
            }
        }
        spawn {
            while Date() < deadline {
                if let h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL) {
                    dlclose(h)
                    counts.add(opened: 1)
                }
            }
        }
        // The watchdog: a hang here would hang the whole test run, so it ends the process.
        if group.wait(timeout: .now() + 60) == .timedOut {
            fatalError("in-process stress test hung")
        }
        let profile = profiler.stop()
        XCTAssertGreaterThan(profile.samples.count, 500)
        XCTAssertEqual(profile.statistics.dropped, 0)
        let c = counts.snapshot
        XCTAssertGreaterThan(c.thrown, 100)
        XCTAssertEqual(c.caught, c.thrown)
        XCTAssertGreaterThan(c.opened, 10)
    }

    @inline(never)
    static func throwing(_ depth: Int) throws {
        if depth == 0 { throw CocoaError(.fileNoSuchFile) }
        try throwing(depth - 1)
    }

    final class Counts: @unchecked Sendable {
        private let lock = NSLock()
        private var thrown = 0, caught = 0, opened = 0
        func add(thrown t: Int = 0, caught c: Int = 0, opened o: Int = 0) {
            lock.lock(); thrown += t; caught += c; opened += o; lock.unlock()
        }
        var snapshot: (thrown: Int, caught: Int, opened: Int) {
            lock.lock(); defer { lock.unlock() }
            return (thrown, caught, opened)
        }
    }
}
