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
    /// A field of a custom key's point, size, rectangle or transform (`startPoint.x`).
    case customField(String, ValueField)

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
        case .customField(_, let f): return f.width == 1 ? .cgFloat : f.isSize ? .size : .point
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
        let shape: GeometryShape
        switch spec.kind {
        case .point: shape = .point
        case .size: shape = .size
        case .rect: shape = .rect
        case .transform: shape = .transform
        default: return nil
        }
        switch ValueField.named(tail, of: shape) {
        case let .lanes(offset, width, _)?: return .components(spec, offset: offset, width: width)
        case let .transform(field)?: return .transformField(spec, field)
        case nil: return nil
        }
    }

    /// A field of a custom key's value (`startPoint.x`): the key before the first dot, no
    /// built-in property, whose value (`value(key)`) is a point, size, rectangle or transform
    /// with the field after it; nil otherwise.
    static func customField(_ path: String, value: (String) -> Any?) -> KeyPathTarget? {
        guard let dot = path.firstIndex(of: ".") else { return nil }
        let head = String(path[..<dot])
        guard PropertyCatalog.spec(head) == nil, let v = value(head), let shape = GeometryShape(of: v),
              let field = ValueField.named(String(path[path.index(after: dot)...]), of: shape) else { return nil }
        return .customField(head, field)
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
