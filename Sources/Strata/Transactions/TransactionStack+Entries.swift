import Foundation

/// The timing entries of the innermost level: the shared one of its built-in implicit
/// animations and those of explicit parameters, shared when equal. A new entry counts
/// toward every open level's completion group and joins `newEntries` (the change log's
/// list, which the outermost commit gives begin times).
extension TransactionStack {
    /// Makes the innermost level's shared entry for built-in implicit animations (the
    /// caller found none yet).
    mutating func makeImplicitEntry(timings: TimingStore, newEntries: inout [Int32]) -> Int32 {
        let top = count - 1
        var p = TimingParameters()
        p.duration = self[top].duration
        p.curve = timings.curveID(self[top].timingFunction ?? CAMediaTimingFunction.defaultCurve)
        let e = timings.make(p, groups: openGroups())
        newEntries.append(e)
        self[top].implicitEntry = e
        return e
    }

    /// The entry of a built-in implicit animation of a layer with timing of its own (or
    /// under such a layer): the innermost level's duration and curve in the time of layer
    /// `space`, the layer's time space (`LayerStore.timeSpace`), so the implicit animations
    /// of every layer under one timed layer share an entry.
    /// Found by space (not by `entry(for:)`'s few cached parameters), so a transaction over
    /// the layers of many timed subtrees makes one entry a subtree, not one a layer.
    mutating func implicitEntry(inSpace space: Int32, timings: TimingStore, newEntries: inout [Int32]) -> Int32 {
        let top = count - 1
        if self[top].lastSpace == space && timings.alive[Int(self[top].lastSpaceEntry)] { return self[top].lastSpaceEntry }
        let e: Int32
        if let known = self[top].spaceEntries[space], timings.alive[Int(known)] {
            e = known
        } else {
            var params = TimingParameters()
            params.duration = self[top].duration
            params.curve = timings.curveID(self[top].timingFunction ?? CAMediaTimingFunction.defaultCurve)
            params.space = space
            e = timings.make(params, groups: openGroups())
            newEntries.append(e)
            self[top].spaceEntries[space] = e
        }
        self[top].lastSpace = space
        self[top].lastSpaceEntry = e
        return e
    }

    /// A timing entry for explicit parameters at the innermost level (shared when equal).
    mutating func entry(for p: TimingParameters, timings: TimingStore, newEntries: inout [Int32]) -> Int32 {
        let top = count - 1
        for (q, e) in self[top].entryCache where q == p && timings.alive[Int(e)] { return e }
        let e = timings.make(p, groups: openGroups())
        newEntries.append(e)
        if self[top].entryCache.count < 16 { self[top].entryCache.append((p, e)) }
        return e
    }
}
