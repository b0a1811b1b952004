/// What a record's values live in.
enum RecordKind: UInt8 {
    /// Lanes of a `LaneTrack`.
    case lanes
    /// An object value (contents, mask, paths): `ObjectValues` (switched at 0.5, stepped
    /// through keyframes, or a path morph).
    case object
    /// No property value: a transition, or an animation whose only effect is its timing.
    case timingOnly
    /// Segments of a `KeyframeTrack` (keyframe and path animations).
    case keyframes
    /// A derived transform field (`transform.rotation.z` ...), applied after the tracks.
    case derived
    /// A custom key's value.
    case custom
    /// A group: its children are records of their own, owned by it.
    case group
}

enum RecordFlags {
    static let alive: UInt8 = 1
    static let additive: UInt8 = 2
    static let hasDelegate: UInt8 = 4
    static let started: UInt8 = 8
    /// Owned by a group: not listed, retired with the group.
    static let groupChild: UInt8 = 16
    /// Added by an action run for a change of its property: `animation(forKey:)` shows the
    /// value it started from when its object has no `fromValue` (filled on that read).
    static let startsAtChange: UInt8 = 32
    /// An animation object is held for the record (`AnimationStore.objects`): freeing the
    /// record clears it. Without it, the free does not read the objects column, a miss a
    /// retirement on a layer out of cache (built-in implicit animations hold none until
    /// `animation(forKey:)` makes one).
    static let hasObject: UInt8 = 64
}

/// Bookkeeping of one running animation (cold data: read at add, remove, retire and by the
/// API, never by the frame kernel).
struct AnimationRecord {
    var layer: Int32 = -1
    /// Interned key; anonymous keys (nil) are negative and unique.
    var key: Int32 = 0
    var property: Int32 = -1
    var kind: RecordKind = .timingOnly
    var flags: UInt8 = 0
    var track: Int32 = -1
    var slot: Int32 = -1
    var timing: Int32 = -1
    var prevInLayer: Int32 = -1
    var nextInLayer: Int32 = -1
    var prevInTiming: Int32 = -1
    var nextInTiming: Int32 = -1
    /// Add order across the engine: callbacks of one frame are delivered in this order.
    var sequence: UInt64 = 0
}

/// Every running animation of one engine: records (cold), lane tracks (hot columns, one per
/// property and lane range), object animations, and the layer-properties whose animations
/// must be composed in order.
final class AnimationStore {
    @exclusivity(unchecked) var records = RowTable(empty: AnimationRecord())
    /// The animation object of a record: the copy added by `add(_:forKey:)`, or nil for a
    /// built-in implicit animation until the API asks for it.
    @exclusivity(unchecked) var objects: [CAAnimation?] = []
    /// What object records show (switched halves, keyframe steps, path morphs).
    @exclusivity(unchecked) var objectValues: [Int32: ObjectValues] = [:]
    @exclusivity(unchecked) private var freeRecords = IndexStack()
    @exclusivity(unchecked) private var anonymousKey: Int32 = -1

    @exclusivity(unchecked) var tracks: [LaneTrack] = []
    /// The same tracks unretained (owned by `tracks`): a call through one takes no retain.
    @exclusivity(unchecked) var trackHandles: [Unmanaged<LaneTrack>] = []
    /// Lanes (slots x width) of the fullest lane track (a scan of the few tracks).
    var largestTrackLanes: Int {
        var m = 0
        for i in 0..<tracks.count where tracks[i].count &* tracks[i].width > m { m = tracks[i].count &* tracks[i].width }
        return m
    }
    @exclusivity(unchecked) var keyframeTracks: [KeyframeTrack] = []
    @exclusivity(unchecked) private var keyframeTrackIndex: [Int: Int32] = [:]
    /// Side data of derived and custom records.
    @exclusivity(unchecked) var derivedValues: [Int32: DerivedValue] = [:]
    /// Children of group records.
    @exclusivity(unchecked) var groupChildren: [Int32: [Int32]] = [:]
    /// Keyframe slots that turn their layer along a path (rotationMode).
    @exclusivity(unchecked) var rotatingSlots = 0
    /// Lanes of the widest custom-key value added so far, at least 16 (a transform): the
    /// room `composeCustom` takes on the stack.
    @exclusivity(unchecked) var widestCustom = 16
    /// Basic animations of custom keys, one track per value width (`CustomTrack`), and
    /// their slots in all.
    @exclusivity(unchecked) var customTracks: [CustomTrack] = []
    @exclusivity(unchecked) private var customTrackOfWidth: [Int: Int32] = [:]
    @exclusivity(unchecked) var customSlots = 0
    /// Records of kind `.derived` and `.custom` evaluated per record each frame (transform
    /// fields, and custom keys but those a custom track writes directly), in add order.
    @exclusivity(unchecked) var derivedRecords: [Int32] = []
    /// Where each live derived record is in `derivedRecords`. A removal leaves -1 in its
    /// place (the others keep their order, which composition follows) and the list is
    /// compacted once half of it is gone: removing n derived records is O(n), not O(n^2).
    @exclusivity(unchecked) private var derivedPosition: [Int32: Int] = [:]
    @exclusivity(unchecked) private var derivedDead = 0

