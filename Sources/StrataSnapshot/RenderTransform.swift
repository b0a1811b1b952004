import Foundation
import StrataGeometry

/// A layer's world transform in single precision: a 4x4 matrix in `CATransform3D`'s
/// convention (row vectors, translation in the fourth row). A point (x, y) of the layer's
/// bounds coordinate space lands at `(x, y, 0, 1) · M` in the render target's space (the
/// root layer's superlayer space), to be divided by w. 64 bytes, rows 16-byte aligned: an
/// instance buffer a GPU renderer uploads as is (as a column-major float4x4 it is the
/// transpose, so a shader multiplies `M * p`).
///
///     let t = RenderTransform(CATransform3DMakeTranslation(10, 20, 0))
///     t.apply(to: CGPoint(x: 1, y: 1))   // (11, 21)
public struct RenderTransform: Equatable, Sendable {
    /// Rows: (m11 m12 m13 m14), (m21 ...), (m31 ...), (m41 m42 m43 m44).
    public var row1: SIMD4<Float>
    public var row2: SIMD4<Float>
    public var row3: SIMD4<Float>
    public var row4: SIMD4<Float>

    /// A matrix from its four rows.
    @inlinable public init(row1: SIMD4<Float>, row2: SIMD4<Float>, row3: SIMD4<Float>, row4: SIMD4<Float>) {
        self.row1 = row1
        self.row2 = row2
        self.row3 = row3
        self.row4 = row4
    }

    /// The identity.
    public static let identity = RenderTransform(row1: [1, 0, 0, 0], row2: [0, 1, 0, 0], row3: [0, 0, 1, 0], row4: [0, 0, 0, 1])

    /// `t` rounded to single precision.
    public init(_ t: CATransform3D) {
        row1 = SIMD4(Float(t.m11), Float(t.m12), Float(t.m13), Float(t.m14))
        row2 = SIMD4(Float(t.m21), Float(t.m22), Float(t.m23), Float(t.m24))
        row3 = SIMD4(Float(t.m31), Float(t.m32), Float(t.m33), Float(t.m34))
        row4 = SIMD4(Float(t.m41), Float(t.m42), Float(t.m43), Float(t.m44))
    }

    /// The same matrix as a `CATransform3D`.
    public var transform3D: CATransform3D {
        CATransform3D(m11: CGFloat(row1.x), m12: CGFloat(row1.y), m13: CGFloat(row1.z), m14: CGFloat(row1.w),
                      m21: CGFloat(row2.x), m22: CGFloat(row2.y), m23: CGFloat(row2.z), m24: CGFloat(row2.w),
                      m31: CGFloat(row3.x), m32: CGFloat(row3.y), m33: CGFloat(row3.z), m34: CGFloat(row3.w),
                      m41: CGFloat(row4.x), m42: CGFloat(row4.y), m43: CGFloat(row4.z), m44: CGFloat(row4.w))
    }

    /// `(x, y, 0, 1) · M` divided by w: where a point of the layer lands in the target.
    public func apply(to p: CGPoint) -> CGPoint {
        let v = Float(p.x) * row1 + Float(p.y) * row2 + row4
        return CGPoint(x: CGFloat(v.x / v.w), y: CGFloat(v.y / v.w))
    }

    /// The 2-D affine part (a b c d tx ty), what a 2-D canvas draws: exact when `isAffine`.
    public var affine: CGAffineTransform {
        CGAffineTransform(a: CGFloat(row1.x), b: CGFloat(row1.y), c: CGFloat(row2.x), d: CGFloat(row2.y),
                          tx: CGFloat(row4.x), ty: CGFloat(row4.y))
    }

    /// No perspective: the layer's plane maps to the target by its affine part alone
    /// (m14 = m24 = 0, m44 = 1; depth terms do not move x or y). `m14` and `m24` within 1e-12
    /// of zero count as zero: a layer a million points wide then moves w by under 1e-6, below
    /// single precision's resolution of 1 (rounding leaves such terms, e.g. 1e-18 from a
    /// decomposed transform at the end of its animation).
    public var isAffine: Bool { abs(row1.w) <= 1e-12 && abs(row2.w) <= 1e-12 && row4.w == 1 }

    /// `self · other`: this transform, then `other` (`CATransform3DConcat(self, other)`).
    @inlinable public func concatenating(_ other: RenderTransform) -> RenderTransform {
        RenderTransform(row1: RenderTransform.mul(row1, other), row2: RenderTransform.mul(row2, other),
                        row3: RenderTransform.mul(row3, other), row4: RenderTransform.mul(row4, other))
    }

    /// One row times a matrix: four fused multiply-adds of whole rows.
    @inlinable @inline(__always)
    static func mul(_ r: SIMD4<Float>, _ m: RenderTransform) -> SIMD4<Float> {
        var v = m.row1 * r.x
        v.addProduct(SIMD4(repeating: r.y), m.row2)
        v.addProduct(SIMD4(repeating: r.z), m.row3)
        v.addProduct(SIMD4(repeating: r.w), m.row4)
        return v
    }
}
