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
    /// Report the iteration index (isCumulative animations add k * (end - start)).
    var cumulative = false
    /// The entry of the group whose local time is this entry's parent time (-1: none).
    var parent: Int32 = -1
    /// The layer whose local time is this entry's parent time (-1: global media time).
    var space: Int32 = -1
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
    @exclusivity(unchecked) var begin: Column<Double>
    @exclusivity(unchecked) var params: [TimingParameters] = []
    @exclusivity(unchecked) var progress: Column<Double>
    /// Iteration index of cumulative entries (0 otherwise).
    @exclusivity(unchecked) var iteration: Column<Double>
    /// The time an entry gives its children (a group's eased local time), NaN when inactive.
    @exclusivity(unchecked) var childTime: Column<Double>
    @exclusivity(unchecked) var phase: Column<UInt8>
    @exclusivity(unchecked) var alive: Column<Bool>
    @exclusivity(unchecked) var committed: Column<Bool>
    @exclusivity(unchecked) var started: Column<Bool>
    @exclusivity(unchecked) var completed: Column<Bool>
    /// Live animation records using the entry.
    @exclusivity(unchecked) var refCount: Column<Int32>
    /// First record of the entry's intrusive list (`AnimationRecord.nextInTiming`).
    @exclusivity(unchecked) var firstRecord: Column<Int32>
    /// Records that have a delegate, so start callbacks are looked for.
    @exclusivity(unchecked) var delegateCount: Column<Int32>
    /// What the vector pass (`evaluateFlat`) needs per entry, set in `make`: 0 = the entry
    /// takes the scalar path (repeats, autoreverses, an offset, a group or a layer time
    /// space, cumulative, a zero or infinite duration); 1 = simple with a Bézier curve;
    /// 2 = simple and linear.
    @exclusivity(unchecked) var vectorKind: Column<UInt8>
    /// Duration and speed, and the entry's curve's polynomial coefficients, as columns the
    /// vector pass loads 8 entries at a time.
    @exclusivity(unchecked) var durationColumn: Column<Double>
    @exclusivity(unchecked) var speedColumn: Column<Double>
    @exclusivity(unchecked) var curveAX: Column<Double>
    @exclusivity(unchecked) var curveBX: Column<Double>
    @exclusivity(unchecked) var curveCX: Column<Double>
    @exclusivity(unchecked) var curveAY: Column<Double>
    @exclusivity(unchecked) var curveBY: Column<Double>
    @exclusivity(unchecked) var curveCY: Column<Double>
    /// Completion groups the entry belongs to (empty for most entries: no allocation).
    @exclusivity(unchecked) var groups: [[CompletionGroup]] = []
    @exclusivity(unchecked) private var freeList: [Int32] = []

    /// Interned curves; 0 is linear.
    @exclusivity(unchecked) private(set) var curves: [UnitBezier] = [UnitBezier(0, 0, 1, 1)]
    @exclusivity(unchecked) private(set) var curveFunctions: [CAMediaTimingFunction] = [CAMediaTimingFunction.linearCurve]
    /// Curve ids by curve: interning is O(1) however many distinct curves there are.
    @exclusivity(unchecked) private var curveIndex: [UnitBezier: Int32] = [UnitBezier(0, 0, 1, 1): 0]

    /// Filled by `evaluate`: entries that started / completed at this frame.
    @exclusivity(unchecked) var justStarted: [Int32] = []
    @exclusivity(unchecked) var justCompleted: [Int32] = []

    init() {
        let c = 64
        capacity = c
        begin = Column(capacity: c, fill: 0)
        progress = Column(capacity: c, fill: .nan)
        iteration = Column(capacity: c, fill: 0)
        depth = Column(capacity: c, fill: 0)
        childTime = Column(capacity: c, fill: .nan)
        phase = Column(capacity: c, fill: TimingPhase.pending.rawValue)
        alive = Column(capacity: c, fill: false)
        committed = Column(capacity: c, fill: false)
        started = Column(capacity: c, fill: false)
        completed = Column(capacity: c, fill: false)
        refCount = Column(capacity: c, fill: 0)
        firstRecord = Column(capacity: c, fill: -1)
        delegateCount = Column(capacity: c, fill: 0)
        vectorKind = Column(capacity: c, fill: 0)
        durationColumn = Column(capacity: c, fill: 1)
        speedColumn = Column(capacity: c, fill: 1)
        curveAX = Column(capacity: c, fill: 0); curveBX = Column(capacity: c, fill: 0); curveCX = Column(capacity: c, fill: 0)
        curveAY = Column(capacity: c, fill: 0); curveBY = Column(capacity: c, fill: 0); curveCY = Column(capacity: c, fill: 0)
        justStarted.reserveCapacity(64)
        justCompleted.reserveCapacity(64)
    }

    deinit {
        begin.free(); progress.free(); iteration.free(); childTime.free(); depth.free(); phase.free(); alive.free(); committed.free()
        started.free(); completed.free(); refCount.free(); firstRecord.free(); delegateCount.free()
        vectorKind.free(); durationColumn.free(); speedColumn.free()
        curveAX.free(); curveBX.free(); curveCX.free(); curveAY.free(); curveBY.free(); curveCY.free()
    }

    var liveCount: Int { highWater - freeList.count }

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
        begin.grow(to: c, fill: 0); progress.grow(to: c, fill: .nan)
        iteration.grow(to: c, fill: 0); childTime.grow(to: c, fill: .nan); depth.grow(to: c, fill: 0)
        phase.grow(to: c, fill: TimingPhase.pending.rawValue); alive.grow(to: c, fill: false)
        committed.grow(to: c, fill: false); started.grow(to: c, fill: false)
        completed.grow(to: c, fill: false); refCount.grow(to: c, fill: 0)
        firstRecord.grow(to: c, fill: -1); delegateCount.grow(to: c, fill: 0)
        vectorKind.grow(to: c, fill: 0); durationColumn.grow(to: c, fill: 1); speedColumn.grow(to: c, fill: 1)
        curveAX.grow(to: c, fill: 0); curveBX.grow(to: c, fill: 0); curveCX.grow(to: c, fill: 0)
        curveAY.grow(to: c, fill: 0); curveBY.grow(to: c, fill: 0); curveCY.grow(to: c, fill: 0)
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
        let simple = p.parent < 0 && p.space < 0 && !p.autoreverses && !p.cumulative && p.timeOffset == 0
            && p.repeatDuration == 0 && (p.repeatCount == 0 || p.repeatCount == 1)
            && p.duration > 0 && p.duration.isFinite && p.speed.isFinite
        vectorKind[i] = simple ? (p.curve == 0 ? 2 : 1) : 0
        durationColumn[i] = p.duration
        speedColumn[i] = p.speed
        let c = curves[Int(p.curve)]
        curveAX[i] = c.ax; curveBX[i] = c.bx; curveCX[i] = c.cx
        curveAY[i] = c.ay; curveBY[i] = c.by; curveCY[i] = c.cy
        for group in g { group.pending += 1 }
        return e
    }

    /// Whether any entry has a parent group / a layer time space (else one flat pass).
    @exclusivity(unchecked) var hasChildren = false
    /// Nesting depth of group children (0 for roots), and the deepest seen.
    @exclusivity(unchecked) var depth: Column<UInt8>
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

    /// Frees an entry whose last record is gone.
    func release(_ e: Int32) {
        let i = Int(e)
        alive[i] = false
        phase[i] = TimingPhase.inactive.rawValue
        progress[i] = .nan
        groups[i] = []
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
    }

    /// Computes phase and progress of every entry at `now`, listing entries that started or
    /// completed. One curve solve per entry. `localTime(row, now)` gives a layer's local
    /// time for entries in a layer's time space. Group children are evaluated after their
    /// groups, on the group's (eased) local time.
    func evaluate(now: Double, localTime: (Int32, Double) -> Double) {
        justStarted.removeAll(keepingCapacity: true)
        justCompleted.removeAll(keepingCapacity: true)
        if !hasChildren && !hasSpaces {
            evaluateFlat(now: now)
            return
        }
        // Groups before their children: one pass per nesting depth.
        for d in 0...maxDepth {
            for i in 0..<highWater where alive[i] && committed[i] && depth[i] == d {
                let p = params[i]
                if p.parent < 0 {
                    evaluateEntry(i, parentTime: p.space >= 0 ? localTime(p.space, now) : now)
                    continue
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
        }
    }

    /// The flat pass (no groups, no layer time spaces) in blocks of 8 entries. The lanes that
    /// are simple (`vectorKind`), already started and inside their active duration are timed
    /// and eased together: x = (now - begin) * speed / duration, then Newton's method on the
    /// curve's x polynomial, a fixed 4 steps for all 8 lanes at once (the scalar solve's
    /// update, from the same start t = x); a lane whose error is not below the scalar
    /// solve's 1e-12 after them is solved by `UnitBezier.solve`. Every other live lane takes
    /// `evaluateEntry`, so the results are the scalar pass's (to the solver's tolerance).
    private func evaluateFlat(now: Double) {
        let n = highWater
        let nowV = SIMD8<Double>(repeating: now)
        var b = 0
        while b < n {
            let live = load8(alive.base, b) & load8(committed.base, b)
            var lanesLeft = n - b
            if lanesLeft > 8 { lanesLeft = 8 }
            if live == SIMD8<UInt8>(repeating: 0) { b += 8; continue }
            let kind = load8(vectorKind.base, b)
            let simple = SIMD8<UInt8>(repeating: 1).replacing(with: 0, where: kind .== 0)
            let candidate = live & load8(started.base, b) & simple
            // Fewer than two lanes to ease together: the scalar path is cheaper.
            let candidates = Int(candidate.wrappedSum())   // lanes are 0 or 1
            guard candidates >= 2 else {
                for j in 0..<lanesLeft where live[j] != 0 { evaluateEntry(b + j, parentTime: now) }
                b += 8
                continue
            }
            let d = load8(durationColumn.base, b)
            let a = (nowV - load8(begin.base, b)) * load8(speedColumn.base, b)
            let x = a / d
            // Inside the active duration (NaN compares false: scalar path).
            let inside = (a .>= 0) .& (a .< d)
            let ax = load8(curveAX.base, b), bx = load8(curveBX.base, b), cx = load8(curveCX.base, b)
            let ax3 = 3 * ax, bx2 = 2 * bx
            var t = x
            for _ in 0..<4 {
                let err = ((ax * t + bx) * t + cx) * t - x
                let slope = (ax3 * t + bx2) * t + cx
                t = t - err / slope
            }
            let err = ((ax * t + bx) * t + cx) * t - x
            let converged = (err .< 1e-12) .& (err .> -1e-12)
            let linear = SIMD8<Double>(kind) .== 2
            var y = ((load8(curveAY.base, b) * t + load8(curveBY.base, b)) * t + load8(curveCY.base, b)) * t
            // The ends map exactly (as `UnitBezier.solve`); linear entries are not eased.
            y.replace(with: 0, where: x .<= 0)
            y.replace(with: 1, where: x .>= 1)
            y.replace(with: x, where: linear)
            let fast = inside .& (converged .| linear .| (x .<= 0) .| (x .>= 1))
            if lanesLeft == 8 && candidate == SIMD8<UInt8>(repeating: 1) && all(fast) {
                // The whole block is simple, running and solved: vector stores.
                let p = UnsafeMutableRawPointer(progress.base + b), c = UnsafeMutableRawPointer(childTime.base + b)
                p.storeBytes(of: y, as: SIMD8<Double>.self)
                c.storeBytes(of: y * d, as: SIMD8<Double>.self)
                UnsafeMutableRawPointer(iteration.base + b).storeBytes(of: SIMD8<Double>(), as: SIMD8<Double>.self)
                UnsafeMutableRawPointer(phase.base + b)
                    .storeBytes(of: SIMD8<UInt8>(repeating: TimingPhase.active.rawValue), as: SIMD8<UInt8>.self)
                b += 8
                continue
            }
            for j in 0..<lanesLeft where live[j] != 0 {
                let i = b + j
                if candidate[j] != 0 && fast[j] {
                    phase[i] = TimingPhase.active.rawValue
                    progress[i] = y[j]
                    iteration[i] = 0
                    childTime[i] = y[j] * d[j]
                } else if candidate[j] != 0 && inside[j] {
                    // Not converged in 6 steps: the scalar solve (Newton, then bisection).
                    let eased = curves[Int(params[i].curve)].solve(x[j])
                    phase[i] = TimingPhase.active.rawValue
                    progress[i] = eased
                    iteration[i] = 0
                    childTime[i] = eased * d[j]
                } else {
                    evaluateEntry(i, parentTime: now)
                }
            }
            b += 8
        }
    }

    @inline(__always)
    private func load8(_ p: UnsafeMutablePointer<Double>, _ i: Int) -> SIMD8<Double> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Double>.self)
    }

    @inline(__always)
    private func load8(_ p: UnsafeMutablePointer<Bool>, _ i: Int) -> SIMD8<UInt8> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<UInt8>.self)
    }

    @inline(__always)
    private func load8(_ p: UnsafeMutablePointer<UInt8>, _ i: Int) -> SIMD8<UInt8> {
        UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<UInt8>.self)
    }

    @inline(__always)
    private func evaluateEntry(_ i: Int, parentTime: Double) {
        let p = params[i]
        let state = TimingStore.localFraction(now: parentTime, begin: begin[i], p)
        if state.started && !started[i] {
            started[i] = true
            justStarted.append(Int32(i))
        }
        if state.finished && !completed[i] && !(p.repeatCount.isInfinite) {
            completed[i] = true
            justCompleted.append(Int32(i))
        }
        if let x = state.fraction {
            phase[i] = TimingPhase.active.rawValue
            let eased = p.curve == 0 ? x : curves[Int(p.curve)].solve(x)
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
        let d = p.duration
        let cycle = p.autoreverses ? 2 * d : d
        let active: Double
        if p.repeatDuration > 0 {
            active = p.repeatDuration
        } else {
            active = (p.repeatCount > 0 ? p.repeatCount : 1) * cycle
        }
        let a = (now - begin) * p.speed
        guard a.isFinite || a == .infinity else { return (nil, false, false, 0) }
        if a < 0 {
            guard p.fill & FillBits.backwards != 0 else { return (nil, false, false, 0) }
            let f = fold(p.timeOffset, d: d, cycle: cycle, autoreverses: p.autoreverses, atEnd: false)
            return (f.fraction, false, false, f.iteration)
        }
        if a >= active {
            guard p.fill & FillBits.forwards != 0 else { return (nil, true, true, 0) }
            let f = fold(active + p.timeOffset, d: d, cycle: cycle, autoreverses: p.autoreverses, atEnd: true)
            return (f.fraction, true, true, f.iteration)
        }
        let f = fold(a + p.timeOffset, d: d, cycle: cycle, autoreverses: p.autoreverses, atEnd: false)
        return (f.fraction, true, false, f.iteration)
    }

    /// Folds local time into one iteration's fraction 0...1 and its index. At the end of the
    /// active duration a whole number of iterations ends on the iteration's last value.
    @inline(__always)
    static func fold(_ t: Double, d: Double, cycle: Double, autoreverses: Bool, atEnd: Bool)
        -> (fraction: Double, iteration: Double)
    {
        guard d > 0, cycle.isFinite, t.isFinite else { return (1, 0) }
        var k = (t / cycle).rounded(.down)
        var r = t - k * cycle
        if r < 0 { r += cycle; k -= 1 }
        if atEnd && r == 0 && t > 0 { r = cycle; k -= 1 }
        if autoreverses && r > d { r = cycle - r }
        let x = r / d
        return (x < 0 ? 0 : (x > 1 ? 1 : x), k)
    }
}

/// A transaction's completion block and the number of its timing entries still running.
final class CompletionGroup {
    @exclusivity(unchecked) var pending = 0
    @exclusivity(unchecked) var committed = false
    @exclusivity(unchecked) var fired = false
    let block: () -> Void
    init(_ block: @escaping () -> Void) { self.block = block }
}
