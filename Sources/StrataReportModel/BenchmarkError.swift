import Foundation

/// Why a benchmark could not run.
public struct BenchmarkError: Error, CustomStringConvertible {
    /// What went wrong, in a sentence naming the benchmark or file.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }

    /// Throws unless `condition` holds: the check of a fixture's result before it is timed.
    public static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) throws {
        if !condition() { throw BenchmarkError(message()) }
    }
}
