import Foundation
import Synchronization

extension SnapshotBuilder {
    // MARK: update

    /// Recomputes the items whose layers changed since the last snapshot. False when a
    /// change needs a full pass (the caller then does one).
    func update() -> Bool {
        let layers = self.layers
        let out = output
        let n = out.count
        if lastLeaves >= SnapshotBuilder.leafSplitThreshold && frames.renderThreads > 1 {
            // The last update split its leaves: wake the worker now, so its wake-up overlaps
            // the marking rather than the leaves.
            frames.renderWorker?.prepare()
        }
        let slots = out.slotCount
        let words = (slots + 63) >> 6
        marks.reserve(words, keeping: 0)
        let bits = marks.base
        bits.initialize(repeating: 0, count: words)
        let inputs = SnapshotInputs(layers)
        let columns = ItemColumns(out)
        var needFull = false
        for row in layers.changedRows { mark(row, bits, inputs, columns, slots, &needFull) }
        let anim = self.animations
        for t in 0..<anim.tracks.count {
            let track = anim.tracks[t]
            let rows = track.layer.base
            for s in 0..<track.count { mark(rows[s], bits, inputs, columns, slots, &needFull) }
        }
        for t in 0..<anim.keyframeTracks.count {
            let track = anim.keyframeTracks[t]
            for s in 0..<track.count { mark(track.layer[s], bits, inputs, columns, slots, &needFull) }
        }
        for id in anim.derivedRecords where id >= 0 { mark(anim.records[Int(id)].layer, bits, inputs, columns, slots, &needFull) }
        for id in anim.objectRecords { mark(anim.records[Int(id)].layer, bits, inputs, columns, slots, &needFull) }
        if needFull { return false }
        // Nearly every item changed: a full pass (the walk included) costs about as much.
        var marked = 0
        for w in 0..<words { marked &+= bits[w].nonzeroBitCount }
        if marked > n - n / 8 { return false }
        // Before any value is replaced: does every changed item still sit where the walk put
        // it (the order's z is overwritten when an item is recomputed)?
        for w in 0..<words {
            var word = bits[w]
            while word != 0 {
                let i = w << 6 | word.trailingZeroBitCount
                word &= word - 1
                if !sameOrder(i, inputs, columns) { return false }
            }
        }
        // Marked items with sublayers first, in draw order: each with its subtree's geometry
        // (skipping marks inside a subtree already done). Then every marked leaf in one pass
        // (their parents' new values are in place by then).
        var done = 0, recomputed = 0, leaves = 0
        let sizes = out._subtreeSizes.base
        if leafScratch.capacity < n { leafScratch.reserve(n, keeping: 0) }
        let leafList = leafScratch.base
        let inOrder = slotsInOrder
        let order = out._drawOrder.base
        // The marks by draw position: the slots themselves; or, after a splice, the leaves
        // listed at once (they need no position: each reads only its parent) and the marked
        // items with sublayers by their positions.
        var positionBits = bits, positionWords = words, subtreeMarks = false
        if !inOrder {
            positionWords = (n + 63) >> 6
            positionMarks.reserve(positionWords, keeping: 0)
            positionBits = positionMarks.base
            subtreeMarks = listSplicedMarks(bits, words, positionBits, positionWords, sizes, leafList, &leaves)
        }
        // (A splice leaves the order only when no layer was culled by its geometry.)
        let anyGeometryCulled = !geometryCulledParents.isEmpty
        for w in 0..<positionWords {
            var word = positionBits[w]
            while word != 0 {
                let p = w << 6 | word.trailingZeroBitCount
                word &= word - 1
                let i = inOrder ? p : Int(order[p])
                let end = p + Int(sizes[i])
                if end == p + 1 {
                    // A leaf of the items may hold sublayers its last pass culled by their
                    // geometry (back-facing, not finite): whether they show now depends on
                    // its new values, which the walk decides.
                    if _slowPath(anyGeometryCulled) && holdsCulledLayer(p..<end) { return false }
                    leafList[leaves] = i
                    leaves += 1
                    if p >= done { recomputed += 1 }
                    continue
                }
                if computeItems(i..<(i + 1), inputs, columns) > 0 { return false }
                if p >= done {
                    if inOrder {
                        if geometryOnly((p + 1)..<end, inputs, columns) > 0 { return false }
                    } else {
                        // The subtree's slots in draw order (parents before their sublayers).
                        if subtreeScratch.capacity < end - p { subtreeScratch.reserve(end - p, keeping: 0) }
                        let list = subtreeScratch.base
                        for k in (p + 1)..<end { list[k - p - 1] = Int(order[k]) }
                        if geometryOnly(UnsafeBufferPointer(start: list, count: end - p - 1), inputs, columns) > 0 { return false }
                    }
                    if anyGeometryCulled && holdsCulledLayer(p..<end) { return false }
                    recomputed += end - p
                    done = end
                }
            }
        }
        if !inOrder { recomputed += countListedLeaves(leafList, leaves, bits, subtreeMarks) }
        lastLeaves = leaves
        if leaves >= SnapshotBuilder.leafSplitThreshold && frames.renderThreads > 1 {
            // Two cores: the worker computes the upper half of the leaves (each leaf writes
            // only its own item and row entries, and reads parents already computed).
            let mid = leaves / 2
            let worker = frames.worker
            chunkInputs = inputs
            chunkColumns = columns
            leafSplitStart = mid
            leafSplit = leaves - mid
            culledByWorker = 0
            worker.start(task: self)
            var culled = computeItems(UnsafeBufferPointer(start: leafList, count: mid), inputs, columns)
            worker.wait()
            leafSplit = 0
            culled &+= culledByWorker
            if culled > 0 { return false }
        } else if leaves > 0 && computeItems(UnsafeBufferPointer(start: leafList, count: leaves), inputs, columns) > 0 {
            return false
        }
        if out.shapeCount > 0 {
            for k in 0..<leaves where columns.shapeIndices[leafList[k]] >= 0 {
                let s = Int(columns.shapeIndices[leafList[k]])
                gatherShapes(s..<(s + 1), inputs)
            }
            for w in 0..<words {
                var word = bits[w]
                while word != 0 {
                    let i = w << 6 | word.trailingZeroBitCount
                    word &= word - 1
                    let s = Int(columns.shapeIndices[i])
                    if sizes[i] != 1 && s >= 0 { gatherShapes(s..<(s + 1), inputs) }
                }
            }
        }
        out.wasFullPass = false
        out.recomputedItems = recomputed
        return true
    }

