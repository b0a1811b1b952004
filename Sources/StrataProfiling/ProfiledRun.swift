import StrataProfiler

/// What a profiled run produced.
public struct ProfiledRun {
    /// The samples of the profiled rounds.
    public var profile: Profile
    /// Body time of the unprofiled rounds, s.
    public var baselineSeconds: Double
    /// Body time of the profiled rounds (the same work), s.
    public var profiledSeconds: Double
    /// The work, in words ("1234 iterations of 2 benchmarks").
    public var what: String
}

/// Why a profiled run could not start (the command reports it as a usage error).
public struct ProfilingError: Error, CustomStringConvertible {
    /// What prevents the run, in a sentence.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
