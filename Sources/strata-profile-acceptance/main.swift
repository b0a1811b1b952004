// The profiler's acceptance workloads (StrataProfilerTests runs this release executable).
//
//   strata-profile-acceptance --out DIR [--seconds 2 | --cpu-seconds S] [--hz 1000] [--mode wall|cpu]
//                             [--unwinder backtrace|dwarf|fp] [--slots 6,3,1]
//     commit-like, lookup-like and evaluate-like work in a 6:3:1 ratio of CPU time (or the
//     ratio --slots gives: a planted slowdown of one of them for the differential tests),
//     profiled in-process; writes profile.folded, profile.speedscope.json, profile.pprof, profile.pb,
//     trace.json, flamegraph.html and summary.json to DIR.
//
//   strata-profile-acceptance stress --out DIR [--seconds 2 | --cpu-seconds S] [--hz 10000] [--unwinder ...]
//     profiles threads that throw and catch C++ exceptions and Swift errors and dlopen /
//     dlclose libraries; writes DIR/summary.json. Exits 3 when its watchdog sees a hang.
//
//   --cpu-seconds S ends the work after S seconds of the working thread's own CPU time (each
//   thread's, under stress) instead of --seconds of wall time: the same work, and in CPU-time
//   mode the same samples, on a busy machine as on an idle one (only later).
import Foundation
import StrataProfiler

struct Options {
    var out = ""
    var seconds = 2.0
    /// Set: the work ends after this much of its thread's CPU time, not `seconds` of wall time.
    var cpuSeconds: Double?
    var hz = 1000
    var mode = SamplingProfiler.Clock.wall
    var unwinder = SamplingProfiler.Unwinder.backtrace
    var caching = SamplingProfiler.Caching.perThread
    /// Slices of commit-, lookup- and evaluate-like work per cycle.
    var slots = [6, 3, 1]

    init(_ args: [String], defaultHz: Int, defaultMode: SamplingProfiler.Clock) {
        hz = defaultHz
        mode = defaultMode
        var i = 0
        func value() -> String {
            i += 1
            guard i < args.count else { fail("missing value after \(args[i - 1])") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--out": out = value()
            case "--seconds": seconds = Double(value()) ?? { fail("bad --seconds") }()
            case "--cpu-seconds":
                guard let v = Double(value()), v > 0, v.isFinite else { fail("bad --cpu-seconds") }
                cpuSeconds = v
            case "--hz": hz = Int(value()) ?? { fail("bad --hz") }()
            case "--mode": mode = SamplingProfiler.Clock(rawValue: value()) ?? { fail("bad --mode") }()
            case "--caching": caching = SamplingProfiler.Caching(rawValue: value()) ?? { fail("bad --caching") }()
            case "--unwinder": unwinder = SamplingProfiler.Unwinder(rawValue: value()) ?? { fail("bad --unwinder") }()
            case "--slots":
                let v = value().split(separator: ",").compactMap { Int($0) }
                guard v.count == 3, v.allSatisfy({ $0 >= 0 }), v.reduce(0, +) > 0 else { fail("--slots takes three counts, e.g. 6,3,1") }
                slots = v
            default: fail("unknown argument \(args[i])")
            }
            i += 1
        }
        if out.isEmpty { fail("--out DIR is required") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("strata-profile-acceptance: \(message)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "stress" {
    runStress(Options(Array(arguments.dropFirst()), defaultHz: 10_000, defaultMode: .wall))
} else {
    runAcceptance(Options(arguments, defaultHz: 1000, defaultMode: .wall))
}
