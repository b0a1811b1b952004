import Foundation
import Logging

/// The fast engine's side of `StrataDiagnostics` (Vocabulary/StrataDiagnostics.swift): its
/// reports go to swift-log.
extension StrataDiagnostics {
    /// The logger diagnostics go to. Replace it to route them elsewhere.
    nonisolated(unsafe) public static var logger = Logger(label: "strata")

    /// Logs `d` (level warning, metadata `strata.code` and `strata.site`).
    static func report(_ d: StrataDiagnostic) {
        logger.warning("\(d.message)", metadata: ["strata.code": "\(d.code.rawValue)",
                                                  "strata.site": "\(d.file):\(d.line)"])
    }
}
