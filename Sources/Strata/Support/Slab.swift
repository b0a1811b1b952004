/// Memory its holder owns and frees by hand, one word wide: a layer property's lanes, a
/// keyframe schedule's tables, the snapshot's chunk flags. Like `Column` it is copyable and
/// reference-count free (a hot loop over it pays no retain, release or exclusivity check); unlike
/// `Column` it keeps no capacity or fill, because its holder already knows both (a store's row
/// capacity times the property's width). Only the holder calls `free()`; a pass that reads
/// the memory takes a `ColumnSpan` of it instead.
///
/// It is one of the handle types, the only places a raw pointer is stored
/// (`ArchitectureTests.test_rawPointersAreStoredOnlyInHandleTypes`).
///
/// - Complexity: reads and writes O(1); `allocate` and `free` are one allocator call.
struct Slab<Element: ~Copyable> {
    /// The first element.
    let base: UnsafeMutablePointer<Element>

    /// Takes over `base`, which the caller allocated (and no longer frees itself).
    @inline(__always)
    init(adopting base: UnsafeMutablePointer<Element>) { self.base = base }

    /// Room for `capacity` elements, uninitialised.
    @inline(__always)
    static func allocate(capacity: Int) -> Slab { Slab(adopting: .allocate(capacity: capacity)) }

    /// Room for `capacity` elements aligned to `alignment` bytes (a cache line for the lanes
    /// that SIMD loads read), uninitialised.
    static func allocate(capacity: Int, alignment: Int) -> Slab {
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: Swift.max(capacity, 1) * MemoryLayout<Element>.stride, alignment: alignment)
        return Slab(adopting: raw.bindMemory(to: Element.self, capacity: Swift.max(capacity, 1)))
    }

    /// Releases the memory (its elements must be trivial or deinitialised first).
    @inline(__always)
    func free() { UnsafeMutableRawPointer(base).deallocate() }

    subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(base + i) }
        @inline(__always) nonmutating unsafeMutableAddress { base + i }
    }
}

extension Slab where Element: Copyable {
    /// The elements lent to a pass or a job.
    @inline(__always)
    var span: ColumnSpan<Element> { ColumnSpan(lending: base) }
}

/// Elements of a column lent to a pass or a job for its duration: the snapshot's inputs and
/// output columns, a lane job's timing and property columns. A pass reads a column's base once
/// and then indexes it with no retain, exclusivity or bounds check. A span owns nothing and
/// frees nothing: it is valid until the column's owner grows or frees the column, which the
/// owner never does while a pass or job holds it. (ozz-animation's jobs take output spans the
/// same way; swift-collections keeps its pointers in handles of this kind.)
///
/// It is one of the handle types, the only places a raw pointer is stored.
///
/// - Complexity: O(1) reads and writes.
struct ColumnSpan<Element> {
    /// The first element: for a kernel that loads SIMD blocks or copies runs.
    let base: UnsafeMutablePointer<Element>

    /// Lends `base` (owned by a column, a slab or a buffer of another module).
    @inline(__always)
    init(lending base: UnsafeMutablePointer<Element>) { self.base = base }

    /// Lends a column's elements.
    @inline(__always)
    init(_ column: Column<Element>) { base = column.base }

    subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(base + i) }
        @inline(__always) nonmutating unsafeMutableAddress { base + i }
    }
}
