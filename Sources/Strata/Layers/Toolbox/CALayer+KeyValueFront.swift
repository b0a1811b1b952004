import Foundation

/// The front of `setValue(_:forKeyPath:)` that is the same for both engines (Layers/Toolbox is
/// compiled into StrataReference too): the type refusal, and the layer's own keys that are
/// not animatable properties (`name`, `sublayers`).
extension CALayer {
    /// A value of the wrong type for `keyPath`: refused with a diagnostic, nothing changed.
    func refuseType(_ keyPath: String, _ value: Any?) {
        StrataDiagnostics.emit(.wrongValueType,
            "setValue: a \(value.map { "\(type(of: $0))" } ?? "nil") does not fit \"\(keyPath)\" on \(type(of: self)); nothing changed")
    }

    /// `name` and `sublayers` set by key: written through their properties (or refused when
    /// the type does not fit). True when `keyPath` is one of them.
    func setTreeKeyValue(_ value: Any?, forKeyPath keyPath: String) -> Bool {
        switch keyPath {
        case "name":
            guard value == nil || value is String else { refuseType(keyPath, value); return true }
            name = value as? String
            return true
        case "sublayers":
            guard value == nil || value is [CALayer] else { refuseType(keyPath, value); return true }
            sublayers = value as? [CALayer]
            return true
        default:
            return false
        }
    }
}
