import Foundation

/// The geometry of a value a key path can reach into: a point, size, rectangle or transform
/// (plain or wrapped in an `NSValue`). Built-in properties know theirs; a custom key's
/// (`CAGradientLayer.startPoint`, `CAReplicatorLayer.instanceTransform`, an application's
/// own) is its value's.
package enum GeometryShape: Equatable, Sendable {
    case point, size, rect, transform

    /// The shape of `v`, or nil when it is none of them.
    package init?(of v: Any) {
        let t = type(of: v)
        if t == CGPoint.self || NSValueShape.point(v) != nil { self = .point }
        else if t == CGSize.self || NSValueShape.size(v) != nil { self = .size }
        else if t == CGRect.self || NSValueShape.rect(v) != nil { self = .rect }
        else if t == CATransform3D.self || NSValueShape.transform3D(v) != nil { self = .transform }
        else { return nil }
    }

    /// Lanes of one value: 2, 2, 4, 16.
    package var width: Int {
        switch self {
        case .point, .size: return 2
        case .rect: return 4
        case .transform: return 16
        }
    }
}

/// A field of a point, size, rectangle or transform reached by key path, Apple's
/// "Core Animation Extensions To Key-Value Coding": `x`, `y`; `width`, `height`; `origin`,
/// `size`, `origin.x` ... `size.height`; the transform fields (`rotation.z`, `translation` ...).
/// Both engines animate custom keys' fields through it (`startPoint.x`,
/// `instanceTransform.rotation.z`).
package enum ValueField: Equatable, Sendable {
    /// Lanes `offset ..< offset + width` of the value; a 2-lane field is a size when `size`,
    /// else a point.
    case lanes(offset: Int, width: Int, size: Bool)
    /// A field of a transform.
    case transform(TransformField)

    /// The field `tail` names in a value of `shape`, or nil.
    package static func named(_ tail: String, of shape: GeometryShape) -> ValueField? {
        switch (shape, tail) {
        case (.point, "x"), (.size, "width"): return .lanes(offset: 0, width: 1, size: false)
        case (.point, "y"), (.size, "height"): return .lanes(offset: 1, width: 1, size: false)
        case (.rect, "origin"): return .lanes(offset: 0, width: 2, size: false)
        case (.rect, "size"): return .lanes(offset: 2, width: 2, size: true)
        case (.rect, "origin.x"): return .lanes(offset: 0, width: 1, size: false)
        case (.rect, "origin.y"): return .lanes(offset: 1, width: 1, size: false)
        case (.rect, "size.width"): return .lanes(offset: 2, width: 1, size: false)
        case (.rect, "size.height"): return .lanes(offset: 3, width: 1, size: false)
        case (.transform, _): return TransformField(rawValue: tail).map { .transform($0) }
        default: return nil
        }
    }

    /// Lanes of the field's value (1, or 2 for a point or size).
    package var width: Int {
        switch self {
        case let .lanes(_, w, _): return w
        case let .transform(f): return f.width
        }
    }

    /// The field's value is a size (`bounds.size`, `transform.translation`); a 2-lane field
    /// that is not is a point.
    package var isSize: Bool {
        switch self {
        case let .lanes(_, w, size): return w == 2 && size
        case let .transform(f): return f == .translation
        }
    }

    /// Writes the field of the whole value `value` (its lanes) to `out`.
    package func read(_ value: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>) {
        switch self {
        case let .lanes(offset, w, _):
            for c in 0..<w { out[c] = value[offset + c] }
        case let .transform(f):
            let t = CATransform3D(lanes: value)
            for c in 0..<f.width { out[c] = f.value(in: t, lane: c) }
        }
    }

    /// Sets the field of the whole value `value` (its lanes) to `field`, or adds `field` to it
    /// (`additive`).
    package func write(_ field: UnsafePointer<Double>, additive: Bool, into value: UnsafeMutablePointer<Double>) {
        switch self {
        case let .lanes(offset, w, _):
            for c in 0..<w { value[offset + c] = additive ? value[offset + c] + field[c] : field[c] }
        case let .transform(f):
            let t = CATransform3D(lanes: value)
            var v0 = field[0], v1 = f.width == 2 ? field[1] : 0
            if additive {
                v0 += f.value(in: t)
                if f.width == 2 { v1 += f.value(in: t, lane: 1) }
            }
            f.setting(v0, v1, in: t).store(to: value)
        }
    }

    /// The field of the whole value `whole` (the array form of `read`).
    package func part(of whole: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: width)
        whole.withUnsafeBufferPointer { w in out.withUnsafeMutableBufferPointer { read(w.baseAddress!, into: $0.baseAddress!) } }
        return out
    }

    /// `whole` with the field set to `field` (or `field` added to it: `additive`), the array
    /// form of `write`.
    package func writing(_ field: [Double], additive: Bool, into whole: [Double]) -> [Double] {
        var out = whole
        out.withUnsafeMutableBufferPointer { o in field.withUnsafeBufferPointer { write($0.baseAddress!, additive: additive, into: o.baseAddress!) } }
        return out
    }

    /// The field's lanes boxed as `value(forKeyPath:)` returns them: a `CGFloat`, `CGPoint`
    /// or `CGSize`.
    package func box(_ l: UnsafePointer<Double>) -> Any {
        switch width {
        case 1: return CGFloat(l[0])
        default: return isSize ? CGSize(width: l[0], height: l[1]) as Any : CGPoint(x: l[0], y: l[1]) as Any
        }
    }
}
