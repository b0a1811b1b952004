/// The change whose action is running: what `CAAnimation.run(forKey:object:arguments:)` and
/// the animations it adds read of it (SEMANTICS.md: an action's animation starts from the
/// value shown before the change). The change log writes it around an action's run; the
/// animation compiler reads it. One object per engine, shared by the two parts that hold it:
/// handing the compiler a copy of three optionals (an array and two `Any`) cost 6% of an
/// explicit add (`commit/explicit-basic`) in retains and existential copies.
final class ChangeInFlight {
    /// A layer property's change: the lanes shown before it.
    @exclusivity(unchecked) var change: (row: Int32, property: PropertyID, old: [Double])?
    /// An object property's change: the values before and after.
    @exclusivity(unchecked) var object: (from: Any?, to: Any?)?
    /// A custom key's change: the value shown before it.
    @exclusivity(unchecked) var custom: (row: Int32, key: Int32, old: Any?)?

    /// Runs `body` (app code: delegate callbacks, completion blocks) with no property or object
    /// change in flight, and puts the state back after: a change that code makes is a change
    /// of its own, which must neither start from the outer change's old value nor end the
    /// outer one's in-flight state.
    @inline(__always)
    func outside(_ body: () -> Void) {
        guard change != nil || object != nil else { body(); return }
        let saved = (change, object)
        change = nil
        object = nil
        body()
        (change, object) = saved
    }
}
