import Foundation
import Synchronization

extension SnapshotBuilder {
    // MARK: full pass

    func fullPass(_ rootRow: Int32) {
        let layers = self.layers
        root = rootRow
        treeVersion = layers.treeVersion
        layerCapacity = layers.capacity
        let inputs = SnapshotInputs(layers)
        prepareOrder()
        // Large trees (by the last pass's count): the walk and the item values overlap. The
        // render worker computes chunks of items as the walk publishes them; this thread
        // joins once the walk is done. The columns are reserved for every layer up front.
        let pipelined = frames.renderThreads > 1 && expectedItems >= SnapshotBuilder.splitThreshold
        var culled = 0
        if pipelined {
            let capacity = max(layers.liveCount, 1)
            output.reserveItems(capacity, keeping: 0)
            orderZ.reserve(capacity, keeping: 0)
            beginChunks(capacity: capacity, inputs)
            let worker = frames.worker
            worker.start(task: self)
            buildOrder(rootRow, inputs, publish: true)
            orderedItems.store(output.count, ordering: .releasing)
            culled = runChunks()
            worker.wait()
            culled &+= culledByWorker
        } else {
            buildOrder(rootRow, inputs, publish: false)
            culled = computeItems(0..<output.count, inputs, ItemColumns(output))
        }
        let n = output.count
        expectedItems = n
        output.wasFullPass = true
        output.recomputedItems = n
        output.fullPassBytes = inputs.fullPassBytes(items: n, shapes: output.shapeCount, hinted: hintedItems.base)
        gatherShapes(0..<output.shapeCount, inputs)
        output.nonFiniteLayers = 0
        if culled > 0 && !isDelayedSource { removeCulledItems() }
        output.orderSlotsAsDrawn()
        slotsAsDrawn()
    }

    /// Painter's order: a depth-first walk from the root along the tree's links, each layer
    /// before its sublayers, sublayers in order or, under a layer whose sublayers have
    /// zPositions of their own (`LayerFlags.childHasZ`), by ascending zPosition (stable);
    /// hidden, transparent and uncommitted layers are culled with their subtrees. Writes
    /// rows, parents, subtree sizes, shape indices, the order's z and the row -> item map.
    /// The walk follows first-child and next-sibling links (each load issued while the
    /// layer's own values are read), so no list of siblings is chased ahead of the visits.
    private func prepareOrder() {
        let layers = self.layers
        // Forget the last order's culled rows. (Its items' map entries stay: an entry counts
        // only where the item it names holds that row, see `item(ofRow:)`.)
        let oldMap = itemOfRow.base
        for r in culledRows where Int(r) < itemOfRowCount { oldMap[Int(r)] = SnapshotBuilder.notInTree }
        culledRows.removeAll(keepingCapacity: true)
        geometryCulledParents.removeAll(keepingCapacity: true)
        if itemOfRowCount < layers.capacity {
            itemOfRow.reserve(layers.capacity, keeping: itemOfRowCount)
            (itemOfRow.base + itemOfRowCount).initialize(repeating: SnapshotBuilder.notInTree, count: layers.capacity - itemOfRowCount)
            itemOfRowCount = layers.capacity
            sortedStamp.reserve(layers.capacity, keeping: 0)
            sortedStamp.base.initialize(repeating: 0, count: sortedStamp.capacity)
            orderNext.reserve(layers.capacity, keeping: 0)
        }
        pass &+= 1
        if pass == 0 { sortedStamp.base.initialize(repeating: 0, count: sortedStamp.capacity); pass = 1 }
        for b in 0..<8 { hintedItems[b] = 0 }
        output.count = 0
    }

