/// The mask as integer lanes (-1 where true, 0 where false), read from its storage. `&`,
/// `|` and `==` on these lanes, written inline, compile to vector instructions, where
/// `SIMDMask`'s own operators and `all()` are scalarised by this toolchain (see the SIMD
/// codegen notes). The one place the engine reaches for `_storage`.
///
/// Compare the result inline (`maskLanes(m) == SIMD8<Int64>(repeating: -1)`): the same
/// comparison inside a helper function was compiled to a scalar loop over the lanes (measured:
/// frame/opacity/shared/basic/1000 went from 10.4 to 21.7 instructions per animation).
@inline(__always) func maskLanes(_ m: SIMDMask<SIMD8<Int64>>) -> SIMD8<Int64> { m._storage }
