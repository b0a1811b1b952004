/// The basic (from, to, by) animations of custom keys whose values are `width` lanes wide
/// (a gradient's two colours are 8 lanes, a number 1), as columns in blocks of 8 slots: one
/// SIMD8 step evaluates component c of 8 animations, `from + delta * progress` (plus the
/// iteration for cumulative ones), with `progress` read from the animation's timing entry.
///
/// A slot that is the only animation of its layer's key (`direct`) writes its value straight
/// into the lanes of the `CustomLanes` holder the layer shows for the key (boxed when read),
/// so a frame costs no dictionary lookup, list walk or cast per animation. Other slots (the
/// key has several animations, or this one is additive) are composed per layer by the
/// engine's `composeCustom`, as are keyframe animations of custom keys; so are direct slots
/// in a frame where their animation is not active or their holder is not known yet (the
/// engine's `fallback`, which then hands the slot its holder).
///
/// Adding appends; removing swaps the last slot into the hole (O(1)).
final class CustomTrack {
    let width: Int
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var capacity = 0
    @exclusivity(unchecked) var layer: Column<Int32>
    @exclusivity(unchecked) var key: Column<Int32>
    @exclusivity(unchecked) var timing: Column<Int32>
    @exclusivity(unchecked) var record: Column<Int32>
    /// `CustomTrack.cumulative`, `CustomTrack.direct`.
    @exclusivity(unchecked) var flags: Column<UInt8>
    /// `[(block * width + c) * 8 + lane]`
    @exclusivity(unchecked) var from: Column<Double>
    @exclusivity(unchecked) var delta: Column<Double>
    /// A direct slot's holder (retained by the slot) and its lanes; nil until the fallback
    /// hands it one.
    @exclusivity(unchecked) var holder: Column<Unmanaged<CustomLanes>?>
    @exclusivity(unchecked) var lanes: Column<ColumnSpan<Double>?>

    static let cumulative: UInt8 = 1
    static let direct: UInt8 = 2

    init(width: Int) {
        self.width = width
        let c = 64
        capacity = c
        layer = Column(capacity: c, fill: 0)
        key = Column(capacity: c, fill: 0)
        timing = Column(capacity: c, fill: 0)
        record = Column(capacity: c, fill: -1)
        flags = Column(capacity: c, fill: 0)
        from = Column(capacity: c * width, fill: 0)
        delta = Column(capacity: c * width, fill: 0)
        holder = Column(capacity: c, fill: nil)
        lanes = Column(capacity: c, fill: nil)
    }

    deinit {
        for s in 0..<count { holder[s]?.release() }
        layer.free(); key.free(); timing.free(); record.free(); flags.free()
        from.free(); delta.free(); holder.free(); lanes.free()
    }

    /// Lane index of component c of slot s in the block layout.
    @inline(__always) func lane(_ s: Int, _ c: Int) -> Int { ((s >> 3) * width + c) << 3 | (s & 7) }

    func append(layer l: Int32, key k: Int32, timing t: Int32, record r: Int32, from f: [Double], delta d: [Double],
                cumulative: Bool, direct: Bool) -> Int32 {
        if count == capacity { grow() }
        let s = count
        count += 1
        layer[s] = l; key[s] = k; timing[s] = t; record[s] = r
        flags[s] = (cumulative ? CustomTrack.cumulative : 0) | (direct ? CustomTrack.direct : 0)
        holder[s] = nil; lanes[s] = nil
        for c in 0..<width {
            from[lane(s, c)] = f[c]
            delta[lane(s, c)] = d[c]
        }
        return Int32(s)
    }

    /// Slot s writes its value into `h`'s lanes from now on (nil: it has no holder).
    func setHolder(_ s: Int, _ h: CustomLanes?) {
        if let old = holder[s] {
            if let h, old.takeUnretainedValue() === h { return }
            old.release()
        }
        holder[s] = h.map { Unmanaged.passRetained($0) }
        lanes[s] = h?.lanesSpan
    }