    /// Appends a derived (transform field or custom key) record to the per-frame list.
    func appendDerived(_ id: Int32) {
        derivedPosition[id] = derivedRecords.count
        derivedRecords.append(id)
    }

    /// The custom track of values `width` lanes wide.
    func customTrack(width: Int) -> Int32 {
        if let t = customTrackOfWidth[width] { return t }
        customTracks.append(CustomTrack(width: width))
        let t = Int32(customTracks.count - 1)
        customTrackOfWidth[width] = t
        return t
    }

    /// Whether derived record `id` is in the per-frame list.
    func isListedDerived(_ id: Int32) -> Bool { derivedPosition[id] != nil }

    /// Takes a derived record out of the per-frame list (nothing when it is not there).
    func dropDerived(_ id: Int32) {
        guard let i = derivedPosition.removeValue(forKey: id) else { return }
        derivedRecords[i] = -1
        derivedDead += 1
        if derivedDead == derivedRecords.count {
            derivedRecords.removeAll(keepingCapacity: true)
            derivedDead = 0
        } else if derivedDead >= 32 && 2 * derivedDead > derivedRecords.count {
            derivedRecords.removeAll { $0 < 0 }
            derivedDead = 0
            for k in 0..<derivedRecords.count { derivedPosition[derivedRecords[k]] = k }
        }
    }
    @exclusivity(unchecked) private var trackIndex: [Int: Int32] = [:]
    /// Records of kind `.object`, in add order.
    @exclusivity(unchecked) var objectRecords: [Int32] = []
    /// The layer properties whose animations are composed (`ComposedPairs`).
    @exclusivity(unchecked) var composed = ComposedPairs()
    /// Each layer row's animation list, in add order (records linked through `nextInLayer`
    /// and `prevInLayer`): its first and last record, -1 when empty. The store owns the
    /// lists, so linking and unlinking a record touch this store only. A row's two ends are
    /// side by side (`firstOfLayer` and `lastOfLayer` read the same column): a change or a
    /// retirement on a layer out of cache takes one miss for both, where two columns took two
    /// (callgrind's cache simulation of commit/retire-churn/100000: 2 of the 8 misses the
    /// retirement walk took a retirement).
    @exclusivity(unchecked) private var layerLists = Column<Int32>(capacity: 128, fill: -1)
    /// The first record of each row's list (`layerLists`, even places).
    var firstOfLayer: ListEnd { ListEnd(places: ColumnSpan(lending: layerLists.base)) }
    /// The last record of each row's list (`layerLists`, odd places).
    var lastOfLayer: ListEnd { ListEnd(places: ColumnSpan(lending: layerLists.base + 1)) }

    /// One end of every row's animation list, in the store's interleaved column.
    struct ListEnd {
        let places: ColumnSpan<Int32>
        subscript(row: Int) -> Int32 {
            @inline(__always) get { places[row &* 2] }
            @inline(__always) nonmutating set { places[row &* 2] = newValue }
        }
    }

    /// A new layer row starts with an empty animation list (room made for it).
    @inline(__always)
    func layerRowMade(_ row: Int32) {
        let i = Int(row)
        if _slowPath(2 * i + 1 >= layerLists.capacity) {
            layerLists.grow(to: grownCapacity(layerLists.capacity, needed: 2 * i + 2))
        }
        layerLists[2 * i] = -1; layerLists[2 * i + 1] = -1
        composed.rowMade(row)
    }

    /// Bytes of the per-layer list heads (counted with the layer's bytes in reports).
    var layerListBytes: Int { layerLists.capacity * 4 + composed.rowBytes }

    /// `PropertyTable.hot`, read once (a global's every access checks its initialisation).
    let hot = PropertyTable.hot

    init() {}

    deinit { records.free(); freeRecords.free(); layerLists.free(); composed.free() }

    var liveCount: Int { records.count - freeRecords.count }

    func nextAnonymousKey() -> Int32 { anonymousKey -= 1; return anonymousKey }

    /// The track of a whole built-in property, by id (-1: none yet): no hashing per add.
    @exclusivity(unchecked) private var wholeTracks = [Int32](repeating: -1, count: PropertyTable.count)

