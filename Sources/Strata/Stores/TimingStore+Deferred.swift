/// The entries the flat pass leaves out (`vectorKind` 8 and up): group members, timed on
/// their group's eased local time, and entries in a layer's time space, on that layer's local
/// time, parents before children.
extension TimingStore {
    /// Group members and entries in layer time spaces, parents first: a member on its
    /// group's eased local time (none when the group has no effect), a space's entry on its
    /// layer's local time.
    func evaluateDeferred(now: Double, localTime: (Int32, Double) -> Double) {
        if deferredChanged { listDeferred() }
        let n = deferredEntries.count
        var k = 0, q = 0
        while k < n {
            if q < memberBlockAt.count && Int(memberBlockAt[q]) == k {
                if !evaluateMemberBlock(q, at: k) {
                    for j in 0..<8 { evaluateDeferredEntry(Int(deferredEntries[k &+ j]), now: now, localTime: localTime) }
                }
                k &+= 8
                q &+= 1
                continue
            }
            evaluateDeferredEntry(Int(deferredEntries[k]), now: now, localTime: localTime)
            k &+= 1
        }
    }

    @inline(__always)
    private func evaluateDeferredEntry(_ i: Int, now: Double, localTime: (Int32, Double) -> Double) {
        guard alive[i] && committed[i] else { return }
        let p = params[i]
        if p.parent < 0 {
            evaluateEntry(i, parentTime: localTime(p.space, now))
            return
        }
        let t = childTime[Int(p.parent)]
        if t.isNaN {
            // The group has no effect now: neither have its children.
            phase[i] = TimingPhase.inactive.rawValue
            progress[i] = .nan
            childTime[i] = .nan
        } else {
            evaluateEntry(i, parentTime: t)
        }
    }

    /// `deferredEntries` again: the live entries of kind 8 and up, by depth, and in each depth
    /// the simple group members (kind 9 and 10) first, in blocks of 8 whose fixed inputs go to
    /// `memberTable` (a frame then gathers only each member's group time).
    @inline(never)
    private func listDeferred() {
        deferredEntries.removeAll(keepingCapacity: true)
        memberBlockAt.removeAll(keepingCapacity: true)
        for d in 0...maxDepth {
            let start = deferredEntries.count
            for i in 0..<highWater where alive[i] && vectorKind[i] > 8 && depth[i] == d { deferredEntries.append(Int32(i)) }
            var k = start
            while k &+ 8 <= deferredEntries.count { memberBlockAt.append(Int32(k)); k &+= 8 }
            for i in 0..<highWater where alive[i] && vectorKind[i] == 8 && depth[i] == d { deferredEntries.append(Int32(i)) }
        }
        let blocks = memberBlockAt.count
        if blocks * 80 > memberTable.capacity { memberTable.grow(to: grownCapacity(memberTable.capacity, needed: blocks * 80)) }
        if blocks * 8 > memberParents.capacity { memberParents.grow(to: grownCapacity(memberParents.capacity, needed: blocks * 8)) }
        for q in 0..<blocks {
            let row = memberTable.base + q &* 80
            for j in 0..<8 {
                let i = Int(deferredEntries[Int(memberBlockAt[q]) &+ j])
                row[j] = begin[i]; row[8 + j] = speedColumn[i]; row[16 + j] = durationColumn[i]
                row[24 + j] = curveAX[i]; row[32 + j] = curveBX[i]; row[40 + j] = curveCX[i]
                row[48 + j] = curveAY[i]; row[56 + j] = curveBY[i]; row[64 + j] = curveCY[i]
                row[72 + j] = vectorKind[i] & 2 != 0 ? 1 : 0
                memberParents[q &* 8 &+ j] = params[i].parent
            }
        }
        deferredChanged = false
    }

    /// Block `q` of 8 group members (at `k` in `deferredEntries`) timed together, as the flat
    /// pass times 8 entries on media time, each on its group's eased local time (`childTime`
    /// of its group's entry) instead of `now`; false, with nothing written, unless all 8 are
    /// committed, started, inside their active duration and on a group that has an effect
    /// (the caller then takes them one by one). A lane whose curve Newton's four steps do not
    /// solve is solved alone, as in the flat pass. Before, every member took `evaluateEntry`:
    /// a group of own timing cost 3.6-4.5x its members added alone.
    @inline(never)
    private func evaluateMemberBlock(_ q: Int, at k: Int) -> Bool {
        for j in 0..<8 {
            let i = Int(deferredEntries[k &+ j])
            guard alive[i] && committed[i] && started[i] else { return false }
        }
        let P = memberParents.base + q &* 8, c = childTime.base
        let parentTime = SIMD8<Double>(c[Int(P[0])], c[Int(P[1])], c[Int(P[2])], c[Int(P[3])],
                                       c[Int(P[4])], c[Int(P[5])], c[Int(P[6])], c[Int(P[7])])
        let row = memberTable.base + q &* 80
        let d = load8(row, 16)
        let a = (parentTime - load8(row, 0)) * load8(row, 8)
        // A NaN group time (the group has no effect) fails both tests.
        guard maskLanes(a .>= 0) & maskLanes(a .< d) == SIMD8<Int64>(repeating: -1) else { return false }
        let x = a / d
        let (t, err) = Self.newton(x, load8(row, 24), load8(row, 32), load8(row, 40))
        let linear = load8(row, 72) .== 1
        var y = Self.cubic(load8(row, 48), load8(row, 56), load8(row, 64), SIMD8<Double>(), t)
        y.replace(with: 0, where: x .<= 0)
        y.replace(with: x, where: linear)
        let fast = maskLanes(err .< 1e-12) & maskLanes(err .> -1e-12) | maskLanes(linear) | maskLanes(x .<= 0)
        let yd = y * d
        for j in 0..<8 {
            let i = Int(deferredEntries[k &+ j])
            phase[i] = TimingPhase.active.rawValue
            iteration[i] = 0
            if fast[j] != 0 {
                progress[i] = y[j]
                childTime[i] = yd[j]
            } else {
                // Not converged in 4 steps: the scalar solve (Newton, then bisection).
                let eased = curves[Int(params[i].curve)].solve(x[j])
                progress[i] = eased
                childTime[i] = eased * d[j]
            }
        }
        memberBlocksTimed &+= 1
        return true
    }
}

