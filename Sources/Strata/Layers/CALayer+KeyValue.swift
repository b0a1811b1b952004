import Foundation

extension CALayer {
    func refuseType(_ keyPath: String, _ value: Any?) {
        StrataDiagnostics.emit(.wrongValueType,
            "setValue: a \(value.map { "\(type(of: $0))" } ?? "nil") does not fit \"\(keyPath)\" on \(type(of: self)); nothing changed")
    }

}


extension EngineContext {
    /// A custom key: stored on the layer; the lookup chain runs (no built-in action).
    func setCustom(_ layer: CALayer, _ key: PropertyID, _ value: Any?) {
        guard isCurrent else { return }   // another thread: refused (reported by CALayer.context)
        guard layer.row >= 0 else {
            StrataDiagnostics.emit(.invalidArgument, "setValue on a presentation copy; copies are read-only")
            return
        }
        if let v = value, let d = LaneValue.scalar(v), !d.isFinite {
            StrataDiagnostics.emit(.nonFiniteValue, "\(KeyInterner.name(key)) = \(d) must be finite; unchanged")
            return
        }
        ensureTransaction()
        let name = KeyInterner.name(key)
        var outcome = ActionOutcome.none
        if !transactions[transactions.count - 1].disableActions { outcome = lookupAction(layer, key) }
        let shown = layer.currentCustom(key.raw)
        layer.customValues[key.raw] = value
        dirtyObjects.append((layer.row, key.raw))
        if case .action(let a) = outcome {
            // The action's animation starts from the value shown before the change.
            let outer = customInFlight
            customInFlight = (layer.row, key.raw, shown)
            a.run(forKey: name, object: layer, arguments: nil)
            customInFlight = outer
        }
        if recorder != nil {
            recorder!.setCustom(layer, name, value, outcome: outcome, disabled: transactions[transactions.count - 1].disableActions)
        }
    }
}

/// Derived transform fields (`transform.rotation.z`, `transform.scale` ...), read by
/// decomposing the matrix and written by recomposing scale, rotation and translation.
enum TransformFields {
    static func get(_ f: TransformField, _ t: CATransform3D) -> Double {
        let sx = (t.m11 * t.m11 + t.m12 * t.m12 + t.m13 * t.m13).squareRoot()
        let sy = (t.m21 * t.m21 + t.m22 * t.m22 + t.m23 * t.m23).squareRoot()
        let sz = (t.m31 * t.m31 + t.m32 * t.m32 + t.m33 * t.m33).squareRoot()
        switch f {
        case .rotationZ, .rotation: return Double(atan2(t.m12, t.m11))
        case .rotationX: return Double(atan2(t.m23, t.m33))
        case .rotationY: return Double(atan2(-t.m13, (t.m23 * t.m23 + t.m33 * t.m33).squareRoot()))
        case .scaleX: return Double(sx)
        case .scaleY: return Double(sy)
        case .scaleZ: return Double(sz)
        case .scale: return Double((sx + sy + sz) / 3)
        case .translationX: return Double(t.m41)
        case .translationY: return Double(t.m42)
        case .translationZ: return Double(t.m43)
        }
    }

    static func set(_ f: TransformField, _ v: Double, _ t: CATransform3D) -> CATransform3D {
        var sx = get(.scaleX, t), sy = get(.scaleY, t), sz = get(.scaleZ, t)
        var rx = get(.rotationX, t), ry = get(.rotationY, t), rz = get(.rotationZ, t)
        var tx = Double(t.m41), ty = Double(t.m42), tz = Double(t.m43)
        switch f {
        case .rotationZ, .rotation: rz = v
        case .rotationX: rx = v
        case .rotationY: ry = v
        case .scaleX: sx = v
        case .scaleY: sy = v
        case .scaleZ: sz = v
        case .scale: sx = v; sy = v; sz = v
        case .translationX: tx = v
        case .translationY: ty = v
        case .translationZ: tz = v
        }
        var m = CATransform3DMakeScale(CGFloat(sx), CGFloat(sy), CGFloat(sz))
        if rx != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(rx), 1, 0, 0)) }
        if ry != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(ry), 0, 1, 0)) }
        if rz != 0 { m = CATransform3DConcat(m, CATransform3DMakeRotation(CGFloat(rz), 0, 0, 1)) }
        m.m41 = CGFloat(tx); m.m42 = CGFloat(ty); m.m43 = CGFloat(tz)
        return m
    }

    /// Does `v` have the type object property p holds?
    static func objectFits(_ p: PropertyID, _ v: Any?) -> Bool {
        guard let v else { return true }
        switch p {
        case .mask: return v is CALayer
        case .shadowPath, .path: return v is CGPath
        case .filters, .backgroundFilters: return v is [Any]
        default: return true
        }
    }
}
