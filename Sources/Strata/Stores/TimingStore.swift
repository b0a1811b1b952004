/// The timing parameters an animation is evaluated with, resolved at `add` (duration 0
/// replaced by the transaction's, curve interned). Animations of one transaction with equal
/// parameters share one `TimingStore` entry, so one curve solve per frame serves them all.
struct TimingParameters: Equatable {
    var beginTime: Double = 0          // 0: the time of the commit that adds it
    var duration: Double = 0.25
    var speed: Double = 1
    var timeOffset: Double = 0
    var repeatCount: Double = 0
    var repeatDuration: Double = 0
    var autoreverses = false
    var fill: UInt8 = 0
    var removedOnCompletion = true
    var curve: Int32 = 0               // index into TimingStore.curves; 0 = linear
    /// Index into TimingStore.springs; 0 = no spring (a CASpringAnimation's motion applied
    /// to the eased fraction times the duration).
    var spring: Int32 = 0
    /// Report the iteration index (isCumulative animations add k * (end - start)).
    var cumulative = false
    /// The entry of a `CAAnimationGroup`: its phase and progress are those of a member that
    /// has the group's timing and none of its own (`TimingStore.applyMemberRule`), so such
    /// members run on it directly. Never shared with an entry of another kind of animation.
    /// (Declared here, in the padding after `cumulative`: at the end it made the stride 80
    /// bytes, not 72, and commit/explicit-basic/1000 +1.1% estimated cycles.)
    var isGroup = false
    /// The entry of the group whose local time is this entry's parent time (-1: none).
    var parent: Int32 = -1
    /// The layer whose local time is this entry's parent time (-1: global media time).
    var space: Int32 = -1

    /// One play of a finite, positive duration at a finite speed: no autoreverse, cumulative
    /// value, time offset or repeat duration, and a repeat count of 0 or 1. What the flat
    /// pass's lanes, the 8-lane member blocks and members on their group's entry all ask.
    var playsOnce: Bool {
        !autoreverses && !cumulative && timeOffset == 0 && repeatDuration == 0
            && (repeatCount == 0 || repeatCount == 1) && duration > 0 && duration.isFinite && speed.isFinite
    }
}

/// Where a timing entry stands at the frame's time.
enum TimingPhase: UInt8 {
    /// Not committed yet: animations keep the presentation value they have.
    case pending
    /// Inside the active duration, or held by a fill mode: animations write their value.
    case active
    /// Outside the active duration with no fill: animations show the model value.
    case inactive
}

/// Columns of timing entries (one per distinct timing of a transaction), evaluated once per
/// frame into `progress`: the eased progress, or NaN when the entry is not active. The
/// animation kernels read `progress` by entry index.
final class TimingStore {
    @exclusivity(unchecked) private(set) var highWater = 0
    @exclusivity(unchecked) var capacity = 0
    @exclusivity(unchecked) var begin = Column<Double>(fill: 0)
    @exclusivity(unchecked) var params: [TimingParameters] = []
    @exclusivity(unchecked) var progress = Column<Double>(fill: .nan)
    /// Iteration index of cumulative entries (0 otherwise).
    @exclusivity(unchecked) var iteration = Column<Double>(fill: 0)
    /// The time an entry gives its children (a group's eased local time), NaN when inactive.
    @exclusivity(unchecked) var childTime = Column<Double>(fill: .nan)
    @exclusivity(unchecked) var phase = Column<UInt8>(fill: TimingPhase.pending.rawValue)
    @exclusivity(unchecked) var alive = Column<Bool>(fill: false)
    @exclusivity(unchecked) var committed = Column<Bool>(fill: false)
    @exclusivity(unchecked) var started = Column<Bool>(fill: false)
    @exclusivity(unchecked) var completed = Column<Bool>(fill: false)
    /// Live animation records using the entry.
    @exclusivity(unchecked) var refCount = Column<Int32>(fill: 0)
    /// First record of the entry's intrusive list (`AnimationRecord.nextInTiming`).
    @exclusivity(unchecked) var firstRecord = Column<Int32>(fill: -1)
    /// Records that have a delegate, so start callbacks are looked for.
    @exclusivity(unchecked) var delegateCount = Column<Int32>(fill: 0)
    /// What the vector pass (`evaluateFlat`) needs per entry, set in `make`: 0 = the entry
    /// takes the scalar path (repeats, autoreverses, an offset, a group or a layer time
    /// space, cumulative, a zero or infinite duration); 1 = simple with a Bézier curve;
    /// 2 = simple and linear; 4 = simple, linear and a spring (`evaluateSpringBlock`; the
    /// Bézier pass's candidate test, `kind | kind >> 1` in bit 0, leaves it out); 8 = a group
    /// member or in a layer time space: timed after the flat pass, on its parent's time
    /// (`evaluateDeferred`, which leaves it out of the flat pass), with 1 or 2 added for a
    /// group member otherwise simple (`evaluateMemberBlock`).
    @exclusivity(unchecked) var vectorKind = Column<UInt8>(fill: 0)
    /// The entries of kind 8, parents before children (by depth, then index), rebuilt when
    /// one is made or released (`deferredChanged`).
    @exclusivity(unchecked) var deferredEntries: [Int32] = []
    @exclusivity(unchecked) var deferredChanged = false
    /// Blocks of 8 group members `evaluateMemberBlock` has timed together (for the tests).
    @exclusivity(unchecked) var memberBlocksTimed = 0
    /// Where each block of 8 simple group members starts in `deferredEntries`, and the
    /// blocks' fixed inputs side by side (`listDeferred`): per block, 8 lanes each of begin,
    /// speed, duration, the curve's six coefficients and a linear flag, and the members'
    /// group entries.
    @exclusivity(unchecked) var memberBlockAt: [Int32] = []
    @exclusivity(unchecked) var memberTable = Column<Double>(fill: 0)
    @exclusivity(unchecked) var memberParents = Column<Int32>(fill: 0)
    /// The live group entries (`TimingParameters.isGroup`), whose phase and progress the
    /// member rule rewrites after the passes; made entries are appended, released ones
    /// dropped at the next frame (`groupEntriesChanged`), `groupListed` marks an entry on
    /// the list so a slot freed and made again is not listed twice.
    @exclusivity(unchecked) var groupEntries: [Int32] = []
    @exclusivity(unchecked) var groupListed = Column<Bool>(fill: false)
    @exclusivity(unchecked) var groupEntriesChanged = false
    /// Duration and speed, and the entry's curve's polynomial coefficients, as columns the
    /// vector pass loads 8 entries at a time.
    @exclusivity(unchecked) var durationColumn = Column<Double>(fill: 1)
    @exclusivity(unchecked) var speedColumn = Column<Double>(fill: 1)
    @exclusivity(unchecked) var curveAX = Column<Double>(fill: 0)
    @exclusivity(unchecked) var curveBX = Column<Double>(fill: 0)
    @exclusivity(unchecked) var curveCX = Column<Double>(fill: 0)
    @exclusivity(unchecked) var curveAY = Column<Double>(fill: 0)
    @exclusivity(unchecked) var curveBY = Column<Double>(fill: 0)
    @exclusivity(unchecked) var curveCY = Column<Double>(fill: 0)
    /// The entry's spring as `SpringKernel` reads it: `SpringCurve`'s a, w and c, and the
    /// phase and amplitude of its cosine (zeros for entries without one).
    @exclusivity(unchecked) var springA = Column<Double>(fill: 0)
    @exclusivity(unchecked) var springW = Column<Double>(fill: 0)
    @exclusivity(unchecked) var springPhi = Column<Double>(fill: 0)
    @exclusivity(unchecked) var springR = Column<Double>(fill: 0)
    @exclusivity(unchecked) var springC = Column<Double>(fill: 0)
    /// The flat pass's list of whole blocks to ease together (one per 8 entries of capacity).
    @exclusivity(unchecked) private var vectorBlocks = Column<Int32>(capacity: 64 / 8 + 1, fill: 0)
    /// The time of the flat pass under way (its slow lanes recompute their x from it).
    @exclusivity(unchecked) private var lastNow = 0.0
    /// Completion groups the entry belongs to (empty for most entries: no allocation).
    @exclusivity(unchecked) var groups: [[CompletionGroup]] = []
    @exclusivity(unchecked) private var freeList: [Int32] = []

