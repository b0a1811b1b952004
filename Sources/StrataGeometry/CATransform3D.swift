import Foundation

/// A 4×4 homogeneous transform, spelled as Core Animation's `CATransform3D`.
///
/// Points are row vectors multiplied on the left (`p' = p × M`), as in Core Animation, so the
/// translation lives in `m41 m42 m43` and `CATransform3DConcat(a, b)` applies `a` first.
/// `CATransform3D()` is the all-zero matrix, as Apple's; start from `CATransform3DIdentity`.
///
/// ```swift
/// let r = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)   // m11 ≈ 0, m12 = 1, m21 = -1, m22 ≈ 0
/// ```
public struct CATransform3D: Equatable, Hashable, Sendable {
    /// Row 1, column 1.
    public var m11: CGFloat
    /// Row 1, column 2.
    public var m12: CGFloat
    /// Row 1, column 3.
    public var m13: CGFloat
    /// Row 1, column 4.
    public var m14: CGFloat
    /// Row 2, column 1.
    public var m21: CGFloat
    /// Row 2, column 2.
    public var m22: CGFloat
    /// Row 2, column 3.
    public var m23: CGFloat
    /// Row 2, column 4.
    public var m24: CGFloat
    /// Row 3, column 1.
    public var m31: CGFloat
    /// Row 3, column 2.
    public var m32: CGFloat
    /// Row 3, column 3.
    public var m33: CGFloat
    /// Row 3, column 4 (perspective: `-1 / eyeDistance`).
    public var m34: CGFloat
    /// Row 4, column 1: translation along x.
    public var m41: CGFloat
    /// Row 4, column 2: translation along y.
    public var m42: CGFloat
    /// Row 4, column 3: translation along z.
    public var m43: CGFloat
    /// Row 4, column 4.
    public var m44: CGFloat

    /// Creates the all-zero matrix (Apple's `CATransform3D()`; not the identity).
    @inlinable
    public init() {
        m11 = 0; m12 = 0; m13 = 0; m14 = 0
        m21 = 0; m22 = 0; m23 = 0; m24 = 0
        m31 = 0; m32 = 0; m33 = 0; m34 = 0
        m41 = 0; m42 = 0; m43 = 0; m44 = 0
    }

    /// Creates a matrix from its sixteen entries, row by row.
    @inlinable
    public init(m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
                m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
                m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
                m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// Reads sixteen doubles in `m11, m12, …, m44` order (row-major) from `p`.
    @inline(__always)
    package init(lanes p: UnsafePointer<Double>) {
        self.init(m11: CGFloat(p[0]), m12: CGFloat(p[1]), m13: CGFloat(p[2]), m14: CGFloat(p[3]),
                  m21: CGFloat(p[4]), m22: CGFloat(p[5]), m23: CGFloat(p[6]), m24: CGFloat(p[7]),
                  m31: CGFloat(p[8]), m32: CGFloat(p[9]), m33: CGFloat(p[10]), m34: CGFloat(p[11]),
                  m41: CGFloat(p[12]), m42: CGFloat(p[13]), m43: CGFloat(p[14]), m44: CGFloat(p[15]))
    }

    /// Writes the sixteen entries as doubles in `m11, m12, …, m44` order (row-major) to `p`.
    @inline(__always)
    package func store(to p: UnsafeMutablePointer<Double>) {
        p[0] = Double(m11); p[1] = Double(m12); p[2] = Double(m13); p[3] = Double(m14)
        p[4] = Double(m21); p[5] = Double(m22); p[6] = Double(m23); p[7] = Double(m24)
        p[8] = Double(m31); p[9] = Double(m32); p[10] = Double(m33); p[11] = Double(m34)
        p[12] = Double(m41); p[13] = Double(m42); p[14] = Double(m43); p[15] = Double(m44)
    }
}

/// The identity transform.
public let CATransform3DIdentity = CATransform3D(
    m11: 1, m12: 0, m13: 0, m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)

/// Whether `t` is exactly the identity.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool {
    t == CATransform3DIdentity
}

/// Whether `a` and `b` are exactly equal.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool {
    a == b
}

/// A translation by `(tx, ty, tz)`.
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m41 = tx; t.m42 = ty; t.m43 = tz
    return t
}

/// A scale by `(sx, sy, sz)`.
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = sx; t.m22 = sy; t.m33 = sz
    return t
}

/// A rotation by `angle` radians about the axis `(x, y, z)`, which is normalised first; a
/// zero-length axis gives the identity. About z: `m11 = cos, m12 = sin, m21 = -sin, m22 = cos`.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    var ax = Double(x), ay = Double(y), az = Double(z)
    let length = (ax * ax + ay * ay + az * az).squareRoot()
    if length == 0 || !length.isFinite { return CATransform3DIdentity }
    if length != 1 { ax /= length; ay /= length; az /= length }
    let s = sin(Double(angle)), c = cos(Double(angle)), k = 1 - c
    return CATransform3D(
        m11: CGFloat(ax * ax * k + c), m12: CGFloat(ax * ay * k + az * s), m13: CGFloat(ax * az * k - ay * s), m14: 0,
        m21: CGFloat(ay * ax * k - az * s), m22: CGFloat(ay * ay * k + c), m23: CGFloat(ay * az * k + ax * s), m24: 0,
        m31: CGFloat(az * ax * k + ay * s), m32: CGFloat(az * ay * k - ax * s), m33: CGFloat(az * az * k + c), m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1)
}

/// `a` followed by `b`: the matrix product `a × b`.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    CATransform3D(
        m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
        m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
        m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
        m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
        m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
        m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
        m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
        m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
        m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
        m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
        m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
        m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
        m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
        m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
        m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
        m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
}

