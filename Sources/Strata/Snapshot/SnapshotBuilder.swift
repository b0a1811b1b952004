import Foundation
import Synchronization

/// Builds a renderer's `RenderSnapshot` from the layer store's presentation columns.
///
/// A **full pass** walks the tree in painter's order (`buildOrder`: one item per visible
/// layer, culling hidden, transparent and uncommitted subtrees), then computes every item's
/// values (`computeItems`: geometry, then style), on two threads for large trees, then
/// drops items the geometry culled (back faces, non-finite values).
///
/// An **update** keeps last snapshot's items and recomputes only what changed: the layers
/// the animation tracks write this frame, and those whose presentation changed otherwise
/// (`LayerStore.changedRows`: commits, snaps, object values). A changed layer's item is
/// recomputed with the geometry of its whole subtree (contiguous in painter's order). Any
/// change the update cannot absorb (the tree, a layer hidden or shown, a zPosition, a face
/// turned, a dropped log) makes it a full pass.
///
/// - Complexity: full pass O(n) in the tree's visible layers (plus sorting siblings with
///   distinct zPositions); update O(animated + changed + their subtrees + n / 64).
final class SnapshotBuilder {
    unowned let engine: EngineContext
    let output = RenderSnapshot()
    /// This builder's claim on the layer store's change log (unique per builder).
    let token: UInt64

    /// What the items were built from: a different root, tree version or dropped log
    /// means a full pass.
    @exclusivity(unchecked) private var root: Int32 = -1
    @exclusivity(unchecked) private var treeVersion: UInt64 = .max
    @exclusivity(unchecked) private var dropped = -1
    @exclusivity(unchecked) private var layerCapacity = 0

