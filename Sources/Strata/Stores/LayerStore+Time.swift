/// Layer time: the timing fields (beginTime, speed, timeOffset, duration, repeatCount,
/// repeatDuration, autoreverses, fillMode), each layer's time space, and local times.
extension LayerStore {
    /// The eight CAMediaTiming fields of a layer, materialised together (`materializeTiming`).
    static let timingFields: [PropertyID] = [.beginTime, .speed, .timeOffset, .duration,
                                             .repeatCount, .repeatDuration, .autoreverses, .fillMode]

    /// Materialises the eight timing columns together (each layer at its defaults).
    func materializeTiming() {
        guard !hasTimingColumns else { return }
        for q in LayerStore.timingFields where model[q.index] == nil { materialize(q) }
        hasTimingColumns = true
    }

    /// A layer timing field's new value (validated by the layer), stored in model and
    /// presentation (never animated). Returns whether it changed, so the caller respaces the
    /// layer's subtree; the count of timed layers follows.
    func setTimingField(_ row: Int32, _ p: PropertyID, _ v: Double) -> Bool {
        // The timing fields are materialised together.
        materializeTiming()
        let i = Int(row)
        let col = modelColumn(p)
        let old = col[i]
        let wasTimed = hasOwnTiming(row)
        col[i] = v
        presentationColumn(p)[i] = v
        guard old != v else { return false }
        // A count of the layers with timing of their own, not a flag: once the last one is
        // back to defaults (or gone), changes and inserts skip the ancestor walks.
        let isTimed = hasOwnTiming(row)
        if isTimed && !wasTimed { timedLayers += 1 }
        if wasTimed && !isTimed { timedLayers -= 1 }
        return true
    }

    /// Does `row` itself have a timing field that is not its default (beginTime, speed,
    /// timeOffset, duration, repeatCount, repeatDuration, autoreverses or fillMode)?
    @inline(__always)
    func hasOwnTiming(_ row: Int32) -> Bool {
        guard hasTimingColumns, let b = model[PropertyID.beginTime.index] else { return false }
        return hasOwnTiming(Int(row), b)
    }

    /// `hasOwnTiming` once the timing columns are known to exist (`b`: beginTime's).
    @inline(__always)
    private func hasOwnTiming(_ i: Int, _ b: Slab<Double>) -> Bool {
        if b[i] != 0 || model[PropertyID.speed.index]![i] != 1 || model[PropertyID.timeOffset.index]![i] != 0 { return true }
        return model[PropertyID.duration.index]![i] != 0 || model[PropertyID.repeatCount.index]![i] != 0
            || model[PropertyID.repeatDuration.index]![i] != 0 || model[PropertyID.autoreverses.index]![i] != 0
            || model[PropertyID.fillMode.index]![i] != 0
    }

    /// One layer's time for its parent's time `t`: the identity when its timing is all
    /// defaults, else `TimingStore.layerLocalTime` (the animation's window and fold: see
    /// there for what `active` means). Needs the timing columns.
    @inline(__always)
    private func ownTime(_ i: Int, _ t: Double, _ b: Slab<Double>) -> (time: Double, active: Bool) {
        guard hasOwnTiming(i, b) else { return (t, true) }
        var p = TimingParameters()
        p.speed = model[PropertyID.speed.index]![i]
        p.timeOffset = model[PropertyID.timeOffset.index]![i]
        p.duration = model[PropertyID.duration.index]![i]
        p.repeatCount = model[PropertyID.repeatCount.index]![i]
        p.repeatDuration = model[PropertyID.repeatDuration.index]![i]
        p.autoreverses = model[PropertyID.autoreverses.index]![i] != 0
        p.fill = UInt8(truncatingIfNeeded: Int(model[PropertyID.fillMode.index]![i]))
        return TimingStore.layerLocalTime(parentTime: t, begin: b[i], p)
    }

    /// A layer's local time for parent (media) time `t`, from the root down (each layer's
    /// `TimingStore.layerLocalTime`), whether or not the layer is active there: what
    /// `convertTime` and commits use.
    func localTime(_ row: Int32, _ t: Double) -> Double {
        var cache = LocalTimeCache(media: t)
        return localTime(row, cache: &cache)
    }

