import Foundation

/// Interns key strings to small integer ids, once, at the API boundary. Built-in property
/// names are ids `0..<PropertyTable.count`; every other string (custom keys, animation keys,
/// event names) gets the next id on first use. Shared by every thread's engine, under a lock.
enum KeyInterner {
    private static let lock = NSLock()
    /// The well-known keys below take the ids after the built-in names, fixed, so reading
    /// one is a constant: as lazily interned globals, each read went through `swift_once`
    /// (lookup/miss/interned spent 40% of its time there, for two keys compared per lookup).
    private static let wellKnown = ["onOrderIn", "onOrderOut", "transition", "contentsCenter", "rasterizationScale"]
    nonisolated(unsafe) private static var ids: [String: Int32] =
        Dictionary(uniqueKeysWithValues: wellKnown.enumerated().map { ($1, Int32(PropertyTable.count + $0)) })
    nonisolated(unsafe) private static var names: [String] = PropertyTable.rows.map(\.name) + wellKnown

    /// The last key asked for and its id: a program adds its animations under the same key
    /// again and again, and comparing a string costs a fraction of hashing it (a miss in the
    /// built-in names and a hit in `ids` were two hashes, about 430 instructions an `add`).
    nonisolated(unsafe) private static var lastKey = ""
    nonisolated(unsafe) private static var lastID = PropertyID(-1)

    /// The id of `key`, interning it if new.
    static func id(_ key: String) -> PropertyID {
        lock.lock(); defer { lock.unlock() }
        if key == lastKey, lastID.raw >= 0 { return lastID }
        let id: PropertyID
        if let builtIn = PropertyTable.idsByName[key] {
            id = builtIn
        } else if let known = ids[key] {
            id = PropertyID(known)
        } else {
            id = PropertyID(Int32(names.count))
            names.append(key)
            ids[key] = id.raw
        }
        lastKey = key
        lastID = id
        return id
    }

    /// The string of an id produced by `id(_:)`.
    static func name(_ id: PropertyID) -> String {
        if id.isBuiltIn { return PropertyTable.rows[id.index].name }
        lock.lock(); defer { lock.unlock() }
        return names[id.index]
    }

    /// Well-known event keys, at fixed ids (`wellKnown`, after the 44 built-in names).
    static let onOrderIn = PropertyID(44)
    static let onOrderOut = PropertyID(45)
    static let transition = PropertyID(46)
    /// CALayer's keyed values with an implicit action (`ToolboxImplicitAction.forLayerKey`).
    static let contentsCenter = PropertyID(47)
    static let rasterizationScale = PropertyID(48)
    /// Bits 47 and 48: the two keys above, for the lookup's bit tests (`builtInOutcome`).
    static let implicitKeyedBits: UInt64 = 1 << 47 | 1 << 48
}
