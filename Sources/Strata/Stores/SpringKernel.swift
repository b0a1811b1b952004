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
    /// Cosine of 4 lanes: x = k pi + r with |r| <= pi / 2 (Cody and Waite, two constants, in
    /// fused multiply-adds), cos r by a degree-7 polynomial in r^2 (error below 2.2e-15 on
    /// |r| <= pi / 2), the sign flipped for odd k by a bit operation. One polynomial and no
    /// quadrant select: about half of `sincos`. Arguments up to about 1e5 in magnitude.
    ///
    /// The coefficients are the Chebyshev fit of cos(sqrt(z)) on 0 <= z <= (pi / 2)^2 (mpmath's
    /// `chebyfit`, 50 digits, rounded to Double), near the minimax: 8 coefficients hold the
    /// error the Taylor series needed 10 for. (`scripts/lib/kernel-coefficients.py` prints
    /// them again.)
    @inline(__always)
    static func cos(_ x: SIMD4<Double>) -> SIMD4<Double> {
        let shifter = SIMD4<Double>(repeating: 6_755_399_441_055_744.0)
        let kShifted = shifter.addingProduct(x, 1 / Double.pi)
        let k = kShifted - shifter
        // pi in two parts (twice fdlibm's pio2_1 and pio2_1t): the first has 33 significant
        // bits, so k times it is exact for the k of |x| up to 1e5, and x minus it is exact.
        let r = x.addingProduct(k, -3.14159265346825122834e+00).addingProduct(k, -1.21542010130123844986e-10)
        let z = r * r
        // Estrin's scheme: pairs, then pairs of pairs with z^2 and z^4 (longest chain 4
        // operations after z; Horner's would be 7 dependent fused multiply-adds).
        // `addingProduct`: Swift does not contract `p * z + c` into one instruction.
        let z2 = z * z, z4 = z2 * z2
        let p01 = SIMD4<Double>(repeating: 0.9999999999999981).addingProduct(z, -0.49999999999989936)
        let p23 = SIMD4<Double>(repeating: 0.04166666666580973).addingProduct(z, -0.0013888888861087183)
        let p45 = SIMD4<Double>(repeating: 2.4801582870372964e-05).addingProduct(z, -2.755693543158066e-07)
        let p67 = SIMD4<Double>(repeating: 2.0858318022855056e-09).addingProduct(z, -1.1007956572456508e-11)
        let p = p01.addingProduct(p23, z2).addingProduct(p45.addingProduct(p67, z2), z4)
        // (-1)^k: k's lowest bit (in the shifted value's lowest mantissa bit) to the sign.
        let sign = (unsafeBitCast(kShifted, to: SIMD4<UInt64>.self) & 1) &<< 63
        return unsafeBitCast(unsafeBitCast(p, to: SIMD4<UInt64>.self) ^ sign, to: SIMD4<Double>.self)
    }
}

/// e^x of 4 lanes for x <= 0 (spring envelopes): x below -708 gives e^-708 (about 3e-308,
/// which no progress can tell from 0); k = round(x / ln 2) by the shifter trick, the rest
/// r = x - k ln 2 (Cody and Waite, two constants, fused, |r| <= ln 2 / 2) through a degree-10
/// polynomial (the Chebyshev fit of e^r there, as the cosine's: relative error below 5e-16,
/// where the degree-11 Taylor series had 6e-15), scaled by 2^k built in the exponent bits.
enum SIMD4Exp {
    @inline(__always)
    static func exp(_ x0: SIMD4<Double>) -> SIMD4<Double> {
        var x = x0
        x.replace(with: -708, where: x .< -708)
        let shifter = SIMD4<Double>(repeating: 6_755_399_441_055_744.0)
        let kShifted = shifter.addingProduct(x, 1.4426950408889634)
        let k = kShifted - shifter
        let r = x.addingProduct(k, -6.93147180369123816490e-01).addingProduct(k, -1.90821492927058770002e-10)
        // Estrin's scheme (longest chain 5 after r; Horner's would be 10).
        let r2 = r * r, r4 = r2 * r2, r8 = r4 * r4
        let p01 = SIMD4<Double>(repeating: 1).addingProduct(r, 1.0000000000000067)
        let p23 = SIMD4<Double>(repeating: 0.5000000000000006).addingProduct(r, 0.16666666666554406)
        let p45 = SIMD4<Double>(repeating: 0.04166666666657314).addingProduct(r, 0.008333333385667784)
        let p67 = SIMD4<Double>(repeating: 0.0013888888932488599).addingProduct(r, 0.00019841170270438918)
        let p89 = SIMD4<Double>(repeating: 2.480150434699673e-05).addingProduct(r, 2.764018079668867e-06)
        let q2 = p89.addingProduct(SIMD4<Double>(repeating: 2.7626357241846085e-07), r2)
        let p = p01.addingProduct(p23, r2).addingProduct(p45.addingProduct(p67, r2), r4).addingProduct(q2, r8)
        // 2^k: k (two's complement in the shifted value's low bits) + 1023 in the exponent.
        let kBits = unsafeBitCast(kShifted, to: SIMD4<Int64>.self) &- unsafeBitCast(shifter, to: SIMD4<Int64>.self)
        let scale = unsafeBitCast((kBits &+ 1023) &<< 52, to: SIMD4<Double>.self)
        return p * scale
    }
}
