/// Bits of `LayerStore.hints`: groups of properties a layer has set or animated since it was
/// made. A layer without a group's bit holds that group's defaults, so the render snapshot
/// reads none of its columns for it: a tree where a few layers turn pays for the transform
/// column on those few, whatever other trees of the engine did. Position, bounds, opacity and
/// background colour are read for every layer (where materialised).
enum SnapshotHint {
    static let transform: UInt8 = 1 << 0
    static let sublayerTransform: UInt8 = 1 << 1
    /// anchorPoint, anchorPointZ
    static let anchor: UInt8 = 1 << 2
    static let zPosition: UInt8 = 1 << 3
    /// borderWidth, borderColor, cornerRadius
    static let border: UInt8 = 1 << 4
    /// shadowColor, shadowOffset, shadowOpacity, shadowRadius
    static let shadow: UInt8 = 1 << 5
    /// masksToBounds, doubleSided, hidden
    static let clipping: UInt8 = 1 << 6
    /// fillColor, strokeColor, lineWidth, strokeStart, strokeEnd, miterLimit, lineDashPhase
    static let shape: UInt8 = 1 << 7
}
