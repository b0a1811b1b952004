import Foundation

/// Whole transforms interpolated by decomposition (SEMANTICS.md, "Whole transforms"), 8 slots
/// at a time: each slot's `TransformBlend` is kept as `TransformBlend.partCount` numbers per
/// lane of a block (`LaneTrack.parts`); a frame interpolates them, slerps the quaternions and
/// recomposes the matrices in SIMD, four lanes to a register, sine and cosine included (`SIMD4Trig`), with
/// the arithmetic of `TransformBlend.value(at:from:to:)` (to rounding).
enum DecomposedKernel {
    /// The 16 entries (m11 ... m44, each a `SIMD8<Double>` of 8 slots) of block `parts` (37
    /// vectors) at progress `t`, written to `out` (16 vectors, 64-byte aligned). In two halves
    /// of 4 lanes: one register per value, where 8 lanes (two registers each) spilled to the
    /// stack. (Transposing the 4 lanes' values in registers and storing rows as vectors was
    /// tried: this compiler lowered the shuffles element by element, 2.6x the instructions.)
    @inline(__always)
    static func evaluate(_ parts: UnsafeRawPointer, t: SIMD8<Double>, into out: UnsafeMutableRawPointer) {
        evaluate4(parts, t: t.lowHalf, into: out)
        evaluate4(parts + 32, t: t.highHalf, into: out + 32)
    }

    /// Four lanes: vectors of `parts` and `out` 64 bytes apart.
    @inline(__always)
    private static func evaluate4(_ parts: UnsafeRawPointer, t: SIMD4<Double>, into out: UnsafeMutableRawPointer) {
        typealias V = SIMD4<Double>
        @inline(__always) func part(_ i: Int) -> V { parts.loadUnaligned(fromByteOffset: i &* 64, as: V.self) }
        @inline(__always) func lin(_ i: Int) -> V { part(i).addingProduct(part(13 &+ i), t) }
        let tx = lin(0), ty = lin(1), tz = lin(2)
        let sx = lin(3), sy = lin(4), sz = lin(5)
        let kxy = lin(6), kxz = lin(7), kyz = lin(8)
        let px = lin(9), py = lin(10), pz = lin(11), pw = lin(12)
        // Slerp: w = sin(t theta) / sin(theta); the first quaternion's weight cos(t theta) - dot w.
        let (sine, cosine) = SIMD4Trig.sincos(t * part(34))
        let w = sine * part(35)
        let c = cosine - part(36) * w
        let x = part(26) * c + part(30) * w, y = part(27) * c + part(31) * w
        let z = part(28) * c + part(32) * w, q = part(29) * c + part(33) * w
        // Rotation rows, the perspective column carried through them (Decomposed.recomposed).
        let one = V(repeating: 1), two = V(repeating: 2)
        let r1x = one - two * (y * y + z * z), r1y = two * (x * y + z * q), r1z = two * (x * z - y * q)
        var r2x = two * (x * y - z * q), r2y = one - two * (x * x + z * z), r2z = two * (y * z + x * q)
        var r3x = two * (x * z + y * q), r3y = two * (y * z - x * q), r3z = one - two * (x * x + y * y)
        let r1w = r1x * px + r1y * py + r1z * pz
        var r2w = r2x * px + r2y * py + r2z * pz
        var r3w = r3x * px + r3y * py + r3z * pz
        let r4w = pw + tx * px + ty * py + tz * pz
        // Shears: yz, then xz, then xy (a zero shear adds zero).
        r3x += kyz * r2x; r3y += kyz * r2y; r3z += kyz * r2z; r3w += kyz * r2w
        r3x += kxz * r1x; r3y += kxz * r1y; r3z += kxz * r1z; r3w += kxz * r1w
        r2x += kxy * r1x; r2y += kxy * r1y; r2z += kxy * r1z; r2w += kxy * r1w
        @inline(__always) func store(_ i: Int, _ v: V) { out.storeBytes(of: v, toByteOffset: i &* 64, as: V.self) }
        store(0, r1x * sx); store(1, r1y * sx); store(2, r1z * sx); store(3, r1w * sx)
        store(4, r2x * sy); store(5, r2y * sy); store(6, r2z * sy); store(7, r2w * sy)
        store(8, r3x * sz); store(9, r3y * sz); store(10, r3z * sz); store(11, r3w * sz)
        store(12, tx); store(13, ty); store(14, tz); store(15, r4w)
    }
}

/// Sine and cosine of 4 lanes at once: the argument reduced by multiples of pi/2 (Cody and
/// Waite, two constants), then fdlibm's kernel polynomials on [-pi/4, pi/4] (about 1 ulp),
/// the quadrant chosen with bit operations (no branch, no lane-by-lane select). Arguments up
/// to about 1e5 in magnitude (slerp angles are within a few pi).
enum SIMD4Trig {
    @inline(__always)
    static func sincos(_ x: SIMD4<Double>) -> (sin: SIMD4<Double>, cos: SIMD4<Double>) {
        // k = x * 2 / pi rounded to the nearest integer: adding 1.5 * 2^52 leaves the integer
        // in the low mantissa bits (the quadrant) and, subtracted again, its value.
        let shifter = SIMD4<Double>(repeating: 6_755_399_441_055_744.0)
        let kShifted = x * (2 / Double.pi) + shifter
        let k = kShifted - shifter
        let r = (x - k * 1.57079632673412561417e+00) - k * 6.07710050650619224932e-11
        let z = r * r
        var s = z * 1.58969099521155010221e-10 + -2.50507602534068634195e-08
        s = s * z + 2.75573137070700676789e-06
        s = s * z + -1.98412698298579493134e-04
        s = s * z + 8.33333333332248946124e-03
        s = s * z + -1.66666666666666324348e-01
        let sinR = r + r * z * s
        var c = z * -1.13596475577881948265e-11 + 2.08757232129817482790e-09
        c = c * z + -2.75573143513906633035e-07
        c = c * z + 2.48015872894767294178e-05
        c = c * z + -1.38888888888741095749e-03
        c = c * z + 4.16666666666666019037e-02
        let cosR = (1 - 0.5 * z) + z * z * c
        // Quadrant n (k mod 4): sin x = [s, c, -s, -c][n], cos x = [c, -s, -c, s][n].
        let n = unsafeBitCast(kShifted, to: SIMD4<UInt64>.self)
        let zero = SIMD4<UInt64>(repeating: 0)
        let swap = zero &- (n & 1)                                  // all ones where n is odd
        let sign = SIMD4<UInt64>(repeating: 0x8000_0000_0000_0000)
        let sinSign = (n & 2) &<< 62                                  // n = 2, 3
        let cosSign = ((n &+ 1) & 2) &<< 62                           // n = 1, 2
        let sb = unsafeBitCast(sinR, to: SIMD4<UInt64>.self), cb = unsafeBitCast(cosR, to: SIMD4<UInt64>.self)
        let sinBits = ((sb & ~swap) | (cb & swap)) ^ (sinSign & sign)
        let cosBits = ((cb & ~swap) | (sb & swap)) ^ (cosSign & sign)
        return (unsafeBitCast(sinBits, to: SIMD4<Double>.self), unsafeBitCast(cosBits, to: SIMD4<Double>.self))
    }
}
