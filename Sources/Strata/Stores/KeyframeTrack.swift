#if canImport(Glibc)
import Glibc
#endif
import Foundation
/// Slot flags of lane and keyframe tracks.
enum SlotFlags {
    /// The value is composed with other animations of the layer property (goes to scratch).
    static let compose: UInt8 = 1
    /// isCumulative: iteration k adds k * span.
    static let cumulative: UInt8 = 2
    /// rotationMode auto / autoReverse: the path tangent turns the layer.
    static let rotate: UInt8 = 4
    static let rotateReverse: UInt8 = 8
    /// A whole-transform slot whose endpoints interpolate by decomposition (its track's
    /// `blends`): evaluated one slot at a time, never in the SIMD block path. On a keyframe
    /// slot: segments that turn interpolate by decomposition, and cumulative repetitions
    /// concatenate the last key.
    static let decompose: UInt8 = 16
}

/// Running keyframe and path animations of one property lane range, as columns; keys live
/// in pooled columns (`times`, `curves`, `coefficients`, `arcs`) at per-animation offsets.
/// Evaluation is per animation (the segment differs per animation), branch-light and
/// allocation-free: every column is manually managed memory (no bounds check, retain or
/// uniqueness check in the loop), and each animation remembers its segment, which from one
/// frame to the next is almost always the same or the next, so the segment search is a
/// check of two key times.
final class KeyframeTrack {
    let property: PropertyID
    let propertyWidth: Int
    let offset: Int
    let width: Int

    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var capacity = 0
    /// Slots flagged `decompose` (whole transforms that turn, or cumulative): evaluated again
    /// after the others, so the loop over the others is unchanged.
    @exclusivity(unchecked) private(set) var decomposedSlots = 0
    /// Pooled slots with an inverse arc-length table (paced paths and cubicPaced keyframes
    /// that turn the layer; others share a schedule): while there are none, the loop is a
    /// copy compiled without the inversion.
    @exclusivity(unchecked) private(set) var arcSlots = 0
    @exclusivity(unchecked) var layer: Column<Int32>
    @exclusivity(unchecked) var timing: Column<Int32>
    @exclusivity(unchecked) var record: Column<Int32>
    @exclusivity(unchecked) var flags: Column<UInt8>
    @exclusivity(unchecked) var segmentStart: Column<Int32>   // index into curves; times at timeStart
    @exclusivity(unchecked) var timeStart: Column<Int32>
    @exclusivity(unchecked) var coefficientStart: Column<Int32>
    @exclusivity(unchecked) var arcStart: Column<Int32>       // -1: no arc table
    @exclusivity(unchecked) var segmentCount: Column<Int32>
    /// The segment the animation was in at its last evaluation (the search starts there).
    @exclusivity(unchecked) var lastSegment: Column<Int32>
    @exclusivity(unchecked) var span: Column<Double>          // width per slot
    @exclusivity(unchecked) var scratch: Column<Double>       // width per slot
    /// Tangent angle of rotating slots at the last frame (NaN when not active).
    @exclusivity(unchecked) var angle: Column<Double>
    /// Whole transforms: the slot's first segment blend in `blends` (-1: none).
    @exclusivity(unchecked) var blendStart: Column<Int32>
    /// The slot's shared schedule in `schedules` (-1: its keys are in the pools) and its
    /// member index there.
    @exclusivity(unchecked) var schedule: Column<Int32>
    @exclusivity(unchecked) var member: Column<Int32>
    /// Slots that share key times and curves (`KeyframeSchedule`): every slot that neither
    /// turns nor decomposes (paced ones share only with equal geometry). Freed schedules
    /// are reused from `freeSchedules`; `scheduleIndex` finds a schedule by its keys at
    /// `append`.
    @exclusivity(unchecked) private(set) var schedules: [KeyframeSchedule] = []
    @exclusivity(unchecked) private var scheduleKeys: [KeyframeScheduleKey?] = []
    @exclusivity(unchecked) private var scheduleIndex: [KeyframeScheduleKey: Int32] = [:]
    @exclusivity(unchecked) private var freeSchedules: [Int32] = []
    /// Slots whose keys are in the pools (evaluated one by one, as they were before
    /// schedules).
    @exclusivity(unchecked) private(set) var pooledSlots = 0

