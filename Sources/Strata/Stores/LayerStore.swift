import HeapModule

/// Per-layer flag bits in `LayerStore.flags`.
enum LayerFlags {
    static let alive: UInt16 = 1 << 0
    static let hasDelegate: UInt16 = 1 << 1
    static let hasActions: UInt16 = 1 << 2
    static let hasStyle: UInt16 = 1 << 3
    /// The layer has been committed once: `presentation()` exists.
    static let committed: UInt16 = 1 << 4
    /// The layer's class is not one of the engine's own, so `defaultAction(forKey:)` may be
    /// overridden and must be asked.
    static let customClass: UInt16 = 1 << 5
    static let isShape: UInt16 = 1 << 6
    /// An object property (contents, mask, shadowPath, path) has been set or animated: the
    /// render snapshot looks at the handle's objects (never cleared; a hint, not a fact).
    static let hasObjects: UInt16 = 1 << 7
    /// A sublayer has (or had) a zPosition of its own: the render snapshot sorts this layer's
    /// sublayers (a hint kept by `addHints` and `link`, never cleared).
    static let childHasZ: UInt16 = 1 << 8
    /// The layer's class overrides `action(forKey:)`: every change and event asks it (set
    /// with `customClass`, decided once per class by `ActionOverride`).
    static let overridesAction: UInt16 = 1 << 9
    /// A CATransformLayer: the render snapshot draws none of its own appearance (set with
    /// `hasObjects`, whose branch of the style pass looks at it: no cost for other layers).
    static let isTransformLayer: UInt16 = 1 << 10
    /// A CAReplicatorLayer: the render snapshot repeats its sublayers once per instance
    /// (`LayerStore.replicators` counts the live ones).
    static let isReplicator: UInt16 = 1 << 11
    /// The layer is a `View`'s own and that view, whose class keeps View's
    /// `action(for:forKey:)` (NSNull outside an animation block), is its delegate: with no
    /// block open on any thread, the lookup stops there without calling it
    /// (`ViewActionOverride`; the view's deinit clears it). Set with `hasDelegate`, which
    /// still routes the lookup to the walk.
    static let hostView: UInt16 = 1 << 12
    /// Mask of the lookup steps that are not empty.
    static let lookupSteps: UInt16 = hasDelegate | hasActions | hasStyle | customClass
}

/// Struct-of-arrays storage of every layer of one engine: the tree, per-layer flags, and one
/// model and one presentation column per lane property (`Double` lanes, `width` per layer),
/// materialised on first use so a tree that never touches `transform` pays nothing for it.
/// A `CALayer` is a handle holding its row index.
final class LayerStore {
    @exclusivity(unchecked) private(set) var capacity: Int
    @exclusivity(unchecked) private(set) var highWater = 0
    /// Freed rows, lowest first: a batch of new layers reuses ascending rows, so a
    /// transaction's animations of them land in runs of consecutive rows (the lane kernel's
    /// contiguous-store path) whatever order the earlier layers were released in. A stack
    /// handed them back in reverse release order: descending rows, every block scattered.
    @exclusivity(unchecked) private var freeRows = Heap<Int32>()

    @exclusivity(unchecked) var parent: Column<Int32>
    @exclusivity(unchecked) var firstChild: Column<Int32>
    @exclusivity(unchecked) var lastChild: Column<Int32>
    @exclusivity(unchecked) var nextSibling: Column<Int32>
    @exclusivity(unchecked) var prevSibling: Column<Int32>
    @exclusivity(unchecked) var childCount: Column<Int32>
    @exclusivity(unchecked) var flags: Column<UInt16>
    /// `SnapshotHint` bits: the groups of properties this layer has set or animated since it
    /// was made (the others hold their defaults, so the render snapshot skips their columns).
    @exclusivity(unchecked) var hints: Column<UInt8>
    /// Unretained pointer to the handle (valid while the row is alive).
    @exclusivity(unchecked) var handle: Column<Unmanaged<CALayer>?>
    /// The layer whose local time this layer's animations run in: the layer itself when it
    /// has timing of its own, else its superlayer's time space; -1 for media time (no such
    /// layer on its way to the root). Layers in between have default timing, so their local
    /// time is their time space's. Kept by `updateTimeSpace` (`LayerStore+Time.swift`).
    @exclusivity(unchecked) var timeSpace: Column<Int32>

