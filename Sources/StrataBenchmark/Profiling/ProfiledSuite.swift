import Foundation
import Strata
import StrataBench
import StrataProfiler

/// Benchmark bodies, case by case: each case is prepared, warmed up (which sizes its run),
/// run `rounds` rounds of the same iterations unprofiled and profiled in turn (the thread
/// registered only for the second, so drift on a noisy machine hits both sides alike), and
/// released before the next is prepared. Each case runs on a thread of its own, so on an
/// engine of its own (engines are per thread): the stores a case grew go with its thread,
/// where one engine for all would keep every store at its largest case's capacity (3.1 GiB
/// resident by the 48th case of the frame suite). Memory peaks at about the largest single
/// case. Resets run paused (no samples) and outside the timings.
struct ProfiledSuite {
    /// The benchmarks whose bodies run, each prepared at its turn.
    var cases: [BenchmarkCase]

    /// Runs `cases` (at least one).
    init(cases: [BenchmarkCase]) { self.cases = cases }

    /// Iterations shorter than this are traced in batches, so a 10 ns lookup does not write
    /// a hundred million events.
    static let minimumEventNanoseconds: UInt64 = 20_000
    /// Iteration events a case writes per round at most (so a whole suite's trace stays
    /// near a few hundred thousand events; the benchmark spans say which iterations ran).
    static let eventsPerRound = 200
    /// Unprofiled-then-profiled rounds a run is split into (scenes too).
    static let rounds = 5

    /// The whole run within about `seconds` of wall-clock time, preparation included: each
    /// case gets an equal share of what is left when it starts (its preparation comes out of
    /// its share; a tenth of the rest warms it up, the rest is split between the unprofiled
    /// and the profiled rounds). A case with a fixed iteration count runs it whatever its
    /// share. Cases not started when the time is spent are listed in `ProfiledRun.skipped`;
    /// one whose preparation or body fails is in `failures`, and the next case runs. When
    /// `shouldStop` says so (checked between iterations), the run ends with the cases
    /// finished: the samples of the unfinished case are dropped. `progress` hears each case
    /// start and end, with the time spent, the samples so far and the memory resident.
    func run(seconds: Double, configuration: SamplingProfiler.Configuration, trace: TraceRecorder,
                    progress: (String) -> Void = { _ in }, shouldStop: () -> Bool = { false }) throws -> ProfiledRun {
        let started = TraceRecorder.now()
        let deadline = started &+ UInt64(max(seconds, 0) * 1e9)
        func elapsed() -> String { String(format: "%.1f s", Double(TraceRecorder.now() - started) / 1e9) }
        let profiler = try SamplingProfiler.start(configuration, registeringCurrentThread: false)
        var baseline: UInt64 = 0, profiled: UInt64 = 0, iterations = 0
        var finished: [ProfiledRun.CaseOutcome] = [], failures: [String] = [], skipped: [String] = []
        var interruptedAt: UInt64?
        let n = cases.count
        for (i, c) in cases.enumerated() {
            let caseStart = TraceRecorder.now()
            if shouldStop() { interruptedAt = caseStart; skipped = cases[i...].map(\.name); break }
            if i > 0 && caseStart >= deadline {
                skipped = cases[i...].map(\.name)
                progress("time budget of \(String(format: "%g", seconds)) s spent after \(i) of \(n) cases (\(elapsed())): \(n - i) not profiled")
                break
            }
            let share = Double(deadline > caseStart ? deadline - caseStart : 0) / Double(n - i)
            progress("[\(i + 1)/\(n)] \(c.name): preparing (\(elapsed()) elapsed, \(profiler.statistics.samples) samples so far)")
            let outcome: ProfiledRun.CaseOutcome?
            do {
                outcome = try Self.onThreadOfItsOwn {
                    trace.nameThread("benchmark \(c.name)")
                    return try runCase(c, share: share, profiler, trace, shouldStop)
                }
            } catch {
                failures.append("\(c.name): \(error)")
                progress("[\(i + 1)/\(n)] \(c.name) failed: \(error)")
                continue
            }
            guard let o = outcome else { interruptedAt = caseStart; skipped = cases[i...].map(\.name); break }
            finished.append(o)
            baseline += o.baselineNanoseconds
            profiled += o.profiledNanoseconds
            iterations += o.iterations
            progress(String(format: "[%d/%d] %@: %d iterations in %.2f s unprofiled, %.2f s profiled (prepared in %.2f s); %@ elapsed, %d samples so far, %@",
                            i + 1, n, c.name, o.iterations, Double(o.baselineNanoseconds) / 1e9, Double(o.profiledNanoseconds) / 1e9,
                            Double(o.prepareNanoseconds) / 1e9, elapsed(), profiler.statistics.samples, ResidentMemory.describe()))
        }
        var profile = profiler.stop()
        // The cases' threads ran one after another: one benchmark thread to the outputs
        // (speedscope would show a profile per case otherwise).
        if let first = profile.samples.first?.thread {
            for k in profile.samples.indices { profile.samples[k].thread = first }
        }
        if let cut = interruptedAt {
            // The unfinished case's samples would weigh a part of a case against whole ones.
            profile.samples.removeAll { $0.timestampNanoseconds >= cut }
        }
        return ProfiledRun(profile: profile, baselineSeconds: Double(baseline) / 1e9, profiledSeconds: Double(profiled) / 1e9,
                           what: "\(iterations) iterations of \(finished.count) benchmark\(finished.count == 1 ? "" : "s")",
                           cases: finished, failures: failures, skipped: skipped, interrupted: interruptedAt != nil,
                           peakResidentBytes: ResidentMemory.peakBytes())
    }

