import Foundation

/// Why a benchmark could not run.
public struct BenchmarkError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }

    /// Throws unless `condition` holds: the check of a fixture's result before it is timed.
    public static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) throws {
        if !condition() { throw BenchmarkError(message()) }
    }
}
