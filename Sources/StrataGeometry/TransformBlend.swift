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
    /// The endpoints, as given.
    public let from: CATransform3D
    public let to: CATransform3D
    let a: Decomposed
    let b: Decomposed

    /// The blend of `from` (progress 0) and `to` (progress 1).
    public init(from: CATransform3D, to: CATransform3D) {
        self.from = from
        self.to = to
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
    }

    /// The transform at `progress` (0 at `from`, 1 at `to`; values outside extrapolate, as
    /// timing curves that overshoot need).
    public func value(at progress: Double) -> CATransform3D {
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
            return Decomposed.interpolate(a, b, progress).recomposed()
        }
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
struct Decomposed: Sendable, Equatable {
    var translate = SIMD3<Double>(0, 0, 0)
    var scale = SIMD3<Double>(1, 1, 1)
    /// xy, xz, yz shears.
    var skew = SIMD3<Double>(0, 0, 0)
    var perspective = SIMD4<Double>(0, 0, 0, 1)
    /// x, y, z, w.
    var quaternion = SIMD4<Double>(0, 0, 0, 1)

    init() {}

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

    /// The parts at `t` between `a` (0) and `b` (1): linear, the quaternion spherical.
    static func interpolate(_ a: Decomposed, _ b: Decomposed, _ t: Double) -> Decomposed {
        var r = Decomposed()
        r.translate = a.translate + (b.translate - a.translate) * t
        r.scale = a.scale + (b.scale - a.scale) * t
        r.skew = a.skew + (b.skew - a.skew) * t
        r.perspective = a.perspective + (b.perspective - a.perspective) * t
        var product = (a.quaternion * b.quaternion).sum()
        product = min(max(product, -1), 1)
        if abs(product) == 1 {
            r.quaternion = a.quaternion
        } else {
            let theta = acos(product)
            let w = sin(t * theta) / (1 - product * product).squareRoot()
            r.quaternion = a.quaternion * (cos(t * theta) - product * w) + b.quaternion * w
        }
        return r
    }

    /// The matrix of these parts (CSS Transforms Level 2, "Recomposing to a 3D matrix"),
    /// built in place: no allocation (it runs per frame).
    func recomposed() -> CATransform3D {
        var m = CATransform3DIdentity
        m.m14 = perspective[0]; m.m24 = perspective[1]; m.m34 = perspective[2]; m.m44 = perspective[3]
        let t = translate
        m.m41 += t.x * m.m11 + t.y * m.m21 + t.z * m.m31
        m.m42 += t.x * m.m12 + t.y * m.m22 + t.z * m.m32
        m.m43 += t.x * m.m13 + t.y * m.m23 + t.z * m.m33
        m.m44 += t.x * m.m14 + t.y * m.m24 + t.z * m.m34
        let x = quaternion.x, y = quaternion.y, z = quaternion.z, w = quaternion.w
        var r = CATransform3DIdentity
        r.m11 = 1 - 2 * (y * y + z * z)
        r.m12 = 2 * (x * y + z * w)
        r.m13 = 2 * (x * z - y * w)
        r.m21 = 2 * (x * y - z * w)
        r.m22 = 1 - 2 * (x * x + z * z)
        r.m23 = 2 * (y * z + x * w)
        r.m31 = 2 * (x * z + y * w)
        r.m32 = 2 * (y * z - x * w)
        r.m33 = 1 - 2 * (x * x + y * y)
        m = CATransform3DConcat(r, m)
        if skew.z != 0 {
            var k = CATransform3DIdentity
            k.m32 = skew.z
            m = CATransform3DConcat(k, m)
        }
        if skew.y != 0 {
            var k = CATransform3DIdentity
            k.m31 = skew.y
            m = CATransform3DConcat(k, m)
        }
        if skew.x != 0 {
            var k = CATransform3DIdentity
            k.m21 = skew.x
            m = CATransform3DConcat(k, m)
        }
        m.m11 *= scale.x; m.m12 *= scale.x; m.m13 *= scale.x; m.m14 *= scale.x
        m.m21 *= scale.y; m.m22 *= scale.y; m.m23 *= scale.y; m.m24 *= scale.y
        m.m31 *= scale.z; m.m32 *= scale.z; m.m33 *= scale.z; m.m34 *= scale.z
        return m
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