    // Pools (append; compacted when half is garbage).
    @exclusivity(unchecked) var times = Pool<Double>()
    @exclusivity(unchecked) var curves = Pool<Int32>()
    @exclusivity(unchecked) var coefficients = Pool<Double>()
    @exclusivity(unchecked) var arcs = Pool<Double>()
    @exclusivity(unchecked) var blends = Pool<TransformBlend>()
    /// The keys of whole-transform slots flagged `decompose` (16 lanes each, `keyCount` of
    /// them), from `keyStart`.
    @exclusivity(unchecked) var keys = Pool<Double>()
    @exclusivity(unchecked) var keyStart: Column<Int32>
    @exclusivity(unchecked) var keyCount: Column<Int32>
    @exclusivity(unchecked) private var garbage = 0

    /// Bytes of the slot columns and the key pools (their capacities).
    var bytesAllocated: Int {
        capacity * (4 * 8 + 1 + 8 + 2 * width * 8 + 8 + 4)
            + times.capacity * 8 + curves.capacity * 4 + coefficients.capacity * 8 + arcs.capacity * 8
            + blends.capacity * MemoryLayout<TransformBlend>.stride + keys.capacity * 8 + capacity * 8
            + capacity * 8 + schedules.indices.reduce(0) { $0 + (scheduleKeys[$1] == nil ? 0 : schedules[$1].bytesAllocated) }
    }

    init(property: PropertyID, offset: Int, width: Int) {
        self.property = property
        self.propertyWidth = PropertyTable[property].width
        self.offset = offset
        self.width = width
        let c = 64
        capacity = c
        layer = Column(capacity: c, fill: 0); timing = Column(capacity: c, fill: 0)
        record = Column(capacity: c, fill: -1); flags = Column(capacity: c, fill: 0)
        segmentStart = Column(capacity: c, fill: 0); timeStart = Column(capacity: c, fill: 0)
        coefficientStart = Column(capacity: c, fill: 0); arcStart = Column(capacity: c, fill: -1)
        segmentCount = Column(capacity: c, fill: 0); lastSegment = Column(capacity: c, fill: 0)
        span = Column(capacity: c * width, fill: 0); scratch = Column(capacity: c * width, fill: 0)
        angle = Column(capacity: c, fill: .nan)
        blendStart = Column(capacity: c, fill: -1)
        keyStart = Column(capacity: c, fill: -1); keyCount = Column(capacity: c, fill: 0)
        schedule = Column(capacity: c, fill: -1); member = Column(capacity: c, fill: 0)
    }

    deinit {
        layer.free(); timing.free(); record.free(); flags.free(); segmentStart.free(); timeStart.free()
        coefficientStart.free(); arcStart.free(); segmentCount.free(); lastSegment.free()
        span.free(); scratch.free(); angle.free(); blendStart.free(); keyStart.free(); keyCount.free()
        schedule.free(); member.free()
        for g in schedules.indices where scheduleKeys[g] != nil { schedules[g].free() }
        times.free(); curves.free(); coefficients.free(); arcs.free(); blends.free(); keys.free()
    }

    private func grow() {
        let c = capacity * 2
        layer.grow(to: c, fill: 0); timing.grow(to: c, fill: 0); record.grow(to: c, fill: -1); flags.grow(to: c, fill: 0)
        segmentStart.grow(to: c, fill: 0); timeStart.grow(to: c, fill: 0); coefficientStart.grow(to: c, fill: 0)
        arcStart.grow(to: c, fill: -1); segmentCount.grow(to: c, fill: 0); lastSegment.grow(to: c, fill: 0)
        span.grow(to: c * width, fill: 0); scratch.grow(to: c * width, fill: 0); angle.grow(to: c, fill: .nan)
        blendStart.grow(to: c, fill: -1); keyStart.grow(to: c, fill: -1); keyCount.grow(to: c, fill: 0)
        schedule.grow(to: c, fill: -1); member.grow(to: c, fill: 0)
        capacity = c
    }

