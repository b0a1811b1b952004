import Foundation

/// Points, sizes and rectangles wrapped in `NSValue` (`NSValue(point:)` ...), as Core
/// Animation code passes them to `setValue(_:forKey:)`, `fromValue` and `values`.
package enum NSValueShape {
    package static func point(_ v: Any) -> CGPoint? { wrapped(v, "{CGPoint").map { $0.pointValue } }
    package static func size(_ v: Any) -> CGSize? { wrapped(v, "{CGSize").map { $0.sizeValue } }
    package static func rect(_ v: Any) -> CGRect? { wrapped(v, "{CGRect").map { $0.rectValue } }
    /// A transform wrapped by `NSValue(caTransform3D:)`.
    package static func transform3D(_ v: Any) -> CATransform3D? {
        guard let n = instance(v), String(cString: n.objCType) == transform3DObjCType else { return nil }
        return n.caTransform3DValue
    }

    /// `v` when it is an NSValue object (not a number), not a value that bridges to one (a
    /// transform does: `as? NSValue` would make one).
    package static func instance(_ v: Any) -> NSValue? {
        guard type(of: v) is NSValue.Type, !(type(of: v) is NSNumber.Type) else { return nil }
        return v as? NSValue
    }

    /// `v` as an NSValue (not a number) whose type encoding starts with `prefix`.
    package static func wrapped(_ v: Any, _ prefix: String) -> NSValue? {
        guard let n = instance(v) else { return nil }
        return String(cString: n.objCType).hasPrefix(prefix) ? n : nil
    }
}
