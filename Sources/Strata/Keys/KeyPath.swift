/// A key path resolved once at the API boundary: a built-in property, optionally narrowed to
/// a range of its lanes (`position.x`, `bounds.size`), or a custom key.
struct ResolvedKeyPath: Equatable {
    enum Target: Equatable {
        /// Lanes `offset ..< offset + width` of a lane property.
        case lanes(PropertyID, offset: Int, width: Int)
        /// A derived field of a transform (`transform.rotation.z`, `transform.scale.x` ...).
        case transformField(PropertyID, TransformField)
        /// A whole object-valued property (contents, mask, paths, filters).
        case object(PropertyID)
        /// The derived `frame`.
        case frame
        /// A key set with `setValue(_:forKey:)` that is not a built-in property.
        case custom(PropertyID)
        /// A field of a custom key's point, size, rectangle or transform
        /// (`startPoint.x`, `instanceTransform.rotation.z`).
        case customField(PropertyID, ValueField)
    }
    let target: Target
    /// The property the action lookup and animation replacement use (`position` for
    /// `position.x`).
    var property: PropertyID? {
        switch target {
        case .lanes(let p, _, _), .transformField(let p, _), .object(let p): return p
        case .frame: return .frame
        case .custom, .customField: return nil
        }
    }
    /// The value kind of the addressed part.
    var kind: ValueKind {
        switch target {
        case .lanes(let p, let offset, let width):
            let k = PropertyTable[p].kind
            if width == k.width { return k }
            if width == 1 { return k == .float ? .float : .cgFloat }
            if width == 2 { return (k == .rect && offset == 2) ? .size : .point }
            return k
        case .transformField(_, let f): return f == .translation ? .size : .cgFloat
        case .object, .frame, .custom: return .object
        case .customField(_, let f): return ValueKind.of(f)
        }
    }
}

extension ValueKind {
    /// The kind of a field's value: a number, a point or a size.
    static func of(_ f: ValueField) -> ValueKind { f.width == 1 ? .cgFloat : f.isSize ? .size : .point }
}

enum KeyPathResolver {
    /// Resolves `path` for a layer of the given shape-ness; nil if it names nothing.
    static func resolve(_ path: String, isShape: Bool) -> ResolvedKeyPath? {
        if let p = PropertyTable.idsByName[path] {
            let info = PropertyTable[p]
            if info.shapeOnly && !isShape { return nil }
            if p == .frame { return ResolvedKeyPath(target: .frame) }
            if p == .sublayers { return nil }
            if info.kind == .object { return ResolvedKeyPath(target: .object(p)) }
            return ResolvedKeyPath(target: .lanes(p, offset: 0, width: info.width))
        }
        guard let dot = path.firstIndex(of: ".") else { return nil }
        let head = String(path[..<dot])
        let tail = String(path[path.index(after: dot)...])
        guard let p = PropertyTable.idsByName[head] else { return nil }
        let info = PropertyTable[p]
        if info.shapeOnly && !isShape { return nil }
        let shape: GeometryShape
        switch info.kind {
        case .point: shape = .point
        case .size: shape = .size
        case .rect: shape = .rect
        case .transform: shape = .transform
        default: return nil
        }
        switch ValueField.named(tail, of: shape) {
        case let .lanes(offset, width, _)?: return ResolvedKeyPath(target: .lanes(p, offset: offset, width: width))
        case let .transform(f)?: return ResolvedKeyPath(target: .transformField(p, f))
        case nil: return nil
        }
    }

    /// A field of a custom key's value (`startPoint.x` of a gradient layer's start point,
    /// `instanceTransform.rotation.z`): the key before the first dot, not a built-in
    /// property, whose value (`value(key)`, the model's or the class's default) is a point,
    /// size, rectangle or transform with the field after it. nil otherwise.
    static func customField(_ path: String, value: (PropertyID) -> Any?) -> ResolvedKeyPath? {
        guard let dot = path.firstIndex(of: ".") else { return nil }
        let head = String(path[..<dot])
        guard PropertyTable.idsByName[head] == nil else { return nil }
        let key = KeyInterner.id(head)
        guard let v = value(key), let shape = GeometryShape(of: v),
              let f = ValueField.named(String(path[path.index(after: dot)...]), of: shape) else { return nil }
        return ResolvedKeyPath(target: .customField(key, f))
    }
}
