extension EngineContext {
    /// The innermost open transaction, opening an implicit one if none is open.
    @inline(__always)
    func ensureTransaction() { transactions.ensureOpen() }

    func begin() { transactions.begin() }

    /// `commit()`: pops the innermost explicit transaction. Without one, false and no effect
    /// (the implicit transaction, if open, stays open; the face reports the call site).
    func commit() -> Bool {
        drainForeignReleases()
        guard let top = transactions.last, !top.implicit else { return false }
        commitTop()
        return true
    }

    /// Pops the top level; at the bottom of the stack this is the real commit.
    func commitTop() {
        // The outermost commit displays marked layers first (their drawing joins it).
        if _slowPath(hasDisplayWork) && transactions.count == 1 { layerSide.unsafelyUnwrapped.outermostCommitWillPop(self) }
        guard transactions.pop() != nil else { return }
        if transactions.isEmpty {
            commitToRenderTree()
            reportedFullThisTransaction = false
        }
        fireCompletionGroups()
    }

    /// `flush()`: commits the implicit transaction when it is the only one open.
    func flush() {
        if transactions.count == 1 && transactions[0].implicit { commitTop() }
    }

    /// The outermost commit: animations get their begin time, changed properties without
    /// animation show their model value, changed objects become what the layers show, new
    /// layers become presentable (`ChangeLog.commitToStores`, `LayerSide.commitObjects`).
    private func commitToRenderTree() {
        freezeLiveCopies()
        var effects = RemovalEffects()
        changes.commitToStores(now: now, layers: layers, animations: animations, timings: timings, effects: &effects)
        if !effects.other.isEmpty { apply(&effects.other) }
        if !changes.objects.isEmpty {
            layerSide?.commitObjects(changes.objects, in: self)
            changes.objects.removeAll(keepingCapacity: true)
        }
    }

    /// Runs completion blocks whose groups are done (they may open transactions themselves).
    func fireCompletionGroups() {
        guard let first = transactions.nextReadyGroup() else { return }
        outsideChangeInFlight {
            first.block()
            while let g = transactions.nextReadyGroup() { g.block() }
        }
    }

    /// An entry stopped counting for completion: it completed or lost its last animation.
    func entryDone(_ e: Int32) {
        if let g = timings.takeGroups(e) { transactions.entryDone(g) }
    }
}
