import Foundation

/// A field of a `CATransform3D` reachable by key path: the CATransform3D list of Apple's
/// "Core Animation Extensions To Key-Value Coding" (`transform.rotation.z`,
/// `transform.scale`, `transform.translation` ...), plus `scale.xy`, which Apple does not
/// document but accepts and real code uses (x and y scale from one number). Both engines
/// read and set fields through it.
///
/// Every field is one number but `translation`, a `CGSize` of two (x and y).
package enum TransformField: String, Equatable, Sendable {
    case rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z", rotation = "rotation"
    case scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z", scale = "scale", scaleXY = "scale.xy"
    case translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z"
    case translation = "translation"

    /// Numbers the field has: 2 for `translation` (x, y), 1 for the others.
    @inline(__always)
    package var width: Int { self == .translation ? 2 : 1 }

    /// Lane `lane` of the field in `t`, read by decomposing the matrix into scale, rotation
    /// (x, then y, then z) and translation. `scale` is the mean of the three scales,
    /// `scale.xy` of x and y.
    package func value(in t: CATransform3D, lane: Int = 0) -> Double {
        let m11 = Double(t.m11), m12 = Double(t.m12), m13 = Double(t.m13)
        let m21 = Double(t.m21), m22 = Double(t.m22), m23 = Double(t.m23)
        let m31 = Double(t.m31), m32 = Double(t.m32), m33 = Double(t.m33)
        let sx = (m11 * m11 + m12 * m12 + m13 * m13).squareRoot()
        let sy = (m21 * m21 + m22 * m22 + m23 * m23).squareRoot()
        switch self {
        case .rotationZ, .rotation: return atan2(m12, m11)
        case .rotationX: return atan2(m23, m33)
        case .rotationY: return atan2(-m13, (m23 * m23 + m33 * m33).squareRoot())
        case .scaleX: return sx
        case .scaleY: return sy
        case .scaleZ: return (m31 * m31 + m32 * m32 + m33 * m33).squareRoot()
        case .scale: return (sx + sy + (m31 * m31 + m32 * m32 + m33 * m33).squareRoot()) / 3
        case .scaleXY: return (sx + sy) / 2
        case .translationX: return Double(t.m41)
        case .translationY: return Double(t.m42)
        case .translationZ: return Double(t.m43)
        case .translation: return lane == 0 ? Double(t.m41) : Double(t.m42)
        }
    }

    /// The field's lanes in `t` (`width` of them).
    package func lanes(in t: CATransform3D) -> [Double] {
        width == 2 ? [value(in: t, lane: 0), value(in: t, lane: 1)] : [value(in: t)]
    }

    /// `t` with this field set to `v` (and its second lane to `v1`, for `translation`):
    /// decomposed, the field replaced, recomposed as scale, then the x, y, z rotations, then
    /// the translation. Shears and perspective (`m34`) are kept (SEMANTICS.md, "Fidelity
    /// rules").
    package func setting(_ v: Double, _ v1: Double = 0, in t: CATransform3D) -> CATransform3D {
        TransformBlend.editingRigidPart(of: t) { rigidSetting(v, v1, in: $0) }
    }

    private func rigidSetting(_ v: Double, _ v1: Double, in t: CATransform3D) -> CATransform3D {
        var sx = TransformField.scaleX.value(in: t), sy = TransformField.scaleY.value(in: t)
        var sz = TransformField.scaleZ.value(in: t)
        var rx = TransformField.rotationX.value(in: t), ry = TransformField.rotationY.value(in: t)
        var rz = TransformField.rotationZ.value(in: t)
        var tx = Double(t.m41), ty = Double(t.m42), tz = Double(t.m43)
        switch self {
        case .rotationZ, .rotation: rz = v
        case .rotationX: rx = v
        case .rotationY: ry = v
        case .scaleX: sx = v
        case .scaleY: sy = v
        case .scaleZ: sz = v
        case .scale: sx = v; sy = v; sz = v
        case .scaleXY: sx = v; sy = v
        case .translationX: tx = v
        case .translationY: ty = v
        case .translationZ: tz = v
        case .translation: tx = v; ty = v1
        }
        var m = CATransform3DMakeScale(CGFloat(sx), CGFloat(sy), CGFloat(sz))
        if rx != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(rx), 1, 0, 0)) }
        if ry != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(ry), 0, 1, 0)) }
        if rz != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(rz), 0, 0, 1)) }
        m.m41 = CGFloat(tx); m.m42 = CGFloat(ty); m.m43 = CGFloat(tz)
        return m
    }

    /// The field of `t` as `value(forKeyPath:)` returns it: a `CGSize` for `translation`, a
    /// `CGFloat` for the others.
    package func boxed(in t: CATransform3D) -> Any {
        self == .translation ? CGSize(width: t.m41, height: t.m42) as Any : CGFloat(value(in: t)) as Any
    }
}
