import Foundation

/// What a splice works with, kept between snapshots (no allocation once grown).
final class SpliceScratch {
    /// Per layer row: the splice number that found it edited (`edited`), and its subtree
    /// root's index in `roots` when it is one (`rootIndex`); the splice number that found it
    /// given to a new layer (`reused`: its old item was another layer's).
    @exclusivity(unchecked) var edited = SnapshotBuffer<UInt32>()
    @exclusivity(unchecked) var reused = SnapshotBuffer<UInt32>()
    @exclusivity(unchecked) var rootIndex = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) var rows = 0
    @exclusivity(unchecked) var number: UInt32 = 0
    /// The edited rows, each once.
    @exclusivity(unchecked) var editedRows: [Int32] = []
    /// Draw-position ranges of the old order taken out (the outermost only, ascending), and
    /// the slots each such range's root had.
    @exclusivity(unchecked) var cuts: [(start: Int32, end: Int32, slot: Int32)] = []
    /// Subtrees put in: outermost edited layers shown under an item that stayed.
    @exclusivity(unchecked) var roots: [SpliceRoot] = []
    /// Insertion order of `roots` (by old draw position, deeper first).
    @exclusivity(unchecked) var rootOrder: [Int32] = []
    /// The slots of every inserted subtree, each subtree's in draw order (`SpliceRoot.first`),
    /// and whether each is the slot its layer had (a moved item: its style stays).
    @exclusivity(unchecked) var inserted = SnapshotBuffer<Int>()
    @exclusivity(unchecked) var kept = SnapshotBuffer<Bool>()
    /// Per slot: the splice number that took it out of the order (its item may come back in).
    @exclusivity(unchecked) var cutStamp = SnapshotBuffer<UInt32>()
    /// Per slot taken out: the layer row its item had.
    @exclusivity(unchecked) var cutRow = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) var cutStampSlots = 0
    @exclusivity(unchecked) var order = SnapshotBuffer<Int32>()
}

/// One subtree a splice puts into the order.
struct SpliceRoot {
    /// Its layer row, and the slot of the item it goes under.
    var row: Int32
    var parentSlot: Int32
    /// Its depth below the root layer (ties at one position: the deeper goes first).
    var depth: Int32
    /// The old draw position it goes before (`Int32.max`: after another root, `after`).
    var boundary: Int32
    /// The root it follows directly (its previous sibling, also put in), or -1.
    var after: Int32
    /// The root that follows it directly, or -1.
    var follower: Int32
    /// Its items in `SpliceScratch.inserted`.
    var first: Int32
    var count: Int32
}

extension SnapshotBuilder {
    // MARK: splicing tree edits

