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
    // With --cpu-seconds each of the six threads needs that much CPU time: on two cores,
    // three times it in wall time when idle, more when busy.
    let limit = (options.cpuSeconds.map { $0 * 3 } ?? options.seconds) * 10 + 20
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
    /// A thread's loop condition, made on that thread: `--seconds` of wall time, or
    /// `--cpu-seconds` of the thread's own CPU time (the same work whatever else runs).
    func running() -> () -> Bool {
        if let cpu = options.cpuSeconds {
            let end = threadCPUNanoseconds() + UInt64(cpu * 1e9)
            return { threadCPUNanoseconds() < end }
        }
        return { Date() < deadline }
    }
    let wall0 = Date()
    var usage0 = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage0)
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
            let more = running()
            while more() {
                counters.add("cxxThrown", 50)
                counters.add("cxxCaught", UnwinderLinkage.cxxThrowCatch(50))
            }
        }
    }
    spawn("swift") {
        let more = running()
        while more() {
            var caught = 0
            for d in 0..<200 {
                do { _ = try throwSwiftError(d % 8) } catch is StressError { caught += 1 } catch {}
            }
            counters.add("swiftThrown", 200)
            counters.add("swiftCaught", caught)
        }
    }
    spawn("dlopen") {
        let more = running()
        while more() {
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
    let more = running()
    while more() {
        counters.add("cxxThrown", 10)
        counters.add("cxxCaught", UnwinderLinkage.cxxThrowCatch(10))
    }
    group.wait()
    let profile = profiler.stop()
    // How much of the machine the run had: its CPU time over the wall time of the cores it
    // could use (six busy threads, so every core). Near 1 on an idle machine; a busy one (another
    // test process, a neighbour) shows here, and the ring's drops are judged only near 1.
    var usage1 = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage1)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    let cpuUsed = seconds(usage1.ru_utime) + seconds(usage1.ru_stime) - seconds(usage0.ru_utime) - seconds(usage0.ru_stime)
    let wallUsed = Date().timeIntervalSince(wall0)
    let cores = Double(min(ProcessInfo.processInfo.activeProcessorCount, 6))
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
    summary["wallSeconds"] = wallUsed
    summary["cpuSeconds"] = cpuUsed
    summary["machineShare"] = wallUsed > 0 ? cpuUsed / (wallUsed * cores) : 0
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
