import Foundation

/// A 2D affine transform, spelled as Core Graphics' `CGAffineTransform`.
///
/// Points are row vectors: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`, so
/// `t1.concatenating(t2)` applies `t1` first, then `t2`.
///
/// ```swift
/// CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))   // ≈ (0, 1)
/// ```
public struct CGAffineTransform: Equatable, Hashable, Sendable {
    /// Row 1, column 1: x scale / rotation cosine.
    public var a: CGFloat
    /// Row 1, column 2: rotation sine / y shear.
    public var b: CGFloat
    /// Row 2, column 1: x shear / minus rotation sine.
    public var c: CGFloat
    /// Row 2, column 2: y scale / rotation cosine.
    public var d: CGFloat
    /// Translation along x.
    public var tx: CGFloat
    /// Translation along y.
    public var ty: CGFloat

    /// Creates a transform from its six entries.
    @inlinable
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// Creates a transform from its six entries, unlabelled (Apple's `init(_:_:_:_:_:_:)`).
    @inlinable
    public init(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    /// Creates the all-zero transform (Apple's `CGAffineTransform()`; not the identity).
    @inlinable
    public init() {
        self.init(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)
    }

    /// The identity transform `[1 0 0 1 0 0]`.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A rotation by `angle` radians (counter-clockwise in a y-up space): `[cos sin -sin cos 0 0]`.
    public init(rotationAngle angle: CGFloat) {
        let s = sin(Double(angle)), co = cos(Double(angle))
        self.init(a: CGFloat(co), b: CGFloat(s), c: CGFloat(-s), d: CGFloat(co), tx: 0, ty: 0)
    }

    /// A scale by `sx` along x and `sy` along y.
    @inlinable
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A translation by `(tx, ty)`.
    @inlinable
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// Whether this is exactly the identity transform.
    @inlinable
    public var isIdentity: Bool { self == .identity }

    /// `self` followed by `t2` (the matrix product `self × t2`).
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        let t1 = self
        return CGAffineTransform(
            a: t1.a * t2.a + t1.b * t2.c,
            b: t1.a * t2.b + t1.b * t2.d,
            c: t1.c * t2.a + t1.d * t2.c,
            d: t1.c * t2.b + t1.d * t2.d,
            tx: t1.tx * t2.a + t1.ty * t2.c + t2.tx,
            ty: t1.tx * t2.b + t1.ty * t2.d + t2.ty)
    }

    /// A rotation by `angle` followed by `self` (Apple's `CGAffineTransformRotate`).
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// A scale by `(sx, sy)` followed by `self` (Apple's `CGAffineTransformScale`).
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(a: a * sx, b: b * sx, c: c * sy, d: d * sy, tx: tx, ty: ty)
    }

    /// A translation by `(tx, ty)` followed by `self` (Apple's `CGAffineTransformTranslate`).
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(a: a, b: b, c: c, d: d,
                          tx: tx + x * a + y * c,
                          ty: ty + x * b + y * d)
    }

    /// The inverse transform, or `self` unchanged when it is not invertible (as Apple's).
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        if det == 0 || !det.isFinite { return self }
        let inv = 1 / det
        let result = CGAffineTransform(
            a: d * inv, b: -b * inv, c: -c * inv, d: a * inv,
            tx: (c * ty - d * tx) * inv,
            ty: (b * tx - a * ty) * inv)
        if !(result.a.isFinite && result.b.isFinite && result.c.isFinite && result.d.isFinite
             && result.tx.isFinite && result.ty.isFinite) { return self }
        return result
    }
}

extension CGPoint {
    /// The point transformed by `t`: `(a·x + c·y + tx, b·x + d·y + ty)`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// The size transformed by `t` without translation: `(a·w + c·h, b·w + d·h)`.
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The smallest rectangle containing the four transformed corners; null and infinite
    /// rectangles are returned unchanged.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull || isInfinite { return self }
        let p0 = CGPoint(x: minX, y: minY).applying(t)
        let p1 = CGPoint(x: maxX, y: minY).applying(t)
        let p2 = CGPoint(x: minX, y: maxY).applying(t)
        let p3 = CGPoint(x: maxX, y: maxY).applying(t)
        let x0 = Swift.min(Swift.min(p0.x, p1.x), Swift.min(p2.x, p3.x))
        let x1 = Swift.max(Swift.max(p0.x, p1.x), Swift.max(p2.x, p3.x))
        let y0 = Swift.min(Swift.min(p0.y, p1.y), Swift.min(p2.y, p3.y))
        let y1 = Swift.max(Swift.max(p0.y, p1.y), Swift.max(p2.y, p3.y))
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
