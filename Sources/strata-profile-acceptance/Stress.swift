import Foundation
import StrataProfiler

/// A Swift error thrown through a few frames.
struct StressError: Error {
    var depth: Int
}

@inline(never)
func throwSwiftError(_ depth: Int) throws -> Int {
    if depth == 0 { throw StressError(depth: depth) }
    return try throwSwiftError(depth - 1) &+ 1
}

/// Libraries the dlopen thread loads and unloads: not linked into this executable, so each
/// dlopen maps the object and each dlclose unmaps it.
let dlopenCandidates = ["libz.so.1", "libbz2.so.1.0", "libexpat.so.1", "libuuid.so.1"]

/// Counts one stress thread reports.
final class StressCounters: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Int] = [:]
    func add(_ key: String, _ n: Int) { lock.lock(); values[key, default: 0] += n; lock.unlock() }
    var snapshot: [String: Int] { lock.lock(); defer { lock.unlock() }; return values }
}

/// Profiles, at a high rate, threads that throw and catch C++ exceptions (libgcc_s's
/// unwinder running while SIGPROF walks the same stack with libunwind), throw and catch Swift
/// errors, and dlopen / dlclose libraries (objects appearing and disappearing under
/// libunwind's caches). Succeeds when every exception is caught, nothing hangs (a watchdog
/// exits 3 after 10x the run + 20 s) and nothing crashes.
func runStress(_ options: Options) {
    let dir = URL(fileURLWithPath: options.out, isDirectory: true)
    do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
        fail("creating \(dir.path): \(error)")
    }
    let limit = options.seconds * 10 + 20
    let done = DispatchSemaphore(value: 0)
    let watchdog = Thread {
        if done.wait(timeout: .now() + limit) == .timedOut {
            FileHandle.standardError.write(Data("strata-profile-acceptance stress: hang: not finished after \(limit) s\n".utf8))
            _exit(3)
        }
    }
    watchdog.start()

    let profiler: SamplingProfiler
    do {
        profiler = try SamplingProfiler.start(.init(rate: options.hz, unwinder: options.unwinder, clock: options.mode,
                                                        caching: options.caching))
    } catch {
        fail("\(error)")
    }
    let counters = StressCounters()
    let deadline = Date(timeIntervalSinceNow: options.seconds)
    let group = DispatchGroup()
    func spawn(_ name: String, _ body: @escaping () -> Void) {
        group.enter()
        let t = Thread {
            do { try profiler.registerCurrentThread() } catch { fail("\(name): \(error)") }
            body()
            profiler.unregisterCurrentThread()
            group.leave()
        }
        t.name = name
        t.start()
    }
    for k in 0..<2 {
        spawn("c++ \(k)") {
            while Date() < deadline {
                counters.add("cxxThrown", 50)
                counters.add("cxxCaught", UnwinderLinkage.cxxThrowCatch(50))
            }
        }
    }
    spawn("swift") {
        while Date() < deadline {
            var caught = 0
            for d in 0..<200 {
                do { _ = try throwSwiftError(d % 8) } catch is StressError { caught += 1 } catch {}
            }
            counters.add("swiftThrown", 200)
            counters.add("swiftCaught", caught)
        }
    }
    spawn("dlopen") {
        while Date() < deadline {
            for lib in dlopenCandidates {
                guard let h = dlopen(lib, RTLD_NOW | RTLD_LOCAL) else {
                    counters.add("dlopenFailures", 1)
                    continue
                }
                if dlsym(h, "zlibVersion") != nil || dlsym(h, "BZ2_bzlibVersion") != nil
                    || dlsym(h, "XML_ExpatVersion") != nil || dlsym(h, "uuid_generate") != nil {
                    counters.add("dlsyms", 1)
                }
                dlclose(h)
                counters.add("dlopens", 1)
            }
        }
    }
    // This thread too: C++ exceptions while the others run.
    while Date() < deadline {
        counters.add("cxxThrown", 10)
        counters.add("cxxCaught", UnwinderLinkage.cxxThrowCatch(10))
    }
    group.wait()
    let profile = profiler.stop()
    let stacks = profile.symbolicated()
    done.signal()

    let s = profile.statistics
    var summary: [String: Any] = counters.snapshot
    summary["samples"] = profile.samples.count
    summary["signals"] = s.signals
    summary["dropped"] = s.dropped
    summary["droppedRingFull"] = s.droppedRingFull
    summary["droppedReentrant"] = s.droppedReentrant
    summary["paused"] = s.paused
    summary["unwindFailures"] = s.unwindFailures
    summary["contended"] = s.contended
    summary["inLoader"] = s.inLoader
    summary["threads"] = stacks.threads.count
    summary["unwinder"] = options.unwinder.rawValue
    summary["unwindNanoseconds"] = ["median": profile.unwindCost.median, "mean": profile.unwindCost.mean]
    summary["unwindRaiseProvider"] = UnwinderLinkage.raiseExceptionProvider ?? ""
    // Samples caught inside the C++ unwinder (libgcc_s) or the dynamic loader.
    summary["samplesInUnwindRaise"] = Int(stacks.inclusivePercent { $0.name.hasPrefix("_Unwind_") || $0.name.contains("__cxa_throw") }
                                          * Double(stacks.totalSamples) / 100 + 0.5)
    summary["samplesInDlopen"] = Int(stacks.inclusivePercent { $0.name.hasPrefix("dlopen") || $0.name.hasPrefix("dlclose") }
                                     * Double(stacks.totalSamples) / 100 + 0.5)
    writeSummary(summary, to: dir)
}
