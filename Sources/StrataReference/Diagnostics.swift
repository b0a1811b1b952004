import Foundation

/// The reference engine's diagnostics: every refused input goes to `handler` (standard error
/// by default) and to every `capture` open on the thread.
public enum StrataDiagnostics {
    /// Where diagnostics go besides captures. Replace it to route them elsewhere (or to
    /// silence them). The fast engine logs through swift-log instead; this module has no
    /// dependency but StrataGeometry.
    nonisolated(unsafe) public static var handler: (StrataDiagnostic) -> Void = { diagnostic in
        FileHandle.standardError.write(Data("strata-reference: \(diagnostic)\n".utf8))
    }

    /// Runs `body` and returns the diagnostics this thread emitted meanwhile.
    ///
    ///     let d = StrataDiagnostics.capture { CATransaction.commit() }
    ///     // d.first?.code == .unbalancedCommit
    public static func capture(_ body: () throws -> Void) rethrows -> [StrataDiagnostic] {
        let engine = ReferenceEngine.current
        engine.diagnosticCaptures.append([])
        defer { engine.diagnosticCaptures.removeLast() }
        try body()
        return engine.diagnosticCaptures.last ?? []
    }

    /// Reports a refused input to the handler and to this thread's open captures.
    static func emit(_ code: StrataDiagnosticCode, _ message: String,
                     file: StaticString = #fileID, line: UInt = #line) {
        deliver(StrataDiagnostic(code: code, message: message, file: "\(file)", line: line))
    }

    /// Hands `d` to the handler and to this thread's open captures, or holds it back inside
    /// `withholding`.
    static func deliver(_ diagnostic: StrataDiagnostic) {
        let engine = ReferenceEngine.current
        if engine.withheldDiagnostics != nil {
            engine.withheldDiagnostics!.append(diagnostic)
            return
        }
        handler(diagnostic)
        for i in engine.diagnosticCaptures.indices {
            engine.diagnosticCaptures[i].append(diagnostic)
        }
    }

    /// Runs `body` with this thread's diagnostics held back and returns its result and them
    /// (a group rewords what refused a child it drops).
    static func withholding<T>(_ body: () -> T) -> (T, [StrataDiagnostic]) {
        let engine = ReferenceEngine.current
        let outer = engine.withheldDiagnostics
        engine.withheldDiagnostics = []
        let result = body()
        let held = engine.withheldDiagnostics ?? []
        engine.withheldDiagnostics = outer
        return (result, held)
    }
}