    /// Takes the subtrees the tree edits (`LayerStore.treeEdits`) moved, removed or added out
    /// of the order and puts them in where they are now, in place of a full pass: the items
    /// that stay keep their slots and values; each inserted subtree's layers are walked and
    /// computed as a full pass would. False (the caller then does a full pass) when the edits
    /// touch what a splice does not follow: the root itself, sublayers ordered by zPosition,
    /// shape layers, replicators, layers culled by their geometry, a dropped edit log, or more
    /// free slots than a quarter of the items.
    ///
    /// - Complexity: O(edits × depth + siblings skipped + inserted and removed items + n)
    ///   with n the items: the O(n) part is copying the order (4 bytes an item) and the
    ///   positions of the slots, not the items' 184 bytes.
    func splice() -> Bool {
        let layers = self.layers, out = output
        let edits = layers.treeEdits
        guard !edits.isEmpty, root >= 0, !isDelayedSource, layers.replicators == 0, geometryCulledParents.isEmpty,
              layers.treeEditsDropped == editsDropped, freeCount <= max(4_096, out.count / 4),
              culledRows.count <= 2 * layers.capacity + 1_024 else { return false }
        let scratch: SpliceScratch
        if let s = spliceScratch { scratch = s } else { scratch = SpliceScratch(); spliceScratch = scratch }
        if scratch.rows < layers.capacity {
            scratch.edited.reserve(layers.capacity, keeping: 0)
            scratch.edited.base.initialize(repeating: 0, count: layers.capacity)
            scratch.reused.reserve(layers.capacity, keeping: 0)
            scratch.reused.base.initialize(repeating: 0, count: layers.capacity)
            scratch.rootIndex.reserve(layers.capacity, keeping: 0)
            scratch.rows = layers.capacity
            scratch.number = 0
        }
        scratch.number &+= 1
        if scratch.number == 0 {
            scratch.edited.base.initialize(repeating: 0, count: scratch.rows)
            scratch.reused.base.initialize(repeating: 0, count: scratch.rows)
            scratch.number = 1
        }
        let number = scratch.number
        for q in 0..<layers.reusedRows.count { scratch.reused[Int(layers.reusedRows[q])] = number }
        let edited = scratch.edited.base, rootIndex = scratch.rootIndex.base
        scratch.editedRows.removeAll(keepingCapacity: true)
        // (Index loops: an array's iterator allocates in unoptimised builds.)
        for q in 0..<edits.count where edited[Int(edits[q])] != number {
            let r = edits[q]
            if r == root { return false }
            edited[Int(r)] = number
            scratch.editedRows.append(r)
        }
        let inputs = SnapshotInputs(layers)
        var columns = ItemColumns(out)
        let slots = out.slotCount
        let inOrder = slotsInOrder
        let parentRow = layers.parent.base, flags = layers.flags.base
        // 1. Each edited layer: the subtree it had in the order goes out; it comes in again
        // where it is now when it is the outermost edited layer there, under an item that stays.
        scratch.cuts.removeAll(keepingCapacity: true)
        scratch.roots.removeAll(keepingCapacity: true)
        for q in 0..<scratch.editedRows.count {
            let r = scratch.editedRows[q]
            let s = item(ofRow: r, columns.rows, slots)
            if s >= 0 {
                let p = inOrder ? s : Int32(truncatingIfNeeded: positions.of(Int(s)))
                scratch.cuts.append((p, p + columns.sizes[Int(s)], s))
            }
            rootIndex[Int(r)] = -1
            var x = parentRow[Int(r)], depth: Int32 = 1
            while x >= 0 && x != root && edited[Int(x)] != number {
                x = parentRow[Int(x)]
                depth += 1
            }
            guard x == root else { continue }       // detached, or inside an edited subtree
            let p = parentRow[Int(r)]
            let parentSlot = item(ofRow: p, columns.rows, slots)
            guard parentSlot >= 0 else { continue }  // under a culled layer
            if flags[Int(p)] & LayerFlags.childHasZ != 0 { return false }
            rootIndex[Int(r)] = Int32(scratch.roots.count)
            scratch.roots.append(SpliceRoot(row: r, parentSlot: parentSlot, depth: depth, boundary: 0, after: -1,
                                            follower: -1, first: 0, count: 0))
        }
        // The outermost ranges only (a range inside another goes with it).
        scratch.cuts.withUnsafeMutableBufferPointer { heapSort($0) { $0.start < $1.start } }
        var kept = 0, reach: Int32 = -1
        for q in 0..<scratch.cuts.count where scratch.cuts[q].start >= reach {
            let c = scratch.cuts[q]
            scratch.cuts[kept] = c
            kept += 1
            reach = c.end
        }
        scratch.cuts.removeLast(scratch.cuts.count - kept)
        // Nothing a splice can't follow goes out: shape items keep rows of their own.
        var order = out._drawOrder.base
        if out.shapeCount > 0 {
            for q in 0..<scratch.cuts.count {
                let c = scratch.cuts[q]
                for k in Int(c.start)..<Int(c.end) where columns.shapeIndices[inOrder ? k : Int(order[k])] >= 0 { return false }
            }
        }
        // 2. Where each subtree goes, in the old order: after the subtree of its nearest
        // previous sibling that stays shown, after a sibling that comes in too, or first
        // under its parent's item.
        let prevSibling = layers.prevSibling.base
        for j in 0..<scratch.roots.count {
            let r = scratch.roots[j]
            var sib = prevSibling[Int(r.row)]
            var boundary: Int32 = -1
            while sib >= 0 {
                if edited[Int(sib)] == number {
                    let k = rootIndex[Int(sib)]
                    if k >= 0 {
                        scratch.roots[j].after = k
                        scratch.roots[Int(k)].follower = Int32(j)
                        boundary = .max
                        break
                    }
                } else {
                    let t = item(ofRow: sib, columns.rows, slots)
                    if t >= 0 {
                        boundary = (inOrder ? t : Int32(truncatingIfNeeded: positions.of(Int(t)))) + columns.sizes[Int(t)]
                        break
                    }
                }
                sib = prevSibling[Int(sib)]
            }
            if boundary < 0 { boundary = (inOrder ? r.parentSlot : Int32(truncatingIfNeeded: positions.of(Int(r.parentSlot)))) + 1 }
            scratch.roots[j].boundary = boundary
        }
        // 3. Out: the slots of the ranges taken out are free (an item that comes back in
        // takes its own again), and their ancestors smaller.
        let rows = columns.rows, parents = columns.parents, sizes = columns.sizes
        let slotCapacity = out._layerIndices.capacity
        if scratch.cutStampSlots < slotCapacity {
            scratch.cutStamp.reserve(slotCapacity, keeping: 0)
            scratch.cutStamp.base.initialize(repeating: 0, count: scratch.cutStamp.capacity)
            scratch.cutRow.reserve(scratch.cutStamp.capacity, keeping: 0)
            scratch.cutStampSlots = scratch.cutStamp.capacity
        }
        let cutStamp = scratch.cutStamp.base, cutRow = scratch.cutRow.base
        var removed = 0
        let freeBefore = freeCount
        var cutItems = 0
        for q in 0..<scratch.cuts.count { cutItems += Int(scratch.cuts[q].end - scratch.cuts[q].start) }
        freeSlots.reserve(freeCount + cutItems, keeping: freeCount)
        let free = freeSlots.base
        for q in 0..<scratch.cuts.count {
            let c = scratch.cuts[q]
            for k in Int(c.start)..<Int(c.end) {
                let s = inOrder ? Int32(truncatingIfNeeded: k) : order[k]
                cutRow[Int(s)] = rows[Int(s)]
                rows[Int(s)] = -1
                cutStamp[Int(s)] = number
                free[freeCount] = s
                freeCount += 1
            }
            let size = c.end - c.start
            removed += Int(size)
            var a = parents[Int(c.slot)]
            while a >= 0 {
                sizes[Int(a)] -= size
                a = parents[Int(a)]
            }
        }
        // 4. In: each subtree's layers walked as the full pass walks them, into free slots.
        var insertedCount = 0
        for j in 0..<scratch.roots.count {
            scratch.roots[j].first = Int32(insertedCount)
            guard let n = walkInserted(scratch.roots[j].row, under: scratch.roots[j].parentSlot, scratch, at: insertedCount,
                                       inputs, &columns) else { return false }
            scratch.roots[j].count = Int32(n)
            insertedCount += n
        }
        // The slots taken out that no item took again are free: no item, no flags.
        var stillFree = min(freeBefore, freeCount)
        for q in stillFree..<freeCount where columns.rows[Int(free[q])] == -1 {
            let slot = free[q]
            columns.flags[Int(slot)] = []
            free[stillFree] = slot
            stillFree += 1
        }
        freeCount = stillFree
        let newCount = out.count - removed + insertedCount
        order = out._drawOrder.base     // (the walks may have grown the columns)
        // 5. The order: the old one's runs between the ranges taken out, and each subtree
        // put in at its position (deeper ones first), followed by the siblings put in after it.
        scratch.rootOrder.removeAll(keepingCapacity: true)
        for j in 0..<scratch.roots.count where scratch.roots[j].after < 0 { scratch.rootOrder.append(Int32(j)) }
        scratch.roots.withUnsafeBufferPointer { roots in
            scratch.rootOrder.withUnsafeMutableBufferPointer {
                heapSort($0) {
                    let a = roots[Int($0)], b = roots[Int($1)]
                    return a.boundary != b.boundary ? a.boundary < b.boundary : (a.depth != b.depth ? a.depth > b.depth : a.row < b.row)
                }
            }
        }
        // 6. With it, the positions: this generation's runs (or, every few splices, every
        // slot's position), and those of the items put in.
        scratch.order.reserve(max(newCount, 1), keeping: 0)
        positions.reserve(out._layerIndices.capacity)
        let writeAll = positions.beginGeneration()
        let newOrder = scratch.order.base, inserted = scratch.inserted.base
        let position = positions.position.base
        let oldCount = out.count
        var w = 0, k = 0, cut = 0, next = 0
        while true {
            let cutAt = cut < scratch.cuts.count ? Int(scratch.cuts[cut].start) : Int.max
            let insertAt = next < scratch.rootOrder.count ? Int(scratch.roots[Int(scratch.rootOrder[next])].boundary) : Int.max
            // The old order's run up to the next range taken out or subtree put in (or its end).
            let runEnd = min(cutAt, insertAt, oldCount)
            if runEnd > k {
                let d = w - k
                if inOrder {
                    for q in k..<runEnd { newOrder[q + d] = Int32(truncatingIfNeeded: q) }
                } else {
                    (newOrder + w).update(from: order + k, count: runEnd - k)
                }
                if writeAll {
                    for q in w..<(w + runEnd - k) { position[Int(newOrder[q])] = Int32(truncatingIfNeeded: q) }
                } else {
                    positions.addRun(start: k, shift: d)
                }
                w += runEnd - k
                k = runEnd
            }
            if cutAt == Int.max && insertAt == Int.max { break }
            if insertAt <= cutAt {
                // A subtree goes in after an item that stays: never inside a range taken out.
                guard insertAt == k else { assertionFailure("splice: an insertion inside a removed range"); return false }
                var j = Int(scratch.rootOrder[next])
                next += 1
                while j >= 0 {
                    let r = scratch.roots[j]
                    for q in 0..<Int(r.count) {
                        let slot = inserted[Int(r.first) + q]
                        newOrder[w + q] = Int32(truncatingIfNeeded: slot)
                        positions.set(slot, w + q)
                    }
                    w += Int(r.count)
                    j = Int(r.follower)
                }
            } else {
                k = Int(scratch.cuts[cut].end)
                cut += 1
            }
        }
        guard w == newCount && k == oldCount else {
            assertionFailure("splice: \(w) items ordered, \(newCount) expected")
            return false
        }
        // The new order becomes the snapshot's; the old one's buffer is the next splice's.
        swap(&out._drawOrder, &scratch.order)
        out.count = newCount
        slotsInOrder = false
        treeVersion = layers.treeVersion
        // 7. The values of the items put in (their parents stayed, and are computed).
        // Items back in their own slots keep their style (a change of it this frame is the
        // update's): their geometry alone, in runs of one kind, in draw order.
        let keptSlot = scratch.kept.base
        for j in 0..<scratch.roots.count where scratch.roots[j].count > 0 {
            let r = scratch.roots[j]
            var a = Int(r.first)
            let end = a + Int(r.count)
            while a < end {
                var b = a + 1
                while b < end && keptSlot[b] == keptSlot[a] { b += 1 }
                let list = UnsafeBufferPointer(start: inserted + a, count: b - a)
                if (keptSlot[a] ? geometryOnly(list, inputs, columns) : computeItems(list, inputs, columns)) > 0 { return false }
                a = b
            }
        }
        out.splicedItems = removed + insertedCount
        return true
    }

