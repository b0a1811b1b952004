import Foundation

extension CALayer {
    /// `sublayers`' getter: the children in order, nil when there are none.
    func sublayerList() -> [CALayer]? {
        guard row >= 0 else { return nil }
        let s = context.layers
        var c = s.firstChild[Int(row)]
        guard c >= 0 else { return nil }
        var out: [CALayer] = []
        out.reserveCapacity(Int(s.childCount[Int(row)]))
        while c >= 0 {
            if let h = s.handle[Int(c)] { out.append(h.takeUnretainedValue()) }
            c = s.nextSibling[Int(c)]
        }
        return out
    }

    /// `sublayers`' setter: the old children not in the new list leave, the new ones are adopted in order.
    func replaceSublayers(_ newValue: [CALayer]?) {
        guard row >= 0 else { return }
        let new = newValue ?? []
        for l in new where !canAdopt(l) { return }
        for l in sublayers ?? [] where !new.contains(where: { $0 === l }) { l.removeFromSuperlayer() }
        for (i, l) in new.enumerated() { adopt(l, at: i) }
        runEvent(.sublayers, in: context)
    }

    /// `insertSublayer(_:below:)`.
    func insert(_ layer: CALayer, below sibling: CALayer?) {
        guard row >= 0, canAdopt(layer) else { return }
        guard let sibling, sibling.superlayer === self else { adopt(layer, at: 0); return }
        if sibling === layer { return }
        let sameParent = layer.superlayer === self
        var i = context.layers.siblingIndex(sibling.row)
        if sameParent && context.layers.siblingIndex(layer.row) < i { i -= 1 }
        adopt(layer, at: i)
    }

    /// `insertSublayer(_:above:)`.
    func insert(_ layer: CALayer, above sibling: CALayer?) {
        guard row >= 0, canAdopt(layer) else { return }
        guard let sibling, sibling.superlayer === self else { adopt(layer, at: Int.max); return }
        if sibling === layer { return }
        let sameParent = layer.superlayer === self
        var i = context.layers.siblingIndex(sibling.row) + 1
        if sameParent && context.layers.siblingIndex(layer.row) < i { i -= 1 }
        adopt(layer, at: i)
    }

    /// `replaceSublayer(_:with:)`.
    func replace(_ oldLayer: CALayer, by newLayer: CALayer) {
        guard row >= 0 else { return }
        guard oldLayer.superlayer === self else {
            StrataDiagnostics.emit(.invalidArgument, "replaceSublayer: the old layer is not a sublayer of this layer; tree unchanged")
            return
        }
        if oldLayer === newLayer { return }
        guard canAdopt(newLayer) else { return }
        let i = context.layers.siblingIndex(oldLayer.row)
        oldLayer.removeFromSuperlayer()
        adopt(newLayer, at: i)
    }
}

extension CALayer {
    /// Refuses (with a diagnostic) a tree change that would make a cycle or cross engines.
    func canAdopt(_ child: CALayer) -> Bool {
        guard let engine = mutableEngine else { return false }   // another thread: refused, reported
        guard child.row >= 0 else {
            StrataDiagnostics.emit(.invalidArgument, "a presentation copy cannot be added to a tree; tree unchanged")
            return false
        }
        guard child.engine === engine else {
            StrataDiagnostics.emit(.invalidArgument, "layers of different threads' engines cannot share a tree; tree unchanged")
            return false
        }
        if engine.layers.isAncestor(child.row, of: row) {
            StrataDiagnostics.emit(.layerCycle,
                child === self ? "a layer cannot be its own sublayer; tree unchanged"
                               : "adding a layer to its own descendant would make a cycle; tree unchanged")
            return false
        }
        return true
    }

    /// Inserts (or moves) `child` under this layer at `index`: the tree holds the child (a
    /// sublayer is retained by its superlayer); kCAOnOrderIn runs when it joins a tree it was
    /// not in.
    func adopt(_ child: CALayer, at index: Int) {
        guard let engine = mutableEngine else { return }   // another thread: refused, reported
        let layers = engine.layers
        let wasParent = layers.parent[Int(child.row)]
        engine.ensureTransaction()
        if wasParent >= 0 {
            layers.unlink(child.row)
        } else {
            _ = Unmanaged.passUnretained(child).retain()
        }
        layers.link(child.row, under: row, at: min(index, Int(layers.childCount[Int(row)])))
        // A move into another time space moves the subtree's animations to entries in it; a
        // link within one time space (every link while no layer is timed) looks at one row.
        engine.timeSpaceMayHaveChanged(child.row)
        if wasParent != row { child.runEvent(KeyInterner.onOrderIn, in: engine) }
        if engine.recorder != nil { engine.recorder!.inserted(child, into: self, at: layers.siblingIndex(child.row)) }
    }

    /// Takes this layer out of its superlayer, which lets go of it.
    func leaveSuperlayer() {
        guard let engine = mutableEngine else { return }   // another thread: refused, reported
        guard engine.layers.parent[Int(row)] >= 0 else { return }
        if engine.recorder != nil { engine.recorder!.removed(self) }
        engine.layers.unlink(row)
        engine.timeSpaceMayHaveChanged(row)
        Unmanaged.passUnretained(self).release()
    }
}
