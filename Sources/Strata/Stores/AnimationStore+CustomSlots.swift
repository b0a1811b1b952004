import Foundation

/// Custom keys' slots: a basic animation of a custom key is written directly while it is the
/// key's only animation; another joining sends the key's slots back to per-layer composition,
/// and the last one left is written directly again.
extension AnimationStore {
    /// Another animation of custom key `key` joins the layer's: the key's direct custom-track
    /// slots go back to per-layer composition (into the per-frame list). Returns whether the
    /// layer has animations of the key.
    func demoteCustomSlots(row: Int32, key: Int32) -> Bool {
        var any = false
        forEachCustomRecord(row: row, key: key) { id, r in
            any = true
            guard r.track >= 0 else { return }
            let t = customTracks[Int(r.track)]
            if t.flags[Int(r.slot)] & CustomTrack.direct != 0 {
                t.setDirect(Int(r.slot), false)
                appendDerived(id)
            }
        }
        return any
    }

    /// The layer's animations of custom key `key` are down to one: a basic, replacing one
    /// is written directly again (out of the per-frame list).
    func promoteSoleCustomSlot(row: Int32, key: Int32) {
        var sole: Int32 = -1, n = 0
        forEachCustomRecord(row: row, key: key) { id, _ in sole = id; n += 1 }
        guard n == 1 else { return }
        let r = records[Int(sole)]
        guard r.track >= 0, r.flags & RecordFlags.additive == 0 else { return }
        let t = customTracks[Int(r.track)]
        guard t.flags[Int(r.slot)] & CustomTrack.direct == 0 else { return }
        t.setDirect(Int(r.slot), true)
        dropDerived(sole)
    }
}
