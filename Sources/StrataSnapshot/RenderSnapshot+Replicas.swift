// Replicator instances: both engines repeat a `CAReplicatorLayer`'s sublayer items once per
// instance, tinted by the instance colour. These helpers copy items between snapshots; the
// geometry of each copy is the engine's own (it places the copies, in its own precision).

extension RenderSnapshot {
    /// Items a snapshot holds at most once replicator instances are repeated: a replicator
    /// with more instances than fit stops repeating there, with a diagnostic.
    package static let maxReplicatedItems = 1 << 22

    /// What both engines report when a snapshot reaches `maxReplicatedItems`.
    package static let replicasLeftOut =
        "render snapshot: replicator instances would make more than \(maxReplicatedItems) items; the instances beyond are left out"

    /// This snapshot's tree, style and shape columns become a copy of `other`'s first
    /// `other.count` items and `other.shapeCount` shapes.
    package func copyColumns(of other: RenderSnapshot) {
        let n = other.count, s = other.shapeCount
        reserveItems(n, keeping: 0)
        reserveShapes(s, keeping: 0)
        _layerIndices.base.update(from: other._layerIndices.base, count: n)
        _parents.base.update(from: other._parents.base, count: n)
        _subtreeSizes.base.update(from: other._subtreeSizes.base, count: n)
        _clips.base.update(from: other._clips.base, count: n)
        _transforms.base.update(from: other._transforms.base, count: n)
        _opacities.base.update(from: other._opacities.base, count: n)
        _bounds.base.update(from: other._bounds.base, count: n)
        _cornerRadii.base.update(from: other._cornerRadii.base, count: n)
        _backgroundColors.base.update(from: other._backgroundColors.base, count: n)
        _borderColors.base.update(from: other._borderColors.base, count: n)
        _borderWidths.base.update(from: other._borderWidths.base, count: n)
        _shadowColors.base.update(from: other._shadowColors.base, count: n)
        _shadows.base.update(from: other._shadows.base, count: n)
        _flags.base.update(from: other._flags.base, count: n)
        _shapeIndices.base.update(from: other._shapeIndices.base, count: n)
        _shapeItems.base.update(from: other._shapeItems.base, count: s)
        _fillColors.base.update(from: other._fillColors.base, count: s)
        _strokeColors.base.update(from: other._strokeColors.base, count: s)
        _strokes.base.update(from: other._strokes.base, count: s)
        _lineDashPhases.base.update(from: other._lineDashPhases.base, count: s)
        for k in 0..<s where _paths[k] !== other._paths[k] { _paths[k] = other._paths[k] }
        count = n
        shapeCount = s
        orderSlotsAsDrawn()
    }

    /// Item `i` of `src`'s style (corner radius, colours, border, shadow, flags, and its shape
    /// row, appended at `shapeCount`) written to item `j`, every colour multiplied by `tint`
    /// (a replicator instance's colour): a background, border or shadow the tint makes
    /// invisible loses its flag. Returns the flags; the tree columns and geometry are the
    /// caller's, and so are the geometry flag bits (perspective).
    @discardableResult
    package func copyStyle(from src: RenderSnapshot, item i: Int, to j: Int, tint: SIMD4<Float>) -> RenderItemFlags {
        let invisible = RenderSnapshot.invisible
        let bg = src._backgroundColors[i] * tint, bc = src._borderColors[i] * tint, sc = src._shadowColors[i] * tint
        _backgroundColors[j] = bg
        _borderColors[j] = bc
        _shadowColors[j] = sc
        _cornerRadii[j] = src._cornerRadii[i]
        _borderWidths[j] = src._borderWidths[i]
        _shadows[j] = src._shadows[i]
        var f = src._flags[i]
        if !(bg.w > invisible) { f.remove(.background) }
        if !(bc.w > invisible) { f.remove(.border) }
        if !(sc.w > invisible) { f.remove(.shadow) }
        let s = Int(src._shapeIndices[i])
        if s >= 0 {
            let t = shapeCount
            if t >= _shapeItems.capacity || t >= _paths.count { reserveShapes(Swift.max(2 * t, 16), keeping: t) }
            _shapeItems[t] = Int32(j)
            _fillColors[t] = src._fillColors[s] * tint
            _strokeColors[t] = src._strokeColors[s] * tint
            _strokes[t] = src._strokes[s]
            _lineDashPhases[t] = src._lineDashPhases[s]
            if _paths[t] !== src._paths[s] { _paths[t] = src._paths[s] }
            _shapeIndices[j] = Int32(t)
            shapeCount = t + 1
        } else {
            _shapeIndices[j] = -1
        }
        _flags[j] = f
        return f
    }

    /// Subtree sizes from the parents of the first `count` items, in pre-order (slots as
    /// drawn), and the draw order that says so.
    package func recomputeSubtreeSizes() {
        let n = count
        for j in 0..<n { _subtreeSizes[j] = 1 }
        var j = n - 1
        while j > 0 {
            let p = Int(_parents[j])
            if p >= 0 { _subtreeSizes[p] &+= _subtreeSizes[j] }
            j -= 1
        }
        orderSlotsAsDrawn()
    }
}
