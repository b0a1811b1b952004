import Foundation

/// The engine's side of a change: what the setter (`CALayer+Changes.swift`) hands on once the
/// layer object's part is done: refusals, and a timing field's change (the layer store
/// writes it, the animation store respaces the subtree).
extension EngineContext {
    /// The engine is full: the change applies without its implicit animation (reported once
    /// per transaction).
    @inline(never)
    func implicitAtCapacity(_ p: PropertyID) {
        guard !reportedFullThisTransaction else { return }
        reportedFullThisTransaction = true
        refuseAnimationsAtCapacity("the implicit animation of \(PropertyTable[p].name) (the value is set, without animation; further ones in this transaction are dropped silently)")
    }

    @inline(never)
    func refuseNonFinite(_ p: PropertyID, _ v: Lanes) {
        let w = PropertyTable[p].width
        let shown = (0..<w).map { v[$0] }
        StrataDiagnostics.emit(.nonFiniteValue,
            "\(PropertyTable[p].name) = \(shown): values must be finite; the model value is unchanged")
    }

    @inline(never)
    func refuseCopyMutation(_ p: PropertyID) {
        StrataDiagnostics.emit(.invalidArgument,
            "\(PropertyTable[p].name) set on a presentation or shadow copy; copies are read-only")
    }

    /// A layer timing field's new value (validated by the layer): stored in model and
    /// presentation (never animated), and the layer's subtree respaced when it changed.
    func setTimingField(_ layerRow: Int32, _ p: PropertyID, _ v: Double) {
        freezeLiveCopies()
        if layers.setTimingField(layerRow, p, v) { timeSpaceMayHaveChanged(layerRow) }
    }

    /// `row` was linked or unlinked, or its own timing became or stopped being the default:
    /// the time spaces of its subtree follow (`LayerStore.updateTimeSpace`), and the
    /// animations of the layers whose time space changed move to entries in the new one
    /// (`AnimationStore.respace`). With no layer timed, nothing is looked at.
    @inline(__always)
    func timeSpaceMayHaveChanged(_ row: Int32) {
        guard layers.timedLayers > 0 || layers.timeSpace[Int(row)] >= 0 else { return }
        updateTimeSpace(row)
    }

    @inline(never)
    private func updateTimeSpace(_ row: Int32) {
        let space = layers.updateTimeSpace(row)
        guard !layers.timeSpaceChanges.isEmpty else { return }
        var effects = RemovalEffects()
        animations.respace(layers.timeSpaceChanges, to: space, timings: timings, newEntries: &changes.newEntries,
                           effects: &effects)
        if !effects.other.isEmpty { apply(&effects.other) }
    }
}