    /// Walks the subtree of `row` (under the item in slot `parentSlot`) as the full pass
    /// does, culling hidden, transparent and uncommitted layers: an item for each other
    /// layer, in a free slot, listed in `scratch.inserted` from `at` in draw order. Returns
    /// the items made, or nil for what a splice does not follow (shape layers, sublayers
    /// ordered by zPosition).
    private func walkInserted(_ row: Int32, under parentSlot: Int32, _ scratch: SpliceScratch, at start: Int,
                              _ inputs: SnapshotInputs, _ c: inout ItemColumns) -> Int? {
        let layers = self.layers, out = output
        let flags = inputs.flags
        let firstChild = layers.firstChild.base, nextSibling = layers.nextSibling.base, parentRow = layers.parent.base
        let map = itemOfRow.base, cutStamp = scratch.cutStamp.base, cutRow = scratch.cutRow.base
        let number = scratch.number, stamped = scratch.cutStampSlots, reused = scratch.reused.base
        var listed = scratch.inserted.base, keptSlot = scratch.kept.base
        var room = min(scratch.inserted.capacity, scratch.kept.capacity)
        var n = 0
        var r = Int(row), parentItem = parentSlot
        while true {
            // Visit r.
            let f = flags[r]
            var descend = false
            if stillCulled(r, inputs) {
                map[r] = SnapshotBuilder.culled
                culledRows.append(Int32(r))
            } else {
                if f & LayerFlags.isShape != 0 { return nil }
                if f & LayerFlags.childHasZ != 0 && firstChild[r] >= 0 { return nil }
                // Its own slot when it was taken out in this splice (a move), else a free one.
                let own = Int(map[r])
                let keep = own >= 0 && own < stamped && cutStamp[own] == number
                    && cutRow[own] == Int32(r) && c.rows[own] == -1 && reused[r] != number
                var s = own
                if !keep {
                    let (t, grew) = takeSlot(c.rows)
                    if grew { c = ItemColumns(out) }
                    s = t
                }
                c.rows[s] = Int32(r)
                c.parents[s] = parentItem
                c.sizes[s] = 1
                c.shapeIndices[s] = -1
                map[r] = Int32(s)
                if start + n == room {
                    scratch.inserted.reserve(2 * room, keeping: room)
                    scratch.kept.reserve(2 * room, keeping: room)
                    listed = scratch.inserted.base
                    keptSlot = scratch.kept.base
                    room = min(scratch.inserted.capacity, scratch.kept.capacity)
                }
                listed[start + n] = s
                keptSlot[start + n] = keep
                n += 1
                if firstChild[r] >= 0 {
                    parentItem = Int32(s)
                    r = Int(firstChild[r])
                    descend = true
                }
            }
            if descend { continue }
            // Leave r, and its ancestors until one has a next sibling (not past `row`).
            while r != Int(row) && nextSibling[r] < 0 {
                r = Int(parentRow[r])
                parentItem = c.parents[Int(map[r])]
            }
            if r == Int(row) { break }
            r = Int(nextSibling[r])
        }
        // Subtree sizes from the end of the list (a pre-order), then the ancestors'.
        let list = listed + start
        let parents = c.parents, sizes = c.sizes
        var k = n - 1
        while k > 0 {
            sizes[Int(parents[list[k]])] &+= sizes[list[k]]
            k -= 1
        }
        if n > 0 {
            let size = sizes[list[0]]
            var a = parentSlot
            while a >= 0 {
                sizes[Int(a)] &+= size
                a = parents[Int(a)]
            }
        }
        return n
    }

