import Foundation

/// The interpolation between two whole transforms that Core Animation, WebKit and CSS
/// Transforms Level 2 ("Interpolation of 3D matrices") use: both matrices are decomposed once
/// into translation, scale, skew, perspective and a rotation quaternion; a value in between
/// interpolates those (the quaternion by spherical interpolation) and recomposes the matrix.
/// A quarter turn is a rotation by 45 degrees half-way, at unit scale (interpolating the
/// sixteen entries would shrink it to 0.71, and a half turn would collapse to a point).
///
/// Pairs of matrices that only scale (by positive factors) and translate interpolate entry
/// by entry: decomposition gives exactly that, cheaper. A matrix that cannot be decomposed (singular, or `m44` zero) makes the pair
/// switch from one to the other at progress 0.5.
///
/// Both engines interpolate whole transforms through this type; it holds only numbers, so
/// it can be stored in columns and evaluated per frame without allocating.
public struct TransformBlend: Sendable, Equatable {
    /// How the pair interpolates.
    public enum Mode: UInt8, Sendable {
        /// Entry by entry: both matrices only scale (by positive factors) and translate.
        case linear
        /// By decomposition.
        case decomposed
        /// Either matrix cannot be decomposed: `from` before progress 0.5, `to` from it on.
        case discrete
    }

    /// How this pair interpolates.
    public let mode: Mode
    @usableFromInline let a: Decomposed
    @usableFromInline let b: Decomposed
    /// The quaternions' dot product, clamped, its angle and 1 / sin of the angle: the
    /// spherical interpolation's constants, computed once.
    @usableFromInline let product: Double
    @usableFromInline let theta: Double
    @usableFromInline let inverseSine: Double

    /// The blend of `from` (progress 0) and `to` (progress 1). The endpoints are not kept:
    /// callers that hold them pass them to `value(at:from:to:)`.
    public init(from: CATransform3D, to: CATransform3D) {
        if Self.isScaleTranslation(from) && Self.isScaleTranslation(to) {
            mode = .linear
            a = Decomposed(); b = Decomposed()
        } else if let da = Decomposed(from), let db = Decomposed(to) {
            mode = .decomposed
            a = da; b = db
        } else {
            mode = .discrete
            a = Decomposed(); b = Decomposed()
        }
        let p = min(max((a.quaternion * b.quaternion).sum(), -1), 1)
        product = p
        theta = abs(p) == 1 ? 0 : acos(p)
        inverseSine = abs(p) == 1 ? 0 : 1 / (1 - p * p).squareRoot()
    }

    /// The transform at `progress` between `from` and `to`, the matrices this blend was made
    /// of (0 at `from`, 1 at `to`; values outside extrapolate, as timing curves that
    /// overshoot need). Allocates nothing.
    @inlinable
    public func value(at progress: Double, from: CATransform3D, to: CATransform3D) -> CATransform3D {
        switch mode {
        case .linear:
            return Self.linear(at: progress, from: from, to: to)
        case .discrete:
            return progress < 0.5 ? from : to
        case .decomposed:
            if progress == 0 { return from }
            if progress == 1 { return to }
            return interpolated(progress).recomposed()
        }
    }

    /// The numbers a vectorised evaluation of a decomposed blend needs (`partCount` of them,
    /// written to `part(i, value)`): the first matrix's translation, scale, skew and
    /// perspective (13), their change to the second's (13), both quaternions (8), then the
    /// angle between them, 1 / its sine and the quaternions' dot product. The value at
    /// progress t: the 13 parts `a + d t`; the quaternion `qa (cos(t theta) - dot w) + qb w`
    /// with `w = sin(t theta) / sin(theta)`; recomposed as `Decomposed.recomposed()` does.
    @inlinable package static var partCount: Int { 37 }

    package func writeParts(_ part: (Int, Double) -> Void) {
        func linear(_ d: Decomposed, _ i: Int) -> Double {
            switch i {
            case 0..<3: return d.translate[i]
            case 3..<6: return d.scale[i - 3]
            case 6..<9: return d.skew[i - 6]
            default: return d.perspective[i - 9]
            }
        }
        for i in 0..<13 {
            part(i, linear(a, i))
            part(13 + i, linear(b, i) - linear(a, i))
        }
        for i in 0..<4 {
            part(26 + i, a.quaternion[i])
            part(30 + i, b.quaternion[i])
        }
        part(34, theta)
        part(35, inverseSine)
        part(36, product)
    }

    /// Two matrices that only scale and translate, interpolated entry by entry.
    @inlinable
    public static func linear(at progress: Double, from: CATransform3D, to: CATransform3D) -> CATransform3D {
        var r = from
        r.m11 += (to.m11 - from.m11) * progress
        r.m22 += (to.m22 - from.m22) * progress
        r.m33 += (to.m33 - from.m33) * progress
        r.m41 += (to.m41 - from.m41) * progress
        r.m42 += (to.m42 - from.m42) * progress
        r.m43 += (to.m43 - from.m43) * progress
        return r
    }

