import Foundation
import StrataProfiler

/// What a profiled run produced.
struct ProfiledRun {
    /// The samples of the profiled rounds.
    var profile: Profile
    /// Body time of the unprofiled rounds, s.
    var baselineSeconds: Double
    /// Body time of the profiled rounds (the same work), s.
    var profiledSeconds: Double
    /// The work, in words ("1234 iterations of 2 benchmarks").
    var what: String
    /// A suite's cases that ran to the end, in order (empty for a scene).
    var cases: [CaseOutcome]
    /// Cases whose preparation or body failed: "NAME: reason".
    var failures: [String]
    /// Cases not run: the time budget was spent, or the run was stopped before them (the
    /// case a stop interrupted is among them).
    var skipped: [String]
    /// Whether a stop request (a signal) ended the run early.
    var interrupted: Bool
    /// The process's peak resident memory when the run ended, bytes (nil where unknown).
    var peakResidentBytes: Int?

    /// One case of a suite, run to the end.
    struct CaseOutcome: Equatable {
        /// The benchmark's name.
        var name: String
        /// Iterations of each side (unprofiled and profiled).
        var iterations: Int
        /// Time to build its fixture, ns.
        var prepareNanoseconds: UInt64
        /// Body time of the unprofiled rounds, ns.
        var baselineNanoseconds: UInt64
        /// Body time of the profiled rounds, ns.
        var profiledNanoseconds: UInt64
    }

    /// A run's outcome (a scene's: no cases, failures or skips).
    init(profile: Profile, baselineSeconds: Double, profiledSeconds: Double, what: String, cases: [CaseOutcome] = [],
                failures: [String] = [], skipped: [String] = [], interrupted: Bool = false, peakResidentBytes: Int? = nil) {
        self.profile = profile
        self.baselineSeconds = baselineSeconds
        self.profiledSeconds = profiledSeconds
        self.what = what
        self.cases = cases
        self.failures = failures
        self.skipped = skipped
        self.interrupted = interrupted
        self.peakResidentBytes = peakResidentBytes ?? ResidentMemory.peakBytes()
    }
}

/// This process's resident memory, as the kernel counts it.
enum ResidentMemory {
    /// Peak resident set so far (`getrusage`'s `ru_maxrss`), bytes.
    static func peakBytes() -> Int? {
        var u = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &u) == 0 else { return nil }
        return u.ru_maxrss * 1024
    }

    /// Resident set now (`/proc/self/statm`'s second field times the page size), bytes.
    static func currentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// "resident 412 MiB, peak 1.9 GiB".
    static func describe() -> String {
        func size(_ b: Int?) -> String {
            guard let b else { return "?" }
            return b >= 1 << 30 ? String(format: "%.1f GiB", Double(b) / Double(1 << 30)) : "\(b >> 20) MiB"
        }
        return "resident \(size(currentBytes())), peak \(size(peakBytes()))"
    }
}

/// Why a profiled run could not start (the command reports it as a usage error).
struct ProfilingError: Error, CustomStringConvertible {
    /// What prevents the run, in a sentence.
    var description: String
    /// An error saying `description`.
    init(_ description: String) { self.description = description }
}
