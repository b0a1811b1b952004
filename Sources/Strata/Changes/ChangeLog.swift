/// What the open transactions changed, kept until the outermost commit applies it: the
/// setters write the model and note the change here (one append, no lookup); the commit
/// (`ChangeLog+Commit.swift`) reads the notes in bulk: new timing entries get their begin
/// time, changed properties with no animation show their model value, new layers join the
/// render tree; changed objects are committed by the layers' side.
///
/// What an action running for a change needs to know of it (the value shown before the
/// change, which an animation added by the action starts from) is not here but in
/// `ChangeInFlight`, an object the engine holds and shares with the animation compiler.
///
/// A part of the engine with its own state: it names no layer object and no other part.
/// It is a struct stored in the owner (as `TransactionStack` is): the setter's append costs
/// what the owner's own field did (`commit/implicit/1000` +0.2% instructions with the move).
/// A class of its own was not measured.
struct ChangeLog {
    /// Layer properties changed since the last commit, in change order. A `RowTable`: the
    /// setter's append takes no uniqueness check (an Array's took a call per change).
    var properties = RowTable(empty: PropertyChange(row: -1, property: PropertyID(0)))
    /// Object properties and custom keys changed since the last commit (row, key).
    var objects: [(row: Int32, key: Int32)] = []
    /// Layers made since the last commit: they join the render tree at it.
    var newLayers: [Int32] = []
    /// Timing entries made since the last commit, in the order their animations were added:
    /// the commit gives them their begin time in that order (completion blocks become due in
    /// it).
    var newEntries: [Int32] = []
    /// Layer properties whose replaced animation's value shows until the next render.
    var refreshAtRender: [(row: Int32, property: PropertyID)] = []
    init() { newEntries.reserveCapacity(64) }

    /// Whether property (or object key) `p` of `row` changed since the last commit.
    func contains(row: Int32, _ p: PropertyID) -> Bool {
        for k in 0..<properties.count where properties[k].row == row && properties[k].property == p { return true }
        for k in 0..<objects.count where objects[k].row == row && objects[k].key == p.raw { return true }
        return false
    }

    /// Frees the property log's column (the owner's deinit).
    func free() { properties.free() }
}

/// A layer property changed in the open transaction (`ChangeLog.properties`).
struct PropertyChange {
    var row: Int32
    var property: PropertyID
}