    /// Interned curves; 0 is linear.
    @exclusivity(unchecked) private(set) var curves: [UnitBezier] = [UnitBezier(0, 0, 1, 1)]
    @exclusivity(unchecked) private(set) var curveFunctions: [CAMediaTimingFunction] = [CAMediaTimingFunction.linearCurve]
    /// Curve ids by curve: interning is O(1) however many distinct curves there are.
    @exclusivity(unchecked) private var curveIndex: [UnitBezier: Int32] = [UnitBezier(0, 0, 1, 1): 0]
    /// Interned springs; 0 is a placeholder for "none".
    @exclusivity(unchecked) private(set) var springs: [SpringCurve] = [SpringCurve(mass: 1, stiffness: 1, damping: 1, velocity: 0)!]
    @exclusivity(unchecked) private var springIndex: [SpringCurve: Int32] = [:]

    /// Filled by `evaluate`: entries that started / completed at this frame.
    @exclusivity(unchecked) var justStarted: [Int32] = []
    /// An evaluation at another time than the frame's (`FrameRenderer.renderShadow`):
    /// entries are not marked started or completed, and the lists of the frame stay.
    @exclusivity(unchecked) var shadow = false
    @exclusivity(unchecked) var justCompleted: [Int32] = []

    init() {
        capacity = 64   // the columns' initial capacity
        justStarted.reserveCapacity(64)
        justCompleted.reserveCapacity(64)
    }

    deinit {
        begin.free(); progress.free(); iteration.free(); childTime.free(); depth.free(); phase.free(); alive.free(); committed.free()
        started.free(); completed.free(); refCount.free(); firstRecord.free(); delegateCount.free()
        vectorKind.free(); vectorBlocks.free(); durationColumn.free(); speedColumn.free()
        curveAX.free(); curveBX.free(); curveCX.free(); curveAY.free(); curveBY.free(); curveCY.free()
        springA.free(); springW.free(); springPhi.free(); springR.free(); springC.free()
        memberTable.free(); memberParents.free(); groupListed.free()
    }

    var liveCount: Int { highWater - freeList.count }
    /// Bytes of the entry columns (capacity, not live entries): 18 doubles, 3 Int32 and 7
    /// one-byte columns per entry, the parameters, the block list and the curve and spring
    /// tables.
    var bytesAllocated: Int {
        capacity * (18 * 8 + 3 * 4 + 7 + MemoryLayout<TimingParameters>.stride)
            + (capacity / 8 + 1) * 4 + curves.capacity * MemoryLayout<UnitBezier>.stride
            + springs.capacity * MemoryLayout<SpringCurve>.stride
    }

