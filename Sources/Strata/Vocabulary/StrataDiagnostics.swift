import Foundation

/// The engine's diagnostics: every refused input is reported (the fast engine logs it through
/// swift-log, label `"strata"`, level warning, metadata `strata.code`; the reference engine
/// hands it to `handler`) and can be captured per thread. Written once for both engines
/// (Vocabulary/ is compiled into StrataReference too); each engine keeps this thread's
/// `DiagnosticScopes` and reports with its own `report(_:)`.
public enum StrataDiagnostics {
    /// Runs `body` and returns the diagnostics this thread emitted meanwhile.
    ///
    ///     let d = StrataDiagnostics.capture { CATransaction.commit() }
    ///     // d.first?.code == .unbalancedCommit
    public static func capture(_ body: () throws -> Void) rethrows -> [StrataDiagnostic] {
        let scopes = DiagnosticScopes.current
        scopes.captures.append([])
        defer { _ = scopes.captures.popLast() }
        try body()
        return scopes.captures.last ?? []
    }

    /// Emits a diagnostic: reports it and hands it to every capture open on this thread.
    static func emit(_ code: StrataDiagnosticCode, _ message: String,
                     file: StaticString = #fileID, line: UInt = #line) {
        deliver(StrataDiagnostic(code: code, message: message, file: "\(file)", line: line))
    }

    /// Reports `d` and hands it to every capture open on this thread, or holds it back
    /// inside `withholding`.
    static func deliver(_ d: StrataDiagnostic) {
        let scopes = DiagnosticScopes.current
        if scopes.withheld != nil {
            scopes.withheld!.append(d)
            return
        }
        report(d)
        for i in scopes.captures.indices { scopes.captures[i].append(d) }
    }

    /// Runs `body` with this thread's diagnostics held back (neither reported nor captured)
    /// and returns its result and them, for a caller that delivers them itself: a group
    /// rewords what refused a child it drops.
    static func withholding<T>(_ body: () -> T) -> (T, [StrataDiagnostic]) {
        let scopes = DiagnosticScopes.current
        let outer = scopes.withheld
        scopes.withheld = []
        let result = body()
        let held = scopes.withheld ?? []
        scopes.withheld = outer
        return (result, held)
    }
}

/// A thread's open diagnostic scopes: the captures open (innermost last) and the diagnostics
/// held back by `StrataDiagnostics.withholding` (nil: none is open). Each engine keeps one
/// (`DiagnosticScopes.current`, this thread's).
final class DiagnosticScopes {
    @exclusivity(unchecked) var captures: [[StrataDiagnostic]] = []
    @exclusivity(unchecked) var withheld: [StrataDiagnostic]? = nil
}