    /// `model[p]`, `presentation[p]`: base of property p's column or nil if not materialised.
    @exclusivity(unchecked) var model: Column<Slab<Double>?>
    @exclusivity(unchecked) var presentation: Column<Slab<Double>?>

    init(capacity: Int = 64) {
        let c = grownCapacity(0, needed: capacity)
        self.capacity = c
        parent = Column(capacity: c, fill: -1)
        firstChild = Column(capacity: c, fill: -1)
        lastChild = Column(capacity: c, fill: -1)
        nextSibling = Column(capacity: c, fill: -1)
        prevSibling = Column(capacity: c, fill: -1)
        childCount = Column(capacity: c, fill: 0)
        flags = Column(capacity: c, fill: 0)
        hints = Column(capacity: c, fill: 0)
        handle = Column(capacity: c, fill: nil)
        timeSpace = Column(capacity: c, fill: -1)
        model = Column(capacity: PropertyTable.count, fill: nil)
        presentation = Column(capacity: PropertyTable.count, fill: nil)
    }

    deinit {
        for p in 0..<PropertyTable.count {
            model[p]?.free()
            presentation[p]?.free()
        }
        parent.free(); firstChild.free(); lastChild.free(); nextSibling.free(); prevSibling.free()
        childCount.free(); flags.free(); hints.free(); handle.free(); timeSpace.free()
        model.free(); presentation.free()
    }

    /// Rows in use.
    var liveCount: Int { highWater - freeRows.count }

    /// Bytes of column storage, for the reports.
    var bytesAllocated: Int {
        var lanes = 0
        for p in 0..<PropertyTable.count where model[p] != nil { lanes += PropertyTable.rows[p].width }
        return capacity * (7 * 4 + 2 + 1 + 8 + 2 * lanes * 8)
    }

    /// Live CAReplicatorLayer rows: while there are any, each snapshot looks for them.
    @exclusivity(unchecked) var replicators = 0

    /// A fresh row with every property at its default.
    func allocate(flags f: UInt16) -> Int32 {
        let row: Int32
        if let r = freeRows.popMin() {
            row = r
            // A row of a layer gone since the last snapshot: its item is not this layer's.
            if snapshotOwner != 0 { noteReusedRow(r) }
        } else {
            precondition(highWater < Int(Int32.max), "LayerStore is out of capacity: at most \(Int32.max) layers per thread")
            row = Int32(highWater)
            highWater += 1
            if highWater > capacity { grow(to: highWater) }
        }
        let i = Int(row)
        parent[i] = -1; firstChild[i] = -1; lastChild[i] = -1; nextSibling[i] = -1; prevSibling[i] = -1
        childCount[i] = 0
        timeSpace[i] = -1
        flags[i] = f | LayerFlags.alive
        hints[i] = 0
        for p in 0..<PropertyTable.count {
            guard let m = model[p] else { continue }
            let info = PropertyTable.rows[p]
            for c in 0..<info.width {
                m[i * info.width + c] = info.defaults[c]
                presentation[p]![i * info.width + c] = info.defaults[c]
            }
        }
        return row
    }

    func free(_ row: Int32) {
        let i = Int(row)
        if hasOwnTiming(row) { timedLayers -= 1 }
        if flags[i] & LayerFlags.isReplicator != 0 { replicators -= 1 }
        flags[i] = 0
        handle[i] = nil
        freeRows.insert(row)
    }

    private func grow(to n: Int) {
        let c = grownCapacity(capacity, needed: n)
        parent.grow(to: c, fill: -1); firstChild.grow(to: c, fill: -1); lastChild.grow(to: c, fill: -1)
        nextSibling.grow(to: c, fill: -1); prevSibling.grow(to: c, fill: -1); childCount.grow(to: c, fill: 0)
        flags.grow(to: c, fill: 0); hints.grow(to: c, fill: 0); handle.grow(to: c, fill: nil)
        timeSpace.grow(to: c, fill: -1)
        for p in 0..<PropertyTable.count {
            guard let m = model[p], let pr = presentation[p] else { continue }
            let info = PropertyTable.rows[p]
            model[p] = regrow(m, info: info, from: capacity, to: c)
            presentation[p] = regrow(pr, info: info, from: capacity, to: c)
        }
        capacity = c
    }

    private func regrow(_ old: Slab<Double>, info: PropertyInfo, from: Int, to: Int) -> Slab<Double> {
        let w = info.width
        let n = Slab<Double>.allocate(capacity: to * w)
        n.base.update(from: old.base, count: from * w)
        for r in from..<to { for c in 0..<w { n[r * w + c] = info.defaults[c] } }
        old.free()
        return n
    }

