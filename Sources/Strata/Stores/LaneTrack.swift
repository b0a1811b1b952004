/// The running animations that write one range of lanes of one property (all of `position`,
/// or only `position.x`), as columns in blocks of 8 lanes: one SIMD8 step evaluates 8
/// animations. Values are `from + delta * progress`, with `progress` read from the
/// animation's timing entry; the result is scattered into the layer store's presentation
/// column. Adding appends; removing swaps the last animation into the hole (O(1)).
final class LaneTrack {
    let property: PropertyID
    /// Lanes of the whole property, and the range this track writes.
    let propertyWidth: Int
    let offset: Int
    let width: Int

    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var capacity = 0
    @exclusivity(unchecked) var layer: Column<Int32>
    @exclusivity(unchecked) var timing: Column<Int32>
    @exclusivity(unchecked) var record: Column<Int32>
    /// 1 when the animation's value must be composed with others on the same layer property
    /// (several animations, or additive): it then goes to `scratch`, not to the layer.
    @exclusivity(unchecked) var compose: Column<UInt8>
    /// `[(block * width + c) * 8 + lane]`, or `[slot * width + c]` when `interleaved`
    /// (`lane(s, c)` is the index either way).
    @exclusivity(unchecked) var from: Column<Double>
    @exclusivity(unchecked) var delta: Column<Double>
    @exclusivity(unchecked) var scratch: Column<Double>
    /// Per block of 8 slots: 1 when it is full and its layers are 8 consecutive rows (their
    /// presentation values one run of memory), kept by `append` and `remove`, so the kernel
    /// tests a byte instead of the 8 rows every frame.
    @exclusivity(unchecked) var runs: Column<UInt8>
    /// Whole-transform tracks (`transform`, `sublayerTransform`): a slot whose pair of
    /// matrices interpolates by decomposition (more than scale and translation) carries
    /// `SlotFlags.decompose` and the index in `blends` of its `TransformBlend` (decomposed
    /// once, at `add`); other slots hold -1. Other tracks keep minimal columns they never
    /// touch.
    let isMatrix: Bool
    /// 2-, 4- and 16-lane tracks keep each slot's lanes together: a block of 8 slots is 2,
    /// 4 or 16 vectors of 8 values already in the order of the layers' presentation rows,
    /// so 8 consecutive rows take whole-vector stores with no transpose, and a scattered row
    /// one 2- or 4-lane store (two 8-lane stores for a matrix) instead of one scalar store
    /// per lane. (A whole transform that decomposes keeps its parts lane by lane, `parts`.)
    let interleaved: Bool
    /// `lane(s, c)` without a branch: slots per group of lanes (8 in the block layout, 1
    /// interleaved) as a shift, and the mask of a slot's place in its group.
    private let laneShift: Int
    private let laneMask: Int
    @exclusivity(unchecked) var blendOf: Column<Int32>
    @exclusivity(unchecked) var blends: Column<TransformBlend>
    @exclusivity(unchecked) private var blendCount = 0
    @exclusivity(unchecked) private var freeBlends: [Int32] = []
    /// Whole-transform tracks: each decomposed slot's blend as `TransformBlend.partCount`
    /// numbers in the block layout (`[(block * partCount + i) * 8 + lane]`), so a block of 8
    /// decomposed slots is evaluated in SIMD (`DecomposedKernel`).
    @exclusivity(unchecked) var parts: Column<Double>
    /// One block of results (64-byte aligned; 16 vectors, a block of whole transforms),
    /// allocated once; the render worker's own.
    let blockBuffer = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 64)
    let workerBuffer = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 64)

    init(property: PropertyID, offset: Int, width: Int) {
        self.property = property
        self.propertyWidth = PropertyTable[property].width
        self.offset = offset
        self.width = width
        let c = 64
        capacity = c
        layer = Column(capacity: c, fill: 0)
        timing = Column(capacity: c, fill: 0)
        record = Column(capacity: c, fill: -1)
        compose = Column(capacity: c, fill: 0)
        from = Column(capacity: c * width, fill: 0)
        delta = Column(capacity: c * width, fill: 0)
        scratch = Column(capacity: c * width, fill: 0)
        runs = Column(capacity: c / 8, fill: 0)
        isMatrix = offset == 0 && width == 16 && PropertyTable[property].kind == .transform
        interleaved = width == 2 || width == 4 || width == 16
        laneShift = interleaved ? 0 : 3
        laneMask = (1 << laneShift) - 1
        blendOf = Column(capacity: isMatrix ? c : 8, fill: -1)
        blends = Column(capacity: 8, fill: TransformBlend(from: CATransform3DIdentity, to: CATransform3DIdentity))
        parts = Column(capacity: isMatrix ? c * TransformBlend.partCount : 8, fill: 0)
    }

    deinit {
        layer.free(); timing.free(); record.free(); compose.free()
        from.free(); delta.free(); scratch.free(); runs.free(); blendOf.free(); blends.free(); parts.free()
        blockBuffer.deallocate()
        workerBuffer.deallocate()
    }

    var bytesPerAnimation: Int { 4 + 4 + 4 + 1 + 3 * 8 * width }
    /// Bytes of the track's columns (capacity, not count) and its two block buffers.
    var bytesAllocated: Int {
        capacity * bytesPerAnimation + capacity / 8 + 2048
            + blendOf.capacity * 4 + blends.capacity * MemoryLayout<TransformBlend>.stride + parts.capacity * 8
    }

    /// Recomputes the run flag of the block holding slot s.
    @inline(__always)
    private func updateRun(_ s: Int) {
        let b = s >> 3, s0 = b << 3
        var run: UInt8 = s0 + 8 <= count ? 1 : 0
        if run == 1 {
            let r0 = layer[s0]
            for k in 1..<8 where layer[s0 + k] != r0 &+ Int32(k) { run = 0 }
        }
        runs[b] = run
    }

    /// Index of component c of slot s in `from`, `delta` and `scratch`.
    @inline(__always) func lane(_ s: Int, _ c: Int) -> Int {
        ((s &>> laneShift) &* width &+ c) &<< laneShift | (s & laneMask)
    }

    func append(layer l: Int32, timing t: Int32, record r: Int32, from f: UnsafePointer<Double>,
                to: UnsafePointer<Double>, compose cflag: Bool) -> Int32 {
        if count == capacity { grow() }
        let s = count
        count += 1
        layer[s] = l; timing[s] = t; record[s] = r; compose[s] = cflag ? 1 : 0
        for c in 0..<width {
            from[lane(s, c)] = f[c]
            delta[lane(s, c)] = to[c] - f[c]
            scratch[lane(s, c)] = f[c]
        }
        if isMatrix { appendBlend(s, from: f, to: to) }
        // A block's run is known once its eighth slot is filled.
        if s & 7 == 7 { updateRun(s) } else if s & 7 == 0 { runs[s >> 3] = 0 }
        return Int32(s)
    }

    /// A whole-transform slot's blend: kept (and the slot flagged) when its pair interpolates
    /// by decomposition. Out of line: the other tracks' appends stay small.
    @inline(never)
    private func appendBlend(_ s: Int, from f: UnsafePointer<Double>, to: UnsafePointer<Double>) {
        let blend = TransformBlend(from: LaneValue.transform(f), to: LaneValue.transform(to))
        guard blend.mode != .linear else { blendOf[s] = -1; return }
        let k: Int32
        if let free = freeBlends.popLast() { k = free } else {
            if blendCount == blends.capacity { blends.grow(to: blendCount * 2) }
            k = Int32(blendCount)
            blendCount += 1
        }
        blends[Int(k)] = blend
        blendOf[s] = k
        compose[s] |= SlotFlags.decompose
        let n = TransformBlend.partCount
        blend.writeParts { i, v in parts[((s >> 3) * n + i) << 3 | (s & 7)] = v }
    }

    /// Removes slot s; returns the record whose slot changed (moved into s), or -1.
    func remove(_ s: Int32) -> Int32 {
        let s = Int(s)
        let last = count - 1
        count -= 1
        if isMatrix {
            if blendOf[s] >= 0 { freeBlends.append(blendOf[s]) }
            blendOf[s] = blendOf[last]
            blendOf[last] = -1
            if s != last && blendOf[s] >= 0 {
                let n = TransformBlend.partCount
                for i in 0..<n { parts[((s >> 3) * n + i) << 3 | (s & 7)] = parts[((last >> 3) * n + i) << 3 | (last & 7)] }
            }
        }
        // The last block lost a slot (or its last slot moved into s's block).
        runs[last >> 3] = 0
        guard s != last else { compose[s] = 0; return -1 }
        let flags = compose[last]
        layer[s] = layer[last]; timing[s] = timing[last]; record[s] = record[last]; compose[s] = flags
        compose[last] = 0
        for c in 0..<width {
            from[lane(s, c)] = from[lane(last, c)]
            delta[lane(s, c)] = delta[lane(last, c)]
        }
        // Scratch lanes are read only for composed slots, and the frame writes them before
        // composing: an uncomposed slot's are not carried (the hole's line would be a miss,
        // as nothing else of the frame touched it).
        if flags & SlotFlags.compose != 0 {
            for c in 0..<width { scratch[lane(s, c)] = scratch[lane(last, c)] }
        }
        updateRun(s)
        return record[s]
    }

    private func grow() {
        let c = capacity * 2
        layer.grow(to: c, fill: 0); timing.grow(to: c, fill: 0); record.grow(to: c, fill: -1)
        compose.grow(to: c, fill: 0)
        from.grow(to: c * width, fill: 0); delta.grow(to: c * width, fill: 0); scratch.grow(to: c * width, fill: 0)
        runs.grow(to: c / 8, fill: 0)
        if isMatrix { blendOf.grow(to: c); parts.grow(to: c * TransformBlend.partCount) }
        capacity = c
    }

    /// The from and to values of slot s (to = from + delta), `width` lanes each.
    func endpoints(_ s: Int32) -> (from: [Double], to: [Double]) {
        var f = [Double](), t = [Double]()
        for c in 0..<width {
            let i = lane(Int(s), c)
            f.append(from[i]); t.append(from[i] + delta[i])
        }
        return (f, t)
    }

    /// The value of slot s at its timing entry's current progress (scalar path).
    func value(_ s: Int32, progress p: Double, into out: UnsafeMutablePointer<Double>) {
        for c in 0..<width {
            let i = lane(Int(s), c)
            out[c] = from[i] + delta[i] * p
        }
    }

    // MARK: the frame kernel

    /// Evaluates every animation of the track and writes presentation values. Full blocks
    /// whose 8 timing entries are all active and that need no composition take the SIMD
    /// path; the rest (tail, pending or finished timings, composed lanes) go lane by lane.
    /// No allocation, no dictionary, no existential.
    func evaluate(progress prog: UnsafeMutablePointer<Double>, phase: UnsafeMutablePointer<UInt8>,
                  iteration: UnsafeMutablePointer<Double>,
                  presentation pres: UnsafeMutablePointer<Double>, model: UnsafeMutablePointer<Double>) {
        let fullBlocks = count >> 3
        evaluateBlocks(0..<fullBlocks, buffer: blockBuffer, progress: prog, phase: phase, iteration: iteration,
                       presentation: pres, model: model)
        evaluateTail(progress: prog, phase: phase, iteration: iteration, presentation: pres, model: model)
    }

    /// Whole blocks of 8 slots.
    var fullBlocks: Int { count >> 3 }

    /// The slots after the last whole block.
    func evaluateTail(progress prog: UnsafeMutablePointer<Double>, phase: UnsafeMutablePointer<UInt8>,
                      iteration: UnsafeMutablePointer<Double>,
                      presentation pres: UnsafeMutablePointer<Double>, model: UnsafeMutablePointer<Double>) {
        let fullBlocks = count >> 3
        let tail = count - (fullBlocks << 3)
        if tail > 0 { evaluateLanes(fullBlocks << 3, tail, prog, phase, iteration, pres, model) }
    }

    /// The blocks `range` (whole blocks of 8 slots). Two ranges may run on two threads at
    /// once, each with its own `buffer` (64 bytes, 64-aligned): a track's uncomposed slots
    /// write distinct presentation rows, composed ones their own scratch lanes.
    func evaluateBlocks(_ range: Range<Int>, buffer: UnsafeMutableRawPointer,
                        progress prog: UnsafeMutablePointer<Double>, phase: UnsafeMutablePointer<UInt8>,
                        iteration: UnsafeMutablePointer<Double>,
                        presentation pres: UnsafeMutablePointer<Double>, model: UnsafeMutablePointer<Double>) {
        let w = width, pw = propertyWidth, off = offset
        let lay = layer.base, tim = timing.base, comp = compose.base
        let fromBase = from.base, deltaBase = delta.base
        // The block's values go through an aligned buffer so the arithmetic stays in vector
        // registers (8 lanes: two AVX2 fused multiply-adds) and only the scatter is scalar.
        let lanes = buffer.assumingMemoryBound(to: Double.self)
        // Word tests on the block's 8 Int32 entries (4 UInt64 words): the SIMD8<Int32>
        // comparison was lowered to a chain of partial tests and branches.
        let pair: UInt64 = 1 | 1 << 32   // adds 1 to both halves of a word
        let vectorRuns = w == pw && w <= 4
        var b = range.lowerBound
        let end = range.upperBound
        while b < end {
            let s0 = b &<< 3
            // A transaction's animations share one timing entry: one load, not a gather.
            let t = UnsafeRawPointer(tim + s0)
            let t0 = t.loadUnaligned(as: UInt64.self)
            let e0 = Int32(truncatingIfNeeded: t0)
            let p: SIMD8<Double>
            let t1 = t.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let t2 = t.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
            let t3 = t.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            let shared = t0 == UInt64(UInt32(bitPattern: e0)) &* pair && t1 == t0 && t2 == t0 && t3 == t0
            if shared {
                p = SIMD8<Double>(repeating: prog[Int(e0)])
            } else if t0 == UInt64(UInt32(bitPattern: e0)) &* pair &+ (1 << 32) && t1 == t0 &+ 2 &* pair
                        && t2 == t0 &+ 4 &* pair && t3 == t0 &+ 6 &* pair && e0 >= 0 {
                // Animations with timings of their own, added in order: entries e0 ..< e0 + 8,
                // whose progress is one vector load, not a gather.
                p = UnsafeRawPointer(prog + Int(e0)).loadUnaligned(as: SIMD8<Double>.self)
            } else {
                let entries = t.loadUnaligned(as: SIMD8<Int32>.self)
                p = SIMD8<Double>(prog[Int(entries[0])], prog[Int(entries[1])], prog[Int(entries[2])],
                                  prog[Int(entries[3])], prog[Int(entries[4])], prog[Int(entries[5])],
                                  prog[Int(entries[6])], prog[Int(entries[7])])
            }
            let composeBits = UnsafeRawPointer(comp + s0).loadUnaligned(as: UInt64.self)
            // Every lane running (progress not NaN): one vector compare of the mask words.
            if composeBits == 0 && maskLanes(p .== p) == SIMD8<Int64>(repeating: -1) {
                if interleaved {
                    storeInterleaved(b, p: p, shared: shared, run: vectorRuns && runs.base[b] != 0,
                                     rows: lay + s0, presentation: pres)
                    b &+= 1
                    continue
                }
                // Eight consecutive rows of a whole 1-lane property: one vector store.
                if vectorRuns && runs.base[b] != 0 {
                    storeConsecutive(b, p: p, to: pres + Int(lay[s0]) &* pw)
                    b &+= 1
                    continue
                }
                let rows = UnsafeRawPointer(lay + s0).loadUnaligned(as: SIMD8<Int32>.self)
                let base = SIMD8<Int>(truncatingIfNeeded: rows) &* pw &+ off
                for c in 0..<w {
                    let li = (b &* w &+ c) &<< 3
                    let f = UnsafeRawPointer(fromBase + li).load(as: SIMD8<Double>.self)
                    let d = UnsafeRawPointer(deltaBase + li).load(as: SIMD8<Double>.self)
                    buffer.storeBytes(of: f.addingProduct(d, p), as: SIMD8<Double>.self)
                    for l in 0..<8 { pres[base[l] &+ c] = lanes[l] }
                }
            } else if isMatrix && composeBits == 0x1010_1010_1010_1010 && maskLanes(p .== p) == SIMD8<Int64>(repeating: -1) {
                // Eight running whole transforms that interpolate by decomposition (and need
                // nothing else): the SIMD kernel.
                evaluateDecomposed(b, p: p, buffer: buffer, rows: lay + s0, presentation: pres)
            } else {
                evaluateLanes(s0, 8, prog, phase, iteration, pres, model)
            }
            b &+= 1
        }
    }

    /// Block `b` of 8 decomposed whole transforms at progress `p`: `DecomposedKernel` into
    /// `buffer` (16 vectors), then scattered to the 8 layers' rows.
    @inline(never)
    private func evaluateDecomposed(_ b: Int, p: SIMD8<Double>, buffer: UnsafeMutableRawPointer,
                                    rows: UnsafeMutablePointer<Int32>, presentation pres: UnsafeMutablePointer<Double>) {
        DecomposedKernel.evaluate(UnsafeRawPointer(parts.base + b &* (TransformBlend.partCount &<< 3)), t: p, into: buffer)
        let v = buffer.assumingMemoryBound(to: Double.self)
        for l in 0..<8 {
            let o = pres + Int(rows[l]) &* 16
            for c in 0..<16 { o[c] = v[c &<< 3 | l] }
        }
    }

    /// Block `b` of a whole 1-lane property whose 8 layers are consecutive rows: their
    /// presentation values are one run of 8 doubles at `out`, one vector store.
    @inline(__always)
    private func storeConsecutive(_ b: Int, p: SIMD8<Double>, to out: UnsafeMutablePointer<Double>) {
        let f = UnsafeRawPointer(from.base + b &<< 3).load(as: SIMD8<Double>.self)
        let d = UnsafeRawPointer(delta.base + b &<< 3).load(as: SIMD8<Double>.self)
        UnsafeMutableRawPointer(out).storeBytes(of: f.addingProduct(d, p), as: SIMD8<Double>.self)
    }

    /// Block `b` of an interleaved (2-, 4- or 16-lane) track, all 8 running and uncomposed:
    /// the block's 8 x width values are width vectors of 8 in row order. Each vector's
    /// progress is p's lanes repeated width times (p itself when the block shares one
    /// entry). `run`: the 8 rows are consecutive and the track writes whole rows, so each
    /// vector is stored whole; otherwise each layer's lanes are stored at its row (a matrix
    /// is two whole vectors either way).
    @inline(__always)
    private func storeInterleaved(_ b: Int, p: SIMD8<Double>, shared: Bool, run: Bool,
                                  rows: UnsafeMutablePointer<Int32>, presentation pres: UnsafeMutablePointer<Double>) {
        let w = width, pw = propertyWidth, off = offset
        let fb = UnsafeRawPointer(from.base + b &* w &<< 3), db = UnsafeRawPointer(delta.base + b &* w &<< 3)
        @inline(__always) func row(_ l: Int) -> UnsafeMutableRawPointer {
            UnsafeMutableRawPointer(pres + (Int(rows[l]) &* pw &+ off))
        }
        let out = UnsafeMutableRawPointer(pres + Int(rows[0]) &* pw)
        // Vector k: its 8 values and, one layer after the other, the layers' progress.
        @inline(__always) func vector(_ k: Int, _ pk: SIMD8<Double>) -> SIMD8<Double> {
            fb.load(fromByteOffset: k &<< 6, as: SIMD8<Double>.self)
                .addingProduct(db.load(fromByteOffset: k &<< 6, as: SIMD8<Double>.self), pk)
        }
        if w == 16 {
            // Half a layer a vector.
            if shared {
                for k in 0..<16 { row(k &>> 1).storeBytes(of: vector(k, p), toByteOffset: (k & 1) &<< 6, as: SIMD8<Double>.self) }
            } else {
                for k in 0..<16 {
                    let v = vector(k, SIMD8(repeating: p[k &>> 1]))
                    row(k &>> 1).storeBytes(of: v, toByteOffset: (k & 1) &<< 6, as: SIMD8<Double>.self)
                }
            }
        } else if w == 4 {
            // Two layers a vector.
            @inline(__always) func progress(_ k: Int) -> SIMD8<Double> {
                shared ? p : SIMD8(lowHalf: SIMD4(repeating: p[2 &* k]), highHalf: SIMD4(repeating: p[2 &* k &+ 1]))
            }
            let v0 = vector(0, progress(0)), v1 = vector(1, progress(1))
            let v2 = vector(2, progress(2)), v3 = vector(3, progress(3))
            if run {
                out.storeBytes(of: v0, as: SIMD8<Double>.self)
                out.storeBytes(of: v1, toByteOffset: 64, as: SIMD8<Double>.self)
                out.storeBytes(of: v2, toByteOffset: 128, as: SIMD8<Double>.self)
                out.storeBytes(of: v3, toByteOffset: 192, as: SIMD8<Double>.self)
            } else {
                row(0).storeBytes(of: v0.lowHalf, as: SIMD4<Double>.self)
                row(1).storeBytes(of: v0.highHalf, as: SIMD4<Double>.self)
                row(2).storeBytes(of: v1.lowHalf, as: SIMD4<Double>.self)
                row(3).storeBytes(of: v1.highHalf, as: SIMD4<Double>.self)
                row(4).storeBytes(of: v2.lowHalf, as: SIMD4<Double>.self)
                row(5).storeBytes(of: v2.highHalf, as: SIMD4<Double>.self)
                row(6).storeBytes(of: v3.lowHalf, as: SIMD4<Double>.self)
                row(7).storeBytes(of: v3.highHalf, as: SIMD4<Double>.self)
            }
        } else {
            // Four layers a vector.
            @inline(__always) func progress(_ k: Int) -> SIMD8<Double> {
                guard !shared else { return p }
                let a = p[4 &* k], b = p[4 &* k &+ 1], c = p[4 &* k &+ 2], d = p[4 &* k &+ 3]
                return SIMD8(a, a, b, b, c, c, d, d)
            }
            let v0 = vector(0, progress(0)), v1 = vector(1, progress(1))
            if run {
                out.storeBytes(of: v0, as: SIMD8<Double>.self)
                out.storeBytes(of: v1, toByteOffset: 64, as: SIMD8<Double>.self)
            } else {
                row(0).storeBytes(of: v0.lowHalf.lowHalf, as: SIMD2<Double>.self)
                row(1).storeBytes(of: v0.lowHalf.highHalf, as: SIMD2<Double>.self)
                row(2).storeBytes(of: v0.highHalf.lowHalf, as: SIMD2<Double>.self)
                row(3).storeBytes(of: v0.highHalf.highHalf, as: SIMD2<Double>.self)
                row(4).storeBytes(of: v1.lowHalf.lowHalf, as: SIMD2<Double>.self)
                row(5).storeBytes(of: v1.lowHalf.highHalf, as: SIMD2<Double>.self)
                row(6).storeBytes(of: v1.highHalf.lowHalf, as: SIMD2<Double>.self)
                row(7).storeBytes(of: v1.highHalf.highHalf, as: SIMD2<Double>.self)
            }
        }
    }

    /// A decomposed (or cumulative) whole-transform slot: its blend at `progress`, each cumulative
    /// repetition concatenating the end value; written to `out` (16 lanes of a presentation
    /// row) or, when composed, to the slot's scratch lanes.
    @inline(never)
    private func evaluateMatrix(_ s: Int, progress: Double, iteration: Double, into out: UnsafeMutablePointer<Double>?) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 32) { buffer in
            let v = buffer.baseAddress!, end = v + 16
            for c in 0..<16 {
                let i = lane(s, c)
                v[c] = from[i]
                end[c] = from[i] + delta[i]
            }
            let to = LaneValue.transform(end)
            // Pairs that only scale and translate have no blend: entry by entry.
            var m = blendOf[s] >= 0 ? blends[Int(blendOf[s])].value(at: progress, from: LaneValue.transform(v), to: to)
                : TransformBlend.linear(at: progress, from: LaneValue.transform(v), to: to)
            if iteration > 0 { m = CATransform3DConcat(m, TransformBlend.power(to, Int(iteration))) }
            LaneValue.store(m, into: v)
            if let out {
                for c in 0..<16 { out[c] = v[c] }
            } else {
                for c in 0..<16 { scratch[lane(s, c)] = v[c] }
            }
        }
    }

    @inline(never)
    private func evaluateLanes(_ s0: Int, _ n: Int, _ prog: UnsafeMutablePointer<Double>,
                               _ phase: UnsafeMutablePointer<UInt8>, _ iteration: UnsafeMutablePointer<Double>,
                               _ pres: UnsafeMutablePointer<Double>, _ model: UnsafeMutablePointer<Double>) {
        let w = width, pw = propertyWidth, off = offset
        for s in s0..<(s0 + n) {
            let e = Int(timing[s])
            let ph = phase[e]
            let row = Int(layer[s])
            let f = compose[s]
            if ph == TimingPhase.active.rawValue {
                if f & SlotFlags.decompose != 0 || (isMatrix && f & SlotFlags.cumulative != 0) {
                    evaluateMatrix(s, progress: prog[e], iteration: f & SlotFlags.cumulative != 0 ? iteration[e] : 0,
                                   into: f & SlotFlags.compose != 0 ? nil : pres + (row * pw + off))
                    continue
                }
                // isCumulative: iteration k adds k * (to - from).
                let p = prog[e] + (f & SlotFlags.cumulative != 0 ? iteration[e] : 0)
                if f & SlotFlags.compose != 0 {
                    for c in 0..<w { let i = lane(s, c); scratch[i] = from[i] + delta[i] * p }
                } else {
                    for c in 0..<w { let i = lane(s, c); pres[row * pw + off + c] = from[i] + delta[i] * p }
                }
            } else if ph == TimingPhase.inactive.rawValue && f & SlotFlags.compose == 0 {
                for c in 0..<w { pres[row * pw + off + c] = model[row * pw + off + c] }
            }
        }
    }
}
