import Foundation

/// What both engines refuse in an animation's timing before adding it (written once:
/// Vocabulary/ is compiled into StrataReference too; a spring's own parameters are each
/// engine's `validateSpring()`).
extension CAAnimation {
    /// Is this animation's timing valid (finite, non-negative duration ...)? Reports why not.
    func validateTiming() -> Bool {
        // A sum with a NaN or infinite term is not finite: the list of names is made only
        // then (or when finite values overflow the sum, and the loop finds none).
        if _slowPath(!(beginTime + duration + Double(speed) + timeOffset).isFinite) {
            let values: [(String, Double)] = [("beginTime", beginTime), ("duration", duration),
                ("speed", Double(speed)), ("timeOffset", timeOffset)]
            for (name, v) in values where !v.isFinite {
                StrataDiagnostics.emit(.nonFiniteValue, "\(type(of: self)).\(name) = \(v) must be finite; animation not added")
                return false
            }
        }
        if repeatDuration.isNaN {
            StrataDiagnostics.emit(.nonFiniteValue, "\(type(of: self)).repeatDuration is NaN; animation not added")
            return false
        }
        if repeatCount.isNaN || repeatCount < 0 {
            StrataDiagnostics.emit(.nonFiniteValue, "\(type(of: self)).repeatCount = \(repeatCount) must be >= 0; animation not added")
            return false
        }
        if duration < 0 || repeatDuration < 0 {
            StrataDiagnostics.emit(.invalidArgument, "\(type(of: self)): duration and repeatDuration must be >= 0; animation not added")
            return false
        }
        return true
    }
}
