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
        justStarted.reserveCapacity(64)
        justCompleted.reserveCapacity(64)
    }

    deinit {
        begin.free(); progress.free(); iteration.free(); childTime.free(); depth.free(); phase.free(); alive.free(); committed.free()
        started.free(); completed.free(); refCount.free(); firstRecord.free(); delegateCount.free()
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
            for i in 0..<highWater where alive[i] && committed[i] { evaluateEntry(i, parentTime: now) }
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
