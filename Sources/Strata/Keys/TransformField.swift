import Foundation

/// Derived fields of a `CATransform3D` reachable by key path (Apple's list).
enum TransformField: String, Equatable {
    case rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z", rotation = "rotation"
    case scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z", scale = "scale"
    case translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z"
}

extension TransformField {
    /// This field of `t`, read by decomposing the matrix into scale, rotation and
    /// translation.
    func value(in t: CATransform3D) -> Double {
        let f = self
        let sx = (t.m11 * t.m11 + t.m12 * t.m12 + t.m13 * t.m13).squareRoot()
        let sy = (t.m21 * t.m21 + t.m22 * t.m22 + t.m23 * t.m23).squareRoot()
        let sz = (t.m31 * t.m31 + t.m32 * t.m32 + t.m33 * t.m33).squareRoot()
        switch f {
        case .rotationZ, .rotation: return Double(atan2(t.m12, t.m11))
        case .rotationX: return Double(atan2(t.m23, t.m33))
        case .rotationY: return Double(atan2(-t.m13, (t.m23 * t.m23 + t.m33 * t.m33).squareRoot()))
        case .scaleX: return Double(sx)
        case .scaleY: return Double(sy)
        case .scaleZ: return Double(sz)
        case .scale: return Double((sx + sy + sz) / 3)
        case .translationX: return Double(t.m41)
        case .translationY: return Double(t.m42)
        case .translationZ: return Double(t.m43)
        }
    }

    /// `t` with this field set to `v`: recomposed from scale, rotation and translation, with
    /// `t`'s shears and perspective (`m34`) kept.
    func setting(_ v: Double, in t: CATransform3D) -> CATransform3D {
        TransformBlend.editingRigidPart(of: t) { rigidSetting(v, in: $0) }
    }

    private func rigidSetting(_ v: Double, in t: CATransform3D) -> CATransform3D {
        let f = self
        var sx = TransformField.scaleX.value(in: t), sy = TransformField.scaleY.value(in: t)
        var sz = TransformField.scaleZ.value(in: t)
        var rx = TransformField.rotationX.value(in: t), ry = TransformField.rotationY.value(in: t)
        var rz = TransformField.rotationZ.value(in: t)
        var tx = Double(t.m41), ty = Double(t.m42), tz = Double(t.m43)
        switch f {
        case .rotationZ, .rotation: rz = v
        case .rotationX: rx = v
        case .rotationY: ry = v
        case .scaleX: sx = v
        case .scaleY: sy = v
        case .scaleZ: sz = v
        case .scale: sx = v; sy = v; sz = v
        case .translationX: tx = v
        case .translationY: ty = v
        case .translationZ: tz = v
        }
        var m = CATransform3DMakeScale(CGFloat(sx), CGFloat(sy), CGFloat(sz))
        if rx != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(rx), 1, 0, 0)) }
        if ry != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(ry), 0, 1, 0)) }
        if rz != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(rz), 0, 0, 1)) }
        m.m41 = CGFloat(tx); m.m42 = CGFloat(ty); m.m43 = CGFloat(tz)
        return m
    }
}