    /// The spring id of a spring animation's parameters (0 for any other animation),
    /// interning new springs. Springs must have been validated (`validateSpring`).
    func springID(_ a: CAAnimation) -> Int32 {
        guard let curve = a.springCurve() else { return 0 }
        if let i = springIndex[curve] { return i }
        let id = Int32(springs.count)
        springs.append(curve)
        springIndex[curve] = id
        return id
    }

    /// The curve id of a timing function (linear when nil), interning new curves.
    func curveID(_ f: CAMediaTimingFunction?) -> Int32 {
        guard let f else { return 0 }
        if f.curve.isLinear { return 0 }
        if let i = curveIndex[f.curve] { return i }
        let id = Int32(curves.count)
        curves.append(f.curve)
        curveFunctions.append(f)
        curveIndex[f.curve] = id
        return id
    }

    private func grow(to n: Int) {
        let c = grownCapacity(capacity, needed: n)
        begin.grow(to: c); progress.grow(to: c)
        iteration.grow(to: c); childTime.grow(to: c); depth.grow(to: c)
        phase.grow(to: c); alive.grow(to: c)
        committed.grow(to: c); started.grow(to: c)
        completed.grow(to: c); refCount.grow(to: c)
        firstRecord.grow(to: c); delegateCount.grow(to: c)
        vectorKind.grow(to: c); vectorBlocks.grow(to: c / 8 + 1); durationColumn.grow(to: c); speedColumn.grow(to: c)
        curveAX.grow(to: c); curveBX.grow(to: c); curveCX.grow(to: c)
        curveAY.grow(to: c); curveBY.grow(to: c); curveCY.grow(to: c)
        springA.grow(to: c); springW.grow(to: c); springPhi.grow(to: c); springR.grow(to: c); springC.grow(to: c)
        groupListed.grow(to: c)
        capacity = c
    }

    /// A new entry, pending until its transaction commits.
    func make(_ p: TimingParameters, groups g: [CompletionGroup]) -> Int32 {
        let e: Int32
        if let f = freeList.popLast() {
            e = f
            params[Int(e)] = p
            groups[Int(e)] = g
        } else {
            e = Int32(highWater)
            highWater += 1
            if highWater > capacity { grow(to: highWater) }
            params.append(p)
            groups.append(g)
        }
        let i = Int(e)
        begin[i] = p.beginTime
        progress[i] = .nan
        iteration[i] = 0
        childTime[i] = .nan
        depth[i] = p.parent >= 0 ? depth[Int(p.parent)] &+ 1 : 0
        maxDepth = max(maxDepth, depth[i])
        if p.parent >= 0 { hasChildren = true }
        if p.space >= 0 { hasSpaces = true }
        phase[i] = TimingPhase.pending.rawValue
        alive[i] = true
        committed[i] = false
        started[i] = false
        completed[i] = false
        refCount[i] = 0
        firstRecord[i] = -1
        delegateCount[i] = 0
        let simple = p.parent < 0 && p.space < 0 && p.playsOnce
        if p.spring != 0 {
            vectorKind[i] = simple && p.curve == 0 ? 4 : 0
            // Only spring entries (kind 4) read these columns.
            let spring = springs[Int(p.spring)]
            springA[i] = spring.a
            springW[i] = spring.w
            springPhi[i] = spring.phase
            springR[i] = (1 + spring.b * spring.b).squareRoot()
            springC[i] = spring.c
        } else {
            vectorKind[i] = simple ? (p.curve == 0 ? 2 : 1) : 0
        }
        if p.parent >= 0 || p.space >= 0 {
            // A group member as simple as the flat pass's lanes (on its group's time) is
            // timed 8 at a time (`evaluateMemberBlock`): 9 with a Bézier curve, 10 linear.
            let member = p.parent >= 0 && p.space < 0 && p.spring == 0 && p.playsOnce
            vectorKind[i] = 8 | (member ? (p.curve == 0 ? 2 : 1) : 0)
            deferredChanged = true
        }
        durationColumn[i] = p.duration
        speedColumn[i] = p.speed
        let c = curves[Int(p.curve)]
        curveAX[i] = c.ax; curveBX[i] = c.bx; curveCX[i] = c.cx
        curveAY[i] = c.ay; curveBY[i] = c.by; curveCY[i] = c.cy
        if p.isGroup && !groupListed[i] {
            groupListed[i] = true
            groupEntries.append(e)
        }
        for group in g { group.pending += 1 }
        return e
    }

    /// Whether any entry has a parent group / a layer time space (else one flat pass).
    @exclusivity(unchecked) var hasChildren = false
    /// Nesting depth of group children (0 for roots), and the deepest seen.
    @exclusivity(unchecked) var depth = Column<UInt8>(fill: 0)
    @exclusivity(unchecked) var maxDepth: UInt8 = 0
    @exclusivity(unchecked) var hasSpaces = false

    /// Commits an entry at `now` (the media time, or the entry's layer's local time at that
    /// moment): a zero beginTime becomes that time. Children of groups keep their beginTime,
    /// which is relative to the group.
    func commit(_ e: Int32, now: Double) {
        let i = Int(e)
        guard alive[i], !committed[i] else { return }
        if params[i].beginTime == 0 && params[i].parent < 0 { begin[i] = now }
        committed[i] = true
    }

