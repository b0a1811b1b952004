/// The draw position of each slot after splices, found lazily. A splice shifts the position
/// of nearly every item after its first edit, but an update and the next splice ask for the
/// positions of a few hundred slots (changed items with sublayers, edited layers, their
/// siblings and parents). So each splice records how its order's runs moved (a generation:
/// old start and shift of each run that stayed), an inserted item's position is written as
/// it is placed, and a slot's position is its last known one carried through the
/// generations since (a binary search in each). Every `maxGenerations` splices the positions
/// of every slot are written again (one pass over the order), which bounds that chain.
struct SlotPositions: ~Copyable {
    /// Splices between two passes writing every position.
    static let maxGenerations: UInt32 = 8

    /// Per slot: its last known position, and the generation it is known at. A slot whose
    /// generation is at or before `written` has the position written then (its own slot
    /// number when `writtenAsSlots`: a full pass's order).
    var position = SnapshotBuffer<Int32>()
    var known = SnapshotBuffer<UInt32>()
    var capacity = 0
    /// The order's generation (one more per splice), and the last one every position was
    /// written at.
    var generation: UInt32 = 1
    var written: UInt32 = 1
    var writtenAsSlots = true
    /// Generations after `written`: where each one's runs start in `runStart`/`runShift`
    /// (`runsFrom[g - written - 1]`), each run an old start position and its shift.
    var runsFrom = SnapshotBuffer<Int32>(capacity: 16)
    var runStart = SnapshotBuffer<Int32>()
    var runShift = SnapshotBuffer<Int32>()
    var runs = 0

    /// Room for `slots` slots (new slots' generations are older than any position known).
    mutating func reserve(_ slots: Int) {
        guard slots > capacity else { return }
        position.reserve(slots, keeping: capacity)
        known.reserve(slots, keeping: capacity)
        (known.base + capacity).initialize(repeating: 0, count: known.capacity - capacity)
        capacity = known.capacity
    }

    /// The slots are the draw order (a full pass): every position is the slot's own.
    mutating func slotsAsDrawn() {
        if generation > UInt32.max / 2 {
            known.base.initialize(repeating: 0, count: capacity)
            generation = 1
        }
        generation += 1
        written = generation
        writtenAsSlots = true
        runs = 0
    }

    /// The draw position of `slot` (listed in the order) now.
    mutating func of(_ slot: Int) -> Int {
        var g = known[slot], p: Int32
        if g <= written {
            p = writtenAsSlots ? Int32(truncatingIfNeeded: slot) : position[slot]
            g = written
        } else {
            p = position[slot]
        }
        if g == generation { return Int(p) }
        let starts = runStart.base, shifts = runShift.base, from = runsFrom.base
        let gens = Int(generation - written)
        while g < generation {
            g += 1
            let k = Int(g - written - 1)
            // The last run starting at or before p (the first starts at 0), without branches.
            var base = Int(from[k]), length = (k + 1 < gens ? Int(from[k + 1]) : runs) - base
            while length > 1 {
                let half = length >> 1
                base = starts[base + half] <= p ? base + half : base
                length -= half
            }
            p += shifts[base]
        }
        position[slot] = p
        known[slot] = generation
        return Int(p)
    }

    /// A splice begins a generation: whether it writes every position (the chain is at its
    /// bound) rather than recording its runs.
    mutating func beginGeneration() -> Bool {
        generation += 1
        if generation - written > SlotPositions.maxGenerations {
            written = generation
            writtenAsSlots = false
            runs = 0
            return true
        }
        let k = Int(generation - written - 1)
        runsFrom.reserve(k + 1, keeping: k)
        runsFrom[k] = Int32(truncatingIfNeeded: runs)
        return false
    }

    /// The run of old positions from `start` moved by `shift` in this generation (runs in
    /// ascending order of their start).
    mutating func addRun(start: Int, shift: Int) {
        if runs == runStart.capacity {
            runStart.reserve(runs + 1, keeping: runs)
            runShift.reserve(runs + 1, keeping: runs)
        }
        runStart[runs] = Int32(truncatingIfNeeded: start)
        runShift[runs] = Int32(truncatingIfNeeded: shift)
        runs += 1
    }

    /// `slot` sits at `p` in this generation's order.
    mutating func set(_ slot: Int, _ p: Int) {
        position[slot] = Int32(truncatingIfNeeded: p)
        known[slot] = generation
    }
}
