extension EngineContext {
    /// The innermost open transaction, opening an implicit one if none is open.
    @inline(__always)
    func ensureTransaction() { transactions.ensureOpen() }

    func begin() { transactions.begin() }

    /// `commit()`: pops the innermost explicit transaction. Without one, a diagnostic and no
    /// effect (the implicit transaction, if open, stays open).
    func commit(file: StaticString, line: UInt) {
        drainForeignReleases()
        guard let top = transactions.last, !top.implicit else {
            StrataDiagnostics.emit(.unbalancedCommit,
                "CATransaction.commit() without a matching begin() at \(file):\(line); ignored",
                file: file, line: line)
            return
        }
        commitTop()
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
    /// animation show their model value, new layers become presentable.
    private func commitToRenderTree() {
        freezeLiveCopies()
        // Entries of many layers under one timed ancestor convert `now` through shared
        // ancestors: converted once each (the tree does not change during this loop).
        var localTimes = LocalTimeCache(media: now)
        for e in changes.newEntries {
            let i = Int(e)
            guard timings.alive[i] else { continue }
            let space = timings.params[i].space
            timings.commit(e, now: space >= 0 ? layers.localTime(space, cache: &localTimes) : now)
            if timings.refCount[i] == 0 { entryDone(e); timings.release(e) }
        }
        changes.newEntries.removeAll(keepingCapacity: true)
        for k in 0..<changes.properties.count {
            let (row, p) = (changes.properties[k].row, changes.properties[k].property)
            if layers.flags[Int(row)] & LayerFlags.alive != 0 && !animations.hasAnimation(row: row, property: p) { layers.snapPresentation(row, p) }
        }
        changes.properties.removeAll()
        for (row, key) in changes.objects where layers.flags[Int(row)] & LayerFlags.alive != 0 {
            guard let layer = layers.handle[Int(row)]?.takeUnretainedValue() else { continue }
            let id = PropertyID(key)
            // An animation drives it: what it showed stays until a frame evaluates it.
            if id.isBuiltIn, animations.hasAnimation(row: row, property: id), case .none = layer.animatedObjects[key] {
                layer.animatedObjects[key] = .some(layer.committedObjects[key])
            } else if !id.isBuiltIn, layer.animatedCustom[key] == nil, animations.hasCustomAnimation(row: row, key: key, except: -1) {
                layers.noteChanged(row)
                continue
            }
            let value: Any? = id.isBuiltIn ? layer.readObject(id) : layer.customModel(key)
            if let value { layer.committedObjects[key] = value } else { layer.committedObjects[key] = nil }
            layers.noteChanged(row)
        }
        changes.objects.removeAll(keepingCapacity: true)
        if !changes.newLayers.isEmpty {
            for row in changes.newLayers where layers.flags[Int(row)] & LayerFlags.alive != 0 {
                layers.flags[Int(row)] |= LayerFlags.committed
            }
            changes.newLayers.removeAll(keepingCapacity: true)
            // New layers join the render tree (a snapshot leaves uncommitted ones out).
            layers.treeVersion &+= 1
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

    /// The shared timing entry of the innermost level's built-in implicit animations.
    @inline(__always)
    func implicitEntry() -> Int32 {
        let top = transactions.count - 1
        let e = transactions[top].implicitEntry
        if e >= 0 { return e }
        return makeImplicitEntry(top)
    }

    @inline(never)
    private func makeImplicitEntry(_ top: Int) -> Int32 {
        var p = TimingParameters()
        p.duration = transactions[top].duration
        p.curve = timings.curveID(transactions[top].timingFunction ?? CAMediaTimingFunction.defaultCurve)
        let e = timings.make(p, groups: transactions.openGroups())
        changes.newEntries.append(e)
        transactions[top].implicitEntry = e
        return e
    }

    /// A timing entry for explicit parameters at the innermost level (shared when equal).
    func entry(for p: TimingParameters) -> Int32 {
        let top = transactions.count - 1
        for (q, e) in transactions[top].entryCache where q == p && timings.alive[Int(e)] { return e }
        let e = timings.make(p, groups: transactions.openGroups())
        changes.newEntries.append(e)
        if transactions[top].entryCache.count < 16 { transactions[top].entryCache.append((p, e)) }
        return e
    }

    /// An entry stopped counting for completion: it completed or lost its last animation.
    func entryDone(_ e: Int32) {
        let i = Int(e)
        let g = timings.groups[i]
        guard !g.isEmpty else { return }
        timings.groups[i] = []
        transactions.entryDone(g)
    }
}
