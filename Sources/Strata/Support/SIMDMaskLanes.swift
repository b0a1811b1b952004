extension SIMDMask where Storage == SIMD8<Int64> {
    /// The mask as integer lanes (-1 where true, 0 where false), read from its storage.
    /// `&`, `|` and `==` on these lanes compile to single AVX2 instructions, where
    /// `SIMDMask`'s own operators and `all()` are scalarised by this toolchain (see the SIMD
    /// codegen notes). The one place the engine reaches for `_storage`.
    @inline(__always) var lanes: SIMD8<Int64> { _storage }
}

/// Lanes of a mask that are all true.
@inline(__always) func allLanes(_ m: SIMD8<Int64>) -> Bool { m == SIMD8<Int64>(repeating: -1) }