    func append(layer l: Int32, timing t: Int32, record r: Int32, _ k: CompiledKeyframes, flags f: UInt8) -> Int32 {
        if count == capacity { grow() }
        let s = count
        count += 1
        layer[s] = l; timing[s] = t; record[s] = r; flags[s] = f
        if f & (SlotFlags.rotate | SlotFlags.decompose) == 0 && k.blends.isEmpty && k.segments > 0 {
            let g = scheduleFor(k)
            schedule[s] = g
            member[s] = schedules[Int(g)].append(slot: Int32(s), k.coefficients)
            timeStart[s] = 0; segmentStart[s] = 0; coefficientStart[s] = 0
        } else {
            schedule[s] = -1
            pooledSlots += 1
            timeStart[s] = Int32(times.count); times.append(contentsOf: k.times)
            segmentStart[s] = Int32(curves.count); curves.append(contentsOf: k.curves)
            coefficientStart[s] = Int32(coefficients.count); coefficients.append(contentsOf: k.coefficients)
        }
        if k.arcTables.isEmpty || schedule[s] >= 0 { arcStart[s] = -1 } else {
            arcStart[s] = Int32(arcs.count); arcs.append(contentsOf: k.arcTables)
        }
        if k.blends.isEmpty { blendStart[s] = -1 } else { blendStart[s] = Int32(blends.count); blends.append(contentsOf: k.blends) }
        if f & SlotFlags.decompose == 0 || k.keys.isEmpty { keyStart[s] = -1; keyCount[s] = 0 } else {
            keyStart[s] = Int32(keys.count); keyCount[s] = Int32(k.keys.count / 16); keys.append(contentsOf: k.keys)
        }
        segmentCount[s] = Int32(k.segments)
        lastSegment[s] = 0
        if f & SlotFlags.decompose != 0 { decomposedSlots += 1 }
        if arcStart[s] >= 0 { arcSlots += 1 }
        for c in 0..<width {
            span[s * width + c] = k.span.isEmpty ? 0 : k.span[c]
            scratch[s * width + c] = 0
        }
        angle[s] = .nan
        return Int32(s)
    }

    /// The schedule of k's key times and curves, made if there is none.
    private func scheduleFor(_ k: CompiledKeyframes) -> Int32 {
        let key = KeyframeScheduleKey(k)
        if let g = scheduleIndex[key] { return g }
        let made = KeyframeSchedule(k, width: width)
        let g: Int32
        if let free = freeSchedules.popLast() {
            g = free
            schedules[Int(g)] = made; scheduleKeys[Int(g)] = key
        } else {
            g = Int32(schedules.count)
            schedules.append(made); scheduleKeys.append(key)
        }
        scheduleIndex[key] = g
        return g
    }

    /// Takes slot s out of its schedule, freeing the schedule when s was its last member.
    private func leaveSchedule(_ s: Int) {
        let g = Int(schedule[s])
        let moved = schedules[g].remove(Int(member[s]))
        if moved >= 0 { member[Int(moved)] = member[s] }
        if schedules[g].count == 0, let key = scheduleKeys[g] {
            schedules[g].free()
            scheduleKeys[g] = nil
            scheduleIndex[key] = nil
            freeSchedules.append(Int32(g))
        }
    }

    /// Removes slot s (the last slot moves into it); returns the moved record or -1.
    func remove(_ s: Int32) -> Int32 {
        let s = Int(s), last = count - 1
        if schedule[s] >= 0 {
            leaveSchedule(s)
        } else {
            garbage += Int(segmentCount[s]) * (2 + 4 * width)
            pooledSlots -= 1
        }
        if flags[s] & SlotFlags.decompose != 0 { decomposedSlots -= 1 }
        if arcStart[s] >= 0 { arcSlots -= 1 }
        if s != last {
            layer[s] = layer[last]; timing[s] = timing[last]; record[s] = record[last]; flags[s] = flags[last]
            segmentStart[s] = segmentStart[last]; timeStart[s] = timeStart[last]
            coefficientStart[s] = coefficientStart[last]; arcStart[s] = arcStart[last]
            segmentCount[s] = segmentCount[last]; lastSegment[s] = lastSegment[last]
            blendStart[s] = blendStart[last]; keyStart[s] = keyStart[last]; keyCount[s] = keyCount[last]
            schedule[s] = schedule[last]; member[s] = member[last]
            if schedule[s] >= 0 { schedules[Int(schedule[s])].members[Int(member[s])] = Int32(s) }
            for c in 0..<width {
                span[s * width + c] = span[last * width + c]
                scratch[s * width + c] = scratch[last * width + c]
            }
            angle[s] = angle[last]
        }
        count -= 1
        if garbage > 4096 && garbage * 2 > coefficients.count { compact() }
        return s == last ? -1 : record[s]
    }

