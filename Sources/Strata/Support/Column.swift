/// A growable column of trivially-copyable elements in manually managed, 64-byte aligned
/// memory. Stores own their columns and free them in `deinit`; nothing here is
/// reference-counted, so a hot loop over `base` pays no retain, release or exclusivity check.
///
/// Not `~Copyable`: a noncopyable column (freeing itself in `deinit`) was tried and measured
/// under callgrind: commit/implicit/1000 went from 604 to 618 instructions per change and
/// lookup/built-in/cached from 23.5 to 24.5 per lookup (the store columns' accesses compiled
/// less well), so the stores free their columns by hand.
///
/// - Complexity: reads and writes O(1); `grow` O(n) and only on capacity change.
@usableFromInline
struct Column<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var capacity: Int
    /// The value of new slots (at `init` and on `grow`).
    @usableFromInline let fill: Element

    @inlinable init(capacity: Int = 64, fill: Element) {
        let c = max(capacity, 8)
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: c * MemoryLayout<Element>.stride, alignment: 64)
        base = raw.bindMemory(to: Element.self, capacity: c)
        base.initialize(repeating: fill, count: c)
        self.capacity = c
        self.fill = fill
    }


    /// Grows to at least `newCapacity`, filling new slots with the column's `fill`.
    @usableFromInline mutating func grow(to newCapacity: Int) { grow(to: newCapacity, fill: fill) }

    @usableFromInline func free() {
        base.deinitialize(count: capacity)
        UnsafeMutableRawPointer(base).deallocate()
    }

    /// Grows to at least `newCapacity`, filling new slots with `fill`.
    @usableFromInline mutating func grow(to newCapacity: Int, fill: Element) {
        guard newCapacity > capacity else { return }
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: newCapacity * MemoryLayout<Element>.stride, alignment: 64)
        let nb = raw.bindMemory(to: Element.self, capacity: newCapacity)
        nb.moveInitialize(from: base, count: capacity)
        (nb + capacity).initialize(repeating: fill, count: newCapacity - capacity)
        UnsafeMutableRawPointer(base).deallocate()
        base = nb
        capacity = newCapacity
    }

    @inlinable subscript(i: Int) -> Element {
        @inline(__always) get { base[i] }
        @inline(__always) nonmutating set { base[i] = newValue }
    }
}

/// Capacity growth policy shared by the stores: doubling, in whole blocks of 8 lanes.
@inline(__always)
func grownCapacity(_ current: Int, needed: Int) -> Int {
    var c = max(current, 64)
    while c < needed { c *= 2 }
    return (c + 7) & ~7
}

/// A growable table of trivially-copyable rows addressed in place: `table[i].field = x`
/// writes one field through `unsafeMutableAddress`, with no copy-on-write uniqueness check,
/// no retain and no bounds check (indices come from the store's own free list). The store
/// that owns it frees it in `deinit`.
struct RowTable<Element> {
    var rows: Column<Element>
    private(set) var count = 0
    let empty: Element

    init(empty: Element) {
        self.empty = empty
        rows = Column(capacity: 64, fill: empty)
    }

    subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(rows.base + i) }
        @inline(__always) nonmutating unsafeMutableAddress { rows.base + i }
    }

    /// Appends `row`; returns its index. Inline, with the growth out of line: an append is
    /// a few stores (the engine's change log appends one per property change).
    @inline(__always)
    mutating func append(_ row: Element) -> Int {
        if _slowPath(count == rows.capacity) { grow() }
        let i = count
        rows.base[i] = row
        count = i &+ 1
        return i
    }

    @inline(never)
    private mutating func grow() {
        rows.grow(to: grownCapacity(rows.capacity, needed: count + 1), fill: empty)
    }

    /// Empties the table (capacity kept).
    @inline(__always)
    mutating func removeAll() { count = 0 }

    func free() { rows.free() }
}

/// A growable, append-only run of trivially-copyable values in manually managed memory (the
/// key pools of keyframe tracks): `base[i]` reads with no bounds check or retain. The owner
/// frees it.
struct Pool<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private(set) var capacity = 0

    init() {
        base = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    }

    private mutating func reserve(_ n: Int) {
        guard count + n > capacity else { return }
        var c = Swift.max(capacity, 64)
        while c < count + n { c *= 2 }
        let nb = UnsafeMutablePointer<Element>.allocate(capacity: c)
        nb.moveInitialize(from: base, count: count)
        base.deallocate()
        base = nb
        capacity = c
    }

    mutating func append(contentsOf values: [Element]) {
        guard !values.isEmpty else { return }   // an empty array may have no buffer at all
        reserve(values.count)
        values.withUnsafeBufferPointer { (base + count).initialize(from: $0.baseAddress!, count: $0.count) }
        count += values.count
    }

    /// Appends `n` values of `other` from index `start`.
    mutating func append(from other: Pool<Element>, _ start: Int, _ n: Int) {
        guard n > 0 else { return }
        reserve(n)
        (base + count).initialize(from: other.base + start, count: n)
        count += n
    }

    subscript(i: Int) -> Element {
        @inline(__always) get { base[i] }
    }

    func free() {
        base.deinitialize(count: count)
        base.deallocate()
    }


}

/// A stack of Int32 indices (a store's free list) in manually managed memory: push and pop
/// with no uniqueness check or retain. The owner frees it.
struct IndexStack {
    private var items = Column<Int32>(capacity: 64, fill: -1)
    private(set) var count = 0
    var capacity: Int { items.capacity }

    mutating func push(_ i: Int32) {
        if count == items.capacity { items.grow(to: items.capacity * 2, fill: -1) }
        items[count] = i
        count += 1
    }

    mutating func pop() -> Int32? {
        guard count > 0 else { return nil }
        count -= 1
        return items[count]
    }

    /// Every index of `0..<n` free again, to be popped in ascending order: a store whose
    /// last row was freed hands out its rows in order again, not in the order the last ones
    /// went (which, after scattered removals, scatters the next rows over memory).
    mutating func refillAscending(_ n: Int) {
        if n > items.capacity { items.grow(to: n, fill: -1) }
        for k in 0..<n { items[k] = Int32(truncatingIfNeeded: n &- 1 &- k) }
        count = n
    }

    func free() { items.free() }
}