    /// The completion groups entry `e` counts toward, taken from it (nil when none): it
    /// completed or lost its last animation, and the groups are told so once.
    func takeGroups(_ e: Int32) -> [CompletionGroup]? {
        let i = Int(e)
        guard !groups[i].isEmpty else { return nil }
        let g = groups[i]
        groups[i] = []
        return g
    }

    /// Frees an entry whose last record is gone.
    func release(_ e: Int32) {
        let i = Int(e)
        alive[i] = false
        phase[i] = TimingPhase.inactive.rawValue
        progress[i] = .nan
        groups[i] = []
        if vectorKind[i] & 8 != 0 { deferredChanged = true }
        if params[i].isGroup { groupEntriesChanged = true }
        freeList.append(e)
        if freeList.count == highWater { reset() }
    }

    /// With no entry alive, the store starts over: per-frame passes run to `highWater` and
    /// the group / time-space flags pick the slower pass, so neither may outlive the
    /// animations that raised them (capacity is kept).
    private func reset() {
        highWater = 0
        freeList.removeAll(keepingCapacity: true)
        params.removeAll(keepingCapacity: true)
        groups.removeAll(keepingCapacity: true)
        hasChildren = false
        hasSpaces = false
        maxDepth = 0
        deferredEntries.removeAll(keepingCapacity: true)
        memberBlockAt.removeAll(keepingCapacity: true)
        deferredChanged = false
        for e in groupEntries { groupListed[Int(e)] = false }
        groupEntries.removeAll(keepingCapacity: true)
        groupEntriesChanged = false
    }

    /// Computes phase and progress of every entry at `now`, listing entries that started or
    /// completed. One curve solve per entry. `localTime(row, now)` gives a layer's local
    /// time for entries in a layer's time space. Group children are evaluated after their
    /// groups, on the group's (eased) local time.
    ///
    /// Entries on media time go through the flat vector pass whether or not there are groups
    /// or time spaces; only group members and entries in a layer's time space (kind 8) are
    /// timed one by one after it (`evaluateDeferred`). Before, a single group or timed layer
    /// anywhere sent every entry of the engine down the scalar path, once per nesting depth.
    func evaluate(now: Double, localTime: (Int32, Double) -> Double) {
        if !shadow {
            justStarted.removeAll(keepingCapacity: true)
            justCompleted.removeAll(keepingCapacity: true)
        }
        if !hasChildren && !hasSpaces {
            evaluateFlat(now: now, skippingDeferred: false)
        } else {
            evaluateFlat(now: now, skippingDeferred: true)
            evaluateDeferred(now: now, localTime: localTime)
        }
        if !groupEntries.isEmpty { applyMemberRule() }
    }

    /// The flat pass over the entries on media time, in blocks of 8. The lanes that
    /// are simple (`vectorKind`), already started and inside their active duration are timed
    /// and eased together: x = (now - begin) * speed / duration, then Newton's method on the
    /// curve's x polynomial, a fixed 4 steps for all lanes at once (the scalar solve's update,
    /// from the same start t = x); a lane whose error is not below the scalar solve's 1e-12
    /// after them is solved by `UnitBezier.solve`. Every other live lane takes
    /// `evaluateEntry`, so the results are the scalar pass's (to the solver's tolerance).
    ///
    /// Two passes. The first times every block and lists the blocks whose 8 lanes are all
    /// simple, running and inside (x parked in `progress`); mixed blocks are finished there,
    /// lane by lane. The second eases the listed blocks two at a time: Newton's four steps are
    /// one dependent chain of about 160 cycles (a division each), so a loop body that held one
    /// block and all its bookkeeping ran one chain at a time; two blocks per short body keep
    /// four chains of 4 lanes in flight.
    ///
    /// `skippingDeferred` (with groups or layer time spaces): kind 8 and up are left out,
    /// for `evaluateDeferred`. A branch per block, not a second copy of the pass: two copies
    /// specialised from one inlined body cost the plain pass 95 instructions a block
    /// (callgrind, frame/position/own/basic/1000: 57 -> 68 an animation).
    private func evaluateFlat(now: Double, skippingDeferred: Bool) {
        lastNow = now
        let n = highWater
        let nowV = SIMD8<Double>(repeating: now)
        let listed = vectorBlocks.base
        // Whole blocks of running springs, listed from the other end of the same column (a
        // block goes on at most one list, and the column has a slot per block).
        let springsListed = vectorBlocks.base + vectorBlocks.capacity
        var count = 0, springCount = 0
        var b = 0
        // A block's flags as 8 packed bytes (Bool columns hold 0 or 1; vectorKind 0, 1, 2 or
        // 4): word arithmetic on them is a handful of instructions, where SIMD8<UInt8> masks
        // were lowered lane by lane here.
        let ones: UInt64 = 0x0101_0101_0101_0101
        while b < n {
            var live = bytes8(alive.base, b) & bytes8(committed.base, b)
            if skippingDeferred { live &= ~(UnsafeRawPointer(vectorKind.base + b).loadUnaligned(as: UInt64.self) >> 3 & ones) }
            if live == 0 { b += 8; continue }
            let kind = UnsafeRawPointer(vectorKind.base + b).loadUnaligned(as: UInt64.self)
            let running = live & bytes8(started.base, b)
            let candidate = running & ((kind | kind >> 1) & ones)
            if candidate == ones && n - b >= 8 {
                let d = load8(durationColumn.base, b)
                let a = (nowV - load8(begin.base, b)) * load8(speedColumn.base, b)
                // Inside the active duration (NaN compares false). Mask words, not `.&`: the
                // mask operators were lowered lane by lane here.
                if maskLanes(a .>= 0) & maskLanes(a .< d) == SIMD8<Int64>(repeating: -1) {
                    // The common block: x parked in `progress`, eased in the second pass.
                    UnsafeMutableRawPointer(progress.base + b).storeBytes(of: a / d, as: SIMD8<Double>.self)
                    listed[count] = Int32(truncatingIfNeeded: b)
                    count &+= 1
                    b += 8
                    continue
                }
            }
            // After the curves' test: tested first, it cost own-curve frames 0.7 instructions
            // per animation (the count gate's +1.2%).
            if running & (kind >> 2) & ones == ones && n - b >= 8 {
                // 8 started springs: solved in the third pass, in a loop of their own.
                springCount &+= 1
                springsListed[-springCount] = Int32(truncatingIfNeeded: b)
                b += 8
                continue
            }
            evaluateMixedBlock(b, lanes: min(8, n - b), live: live, candidate: candidate, now: now)
            b += 8
        }
        easeListed(count)
        springListed(springCount, now: now)
    }

