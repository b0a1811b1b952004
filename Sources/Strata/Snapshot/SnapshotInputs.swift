/// The presentation columns a snapshot pass reads, fetched once per pass: a nil column was
/// never materialised, so every layer holds the property's default there (and the pass
/// reads no bytes for it).
struct SnapshotInputs {
    let flags: ColumnSpan<UInt16>
    /// `SnapshotHint` bits per row: a column of a group is read only for rows with its bit.
    let hints: ColumnSpan<UInt8>
    let position, bounds, anchorPoint, anchorPointZ, zPosition: ColumnSpan<Double>?
    let transform, sublayerTransform: ColumnSpan<Double>?
    let opacity, hidden, masksToBounds, doubleSided: ColumnSpan<Double>?
    let backgroundColor, borderColor, borderWidth, cornerRadius: ColumnSpan<Double>?
    let shadowColor, shadowOffset, shadowOpacity, shadowRadius: ColumnSpan<Double>?
    let fillColor, strokeColor, lineWidth, strokeStart, strokeEnd, miterLimit, lineDashPhase: ColumnSpan<Double>?

    init(_ s: LayerStore) {
        func col(_ p: PropertyID) -> ColumnSpan<Double>? { s.presentation[p.index]?.span }
        flags = ColumnSpan(s.flags)
        hints = ColumnSpan(s.hints)
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

    /// Bytes a full pass over `items` layers reads and writes (`shapes` of them shape
    /// layers; `hinted[b]` of them with hint bit b): what its bandwidth floor streams.
    func fullPassBytes(items: Int, shapes: Int, hinted: UnsafePointer<Int>) -> Int {
        // Every item: flags and hints, last child, previous sibling, the row -> item map and
        // the order's z; opacity (order and geometry), position, bounds, background.
        let each = 2 + 1 + 4 + 4 + 4 + 4 + 2 * w(opacity, 1) + w(position, 2) + w(bounds, 4) + w(backgroundColor, 4)
        var bytes = items * (each + RenderSnapshot.bytesPerItem) + shapes * RenderSnapshot.bytesPerShape
        for b in 0..<8 { bytes += hinted[b] * groupBytes(b) }
        return bytes
    }

    /// Bytes of a column of `lanes` doubles per row, 0 when not materialised.
    private func w(_ c: ColumnSpan<Double>?, _ lanes: Int) -> Int { c == nil ? 0 : lanes * 8 }

    /// Bytes the pass reads per item with hint bit `b` (the parent's sublayer transform
    /// and clip counted per item that has them).
    private func groupBytes(_ b: Int) -> Int {
        switch b {
        case 0: return w(transform, 16)
        case 1: return w(sublayerTransform, 16)
        case 2: return w(anchorPoint, 2) + w(anchorPointZ, 1)
        case 3: return 2 * w(zPosition, 1)
        case 4: return w(borderColor, 4) + w(borderWidth, 1) + w(cornerRadius, 1)
        case 5: return w(shadowColor, 4) + w(shadowOffset, 2) + w(shadowOpacity, 1) + w(shadowRadius, 1)
        case 6: return w(hidden, 1) + 2 * w(masksToBounds, 1) + w(doubleSided, 1)
        default:
            return w(fillColor, 4) + w(strokeColor, 4) + w(lineWidth, 1) + w(strokeStart, 1) + w(strokeEnd, 1)
                + w(miterLimit, 1) + w(lineDashPhase, 1)
        }
    }
}
