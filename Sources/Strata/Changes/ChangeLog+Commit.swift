import Foundation

/// The outermost commit's work on the stores, read from the log in bulk. Changed object
/// properties and custom keys (`objects`) are the layer objects' to commit
/// (`LayerSide.commitObjects`).
extension ChangeLog {
    /// New timing entries get their begin time (in the order their animations were added;
    /// an entry whose animations are all gone is done), changed properties with no
    /// animation show their model value, new layers join the render tree.
    mutating func commitToStores(now: Double, layers: LayerStore, animations: AnimationStore, timings: TimingStore,
                                 effects: inout RemovalEffects) {
        // Entries of many layers under one timed ancestor convert `now` through shared
        // ancestors: converted once each (the tree does not change during this loop).
        var localTimes = LocalTimeCache(media: now)
        for e in newEntries {
            let i = Int(e)
            guard timings.alive[i] else { continue }
            let space = timings.params[i].space
            timings.commit(e, now: space >= 0 ? layers.localTime(space, cache: &localTimes) : now)
            if timings.refCount[i] == 0 {
                if let g = timings.takeGroups(e) { effects.other.append(.entryDone(g)) }
                timings.release(e)
            }
        }
        newEntries.removeAll(keepingCapacity: true)
        for k in 0..<properties.count {
            let (row, p) = (properties[k].row, properties[k].property)
            if layers.flags[Int(row)] & LayerFlags.alive != 0 && !animations.hasAnimation(row: row, property: p) { layers.snapPresentation(row, p) }
        }
        properties.removeAll()
        if !newLayers.isEmpty {
            // New layers join the render tree (a snapshot leaves uncommitted ones out).
            for row in newLayers where layers.flags[Int(row)] & LayerFlags.alive != 0 {
                layers.flags[Int(row)] |= LayerFlags.committed
                layers.noteTreeEdit(row)
            }
            newLayers.removeAll(keepingCapacity: true)
        }
    }
}