    /// Runs `body` on a new thread (16 MiB of stack, as the scenes' threads) and joins it:
    /// when this returns, the thread has ended and its engine, released at its exit, is gone.
    static func onThreadOfItsOwn<T>(_ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var result: Result<T, Error>?
            try withoutActuallyEscaping({ result = Result { try body() } }) { run in
                let box = ThreadBody(run)
                var attributes = pthread_attr_t()
                pthread_attr_init(&attributes)
                defer { pthread_attr_destroy(&attributes) }
                pthread_attr_setstacksize(&attributes, 16 << 20)
                var thread = pthread_t()
                let context = Unmanaged.passRetained(box).toOpaque()
                let created = pthread_create(&thread, &attributes, { p in
                    Unmanaged<ThreadBody>.fromOpaque(p!).takeRetainedValue().run()
                    return nil
                }, context)
                guard created == 0 else {
                    Unmanaged<ThreadBody>.fromOpaque(context).release()
                    throw ProfilingError("could not start a thread for the case (pthread_create: \(String(cString: strerror(created))))")
                }
                pthread_join(thread, nil)
            }
            // The freed fixture's pages back to the system: glibc keeps freed chunks of its
            // heaps (the mmap threshold grows as large blocks are freed), and each new thread
            // may get an arena of its own.
            FreeMemory.release()
            return try result!.get()
        }
    }

    private final class ThreadBody {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// One case in `share` nanoseconds (preparation included); nil when `shouldStop` ended it.
    /// The workload is released when this returns.
    private func runCase(_ c: BenchmarkCase, share: Double, _ profiler: SamplingProfiler, _ trace: TraceRecorder,
                         _ shouldStop: () -> Bool) throws -> ProfiledRun.CaseOutcome? {
        let t0 = TraceRecorder.now()
        let w = try c.make()
        let prepared = TraceRecorder.now() - t0
        trace.complete("prepare \(c.name)", category: "setup", start: t0, end: t0 + prepared)
        let rest = max(share - Double(prepared), 0)
        let fixed = c.iterations > 0 ? c.iterations : nil
        // Warm-up, and the mean iteration time that sizes the rounds.
        guard let (warmN, warmT) = Self.timed(w, until: UInt64(rest / 10), fixed: fixed, shouldStop) else { return nil }
        let mean = max(1, warmT / UInt64(warmN))
        let total = fixed ?? max(Self.rounds, Int(rest * 0.45 / Double(mean)))
        let perRound = max(1, total / Self.rounds)
        var baseline: UInt64 = 0, profiled: UInt64 = 0
        for _ in 0..<Self.rounds {
            guard let (_, t) = Self.timed(w, until: 0, fixed: perRound, shouldStop) else { return nil }
            baseline += t
            guard let p = try profiler.sampling({ Self.traced(w, c, iterations: perRound, mean: mean, profiler, trace, shouldStop) }) else {
                return nil
            }
            profiled += p
        }
        return ProfiledRun.CaseOutcome(name: c.name, iterations: perRound * Self.rounds, prepareNanoseconds: prepared,
                                       baselineNanoseconds: baseline, profiledNanoseconds: profiled)
    }

    /// `n` iterations of `w` with trace events (per iteration, or per batch when short);
    /// returns their body time.
    static func traced(_ w: Workload, _ c: BenchmarkCase, iterations n: Int, mean: UInt64,
                       _ profiler: SamplingProfiler, _ trace: TraceRecorder, _ shouldStop: () -> Bool = { false }) -> UInt64? {
        // At most about `eventsPerRound` iteration events: batches of iterations without a
        // reset, one traced iteration in `every` with one.
        let perEvent = (n + eventsPerRound - 1) / eventsPerRound
        let batch = w.reset == nil ? max(1, Int(minimumEventNanoseconds / mean), perEvent) : 1
        let every = w.reset == nil ? 1 : max(1, perEvent)
        var spent: UInt64 = 0
        let c0 = TraceRecorder.now()
        var done = 0, batches = 0
        while done < n {
            if shouldStop() { return nil }
            let k = min(batch, n - done)
            let traced = batches % every == 0
            batches += 1
            var t0 = TraceRecorder.now()
            if let reset = w.reset {
                profiler.paused { reset() }
                let r1 = TraceRecorder.now()
                if traced { trace.complete("reset", category: "reset", start: t0, end: r1) }
                t0 = r1
            }
            for _ in 0..<k { w.run() }
            let t1 = TraceRecorder.now()
            spent += t1 - t0
            if traced {
                trace.complete(k == 1 ? c.name : "\(c.name) x\(k)", category: "iteration", start: t0, end: t1)
                trace.counter("active animations", value: Double(StrataEngine.activeAnimationCount), at: t1)
            }
            done += k
        }
        trace.complete(c.name, category: "benchmark", start: c0, end: TraceRecorder.now())
        return spent
    }

    /// Runs `w` until `budget` nanoseconds of body time (or exactly `fixed` iterations);
    /// returns the iterations and their body time, or nil when `shouldStop` ended it.
    static func timed(_ w: Workload, until budget: UInt64, fixed: Int?, _ shouldStop: () -> Bool = { false }) -> (Int, UInt64)? {
        var n = 0
        var spent: UInt64 = 0
        while fixed.map({ n < $0 }) ?? (spent < budget || n == 0) {
            if shouldStop() { return nil }
            w.reset?()
            let t0 = TraceRecorder.now()
            w.run()
            spent += TraceRecorder.now() - t0
            n += 1
        }
        return (n, spent)
    }
}