    /// Rewrites the pools without the keys of removed animations.
    private func compact() {
        var t = Pool<Double>(), cv = Pool<Int32>(), co = Pool<Double>(), ar = Pool<Double>(), bl = Pool<TransformBlend>()
        var ks = Pool<Double>()
        let arcLen = CompiledKeyframes.arcStride
        for s in 0..<count where schedule[s] < 0 {
            let n = Int(segmentCount[s])
            let ts = Int(timeStart[s]), ss = Int(segmentStart[s]), cs = Int(coefficientStart[s])
            timeStart[s] = Int32(t.count); t.append(from: times, ts, n + 1)
            segmentStart[s] = Int32(cv.count); cv.append(from: curves, ss, n)
            coefficientStart[s] = Int32(co.count); co.append(from: coefficients, cs, n * width * 4)
            if arcStart[s] >= 0 {
                let a = Int(arcStart[s])
                arcStart[s] = Int32(ar.count); ar.append(from: arcs, a, n * arcLen)
            }
            if blendStart[s] >= 0 {
                let b = Int(blendStart[s])
                blendStart[s] = Int32(bl.count); bl.append(from: blends, b, n)
            }
            if keyStart[s] >= 0 {
                let k = Int(keyStart[s])
                keyStart[s] = Int32(ks.count); ks.append(from: keys, k, Int(keyCount[s]) * 16)
            }
        }
        times.free(); curves.free(); coefficients.free(); arcs.free(); blends.free(); keys.free()
        times = t; curves = cv; coefficients = co; arcs = ar; blends = bl; keys = ks
        garbage = 0
    }

    /// The segment and local parameter of progress u in slot s (`arcs`: the track may hold
    /// slots with inverse arc-length tables).
    @inline(__always)
    func locate(_ s: Int, _ u: Double, curveTable: UnsafePointer<UnitBezier>, arcs: Bool = true)
        -> (segment: Int, local: Double) {
        let hint = Int(lastSegment[s])
        let (i, x) = locateSegment(u, times: times.base + Int(timeStart[s]), curves: curves.base + Int(segmentStart[s]),
                                   segments: Int(segmentCount[s]), from: hint, curveTable: curveTable)
        if i != hint { lastSegment[s] = Int32(truncatingIfNeeded: i) }
        return (i, arcs && arcStart[s] >= 0 ? invertArc(s, i, x) : x)
    }

    /// A whole-transform slot flagged `decompose`: segment `i` at parameter `x` by
    /// decomposition when its keys turn, shear or have perspective (else the entries' value
    /// already in `out`, less the cumulative span), then each cumulative repetition
    /// concatenating the last key. Writes the 16 lanes at `out`.
    @inline(never)
    private func evaluateMatrix(_ s: Int, segment i: Int, _ x: Double, iteration k: Double, into out: UnsafeMutablePointer<Double>) {
        // Key j of the slot, exactly as given.
        let keyBase = keys.base + Int(keyStart[s])
        @inline(__always) func key(_ j: Int) -> CATransform3D { LaneValue.transform(keyBase + j * 16) }
        var m: CATransform3D
        if blendStart[s] >= 0, case let blend = blends.base[Int(blendStart[s]) + i], blend.mode != .linear {
            m = blend.value(at: x, from: key(i), to: key(i + 1))
        } else {
            for c in 0..<16 { out[c] -= k * span[s * 16 + c] }
            m = LaneValue.transform(out)
        }
        if k > 0 { m = CATransform3DConcat(m, TransformBlend.power(key(Int(keyCount[s]) - 1), Int(k))) }
        LaneValue.store(m, into: out)
    }

