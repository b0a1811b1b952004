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
        case .transformField(_, let f): return f == .translation ? .size : .cgFloat
        case .timing: return .timing
        case .object, .frame, .custom: return .object
        }
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