    @inline(__always)
    func track(_ p: PropertyID, offset: Int, width: Int) -> Int32 {
        if offset == 0 && p.isBuiltIn && width == hot[p.index].width {
            let t = wholeTracks[p.index]
            if t >= 0 { return t }
            let made = makeTrack(p, offset: 0, width: width)
            wholeTracks[p.index] = made
            return made
        }
        return makeTrack(p, offset: offset, width: width)
    }

    private func makeTrack(_ p: PropertyID, offset: Int, width: Int) -> Int32 {
        let k = Int(p.raw) << 16 | offset << 8 | width
        if let t = trackIndex[k] { return t }
        let track = LaneTrack(property: p, offset: offset, width: width)
        tracks.append(track)
        trackHandles.append(Unmanaged.passUnretained(track))
        let t = Int32(tracks.count - 1)
        trackIndex[k] = t
        return t
    }

    func keyframeTrack(_ p: PropertyID, offset: Int, width: Int) -> Int32 {
        let k = Int(p.raw) << 16 | offset << 8 | width
        if let t = keyframeTrackIndex[k] { return t }
        keyframeTracks.append(KeyframeTrack(property: p, offset: offset, width: width))
        let t = Int32(keyframeTracks.count - 1)
        keyframeTrackIndex[k] = t
        return t
    }

    @exclusivity(unchecked) private var nextSequence: UInt64 = 0

    @inline(never)
    func newRecord(_ r: AnimationRecord, object: CAAnimation?) -> Int32 { newRecordInline(r, object: object) }

    /// `newRecord`, inline (the lane records' add).
    @inline(__always)
    func newRecordInline(_ r0: AnimationRecord, object: CAAnimation?) -> Int32 {
        var r = r0
        nextSequence &+= 1
        r.sequence = nextSequence
        if object != nil { r.flags |= RecordFlags.hasObject }
        if let id = freeRecords.pop() {
            records[Int(id)] = r
            if let object { objects[Int(id)] = object }
            return id
        }
        let id = records.append(r)
        objects.append(object)
        return Int32(id)
    }

    func freeRecord(_ id: Int32) {
        switch records[Int(id)].kind {
        case .object: objectValues[id] = nil
        case .derived, .custom:
            derivedValues[id] = nil
            dropDerived(id)
        case .group: groupChildren[id] = nil
        default: break
        }
        freeLaneRecord(id)
    }

    /// `freeRecord` of a `.lanes` record (no side table to clear), inline; the tail of
    /// every `freeRecord`.
    @inline(__always)
    func freeLaneRecord(_ id: Int32) {
        let held = records[Int(id)].flags & RecordFlags.hasObject != 0
        records[Int(id)] = AnimationRecord()
        if held { objects[Int(id)] = nil }
        freeRecords.push(id)
        // The last live record: later ones are handed out in row order again.
        if _slowPath(freeRecords.count == records.count) { freeRecords.refillAscending(records.count) }
    }

    /// Bytes of the records table, the animation objects' slots and every track (capacity,
    /// not live animations). Keyframe pools count their live capacity.
    var bytesAllocated: Int {
        var b = records.rows.capacity * MemoryLayout<AnimationRecord>.stride + objects.capacity * 8
            + freeRecords.capacity * 4 + composed.pairBytes
        for t in tracks { b += t.bytesAllocated }
        for t in customTracks { b += t.bytesAllocated }
        for k in keyframeTracks { b += k.bytesAllocated }
        return b
    }

    /// Bytes of hot column storage per running animation, by track.
    var bytesPerAnimation: [(PropertyID, Int)] { tracks.map { ($0.property, $0.bytesPerAnimation) } }
}

/// A scalar or lane value animated outside the tracks: a derived transform field or a
/// custom key. A class: the per-frame passes look it up once per record and frame, and a
/// reference copies out of the table with one retain (a struct of arrays took three).
final class DerivedValue {
    var field: TransformField?
    var customKey: Int32 = -1
    var customType: CustomValueType = .double
    var kind: ValueKind = .cgFloat
    var from: [Double]
    var delta: [Double]
    var additive: Bool
    var cumulative: Bool
    /// Keyframes of a custom key or a transform field (from/delta unused then).
    var keyframes: CompiledKeyframes? = nil
    /// A custom key's field the animation drives (`startPoint.x`), within a whole value of
    /// `wholeWidth` lanes; nil: the whole value.
    var subField: ValueField? = nil
    var wholeWidth = 0

    init(field: TransformField?, from: [Double], delta: [Double], additive: Bool, cumulative: Bool) {
        self.field = field
        self.from = from
        self.delta = delta
        self.additive = additive
        self.cumulative = cumulative
    }

    /// Lanes of one value.
    var width: Int { keyframes?.span.count ?? from.count }
}
