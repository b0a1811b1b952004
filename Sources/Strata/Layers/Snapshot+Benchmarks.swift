/// Benchmark hooks for the render snapshot and presentation copies. Not API: reached with
/// `@_spi(Benchmarks) import Strata`.
@_spi(Benchmarks)
extension CARenderer {
    /// `snapshot()` as a full pass, whatever changed: the order rebuilt and every item
    /// computed (what the first snapshot of a tree costs).
    public func snapshotFullPass() -> RenderSnapshot {
        driver.snapshot(root: layer, invalidated: true)
    }
}

@_spi(Benchmarks)
extension CALayer {
    /// A presentation copy made the way `presentation()` made every copy before copies read
    /// the columns on access: every lane property, object and the transition copied at once.
    /// The suite times it beside `presentation()` and the render snapshot.
    public func presentationCopyingEverything() -> Self? {
        guard row >= 0, engine.layers.flags[Int(row)] & LayerFlags.committed != 0 else { return nil }
        let p = Self(_strataLayer: self)
        fill(p)
        return p
    }
}
