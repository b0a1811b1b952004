import Foundation
import Synchronization
import CStrataThread

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
    /// The engine's stores it reads, and its frame renderer, which evaluates at other times
    /// for replicators: the builder never reaches the engine itself. `unowned`, as the engine
    /// was: with strong `let`s the full pass's walk (`buildOrder`) took 11 more instructions
    /// an item (`snapshot/full/balanced/1000`: 336 against 325 per item under callgrind;
    /// `unowned`: 324).
    unowned let layers: LayerStore
    unowned let animations: AnimationStore
    unowned let frames: FrameRenderer
    /// The engine's thread-local identity (`strata_current_engine()` on its own thread).
    let engineIdentity: UInt
    let output = RenderSnapshot()
    /// This builder's claim on the layer store's change log (unique per builder).
    let token: UInt64

    /// What the items were built from: a different root or dropped log means a full pass;
    /// another tree version, a splice (or a full pass when the edits can't be spliced).
    @exclusivity(unchecked) var root: Int32 = -1
    @exclusivity(unchecked) var treeVersion: UInt64 = .max
    @exclusivity(unchecked) private var dropped = -1
    @exclusivity(unchecked) var editsDropped = -1
    @exclusivity(unchecked) var layerCapacity = 0

    /// Row -> item (or `notInTree`, `culled`): rows beyond `itemOfRow`'s size are not in the tree.
    @exclusivity(unchecked) var itemOfRow = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) var itemOfRowCount = 0
    /// Rows culled by the order pass or the geometry (their `itemOfRow` entry is `culled`).
    @exclusivity(unchecked) var culledRows: [Int32] = []
    /// Parent items (ascending) of layers the geometry culled (facing away, not finite):
    /// whether such a layer shows depends on its ancestors, so an update that recomputes
    /// one of them becomes a full pass.
    @exclusivity(unchecked) var geometryCulledParents: [Int32] = []
    /// zPosition each item was ordered by.
    /// Double, as the zPosition the order pass sorted by: a change below Float's
    /// resolution still reorders.
    @exclusivity(unchecked) var orderZ = SnapshotBuffer<Double>()
    /// Items to recompute in an update: one bit per item.
    @exclusivity(unchecked) var marks = SnapshotBuffer<UInt64>()
    /// Rows whose sublayers this pass sorted by zPosition carry this pass's number, and
    /// those sublayers' draw-order links (`orderNext`).
    @exclusivity(unchecked) var sortedStamp = SnapshotBuffer<UInt32>()
    @exclusivity(unchecked) var orderNext = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) var pass: UInt32 = 0
    /// An update's marked leaves.
    @exclusivity(unchecked) var leafScratch = SnapshotBuffer<Int>()
    /// Whether the slots are the draw order (`drawOrder[k] == k`), as a full pass leaves
    /// them. After a splice they are not (`positions`), and the first `freeCount` of
    /// `freeSlots` are the slots holding no item (a stack).
    @exclusivity(unchecked) var slotsInOrder = true
    @exclusivity(unchecked) var freeSlots = SnapshotBuffer<Int32>()
    @exclusivity(unchecked) var freeCount = 0
    /// Draw positions, found lazily (`SnapshotBuilder+Positions.swift`): a splice moves most
    /// items' positions, and writing them all was most of its cost.
    @exclusivity(unchecked) var positions = SlotPositions()
    /// An update's marks by draw position (after a splice), and a subtree's slots in draw order.
    @exclusivity(unchecked) var positionMarks = SnapshotBuffer<UInt64>()
    @exclusivity(unchecked) var subtreeScratch = SnapshotBuffer<Int>()
    /// What a splice works with (`SnapshotBuilder+Splice.swift`).
    @exclusivity(unchecked) var spliceScratch: SpliceScratch?
    /// The order walk's path: parent items of the layers above it.
    @exclusivity(unchecked) var path = SnapshotBuffer<Int32>(capacity: 256)
    @exclusivity(unchecked) var siblings: [(z: Double, order: Int32, row: Int32)] = []
    /// Items the last `computeItems` call flagged for removal (worker's and caller's).
    @exclusivity(unchecked) var culledByWorker = 0
    /// The pipelined full pass: items the walk has made so far (published every chunk),
    /// the final count (-1 while walking), the next chunk to take, chunks done (this
    /// pass's number), and what the chunk threads read.
    let itemsOrdered = Atomic<Int>(0)
    let orderedItems = Atomic<Int>(-1)
    let nextChunk = Atomic<Int>(0)
    @exclusivity(unchecked) var chunkDone: Slab<Atomic<UInt32>>?
    @exclusivity(unchecked) var chunkDoneCapacity = 0
    @exclusivity(unchecked) var chunkInputs: SnapshotInputs?
    @exclusivity(unchecked) var chunkColumns: ItemColumns?
    /// Items the last full pass made: whether the next one pipelines.
    @exclusivity(unchecked) var expectedItems = 0
    /// An update's leaves the worker computes (`leafSplit` count from `leafSplitStart` of
    /// `leafScratch`; 0: the worker takes chunks of a full pass instead), and the leaves the
    /// last update marked (whether the next one wakes the worker ahead).
    @exclusivity(unchecked) var leafSplitStart = 0
    @exclusivity(unchecked) var leafSplit = 0
    @exclusivity(unchecked) var lastLeaves = 0
    /// Items of the last order with each `SnapshotHint` bit (for the pass's byte count).
    @exclusivity(unchecked) var hintedItems = SnapshotBuffer<Int>(capacity: 8)

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
    var replicaScratch: ReplicaScratch {
        if let s = replicas { return s }
        let s = ReplicaScratch()
        replicas = s
        return s
    }
    /// A delayed instance's source builder (`emitDelayed`): its root is kept whatever it
    /// presents, and the items its geometry culls stay (their copies are placed again).
    @exclusivity(unchecked) var isDelayedSource = false
    /// Builders of delayed instances' items, one per nesting depth of delayed replicators.
    @exclusivity(unchecked) var delayedSources: [SnapshotBuilder] = []
    @exclusivity(unchecked) var delayDepth = 0

    deinit {
        freeChunkFlags()
        // The engine logs changed rows for the builder that owns the log; with that builder
        // gone nobody takes them, and every later change outside the kernels would append
        // (and, past its bound, drop and grow the log again: mallocs in changes that make none).
        let layers = self.layers
        if layers.snapshotOwner == token && UInt(bitPattern: strata_current_engine()) == engineIdentity {
            layers.snapshotOwner = 0
            layers.changedRows.removeAll(keepingCapacity: false)
            layers.treeEdits.removeAll(keepingCapacity: false)
            layers.reusedRows.removeAll(keepingCapacity: false)
        }
    }

    init(layers: LayerStore, animations: AnimationStore, frames: FrameRenderer, engineIdentity: UInt) {
        self.layers = layers
        self.animations = animations
        self.frames = frames
        self.engineIdentity = engineIdentity
        token = SnapshotBuilder.tokens.wrappingAdd(1, ordering: .relaxed).newValue
        output.source = self
    }

    /// The snapshot of `rootLayer`'s tree as presented now, at media time `time`.
    func snapshot(root rootLayer: CALayer?, time: Double) -> RenderSnapshot {
        let layers = self.layers
        let rootRow = rootLayer?.row ?? -1
        let owned = layers.snapshotOwner == token
        let full = !owned || rootRow != root || layers.changedRowsDropped != dropped || layers.capacity != layerCapacity
        output.time = time
        output.sequence += 1
        if output.splicedItems != 0 { output.splicedItems = 0 }
        // The tree edited since: its moved, added and removed subtrees spliced into the order
        // (a full pass when they can't be), then the values that changed.
        if full || (layers.treeVersion != treeVersion && !splice()) || !update() {
            layers.snapshotOwner = token
            layers.changedRows.removeAll(keepingCapacity: true)
            layers.treeEdits.removeAll(keepingCapacity: true)
            layers.reusedRows.removeAll(keepingCapacity: true)
            dropped = layers.changedRowsDropped
            editsDropped = layers.treeEditsDropped
            fullPass(rootRow)
        } else {
            layers.changedRows.removeAll(keepingCapacity: true)
            if !layers.treeEdits.isEmpty { layers.treeEdits.removeAll(keepingCapacity: true) }
            if !layers.reusedRows.isEmpty { layers.reusedRows.removeAll(keepingCapacity: true) }
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
    func invalidate() { treeVersion = .max; editsDropped = -1 }

    /// The slots are the draw order again (after a full pass): nothing is free.
    func slotsAsDrawn() {
        slotsInOrder = true
        freeCount = 0
        positions.slotsAsDrawn()
    }
}

/// The output columns' base pointers, read once per pass (the snapshot's buffers live in
/// another module: each property read there is an access of its own).
struct ItemColumns {
    let rows, parents, sizes, clips, shapeIndices: ColumnSpan<Int32>
    let transforms: ColumnSpan<RenderTransform>
    let opacities, cornerRadii, borderWidths, lineDashPhases: ColumnSpan<Float>
    let bounds, backgroundColors, borderColors, shadowColors, shadows: ColumnSpan<SIMD4<Float>>
    let fillColors, strokeColors, strokes: ColumnSpan<SIMD4<Float>>
    let flags: ColumnSpan<RenderItemFlags>

    init(_ s: RenderSnapshot) {
        rows = ColumnSpan(lending: s._layerIndices.base); parents = ColumnSpan(lending: s._parents.base)
        sizes = ColumnSpan(lending: s._subtreeSizes.base); clips = ColumnSpan(lending: s._clips.base)
        shapeIndices = ColumnSpan(lending: s._shapeIndices.base); transforms = ColumnSpan(lending: s._transforms.base)
        opacities = ColumnSpan(lending: s._opacities.base); cornerRadii = ColumnSpan(lending: s._cornerRadii.base)
        borderWidths = ColumnSpan(lending: s._borderWidths.base); lineDashPhases = ColumnSpan(lending: s._lineDashPhases.base)
        bounds = ColumnSpan(lending: s._bounds.base); backgroundColors = ColumnSpan(lending: s._backgroundColors.base)
        borderColors = ColumnSpan(lending: s._borderColors.base); shadowColors = ColumnSpan(lending: s._shadowColors.base)
        shadows = ColumnSpan(lending: s._shadows.base); fillColors = ColumnSpan(lending: s._fillColors.base)
        strokeColors = ColumnSpan(lending: s._strokeColors.base); strokes = ColumnSpan(lending: s._strokes.base)
        flags = ColumnSpan(lending: s._flags.base)
    }
}
