@_exported import StrataSnapshot

extension RenderSnapshot {
    /// The layer of the item in slot `i` (nil for a slot holding no item, once the layer is
    /// gone, or for a snapshot of another engine).
    ///
    ///     let frame = renderer.snapshot()
    ///     frame.layer(at: Int(frame.drawOrder[0])) === renderer.layer   // the root is drawn first
    public func layer(at i: Int) -> CALayer? {
        guard i >= 0 && i < slotCount, let builder = source as? SnapshotBuilder else { return nil }
        let layers = builder.layers
        let row = Int(layerIndices[i])
        guard row >= 0 && row < layers.capacity, layers.flags[row] & LayerFlags.alive != 0 else { return nil }
        return layers.handle[row]?.takeUnretainedValue()
    }
}
