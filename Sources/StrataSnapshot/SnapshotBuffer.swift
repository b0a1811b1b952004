/// A growable run of trivially-copyable values in manually managed, 64-byte aligned memory
/// that frees itself: the columns of a `RenderSnapshot`. Noncopyable, so exactly one owner
/// holds the memory and `deinit` releases it; the snapshot hands readers spans over `base`.
///
/// - Complexity: reads and writes O(1); `reserve` O(n) on growth only.
@frozen
package struct SnapshotBuffer<Element>: ~Copyable {
    @usableFromInline package private(set) var base: UnsafeMutablePointer<Element>
    @usableFromInline package private(set) var capacity: Int

    @inlinable
    package init(capacity: Int = 0) {
        let c = Swift.max(capacity, 16)
        base = UnsafeMutableRawPointer.allocate(byteCount: c * MemoryLayout<Element>.stride, alignment: 64)
            .bindMemory(to: Element.self, capacity: c)
        self.capacity = c
    }

    /// Room for at least `n` elements; the first `keep` are kept (the rest are undefined
    /// until written).
    @inlinable
    package mutating func reserve(_ n: Int, keeping keep: Int) {
        guard n > capacity else { return }
        var c = capacity
        while c < n { c *= 2 }
        let nb = UnsafeMutableRawPointer.allocate(byteCount: c * MemoryLayout<Element>.stride, alignment: 64)
            .bindMemory(to: Element.self, capacity: c)
        nb.update(from: base, count: Swift.min(keep, capacity))
        UnsafeMutableRawPointer(base).deallocate()
        base = nb
        capacity = c
    }

    @inlinable
    package subscript(i: Int) -> Element {
        @inline(__always) get { base[i] }
        @inline(__always) nonmutating set { base[i] = newValue }
    }

    @inlinable
    deinit { UnsafeMutableRawPointer(base).deallocate() }
}
