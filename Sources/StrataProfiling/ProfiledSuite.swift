import Foundation
import Strata
import StrataBench
import StrataProfiler

/// Benchmark bodies: a warm-up that sizes the run, then `rounds` rounds of the same
/// iterations unprofiled and profiled in turn (the thread registered only for the second),
/// so drift on a noisy machine hits both sides alike. Resets run paused (no samples) and
/// outside the timings.
public struct ProfiledSuite {
    /// The benchmarks whose bodies run, each prepared once.
    public var cases: [BenchmarkCase]

    /// Runs `cases` (at least one).
    public init(cases: [BenchmarkCase]) { self.cases = cases }

    /// Iterations shorter than this are traced in batches, so a 10 ns lookup does not write
    /// a hundred million events.
    public static let minimumEventNanoseconds: UInt64 = 20_000
    /// Unprofiled-then-profiled rounds a run is split into (scenes too).
    public static let rounds = 5

    /// About `seconds` of profiled body time (and as much again unprofiled), with trace events
    /// in `trace`; `progress` hears what is being prepared and run.
    public func run(seconds: Double, configuration: SamplingProfiler.Configuration, trace: TraceRecorder,
                    progress: (String) -> Void = { _ in }) throws -> ProfiledRun {
        var workloads: [Workload] = []
        for c in cases {
            progress("preparing \(c.name)")
            workloads.append(try c.make())
        }
        let budget = UInt64(seconds * 1e9) / UInt64(cases.count)
        var perRound = [Int](repeating: 0, count: cases.count)
        var means = [UInt64](repeating: 1, count: cases.count)
        for (i, w) in workloads.enumerated() {
            // Warm-up, and the mean iteration time that sizes the rounds.
            let (n, t) = Self.timed(w, until: budget / 10, fixed: cases[i].iterations > 0 ? cases[i].iterations : nil)
            means[i] = max(1, t / UInt64(n))
            let total = cases[i].iterations > 0 ? cases[i].iterations : max(1, Int(budget / means[i]))
            perRound[i] = max(1, total / Self.rounds)
        }
        progress("\(Self.rounds) rounds of: \(zip(cases, perRound).map { "\($0.name) x\($1)" }.joined(separator: ", ")), unprofiled then profiled")

        let profiler = try SamplingProfiler.start(configuration, registeringCurrentThread: false)
        var baseline: UInt64 = 0
        var profiled: UInt64 = 0
        for _ in 0..<Self.rounds {
            for (i, w) in workloads.enumerated() {
                baseline += Self.timed(w, until: 0, fixed: perRound[i]).1
                try profiler.sampling {
                    profiled += Self.traced(w, cases[i], iterations: perRound[i], mean: means[i], profiler, trace)
                }
            }
        }
        let profile = profiler.stop()
        withExtendedLifetime(workloads) {}
        let total = perRound.reduce(0, +) * Self.rounds
        return ProfiledRun(profile: profile, baselineSeconds: Double(baseline) / 1e9, profiledSeconds: Double(profiled) / 1e9,
                           what: "\(total) iterations of \(cases.count) benchmark\(cases.count == 1 ? "" : "s")")
    }

    /// `n` iterations of `w` with trace events (per iteration, or per batch when short);
    /// returns their body time.
    static func traced(_ w: Workload, _ c: BenchmarkCase, iterations n: Int, mean: UInt64,
                       _ profiler: SamplingProfiler, _ trace: TraceRecorder) -> UInt64 {
        let batch = w.reset == nil ? max(1, Int(minimumEventNanoseconds / mean)) : 1
        var spent: UInt64 = 0
        let c0 = TraceRecorder.now()
        var done = 0
        while done < n {
            let k = min(batch, n - done)
            var t0 = TraceRecorder.now()
            if let reset = w.reset {
                profiler.paused { reset() }
                let r1 = TraceRecorder.now()
                trace.complete("reset", category: "setup", start: t0, end: r1)
                t0 = r1
            }
            for _ in 0..<k { w.run() }
            let t1 = TraceRecorder.now()
            spent += t1 - t0
            trace.complete(k == 1 ? c.name : "\(c.name) x\(k)", category: "iteration", start: t0, end: t1)
            trace.counter("active animations", value: Double(StrataEngine.activeAnimationCount), at: t1)
            done += k
        }
        trace.complete(c.name, category: "benchmark", start: c0, end: TraceRecorder.now())
        return spent
    }

    /// Runs `w` until `budget` nanoseconds of body time (or exactly `fixed` iterations);
    /// returns the iterations and their body time.
    static func timed(_ w: Workload, until budget: UInt64, fixed: Int?) -> (Int, UInt64) {
        var n = 0
        var spent: UInt64 = 0
        while fixed.map({ n < $0 }) ?? (spent < budget || n == 0) {
            w.reset?()
            let t0 = TraceRecorder.now()
            w.run()
            spent += TraceRecorder.now() - t0
            n += 1
        }
        return (n, spent)
    }
}