    /// Materialises property p's model and presentation columns (every row at the default).
    @inline(never)
    func materialize(_ p: PropertyID) {
        let info = PropertyTable[p]
        let w = info.width
        precondition(w > 0)
        let m = Slab<Double>.allocate(capacity: capacity * w)
        let pr = Slab<Double>.allocate(capacity: capacity * w)
        for r in 0..<capacity {
            for c in 0..<w { m[r * w + c] = info.defaults[c]; pr[r * w + c] = info.defaults[c] }
        }
        model[p.index] = m
        presentation[p.index] = pr
    }

    /// Property p's model column, materialised if needed.
    @inline(__always)
    func modelColumn(_ p: PropertyID) -> UnsafeMutablePointer<Double> {
        if let m = model[p.index] { return m.base }
        materialize(p)
        return model[p.index]!.base
    }

    /// Property p's presentation column, materialised if needed.
    @inline(__always)
    func presentationColumn(_ p: PropertyID) -> UnsafeMutablePointer<Double> {
        if let m = presentation[p.index] { return m.base }
        materialize(p)
        return presentation[p.index]!.base
    }

    /// `PropertyTable.hot`, read once (a global's every access checks its initialisation).
    let hot = PropertyTable.hot

    /// Copies the model value of (row, p) to its presentation value.
    @inline(__always)
    func snapPresentation(_ row: Int32, _ p: PropertyID) {
        guard let m = model[p.index], let pr = presentation[p.index] else { return }
        let w = hot[p.index].width
        let i = Int(row) * w
        Lanes(loading: m.base + i, width: w).store(to: pr.base + i, width: w)
        noteChanged(row)
    }

    // MARK: what the render snapshot needs to know

    /// Bumped by every link and unlink (and when new layers become presentable): a render
    /// snapshot whose order was built at another version builds it again.
    @exclusivity(unchecked) var treeVersion: UInt64 = 0
    /// Rows whose presentation changed outside the animation kernels (commits, snaps to the
    /// model, object values) since the snapshot owner last took them; kept only while a
    /// snapshot owner exists. Animated rows are found from the tracks instead.
    @exclusivity(unchecked) var changedRows: [Int32] = []
    /// The render snapshot builder that takes `changedRows` (0: none, nothing is logged).
    @exclusivity(unchecked) var snapshotOwner: UInt64 = 0
    /// Times `changedRows` outgrew its bound and was dropped (the owner then does a full pass).
    @exclusivity(unchecked) var changedRowsDropped = 0
    /// Rows linked, unlinked or made presentable since the snapshot owner last took them
    /// (kept only while a snapshot owner exists): what its update splices.
    @exclusivity(unchecked) var treeEdits: [Int32] = []
    /// Times `treeEdits` outgrew its bound and was dropped (the owner then does a full pass).
    @exclusivity(unchecked) var treeEditsDropped = 0
    /// Rows freed and given to a new layer since the snapshot owner last took the edits: an
    /// item the snapshot has for such a row was the gone layer's.
    @exclusivity(unchecked) var reusedRows: [Int32] = []

    /// `SnapshotHint` bits for `row`; a zPosition also tells its superlayer to sort. No bits
    /// (opacity, position, bounds, backgroundColor: read by every snapshot) touch nothing: an
    /// animation's link wrote `hints[row] |= 0`, a cache miss a change on a layer out of cache.
    @inline(__always)
    func addHints(_ row: Int, _ bits: UInt8) {
        guard bits != 0 else { return }
        hints[row] |= bits
        if bits & SnapshotHint.zPosition != 0, parent[row] >= 0 { flags[Int(parent[row])] |= LayerFlags.childHasZ }
    }

    /// A row's presentation changed outside the kernels.
    @inline(__always)
    func noteChanged(_ row: Int32) {
        guard snapshotOwner != 0 else { return }
        changedRows.append(row)
        if _slowPath(changedRows.count > 65_536 && changedRows.count > 2 * liveCount) { dropChangedRows() }
    }

    /// `row` was linked, unlinked or made presentable: the tree version moves on, and the
    /// snapshot owner is told which row.
    @inline(__always)
    func noteTreeEdit(_ row: Int32) {
        treeVersion &+= 1
        guard snapshotOwner != 0 else { return }
        treeEdits.append(row)
        if _slowPath(treeEdits.count > 4_096 && treeEdits.count > liveCount / 8) { dropTreeEdits() }
    }

