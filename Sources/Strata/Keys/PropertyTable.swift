import Foundation

/// How a property's value is stored in lanes of `Double` and converted at the API boundary.
@usableFromInline
enum ValueKind: UInt8 {
    case cgFloat, float, bool, point, size, rect, color, transform
    /// Not interpolated: held as a Swift object on the layer handle (contents, mask, paths).
    case object
    /// A layer timing field (beginTime, speed ...): stored in lanes, never animated.
    case timing
    /// A custom key's array of numbers (a lane each) or of colours (four lanes each): as many
    /// lanes as the value has.
    case array

    /// Lanes of `Double` one value occupies (0: it varies, objects and arrays).
    @usableFromInline var width: Int {
        switch self {
        case .cgFloat, .float, .bool, .timing: return 1
        case .point, .size: return 2
        case .rect, .color: return 4
        case .transform: return 16
        case .object, .array: return 0
        }
    }
}

/// What the built-in (step 5) action of a property is.
@usableFromInline
enum BuiltInAction: UInt8 { case none, basic, transition }

/// A small integer naming a property or key. Built-in properties have fixed ids; custom keys
/// and animation keys are interned on first use (`KeyInterner`). Hot paths see only ids.
@usableFromInline
struct PropertyID: Hashable, Comparable {
    @usableFromInline let raw: Int32
    @inlinable init(_ raw: Int32) { self.raw = raw }
    @inlinable static func < (a: PropertyID, b: PropertyID) -> Bool { a.raw < b.raw }
    @inlinable var index: Int { Int(raw) }
    @inlinable var isBuiltIn: Bool { raw >= 0 && Int(raw) < PropertyTable.count }

    static let anchorPoint = PropertyID(0)
    static let backgroundColor = PropertyID(1)
    static let borderColor = PropertyID(2)
    static let borderWidth = PropertyID(3)
    static let bounds = PropertyID(4)
    static let contentsRect = PropertyID(5)
    static let cornerRadius = PropertyID(6)
    static let hidden = PropertyID(7)
    static let masksToBounds = PropertyID(8)
    static let opacity = PropertyID(9)
    static let position = PropertyID(10)
    static let shadowColor = PropertyID(11)
    static let shadowOffset = PropertyID(12)
    static let shadowOpacity = PropertyID(13)
    static let shadowRadius = PropertyID(14)
    static let sublayerTransform = PropertyID(15)
    static let transform = PropertyID(16)
    static let zPosition = PropertyID(17)
    static let anchorPointZ = PropertyID(18)
    static let doubleSided = PropertyID(19)
    static let strokeStart = PropertyID(20)
    static let strokeEnd = PropertyID(21)
    static let lineWidth = PropertyID(22)
    static let fillColor = PropertyID(23)
    static let strokeColor = PropertyID(24)
    static let miterLimit = PropertyID(25)
    static let lineDashPhase = PropertyID(26)
    static let contents = PropertyID(27)
    static let mask = PropertyID(28)
    static let shadowPath = PropertyID(29)
    static let path = PropertyID(30)
    static let filters = PropertyID(31)
    static let backgroundFilters = PropertyID(32)
    static let compositingFilter = PropertyID(33)
    static let sublayers = PropertyID(34)
    static let beginTime = PropertyID(35)
    static let duration = PropertyID(36)
    static let speed = PropertyID(37)
    static let timeOffset = PropertyID(38)
    static let repeatCount = PropertyID(39)
    static let repeatDuration = PropertyID(40)
    static let autoreverses = PropertyID(41)
    static let fillMode = PropertyID(42)
    static let frame = PropertyID(43)
}

/// One row of the property table.
@usableFromInline
struct PropertyInfo {
    @usableFromInline let name: String
    @usableFromInline let kind: ValueKind
    @usableFromInline let action: BuiltInAction
    /// Only `CAShapeLayer` has it.
    @usableFromInline let shapeOnly: Bool
    /// Default value, `kind.width` lanes.
    @usableFromInline let defaults: [Double]
    /// Offset of this property's lanes in a flat snapshot of every lane property.
    @usableFromInline var laneOffset: Int = 0

    @usableFromInline var width: Int { kind.width }
    @usableFromInline var isLaneProperty: Bool { kind.width > 0 }
    @usableFromInline var isAnimatable: Bool { kind != .timing && kind != .object || action != .none }
}

/// The built-in properties: names, kinds, Apple's defaults and the built-in action of each
/// (SEMANTICS.md, seed 000's table).
@usableFromInline
enum PropertyTable {
    static let nilColor = [Double](repeating: .nan, count: 4)
    static let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

