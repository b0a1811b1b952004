import Foundation

extension CALayer {
    func refuseType(_ keyPath: String, _ value: Any?) {
        StrataDiagnostics.emit(.wrongValueType,
            "setValue: a \(value.map { "\(type(of: $0))" } ?? "nil") does not fit \"\(keyPath)\" on \(type(of: self)); nothing changed")
    }

}

extension PropertyID {
    /// Does `v` have the type object property p holds?
    func fitsObject(_ v: Any?) -> Bool {
        let p = self
        guard let v else { return true }
        switch p {
        case .mask: return v is CALayer
        case .shadowPath, .path: return v is CGPath
        case .filters, .backgroundFilters: return v is [Any]
        default: return true
        }
    }
}
