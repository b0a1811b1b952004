/// The (layer, property) pairs whose animations are composed after the kernels (several
/// animations of one property, an additive one, or a lane range laid over the model value),
/// as `row << 8 | property` keys the frame walks (`FrameRenderer.composeAll`).
///
/// Finding, adding and removing a pair costs the same at any number of pairs: each row
/// chains its own pairs (a row has a few at most, one per property), and a removal moves the
/// last pair into the gap. Before, the pairs were one array searched from the front, so an
/// implicit change interrupting a running animation (two animations of the property: a pair
/// to add) searched every composed pair of the engine: a transaction of N such changes was
/// quadratic (1,190-1,310 ns a change at 1e3 layers, 9,590-9,970 at 1e4).
///
/// Each pair composes its own property of its own layer, so the order of `keys` is not
/// observable.
struct ComposedPairs {
    /// The pairs, `row << 8 | property`, and for each the next pair of the same row (an
    /// index into `keys`), -1 at the end of its chain. Columns, not arrays: with arrays
    /// (their uniqueness and capacity checks on append) an insert took 82 instructions of
    /// the interrupting change's 772, 37 now (callgrind, commit/implicit-over-running).
    private var keys = Column<Int64>(capacity: 64, fill: 0)
    private var next = Column<Int32>(capacity: 64, fill: -1)
    /// The first pair of each layer row, -1 when none (grown as rows are made).
    private var head = Column<Int32>(capacity: 64, fill: -1)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    subscript(k: Int) -> Int64 { keys[k] }
    /// Bytes of the pairs (counted with the animations' bytes in reports).
    var pairBytes: Int { keys.capacity * 8 + next.capacity * 4 }
    /// Bytes of the rows' chain heads (counted with the layers' bytes).
    var rowBytes: Int { head.capacity * 4 }

    /// The owner frees the columns (`AnimationStore.deinit`).
    func free() { keys.free(); next.free(); head.free() }

    /// Room for layer row `row` (a new row has no pairs).
    @inline(__always)
    mutating func rowMade(_ row: Int32) {
        if _slowPath(Int(row) >= head.capacity) { head.grow(to: grownCapacity(head.capacity, needed: Int(row) + 1)) }
    }

    /// Where pair (row, property) is in `keys`, or -1.
    @inline(__always)
    func index(row: Int32, property p: Int32) -> Int {
        guard Int(row) < head.capacity else { return -1 }
        var i = head[Int(row)]
        while i >= 0 {
            if keys[Int(i)] & 0xff == Int64(p) { return Int(i) }
            i = next[Int(i)]
        }
        return -1
    }

    /// Adds pair (row, property), not already there.
    mutating func insert(row: Int32, property p: Int32) {
        rowMade(row)
        if _slowPath(count == keys.capacity) {
            keys.grow(to: grownCapacity(keys.capacity, needed: count + 1))
            next.grow(to: keys.capacity)
        }
        keys[count] = Int64(row) << 8 | Int64(p)
        next[count] = head[Int(row)]
        head[Int(row)] = Int32(truncatingIfNeeded: count)
        count &+= 1
    }

    /// Removes the pair at `i` of `keys`: the last pair takes its place.
    mutating func remove(at i: Int) {
        unchain(i, replacingWith: next[i])
        let last = count - 1
        if i != last {
            unchain(last, replacingWith: Int32(i))
            keys[i] = keys[last]
            next[i] = next[last]
        }
        count -= 1
    }

    /// Points whatever in its row's chain points at pair `i` (the row's head or the pair
    /// before it) at `replacement` instead.
    private func unchain(_ i: Int, replacingWith replacement: Int32) {
        let row = Int(keys[i] >> 8)
        if head[row] == Int32(i) { head[row] = replacement; return }
        var j = Int(head[row])
        while next[j] != Int32(i) { j = Int(next[j]) }
        next[j] = replacement
    }
}