    @usableFromInline static let rows: [PropertyInfo] = {
        var r: [PropertyInfo] = [
            .init(name: "anchorPoint", kind: .point, action: .basic, shapeOnly: false, defaults: [0.5, 0.5]),
            .init(name: "backgroundColor", kind: .color, action: .basic, shapeOnly: false, defaults: nilColor),
            .init(name: "borderColor", kind: .color, action: .basic, shapeOnly: false, defaults: [0, 0, 0, 1]),
            .init(name: "borderWidth", kind: .cgFloat, action: .basic, shapeOnly: false, defaults: [0]),
            .init(name: "bounds", kind: .rect, action: .basic, shapeOnly: false, defaults: [0, 0, 0, 0]),
            .init(name: "contentsRect", kind: .rect, action: .basic, shapeOnly: false, defaults: [0, 0, 1, 1]),
            .init(name: "cornerRadius", kind: .cgFloat, action: .basic, shapeOnly: false, defaults: [0]),
            .init(name: "hidden", kind: .bool, action: .basic, shapeOnly: false, defaults: [0]),
            .init(name: "masksToBounds", kind: .bool, action: .basic, shapeOnly: false, defaults: [0]),
            .init(name: "opacity", kind: .float, action: .basic, shapeOnly: false, defaults: [1]),
            .init(name: "position", kind: .point, action: .basic, shapeOnly: false, defaults: [0, 0]),
            .init(name: "shadowColor", kind: .color, action: .basic, shapeOnly: false, defaults: [0, 0, 0, 1]),
            .init(name: "shadowOffset", kind: .size, action: .basic, shapeOnly: false, defaults: [0, -3]),
            .init(name: "shadowOpacity", kind: .float, action: .basic, shapeOnly: false, defaults: [0]),
            .init(name: "shadowRadius", kind: .cgFloat, action: .basic, shapeOnly: false, defaults: [3]),
            .init(name: "sublayerTransform", kind: .transform, action: .basic, shapeOnly: false, defaults: identity),
            .init(name: "transform", kind: .transform, action: .basic, shapeOnly: false, defaults: identity),
            .init(name: "zPosition", kind: .cgFloat, action: .basic, shapeOnly: false, defaults: [0]),
            .init(name: "anchorPointZ", kind: .cgFloat, action: .basic, shapeOnly: false, defaults: [0]),
            .init(name: "doubleSided", kind: .bool, action: .none, shapeOnly: false, defaults: [1]),
            .init(name: "strokeStart", kind: .cgFloat, action: .basic, shapeOnly: true, defaults: [0]),
            .init(name: "strokeEnd", kind: .cgFloat, action: .basic, shapeOnly: true, defaults: [1]),
            .init(name: "lineWidth", kind: .cgFloat, action: .basic, shapeOnly: true, defaults: [1]),
            .init(name: "fillColor", kind: .color, action: .basic, shapeOnly: true, defaults: [0, 0, 0, 1]),
            .init(name: "strokeColor", kind: .color, action: .basic, shapeOnly: true, defaults: nilColor),
            .init(name: "miterLimit", kind: .cgFloat, action: .basic, shapeOnly: true, defaults: [10]),
            .init(name: "lineDashPhase", kind: .cgFloat, action: .basic, shapeOnly: true, defaults: [0]),
            .init(name: "contents", kind: .object, action: .transition, shapeOnly: false, defaults: []),
            .init(name: "mask", kind: .object, action: .basic, shapeOnly: false, defaults: []),
            .init(name: "shadowPath", kind: .object, action: .basic, shapeOnly: false, defaults: []),
            .init(name: "path", kind: .object, action: .basic, shapeOnly: true, defaults: []),
            .init(name: "filters", kind: .object, action: .transition, shapeOnly: false, defaults: []),
            .init(name: "backgroundFilters", kind: .object, action: .transition, shapeOnly: false, defaults: []),
            .init(name: "compositingFilter", kind: .object, action: .transition, shapeOnly: false, defaults: []),
            .init(name: "sublayers", kind: .object, action: .transition, shapeOnly: false, defaults: []),
            .init(name: "beginTime", kind: .timing, action: .none, shapeOnly: false, defaults: [0]),
            .init(name: "duration", kind: .timing, action: .none, shapeOnly: false, defaults: [0]),
            .init(name: "speed", kind: .timing, action: .none, shapeOnly: false, defaults: [1]),
            .init(name: "timeOffset", kind: .timing, action: .none, shapeOnly: false, defaults: [0]),
            .init(name: "repeatCount", kind: .timing, action: .none, shapeOnly: false, defaults: [0]),
            .init(name: "repeatDuration", kind: .timing, action: .none, shapeOnly: false, defaults: [0]),
            .init(name: "autoreverses", kind: .timing, action: .none, shapeOnly: false, defaults: [0]),
            .init(name: "fillMode", kind: .timing, action: .none, shapeOnly: false, defaults: [0]),
            // Derived from bounds, position and anchorPoint; never stored, never animated.
            .init(name: "frame", kind: .object, action: .none, shapeOnly: false, defaults: []),
        ]
        var offset = 0
        for i in r.indices {
            r[i].laneOffset = offset
            offset += r[i].width
        }
        // The literals below restate this table for the hot paths; they must agree with it.
        precondition(r.count == count && r.count <= 64, "PropertyTable.count must be the number of rows")
        for (i, row) in r.enumerated() {
            let bit = UInt64(1) << UInt64(i)
            precondition((shapeOnlyBits & bit != 0) == row.shapeOnly, "PropertyTable.shapeOnlyBits disagrees at \(row.name)")
            precondition((noActionBits & bit != 0) == (row.action == .none), "PropertyTable.noActionBits disagrees at \(row.name)")
            precondition((transitionBits & bit != 0) == (row.action == .transition), "PropertyTable.transitionBits disagrees at \(row.name)")
            precondition((basicBits & bit != 0) == (row.action == .basic && !row.shapeOnly),
                         "PropertyTable.basicBits disagrees at \(row.name)")
        }
        return r
    }()

