/// The spring motion of 8 timing entries at once, `SpringCurve`'s formula rewritten with one
/// cosine: cos(w t) + b sin(w t) = r cos(w t - phi), r = sqrt(1 + b^2), phi = atan(b), so
/// progress = 1 - exp(-a t) (r cos(w t - phi) + c t) (r = 1, phi = 0 and w = 0 when
/// critically damped, c = 0 otherwise). Two SIMD4 halves (as `DecomposedKernel`: the
/// temporaries fit the registers).
enum SpringKernel {
    @inline(__always)
    static func progress(t: SIMD8<Double>, a: SIMD8<Double>, w: SIMD8<Double>, phi: SIMD8<Double>, r: SIMD8<Double>,
                         c: SIMD8<Double>) -> SIMD8<Double> {
        let lo = half(t.lowHalf, a.lowHalf, w.lowHalf, phi.lowHalf, r.lowHalf, c.lowHalf)
        let hi = half(t.highHalf, a.highHalf, w.highHalf, phi.highHalf, r.highHalf, c.highHalf)
        return SIMD8(lowHalf: lo, highHalf: hi)
    }

    @inline(__always)
    static func half(_ t: SIMD4<Double>, _ a: SIMD4<Double>, _ w: SIMD4<Double>, _ phi: SIMD4<Double>,
                     _ r: SIMD4<Double>, _ c: SIMD4<Double>) -> SIMD4<Double> {
        let cosine = SIMD4Trig.cos((-phi).addingProduct(w, t))
        let e = SIMD4Exp.exp(-(a * t))
        return 1 - e * (c * t).addingProduct(r, cosine)
    }
}

extension SIMD4Trig {
    /// Cosine of 4 lanes: x = k pi + r with |r| <= pi / 2 (Cody and Waite, two constants),
    /// cos r by its Taylor series to r^18 (error below 4e-15 there), the sign flipped for odd
    /// k by a bit operation. One polynomial and no quadrant select: about half of `sincos`.
    /// Arguments up to about 1e5 in magnitude.
    @inline(__always)
    static func cos(_ x: SIMD4<Double>) -> SIMD4<Double> {
        let shifter = SIMD4<Double>(repeating: 6_755_399_441_055_744.0)
        let kShifted = x * (1 / Double.pi) + shifter
        let k = kShifted - shifter
        // pi in two parts (twice fdlibm's pio2_1 and pio2_1t): the first has 33 significant
        // bits, so k times it is exact for the k of |x| up to 1e5.
        let r = (x - k * 3.14159265346825122834e+00) - k * 1.21542010130123844986e-10
        let z = r * r
        // The series in z = r^2 by Estrin's scheme: pairs, then pairs of pairs with z^2, z^4
        // and z^8. Its longest chain is 5 operations where Horner's was 9 dependent fused
        // multiply-adds (the kernel was bound by that latency: 77% of an own-spring frame).
        // `addingProduct`: Swift does not contract `p * z + c` into one instruction.
        let z2 = z * z, z4 = z2 * z2, z8 = z4 * z4
        let p01 = SIMD4<Double>(repeating: 1).addingProduct(z, -0.5)
        let p23 = SIMD4<Double>(repeating: 1.0 / 24).addingProduct(z, -1.0 / 720)
        let p45 = SIMD4<Double>(repeating: 1.0 / 40_320).addingProduct(z, -1.0 / 3_628_800)
        let p67 = SIMD4<Double>(repeating: 1.0 / 479_001_600).addingProduct(z, -1.0 / 87_178_291_200)
        let p89 = SIMD4<Double>(repeating: 1.0 / 20_922_789_888_000).addingProduct(z, -1.0 / 6_402_373_705_728_000)
        let q0 = p01.addingProduct(p23, z2), q1 = p45.addingProduct(p67, z2)
        let p = q0.addingProduct(q1, z4).addingProduct(p89, z8)
        // (-1)^k: k's lowest bit (in the shifted value's lowest mantissa bit) to the sign.
        let sign = (unsafeBitCast(kShifted, to: SIMD4<UInt64>.self) & 1) &<< 63
        return unsafeBitCast(unsafeBitCast(p, to: SIMD4<UInt64>.self) ^ sign, to: SIMD4<Double>.self)
    }
}

/// e^x of 4 lanes for x <= 0 (spring envelopes): x below -708 gives e^-708 (about 3e-308,
/// which no progress can tell from 0); k = round(x / ln 2) by the shifter trick, the rest
/// r = x - k ln 2 (Cody and Waite, two constants, |r| <= ln 2 / 2) through a degree-11 Taylor
/// polynomial (relative error below 1e-14 there), scaled by 2^k built in the exponent bits.
enum SIMD4Exp {
    @inline(__always)
    static func exp(_ x0: SIMD4<Double>) -> SIMD4<Double> {
        var x = x0
        x.replace(with: -708, where: x .< -708)
        let shifter = SIMD4<Double>(repeating: 6_755_399_441_055_744.0)
        let kShifted = x * 1.4426950408889634 + shifter
        let k = kShifted - shifter
        let r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10
        // The Taylor series to r^11 by Estrin's scheme (longest chain 5, Horner's 11).
        let r2 = r * r, r4 = r2 * r2, r8 = r4 * r4
        let p01 = SIMD4<Double>(repeating: 1).addingProduct(r, 1)
        let p23 = SIMD4<Double>(repeating: 0.5).addingProduct(r, 1.0 / 6)
        let p45 = SIMD4<Double>(repeating: 1.0 / 24).addingProduct(r, 1.0 / 120)
        let p67 = SIMD4<Double>(repeating: 1.0 / 720).addingProduct(r, 1.0 / 5_040)
        let p89 = SIMD4<Double>(repeating: 1.0 / 40_320).addingProduct(r, 1.0 / 362_880)
        let pab = SIMD4<Double>(repeating: 1.0 / 3_628_800).addingProduct(r, 1.0 / 39_916_800)
        let q0 = p01.addingProduct(p23, r2), q1 = p45.addingProduct(p67, r2), q2 = p89.addingProduct(pab, r2)
        let p = q0.addingProduct(q1, r4).addingProduct(q2, r8)
        // 2^k: k (two's complement in the shifted value's low bits) + 1023 in the exponent.
        let kBits = unsafeBitCast(kShifted, to: SIMD4<Int64>.self) &- unsafeBitCast(shifter, to: SIMD4<Int64>.self)
        let scale = unsafeBitCast((kBits &+ 1023) &<< 52, to: SIMD4<Double>.self)
        return p * scale
    }
}
