/// The key times and segment curves that keyframe animations of one track share, with the
/// coefficients of every slot that uses them stored segment-major: one slab per segment,
/// and in it the slots' `width * 4` coefficients side by side.
///
/// Animations added to many layers at once (one `CAKeyframeAnimation` on every cell of a
/// list, a shake on every icon) have the same key times and curves and usually one timing
/// entry. A frame then finds the segment and local parameter once for all of them, and
/// reads each slot's coefficients of that segment from one contiguous slab: a stream of
/// `width * 32` bytes per slot, where the slot-major pool read one scattered line per slot
/// besides its key times and curves.
///
/// Paced slots (with inverse arc-length tables) share a schedule only with slots of the
/// same geometry, bit for bit (the same path added to many layers): the schedule holds the
/// table, and the inversion is done once with it too.
///
/// Plain manual memory in slabs (no reference counting): the track copies the struct in its
/// loop and frees it when its last slot leaves.
struct KeyframeSchedule {
    /// segments + 1 key times in the animation's progress, and one curve id per segment.
    let times: Slab<Double>
    let curves: Slab<Int32>
    let segments: Int
    /// Paced: `segments * CompiledKeyframes.arcStride` values of inverse arc-length tables
    /// (nil: none).
    let arcs: Slab<Double>?
    /// The segment of the last evaluation (the search starts there).
    var lastSegment = 0
    /// The slot of each member.
    var members: Slab<Int32>
    /// `segments` slabs of `capacity * stride` values: member m's coefficients of segment i
    /// at `(i * capacity + m) * stride`.
    var coefficients: Slab<Double>
    let stride: Int
    var count = 0
    var capacity = 0

    init(_ k: CompiledKeyframes, width: Int) {
        segments = k.segments
        stride = width * 4
        times = .allocate(capacity: k.times.count)
        times.base.initialize(from: k.times, count: k.times.count)
        curves = .allocate(capacity: Swift.max(segments, 1))
        curves.base.initialize(from: k.curves, count: segments)
        if !k.arcTables.isEmpty {
            let a = Slab<Double>.allocate(capacity: k.arcTables.count)
            a.base.initialize(from: k.arcTables, count: k.arcTables.count)
            arcs = a
        } else {
            arcs = nil
        }
        members = .allocate(capacity: 1)
        coefficients = KeyframeSchedule.slabs(0, segments: 0, stride: 0)
    }

    private static func slabs(_ capacity: Int, segments: Int, stride: Int) -> Slab<Double> {
        .allocate(capacity: capacity * segments * stride, alignment: 64)
    }

    var bytesAllocated: Int {
        (segments * 2 + 1) * 8 + (arcs == nil ? 0 : segments * CompiledKeyframes.arcStride * 8)
            + capacity * (4 + segments * stride * 8)
    }

    func free() {
        times.free(); curves.free(); members.free(); arcs?.free(); coefficients.free()
    }

    /// Adds `slot` with its compiled coefficients (`segments * stride` values, segment by
    /// segment); returns its member index.
    mutating func append(slot: Int32, _ co: [Double]) -> Int32 {
        if count == capacity {
            // From 1: a schedule of one slot (key times of its own) costs what the pools did.
            let c = Swift.max(1, capacity * 2)
            let m = Slab<Int32>.allocate(capacity: c)
            m.base.moveInitialize(from: members.base, count: count)
            members.free()
            members = m
            let slab = KeyframeSchedule.slabs(c, segments: segments, stride: stride)
            for i in 0..<segments {
                (slab.base + i * c * stride).moveInitialize(from: coefficients.base + i * capacity * stride, count: count * stride)
            }
            coefficients.free()
            coefficients = slab
            capacity = c
        }
        let m = count
        count += 1
        members[m] = slot
        co.withUnsafeBufferPointer { src in
            for i in 0..<segments {
                (coefficients.base + (i * capacity + m) * stride).initialize(from: src.baseAddress! + i * stride, count: stride)
            }
        }
        return Int32(m)
    }

