import Foundation

/// The layer tree: sublayer arrays, parents held weakly; the public methods in CALayer.swift
/// call these.
extension CALayer {
    func replaceSublayers(with newValue: [CALayer]?) {
        guard !isCopy else { return }
        let new = newValue ?? []
        for layer in new where !canAdopt(layer) { return }
        for layer in sublayerList where !new.contains(where: { $0 === layer }) { layer.removeFromSuperlayer() }
        for (i, layer) in new.enumerated() { insert(layer, at: i) }
        engine.runEvent("sublayers", on: self)
    }

    func appendSublayer(_ layer: CALayer) {
        guard !isCopy, canAdopt(layer) else { return }
        insert(layer, at: Int.max)
    }

    func insertSublayerImpl(_ layer: CALayer, at idx: UInt32) {
        guard !isCopy, canAdopt(layer) else { return }
        insert(layer, at: Int(idx))
    }

    func insertSublayerImpl(_ layer: CALayer, below sibling: CALayer?) {
        guard !isCopy, canAdopt(layer) else { return }
        guard let sibling, let siblingIndex = sublayerList.firstIndex(where: { $0 === sibling }) else {
            insert(layer, at: 0)
            return
        }
        if sibling === layer { return }
        var index = siblingIndex
        // Moving within this layer: the sibling shifts down once the layer is taken out.
        if let own = sublayerList.firstIndex(where: { $0 === layer }), own < index { index -= 1 }
        insert(layer, at: index)
    }

    func insertSublayerImpl(_ layer: CALayer, above sibling: CALayer?) {
        guard !isCopy, canAdopt(layer) else { return }
        guard let sibling, let siblingIndex = sublayerList.firstIndex(where: { $0 === sibling }) else {
            insert(layer, at: Int.max)
            return
        }
        if sibling === layer { return }
        var index = siblingIndex + 1
        if let own = sublayerList.firstIndex(where: { $0 === layer }), own < index { index -= 1 }
        insert(layer, at: index)
    }

    func replaceSublayerImpl(_ oldLayer: CALayer, with newLayer: CALayer) {
        guard !isCopy else { return }
        guard let index = sublayerList.firstIndex(where: { $0 === oldLayer }) else {
            StrataDiagnostics.emit(.invalidArgument, "replaceSublayer: the old layer is not a sublayer of this layer; tree unchanged")
            return
        }
        if oldLayer === newLayer { return }
        guard canAdopt(newLayer) else { return }
        oldLayer.removeFromSuperlayer()
        insert(newLayer, at: index)
    }

    func removeFromSuperlayerImpl() {
        guard !isCopy, let parent = parentLayer else { return }
        engine.runEvent(kCAOnOrderOut, on: self)
        parent.sublayerList.removeAll { $0 === self }
        parentLayer = nil
    }

    /// May `child` become a sublayer of this layer? Refuses copies, layers of another
    /// thread's engine and cycles, with a diagnostic.
    func canAdopt(_ child: CALayer) -> Bool {
        guard !child.isCopy else {
            StrataDiagnostics.emit(.invalidArgument, "a presentation copy cannot be added to a tree; tree unchanged")
            return false
        }
        guard child.engine === engine else {
            StrataDiagnostics.emit(.invalidArgument, "layers of different threads' engines cannot share a tree; tree unchanged")
            return false
        }
        var ancestor: CALayer? = self
        while let current = ancestor {
            if current === child {
                StrataDiagnostics.emit(.layerCycle,
                    child === self ? "a layer cannot be its own sublayer; tree unchanged"
                                   : "adding a layer to its own descendant would make a cycle; tree unchanged")
                return false
            }
            ancestor = current.parentLayer
        }
        return true
    }

    /// Inserts (or moves) `child` at `index` (clamped); kCAOnOrderIn runs when it joins this
    /// layer from elsewhere.
    private func insert(_ child: CALayer, at index: Int) {
        let previousParent = child.parentLayer
        engine.topTransaction()
        previousParent?.sublayerList.removeAll { $0 === child }
        sublayerList.insert(child, at: min(index, sublayerList.count))
        child.parentLayer = self
        if previousParent !== self { engine.runEvent(kCAOnOrderIn, on: child) }
    }
}
