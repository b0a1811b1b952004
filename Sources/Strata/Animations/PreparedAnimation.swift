/// An animation validated and converted at the boundary, ready to install.
indirect enum PreparedAnimation {
    case lanes(PropertyID, offset: Int, width: Int, from: [Double], to: [Double], additive: Bool, cumulative: Bool)
    case keyframes(PropertyID, offset: Int, width: Int, CompiledKeyframes, additive: Bool, cumulative: Bool, rotate: UInt8)
    case object(PropertyID, ObjectValues)
    case derived(DerivedValue, PropertyID)
    case custom(DerivedValue)
    case transition
    case group([(CAAnimation, PreparedAnimation)])

    /// Records it takes (a group one for itself and its children's).
    var records: Int {
        if case let .group(children) = self { return 1 + children.reduce(0) { $0 + $1.1.records } }
        return 1
    }

    /// The property whose lanes it writes (-1: none, e.g. transitions and groups).
    var property: Int32 {
        switch self {
        case let .lanes(p, _, _, _, _, _, _), let .keyframes(p, _, _, _, _, _, _), let .object(p, _): return p.raw
        case let .derived(_, p): return p.raw
        case let .custom(d): return -1000 - d.customKey
        default: return -1
        }
    }
}