    /// Makes slot s direct (its value to its holder) or composed (the engine's per-layer
    /// composition); a composed slot lets go of its holder.
    func setDirect(_ s: Int, _ direct: Bool) {
        if direct {
            flags[s] |= CustomTrack.direct
        } else {
            flags[s] &= ~CustomTrack.direct
            setHolder(s, nil)
        }
    }

    /// Removes slot s; returns the record of the slot moved into its place, or -1.
    func remove(_ s: Int32) -> Int32 {
        let s = Int(s)
        let last = count - 1
        count -= 1
        setHolder(s, nil)
        guard s != last else { flags[s] = 0; return -1 }
        layer[s] = layer[last]; key[s] = key[last]; timing[s] = timing[last]; record[s] = record[last]
        flags[s] = flags[last]; holder[s] = holder[last]; lanes[s] = lanes[last]
        flags[last] = 0; holder[last] = nil; lanes[last] = nil
        for c in 0..<width {
            from[lane(s, c)] = from[lane(last, c)]
            delta[lane(s, c)] = delta[lane(last, c)]
        }
        return record[s]
    }

    private func grow() {
        let c = capacity * 2
        layer.grow(to: c, fill: 0); key.grow(to: c, fill: 0); timing.grow(to: c, fill: 0); record.grow(to: c, fill: -1)
        flags.grow(to: c, fill: 0); holder.grow(to: c, fill: nil); lanes.grow(to: c, fill: nil)
        from.grow(to: c * width, fill: 0); delta.grow(to: c * width, fill: 0)
        capacity = c
    }

    var bytesAllocated: Int { capacity * (4 * 4 + 1 + 16 + 2 * 8 * width) }

    /// Evaluates every slot: a direct slot whose animation is active and that has a holder
    /// gets its value written there; every other slot that is direct is handed to
    /// `fallback` (composed slots are the engine's per-layer composition's).
    @inline(never)
    func evaluate(progress: UnsafeMutablePointer<Double>, phase: UnsafeMutablePointer<UInt8>,
                  iteration: UnsafeMutablePointer<Double>, fallback: (Int) -> Void) {
        let n = count, w = width
        let timingP = timing.base, flagsP = flags.base, lanesP = lanes.base
        let fromP = from.base, deltaP = delta.base
        let active = TimingPhase.active.rawValue
        var b = 0
        while b << 3 < n {
            let s0 = b << 3, inBlock = min(8, n - s0)
            // The block's progress (iterations added for cumulative slots), and which of its
            // slots are written here.
            var p = SIMD8<Double>.zero
            var write: UInt8 = 0
            for k in 0..<inBlock {
                let s = s0 + k, e = Int(timingP[s]), f = flagsP[s]
                guard f & CustomTrack.direct != 0 else { continue }
                if phase[e] == active, lanesP[s] != nil {
                    p[k] = progress[e] + (f & CustomTrack.cumulative != 0 ? iteration[e] : 0)
                    write |= 1 << UInt8(k)
                } else {
                    fallback(s)
                }
            }
            if write != 0 {
                let base = b * w
                for c in 0..<w {
                    let q = (base + c) << 3
                    let v = UnsafeRawPointer(fromP + q).loadUnaligned(as: SIMD8<Double>.self)
                        + UnsafeRawPointer(deltaP + q).loadUnaligned(as: SIMD8<Double>.self) * p
                    if write == 0xff {
                        for k in 0..<8 { lanesP[s0 + k].unsafelyUnwrapped[c] = v[k] }
                    } else {
                        for k in 0..<inBlock where write & (1 << UInt8(k)) != 0 { lanesP[s0 + k].unsafelyUnwrapped[c] = v[k] }
                    }
                }
            }
            b += 1
        }
    }

    /// Slot s's value now (`width` lanes) into `out`, at progress `p` (iterations included).
    func value(_ s: Int, progress p: Double, into out: UnsafeMutablePointer<Double>) {
        for c in 0..<width { out[c] = from[lane(s, c)] + delta[lane(s, c)] * p }
    }
}
