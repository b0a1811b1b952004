import Foundation
import StrataProfiler

/// Writes `summary` as JSON to DIR/summary.json and stdout.
func writeSummary(_ summary: [String: Any], to dir: URL) {
    do {
        let data = try JSONSerialization.data(withJSONObject: summary, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: dir.appendingPathComponent("summary.json"))
        FileHandle.standardOutput.write(data)
        print()
    } catch {
        fail("summary: \(error)")
    }
}

/// The 6:3:1 workload (or `options.slots`) under the profiler, and every output written.
func runAcceptance(_ options: Options) {
    let names = ["commitLike", "lookupLike", "evaluateLike"]
    let state = WorkState()
    let trace = TraceRecorder(processName: "strata-profile-acceptance")
    trace.nameThread("work")

    /// One cycle is ten slices of `slice` CPU nanoseconds (by default): six commit, three
    /// lookup, one evaluate, in a fresh random order each cycle, so no timer period can alias
    /// with it.
    let slice: UInt64 = 250_000
    var slots = options.slots.enumerated().flatMap { k, n in [Int](repeating: k, count: n) }
    var rng = SystemRandomNumberGenerator()
    var sink: UInt64 = 0

    func cycle() {
        slots.shuffle(using: &rng)
        let c0 = TraceRecorder.now()
        for k in slots {
            let t0 = TraceRecorder.now()
            let deadline = threadCPUNanoseconds() + slice
            switch k {
            case 0: sink &+= AcceptanceWork.commitLike(state, until: deadline)
            case 1: sink &+= AcceptanceWork.lookupLike(state, until: deadline)
            default: sink &+= AcceptanceWork.evaluateLike(state, until: deadline)
            }
            trace.complete(names[k], category: "work", start: t0, end: TraceRecorder.now())
        }
        trace.complete("cycle", category: "work", start: c0, end: TraceRecorder.now())
    }

    // Warm-up, unprofiled: page in the buffers and the code.
    for _ in 0..<20 { cycle() }

    let profiler: SamplingProfiler
    do {
        profiler = try SamplingProfiler.start(.init(rate: options.hz, unwinder: options.unwinder, clock: options.mode,
                                                        caching: options.caching))
    } catch {
        fail("\(error)")
    }
    let cpu0 = threadCPUNanoseconds()
    let wall0 = TraceRecorder.now()
    let end = wall0 + UInt64(options.seconds * 1e9)
    let cpuEnd = options.cpuSeconds.map { cpu0 + UInt64($0 * 1e9) }
    var cycles = 0
    while cpuEnd.map({ threadCPUNanoseconds() < $0 }) ?? (TraceRecorder.now() < end) {
        cycle()
        cycles += 1
    }
    let profile = profiler.stop()
    // The workload's own record of the time it was given: on a busy machine the thread runs
    // for less CPU time than wall time, and a test judges the samples against both.
    let wallSeconds = Double(TraceRecorder.now() - wall0) / 1e9
    let cpuSeconds = Double(threadCPUNanoseconds() - cpu0) / 1e9
    let stacks = profile.symbolicated()

    let dir = URL(fileURLWithPath: options.out, isDirectory: true)
    do {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try stacks.folded().write(to: dir.appendingPathComponent("profile.folded"), atomically: true, encoding: .utf8)
        try stacks.speedscopeJSON(name: "strata-profile-acceptance")
            .write(to: dir.appendingPathComponent("profile.speedscope.json"), atomically: true, encoding: .utf8)
        try profile.gperftoolsData().write(to: dir.appendingPathComponent("profile.pprof"))
        try profile.pprofProtobuf(comment: "strata-profile-acceptance").data.write(to: dir.appendingPathComponent("profile.pb"))
        try trace.json().write(to: dir.appendingPathComponent("trace.json"), atomically: true, encoding: .utf8)
        try stacks.flameGraphHTML(title: "strata-profile-acceptance")
            .write(to: dir.appendingPathComponent("flamegraph.html"), atomically: true, encoding: .utf8)
    } catch {
        fail("writing \(dir.path): \(error)")
    }

    // The summary: what the profiler itself reports, for the test to check against the files.
    var shares: [String: Double] = [:]
    var demangled: [String: String] = [:]
    for n in names {
        shares[n] = stacks.inclusivePercent { $0.name.contains(n) }
        demangled[n] = stacks.frames.first { $0.name.contains(n) }?.name ?? ""
    }
    let s = profile.statistics
    let summary: [String: Any] = [
        "samples": profile.samples.count,
        "totalWeight": profile.totalWeight,
        "signals": s.signals,
        "dropped": s.dropped,
        "droppedRingFull": s.droppedRingFull,
        "droppedReentrant": s.droppedReentrant,
        "overruns": s.overruns,
        "unwindFailures": s.unwindFailures,
        "truncated": s.truncated,
        "contended": s.contended,
        "inLoader": s.inLoader,
        "timer": s.timer.rawValue,
        "deliveredRate": profile.deliveredRate,
        "threads": stacks.threads.map(Int.init),
        "cycles": cycles,
        "cpuSeconds": cpuSeconds,
        "wallSeconds": wallSeconds,
        "hz": options.hz,
        "mode": options.mode.rawValue,
        "unwinder": options.unwinder.rawValue,
        "shares": shares,
        "names": demangled,
        "unwindNanoseconds": ["mean": profile.unwindCost.mean, "median": profile.unwindCost.median,
                              "p99": profile.unwindCost.p99],
        "handlerNanoseconds": ["mean": profile.handlerCost.mean, "median": profile.handlerCost.median,
                               "p99": profile.handlerCost.p99],
        "unwindRaiseProvider": UnwinderLinkage.raiseExceptionProvider ?? "",
        "sink": Int(truncatingIfNeeded: sink & 0xFFFF),
    ]
    writeSummary(summary, to: dir)
}
