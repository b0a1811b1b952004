/// The presentation columns a snapshot pass reads, fetched once per pass: a nil column was
/// never materialised, so every layer holds the property's default there (and the pass
/// reads no bytes for it).
struct SnapshotInputs {
    let flags: UnsafeMutablePointer<UInt16>
    let position, bounds, anchorPoint, anchorPointZ, zPosition: UnsafeMutablePointer<Double>?
    let transform, sublayerTransform: UnsafeMutablePointer<Double>?
    let opacity, hidden, masksToBounds, doubleSided: UnsafeMutablePointer<Double>?
    let backgroundColor, borderColor, borderWidth, cornerRadius: UnsafeMutablePointer<Double>?
    let shadowColor, shadowOffset, shadowOpacity, shadowRadius: UnsafeMutablePointer<Double>?
    let fillColor, strokeColor, lineWidth, strokeStart, strokeEnd, miterLimit, lineDashPhase: UnsafeMutablePointer<Double>?

    init(_ s: LayerStore) {
        func col(_ p: PropertyID) -> UnsafeMutablePointer<Double>? { s.presentation[p.index] }
        flags = s.flags.base
        position = col(.position); bounds = col(.bounds); anchorPoint = col(.anchorPoint)
        anchorPointZ = col(.anchorPointZ); zPosition = col(.zPosition)
        transform = col(.transform); sublayerTransform = col(.sublayerTransform)
        opacity = col(.opacity); hidden = col(.hidden); masksToBounds = col(.masksToBounds); doubleSided = col(.doubleSided)
        backgroundColor = col(.backgroundColor); borderColor = col(.borderColor); borderWidth = col(.borderWidth)
        cornerRadius = col(.cornerRadius)
        shadowColor = col(.shadowColor); shadowOffset = col(.shadowOffset); shadowOpacity = col(.shadowOpacity)
        shadowRadius = col(.shadowRadius)
        fillColor = col(.fillColor); strokeColor = col(.strokeColor); lineWidth = col(.lineWidth)
        strokeStart = col(.strokeStart); strokeEnd = col(.strokeEnd); miterLimit = col(.miterLimit)
        lineDashPhase = col(.lineDashPhase)
    }

    /// Bytes a full pass over `items` layers (`shapes` of them shape layers) reads from
    /// these columns and the tree, and writes: what its bandwidth floor streams.
    func fullPassBytes(items: Int, shapes: Int) -> Int {
        func w(_ c: UnsafeMutablePointer<Double>?, _ lanes: Int) -> Int { c == nil ? 0 : lanes * 8 }
        // Order: flags, last child, previous sibling, the row -> item map and z; hidden,
        // opacity and zPosition for culling and sorting.
        let order = 2 + 4 + 4 + 4 + 4 + w(hidden, 1) + w(opacity, 1) + w(zPosition, 1)
        // Geometry: position, bounds, anchor, transform, the parent's sublayer transform
        // and clip, opacity again, double-sidedness.
        let geometry = w(position, 2) + w(bounds, 4) + w(anchorPoint, 2) + w(anchorPointZ, 1) + w(zPosition, 1)
            + w(transform, 16) + w(sublayerTransform, 16) + w(opacity, 1) + w(masksToBounds, 1) + w(doubleSided, 1)
        let style = 2 + w(backgroundColor, 4) + w(borderColor, 4) + w(borderWidth, 1) + w(cornerRadius, 1)
            + w(shadowColor, 4) + w(shadowOffset, 2) + w(shadowOpacity, 1) + w(shadowRadius, 1) + w(masksToBounds, 1)
        let shape = w(fillColor, 4) + w(strokeColor, 4) + w(lineWidth, 1) + w(strokeStart, 1) + w(strokeEnd, 1)
            + w(miterLimit, 1) + w(lineDashPhase, 1)
        return items * (order + geometry + style + RenderSnapshot.bytesPerItem)
            + shapes * (shape + RenderSnapshot.bytesPerShape)
    }
}
