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
        for l in new where !context.canAdopt(l, into: self) { return }
        for l in sublayers ?? [] where !new.contains(where: { $0 === l }) { l.removeFromSuperlayer() }
        for (i, l) in new.enumerated() { context.insert(l, into: self, at: i) }
        context.runEvent(self, .sublayers)
    }

    /// `insertSublayer(_:below:)`.
    func insert(_ layer: CALayer, below sibling: CALayer?) {
        guard row >= 0, context.canAdopt(layer, into: self) else { return }
        guard let sibling, sibling.superlayer === self else { context.insert(layer, into: self, at: 0); return }
        if sibling === layer { return }
        let sameParent = layer.superlayer === self
        var i = context.layers.siblingIndex(sibling.row)
        if sameParent && context.layers.siblingIndex(layer.row) < i { i -= 1 }
        context.insert(layer, into: self, at: i)
    }

    /// `insertSublayer(_:above:)`.
    func insert(_ layer: CALayer, above sibling: CALayer?) {
        guard row >= 0, context.canAdopt(layer, into: self) else { return }
        guard let sibling, sibling.superlayer === self else { context.insert(layer, into: self, at: Int.max); return }
        if sibling === layer { return }
        let sameParent = layer.superlayer === self
        var i = context.layers.siblingIndex(sibling.row) + 1
        if sameParent && context.layers.siblingIndex(layer.row) < i { i -= 1 }
        context.insert(layer, into: self, at: i)
    }

    /// `replaceSublayer(_:with:)`.
    func replace(_ oldLayer: CALayer, by newLayer: CALayer) {
        guard row >= 0 else { return }
        guard oldLayer.superlayer === self else {
            StrataDiagnostics.emit(.invalidArgument, "replaceSublayer: the old layer is not a sublayer of this layer; tree unchanged")
            return
        }
        if oldLayer === newLayer { return }
        guard context.canAdopt(newLayer, into: self) else { return }
        let i = context.layers.siblingIndex(oldLayer.row)
        oldLayer.removeFromSuperlayer()
        context.insert(newLayer, into: self, at: i)
    }
}
