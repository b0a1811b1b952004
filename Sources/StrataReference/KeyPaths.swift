import Foundation

/// What a key path names on a layer.
enum KeyPathTarget {
    /// Components `offset ..< offset + width` of an interpolatable property (the whole
    /// property when the range covers it): `position`, `position.x`, `bounds.size`.
    case components(PropertySpec, offset: Int, width: Int)
    /// A derived field of a transform (`transform.rotation.z`, `transform.scale` ...).
    case transformField(PropertySpec, TransformField)
    /// A whole object-valued property (contents, mask, paths, filters).
    case object(PropertySpec)
    /// A layer timing field (beginTime, speed ...).
    case timing(PropertySpec)
    /// The derived `frame`.
    case frame
    /// A key set with `setValue(_:forKey:)` that is not a built-in property.
    case custom(String)

    /// The kind of the addressed value.
    var kind: ValueKind {
        switch self {
        case .components(let spec, let offset, let width):
            if width == spec.kind.width { return spec.kind }
            if width == 1 { return spec.kind == .float ? .float : .cgFloat }
            return (spec.kind == .rect && offset == 2) ? .size : .point
        case .transformField: return .cgFloat
        case .timing: return .timing
        case .object, .frame, .custom: return .object
        }
    }
}

/// Derived fields of a `CATransform3D` reachable by key path (Apple's list).
enum TransformField: String {
    case rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z", rotation = "rotation"
    case scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z", scale = "scale"
    case translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z"

    /// The field's value, read by decomposing `t` into scale, rotation (x, then y, then z)
    /// and translation.
    func value(in t: CATransform3D) -> Double {
        let m11 = Double(t.m11), m12 = Double(t.m12), m13 = Double(t.m13)
        let m21 = Double(t.m21), m22 = Double(t.m22), m23 = Double(t.m23)
        let m31 = Double(t.m31), m32 = Double(t.m32), m33 = Double(t.m33)
        let scaleX = (m11 * m11 + m12 * m12 + m13 * m13).squareRoot()
        let scaleY = (m21 * m21 + m22 * m22 + m23 * m23).squareRoot()
        let scaleZ = (m31 * m31 + m32 * m32 + m33 * m33).squareRoot()
        switch self {
        case .rotationZ, .rotation: return atan2(m12, m11)
        case .rotationX: return atan2(m23, m33)
        case .rotationY: return atan2(-m13, (m23 * m23 + m33 * m33).squareRoot())
        case .scaleX: return scaleX
        case .scaleY: return scaleY
        case .scaleZ: return scaleZ
        case .scale: return (scaleX + scaleY + scaleZ) / 3
        case .translationX: return Double(t.m41)
        case .translationY: return Double(t.m42)
        case .translationZ: return Double(t.m43)
        }
    }

    /// `t` with this field set to `newValue`: decomposed, the field replaced, recomposed as
    /// scale, then the x, y, z rotations, then the translation.
    /// Shears and perspective (`m34`) are kept (SEMANTICS.md, "Fidelity rules").
    func setting(_ newValue: Double, in t: CATransform3D) -> CATransform3D {
        TransformBlend.editingRigidPart(of: t) { rigidSetting(newValue, in: $0) }
    }

    private func rigidSetting(_ newValue: Double, in t: CATransform3D) -> CATransform3D {
        var scale = [TransformField.scaleX.value(in: t), TransformField.scaleY.value(in: t), TransformField.scaleZ.value(in: t)]
        var rotation = [TransformField.rotationX.value(in: t), TransformField.rotationY.value(in: t), TransformField.rotationZ.value(in: t)]
        var translation = [Double(t.m41), Double(t.m42), Double(t.m43)]
        switch self {
        case .rotationX: rotation[0] = newValue
        case .rotationY: rotation[1] = newValue
        case .rotationZ, .rotation: rotation[2] = newValue
        case .scaleX: scale[0] = newValue
        case .scaleY: scale[1] = newValue
        case .scaleZ: scale[2] = newValue
        case .scale: scale = [newValue, newValue, newValue]
        case .translationX: translation[0] = newValue
        case .translationY: translation[1] = newValue
        case .translationZ: translation[2] = newValue
        }
        var result = CATransform3DMakeScale(CGFloat(scale[0]), CGFloat(scale[1]), CGFloat(scale[2]))
        let axes: [(CGFloat, CGFloat, CGFloat)] = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]
        for (angle, axis) in zip(rotation, axes) where angle != 0 {
            result = CATransform3DConcat(result, CATransform3DMakeRotation(CGFloat(angle), axis.0, axis.1, axis.2))
        }
        result.m41 = CGFloat(translation[0])
        result.m42 = CGFloat(translation[1])
        result.m43 = CGFloat(translation[2])
        return result
    }
}

enum KeyPaths {
    /// What `path` names on a layer (shape-ness decides the CAShapeLayer properties); nil when
    /// it names nothing built in. The caller treats a nil for a single unknown key as a
    /// custom key.
    static func resolve(_ path: String, isShape: Bool) -> KeyPathTarget? {
        if let spec = PropertyCatalog.spec(path) {
            if spec.shapeOnly && !isShape { return nil }
            switch spec.name {
            case "frame": return .frame
            case "sublayers": return nil
            default: break
            }
            switch spec.kind {
            case .object: return .object(spec)
            case .timing: return .timing(spec)
            default: return .components(spec, offset: 0, width: spec.kind.width)
            }
        }
        guard let dot = path.firstIndex(of: ".") else { return nil }
        let head = String(path[..<dot])
        let tail = String(path[path.index(after: dot)...])
        guard let spec = PropertyCatalog.spec(head) else { return nil }
        if spec.shapeOnly && !isShape { return nil }
        switch (spec.kind, tail) {
        case (.point, "x"): return .components(spec, offset: 0, width: 1)
        case (.point, "y"): return .components(spec, offset: 1, width: 1)
        case (.size, "width"): return .components(spec, offset: 0, width: 1)
        case (.size, "height"): return .components(spec, offset: 1, width: 1)
        case (.rect, "origin"): return .components(spec, offset: 0, width: 2)
        case (.rect, "size"): return .components(spec, offset: 2, width: 2)
        case (.rect, "origin.x"): return .components(spec, offset: 0, width: 1)
        case (.rect, "origin.y"): return .components(spec, offset: 1, width: 1)
        case (.rect, "size.width"): return .components(spec, offset: 2, width: 1)
        case (.rect, "size.height"): return .components(spec, offset: 3, width: 1)
        case (.transform, _):
            guard let field = TransformField(rawValue: tail) else { return nil }
            return .transformField(spec, field)
        default:
            return nil
        }
    }

    /// Whether `path` may be a custom key: a single key that is no built-in property name.
    static func isCustomKey(_ path: String) -> Bool {
        !path.contains(".") && PropertyCatalog.spec(path) == nil
    }

    /// Does `value` have the type the object property `name` holds?
    static func objectFits(_ name: String, _ value: Any?) -> Bool {
        guard let value else { return true }
        switch name {
        case "mask": return value is CALayer
        case "shadowPath", "path": return value is CGPath
        case "filters", "backgroundFilters": return value is [Any]
        default: return true
        }
    }
}
