import Foundation
import Logging
import Strata
import StrataReference
import StrataScript
import StrataScriptFast
import StrataScriptReference

/// Runs scripts on both engines and compares their traces.
public enum Differential {
    /// Silences both engines' diagnostics (generated scripts make many on purpose).
    public static func silenceDiagnostics() {
        Strata.StrataDiagnostics.logger = Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() })
        StrataReference.StrataDiagnostics.handler = { _ in }
    }

    /// Both engines' traces of `script`.
    public static func traces(_ script: Script) -> (fast: [TraceEntry], reference: [TraceEntry]) {
        (StrataScriptFast.ScriptRunner.run(script), StrataScriptReference.ScriptRunner.run(script))
    }

    /// The first disagreement between the engines on `script`, or nil.
    public static func disagreement(_ script: Script) -> String? {
        let fast = StrataScriptFast.ScriptRunner.run(script)
        let reference = StrataScriptReference.ScriptRunner.run(script)
        return TraceComparison.firstDifference(fast, reference)
    }

    /// Result of a fuzzing run.
    public struct Finding: Sendable {
        public let seed: UInt64
        public let message: String
        public let shrunk: Script
    }

    /// Runs generated scripts from `firstSeed` until `seconds` pass or `maxScripts` ran;
    /// returns how many ran and the first finding (shrunk), if any.
    public static func fuzz(firstSeed: UInt64, seconds: Double, maxScripts: Int = .max,
                            length: Int = 60) -> (ran: Int, finding: Finding?) {
        let start = Date()
        var seed = firstSeed
        var ran = 0
        while ran < maxScripts && Date().timeIntervalSince(start) < seconds {
            let script = ScriptGenerator.script(seed: seed, length: length)
            ran += 1
            if let message = disagreement(script) {
                let shrunk = ScriptShrinker.shrink(script) { disagreement($0) != nil }
                return (ran, Finding(seed: seed, message: disagreement(shrunk) ?? message, shrunk: shrunk))
            }
            seed &+= 1
        }
        return (ran, nil)
    }

    /// Writes a fixture (pretty JSON) and returns its path.
    public static func writeFixture(_ script: Script, seed: UInt64, to directory: URL) throws -> URL {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("seed-\(seed).json")
        try e.encode(script).write(to: url)
        return url
    }
}
