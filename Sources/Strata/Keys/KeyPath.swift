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
    }
    let target: Target
    /// The property the action lookup and animation replacement use (`position` for
    /// `position.x`).
    var property: PropertyID? {
        switch target {
        case .lanes(let p, _, _), .transformField(let p, _), .object(let p): return p
        case .frame: return .frame
        case .custom: return nil
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
        }
    }
}

enum KeyPathResolver {
    private static let pointFields = ["x": 0, "y": 1]
    private static let sizeFields = ["width": 0, "height": 1]

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
        switch info.kind {
        case .point:
            guard let o = pointFields[tail] else { return nil }
            return ResolvedKeyPath(target: .lanes(p, offset: o, width: 1))
        case .size:
            guard let o = sizeFields[tail] else { return nil }
            return ResolvedKeyPath(target: .lanes(p, offset: o, width: 1))
        case .rect:
            switch tail {
            case "origin": return ResolvedKeyPath(target: .lanes(p, offset: 0, width: 2))
            case "size": return ResolvedKeyPath(target: .lanes(p, offset: 2, width: 2))
            case "origin.x": return ResolvedKeyPath(target: .lanes(p, offset: 0, width: 1))
            case "origin.y": return ResolvedKeyPath(target: .lanes(p, offset: 1, width: 1))
            case "size.width": return ResolvedKeyPath(target: .lanes(p, offset: 2, width: 1))
            case "size.height": return ResolvedKeyPath(target: .lanes(p, offset: 3, width: 1))
            default: return nil
            }
        case .transform:
            guard let f = TransformField(rawValue: tail) else { return nil }
            return ResolvedKeyPath(target: .transformField(p, f))
        default:
            return nil
        }
    }
}
