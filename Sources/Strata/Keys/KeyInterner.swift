import Foundation

/// Interns key strings to small integer ids, once, at the API boundary. Built-in property
/// names are ids `0..<PropertyTable.count`; every other string (custom keys, animation keys,
/// event names) gets the next id on first use. Shared by every thread's engine; lookups of
/// existing keys take a lock only for strings that are not built-in names.
enum KeyInterner {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var ids: [String: Int32] = [:]
    nonisolated(unsafe) private static var names: [String] = PropertyTable.rows.map(\.name)

    /// The id of `key`, interning it if new.
    static func id(_ key: String) -> PropertyID {
        if let builtIn = PropertyTable.idsByName[key] { return builtIn }
        lock.lock(); defer { lock.unlock() }
        if let id = ids[key] { return PropertyID(id) }
        let id = Int32(names.count)
        names.append(key)
        ids[key] = id
        return PropertyID(id)
    }

    /// The string of an id produced by `id(_:)`.
    static func name(_ id: PropertyID) -> String {
        if id.isBuiltIn { return PropertyTable.rows[id.index].name }
        lock.lock(); defer { lock.unlock() }
        return names[id.index]
    }

    /// Well-known event keys, interned at start-up.
    static let onOrderIn = id("onOrderIn")
    static let onOrderOut = id("onOrderOut")
    static let transition = id("transition")
    /// CALayer's keyed values with an implicit action (`ToolboxImplicitAction.forLayerKey`).
    static let contentsCenter = id("contentsCenter")
    static let rasterizationScale = id("rasterizationScale")
}