    /// The flat pass's third pass: the listed blocks of 8 started springs, in a loop of their
    /// own. (Reached block by block through `evaluateMixedBlock`, two calls deep, they were
    /// 8% slower at 1e3; two blocks per step, as `easeListed` does, were 35% slower: the two
    /// kernels' temporaries do not fit the registers.) A block with a lane outside its active
    /// duration, or whose angle is beyond the vector cosine's range, is finished by
    /// `evaluateSpringBlock`.
    @inline(never)
    private func springListed(_ count: Int, now: Double) {
        let listed = vectorBlocks.base + vectorBlocks.capacity
        let nowV = SIMD8<Double>(repeating: now)
        let all = SIMD8<Int64>(repeating: -1)
        var k = 1
        while k <= count {
            let b = Int(listed[-k])
            let d = load8(durationColumn.base, b)
            let t = (nowV - load8(begin.base, b)) * load8(speedColumn.base, b)
            let w = load8(springW.base, b)
            let ok = maskLanes(t .>= 0) & maskLanes(t .< d) & maskLanes(w * t .< 1e5)
            let y = SpringKernel.progress(t: t, a: load8(springA.base, b), w: w, phi: load8(springPhi.base, b),
                                          r: load8(springR.base, b), c: load8(springC.base, b))
            if ok == all {
                // A spring entry is neither cumulative (its iteration stays 0) nor a group (no
                // child reads its childTime): phase and progress are all it writes.
                UnsafeMutableRawPointer(phase.base + b)
                    .storeBytes(of: SIMD8<UInt8>(repeating: TimingPhase.active.rawValue), as: SIMD8<UInt8>.self)
                UnsafeMutableRawPointer(progress.base + b).storeBytes(of: y, as: SIMD8<Double>.self)
            } else {
                evaluateSpringBlock(b, lanes: 8, live: 0x0101_0101_0101_0101, springs: 0x0101_0101_0101_0101, now: now)
            }
            k &+= 1
        }
    }

    /// A block of the flat pass that is not all simple, started and inside: its candidate
    /// lanes eased together when there are at least two, every other live lane by
    /// `evaluateEntry`.
    @inline(never)
    private func evaluateMixedBlock(_ b: Int, lanes: Int, live: UInt64, candidate: UInt64, now: Double) {
        @inline(__always) func lane(_ word: UInt64, _ j: Int) -> Bool { (word >> UInt64(8 * j)) & 1 != 0 }
        // Springs (kind 4, bit 2 of the byte) that have started: solved together.
        let kindWord = UnsafeRawPointer(vectorKind.base + b).loadUnaligned(as: UInt64.self)
        let springs = live & bytes8(started.base, b) & ((kindWord >> 2) & 0x0101_0101_0101_0101)
        if springs.nonzeroBitCount >= 2 {
            evaluateSpringBlock(b, lanes: lanes, live: live, springs: springs, now: now)
            return
        }
        // Fewer than two lanes to ease together: the scalar path is cheaper.
        guard candidate.nonzeroBitCount >= 2 else {
            for j in 0..<lanes where lane(live, j) { evaluateEntry(b + j, parentTime: now) }
            return
        }
        let kind = load8(vectorKind.base, b)
        let d = load8(durationColumn.base, b)
        let a = (SIMD8<Double>(repeating: now) - load8(begin.base, b)) * load8(speedColumn.base, b)
        let x = a / d
        let inside = (a .>= 0) .& (a .< d)
        let (t, err) = Self.newton(x, load8(curveAX.base, b), load8(curveBX.base, b), load8(curveCX.base, b))
        let converged = (err .< 1e-12) .& (err .> -1e-12)
        let y = ease(t, x: x, kind: kind, block: b)
        let linear = SIMD8<Double>(kind) .== 2
        let fast = inside .& (converged .| linear .| (x .<= 0) .| (x .>= 1))
        for j in 0..<lanes where lane(live, j) {
            let i = b + j
            if lane(candidate, j) && fast[j] {
                phase[i] = TimingPhase.active.rawValue
                progress[i] = y[j]
                iteration[i] = 0
                childTime[i] = y[j] * d[j]
            } else if lane(candidate, j) && inside[j] {
                // Not converged in 4 steps: the scalar solve (Newton, then bisection).
                let eased = curves[Int(params[i].curve)].solve(x[j])
                phase[i] = TimingPhase.active.rawValue
                progress[i] = eased
                iteration[i] = 0
                childTime[i] = eased * d[j]
            } else {
                evaluateEntry(i, parentTime: now)
            }
        }
    }