    @inline(__always)
    private func invertArc(_ s: Int, _ i: Int, _ x: Double) -> Double {
        CompiledKeyframes.invertArc(x, table: UnsafeBufferPointer(start: arcs.base, count: arcs.count),
                                    tableBase: Int(arcStart[s]) + i * CompiledKeyframes.arcStride,
                                    coefficients: UnsafeBufferPointer(start: coefficients.base, count: coefficients.count),
                                    coefficientBase: Int(coefficientStart[s]) + i * width * 4, width: width)
    }

    /// Evaluates every slot at its entry's progress; writes presentation lanes (or scratch
    /// for composed slots) and tangent angles for rotating slots.
    func evaluate(progress prog: UnsafeMutablePointer<Double>, phase: UnsafeMutablePointer<UInt8>,
                  iteration: UnsafeMutablePointer<Double>, curveTable: [UnitBezier],
                  presentation pres: UnsafeMutablePointer<Double>, model: UnsafeMutablePointer<Double>) {
        curveTable.withUnsafeBufferPointer { table in
            if pooledSlots < count { evaluateSchedules(prog, phase, iteration, table.baseAddress!, pres, model) }
            // Two copies of the loop: inlined in the one without tables, the inversion made
            // the keyframe loop 6 instructions longer per slot (139 -> 145).
            if arcSlots > 0 {
                evaluate(prog, phase, iteration, table.baseAddress!, pres, model, arcs: true)
            } else if pooledSlots > 0 {
                evaluate(prog, phase, iteration, table.baseAddress!, pres, model, arcs: false)
            }
            if decomposedSlots > 0 { evaluateDecomposed(prog, phase, iteration, table.baseAddress!, pres) }
        }
    }

    /// The slots flagged `decompose`, again: their entries' values (written by the loop over
    /// every slot) become the decomposed and concatenated transform (`evaluateMatrix`).
    @inline(never)
    private func evaluateDecomposed(_ prog: UnsafeMutablePointer<Double>, _ phase: UnsafeMutablePointer<UInt8>,
                                    _ iteration: UnsafeMutablePointer<Double>, _ curveTable: UnsafePointer<UnitBezier>,
                                    _ pres: UnsafeMutablePointer<Double>) {
        for s in 0..<count where flags[s] & SlotFlags.decompose != 0 {
            let e = Int(timing[s])
            guard phase[e] == TimingPhase.active.rawValue else { continue }
            let (i, x) = locate(s, prog[e], curveTable: curveTable)
            let f = flags[s]
            let k = f & SlotFlags.cumulative != 0 ? iteration[e] : 0
            let out = f & SlotFlags.compose != 0 ? scratch.base + s * width : pres + (Int(layer[s]) * propertyWidth + offset)
            evaluateMatrix(s, segment: i, x, iteration: k, into: out)
        }
    }

    /// The slots of each schedule, member by member: the segment and its local parameter
    /// are found once for each run of members on one timing entry (all of them, for
    /// animations added together), and each member's coefficients are the next in the
    /// segment's slab.
    @inline(never)
    private func evaluateSchedules(_ prog: UnsafeMutablePointer<Double>, _ phase: UnsafeMutablePointer<UInt8>,
                                   _ iteration: UnsafeMutablePointer<Double>, _ curveTable: UnsafePointer<UnitBezier>,
                                   _ pres: UnsafeMutablePointer<Double>, _ model: UnsafeMutablePointer<Double>) {
        let w = width, pw = propertyWidth, off = offset
        let active = TimingPhase.active.rawValue, inactive = TimingPhase.inactive.rawValue
        for g in 0..<schedules.count where schedules[g].count > 0 {
            var sc = schedules[g]
            let stride = sc.stride
            var lastEntry = -1, ph: UInt8 = 0, x = 0.0
            var slab = sc.coefficients.base
            for m in 0..<sc.count {
                let s = Int(sc.members[m])
                let e = Int(timing[s])
                if e != lastEntry {
                    lastEntry = e
                    ph = phase[e]
                    if ph == active {
                        let (i, local) = sc.locate(prog[e], curveTable: curveTable)
                        x = local
                        slab = sc.coefficients.base + i &* sc.capacity &* stride
                    }
                }
                let f = flags[s]
                let row = Int(layer[s])
                if ph != active {
                    if ph == inactive && f & SlotFlags.compose == 0 {
                        for c in 0..<w { pres[row &* pw &+ off &+ c] = model[row &* pw &+ off &+ c] }
                    }
                    continue
                }
                let out = f & SlotFlags.compose != 0 ? scratch.base + s &* w : pres + (row &* pw &+ off)
                let q = slab + m &* stride
                if f & SlotFlags.cumulative == 0 {
                    for c in 0..<w {
                        let l = q + c &<< 2
                        out[c] = ((l[0] * x + l[1]) * x + l[2]) * x + l[3]
                    }
                } else {
                    let k = iteration[e], spans = span.base + s &* w
                    for c in 0..<w {
                        let l = q + c &<< 2
                        out[c] = ((l[0] * x + l[1]) * x + l[2]) * x + l[3] + k * spans[c]
                    }
                }
            }
            schedules[g].lastSegment = sc.lastSegment
        }
    }