    /// After a splice: the marked leaves listed at once (they need no position: each reads
    /// only its parent), the marked items with sublayers set in `positionBits` by their draw
    /// positions. Whether there are any of those.
    @inline(never)
    private func listSplicedMarks(_ bits: UnsafeMutablePointer<UInt64>, _ words: Int, _ positionBits: UnsafeMutablePointer<UInt64>,
                                  _ positionWords: Int, _ sizes: UnsafeMutablePointer<Int32>, _ leafList: UnsafeMutablePointer<Int>,
                                  _ leaves: inout Int) -> Bool {
        positionBits.initialize(repeating: 0, count: positionWords)
        var subtreeMarks = false
        for w in 0..<words {
            var word = bits[w]
            while word != 0 {
                let i = w << 6 | word.trailingZeroBitCount
                word &= word - 1
                if sizes[i] == 1 {
                    leafList[leaves] = i
                    leaves += 1
                } else {
                    let p = positions.of(i)
                    positionBits[p >> 6] |= 1 << UInt64(p & 63)
                    subtreeMarks = true
                }
            }
        }
        return subtreeMarks
    }

    /// The leaves `listSplicedMarks` listed that count as recomputed: those no marked
    /// ancestor's subtree counted.
    @inline(never)
    private func countListedLeaves(_ leafList: UnsafeMutablePointer<Int>, _ leaves: Int, _ bits: UnsafeMutablePointer<UInt64>,
                                   _ subtreeMarks: Bool) -> Int {
        guard subtreeMarks else { return leaves }
        let parents = output._parents.base
        var counted = 0
        for k in 0..<leaves {
            var a = Int(parents[leafList[k]]), inside = false
            while a >= 0 && !inside {
                inside = bits[a >> 6] & (1 << UInt64(a & 63)) != 0
                a = Int(parents[a])
            }
            if !inside { counted += 1 }
        }
        return counted
    }

    /// A changed row: its item marked for the update; a culled row that may show now needs
    /// a full pass.
    @inline(__always)
    private func mark(_ row: Int32, _ bits: UnsafeMutablePointer<UInt64>, _ inputs: SnapshotInputs, _ c: ItemColumns,
                      _ count: Int, _ needFull: inout Bool) {
        let it = item(ofRow: row, c.rows, count)
        if it >= 0 {
            bits[Int(it) >> 6] |= 1 << UInt64(Int(it) & 63)
        } else if it == SnapshotBuilder.culled && !needFull && !stillCulled(Int(row), inputs) {
            needFull = true
        }
    }

    /// The item (slot) of `row` in the current order, or `notInTree` / `culled`. The map is
    /// not cleared between orders: an entry counts only where its slot holds that row.
    @inline(__always)
    func item(ofRow row: Int32, _ rows: ColumnSpan<Int32>, _ count: Int) -> Int32 {
        guard Int(row) < itemOfRowCount else { return SnapshotBuilder.notInTree }
        let it = itemOfRow.base[Int(row)]
        if it >= 0 { return Int(it) < count && rows[Int(it)] == row ? it : SnapshotBuilder.notInTree }
        return it
    }

    /// Is a layer the geometry culled a child of an item in `items` (slots in draw order:
    /// geometry culls leave the slots as drawn)?
    private func holdsCulledLayer(_ items: Range<Int>) -> Bool {
        // First parent at or after the range's start (the list is ascending).
        var lo = 0, hi = geometryCulledParents.count
        while lo < hi {
            let m = (lo + hi) / 2
            if Int(geometryCulledParents[m]) < items.lowerBound { lo = m + 1 } else { hi = m }
        }
        return lo < geometryCulledParents.count && Int(geometryCulledParents[lo]) < items.upperBound
    }

    /// Is a row's layer culled by what the order pass looks at (uncommitted, hidden,
    /// transparent)? An update asks it of culled rows, a splice of each layer it walks in.
    @inline(__always)
    func stillCulled(_ r: Int, _ inputs: SnapshotInputs) -> Bool {
        let opacity = inputs.opacity.map { $0[r] } ?? 1
        let hidden = hinted(inputs.hidden, inputs.hints[r], SnapshotHint.clipping).map { $0[r] >= 0.5 } ?? false
        return inputs.flags[r] & LayerFlags.committed == 0 || hidden || !(opacity > SnapshotBuilder.invisible)
    }

    /// Does item i still sit where the order pass put it (shown, same zPosition)?
    /// (Inlined: `update` grew with the spliced order's paths, and a call of each cost
    /// snapshot/update/balanced/10/1000 4.5 instructions a layer, +12%.)
    @inline(__always)
    private func sameOrder(_ i: Int, _ inputs: SnapshotInputs, _ c: ItemColumns) -> Bool {
        let r = Int(c.rows[i])
        if stillCulled(r, inputs) { return false }
        return (hinted(inputs.zPosition, inputs.hints[r], SnapshotHint.zPosition).map { $0[r] } ?? 0) == orderZ.base[i]
    }
}
