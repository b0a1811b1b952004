@_exported import StrataSnapshot

extension RenderSnapshot {
    /// The layer of item `i` (nil once it is gone, or for a snapshot of another engine).
    ///
    ///     let frame = renderer.snapshot()
    ///     frame.layer(at: 0) === renderer.layer   // the root is drawn first
    public func layer(at i: Int) -> CALayer? {
        guard i >= 0 && i < count, let builder = source as? SnapshotBuilder else { return nil }
        let layers = builder.layers
        let row = Int(layerIndices[i])
        guard row < layers.capacity, layers.flags[row] & LayerFlags.alive != 0 else { return nil }
        return layers.handle[row]?.takeUnretainedValue()
    }
}
