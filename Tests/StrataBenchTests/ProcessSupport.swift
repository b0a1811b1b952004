import Foundation
import XCTest

/// Runs `executable` with `arguments` (and `environment` added to this process's), waits,
/// and returns its exit status and everything it printed (stdout and stderr together).
@discardableResult
func runProcess(_ executable: String, _ arguments: [String], in dir: URL? = nil,
                environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    if let dir { p.currentDirectoryURL = dir }
    if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe()
    p.standardOutput = out
    p.standardError = out
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    return (p.terminationStatus, text)
}

/// The strata-bench executable `swift build --build-tests` makes beside the test bundle.
let strataBenchExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("strata-bench").path

/// `strataBenchExecutable`; throws (failing the test, with how to build it) when it is not built.
func builtStrataBench() throws -> String {
    struct NotBuilt: Error, CustomStringConvertible { var description: String }
    guard FileManager.default.isExecutableFile(atPath: strataBenchExecutable) else {
        throw NotBuilt(description: "\(strataBenchExecutable) is not built: run `swift build --build-tests` before `swift test --skip-build`")
    }
    return strataBenchExecutable
}

/// A test case with a fresh temporary directory per test, removed after it.
class TemporaryDirectoryTestCase: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-\(type(of: self))-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A path inside the test's directory.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