    /// A block with springs of their own (kind 4, started) that is not 8 springs all running
    /// (those `springListed` finishes with two vector stores): the spring lanes inside their
    /// active duration solved 8 at a time, progress = 1 - exp(-a t) (cos(w t) + b sin(w t) +
    /// c t) with t = (now - begin) * speed (`SpringCurve`, as `SpringKernel` computes it),
    /// written lane by lane; every other live lane, and a spring lane whose angle w t is
    /// beyond the vector cosine's range, by `evaluateEntry`.
    @inline(never)
    private func evaluateSpringBlock(_ b: Int, lanes: Int, live: UInt64, springs: UInt64, now: Double) {
        let nowV = SIMD8<Double>(repeating: now)
        let d = load8(durationColumn.base, b)
        let t = (nowV - load8(begin.base, b)) * load8(speedColumn.base, b)
        let inside = maskLanes(t .>= 0) & maskLanes(t .< d)
        let angle = load8(springW.base, b) * t
        let inRange = maskLanes(angle .< 1e5)
        let y = SpringKernel.progress(t: t, a: load8(springA.base, b), w: load8(springW.base, b),
                                      phi: load8(springPhi.base, b), r: load8(springR.base, b), c: load8(springC.base, b))
        let ok = inside & inRange
        for j in 0..<lanes where (live >> UInt64(8 * j)) & 1 != 0 {
            let i = b + j
            if (springs >> UInt64(8 * j)) & 1 != 0 && ok[j] != 0 {
                phase[i] = TimingPhase.active.rawValue
                progress[i] = y[j]
                iteration[i] = 0
                childTime[i] = y[j] * d[j]
            } else {
                evaluateEntry(i, parentTime: now)
            }
        }
    }

    @inline(__always)
    private func bytes8(_ p: UnsafeMutablePointer<Bool>, _ i: Int) -> UInt64 {
        UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
    }

    /// The flat pass's second pass: the listed blocks, two per step (their chains overlap).
    /// A function of its own: inside the first pass's body the helpers below were not
    /// inlined, and SIMD8 values passed to them went through 128-bit halves.
    @inline(never)
    private func easeListed(_ count: Int) {
        let listed = vectorBlocks.base
        // Each block's t is parked in `childTime` (rewritten by `finishListed`): no SIMD
        // value crosses a call, whether or not the optimiser inlines it.
        var k = 0
        while k &+ 1 < count {
            let b0 = Int(listed[k]), b1 = Int(listed[k &+ 1])
            let (t0, t1) = Self.newton2(load8(progress.base, b0), load8(curveAX.base, b0), load8(curveBX.base, b0), load8(curveCX.base, b0),
                                        load8(progress.base, b1), load8(curveAX.base, b1), load8(curveBX.base, b1), load8(curveCX.base, b1))
            UnsafeMutableRawPointer(childTime.base + b0).storeBytes(of: t0, as: SIMD8<Double>.self)
            UnsafeMutableRawPointer(childTime.base + b1).storeBytes(of: t1, as: SIMD8<Double>.self)
            finishListed(b0)
            finishListed(b1)
            k &+= 2
        }
        if k < count {
            let b0 = Int(listed[k])
            let (t, _) = Self.newton(load8(progress.base, b0), load8(curveAX.base, b0), load8(curveBX.base, b0), load8(curveCX.base, b0))
            UnsafeMutableRawPointer(childTime.base + b0).storeBytes(of: t, as: SIMD8<Double>.self)
            finishListed(b0)
        }
    }

    /// ((a t + b) t + c) t + d in fused multiply-adds (three instructions per half, not six;
    /// the vector pass may differ from the scalar solve in the last bit).
    @inline(__always)
    static func cubic(_ a: SIMD8<Double>, _ b: SIMD8<Double>, _ c: SIMD8<Double>, _ d: SIMD8<Double>,
                              _ t: SIMD8<Double>) -> SIMD8<Double> {
        d.addingProduct(c.addingProduct(b.addingProduct(a, t), t), t)
    }

    /// (a t + b) t + c in fused multiply-adds.
    @inline(__always)
    private static func quadratic(_ a: SIMD8<Double>, _ b: SIMD8<Double>, _ c: SIMD8<Double>, _ t: SIMD8<Double>) -> SIMD8<Double> {
        c.addingProduct(b.addingProduct(a, t), t)
    }

    /// Four Newton steps on x(t) = ((ax t + bx) t + cx) t from t = x, and each lane's
    /// remaining error x(t) - x.
    @inline(__always)
    static func newton(_ x: SIMD8<Double>, _ ax: SIMD8<Double>, _ bx: SIMD8<Double>, _ cx: SIMD8<Double>)
    -> (t: SIMD8<Double>, error: SIMD8<Double>) {
        let ax3 = 3 * ax, bx2 = 2 * bx
        // Written out, not a loop: a loop-carried SIMD8 is lowered to 128-bit halves here.
        @inline(__always) func step(_ t: SIMD8<Double>) -> SIMD8<Double> {
            t - Self.cubic(ax, bx, cx, -x, t) / Self.quadratic(ax3, bx2, cx, t)
        }
        let t = step(step(step(step(x))))
        return (t, Self.cubic(ax, bx, cx, -x, t))
    }