    /// The number of built-in properties. A literal (checked against `rows` when the table is
    /// built), so hot paths read a constant rather than a lazily initialised global.
    @usableFromInline static let count = 44
    /// Bit `id` set: the property exists on CAShapeLayer only. A literal, like `count`.
    @usableFromInline static let shapeOnlyBits: UInt64 = 0x47f0_0000
    /// Bit `id` set: the property has no built-in implicit action.
    @usableFromInline static let noActionBits: UInt64 = 0xff8_0008_0000
    /// Bit `id` set: the property's built-in action is a transition (contents, filters, ...).
    @usableFromInline static let transitionBits: UInt64 = 0x7_8800_0000
    /// Bit `id` set: the property animates with a basic animation on every layer class (not
    /// shape-only, not a transition, not without action): the lookup's common answer, one bit
    /// test.
    @usableFromInline static let basicBits: UInt64 = 0x3007_ffff
    /// Total lanes of one layer's snapshot (every lane property).
    static let snapshotLanes = rows.reduce(0) { $0 + $1.width }
    /// The snapshot of a new layer: every default.
    static let defaultSnapshot: [Double] = rows.flatMap { $0.defaults }

    @inlinable static subscript(id: PropertyID) -> PropertyInfo { rows[id.index] }

    /// The fields the per-change path reads, as a trivially-copyable row (no ARC traffic).
    @usableFromInline struct Hot {
        @usableFromInline let width: Int
        @usableFromInline let kind: ValueKind
        @usableFromInline let action: BuiltInAction
        @usableFromInline let shapeOnly: Bool
        /// The `SnapshotHint` bit a change of this property sets on its layer's row.
        @usableFromInline let snapshotHint: UInt8
    }

    /// The `SnapshotHint` bit of each property (0: read by every snapshot, or not at all).
    static func snapshotHint(_ name: String) -> UInt8 {
        switch name {
        case "transform": return SnapshotHint.transform
        case "sublayerTransform": return SnapshotHint.sublayerTransform
        case "anchorPoint", "anchorPointZ": return SnapshotHint.anchor
        case "zPosition": return SnapshotHint.zPosition
        case "borderWidth", "borderColor", "cornerRadius": return SnapshotHint.border
        case "shadowColor", "shadowOffset", "shadowOpacity", "shadowRadius": return SnapshotHint.shadow
        case "masksToBounds", "doubleSided", "hidden": return SnapshotHint.clipping
        case "fillColor", "strokeColor", "lineWidth", "strokeStart", "strokeEnd", "miterLimit", "lineDashPhase":
            return SnapshotHint.shape
        default: return 0
        }
    }

    /// `Hot` rows by property id, allocated once and never freed.
    static let hot: Slab<Hot> = {
        let p = Slab<Hot>.allocate(capacity: rows.count)
        for (i, r) in rows.enumerated() {
            (p.base + i).initialize(to: Hot(width: r.width, kind: r.kind, action: r.action, shapeOnly: r.shapeOnly,
                                       snapshotHint: snapshotHint(r.name)))
        }
        return p
    }()

    /// Name -> id for the built-in properties (read-only after first use: thread-safe).
    static let idsByName: [String: PropertyID] = {
        var d: [String: PropertyID] = [:]
        for (i, row) in rows.enumerated() { d[row.name] = PropertyID(Int32(i)) }
        // Apple's KVC names for the Bool properties.
        d["isHidden"] = .hidden
        d["isDoubleSided"] = .doubleSided
        return d
    }()
}
