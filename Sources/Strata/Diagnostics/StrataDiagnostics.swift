import Foundation
import Logging

/// What kind of bad input a diagnostic reports.
public enum StrataDiagnosticCode: String, Sendable {
    /// A value whose type does not fit the key path (a CGPoint for `opacity`).
    case wrongValueType
    /// NaN or an infinite value where a finite one is required.
    case nonFiniteValue
    /// A key path that names no property of the layer.
    case unknownKeyPath
    /// A tree change that would make a layer its own ancestor.
    case layerCycle
    /// `CATransaction.commit()` without a matching `begin()`.
    case unbalancedCommit
    /// A thread ended with transactions still open; they were committed.
    case openTransactionsAtThreadExit
    /// Any other argument outside what the API accepts.
    case invalidArgument
}

/// One diagnostic: bad input that the engine refused, leaving every other state unchanged.
public struct StrataDiagnostic: Sendable, CustomStringConvertible {
    /// What kind of bad input.
    public let code: StrataDiagnosticCode
    /// A sentence naming the input and what happened instead.
    public let message: String
    /// The API call site that received it, when known.
    public let file: String
    /// The line of `file`.
    public let line: UInt

    /// `[code] message (file:line)`.
    public var description: String { "[\(code.rawValue)] \(message) (\(file):\(line))" }
}

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