    /// Removes member m (the last member moves into it); returns the moved member's slot,
    /// or -1.
    mutating func remove(_ m: Int) -> Int32 {
        let last = count - 1
        count -= 1
        guard m != last else { return -1 }
        members[m] = members[last]
        for i in 0..<segments {
            let slab = coefficients.base + i * capacity * stride
            (slab + m * stride).update(from: slab + last * stride, count: stride)
        }
        return members[m]
    }

    /// The segment and local parameter of progress u, the search starting from the last;
    /// paced, the parameter at that fraction of the segment's length (every member has the
    /// geometry of the first, whose coefficients the exact solve reads).
    @inline(__always)
    mutating func locate(_ u: Double, curveTable: UnsafePointer<UnitBezier>) -> (segment: Int, local: Double) {
        let (i, x) = locateSegment(u, times: times.base, curves: curves.base, segments: segments, from: lastSegment,
                                   curveTable: curveTable)
        lastSegment = i
        guard let arcs else { return (i, x) }
        let arc = CompiledKeyframes.arcStride
        return (i, CompiledKeyframes.invertArc(
            x, table: UnsafeBufferPointer(start: arcs.base + i * arc, count: arc), tableBase: 0,
            coefficients: UnsafeBufferPointer(start: coefficients.base + i * capacity * stride, count: stride),
            coefficientBase: 0, width: stride / 4))
    }
}

/// The segment of progress u among `segments` segments bounded by the key times `tm`
/// (non-decreasing), and its local parameter eased by the segment's curve. The search
/// starts at `hint`, the segment of the last frame: if u is still in it (keys are
/// non-decreasing, so that is the segment the search from 0 finds), that is two key-time
/// checks.
@inline(__always)
func locateSegment(_ u: Double, times tm: UnsafePointer<Double>, curves: UnsafePointer<Int32>, segments n: Int,
                   from hint: Int, curveTable: UnsafePointer<UnitBezier>) -> (segment: Int, local: Double) {
    var i = hint
    if !((i == 0 || u >= tm[i]) && (i == n &- 1 || u < tm[i &+ 1])) {
        i = 0
        while i < n &- 1 && u >= tm[i &+ 1] { i &+= 1 }
    }
    let t0 = tm[i], t1 = tm[i &+ 1]
    var x = t1 > t0 ? (u - t0) / (t1 - t0) : (u >= t1 ? 1 : 0)
    x = x < 0 ? 0 : (x > 1 ? 1 : x)
    let cid = Int(curves[i])
    if cid != 0 { x = curveTable[cid].solve(x) }
    return (i, x)
}

/// What makes two slots' schedules the same: their key times, bit for bit, and curves;
/// paced, their inverse tables and coefficients too. It holds the compiled arrays themselves
/// (shared, not copied: a key made on every keyframe `add` allocated three arrays) and
/// compares and hashes their bit patterns.
struct KeyframeScheduleKey: Hashable {
    let times: [Double]
    let curves: [Int32]
    /// Paced: the inverse tables, and the coefficients (empty otherwise).
    let arcs: [Double]
    let coefficients: [Double]

    init(_ k: CompiledKeyframes) {
        times = k.times
        curves = k.curves
        arcs = k.arcTables
        coefficients = k.arcTables.isEmpty ? [] : k.coefficients
    }

    private static func same(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
    }

    static func == (a: Self, b: Self) -> Bool {
        a.curves == b.curves && same(a.times, b.times) && same(a.arcs, b.arcs) && same(a.coefficients, b.coefficients)
    }

    func hash(into h: inout Hasher) {
        h.combine(times.count)
        for t in times { h.combine(t.bitPattern) }
        h.combine(curves)
        h.combine(arcs.count)
        for x in arcs { h.combine(x.bitPattern) }
        for x in coefficients { h.combine(x.bitPattern) }
    }
}
