import Foundation

// Drawing hooks as Core Animation calls them (shared by both engines): `setNeedsDisplay()`
// marks a layer; the outermost commit displays every marked layer (`display()`: the
// delegate's `display(_:)`, else a recording `CGContext` handed to `draw(in:)`, which asks
// the delegate's `draw(_:in:)`, kept as the layer's `contents`); a change of a key for which
// the class's `needsDisplay(forKey:)` is true marks the layer (`bounds` too with
// `needsDisplayOnBoundsChange`); while such a key is animated, every frame displays the
// layer's presentation copy (its `draw(in:)` sees the animated values).

/// One engine's display work: the layers marked, and the layers animating keys their class
/// displays for. Flags let commits and frames of engines without such layers skip it all.
final class DisplayQueue {
    @exclusivity(unchecked) private(set) var marked: [CALayer] = []
    @exclusivity(unchecked) private var markedIDs: Set<ObjectIdentifier> = []
    @exclusivity(unchecked) private var animating: [ObjectIdentifier: (layer: Weak, keys: Set<String>)] = [:]
    /// Some layer of a class of its own exists: changes are checked against
    /// `needsDisplay(forKey:)` at commit.
    @exclusivity(unchecked) var watchesKeys = false
    /// Some layer has `needsDisplayOnBoundsChange` set.
    @exclusivity(unchecked) var watchesBounds = false

    final class Weak { weak var layer: CALayer?; init(_ l: CALayer) { layer = l } }

    /// The drawings presentation copies made at the last frame, by model layer.
    @exclusivity(unchecked) var drawings: [ObjectIdentifier: CGContext] = [:]

    var hasMarked: Bool { !marked.isEmpty }
    var hasAnimating: Bool { !animating.isEmpty }

    func mark(_ layer: CALayer) {
        guard markedIDs.insert(ObjectIdentifier(layer)).inserted else { return }
        marked.append(layer)
    }

    func isMarked(_ layer: CALayer) -> Bool { markedIDs.contains(ObjectIdentifier(layer)) }

    func unmark(_ layer: CALayer) {
        guard markedIDs.remove(ObjectIdentifier(layer)) != nil else { return }
        marked.removeAll { $0 === layer }
    }

    /// Displays every marked layer (each once; layers marked while displaying wait for the
    /// next commit), with actions disabled (a layer's own drawing never animates).
    func displayMarked() {
        let layers = marked
        marked = []
        markedIDs = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for l in layers { l.display() }
        CATransaction.commit()
    }

    /// `key` of `layer` is animated and its class displays for it.
    func noteAnimated(_ layer: CALayer, _ key: String) {
        let id = ObjectIdentifier(layer)
        if animating[id] == nil { animating[id] = (Weak(layer), []) }
        animating[id]!.keys.insert(key)
    }

    /// Each frame: the presentation of every layer still animating a displayed key draws.
    func displayAnimated() {
        for (id, entry) in animating {
            guard let layer = entry.layer.layer else { animating[id] = nil; drawings[id] = nil; continue }
            let running = Set(layer.animationKeys() ?? []).contains { k in
                guard let a = layer.animation(forKey: k) as? CAPropertyAnimation, let path = a.keyPath else { return false }
                return entry.keys.contains(path)
            }
            guard running else { animating[id] = nil; drawings[id] = nil; continue }
            layer.presentation()?.display()
        }
    }
}

extension CALayer {
    /// What `display()` does unless overridden: the delegate's `display(_:)` when there is a
    /// delegate (its default draws, as below), else `drawContents()`.
    func defaultDisplay() {
        if let d = delegate { d.display(self) } else { drawContents() }
    }

    /// Draws into a new recording context the size of the bounds (`draw(in:)`, after the
    /// delegate's `layerWillDraw(_:)`) and makes it the contents; a presentation copy draws
    /// and keeps its drawing as `presentationDrawing` (copies are read-only).
    public func drawContents() {
        delegate?.layerWillDraw(self)
        let ctx = CGContext(size: bounds.size, scale: contentsScale)
        draw(in: ctx)
        if model() === self {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            contents = ctx
            CATransaction.commit()
        } else {
            displayQueue.drawings[ObjectIdentifier(model())] = ctx
        }
    }

    /// The drawing a presentation copy of this layer made at the last frame (its
    /// `draw(in:)` with the animated values), for layers whose class displays for an
    /// animated key.
    public var presentationDrawing: CGContext? { displayQueue.drawings[ObjectIdentifier(model())] }

    /// A change of `key` marks the layer when its class asks (`needsDisplay(forKey:)`, or
    /// `bounds` with `needsDisplayOnBoundsChange`).
    func noteDisplayChange(_ key: String) {
        let asks = type(of: self).needsDisplay(forKey: key)
        if asks || (key == "bounds" && needsDisplayOnBoundsChange) {
            displayQueue.mark(self)
        }
        // The change's implicit animation (under the key's name) redraws the presentation
        // each frame while it runs, as an explicit one does.
        if asks, let a = animation(forKey: key) as? CAPropertyAnimation, a.keyPath == key {
            displayQueue.noteAnimated(self, key)
        }
    }
}
