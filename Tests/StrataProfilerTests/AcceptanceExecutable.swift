import Foundation
import XCTest

/// The optimised build of `strata-profile-acceptance` the acceptance and stress tests run.
///
/// The workload is profiled as optimised code (inlined, as users' release builds are), so
/// Package.swift compiles this executable with `-O` in the debug configuration too: the tests'
/// own `swift build --build-tests` makes it beside the test bundle, and scripts/test needs no
/// release build (65 s here, 134 s on a slower host). Looked for, in order, beside this test
/// bundle (`<scratch>/<triple>/debug/`), then in that scratch's `release/` and the default
/// `.build/release/`; when none is newer than the sources of the executable, StrataProfiler
/// and CSampler, it is built with `swift build -c release --product strata-profile-acceptance`
/// into a scratch directory of its own (the test's own scratch directory is locked while
/// `swift test` runs).
enum AcceptanceExecutable {
    static let product = "strata-profile-acceptance"
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable, built if needed (once per test process).
    static func url() throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let found = try locateFresh() ?? build()
        cached = found
        return found
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: URL?

    /// Newest modification time among the sources the executable is built from.
    private static func newestSource() -> Date {
        var newest = Date.distantPast
        for dir in ["Sources/strata-profile-acceptance", "Sources/StrataProfiler", "Sources/CSampler"] {
            let root = packageRoot.appendingPathComponent(dir)
            guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.contentModificationDateKey]) else { continue }
            for case let f as URL in e {
                if let d = try? f.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate, d > newest {
                    newest = d
                }
            }
        }
        return newest
    }

    private static func candidates() -> [URL] {
        var out: [URL] = []
        // /proc/self/exe: <scratch>/<triple>/debug/StrataPackageTests.xctest
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let configurationDir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            // The tests' own build: optimised in either configuration (Package.swift).
            out.append(configurationDir.appendingPathComponent(product))
            out.append(configurationDir.deletingLastPathComponent().appendingPathComponent("release").appendingPathComponent(product))
        }
        out.append(packageRoot.appendingPathComponent(".build/release").appendingPathComponent(product))
        out.append(ownScratch.appendingPathComponent("release").appendingPathComponent(product))
        return out
    }

    private static var ownScratch: URL { packageRoot.appendingPathComponent(".build-profiler-acceptance") }

    private static func locateFresh() throws -> URL? {
        let sources = newestSource()
        for c in candidates() {
            guard FileManager.default.isExecutableFile(atPath: c.path),
                  let d = try? c.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate,
                  d >= sources else { continue }
            return c
        }
        return nil
    }

    private static func build() throws -> URL {
        let scratch = ownScratch
        let result = try run(URL(fileURLWithPath: "/usr/bin/env"),
                             ["swift", "build", "-c", "release", "--product", product, "--scratch-path", scratch.path],
                             timeout: 1800, currentDirectory: packageRoot)
        guard result.status == 0 else { throw BuildFailure(output: result.output) }
        let url = scratch.appendingPathComponent("release").appendingPathComponent(product)
        guard FileManager.default.isExecutableFile(atPath: url.path) else { throw BuildFailure(output: "no \(url.path) after the build\n" + result.output) }
        return url
    }

    struct BuildFailure: Error, CustomStringConvertible {
        var output: String
        var description: String { "swift build -c release --product \(AcceptanceExecutable.product) failed:\n\(output)" }
    }

    /// What a child process did.
    struct Result {
        var status: Int32
        /// Killed by the watchdog after `timeout` seconds.
        var timedOut: Bool
        /// Ended by a signal (a crash), not an exit.
        var crashed: Bool
        var output: String
    }

    /// Runs `executable` with a watchdog: a child still running after `timeout` seconds is
    /// killed and reported as timed out (a hang), not waited for.
    /// `environment`: variables set for the child on top of this process's.
    static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval,
                    currentDirectory: URL? = nil, environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if let currentDirectory { p.currentDirectoryURL = currentDirectory }
        if !environment.isEmpty {
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("strata-profiler-child-\(getpid())-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? FileManager.default.removeItem(at: log) }
        p.standardOutput = handle
        p.standardError = handle
        let exited = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in exited.signal() }
        try p.run()
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(p.processIdentifier, SIGKILL)
            exited.wait()
        }
        try? handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Result(status: p.terminationStatus, timedOut: timedOut,
                      crashed: !timedOut && p.terminationReason == .uncaughtSignal, output: output)
    }

    /// A fresh temporary directory for one run's outputs.
    static func temporaryDirectory(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-profiler-\(name)-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The JSON object in `dir/summary.json`.
    static func summary(in dir: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent("summary.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