    /// A free slot, or a new one after the last (the columns grow as a full pass's do).
    private func takeSlot(_ rows: ColumnSpan<Int32>) -> (slot: Int, grew: Bool) {
        // (An entry whose slot its own item took back in this splice is passed over.)
        while freeCount > 0 {
            freeCount -= 1
            let s = Int(freeSlots[freeCount])
            if rows[s] == -1 { return (s, false) }
        }
        let out = output
        let s = out.slotCount
        var grew = false
        if s == out._layerIndices.capacity {
            out.reserveItems(2 * s, keeping: s)
            orderZ.reserve(2 * s, keeping: s)
            grew = true
        }
        if orderZ.capacity <= s { orderZ.reserve(out._layerIndices.capacity, keeping: s) }
        out.slotCount = s + 1
        return (s, grew)
    }
}

/// Sorts `a` in place by `less` (a heap sort: `Array.sort` allocates a buffer past 20 elements,
/// and a splice allocates nothing once its scratch is grown).
/// (Inlined: a call of the generic one swapped its elements through value witnesses.)
@inline(__always)
private func heapSort<T>(_ a: UnsafeMutableBufferPointer<T>, by less: (T, T) -> Bool) {
    let n = a.count
    guard n > 1 else { return }
    func siftDown(_ start: Int, _ end: Int) {
        var root = start
        while 2 * root + 1 < end {
            var child = 2 * root + 1
            if child + 1 < end && less(a[child], a[child + 1]) { child += 1 }
            guard less(a[root], a[child]) else { return }
            let t = a[root]
            a[root] = a[child]
            a[child] = t
            root = child
        }
    }
    var start = n / 2 - 1
    while start >= 0 { siftDown(start, n); start -= 1 }
    var end = n - 1
    while end > 0 {
        let t = a[0]
        a[0] = a[end]
        a[end] = t
        siftDown(0, end)
        end -= 1
    }
}