    @inline(__always)
    private func evaluate(_ prog: UnsafeMutablePointer<Double>, _ phase: UnsafeMutablePointer<UInt8>,
                          _ iteration: UnsafeMutablePointer<Double>, _ curveTable: UnsafePointer<UnitBezier>,
                          _ pres: UnsafeMutablePointer<Double>, _ model: UnsafeMutablePointer<Double>, arcs: Bool) {
        let w = width, pw = propertyWidth, off = offset
        let co = coefficients.base
        for s in 0..<count where schedule[s] < 0 {
            let e = Int(timing[s])
            let ph = phase[e]
            let row = Int(layer[s])
            let f = flags[s]
            if ph != TimingPhase.active.rawValue {
                angle[s] = .nan
                if ph == TimingPhase.inactive.rawValue && f & SlotFlags.compose == 0 {
                    for c in 0..<w { pres[row * pw + off + c] = model[row * pw + off + c] }
                }
                continue
            }
            let (i, x) = locate(s, prog[e], curveTable: curveTable, arcs: arcs)
            // Wrapping index arithmetic: indices are in range by construction, and checked
            // arithmetic was a third of the loop's instructions.
            let base = Int(coefficientStart[s]) &+ i &* (w &<< 2)
            let k = f & SlotFlags.cumulative != 0 ? iteration[e] : 0
            let out = f & SlotFlags.compose != 0 ? scratch.base + s &* w : pres + (row &* pw &+ off)
            let spans = span.base + s &* w
            for c in 0..<w {
                let q = co + (base &+ c &<< 2)
                out[c] = ((q[0] * x + q[1]) * x + q[2]) * x + q[3] + k * spans[c]
            }
            if f & SlotFlags.rotate != 0 && w >= 2 {
                func slope(_ c: Int) -> Double {
                    let a = co[base + c * 4], b = co[base + c * 4 + 1], cc = co[base + c * 4 + 2]
                    return (3 * a * x + 2 * b) * x + cc
                }
                var dx = slope(0), dy = slope(1)
                if dx == 0 && dy == 0 {
                    // A cusp: look just inside the segment.
                    let xe = x < 0.5 ? 1e-6 : 1 - 1e-6
                    let a0 = co[base], b0 = co[base + 1], c0 = co[base + 2]
                    let a1 = co[base + 4], b1 = co[base + 5], c1 = co[base + 6]
                    dx = (3 * a0 * xe + 2 * b0) * xe + c0
                    dy = (3 * a1 * xe + 2 * b1) * xe + c1
                }
                var ang = (dy == 0 && dx == 0) ? 0 : atan2Double(dy, dx)
                if f & SlotFlags.rotateReverse != 0 { ang += Double.pi }
                angle[s] = ang
            }
        }
    }
}

@inline(__always) func atan2Double(_ y: Double, _ x: Double) -> Double {
    #if canImport(Glibc)
    return Glibc.atan2(y, x)
    #else
    return Foundation.atan2(y, x)
    #endif
}
