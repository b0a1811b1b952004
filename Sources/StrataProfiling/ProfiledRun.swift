import StrataProfiler

/// What a profiled run produced.
public struct ProfiledRun {
    /// The samples of the profiled rounds.
    public var profile: Profile
    /// Body time without and with the profiler, for the same work.
    public var baselineSeconds: Double
    public var profiledSeconds: Double
    /// The work, in words ("1234 iterations of 2 benchmarks").
    public var what: String
}

/// Why a profiled run could not start (the command reports it as a usage error).
public struct ProfilingError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