    /// `publish`: items are handed to the chunk threads as the walk makes them (the
    /// columns are reserved for every layer, so they do not move meanwhile).
    private func buildOrder(_ rootRow: Int32, _ inputs: SnapshotInputs, publish: Bool) {
        let layers = self.layers
        let out = output
        var n = 0, shapes = 0
        guard rootRow >= 0 else { out.shapeCount = 0; return }
        let flags = inputs.flags, firstChild = layers.firstChild.base, nextSibling = layers.nextSibling.base
        let parentRow = layers.parent.base, hints = inputs.hints, map = itemOfRow.base
        let stamp = sortedStamp.base, orderNextP = orderNext.base, thisPass = pass
        let opacityCol = inputs.opacity, hiddenCol = inputs.hidden, zCol = inputs.zPosition
        let root = Int(rootRow)
        var capacity = out._layerIndices.capacity
        var rowsP = out._layerIndices.base, parentsP = out._parents.base, sizesP = out._subtreeSizes.base
        var shapeP = out._shapeIndices.base
        // Items of the layers above the walk (the path from the root), for going back up.
        var depth = 0, pathP = path.base, pathCapacity = path.capacity
        var r = root, parentItem: Int32 = -1
        // Whether r's siblings follow `orderNext` (their parent sorted them).
        var sortedGroup = false
        while true {
            // Visit r.
            let f = flags[r], h = hints[r]
            let down = firstChild[r], across = sortedGroup ? orderNextP[r] : nextSibling[r]
            var opacity = 1.0
            if let q = opacityCol { opacity = q[r] }
            let hidden = h & SnapshotHint.clipping != 0 && (hiddenCol.map { $0[r] >= 0.5 } ?? false)
            var item = -1
            // `!(opacity > invisible)` also culls NaN.
            if (f & LayerFlags.committed == 0 || hidden || !(opacity > SnapshotBuilder.invisible))
                && !(isDelayedSource && r == root) {
                map[r] = SnapshotBuilder.culled
                culledRows.append(Int32(r))
            } else {
                if n == capacity {
                    out.reserveItems(2 * n, keeping: n)
                    orderZ.reserve(2 * n, keeping: n)
                    capacity = out._layerIndices.capacity
                    rowsP = out._layerIndices.base; parentsP = out._parents.base; sizesP = out._subtreeSizes.base
                    shapeP = out._shapeIndices.base
                }
                item = n
                n += 1
                rowsP[item] = Int32(r)
                parentsP[item] = parentItem
                if publish && n & (SnapshotBuilder.chunk - 1) == 0 { itemsOrdered.store(n, ordering: .releasing) }
                // (The row -> item map, the order's z and the other shape indices are the
                // item pass's: this walk is the pass's one serial part.)
                if h != 0 { for b in 0..<8 where h & (1 << UInt8(b)) != 0 { hintedItems[b] += 1 } }
                if f & LayerFlags.isShape != 0 {
                    if shapes == out._shapeItems.capacity { out.reserveShapes(2 * shapes, keeping: shapes) }
                    out._shapeItems[shapes] = Int32(item)
                    shapeP[item] = Int32(shapes)
                    shapes += 1
                }
                // Down to the first sublayer.
                if down >= 0 {
                    var first = Int(down)
                    sortedGroup = false
                    if f & LayerFlags.childHasZ != 0, let zc = zCol, let sortedFirst = sortSublayers(first, zc, hints, nextSibling) {
                        stamp[r] = thisPass
                        sortedGroup = true
                        first = sortedFirst
                    }
                    if depth == pathCapacity {
                        path.reserve(2 * depth, keeping: depth)
                        pathP = path.base; pathCapacity = path.capacity
                    }
                    pathP[depth] = parentItem
                    depth += 1
                    parentItem = Int32(item)
                    r = first
                    continue
                }
            }
            // Leave r, and its ancestors until one has a next sibling.
            var cur = r, curItem = item, next = r == root ? -1 : Int(across)
            while true {
                if curItem >= 0 { sizesP[curItem] = Int32(n - curItem) }
                if next >= 0 || cur == root { break }
                // Up: the parent (an item) is left next; its siblings' parent is its parent.
                cur = Int(parentRow[cur])
                curItem = Int(parentItem)
                depth -= 1
                parentItem = pathP[depth]
                if cur == root { next = -1; continue }
                let grand = Int(parentRow[cur])
                sortedGroup = stamp[grand] == thisPass
                next = Int(sortedGroup ? orderNextP[cur] : nextSibling[cur])
            }
            if next < 0 { break }
            r = next
        }
        out.count = n
        out.shapeCount = shapes
        if shapes > 0 { out.reserveShapes(shapes, keeping: shapes) }
    }

