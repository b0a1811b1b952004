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
    /// `[(block * width + c) * 8 + lane]`
    @exclusivity(unchecked) var from: Column<Double>
    @exclusivity(unchecked) var delta: Column<Double>
    @exclusivity(unchecked) var scratch: Column<Double>
    /// One block of results (64-byte aligned), allocated once; the render worker's own.
    let blockBuffer = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
    let workerBuffer = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)

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
    }

    deinit {
        layer.free(); timing.free(); record.free(); compose.free()
        from.free(); delta.free(); scratch.free()
        blockBuffer.deallocate()
        workerBuffer.deallocate()
    }

    var bytesPerAnimation: Int { 4 + 4 + 4 + 1 + 3 * 8 * width }
    /// Bytes of the track's columns (capacity, not count) and its two block buffers.
    var bytesAllocated: Int { capacity * bytesPerAnimation + 128 }

    /// Lane index of component c of slot s in the block layout.
    @inline(__always) func lane(_ s: Int, _ c: Int) -> Int { ((s >> 3) * width + c) << 3 | (s & 7) }

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
        return Int32(s)
    }

    /// Removes slot s; returns the record whose slot changed (moved into s), or -1.
    func remove(_ s: Int32) -> Int32 {
        let s = Int(s)
        let last = count - 1
        count -= 1
        guard s != last else { compose[s] = 0; return -1 }
        layer[s] = layer[last]; timing[s] = timing[last]; record[s] = record[last]; compose[s] = compose[last]
        compose[last] = 0
        for c in 0..<width {
            from[lane(s, c)] = from[lane(last, c)]
            delta[lane(s, c)] = delta[lane(last, c)]
            scratch[lane(s, c)] = scratch[lane(last, c)]
        }
        return record[s]
    }

    private func grow() {
        let c = capacity * 2
        layer.grow(to: c, fill: 0); timing.grow(to: c, fill: 0); record.grow(to: c, fill: -1)
        compose.grow(to: c, fill: 0)
        from.grow(to: c * width, fill: 0); delta.grow(to: c * width, fill: 0); scratch.grow(to: c * width, fill: 0)
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
        let laneIndex = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        var b = range.lowerBound
        let end = range.upperBound
        while b < end {
            let s0 = b &<< 3
            // A transaction's animations share one timing entry: one load, not a gather.
            let entries = UnsafeRawPointer(tim + s0).loadUnaligned(as: SIMD8<Int32>.self)
            let e0 = entries[0]
            let p: SIMD8<Double>
            if entries == SIMD8<Int32>(repeating: e0) {
                p = SIMD8<Double>(repeating: prog[Int(e0)])
            } else {
                p = SIMD8<Double>(prog[Int(entries[0])], prog[Int(entries[1])], prog[Int(entries[2])],
                                  prog[Int(entries[3])], prog[Int(entries[4])], prog[Int(entries[5])],
                                  prog[Int(entries[6])], prog[Int(entries[7])])
            }
            let composeBits = UnsafeRawPointer(comp + s0).loadUnaligned(as: UInt64.self)
            if composeBits == 0 && all(p .== p) {
                let rows = UnsafeRawPointer(lay + s0).loadUnaligned(as: SIMD8<Int32>.self)
                let r0 = rows[0]
                if w == 1 && pw == 1 && rows == SIMD8<Int32>(repeating: r0) &+ laneIndex {
                    // Eight consecutive layers of a one-lane property: one contiguous store.
                    let li = b &<< 3
                    let f = UnsafeRawPointer(fromBase + li).load(as: SIMD8<Double>.self)
                    let d = UnsafeRawPointer(deltaBase + li).load(as: SIMD8<Double>.self)
                    UnsafeMutableRawPointer(pres + (Int(r0) &+ off)).storeBytes(of: f.addingProduct(d, p), as: SIMD8<Double>.self)
                    b &+= 1
                    continue
                }
                let base = SIMD8<Int>(truncatingIfNeeded: rows) &* pw &+ off
                for c in 0..<w {
                    let li = (b &* w &+ c) &<< 3
                    let f = UnsafeRawPointer(fromBase + li).load(as: SIMD8<Double>.self)
                    let d = UnsafeRawPointer(deltaBase + li).load(as: SIMD8<Double>.self)
                    buffer.storeBytes(of: f.addingProduct(d, p), as: SIMD8<Double>.self)
                    for l in 0..<8 { pres[base[l] &+ c] = lanes[l] }
                }
            } else {
                evaluateLanes(s0, 8, prog, phase, iteration, pres, model)
            }
            b &+= 1
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
