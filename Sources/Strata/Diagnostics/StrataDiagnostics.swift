import Foundation
import Logging

/// The engine's diagnostics: every refused input is logged through swift-log (label
/// `"strata"`, level warning, metadata `strata.code`) and can be captured per thread.
public enum StrataDiagnostics {
    /// The logger diagnostics go to. Replace it to route them elsewhere.
    nonisolated(unsafe) public static var logger = Logger(label: "strata")

    /// Runs `body` and returns the diagnostics this thread emitted meanwhile.
    ///
    ///     let d = StrataDiagnostics.capture { CATransaction.commit() }
    ///     // d.first?.code == .unbalancedCommit
    public static func capture(_ body: () throws -> Void) rethrows -> [StrataDiagnostic] {
        let context = EngineContext.current
        context.diagnosticCaptures.append([])
        defer { _ = context.diagnosticCaptures.popLast() }
        try body()
        return context.diagnosticCaptures.last ?? []
    }

    /// Emits a diagnostic: logs it and hands it to every capture open on this thread.
    static func emit(_ code: StrataDiagnosticCode, _ message: String,
                     file: StaticString = #fileID, line: UInt = #line) {
        let d = StrataDiagnostic(code: code, message: message, file: "\(file)", line: line)
        logger.warning("\(message)", metadata: ["strata.code": "\(code.rawValue)",
                                                "strata.site": "\(file):\(line)"])
        let context = EngineContext.current
        for i in context.diagnosticCaptures.indices { context.diagnosticCaptures[i].append(d) }
    }
}