    /// Row -> item (or `notInTree`, `culled`): rows beyond `itemOfRow`'s size are not in the tree.
    @exclusivity(unchecked) private var itemOfRow = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) private var itemOfRowCount = 0
    /// Rows culled by the order pass or the geometry (their `itemOfRow` entry is `culled`).
    @exclusivity(unchecked) private var culledRows: [Int32] = []
    /// Parent items (ascending) of layers the geometry culled (facing away, not finite):
    /// whether such a layer shows depends on its ancestors, so an update that recomputes
    /// one of them becomes a full pass.
    @exclusivity(unchecked) private var geometryCulledParents: [Int32] = []
    /// zPosition each item was ordered by.
    /// Double, as the zPosition the order pass sorted by: a change below Float's
    /// resolution still reorders.
    @exclusivity(unchecked) private var orderZ = SnapshotBuffer<Double>()
    /// Items to recompute in an update: one bit per item.
    @exclusivity(unchecked) private var marks = SnapshotBuffer<UInt64>()
    /// Rows whose sublayers this pass sorted by zPosition carry this pass's number, and
    /// those sublayers' draw-order links (`orderNext`).
    @exclusivity(unchecked) private var sortedStamp = SnapshotBuffer<UInt32>()
    @exclusivity(unchecked) private var orderNext = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) private var pass: UInt32 = 0
    /// An update's marked leaves.
    @exclusivity(unchecked) private var leafScratch = SnapshotBuffer<Int>()
    /// The order walk's path: parent items of the layers above it.
    @exclusivity(unchecked) private var path = SnapshotBuffer<Int32>(capacity: 256)
    @exclusivity(unchecked) private var siblings: [(z: Double, order: Int32, row: Int32)] = []
    /// Items the last `computeItems` call flagged for removal (worker's and caller's).
    @exclusivity(unchecked) private var culledByWorker = 0
    /// The pipelined full pass: items the walk has made so far (published every chunk),
    /// the final count (-1 while walking), the next chunk to take, chunks done (this
    /// pass's number), and what the chunk threads read.
    private let itemsOrdered = Atomic<Int>(0)
    private let orderedItems = Atomic<Int>(-1)
    private let nextChunk = Atomic<Int>(0)
    @exclusivity(unchecked) private var chunkDone: UnsafeMutablePointer<Atomic<UInt32>>?
    @exclusivity(unchecked) private var chunkDoneCapacity = 0
    @exclusivity(unchecked) private var chunkInputs: SnapshotInputs?
    @exclusivity(unchecked) private var chunkColumns: ItemColumns?
    /// Items the last full pass made: whether the next one pipelines.
    @exclusivity(unchecked) private var expectedItems = 0
    /// An update's leaves the worker computes (`leafSplit` count from `leafSplitStart` of
    /// `leafScratch`; 0: the worker takes chunks of a full pass instead), and the leaves the
    /// last update marked (whether the next one wakes the worker ahead).
    @exclusivity(unchecked) private var leafSplitStart = 0
    @exclusivity(unchecked) private var leafSplit = 0
    @exclusivity(unchecked) private var lastLeaves = 0
    /// Items of the last order with each `SnapshotHint` bit (for the pass's byte count).
    @exclusivity(unchecked) private var hintedItems = SnapshotBuffer<Int>(capacity: 8)

    /// `RenderItemFlags` bits as constants (another module's static values are read
    /// through accessor calls; these fold). A test checks they agree.
    enum ItemBit {
        static let masksToBounds: UInt32 = 1 << 0
        static let shape: UInt32 = 1 << 1
        static let background: UInt32 = 1 << 2
        static let border: UInt32 = 1 << 3
        static let shadow: UInt32 = 1 << 4
        static let contents: UInt32 = 1 << 5
        static let mask: UInt32 = 1 << 6
        static let shadowPath: UInt32 = 1 << 7
        static let perspective: UInt32 = 1 << 8
    }

    static let notInTree: Int32 = -1
    static let culled: Int32 = -2
    /// Internal flag bit: the geometry culled the item (removed before the snapshot is seen).
    static let cullBit: UInt32 = 1 << 31
    /// Items from which a full pass splits its values across two threads (at 10,000 layers
    /// splitting takes 0.59x the time of one thread for fans and balanced trees, 0.83x for a
    /// chain: paired runs of both builds).
    static let splitThreshold = 8_192
    /// Marked leaves from which an update splits them across two threads.
    static let leafSplitThreshold = 2_048

    private static let tokens = Atomic<UInt64>(0)
    /// What repeating replicator instances works with (made on first use).
    @exclusivity(unchecked) private var replicas: ReplicaScratch?
    private var replicaScratch: ReplicaScratch {
        if let s = replicas { return s }
        let s = ReplicaScratch()
        replicas = s
        return s
    }
    /// A delayed instance's source builder (`emitDelayed`): its root is kept whatever it
    /// presents, and the items its geometry culls stay (their copies are placed again).
    @exclusivity(unchecked) private var isDelayedSource = false
    /// Builders of delayed instances' items, one per nesting depth of delayed replicators.
    @exclusivity(unchecked) private var delayedSources: [SnapshotBuilder] = []
    @exclusivity(unchecked) private var delayDepth = 0

    deinit {
        chunkDone?.deinitialize(count: chunkDoneCapacity)
        chunkDone?.deallocate()
        // The engine logs changed rows for the builder that owns the log; with that builder
        // gone nobody takes them, and every later change outside the kernels would append
        // (and, past its bound, drop and grow the log again: mallocs in changes that make none).
        let layers = engine.layers
        if layers.snapshotOwner == token && engine.isCurrent {
            layers.snapshotOwner = 0
            layers.changedRows.removeAll(keepingCapacity: false)
        }
    }

    init(engine: EngineContext) {
        self.engine = engine
        token = SnapshotBuilder.tokens.wrappingAdd(1, ordering: .relaxed).newValue
        output.source = self
    }

    /// The snapshot of `rootLayer`'s tree as presented now, at media time `time`.
    func snapshot(root rootLayer: CALayer?, time: Double) -> RenderSnapshot {
        let layers = engine.layers
        let rootRow = rootLayer?.row ?? -1
        let owned = layers.snapshotOwner == token
        let full = !owned || rootRow != root || layers.treeVersion != treeVersion
            || layers.changedRowsDropped != dropped || layers.capacity != layerCapacity
        output.time = time
        output.sequence += 1
        if full || !update() {
            layers.snapshotOwner = token
            layers.changedRows.removeAll(keepingCapacity: true)
            dropped = layers.changedRowsDropped
            fullPass(rootRow)
        } else {
            layers.changedRows.removeAll(keepingCapacity: true)
        }
        if layers.replicators > 0 && showsReplicator() {
            // Replicator instances repeat items, which an update's row -> item map cannot
            // follow: a tree showing a replicator is built by a full pass every snapshot.
            replicate()
            invalidate()
        }
        return output
    }

    /// Opacities at or below this are culled (`RenderSnapshot.invisible`; a constant, not a
    /// lazily made global: it is read per layer).
    @inline(__always) static var invisible: Double { Double(RenderSnapshot.invisible) }

    /// The next snapshot is a full pass.
    func invalidate() { treeVersion = .max }

    // MARK: full pass

    private func fullPass(_ rootRow: Int32) {
        let layers = engine.layers
        root = rootRow
        treeVersion = layers.treeVersion
        layerCapacity = layers.capacity
        let inputs = SnapshotInputs(layers)
        prepareOrder()
        // Large trees (by the last pass's count): the walk and the item values overlap. The
        // render worker computes chunks of items as the walk publishes them; this thread
        // joins once the walk is done. The columns are reserved for every layer up front.
        let pipelined = engine.renderThreads > 1 && expectedItems >= SnapshotBuilder.splitThreshold
        var culled = 0
        if pipelined {
            let capacity = max(layers.liveCount, 1)
            output.reserveItems(capacity, keeping: 0)
            orderZ.reserve(capacity, keeping: 0)
            beginChunks(capacity: capacity, inputs)
            let worker = engine.worker
            worker.start(snapshot: self)
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
    }

    // MARK: chunks (the pipelined full pass)

    /// Items per chunk.
    static let chunk = 1_024

    /// Resets the chunk counters for a pass over at most `capacity` items.
    private func beginChunks(capacity: Int, _ inputs: SnapshotInputs) {
        let chunks = capacity / SnapshotBuilder.chunk + 2
        if chunkDoneCapacity < chunks {
            chunkDone?.deinitialize(count: chunkDoneCapacity)
            chunkDone?.deallocate()
            let p = UnsafeMutablePointer<Atomic<UInt32>>.allocate(capacity: chunks)
            for k in 0..<chunks { (p + k).initialize(to: Atomic(0)) }
            chunkDone = p
            chunkDoneCapacity = chunks
        }
        chunkInputs = inputs
        chunkColumns = ItemColumns(output)
        itemsOrdered.store(0, ordering: .relaxed)
        orderedItems.store(-1, ordering: .relaxed)
        nextChunk.store(0, ordering: .relaxed)
        culledByWorker = 0
    }

    /// The worker's part: an update's upper half of the leaves, or a full pass's chunks
    /// until none are left.
    func runOnWorker() {
        if leafSplit > 0 {
            let list = UnsafeBufferPointer(start: leafScratch.base + leafSplitStart, count: leafSplit)
            culledByWorker = computeItems(list, chunkInputs!, chunkColumns!)
        } else {
            culledByWorker = runChunks()
        }
    }

    /// Takes chunks of items in order (shared with the other thread), waits until the walk
    /// has made them and the chunks holding their items' parents are done, computes them.
    /// Returns the items culled.
    private func runChunks() -> Int {
        let inputs = chunkInputs!, columns = chunkColumns!, done = chunkDone!, thisPass = pass
        var culled = 0
        while true {
            let k = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
            let start = k * SnapshotBuilder.chunk
            var end = start + SnapshotBuilder.chunk
            // Wait for the walk to make the chunk (or to finish short of it).
            while true {
                let total = orderedItems.load(ordering: .acquiring)
                if total >= 0 { end = min(end, total); break }
                if itemsOrdered.load(ordering: .acquiring) >= end { break }
            }
            if start >= end { return culled }
            // Parents in chunks another thread has not finished are computed again here
            // (`pendingContext`), so a chunk does not wait for the one before it.
            culled &+= computeItems(start..<end, inputs, columns, ready: Readiness(start: start, done: done, pass: thisPass))
            done[k].store(thisPass, ordering: .releasing)
        }
    }

    /// Painter's order: a depth-first walk from the root along the tree's links, each layer
    /// before its sublayers, sublayers in order or, under a layer whose sublayers have
    /// zPositions of their own (`LayerFlags.childHasZ`), by ascending zPosition (stable);
    /// hidden, transparent and uncommitted layers are culled with their subtrees. Writes
    /// rows, parents, subtree ends, shape indices, the order's z and the row -> item map.
    /// The walk follows first-child and next-sibling links (each load issued while the
    /// layer's own values are read), so no list of siblings is chased ahead of the visits.
    private func prepareOrder() {
        let layers = engine.layers
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
        let layers = engine.layers
        let out = output
        var n = 0, shapes = 0
        guard rootRow >= 0 else { out.shapeCount = 0; return }
        let flags = inputs.flags, firstChild = layers.firstChild.base, nextSibling = layers.nextSibling.base
        let parentRow = layers.parent.base, hints = inputs.hints, map = itemOfRow.base
        let stamp = sortedStamp.base, orderNextP = orderNext.base, thisPass = pass
        let opacityCol = inputs.opacity, hiddenCol = inputs.hidden, zCol = inputs.zPosition
        let root = Int(rootRow)
        var capacity = out._layerIndices.capacity
        var rowsP = out._layerIndices.base, parentsP = out._parents.base, endsP = out._subtreeEnds.base
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
                    rowsP = out._layerIndices.base; parentsP = out._parents.base; endsP = out._subtreeEnds.base
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
                if curItem >= 0 { endsP[curItem] = Int32(n) }
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
    private func sortSublayers(_ first: Int, _ z: UnsafeMutablePointer<Double>, _ hints: UnsafeMutablePointer<UInt8>,
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

    /// `column` for a row whose hints have `bit`; nil (the defaults) otherwise.
    @inline(__always)
    private func hinted(_ column: UnsafeMutablePointer<Double>?, _ h: UInt8, _ bit: UInt8) -> UnsafeMutablePointer<Double>? {
        h & bit != 0 ? column : nil
    }

    // MARK: item values

    /// Computes items `range` in order: geometry and style (see `kernel`). Returns the
    /// items culled, flagged with `cullBit`.
    @discardableResult
    @inline(never)
    func computeItems(_ range: Range<Int>, _ inputs: SnapshotInputs, _ columns: ItemColumns, ready: Readiness? = nil) -> Int {
        kernel(range, list: nil, inputs, columns, ready: ready, style: true)
    }

    /// `computeItems` for the items listed (ascending), whose parents are all computed.
    @inline(never)
    func computeItems(_ items: UnsafeBufferPointer<Int>, _ inputs: SnapshotInputs, _ columns: ItemColumns) -> Int {
        kernel(0..<items.count, list: items, inputs, columns, ready: nil, style: true)
    }

    /// The geometry alone of `range` (an update's descendants of a changed layer: their
    /// style is theirs, unchanged); flags keep their style bits.
    @inline(never)
    private func geometryOnly(_ range: Range<Int>, _ inputs: SnapshotInputs, _ columns: ItemColumns) -> Int {
        kernel(range, list: nil, inputs, columns, ready: nil, style: false)
    }

    /// What a layer's sublayers inherit: the space they are placed in, the opacity, and the
    /// clip item (the layer itself when it masks to bounds).
    struct ParentContext {
        var space: RenderTransform
        var opacity: Float
        var clip: Int32
    }

    /// One item's geometry from its parent's context.
    struct ItemGeometry {
        var world: RenderTransform
        var opacity: Float
        var bounds: SIMD4<Float>
        var z: Double
    }

    static let identity = RenderTransform(row1: SIMD4(1, 0, 0, 0), row2: SIMD4(0, 1, 0, 0), row3: SIMD4(0, 0, 1, 0), row4: SIMD4(0, 0, 0, 1))

    /// Row r's world transform (T(-anchor) · transform · T(position, z) · the parent's space),
    /// opacity (the parent's times its own, clamped), bounds and z.
    @inline(__always)
    private func geometry(_ r: Int, _ h: UInt8, _ parent: ParentContext, _ inputs: SnapshotInputs) -> ItemGeometry {
        var b = SIMD4<Double>.zero
        if let q = inputs.bounds { b = SIMD4(q[4 * r], q[4 * r + 1], q[4 * r + 2], q[4 * r + 3]) }
        var pos = SIMD2<Double>.zero
        if let q = inputs.position { pos = SIMD2(q[2 * r], q[2 * r + 1]) }
        var a = SIMD2<Double>(0.5, 0.5), az = 0.0, z = 0.0
        if h & (SnapshotHint.anchor | SnapshotHint.zPosition) != 0 {
            if h & SnapshotHint.anchor != 0 {
                if let q = inputs.anchorPoint { a = SIMD2(q[2 * r], q[2 * r + 1]) }
                if let q = inputs.anchorPointZ { az = q[r] }
            }
            if h & SnapshotHint.zPosition != 0, let q = inputs.zPosition { z = q[r] }
        }
        let space = parent.space
        // The anchor point in the layer's bounds space.
        let ox = b.x + a.x * b.z, oy = b.y + a.y * b.w
        var m: RenderTransform
        if let t = hinted(inputs.transform, h, SnapshotHint.transform) {
            let q = t + 16 * r
            var r1 = SIMD4(q[0], q[1], q[2], q[3]), r2 = SIMD4(q[4], q[5], q[6], q[7])
            var r3 = SIMD4(q[8], q[9], q[10], q[11]), r4 = SIMD4(q[12], q[13], q[14], q[15])
            r4 -= ox * r1 + oy * r2 + az * r3
            // · T(position, z): each row moves by its w (perspective rows too).
            let move = SIMD4(pos.x, pos.y, z, 0)
            r1 += r1.w * move; r2 += r2.w * move; r3 += r3.w * move; r4 += r4.w * move
            let local = RenderTransform(row1: SIMD4<Float>(r1), row2: SIMD4<Float>(r2), row3: SIMD4<Float>(r3), row4: SIMD4<Float>(r4))
            m = local.concatenating(space)
        } else {
            // A translation: rows 1-3 are the parent's.
            let tx = Float(pos.x - ox), ty = Float(pos.y - oy), tz = Float(z - az)
            m = space
            var r4 = space.row4
            r4.addProduct(SIMD4(repeating: tx), space.row1)
            r4.addProduct(SIMD4(repeating: ty), space.row2)
            r4.addProduct(SIMD4(repeating: tz), space.row3)
            m.row4 = r4
        }
        var own = 1.0
        if let q = inputs.opacity { own = q[r] }
        let clamped = own < 0 ? 0 : (own > 1 ? 1 : own)
        return ItemGeometry(world: m, opacity: parent.opacity * Float(clamped), bounds: SIMD4<Float>(b), z: z)
    }

    /// The context row r (item `item`, world `world`, opacity `opacity`, clip `clip`) gives
    /// its sublayers.
    @inline(__always)
    private func context(ofItem item: Int, row r: Int, world: RenderTransform, opacity: Float, clip: Int32,
                         _ inputs: SnapshotInputs) -> ParentContext {
        let masks = hinted(inputs.masksToBounds, inputs.hints[r], SnapshotHint.clipping).map { $0[r] >= 0.5 } ?? false
        return ParentContext(space: childSpace(world, r, inputs), opacity: opacity, clip: masks ? Int32(item) : clip)
    }

    /// Which items a chunk thread may read: those before `start` whose chunk is done.
    struct Readiness {
        let start: Int
        let done: UnsafeMutablePointer<Atomic<UInt32>>
        let pass: UInt32

        @inline(__always)
        func isReady(_ item: Int) -> Bool { done[item / SnapshotBuilder.chunk].load(ordering: .acquiring) == pass }
    }

    /// The context of item p, which another thread has not finished: its ancestors up to a
    /// finished one (at most 64) computed here again, the same way (so the same values);
    /// beyond that, waits for p's chunk.
    @inline(never)
    private func pendingContext(_ p: Int, _ ready: Readiness, _ inputs: SnapshotInputs, _ c: ItemColumns) -> ParentContext {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { path in
            var count = 0
            var x = p
            while x >= 0 && !ready.isReady(x) && count < 64 {
                path[count] = x
                count += 1
                x = Int(c.parents[x])
            }
            if x >= 0 && !ready.isReady(x) {
                // Too deep: wait for p's chunk (a chain: the work is serial anyway).
                while !ready.isReady(p) {}
                return context(ofItem: p, row: Int(c.rows[p]), world: c.transforms[p], opacity: c.opacities[p], clip: c.clips[p], inputs)
            }
            var ctx = x < 0
                ? ParentContext(space: SnapshotBuilder.identity, opacity: 1, clip: -1)
                : context(ofItem: x, row: Int(c.rows[x]), world: c.transforms[x], opacity: c.opacities[x], clip: c.clips[x], inputs)
            var k = count - 1
            while k >= 0 {
                let y = path[k], r = Int(c.rows[y])
                let g = geometry(r, inputs.hints[r], ctx, inputs)
                ctx = context(ofItem: y, row: r, world: g.world, opacity: g.opacity, clip: ctx.clip, inputs)
                k -= 1
            }
            return ctx
        }
    }

    /// Computes items `range` in order (a parent item precedes its children): geometry
    /// (world transform, opacity, clip, bounds) and, with `style`, style (colours, border,
    /// shadow, flags); without it the flags keep their style bits. `ready`: a chunk thread's
    /// view of items before the range (nil: all computed). Returns the items culled (facing
    /// away, or not finite), flagged with `cullBit`.
    @inline(__always)
    private func kernel(_ range: Range<Int>, list: UnsafeBufferPointer<Int>?, _ inputs: SnapshotInputs, _ c: ItemColumns,
                        ready: Readiness?, style withStyle: Bool) -> Int {
        // The items: `range`, or those `list` holds (then `range` is its indices).
        // Items from `start` on are computed in this call, in order (a chunk); before it, a
        // parent is ready when its chunk is done (or always, without `ready`).
        let start = ready?.start ?? Int.max
        let rows = c.rows, parents = c.parents
        let world = c.transforms, opacities = c.opacities, clips = c.clips
        let bounds = c.bounds, flags = c.flags, hints = inputs.hints
        let map = itemOfRow.base, zOrder = orderZ.base
        var cachedParent = -1
        var parentContext = ParentContext(space: SnapshotBuilder.identity, opacity: 1, clip: -1)
        // NaN and infinities anywhere propagate into this sum (x * 0 is 0 for finite x only):
        // one test after the loop instead of one per item.
        var poison = SIMD4<Float>.zero
        var culled = 0
        var last = ItemGeometry(world: SnapshotBuilder.identity, opacity: 1, bounds: .zero, z: 0)
        var lastItem = -1
        for k in range {
            let i = list.map { $0[k] } ?? k
            let r = Int(rows[i]), p = Int(parents[i]), h = hints[r]
            if p != cachedParent {
                if p < 0 {
                    parentContext = ParentContext(space: SnapshotBuilder.identity, opacity: 1, clip: -1)
                } else if p == lastItem {
                    // The previous item: its values are still in registers.
                    parentContext = context(ofItem: p, row: Int(rows[p]), world: last.world, opacity: last.opacity, clip: clips[p], inputs)
                } else if p >= start || ready.map({ $0.isReady(p) }) ?? true {
                    parentContext = context(ofItem: p, row: Int(rows[p]), world: world[p], opacity: opacities[p], clip: clips[p], inputs)
                } else {
                    parentContext = pendingContext(p, ready!, inputs, c)
                }
                cachedParent = p
            }
            let g = geometry(r, h, parentContext, inputs)
            last = g
            lastItem = i
            world[i] = g.world
            opacities[i] = g.opacity
            clips[i] = parentContext.clip
            bounds[i] = g.bounds
            map[r] = Int32(i)
            zOrder[i] = g.z
            let m = g.world
            poison.addProduct(m.row1 + m.row2 + m.row3 + m.row4 + g.bounds, SIMD4<Float>.zero)
            var f = SnapshotBuilder.geometryBits(m, r, h, inputs)
            if f & SnapshotBuilder.cullBit != 0 { culled += 1 }
            if withStyle {
                f |= style(i, r, h, inputs, c)
            } else {
                f |= flags[i].rawValue & ~(ItemBit.perspective | SnapshotBuilder.cullBit)
            }
            flags[i] = RenderItemFlags(rawValue: f)
        }
        if !(poison.x + poison.y + poison.z + poison.w).isFinite {
            // Rare: find the items whose values are not finite.
            for k in range {
                let i = list.map { $0[k] } ?? k
                let m = world[i]
                let s = m.row1 + m.row2 + m.row3 + m.row4 + bounds[i]
                if !(s.x + s.y + s.z + s.w).isFinite && flags[i].rawValue & SnapshotBuilder.cullBit == 0 {
                    flags[i] = RenderItemFlags(rawValue: flags[i].rawValue | SnapshotBuilder.cullBit)
                    culled += 1
                }
            }
        }
        return culled
    }

    /// The space item p's sublayers are placed in: its world transform, with its
    /// sublayerTransform applied about its anchor point when it has one.
    @inline(__always)
    private func childSpace(_ w: RenderTransform, _ row: Int, _ inputs: SnapshotInputs) -> RenderTransform {
        guard let st = hinted(inputs.sublayerTransform, inputs.hints[row], SnapshotHint.sublayerTransform) else { return w }
        let q = st + 16 * row
        var r1 = SIMD4(q[0], q[1], q[2], q[3]), r2 = SIMD4(q[4], q[5], q[6], q[7])
        var r3 = SIMD4(q[8], q[9], q[10], q[11]), r4 = SIMD4(q[12], q[13], q[14], q[15])
        if r1 == SIMD4(1, 0, 0, 0) && r2 == SIMD4(0, 1, 0, 0) && r3 == SIMD4(0, 0, 1, 0) && r4 == SIMD4(0, 0, 0, 1) { return w }
        let b: SIMD4<Double> = inputs.bounds.map { SIMD4($0[4 * row], $0[4 * row + 1], $0[4 * row + 2], $0[4 * row + 3]) } ?? .zero
        let ah = inputs.hints[row]
        let a: SIMD2<Double> = hinted(inputs.anchorPoint, ah, SnapshotHint.anchor).map { SIMD2($0[2 * row], $0[2 * row + 1]) } ?? SIMD2(0.5, 0.5)
        let az = hinted(inputs.anchorPointZ, ah, SnapshotHint.anchor).map { $0[row] } ?? 0
        let o = SIMD4(b.x + a.x * b.z, b.y + a.y * b.w, az, 0)
        // T(-o) · S · T(o): the fourth row moves by -o through S; every row then by its w · o.
        r4 -= o.x * r1 + o.y * r2 + o.z * r3
        r1 += r1.w * o; r2 += r2.w * o; r3 += r3.w * o; r4 += r4.w * o
        let s = RenderTransform(row1: SIMD4<Float>(r1), row2: SIMD4<Float>(r2), row3: SIMD4<Float>(r3), row4: SIMD4<Float>(r4))
        return s.concatenating(w)
    }

    /// The flag bits an item's world transform `m` decides: `perspective`, and `cullBit` for
    /// a single-sided layer (row r, hints h) facing away.
    @inline(__always)
    static func geometryBits(_ m: RenderTransform, _ r: Int, _ h: UInt8, _ inputs: SnapshotInputs) -> UInt32 {
        var f: UInt32 = m.isAffine ? 0 : ItemBit.perspective
        if h & SnapshotHint.clipping != 0, let ds = inputs.doubleSided, ds[r] < 0.5, facesAway(m) { f |= cullBit }
        return f
    }

    /// Does a layer with world transform `m` show its back? Its unit square, mapped and
    /// divided by w, turns the other way round (by more than 1e-4 of its size: an edge-on
    /// or collapsed layer faces front); a layer at or behind the viewer (w at most 1e-5 at a
    /// corner) faces away. The margins keep single- and double-precision matrices, which
    /// differ in rounding, on the same side.
    static func facesAway(_ m: RenderTransform) -> Bool {
        let o = SIMD4<Double>(m.row4), x = SIMD4<Double>(m.row1 + m.row4), y = SIMD4<Double>(m.row2 + m.row4)
        guard o.w > 1e-5, x.w > 1e-5, y.w > 1e-5 else { return true }
        let ox = o.x / o.w, oy = o.y / o.w
        let ux = x.x / x.w - ox, uy = x.y / x.w - oy
        let vx = y.x / y.w - ox, vy = y.y / y.w - oy
        return ux * vy - uy * vx < -1e-4 * ((ux * ux + uy * uy) * (vx * vx + vy * vy)).squareRoot()
    }

    /// Item i's colours, border, corner radius, shadow and shape values; returns its style
    /// flag bits.
    @inline(__always)
    private func style(_ i: Int, _ r: Int, _ h: UInt8, _ inputs: SnapshotInputs, _ c: ItemColumns) -> UInt32 {
        var f: UInt32 = 0
        let bg = SnapshotBuilder.color(inputs.backgroundColor, r, nilColor: true)
        c.backgroundColors[i] = bg
        let invisible = RenderSnapshot.invisible
        if bg.w > invisible { f |= ItemBit.background }
        if h & (SnapshotHint.border | SnapshotHint.shadow | SnapshotHint.clipping) == 0 {
            // The common layer: no border, corner, shadow or clipping of its own.
            c.borderWidths[i] = 0
            c.borderColors[i] = SIMD4(0, 0, 0, 1)
            c.cornerRadii[i] = 0
            c.shadowColors[i] = SIMD4(0, 0, 0, 1)
            c.shadows[i] = SIMD4(0, -3, 3, 0)
        } else {
            let border = h & SnapshotHint.border != 0, shadow = h & SnapshotHint.shadow != 0
            let bw = Float((border ? inputs.borderWidth : nil).map { $0[r] } ?? 0)
            let bc = SnapshotBuilder.color(border ? inputs.borderColor : nil, r, nilColor: false)
            c.borderWidths[i] = bw
            c.borderColors[i] = bc
            if bw > invisible && bc.w > invisible { f |= ItemBit.border }
            c.cornerRadii[i] = Float((border ? inputs.cornerRadius : nil).map { $0[r] } ?? 0)
            let sc = SnapshotBuilder.color(shadow ? inputs.shadowColor : nil, r, nilColor: false)
            let so = Float((shadow ? inputs.shadowOpacity : nil).map { $0[r] } ?? 0)
            let off: SIMD2<Float> = (shadow ? inputs.shadowOffset : nil).map { SIMD2(Float($0[2 * r]), Float($0[2 * r + 1])) } ?? SIMD2(0, -3)
            c.shadowColors[i] = sc
            c.shadows[i] = SIMD4(off.x, off.y, Float((shadow ? inputs.shadowRadius : nil).map { $0[r] } ?? 3), so)
            if so > invisible && sc.w > invisible { f |= ItemBit.shadow }
            if let m = hinted(inputs.masksToBounds, h, SnapshotHint.clipping), m[r] >= 0.5 { f |= ItemBit.masksToBounds }
        }
        if inputs.flags[r] & LayerFlags.hasObjects != 0, let handle = engine.layers.handle[r] {
            let layer = handle.takeUnretainedValue()
            if layer.presentedObject(.contents) != nil { f |= ItemBit.contents }
            if layer.presentedObject(.mask) != nil { f |= ItemBit.mask }
            if layer.presentedObject(.shadowPath) != nil { f |= ItemBit.shadowPath }
            // A transform layer draws nothing of its own: only its sublayers show.
            if inputs.flags[r] & LayerFlags.isTransformLayer != 0 { f = 0 }
        }
        // Shape layers: their index was given by the walk; their values are the serial
        // shape pass's (`gatherShapes`: the shape columns may grow during the walk).
        guard inputs.flags[r] & LayerFlags.isShape != 0 else {
            c.shapeIndices[i] = -1
            return f
        }
        return f | ItemBit.shape
    }

    /// A colour column's value at row r in single precision; nil (NaN lanes) is (0, 0, 0, 0).
    /// An unmaterialised column holds the default: nil when `nilColor`, else `default`.
    @inline(__always)
    static func color(_ col: UnsafeMutablePointer<Double>?, _ r: Int, nilColor: Bool,
                      default d: SIMD4<Float> = SIMD4(0, 0, 0, 1)) -> SIMD4<Float> {
        guard let col else { return nilColor ? .zero : d }
        let c = SIMD4(col[4 * r], col[4 * r + 1], col[4 * r + 2], col[4 * r + 3])
        return c.x.isNaN ? .zero : SIMD4<Float>(c)
    }

    /// Shapes `range`'s values and paths, on the calling thread (paths are objects).
    private func gatherShapes(_ range: Range<Int>, _ inputs: SnapshotInputs) {
        let out = output
        guard !range.isEmpty else { return }
        let c = ItemColumns(out)
        for s in range {
            let r = Int(c.rows[Int(out._shapeItems[s])])
            let sh = inputs.hints[r] & SnapshotHint.shape != 0
            c.fillColors[s] = SnapshotBuilder.color(sh ? inputs.fillColor : nil, r, nilColor: false, default: SIMD4(0, 0, 0, 1))
            c.strokeColors[s] = SnapshotBuilder.color(sh ? inputs.strokeColor : nil, r, nilColor: true)
            c.strokes[s] = SIMD4(Float((sh ? inputs.lineWidth : nil).map { $0[r] } ?? 1),
                                 Float((sh ? inputs.strokeStart : nil).map { $0[r] } ?? 0),
                                 Float((sh ? inputs.strokeEnd : nil).map { $0[r] } ?? 1),
                                 Float((sh ? inputs.miterLimit : nil).map { $0[r] } ?? 10))
            c.lineDashPhases[s] = Float((sh ? inputs.lineDashPhase : nil).map { $0[r] } ?? 0)
            let path = engine.layers.handle[r]?.takeUnretainedValue().presentedObject(.path) as? CGPath
            if out._paths[s] !== path { out._paths[s] = path }
        }
    }

    /// Removes the items the geometry culled, with their subtrees, and renumbers the rest.
    @inline(never)
    private func removeCulledItems() {
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
                let end = Int(out._subtreeEnds[i])
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
        // Subtree ends again, over the kept items.
        for j in 0..<keep { out._subtreeEnds[j] = Int32(j + 1) }
        var j = keep - 1
        while j > 0 {
            let p = Int(out._parents[j])
            if out._subtreeEnds[p] < out._subtreeEnds[j] { out._subtreeEnds[p] = out._subtreeEnds[j] }
            j -= 1
        }
        out.nonFiniteLayers = nonFinite
        if nonFinite > 0 {
            StrataDiagnostics.emit(.nonFiniteValue,
                "render snapshot: \(nonFinite) layer(s) have non-finite world geometry (NaN, or beyond single precision); left out of the frame with their sublayers")
        }
    }

    // MARK: replicator instances

    /// Whether an item of the snapshot is a replicator layer's (the engine has some).
    private func showsReplicator() -> Bool {
        let flags = engine.layers.flags.base, rows = output._layerIndices.base
        for i in 0..<output.count where flags[Int(rows[i])] & LayerFlags.isReplicator != 0 { return true }
        return false
    }

    /// Repeats each replicator item's sublayer items once per instance (instance k placed
    /// by the instance transform applied k times about the replicator's bounds centre, in
    /// the space its sublayers are placed in, and its colours multiplied by instance k's
    /// colour), nested replicators inside their instances; then drops the copies the
    /// geometry culls. The copies' geometry is computed as the pass computes items.
    private func replicate() {
        let inputs = SnapshotInputs(engine.layers)
        let scratch = replicaScratch
        let src = scratch.source
        src.copyColumns(of: output)
        let n = src.count
        scratch.copyOf.reserve(n, keeping: 0)
        output.count = 0
        output.shapeCount = 0
        var culled = 0, truncated = false
        emitReplicas(0..<n, parentOut: -1, ParentContext(space: SnapshotBuilder.identity, opacity: 1, clip: -1),
                     tint: SIMD4(repeating: 1), src, scratch.copyOf.base, inputs, at: engine.renderedAt, &culled, &truncated)
        engine.endShadows()
        output.recomputeSubtreeEnds()
        output.recomputedItems = output.count
        for s in output.shapeCount..<output._paths.count where output._paths[s] != nil { output._paths[s] = nil }
        if truncated {
            StrataDiagnostics.emit(.outOfCapacity, RenderSnapshot.replicasLeftOut)
        }
        if culled > 0 { removeCulledItems() }
    }

    /// Writes the source items `range` (whole subtrees, in order) after the output's items:
    /// those whose source parent is the range's parent get `parentOut` and `rootContext`,
    /// the others their copied parent's context. `copyOf` maps `src`'s items to their
    /// copies; the layer store holds the presentation values at media time `time` (NaN:
    /// never rendered, instance delays not applied).
    private func emitReplicas(_ range: Range<Int>, parentOut: Int32, _ rootContext: ParentContext, tint: SIMD4<Float>,
                              _ src: RenderSnapshot, _ copyOf: UnsafeMutablePointer<Int32>, _ inputs: SnapshotInputs,
                              at time: Double, _ culled: inout Int, _ truncated: inout Bool) {
        guard !range.isEmpty else { return }
        let out = output
        let rangeParent = src._parents[range.lowerBound]
        var ctx = rootContext, cachedParent: Int32 = -2
        var i = range.lowerBound
        while i < range.upperBound {
            let j = out.count
            if j >= RenderSnapshot.maxReplicatedItems { truncated = true; return }
            if j >= out._layerIndices.capacity {
                out.reserveItems(2 * j, keeping: j)
                orderZ.reserve(2 * j, keeping: j)
            }
            let r = Int(src._layerIndices[i]), sp = src._parents[i], h = inputs.hints[r]
            let p = sp == rangeParent ? parentOut : copyOf[Int(sp)]
            if p != cachedParent {
                ctx = p == parentOut ? rootContext
                    : context(ofItem: Int(p), row: Int(out._layerIndices[Int(p)]), world: out._transforms[Int(p)],
                              opacity: out._opacities[Int(p)], clip: out._clips[Int(p)], inputs)
                cachedParent = p
            }
            let g = geometry(r, h, ctx, inputs)
            out._layerIndices[j] = Int32(r)
            out._parents[j] = p
            out._clips[j] = ctx.clip
            out._transforms[j] = g.world
            out._opacities[j] = g.opacity
            out._bounds[j] = g.bounds
            orderZ[j] = g.z
            let m = g.world
            var f = out.copyStyle(from: src, item: i, to: j, tint: tint).rawValue & ~(ItemBit.perspective | SnapshotBuilder.cullBit)
                | SnapshotBuilder.geometryBits(m, r, h, inputs)
            let sum = m.row1 + m.row2 + m.row3 + m.row4 + g.bounds
            if !(sum.x + sum.y + sum.z + sum.w).isFinite { f |= SnapshotBuilder.cullBit }
            if f & SnapshotBuilder.cullBit != 0 { culled += 1 }
            out._flags[j] = RenderItemFlags(rawValue: f)
            copyOf[i] = Int32(j)
            out.count = j + 1
            let end = Int(src._subtreeEnds[i])
            if inputs.flags[r] & LayerFlags.isReplicator != 0, end > i + 1 || engine.layers.firstChild[r] >= 0,
               let layer = engine.layers.handle[r]?.takeUnretainedValue() as? CAReplicatorLayer {
                let instances = layer.presentedInstances
                let base = context(ofItem: j, row: r, world: g.world, opacity: g.opacity, clip: ctx.clip, inputs)
                // Instance k shows its sublayers at time - k * instanceDelay: evaluated again
                // there when an animation drives a layer below the replicator.
                let delay = instances.delay
                let delayed = delay != 0 && delay.isFinite && time.isFinite && instances.count > 1 && animatesBelow(r)
                instances.forEachInstance { k, step, colour in
                    var c = base
                    c.space = RenderTransform(step).concatenating(base.space)
                    let t = tint * SIMD4<Float>(colour)
                    if delayed && k > 0 {
                        emitDelayed(replicator: Int32(r), at: time - Double(k) * delay, parentOut: Int32(j), c, tint: t,
                                    inputs, &culled, &truncated)
                    } else if end > i + 1 {
                        emitReplicas(i + 1..<end, parentOut: Int32(j), c, tint: t, src, copyOf, inputs, at: time, &culled, &truncated)
                    }
                }
                // Back to this level's time for the items after the replicator's: the
                // frame's own evaluation, or this delayed level's again.
                if delayed {
                    if time == engine.renderedAt { engine.restoreFrameEvaluation() } else { engine.renderShadow(atTime: time) }
                }
                i = end
            } else {
                i += 1
            }
        }
    }

    /// Whether an animation drives a layer below `row` (its sublayers, down the tree).
    private func animatesBelow(_ row: Int) -> Bool {
        let layers = engine.layers, first = engine.animations.firstOfLayer
        let firstChild = layers.firstChild.base, nextSibling = layers.nextSibling.base, parent = layers.parent.base
        var r = Int(firstChild[row])
        while r >= 0 {
            if first[r] >= 0 { return true }
            if firstChild[r] >= 0 { r = Int(firstChild[r]); continue }
            // Up until a layer with a next sibling, not past `row`.
            while r != row && nextSibling[r] < 0 { r = Int(parent[r]) }
            if r == row { return false }
            r = Int(nextSibling[r])
        }
        return false
    }

    /// One delayed instance of the replicator at `row`: the animations are evaluated at
    /// media time `time` (`EngineContext.renderShadow`, no delegate or completion sees it),
    /// the replicator's sublayers are ordered and styled there by a builder of this depth,
    /// and their copies are placed under the replicator's item `parentOut`.
    private func emitDelayed(replicator row: Int32, at time: Double, parentOut: Int32, _ context: ParentContext,
                             tint: SIMD4<Float>, _ inputs: SnapshotInputs, _ culled: inout Int, _ truncated: inout Bool) {
        engine.renderShadow(atTime: time)
        if delayDepth == delayedSources.count {
            let b = SnapshotBuilder(engine: engine)
            b.isDelayedSource = true
            delayedSources.append(b)
        }
        let source = delayedSources[delayDepth]
        delayDepth += 1
        defer { delayDepth -= 1 }
        source.fullPass(row)
        let src = source.output
        guard src.count > 1 else { return }
        let scratch = source.replicaScratch
        scratch.copyOf.reserve(src.count, keeping: 0)
        emitReplicas(1..<Int(src._subtreeEnds[0]), parentOut: parentOut, context, tint: tint, src, scratch.copyOf.base,
                     inputs, at: time, &culled, &truncated)
    }

    // MARK: update

    /// Recomputes the items whose layers changed since the last snapshot. False when a
    /// change needs a full pass (the caller then does one).
    private func update() -> Bool {
        let layers = engine.layers
        let out = output
        let n = out.count
        if lastLeaves >= SnapshotBuilder.leafSplitThreshold && engine.renderThreads > 1 {
            // The last update split its leaves: wake the worker now, so its wake-up overlaps
            // the marking rather than the leaves.
            engine.renderWorker?.prepare()
        }
        let words = (n + 63) >> 6
        marks.reserve(words, keeping: 0)
        let bits = marks.base
        bits.initialize(repeating: 0, count: words)
        let inputs = SnapshotInputs(layers)
        let columns = ItemColumns(out)
        var needFull = false
        for row in layers.changedRows { mark(row, bits, inputs, columns, n, &needFull) }
        let anim = engine.animations
        for t in 0..<anim.tracks.count {
            let track = anim.tracks[t]
            let rows = track.layer.base
            for s in 0..<track.count { mark(rows[s], bits, inputs, columns, n, &needFull) }
        }
        for t in 0..<anim.keyframeTracks.count {
            let track = anim.keyframeTracks[t]
            for s in 0..<track.count { mark(track.layer[s], bits, inputs, columns, n, &needFull) }
        }
        for id in anim.derivedRecords where id >= 0 { mark(anim.records[Int(id)].layer, bits, inputs, columns, n, &needFull) }
        for id in anim.objectRecords { mark(anim.records[Int(id)].layer, bits, inputs, columns, n, &needFull) }
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
        // Marked items with sublayers first, in order: each with its subtree's geometry
        // (skipping marks inside a subtree already done). Then every marked leaf in one pass
        // (their parents' new values are in place by then).
        var done = 0, recomputed = 0, leaves = 0
        let ends = out._subtreeEnds.base
        if leafScratch.capacity < n { leafScratch.reserve(n, keeping: 0) }
        let leafList = leafScratch.base
        let anyGeometryCulled = !geometryCulledParents.isEmpty
        for w in 0..<words {
            var word = bits[w]
            while word != 0 {
                let i = w << 6 | word.trailingZeroBitCount
                word &= word - 1
                let end = Int(ends[i])
                if end == i + 1 {
                    // A leaf of the items may hold sublayers its last pass culled by their
                    // geometry (back-facing, not finite): whether they show now depends on
                    // its new values, which the walk decides.
                    if _slowPath(anyGeometryCulled) && holdsCulledLayer(i..<end) { return false }
                    leafList[leaves] = i
                    leaves += 1
                    if i >= done { recomputed += 1 }
                    continue
                }
                if computeItems(i..<(i + 1), inputs, columns) > 0 { return false }
                if i >= done {
                    if geometryOnly((i + 1)..<end, inputs, columns) > 0 { return false }
                    if anyGeometryCulled && holdsCulledLayer(i..<end) { return false }
                    recomputed += end - i
                    done = end
                }
            }
        }
        lastLeaves = leaves
        if leaves >= SnapshotBuilder.leafSplitThreshold && engine.renderThreads > 1 {
            // Two cores: the worker computes the upper half of the leaves (each leaf writes
            // only its own item and row entries, and reads parents already computed).
            let mid = leaves / 2
            let worker = engine.worker
            chunkInputs = inputs
            chunkColumns = columns
            leafSplitStart = mid
            leafSplit = leaves - mid
            culledByWorker = 0
            worker.start(snapshot: self)
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
                    if Int(ends[i]) != i + 1 && s >= 0 { gatherShapes(s..<(s + 1), inputs) }
                }
            }
        }
        out.wasFullPass = false
        out.recomputedItems = recomputed
        return true
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

    /// The item of `row` in the current order, or `notInTree` / `culled`. The map is not
    /// cleared between orders: an entry counts only where its item holds that row.
    @inline(__always)
    private func item(ofRow row: Int32, _ rows: UnsafeMutablePointer<Int32>, _ count: Int) -> Int32 {
        guard Int(row) < itemOfRowCount else { return SnapshotBuilder.notInTree }
        let it = itemOfRow.base[Int(row)]
        if it >= 0 { return Int(it) < count && rows[Int(it)] == row ? it : SnapshotBuilder.notInTree }
        return it
    }

    /// Is a layer the geometry culled a child of an item in `items`?
    private func holdsCulledLayer(_ items: Range<Int>) -> Bool {
        // First parent at or after the range's start (the list is ascending).
        var lo = 0, hi = geometryCulledParents.count
        while lo < hi {
            let m = (lo + hi) / 2
            if Int(geometryCulledParents[m]) < items.lowerBound { lo = m + 1 } else { hi = m }
        }
        return lo < geometryCulledParents.count && Int(geometryCulledParents[lo]) < items.upperBound
    }

    /// Is a culled row's layer still culled by what the order pass looks at?
    private func stillCulled(_ r: Int, _ inputs: SnapshotInputs) -> Bool {
        let opacity = inputs.opacity.map { $0[r] } ?? 1
        let hidden = hinted(inputs.hidden, inputs.hints[r], SnapshotHint.clipping).map { $0[r] >= 0.5 } ?? false
        return inputs.flags[r] & LayerFlags.committed == 0 || hidden || !(opacity > SnapshotBuilder.invisible)
    }

    /// Does item i still sit where the order pass put it (shown, same zPosition)?
    private func sameOrder(_ i: Int, _ inputs: SnapshotInputs, _ c: ItemColumns) -> Bool {
        let r = Int(c.rows[i])
        if stillCulled(r, inputs) { return false }
        return (hinted(inputs.zPosition, inputs.hints[r], SnapshotHint.zPosition).map { $0[r] } ?? 0) == orderZ.base[i]
    }
}

extension CALayer {
    /// An object property's value as presented: the animated value while an animation
    /// drives it, else the committed one.
    func presentedObject(_ p: PropertyID) -> Any? {
        guard let o = objectState else { return nil }
        if let animated = o.animated[p.raw] { return CALayer.shown(animated) }
        return o.committed[p.raw]
    }

    /// An animated object value as shown: a morphing path's `CGPath` (made on this read).
    @inline(__always)
    static func shown(_ animated: Any?) -> Any? {
        if let m = animated as? PathMorph { return m.path }
        return animated
    }
}

/// Repeating replicator instances: the items as built before they repeat, and each source
/// item's copy in the instance being written.
final class ReplicaScratch {
    let source = RenderSnapshot()
    @exclusivity(unchecked) var copyOf = SnapshotBuffer<Int32>()
}

/// The output columns' base pointers, read once per pass (the snapshot's buffers live in
/// another module: each property read there is an access of its own).
struct ItemColumns {
    let rows, parents, ends, clips, shapeIndices: UnsafeMutablePointer<Int32>
    let transforms: UnsafeMutablePointer<RenderTransform>
    let opacities, cornerRadii, borderWidths, lineDashPhases: UnsafeMutablePointer<Float>
    let bounds, backgroundColors, borderColors, shadowColors, shadows: UnsafeMutablePointer<SIMD4<Float>>
    let fillColors, strokeColors, strokes: UnsafeMutablePointer<SIMD4<Float>>
    let flags: UnsafeMutablePointer<RenderItemFlags>

    init(_ s: RenderSnapshot) {
        rows = s._layerIndices.base; parents = s._parents.base; ends = s._subtreeEnds.base; clips = s._clips.base
        shapeIndices = s._shapeIndices.base; transforms = s._transforms.base; opacities = s._opacities.base
        cornerRadii = s._cornerRadii.base; borderWidths = s._borderWidths.base; lineDashPhases = s._lineDashPhases.base
        bounds = s._bounds.base; backgroundColors = s._backgroundColors.base; borderColors = s._borderColors.base
        shadowColors = s._shadowColors.base; shadows = s._shadows.base; fillColors = s._fillColors.base
        strokeColors = s._strokeColors.base; strokes = s._strokes.base; flags = s._flags.base
    }
}
