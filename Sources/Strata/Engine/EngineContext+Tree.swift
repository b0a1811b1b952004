import Foundation


extension EngineContext {
    /// Refuses (with a diagnostic) a tree change that would create a cycle or cross engines.
    func canAdopt(_ child: CALayer, into parent: CALayer) -> Bool {
        guard isCurrent else { return false }   // another thread: refused (reported by CALayer.context)
        guard child.row >= 0 else {
            StrataDiagnostics.emit(.invalidArgument, "a presentation copy cannot be added to a tree; tree unchanged")
            return false
        }
        guard child.engine === parent.engine else {
            StrataDiagnostics.emit(.invalidArgument, "layers of different threads' engines cannot share a tree; tree unchanged")
            return false
        }
        if layers.isAncestor(child.row, of: parent.row) {
            StrataDiagnostics.emit(.layerCycle,
                child === parent ? "a layer cannot be its own sublayer; tree unchanged"
                                 : "adding a layer to its own descendant would make a cycle; tree unchanged")
            return false
        }
        return true
    }

    /// Inserts (or moves) `child` under `parent` at `index`; kCAOnOrderIn runs when it joins
    /// a tree it was not in.
    func insert(_ child: CALayer, into parent: CALayer, at index: Int) {
        guard isCurrent else { return }   // another thread: refused (reported by CALayer.context)
        let wasParent = layers.parent[Int(child.row)]
        ensureTransaction()
        if wasParent >= 0 {
            layers.unlink(child.row)
        } else {
            _ = Unmanaged.passUnretained(child).retain()
        }
        layers.link(child.row, under: parent.row, at: min(index, Int(layers.childCount[Int(parent.row)])))
        // Only a move under a layer with its own timing needs the subtree's animations moved
        // to layer-time entries (animations already on such entries follow the new parents
        // by themselves); respacing every insert once any layer had timing made a deep
        // chain's build quadratic.
        if layers.timedLayers > 0 && layers.inTimedSubtree(child.row) { respaceSubtree(child.row) }
        if wasParent != parent.row { runEvent(child, KeyInterner.onOrderIn) }
        if recorder != nil { recorder!.inserted(child, into: parent, at: layers.siblingIndex(child.row)) }
    }

    func detachFromParent(_ child: CALayer) {
        guard isCurrent else { return }   // another thread: refused (reported by CALayer.context)
        guard layers.parent[Int(child.row)] >= 0 else { return }
        if recorder != nil { recorder!.removed(child) }
        layers.unlink(child.row)
        Unmanaged.passUnretained(child).release()
    }
}
