import Foundation

/// The reference engine's side of `StrataDiagnostics` (Sources/Strata/Vocabulary, shared): every
/// refused input goes to `handler` (standard error by default) besides the captures.
extension StrataDiagnostics {
    /// Where diagnostics go besides captures. Replace it to route them elsewhere (or to
    /// silence them). The fast engine logs through swift-log instead; this module has no
    /// dependency but StrataGeometry.
    nonisolated(unsafe) public static var handler: (StrataDiagnostic) -> Void = { diagnostic in
        FileHandle.standardError.write(Data("strata-reference: \(diagnostic)\n".utf8))
    }

    /// Hands `d` to the handler.
    static func report(_ d: StrataDiagnostic) { handler(d) }
}

extension DiagnosticScopes {
    /// This thread's scopes: its engine's.
    static var current: DiagnosticScopes { ReferenceEngine.current.diagnostics }
}
