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