    /// Sorts the sublayers starting at `first` by zPosition, stable, into `orderNext` links;
    /// returns the first in draw order, or nil when their zPositions are all equal (the
    /// sublayer order stands). Layers without the zPosition hint are at 0.
    private func sortSublayers(_ first: Int, _ z: ColumnSpan<Double>, _ hints: ColumnSpan<UInt8>,
                               _ nextSibling: UnsafeMutablePointer<Int32>) -> Int? {
        siblings.removeAll(keepingCapacity: true)
        var k: Int32 = 0
        var s = first
        var distinct = false
        while s >= 0 {
            let v = hints[s] & SnapshotHint.zPosition != 0 ? z[s] : 0
            if let z0 = siblings.first?.z, z0 != v { distinct = true }
            siblings.append((v, k, Int32(s)))
            k += 1
            s = Int(nextSibling[s])
        }
        guard distinct else { return nil }
        siblings.sort { $0.z != $1.z ? $0.z < $1.z : $0.order < $1.order }
        let links = orderNext.base
        for j in 0..<siblings.count {
            links[Int(siblings[j].row)] = j + 1 < siblings.count ? siblings[j + 1].row : -1
        }
        return Int(siblings[0].row)
    }

    /// Removes the items the geometry culled, with their subtrees, and renumbers the rest.
    @inline(never)
    func removeCulledItems() {
        let out = output
        let n = out.count
        var newIndex = [Int32](repeating: -1, count: n)
        var keep = 0, shapes = 0, nonFinite = 0
        var i = 0
        while i < n {
            if out._flags[i].rawValue & SnapshotBuilder.cullBit != 0 {
                let r = Int(out._layerIndices[i])
                let m = out._transforms[i]
                let s = m.row1 + m.row2 + m.row3 + m.row4 + out._bounds[i]
                if !(s.x + s.y + s.z + s.w).isFinite { nonFinite += 1 }
                itemOfRow[r] = SnapshotBuilder.culled
                culledRows.append(Int32(r))
                let p = Int(out._parents[i])
                if p >= 0 { geometryCulledParents.append(newIndex[p]) }
                // The subtree goes too (flattened into the culled layer's plane).
                let end = i + Int(out._subtreeSizes[i])
                for j in (i + 1)..<max(end, i + 1) { itemOfRow[Int(out._layerIndices[j])] = SnapshotBuilder.notInTree }
                i = end
                continue
            }
            newIndex[i] = Int32(keep)
            i += 1
            keep += 1
        }
        for i in 0..<n where newIndex[i] >= 0 {
            let j = Int(newIndex[i])
            let p = Int(out._parents[i]), c = Int(out._clips[i])
            out._layerIndices[j] = out._layerIndices[i]
            out._parents[j] = p >= 0 ? newIndex[p] : -1
            out._clips[j] = c >= 0 ? newIndex[c] : -1
            out._transforms[j] = out._transforms[i]; out._opacities[j] = out._opacities[i]
            out._bounds[j] = out._bounds[i]; out._cornerRadii[j] = out._cornerRadii[i]
            out._backgroundColors[j] = out._backgroundColors[i]; out._borderColors[j] = out._borderColors[i]
            out._borderWidths[j] = out._borderWidths[i]; out._shadowColors[j] = out._shadowColors[i]
            out._shadows[j] = out._shadows[i]; out._flags[j] = out._flags[i]
            orderZ[j] = orderZ[i]
            let s = Int(out._shapeIndices[i])
            if s >= 0 {
                out._shapeItems[shapes] = Int32(j)
                out._fillColors[shapes] = out._fillColors[s]; out._strokeColors[shapes] = out._strokeColors[s]
                out._strokes[shapes] = out._strokes[s]; out._lineDashPhases[shapes] = out._lineDashPhases[s]
                out._paths[shapes] = out._paths[s]
                out._shapeIndices[j] = Int32(shapes)
                shapes += 1
            } else {
                out._shapeIndices[j] = -1
            }
            itemOfRow[Int(out._layerIndices[j])] = Int32(j)
        }
        out.count = keep
        out.shapeCount = shapes
        geometryCulledParents.sort()
        for s in shapes..<out._paths.count where out._paths[s] != nil { out._paths[s] = nil }
        // Subtree sizes again, over the kept items (and the order: slots as drawn).
        out.recomputeSubtreeSizes()
        out.nonFiniteLayers = nonFinite
        if nonFinite > 0 {
            StrataDiagnostics.emit(.nonFiniteValue,
                "render snapshot: \(nonFinite) layer(s) have non-finite world geometry (NaN, or beyond single precision); left out of the frame with their sublayers")
        }
    }
}