    /// The parts at `t`: linear, the quaternion spherical (CSS Transforms Level 2).
    @inlinable
    func interpolated(_ t: Double) -> Decomposed {
        var r = Decomposed()
        r.translate = a.translate + (b.translate - a.translate) * t
        r.scale = a.scale + (b.scale - a.scale) * t
        r.skew = a.skew + (b.skew - a.skew) * t
        r.perspective = a.perspective + (b.perspective - a.perspective) * t
        if theta == 0 {
            r.quaternion = a.quaternion
        } else {
            let w = sin(t * theta) * inverseSine
            r.quaternion = a.quaternion * (cos(t * theta) - product * w) + b.quaternion * w
        }
        return r
    }

    /// Whether `m` only scales by positive factors and translates (decomposition: those
    /// parts, no rotation, skew or perspective).
    static func isScaleTranslation(_ m: CATransform3D) -> Bool {
        m.m11 > 0 && m.m12 == 0 && m.m13 == 0 && m.m14 == 0
            && m.m21 == 0 && m.m22 > 0 && m.m23 == 0 && m.m24 == 0
            && m.m31 == 0 && m.m32 == 0 && m.m33 > 0 && m.m34 == 0 && m.m44 == 1
    }

    /// `t` with its scale, rotation and translation changed by `edit` and its shears and
    /// perspective kept: what setting a transform sub-path (`transform.rotation.y`,
    /// `transform.scale.x` ...) does. `edit` sees and returns a matrix without shear or
    /// perspective; the result puts `t`'s back (decomposed, CSS Transforms Level 2), so a
    /// turn about y set on a layer with `m34 = -1/500` keeps its perspective. A matrix with
    /// neither, or one that cannot be decomposed, is given to `edit` as it is.
    public static func editingRigidPart(of t: CATransform3D, _ edit: (CATransform3D) -> CATransform3D) -> CATransform3D {
        // No perspective column and orthogonal rows (to rounding): nothing to keep, and no
        // decomposition (sub-path animations run this every frame).
        let r1 = SIMD3<Double>(t.m11, t.m12, t.m13), r2 = SIMD3<Double>(t.m21, t.m22, t.m23)
        let r3 = SIMD3<Double>(t.m31, t.m32, t.m33)
        let n = max((r1 * r1).sum(), (r2 * r2).sum(), (r3 * r3).sum()) * 1e-12
        if t.m14 == 0 && t.m24 == 0 && t.m34 == 0 && t.m44 == 1
            && abs((r1 * r2).sum()) <= n && abs((r1 * r3).sum()) <= n && abs((r2 * r3).sum()) <= n {
            return edit(t)
        }
        guard let d = Decomposed(t), d.skew != SIMD3(0, 0, 0) || d.perspective != SIMD4(0, 0, 0, 1) else { return edit(t) }
        var rigid = d
        rigid.skew = SIMD3(0, 0, 0)
        rigid.perspective = SIMD4(0, 0, 0, 1)
        guard var e = Decomposed(edit(rigid.recomposed())) else { return edit(t) }
        e.skew = d.skew
        e.perspective = d.perspective
        return e.recomposed()
    }

    /// `m` concatenated with itself `k` times (`k` >= 0; identity for 0): what `isCumulative`
    /// adds after `k` repetitions.
    public static func power(_ m: CATransform3D, _ k: Int) -> CATransform3D {
        var result = CATransform3DIdentity, base = m, n = max(0, k)
        while n > 0 {
            if n & 1 == 1 { result = CATransform3DConcat(result, base) }
            n >>= 1
            if n > 0 { base = CATransform3DConcat(base, base) }
        }
        return result
    }
}

/// A matrix in the parts of CSS Transforms Level 2's decomposition. Indexing follows the
/// specification's pseudo-code, whose `matrix[i][j]` is Core Animation's `m(i+1)(j+1)` (row
/// vectors: translation in the fourth row, perspective in the fourth column).
@usableFromInline
struct Decomposed: Sendable, Equatable {
    @usableFromInline var translate = SIMD3<Double>(0, 0, 0)
    @usableFromInline var scale = SIMD3<Double>(1, 1, 1)
    /// xy, xz, yz shears.
    @usableFromInline var skew = SIMD3<Double>(0, 0, 0)
    @usableFromInline var perspective = SIMD4<Double>(0, 0, 0, 1)
    /// x, y, z, w.
    @usableFromInline var quaternion = SIMD4<Double>(0, 0, 0, 1)

    @inlinable init() {}

