/// A stack of strong layer references in memory it owns (the engine's live and spare
/// presentation copies): pushing moves a reference in and popping moves it out, with no
/// retain, release or uniqueness check of an array; `isUnique(at:)` asks whether the stack
/// holds the only reference. Noncopyable: its one owner releases what it holds.
struct CopyStack: ~Copyable {
    private var base: Slab<CALayer>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.base.deinitialize(count: count)
        base.free()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    mutating func push(_ layer: consuming CALayer) {
        if _slowPath(count == capacity) { grow() }
        (base.base + count).initialize(to: layer)
        count += 1
    }

    @inline(__always)
    mutating func pop() -> CALayer? {
        guard count > 0 else { return nil }
        count -= 1
        return (base.base + count).move()
    }

    /// The reference at `i` is the only one.
    @inline(__always)
    func isUnique(at i: Int) -> Bool { isKnownUniquelyReferenced(&base[i]) }

    /// The reference at `i` (borrowed).
    @inline(__always)
    subscript(i: Int) -> CALayer { base[i] }

    /// Moves the reference at `i` out, the last one taking its place.
    @inline(__always)
    mutating func remove(at i: Int) -> CALayer {
        let l = (base.base + i).move()
        count -= 1
        if i != count { (base.base + i).moveInitialize(from: base.base + count, count: 1) }
        return l
    }

    private mutating func grow() {
        let c = Swift.max(64, capacity * 2)
        let n = Slab<CALayer>.allocate(capacity: c)
        n.base.moveInitialize(from: base.base, count: count)
        base.free()
        base = n
        capacity = c
    }
}
