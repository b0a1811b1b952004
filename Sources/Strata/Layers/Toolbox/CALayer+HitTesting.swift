import Foundation

// Hit testing and coordinate conversion (Apple's `hitTest(_:)`, `contains(_:)` and the four
// `convert` methods), on the model tree and, through presentation copies' `superlayer` and
// `sublayers`, on the presentation tree. Shared by both engines.

extension CALayer {
    /// The matrix taking a point of this layer's coordinates (its bounds) to its
    /// superlayer's: about the anchor point, `transform`, then `position` and `zPosition`;
    /// then the superlayer's `sublayerTransform` about the superlayer's anchor point.
    func toSuperlayerMatrix() -> CATransform3D {
        let b = bounds, a = anchorPoint
        let ax = b.minX + a.x * b.width, ay = b.minY + a.y * b.height
        var m = CATransform3DMakeTranslation(-ax, -ay, -anchorPointZ)
        m = CATransform3DConcat(m, transform)
        m = CATransform3DConcat(m, CATransform3DMakeTranslation(position.x, position.y, zPosition))
        if let s = superlayer {
            let st = s.sublayerTransform
            if !CATransform3DIsIdentity(st) {
                let sb = s.bounds, sa = s.anchorPoint
                let sx = sb.minX + sa.x * sb.width, sy = sb.minY + sa.y * sb.height
                m = CATransform3DConcat(m, CATransform3DMakeTranslation(-sx, -sy, 0))
                m = CATransform3DConcat(m, st)
                m = CATransform3DConcat(m, CATransform3DMakeTranslation(sx, sy, 0))
            }
        }
        return m
    }

    /// This layer's coordinates to its tree's root's, and that root.
    func toRootMatrix() -> (CATransform3D, CALayer) {
        var m = CATransform3DIdentity
        var l: CALayer = self
        var depth = 0
        while let s = l.superlayer, depth < 100_000 {
            m = CATransform3DConcat(m, l.toSuperlayerMatrix())
            l = s
            depth += 1
        }
        return (m, l)
    }

    /// The matrix from `other`'s coordinates to this layer's (nil `other`: the root's).
    func conversionMatrix(from other: CALayer?) -> CATransform3D {
        let (mine, myRoot) = toRootMatrix()
        let toMine = CATransform3DInvert(mine)
        guard let other else { return toMine }
        let (theirs, theirRoot) = other.toRootMatrix()
        // Layers of different trees share no space: the point is taken as it is. (Copies of
        // the presentation tree are made on each read: one tree when their models' are.)
        guard theirRoot === myRoot || theirRoot.model() === myRoot.model() else { return CATransform3DIdentity }
        return CATransform3DConcat(theirs, toMine)
    }

    /// (x, y, 0, 1) through `m`, divided by w.
    static func map(_ p: CGPoint, _ m: CATransform3D) -> CGPoint {
        let x = p.x * m.m11 + p.y * m.m21 + m.m41
        let y = p.x * m.m12 + p.y * m.m22 + m.m42
        let w = p.x * m.m14 + p.y * m.m24 + m.m44
        return w != 0 && w != 1 ? CGPoint(x: x / w, y: y / w) : CGPoint(x: x, y: y)
    }

    static func map(_ r: CGRect, _ m: CATransform3D) -> CGRect {
        guard !r.isNull else { return r }
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                       CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { map($0, m) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// `p`, a point in `layer`'s coordinates (its tree's root's when nil), in this layer's.
    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        Self.map(p, conversionMatrix(from: layer))
    }

    /// `p`, a point in this layer's coordinates, in `layer`'s (its tree's root's when nil).
    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        guard let layer else { return Self.map(p, toRootMatrix().0) }
        return layer.convert(p, from: self)
    }

    /// `r` in `layer`'s coordinates, as the rectangle bounding it in this layer's.
    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect {
        Self.map(r, conversionMatrix(from: layer))
    }

    /// `r` in this layer's coordinates, as the rectangle bounding it in `layer`'s.
    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect {
        guard let layer else { return Self.map(r, toRootMatrix().0) }
        return layer.convert(r, from: self)
    }

    /// `hitTest(_:)`'s walk: `p` in the superlayer's coordinates; hidden layers and, when
    /// `masksToBounds`, points outside the bounds hit nothing; the sublayers are asked
    /// front-most first (the last one first); then this layer if it `contains` the point.
    func hitTestWalk(_ p: CGPoint) -> CALayer? {
        guard !isHidden else { return nil }
        let local = Self.map(p, CATransform3DInvert(toSuperlayerMatrix()))
        if masksToBounds && !contains(local) { return nil }
        for sub in (sublayers ?? []).reversed() {
            if let hit = sub.hitTest(local) { return hit }
        }
        return contains(local) ? self : nil
    }
}