    /// `localTime(row, t)`, or NaN when the layer or an ancestor is outside its active time
    /// and not held by its fill mode there (its animations then have no effect): the time a
    /// frame evaluates the layer's animations at.
    func activeLocalTime(_ row: Int32, _ t: Double) -> Double {
        var cache = LocalTimeCache(media: t)
        return activeLocalTime(row, cache: &cache)
    }

    /// `localTime(row, cache.media)`, remembering the local time of every layer on the way:
    /// a pass that converts many layers' times (a frame's timing entries, a commit's new
    /// entries) walks each ancestor once, not once per descendant (per-entry walks made a
    /// frame of N animations under a timed ancestor O(N x depth): 0.5 s for a 16,000-deep
    /// chain).
    func localTime(_ row: Int32, cache: inout LocalTimeCache) -> Double {
        mappedTime(row, cache: &cache).time
    }

    /// `activeLocalTime(row, cache.media)` through the cache.
    func activeLocalTime(_ row: Int32, cache: inout LocalTimeCache) -> Double {
        let m = mappedTime(row, cache: &cache)
        return m.active ? m.time : .nan
    }

    /// The walk behind `localTime` and `activeLocalTime`. Only layers with timing of their
    /// own change the time on the way up, and each layer names the nearest (`timeSpace`): the
    /// walk steps from one to the next, so its length is the number of timed ancestors, not
    /// the depth (converting a time on a chain of N layers under ten timed ones is ten steps).
    private func mappedTime(_ row: Int32, cache: inout LocalTimeCache) -> LayerTime {
        guard hasTimingColumns, let b = model[PropertyID.beginTime.index] else { return LayerTime(time: cache.media, active: true) }
        let space = timeSpace[Int(row)]
        if space < 0 { return LayerTime(time: cache.media, active: true) }
        if let known = cache.times[space] { return known }
        // Up to the first timed ancestor already converted (or past the root) ...
        var x = space
        var time = LayerTime(time: cache.media, active: true)
        cache.path.removeAll(keepingCapacity: true)
        while x >= 0 {
            if let known = cache.times[x] { time = known; break }
            cache.path.append(x)
            let p = parent[Int(x)]
            x = p >= 0 ? timeSpace[Int(p)] : -1
        }
        // ... then down again, root side first.
        for r in cache.path.reversed() {
            let own = ownTime(Int(r), time.time, b)
            time = LayerTime(time: own.time, active: time.active && own.active)
            cache.times[r] = time
            cache.steps &+= 1
        }
        return time
    }

    /// Does `row` or an ancestor have non-default timing?
    @inline(__always)
    func inTimedSubtree(_ row: Int32) -> Bool { timeSpace[Int(row)] >= 0 }

    /// Brings `timeSpace` up to date for `root` and its subtree after `root` was linked,
    /// unlinked or its own timing became or stopped being the default; the rows whose time
    /// space changed are left in `timeSpaceChanges` (they all have the returned one). Nothing
    /// below `root` changes when `root`'s own time space does not, and a timed descendant
    /// keeps its own: only the layers whose time changes are visited, so building or taking
    /// down a tree, or moving a subtree within one time space, costs one step per link.
    func updateTimeSpace(_ root: Int32) -> Int32 {
        timeSpaceChanges.removeAll(keepingCapacity: true)
        let p = parent[Int(root)]
        let space = hasOwnTiming(root) ? root : p >= 0 ? timeSpace[Int(p)] : -1
        guard space != timeSpace[Int(root)] else { return space }
        timeSpace[Int(root)] = space
        timeSpaceChanges.append(root)
        var k = 0
        while k < timeSpaceChanges.count {
            var c = firstChild[Int(timeSpaceChanges[k])]
            k += 1
            while c >= 0 {
                if timeSpace[Int(c)] != space && !hasOwnTiming(c) {
                    timeSpace[Int(c)] = space
                    timeSpaceChanges.append(c)
                }
                c = nextSibling[Int(c)]
            }
        }
        return space
    }
}
