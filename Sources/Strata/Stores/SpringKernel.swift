/// The spring motion of 8 timing entries at once (`SpringCurve`'s formula):
/// progress = 1 - exp(-a t) (cos(w t) + b sin(w t) + c t), in two SIMD4 halves (as
/// `DecomposedKernel`: the exponential's and the sine's temporaries fit the registers).
enum SpringKernel {
    @inline(__always)
    static func progress(t: SIMD8<Double>, a: SIMD8<Double>, w: SIMD8<Double>, b: SIMD8<Double>, c: SIMD8<Double>) -> SIMD8<Double> {
        let lo = half(t.lowHalf, a.lowHalf, w.lowHalf, b.lowHalf, c.lowHalf)
        let hi = half(t.highHalf, a.highHalf, w.highHalf, b.highHalf, c.highHalf)
        return SIMD8(lowHalf: lo, highHalf: hi)
    }

    @inline(__always)
    static func half(_ t: SIMD4<Double>, _ a: SIMD4<Double>, _ w: SIMD4<Double>, _ b: SIMD4<Double>, _ c: SIMD4<Double>) -> SIMD4<Double> {
        let (sine, cosine) = SIMD4Trig.sincos(w * t)
        let e = SIMD4Exp.exp(-(a * t))
        return 1 - e * (cosine + b * sine + c * t)
    }
}

/// e^x of 4 lanes for x <= 0 (spring envelopes): x below -708 gives e^-708 (about 3e-308,
/// which no progress can tell from 0); k = round(x / ln 2) by the shifter trick, the rest
/// r = x - k ln 2 (Cody and Waite, two constants, |r| <= ln 2 / 2) through a degree-13 Taylor
/// polynomial (error below 1e-17 there), scaled by 2^k built in the exponent bits.
enum SIMD4Exp {
    @inline(__always)
    static func exp(_ x0: SIMD4<Double>) -> SIMD4<Double> {
        var x = x0
        x.replace(with: -708, where: x .< -708)
        let shifter = SIMD4<Double>(repeating: 6_755_399_441_055_744.0)
        let kShifted = x * 1.4426950408889634 + shifter
        let k = kShifted - shifter
        let r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10
        var p = r * (1.0 / 6_227_020_800) + (1.0 / 479_001_600)
        p = p * r + (1.0 / 39_916_800)
        p = p * r + (1.0 / 3_628_800)
        p = p * r + (1.0 / 362_880)
        p = p * r + (1.0 / 40_320)
        p = p * r + (1.0 / 5_040)
        p = p * r + (1.0 / 720)
        p = p * r + (1.0 / 120)
        p = p * r + (1.0 / 24)
        p = p * r + (1.0 / 6)
        p = p * r + 0.5
        p = p * r + 1
        p = p * r + 1
        // 2^k: k (two's complement in the shifted value's low bits) + 1023 in the exponent.
        let kBits = unsafeBitCast(kShifted, to: SIMD4<Int64>.self) &- unsafeBitCast(shifter, to: SIMD4<Int64>.self)
        let scale = unsafeBitCast((kBits &+ 1023) &<< 52, to: SIMD4<Double>.self)
        return p * scale
    }
}