    /// `newton` on two blocks, their steps interleaved: two independent chains in one body.
    /// (SIMD16<Double> would say the same, but is lowered to 128-bit halves here.)
    @inline(__always)
    private static func newton2(_ x0: SIMD8<Double>, _ ax0: SIMD8<Double>, _ bx0: SIMD8<Double>, _ cx0: SIMD8<Double>,
                                _ x1: SIMD8<Double>, _ ax1: SIMD8<Double>, _ bx1: SIMD8<Double>, _ cx1: SIMD8<Double>)
    -> (SIMD8<Double>, SIMD8<Double>) {
        let ax30 = 3 * ax0, bx20 = 2 * bx0, ax31 = 3 * ax1, bx21 = 2 * bx1
        @inline(__always) func step(_ t0: inout SIMD8<Double>, _ t1: inout SIMD8<Double>) {
            let err0 = Self.cubic(ax0, bx0, cx0, -x0, t0)
            let err1 = Self.cubic(ax1, bx1, cx1, -x1, t1)
            let slope0 = Self.quadratic(ax30, bx20, cx0, t0)
            let slope1 = Self.quadratic(ax31, bx21, cx1, t1)
            t0 = t0 - err0 / slope0
            t1 = t1 - err1 / slope1
        }
        var t0 = x0, t1 = x1
        step(&t0, &t1); step(&t0, &t1); step(&t0, &t1); step(&t0, &t1)
        return (t0, t1)
    }

    /// y(t) of block `b`'s curves; the ends map exactly (as `UnitBezier.solve`), linear
    /// entries are not eased.
    @inline(__always)
    private func ease(_ t: SIMD8<Double>, x: SIMD8<Double>, kind: SIMD8<UInt8>, block b: Int) -> SIMD8<Double> {
        var y = Self.cubic(load8(curveAY.base, b), load8(curveBY.base, b), load8(curveCY.base, b), SIMD8<Double>(), t)
        y.replace(with: 0, where: x .<= 0)
        y.replace(with: 1, where: x .>= 1)
        y.replace(with: x, where: SIMD8<Double>(kind) .== 2)
        return y
    }

    /// Writes a listed block (8 simple, running lanes inside their duration): x in
    /// `progress`, Newton's t in `childTime`.
    @inline(__always)
    private func finishListed(_ b: Int) {
        let x = load8(progress.base, b), t = load8(childTime.base, b)
        let err = Self.cubic(load8(curveAX.base, b), load8(curveBX.base, b), load8(curveCX.base, b), -x, t)
        let kind = load8(vectorKind.base, b)
        let y = ease(t, x: x, kind: kind, block: b)
        let d = load8(durationColumn.base, b)
        UnsafeMutableRawPointer(phase.base + b)
            .storeBytes(of: SIMD8<UInt8>(repeating: TimingPhase.active.rawValue), as: SIMD8<UInt8>.self)
        UnsafeMutableRawPointer(iteration.base + b).storeBytes(of: SIMD8<Double>(), as: SIMD8<Double>.self)
        UnsafeMutableRawPointer(progress.base + b).storeBytes(of: y, as: SIMD8<Double>.self)
        UnsafeMutableRawPointer(childTime.base + b).storeBytes(of: y * d, as: SIMD8<Double>.self)
        let fast = maskLanes(err .< 1e-12) & maskLanes(err .> -1e-12) | maskLanes(SIMD8<Double>(kind) .== 2) | maskLanes(x .<= 0)
        if fast != SIMD8<Int64>(repeating: -1) { resolveSlowLanes(b, fast: fast) }
    }

    /// Lanes of a listed block that Newton's four steps did not solve: the scalar solve
    /// (Newton, then bisection) from the lane's x, which pass one computed the same way.
    @inline(never)
    private func resolveSlowLanes(_ b: Int, fast: SIMD8<Int64>) {
        for j in 0..<8 where fast[j] == 0 {
            let i = b + j
            let x = (lastNow - begin[i]) * speedColumn[i] / durationColumn[i]
            let eased = curves[Int(params[i].curve)].solve(x)
            progress[i] = eased
            childTime[i] = eased * durationColumn[i]
        }
    }

