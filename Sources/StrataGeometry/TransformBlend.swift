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
            var r = from
            r.m11 += (to.m11 - from.m11) * progress
            r.m22 += (to.m22 - from.m22) * progress
            r.m33 += (to.m33 - from.m33) * progress
            r.m41 += (to.m41 - from.m41) * progress
            r.m42 += (to.m42 - from.m42) * progress
            r.m43 += (to.m43 - from.m43) * progress
            return r
        case .discrete:
            return progress < 0.5 ? from : to
        case .decomposed:
            if progress == 0 { return from }
            if progress == 1 { return to }
            return interpolated(progress).recomposed()
        }
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

    /// The parts of `t`, or nil when it cannot be decomposed.
    init?(_ t: CATransform3D) {
        var m = Self.rows(t)
        guard m[3][3] != 0 else { return nil }
        let w = m[3][3]
        for i in 0..<4 { for j in 0..<4 { m[i][j] /= w } }
        // The matrix without its perspective column must be invertible.
        var p = m
        for i in 0..<3 { p[i][3] = 0 }
        p[3][3] = 1
        let pt = Self.transform(p)
        guard Self.determinant(pt) != 0 else { return nil }
        if m[0][3] != 0 || m[1][3] != 0 || m[2][3] != 0 {
            let rhs = SIMD4<Double>(m[0][3], m[1][3], m[2][3], m[3][3])
            // rhs times the transposed inverse: the inverse's rows dotted with rhs.
            let inv = Self.rows(CATransform3DInvert(pt))
            var r = SIMD4<Double>(0, 0, 0, 0)
            // multVecMatrix(rhs, transpose(inverse)): component i = sum_j rhs[j] * inverse[i][j].
            for i in 0..<4 {
                r[i] = rhs[0] * inv[i][0] + rhs[1] * inv[i][1] + rhs[2] * inv[i][2] + rhs[3] * inv[i][3]
            }
            perspective = r
        }
        translate = SIMD3(m[3][0], m[3][1], m[3][2])
        var row = [SIMD3<Double>](repeating: .zero, count: 3)
        for i in 0..<3 { row[i] = SIMD3(m[i][0], m[i][1], m[i][2]) }
        func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
        func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
        scale.x = length(row[0])
        guard scale.x != 0 else { return nil }
        row[0] /= scale.x
        skew.x = dot(row[0], row[1])
        row[1] -= row[0] * skew.x
        scale.y = length(row[1])
        guard scale.y != 0 else { return nil }
        row[1] /= scale.y
        skew.x /= scale.y
        skew.y = dot(row[0], row[2])
        row[2] -= row[0] * skew.y
        skew.z = dot(row[1], row[2])
        row[2] -= row[1] * skew.z
        scale.z = length(row[2])
        guard scale.z != 0 else { return nil }
        row[2] /= scale.z
        skew.y /= scale.z
        skew.z /= scale.z
        // A coordinate-system flip: negate the scales and rows.
        let c = SIMD3(row[1].y * row[2].z - row[1].z * row[2].y,
                      row[1].z * row[2].x - row[1].x * row[2].z,
                      row[1].x * row[2].y - row[1].y * row[2].x)
        if dot(row[0], c) < 0 {
            scale = -scale
            for i in 0..<3 { row[i] = -row[i] }
        }
        var q = SIMD4<Double>(
            0.5 * max(1 + row[0].x - row[1].y - row[2].z, 0).squareRoot(),
            0.5 * max(1 - row[0].x + row[1].y - row[2].z, 0).squareRoot(),
            0.5 * max(1 - row[0].x - row[1].y + row[2].z, 0).squareRoot(),
            0.5 * max(1 + row[0].x + row[1].y + row[2].z, 0).squareRoot())
        if row[2].y > row[1].z { q.x = -q.x }
        if row[0].z > row[2].x { q.y = -q.y }
        if row[1].x > row[0].y { q.z = -q.z }
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

    static func rows(_ t: CATransform3D) -> [[Double]] {
        [[t.m11, t.m12, t.m13, t.m14], [t.m21, t.m22, t.m23, t.m24],
         [t.m31, t.m32, t.m33, t.m34], [t.m41, t.m42, t.m43, t.m44]].map { $0.map { Double($0) } }
    }

    static func transform(_ m: [[Double]]) -> CATransform3D {
        CATransform3D(m11: m[0][0], m12: m[0][1], m13: m[0][2], m14: m[0][3],
                      m21: m[1][0], m22: m[1][1], m23: m[1][2], m24: m[1][3],
                      m31: m[2][0], m32: m[2][1], m33: m[2][2], m34: m[2][3],
                      m41: m[3][0], m42: m[3][1], m43: m[3][2], m44: m[3][3])
    }

    static func determinant(_ t: CATransform3D) -> Double {
        let m = rows(t)
        func det3(_ r: [Int], _ c: [Int]) -> Double {
            m[r[0]][c[0]] * (m[r[1]][c[1]] * m[r[2]][c[2]] - m[r[1]][c[2]] * m[r[2]][c[1]])
                - m[r[0]][c[1]] * (m[r[1]][c[0]] * m[r[2]][c[2]] - m[r[1]][c[2]] * m[r[2]][c[0]])
                + m[r[0]][c[2]] * (m[r[1]][c[0]] * m[r[2]][c[1]] - m[r[1]][c[1]] * m[r[2]][c[0]])
        }
        var d = 0.0
        for j in 0..<4 {
            let cols = (0..<4).filter { $0 != j }
            let sign: Double = j % 2 == 0 ? 1 : -1
            d += sign * m[0][j] * det3([1, 2, 3], cols)
        }
        return d
    }
}