/// Group entries read as their members: a member with the group's timing and none of its own
/// (no begin time, duration other than the group's, speed, offset, repeat, autoreverse, fill,
/// curve, spring or cumulative) runs on its group's entry instead of an entry of its own
/// (`AnimationCompiler.installGroup`), so a group of such members is timed once, in the flat
/// pass when it is on media time, and its members' kernels read its progress as any
/// animation's: a group costs about its members added alone.
extension TimingStore {
    /// Rewrites each group entry's phase and progress as those of such a member, from the
    /// group's eased local time t = `childTime` (what a member entry of its own computed): the
    /// member has effect only inside its active duration, 0 <= t < duration (no fill of its
    /// own), with progress t / duration; outside (a group held by its fill mode past its end,
    /// a curve that overshoots) it has none, where the group itself still gives its other
    /// members `childTime`. Released entries leave the list here.
    @inline(never)
    func applyMemberRule() {
        if groupEntriesChanged { compactGroupEntries() }
        let ph = phase.base, prog = progress.base, ct = childTime.base, dur = durationColumn.base
        @inline(__always) func one(_ i: Int) {
            guard ph[i] == TimingPhase.active.rawValue else { return }
            let t = ct[i], d = dur[i]
            if t >= 0 && t < d {
                prog[i] = t / d
            } else {
                ph[i] = TimingPhase.inactive.rawValue
                prog[i] = .nan
            }
        }
        groupEntries.withUnsafeBufferPointer { list in
            let n = list.count
            let pair: UInt64 = 1 | 1 << 32   // adds 1 to both halves of a word
            let activeWord = UInt64(TimingPhase.active.rawValue) &* 0x0101_0101_0101_0101
            var k = 0
            while k &+ 8 <= n {
                // Groups made one after another hold consecutive entries: 8 at a time when all
                // 8 are active and inside their duration (word tests, as `LaneTrack` does).
                let w = UnsafeRawPointer(list.baseAddress! + k)
                let w0 = w.loadUnaligned(as: UInt64.self), e0 = Int(Int32(truncatingIfNeeded: w0))
                guard w0 == UInt64(UInt32(truncatingIfNeeded: e0)) &* pair &+ (1 << 32)
                        && w.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == w0 &+ 2 &* pair
                        && w.loadUnaligned(fromByteOffset: 16, as: UInt64.self) == w0 &+ 4 &* pair
                        && w.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == w0 &+ 6 &* pair else {
                    one(Int(list[k]))
                    k &+= 1
                    continue
                }
                if UnsafeRawPointer(ph + e0).loadUnaligned(as: UInt64.self) == activeWord {
                    let t = load8(ct, e0), d = load8(dur, e0)
                    // t >= 0 as a clear sign bit (a -0 lane goes one by one): `t .>= 0` was
                    // compared lane by lane here, in a loop.
                    let negative = unsafeBitCast(t, to: SIMD8<Int64>.self) &>> 63
                    if maskLanes(t .< d) & ~negative == SIMD8<Int64>(repeating: -1) {
                        UnsafeMutableRawPointer(prog + e0).storeBytes(of: t / d, as: SIMD8<Double>.self)
                        k &+= 8
                        continue
                    }
                }
                for j in 0..<8 { one(e0 &+ j) }
                k &+= 8
            }
            while k < n {
                one(Int(list[k]))
                k &+= 1
            }
        }
    }

    /// Drops released entries (and slots made again for another kind of entry) from
    /// `groupEntries`.
    private func compactGroupEntries() {
        var kept = 0
        for k in 0..<groupEntries.count {
            let e = groupEntries[k]
            if alive[Int(e)] && params[Int(e)].isGroup {
                groupEntries[kept] = e
                kept &+= 1
            } else {
                groupListed[Int(e)] = false
            }
        }
        groupEntries.removeLast(groupEntries.count - kept)
        groupEntriesChanged = false
    }
}
