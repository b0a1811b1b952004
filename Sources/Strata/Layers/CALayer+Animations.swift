import Foundation

extension CALayer {
    /// `animationKeys()`: the keys along the layer's animation list (add order).
    func runningAnimationKeys() -> [String]? {
        guard row >= 0 else { return nil }
        var keys: [String] = []
        var id = context.animations.firstOfLayer[Int(row)]
        while id >= 0 {
            let r = context.animations.records[Int(id)]
            if r.key >= 0 { keys.append(KeyInterner.name(PropertyID(r.key))) }
            id = r.nextInLayer
        }
        return keys.isEmpty ? nil : keys
    }
}