    /// A freed row given to a new layer (logged for the snapshot owner, bounded as the edits).
    @inline(never)
    func noteReusedRow(_ row: Int32) {
        reusedRows.append(row)
        if _slowPath(reusedRows.count > 4_096 && reusedRows.count > liveCount / 8) {
            reusedRows.removeAll(keepingCapacity: false)
            dropTreeEdits()
        }
    }

    /// More edits than a splice would beat a full pass with: dropped.
    @inline(never)
    private func dropTreeEdits() {
        treeEdits.removeAll(keepingCapacity: false)
        treeEditsDropped += 1
    }

    /// The log would cost more than a full pass: dropped (its owner does a full pass).
    @inline(never)
    private func dropChangedRows() {
        changedRows.removeAll(keepingCapacity: false)
        changedRowsDropped += 1
    }

    // MARK: time (the rest: `LayerStore+Time.swift`)

    /// Layers whose timing fields are not the defaults (0 = every layer runs on media time).
    @exclusivity(unchecked) var timedLayers = 0

    /// Whether `materializeTiming` has run (every timing column exists).
    @exclusivity(unchecked) var hasTimingColumns = false

    /// The rows whose time space the last `updateTimeSpace` changed (kept to reuse its
    /// storage).
    @exclusivity(unchecked) var timeSpaceChanges: [Int32] = []

    // MARK: tree

    /// Is `a` the same layer as `b` or one of its ancestors?
    func isAncestor(_ a: Int32, of b: Int32) -> Bool {
        var x = b
        while x >= 0 {
            if x == a { return true }
            x = parent[Int(x)]
        }
        return false
    }

    /// Unlinks `row` from its parent's child list (no retain bookkeeping).
    func unlink(_ row: Int32) {
        let i = Int(row)
        let p = parent[i]
        guard p >= 0 else { return }
        let prev = prevSibling[i], next = nextSibling[i]
        if prev >= 0 { nextSibling[Int(prev)] = next } else { firstChild[Int(p)] = next }
        if next >= 0 { prevSibling[Int(next)] = prev } else { lastChild[Int(p)] = prev }
        parent[i] = -1; prevSibling[i] = -1; nextSibling[i] = -1
        childCount[Int(p)] -= 1
        noteTreeEdit(row)
    }

    /// Links `row` under `p` at child position `index` (clamped to the child count).
    func link(_ row: Int32, under p: Int32, at index: Int) {
        let i = Int(row)
        var before: Int32 = -1
        if index < Int(childCount[Int(p)]) {
            before = firstChild[Int(p)]
            var k = 0
            while before >= 0 && k < index { before = nextSibling[Int(before)]; k += 1 }
        }
        parent[i] = p
        if before < 0 {
            let last = lastChild[Int(p)]
            prevSibling[i] = last
            nextSibling[i] = -1
            if last >= 0 { nextSibling[Int(last)] = row } else { firstChild[Int(p)] = row }
            lastChild[Int(p)] = row
        } else {
            let prev = prevSibling[Int(before)]
            prevSibling[i] = prev
            nextSibling[i] = before
            prevSibling[Int(before)] = row
            if prev >= 0 { nextSibling[Int(prev)] = row } else { firstChild[Int(p)] = row }
        }
        childCount[Int(p)] += 1
        if hints[i] & SnapshotHint.zPosition != 0 { flags[Int(p)] |= LayerFlags.childHasZ }
        noteTreeEdit(row)
    }

    /// Index of `row` among its siblings.
    func siblingIndex(_ row: Int32) -> Int {
        var k = 0
        var x = prevSibling[Int(row)]
        while x >= 0 { k += 1; x = prevSibling[Int(x)] }
        return k
    }
}

/// Local times of layers at one media time, filled by `LayerStore.localTime(_:cache:)`;
/// valid while neither the tree nor any layer's timing changes (one render or one commit).
struct LocalTimeCache {
    /// The media (root parent) time the cached local times are for.
    let media: Double
    var times: [Int32: LayerTime] = [:]
    /// Scratch for the walk up (kept to reuse its storage).
    var path: [Int32] = []
    /// Layers converted through this cache (each at most once).
    var steps = 0
    init(media: Double) { self.media = media }
}

/// A layer's local time at one media time, and whether the layer and all its ancestors are
/// active there (inside their active time, or held by their fill modes).
struct LayerTime {
    var time: Double
    var active: Bool
}