/// A translation by `(tx, ty, tz)` followed by `t`: `Concat(MakeTranslation(tx, ty, tz), t)`.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var r = t
    r.m41 = tx * t.m11 + ty * t.m21 + tz * t.m31 + t.m41
    r.m42 = tx * t.m12 + ty * t.m22 + tz * t.m32 + t.m42
    r.m43 = tx * t.m13 + ty * t.m23 + tz * t.m33 + t.m43
    r.m44 = tx * t.m14 + ty * t.m24 + tz * t.m34 + t.m44
    return r
}

/// A scale by `(sx, sy, sz)` followed by `t`: `Concat(MakeScale(sx, sy, sz), t)`.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var r = t
    r.m11 *= sx; r.m12 *= sx; r.m13 *= sx; r.m14 *= sx
    r.m21 *= sy; r.m22 *= sy; r.m23 *= sy; r.m24 *= sy
    r.m31 *= sz; r.m32 *= sz; r.m33 *= sz; r.m34 *= sz
    return r
}

/// A rotation by `angle` about `(x, y, z)` followed by `t`: `Concat(MakeRotation(angle, x, y, z), t)`.
/// A zero-length axis leaves `t` unchanged.
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    if x == 0 && y == 0 && z == 0 { return t }
    return CATransform3DConcat(CATransform3DMakeRotation(angle, x, y, z), t)
}

/// The inverse of `t`, or `t` unchanged when it has no inverse (as Apple's).
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
    var m = (Double(t.m11), Double(t.m12), Double(t.m13), Double(t.m14),
             Double(t.m21), Double(t.m22), Double(t.m23), Double(t.m24),
             Double(t.m31), Double(t.m32), Double(t.m33), Double(t.m34),
             Double(t.m41), Double(t.m42), Double(t.m43), Double(t.m44))
    return withUnsafeMutableBytes(of: &m) { raw -> CATransform3D in
        let a = raw.baseAddress!.assumingMemoryBound(to: Double.self)
        // Cofactor expansion via 2×2 sub-determinants of the top and bottom row pairs.
        let s0 = a[0] * a[5] - a[4] * a[1]
        let s1 = a[0] * a[6] - a[4] * a[2]
        let s2 = a[0] * a[7] - a[4] * a[3]
        let s3 = a[1] * a[6] - a[5] * a[2]
        let s4 = a[1] * a[7] - a[5] * a[3]
        let s5 = a[2] * a[7] - a[6] * a[3]
        let c5 = a[10] * a[15] - a[14] * a[11]
        let c4 = a[9] * a[15] - a[13] * a[11]
        let c3 = a[9] * a[14] - a[13] * a[10]
        let c2 = a[8] * a[15] - a[12] * a[11]
        let c1 = a[8] * a[14] - a[12] * a[10]
        let c0 = a[8] * a[13] - a[12] * a[9]
        let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
        if det == 0 || !det.isFinite { return t }
        let k = 1 / det
        var inv = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                   0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        return withUnsafeMutableBytes(of: &inv) { outRaw -> CATransform3D in
            let o = outRaw.baseAddress!.assumingMemoryBound(to: Double.self)
            o[0] = ( a[5] * c5 - a[6] * c4 + a[7] * c3) * k
            o[1] = (-a[1] * c5 + a[2] * c4 - a[3] * c3) * k
            o[2] = ( a[13] * s5 - a[14] * s4 + a[15] * s3) * k
            o[3] = (-a[9] * s5 + a[10] * s4 - a[11] * s3) * k
            o[4] = (-a[4] * c5 + a[6] * c2 - a[7] * c1) * k
            o[5] = ( a[0] * c5 - a[2] * c2 + a[3] * c1) * k
            o[6] = (-a[12] * s5 + a[14] * s2 - a[15] * s1) * k
            o[7] = ( a[8] * s5 - a[10] * s2 + a[11] * s1) * k
            o[8] = ( a[4] * c4 - a[5] * c2 + a[7] * c0) * k
            o[9] = (-a[0] * c4 + a[1] * c2 - a[3] * c0) * k
            o[10] = ( a[12] * s4 - a[13] * s2 + a[15] * s0) * k
            o[11] = (-a[8] * s4 + a[9] * s2 - a[11] * s0) * k
            o[12] = (-a[4] * c3 + a[5] * c1 - a[6] * c0) * k
            o[13] = ( a[0] * c3 - a[1] * c1 + a[2] * c0) * k
            o[14] = (-a[12] * s3 + a[13] * s1 - a[14] * s0) * k
            o[15] = ( a[8] * s3 - a[9] * s1 + a[10] * s0) * k
            for i in 0..<16 where !o[i].isFinite { return t }
            return CATransform3D(lanes: UnsafePointer(o))
        }
    }
}

/// Whether `t` is exactly representable as a `CGAffineTransform` (no z, no perspective).
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
    t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0
        && t.m31 == 0 && t.m32 == 0 && t.m33 == 1 && t.m34 == 0
        && t.m43 == 0 && t.m44 == 1
}

/// The 3D transform equal to the affine transform `m`: `m11 = a, m12 = b, m21 = c,
/// m22 = d, m41 = tx, m42 = ty`, the rest identity.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    CATransform3D(
        m11: m.a, m12: m.b, m13: 0, m14: 0,
        m21: m.c, m22: m.d, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0,
        m41: m.tx, m42: m.ty, m43: 0, m44: 1)
}

/// The affine part of `t` (`m11 m12 m21 m22 m41 m42`); meaningful when `CATransform3DIsAffine(t)`.
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}
