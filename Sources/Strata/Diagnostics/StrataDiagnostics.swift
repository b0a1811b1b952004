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
        deliver(StrataDiagnostic(code: code, message: message, file: "\(file)", line: line))
    }

    /// Logs `d` and hands it to every capture open on this thread, or holds it back inside
    /// `withholding`.
    static func deliver(_ d: StrataDiagnostic) {
        let context = EngineContext.current
        if context.withheldDiagnostics != nil {
            context.withheldDiagnostics!.append(d)
            return
        }
        logger.warning("\(d.message)", metadata: ["strata.code": "\(d.code.rawValue)",
                                                  "strata.site": "\(d.file):\(d.line)"])
        for i in context.diagnosticCaptures.indices { context.diagnosticCaptures[i].append(d) }
    }

    /// Runs `body` with this thread's diagnostics held back (neither logged nor captured)
    /// and returns its result and them, for a caller that delivers them itself: a group
    /// rewords what refused a child it drops.
    static func withholding<T>(_ body: () -> T) -> (T, [StrataDiagnostic]) {
        let context = EngineContext.current
        let outer = context.withheldDiagnostics
        context.withheldDiagnostics = []
        let result = body()
        let held = context.withheldDiagnostics ?? []
        context.withheldDiagnostics = outer
        return (result, held)
    }
}