    /// The parts of `t`, or nil when it cannot be decomposed. Allocates nothing (sub-path
    /// animations decompose every frame).
    init?(_ t: CATransform3D) {
        guard t.m44 != 0 else { return nil }
        let w = Double(t.m44)
        let m1 = SIMD4<Double>(t.m11, t.m12, t.m13, t.m14) / w
        let m2 = SIMD4<Double>(t.m21, t.m22, t.m23, t.m24) / w
        let m3 = SIMD4<Double>(t.m31, t.m32, t.m33, t.m34) / w
        let m4 = SIMD4<Double>(t.m41, t.m42, t.m43, t.m44) / w
        var row0 = SIMD3<Double>(m1.x, m1.y, m1.z)
        var row1 = SIMD3<Double>(m2.x, m2.y, m2.z)
        var row2 = SIMD3<Double>(m3.x, m3.y, m3.z)
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        func length(_ v: SIMD3<Double>) -> Double { dot(v, v).squareRoot() }
        // The matrix without its perspective column (last column 0, 0, 0, 1) must be
        // invertible: its determinant is the upper 3x3's.
        guard dot(row0, cross(row1, row2)) != 0 else { return nil }
        if m1.w != 0 || m2.w != 0 || m3.w != 0 {
            let pm = CATransform3D(m11: m1.x, m12: m1.y, m13: m1.z, m14: 0, m21: m2.x, m22: m2.y, m23: m2.z, m24: 0,
                                   m31: m3.x, m32: m3.y, m33: m3.z, m34: 0, m41: m4.x, m42: m4.y, m43: m4.z, m44: 1)
            let inv = CATransform3DInvert(pm)
            let rhs = SIMD4<Double>(m1.w, m2.w, m3.w, m4.w)
            // rhs times the transposed inverse: component i is rhs . (row i of the inverse).
            perspective = SIMD4(
                (rhs * SIMD4(inv.m11, inv.m12, inv.m13, inv.m14)).sum(),
                (rhs * SIMD4(inv.m21, inv.m22, inv.m23, inv.m24)).sum(),
                (rhs * SIMD4(inv.m31, inv.m32, inv.m33, inv.m34)).sum(),
                (rhs * SIMD4(inv.m41, inv.m42, inv.m43, inv.m44)).sum())
        }
        translate = SIMD3(m4.x, m4.y, m4.z)
        scale.x = length(row0)
        guard scale.x != 0 else { return nil }
        row0 /= scale.x
        skew.x = dot(row0, row1)
        row1 -= row0 * skew.x
        scale.y = length(row1)
        guard scale.y != 0 else { return nil }
        row1 /= scale.y
        skew.x /= scale.y
        skew.y = dot(row0, row2)
        row2 -= row0 * skew.y
        skew.z = dot(row1, row2)
        row2 -= row1 * skew.z
        scale.z = length(row2)
        guard scale.z != 0 else { return nil }
        row2 /= scale.z
        skew.y /= scale.z
        skew.z /= scale.z
        // A coordinate-system flip: negate the scales and rows.
        if dot(row0, cross(row1, row2)) < 0 {
            scale = -scale
            row0 = -row0; row1 = -row1; row2 = -row2
        }
        var q = SIMD4<Double>(
            0.5 * max(1 + row0.x - row1.y - row2.z, 0).squareRoot(),
            0.5 * max(1 - row0.x + row1.y - row2.z, 0).squareRoot(),
            0.5 * max(1 - row0.x - row1.y + row2.z, 0).squareRoot(),
            0.5 * max(1 + row0.x + row1.y + row2.z, 0).squareRoot())
        if row2.y > row1.z { q.x = -q.x }
        if row0.z > row2.x { q.y = -q.y }
        if row1.x > row0.y { q.z = -q.z }
        quaternion = q
        guard (translate + scale + skew).sum().isFinite, (perspective + quaternion).sum().isFinite else { return nil }
    }

    /// The matrix of these parts (CSS Transforms Level 2, "Recomposing to a 3D matrix"):
    /// perspective, translation, rotation, the three shears, scale. The specification's
    /// matrix products touch few entries here, so they are written out: no allocation, about
    /// a hundred multiplications.
    @inlinable
    func recomposed() -> CATransform3D {
        let p = perspective, t = translate
        let x = quaternion.x, y = quaternion.y, z = quaternion.z, w = quaternion.w
        // Rows 1-3: the rotation, with the perspective column carried through it.
        var r1 = SIMD4<Double>(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0)
        var r2 = SIMD4<Double>(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0)
        var r3 = SIMD4<Double>(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0)
        r1.w = r1.x * p.x + r1.y * p.y + r1.z * p.z
        r2.w = r2.x * p.x + r2.y * p.y + r2.z * p.z
        r3.w = r3.x * p.x + r3.y * p.y + r3.z * p.z
        // Row 4: the translation (and the perspective's w).
        let r4 = SIMD4<Double>(t.x, t.y, t.z, p.w + t.x * p.x + t.y * p.y + t.z * p.z)
        // Shears: yz, then xz, then xy.
        if skew.z != 0 { r3 += skew.z * r2 }
        if skew.y != 0 { r3 += skew.y * r1 }
        if skew.x != 0 { r2 += skew.x * r1 }
        r1 *= scale.x; r2 *= scale.y; r3 *= scale.z
        return CATransform3D(m11: r1.x, m12: r1.y, m13: r1.z, m14: r1.w,
                             m21: r2.x, m22: r2.y, m23: r2.z, m24: r2.w,
                             m31: r3.x, m32: r3.y, m33: r3.z, m34: r3.w,
                             m41: r4.x, m42: r4.y, m43: r4.z, m44: r4.w)
    }
}