    @inline(__always)
    func load8(_ p: UnsafeMutablePointer<Double>, _ i: Int) -> SIMD8<Double> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Double>.self)
    }

    @inline(__always)
    func load8(_ p: UnsafeMutablePointer<Bool>, _ i: Int) -> SIMD8<UInt8> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<UInt8>.self)
    }

    @inline(__always)
    func load8(_ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> SIMD8<UInt8> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<UInt8>.self)
    }

    @inline(__always)
    func evaluateEntry(_ i: Int, parentTime: Double) {
        let p = params[i]
        let state = TimingStore.localFraction(now: parentTime, begin: begin[i], p)
        // An evaluation at another time (`shadow`: a replicator's delayed instance): nothing
        // starts or completes.
        if state.started && !started[i] && !shadow {
            started[i] = true
            justStarted.append(Int32(i))
        }
        if state.finished && !completed[i] && !(p.repeatCount.isInfinite) && !shadow {
            completed[i] = true
            justCompleted.append(Int32(i))
        }
        if let x = state.fraction {
            phase[i] = TimingPhase.active.rawValue
            var eased = p.curve == 0 ? x : curves[Int(p.curve)].solve(x)
            if p.spring != 0 { eased = springs[Int(p.spring)].progress(eased * p.duration) }
            progress[i] = eased
            iteration[i] = p.cumulative ? state.iteration : 0
            childTime[i] = eased * p.duration
        } else {
            phase[i] = TimingPhase.inactive.rawValue
            progress[i] = .nan
            childTime[i] = .nan
        }
    }

    /// Core Animation's timing model for one entry: active time
    /// a = (parentTime - begin) * speed; inside [0, activeDuration) the local time
    /// a + timeOffset is folded into one iteration (repeat, autoreverse); outside, the fill
    /// mode decides. Returns the linear fraction (nil when the entry has no effect), whether
    /// the entry has started, whether its active duration is over, and the iteration index.
    static func localFraction(now: Double, begin: Double, _ p: TimingParameters)
        -> (fraction: Double?, started: Bool, finished: Bool, iteration: Double)
    {
        let w = activeWindow(now: now, begin: begin, p)
        guard let t = w.local else { return (nil, w.started, w.finished, 0) }
        let f = fold(t, d: p.duration, cycle: w.cycle, autoreverses: p.autoreverses, atEnd: w.atEnd)
        return (f.fraction, w.started, w.finished, f.iteration)
    }

    /// A layer's local time for its parent's time (SEMANTICS.md "Fidelity rules", layer
    /// timing): the same window and fold as an animation's (`activeWindow`, `foldTime`), with
    /// a zero `duration` meaning an endless basic duration (no folding; `repeatDuration`
    /// still bounds the active time). `active` is false outside the active time when the
    /// fill mode does not hold it (before `beginTime` without backwards, after the end
    /// without forwards): the subtree's animations then have no effect. `time` is then the
    /// unfolded (parentTime - beginTime) * speed + timeOffset, which `convertTime` and
    /// commits still use. Callers skip layers whose timing is all defaults (the identity).
    @inline(__always)
    static func layerLocalTime(parentTime: Double, begin: Double, _ p: TimingParameters) -> (time: Double, active: Bool) {
        var q = p
        if !(q.duration > 0) { q.duration = .infinity }   // 0 = forever
        let w = activeWindow(now: parentTime, begin: begin, q)
        guard let t = w.local else { return ((parentTime - begin) * p.speed + p.timeOffset, false) }
        guard let f = foldTime(t, d: q.duration, cycle: w.cycle, autoreverses: q.autoreverses, atEnd: w.atEnd) else {
            return (t, true)   // an endless basic duration: nothing to fold
        }
        return (min(max(f.time, 0), q.duration), true)
    }

    /// Where `now` falls in a timed object's (animation's or layer's) active time: the local
    /// time to fold (nil when the object has no effect: outside the active time and not held
    /// by the fill mode, or a time that is not a number), whether that time is the end of the
    /// active duration, whether the object has started and whether its active duration is
    /// over, and the length of one cycle (duration, doubled by autoreverses).
    @inline(__always)
    static func activeWindow(now: Double, begin: Double, _ p: TimingParameters)
        -> (local: Double?, atEnd: Bool, started: Bool, finished: Bool, cycle: Double)
    {
        let d = p.duration
        let cycle = p.autoreverses ? 2 * d : d
        let active: Double
        if p.repeatDuration > 0 {
            active = p.repeatDuration
        } else {
            active = (p.repeatCount > 0 ? p.repeatCount : 1) * cycle
        }
        let a = (now - begin) * p.speed
        guard a.isFinite || a == .infinity else { return (nil, false, false, false, cycle) }
        if a < 0 {
            guard p.fill & FillBits.backwards != 0 else { return (nil, false, false, false, cycle) }
            return (p.timeOffset, false, false, false, cycle)
        }
        if a >= active {
            guard p.fill & FillBits.forwards != 0 else { return (nil, false, true, true, cycle) }
            return (active + p.timeOffset, true, true, true, cycle)
        }
        return (a + p.timeOffset, false, true, false, cycle)
    }

    /// Folds local time into one iteration's fraction 0...1 and its index. At the end of the
    /// active duration a whole number of iterations ends on the iteration's last value.
    @inline(__always)
    static func fold(_ t: Double, d: Double, cycle: Double, autoreverses: Bool, atEnd: Bool)
        -> (fraction: Double, iteration: Double)
    {
        guard let f = foldTime(t, d: d, cycle: cycle, autoreverses: autoreverses, atEnd: atEnd) else { return (1, 0) }
        let x = f.time / d
        return (x < 0 ? 0 : (x > 1 ? 1 : x), f.iteration)
    }

    /// Folds local time into one iteration: the time within it (0...d, mirrored on the way
    /// back when autoreversing) and the iteration index; nil when there is nothing to fold
    /// (a basic duration that is not positive, an endless cycle or a time that is not
    /// finite). At the end of the active duration a whole number of iterations ends on the
    /// iteration's last value.
    @inline(__always)
    static func foldTime(_ t: Double, d: Double, cycle: Double, autoreverses: Bool, atEnd: Bool)
        -> (time: Double, iteration: Double)?
    {
        guard d > 0, cycle.isFinite, t.isFinite else { return nil }
        var k = (t / cycle).rounded(.down)
        var r = t - k * cycle
        if r < 0 { r += cycle; k -= 1 }
        if atEnd && r == 0 && t > 0 { r = cycle; k -= 1 }
        if autoreverses && r > d { r = cycle - r }
        return (r, k)
    }
}
