import Foundation

extension EngineContext {
    /// Stores an animation the compiler prepared under `key` (the layer checked it): refused
    /// at capacity (false, with a diagnostic); otherwise the animation under the same key is
    /// removed and the new one installed on its timing entry.
    func store(_ prepared: PreparedAnimation, object stored: CAAnimation, forKey key: String?, row: Int32,
               fromAction: Bool) -> Bool {
        guard hasRoomForAnimations(prepared.records), compiler.fitsKeyPools(prepared) else {
            refuseAnimationsAtCapacity("add(_:forKey: \(key ?? "nil"))")
            return false
        }
        let keyID: Int32
        if stored is CATransition { keyID = KeyInterner.transition.raw }
        else { keyID = key.map { KeyInterner.id($0).raw } ?? animations.nextAnonymousKey() }
        var params = timingParameters(stored, fromAction: fromAction)
        params.space = layers.timeSpace[Int(row)]   // -1: media time
        // Set here, not by a cast in `timingParameters`: the cast cost every add.
        if case .group = prepared { params.isGroup = true }
        let e = entry(for: params)
        removeAnimation(row: row, key: keyID, finished: false, replacing: prepared.property)
        let id: Int32
        if case let .group(children) = prepared {
            let top = transactions.count - 1
            id = compiler.installGroup(children, object: stored, row: row, key: keyID, timing: e,
                                       transactionDuration: transactions[top].duration,
                                       transactionTimingFunction: transactions[top].timingFunction,
                                       newEntries: &changes.newEntries)
        } else {
            id = compiler.install(prepared, object: stored, row: row, key: keyID, timing: e)
        }
        if fromAction && id >= 0, let c = inFlight.change, c.row == row, animations.records[Int(id)].property == c.property.raw {
            animations.records[Int(id)].flags |= RecordFlags.startsAtChange
        }
        return true
    }

    /// An animation's timing parameters in the innermost transaction (its duration and
    /// timing function are the defaults).
    func timingParameters(_ a: CAAnimation, fromAction: Bool) -> TimingParameters {
        let top = transactions[transactions.count - 1]
        return compiler.timingParameters(a, fromAction: fromAction, transactionDuration: top.duration,
                                         transactionTimingFunction: top.timingFunction)
    }
}
