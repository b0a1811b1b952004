import Foundation

extension PropertyID {
    /// Does `v` have the type object property p holds?
    func fitsObject(_ v: Any?) -> Bool {
        let p = self
        guard let v else { return true }
        switch p {
        case .mask: return v is CALayer
        case .shadowPath, .path: return v is CGPath
        case .filters, .backgroundFilters: return v is [Any]
        default: return true
        }
    }
}

extension CALayer {
    /// `value(forKeyPath:)`: a built-in property, a key path into one, or a custom key.
    func keyValue(forKeyPath keyPath: String) -> Any? {
        switch keyPath {
        case "name": return name
        case "sublayers": return sublayers
        case "superlayer": return superlayer
        default: break
        }
        guard let r = KeyPathResolver.resolve(keyPath, isShape: self is CAShapeLayer) else {
            if !keyPath.utf8.contains(UInt8(ascii: ".")), PropertyTable.idsByName[keyPath] == nil {
                return ownCustom(KeyInterner.id(keyPath))
            }
            if let r = KeyPathResolver.customField(keyPath, value: ownCustom), case let .customField(key, f) = r.target,
               let whole = ownCustom(key), let (_, kind, width) = CustomValueType.of(whole),
               let lanes = LaneValue.lanes(whole, kind: kind, width: width) {
                return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2) { out in
                    lanes.withUnsafeBufferPointer { f.read($0.baseAddress!, into: out.baseAddress!) }
                    return f.box(out.baseAddress!)
                }
            }
            StrataDiagnostics.emit(.unknownKeyPath, "value(forKeyPath: \"\(keyPath)\"): no such key path on \(type(of: self))")
            return nil
        }
        switch r.target {
        case .lanes(let p, let offset, _):
            var l = readLanes(p)
            if PropertyTable[p].kind == .timing {
                if p == .fillMode { return CAMediaTimingFillMode(code: UInt8(l[0])) }
                if p == .autoreverses { return l[0] != 0 }
                if p == .speed || p == .repeatCount { return Float(l[0]) }
                return l[0]
            }
            return withUnsafePointer(to: &l) {
                $0.withMemoryRebound(to: Double.self, capacity: 16) { LaneValue.box($0 + offset, kind: r.kind) }
            }
        case .transformField(let p, let f):
            return f.boxed(in: transform3D(p))
        case .object(let p): return readObject(p)
        case .frame: return frame
        case .custom(let k): return customModel(k.raw)
        case .customField: return nil
        }
    }

    /// This layer's own value of custom key `key`: the model's, or a copy's (the class's
    /// default when it holds none).
    private func ownCustom(_ key: PropertyID) -> Any? {
        row >= 0 ? customModel(key.raw) : copiedObject(key.raw) ?? type(of: self).defaultValue(forKey: KeyInterner.name(key))
    }

    /// `setValue(_:forKeyPath:)`: refuses what does not fit, then writes and runs the action.
    func setKeyValue(_ value: Any?, forKeyPath keyPath: String) {
        if setTreeKeyValue(value, forKeyPath: keyPath) { return }
        guard let r = KeyPathResolver.resolve(keyPath, isShape: self is CAShapeLayer) else {
            if !keyPath.utf8.contains(UInt8(ascii: ".")), PropertyTable.idsByName[keyPath] == nil {
                guard toolboxAccepts(keyPath, value) else { return refuseType(keyPath, value) }
                setCustom(KeyInterner.id(keyPath), value, in: context)
                return
            }
            if let r = KeyPathResolver.customField(keyPath, value: { self.customModel($0.raw) }), case let .customField(key, f) = r.target {
                return setCustomField(key, f, value, keyPath)
            }
            StrataDiagnostics.emit(.unknownKeyPath, "setValue(_:forKeyPath: \"\(keyPath)\"): no such key path on \(type(of: self)); nothing changed")
            return
        }
        switch r.target {
        case .lanes(let p, let offset, let width):
            if p == .fillMode, let m = value as? CAMediaTimingFillMode { fillMode = m; return }
            guard let l = LaneValue.lanes(value, kind: r.kind, width: width) else { return refuseType(keyPath, value) }
            if PropertyTable[p].kind == .timing {
                setTiming(p, l[0], in: context)
                return
            }
            var full = readLanes(p)
            for c in 0..<width { full[offset + c] = l[c] }
            writeLanes(p, full)
        case .transformField(let p, let f):
            guard let v = LaneValue.lanes(value, kind: r.kind, width: f.width) else { return refuseType(keyPath, value) }
            guard v.allSatisfy(\.isFinite) else {
                StrataDiagnostics.emit(.nonFiniteValue, "\(keyPath) = \(v) must be finite; unchanged")
                return
            }
            setTransform3D(p, f.setting(v[0], f.width == 2 ? v[1] : 0, in: transform3D(p)))
        case .object(let p):
            guard p.fitsObject(value) else { return refuseType(keyPath, value) }
            setObject(p, value, in: context)
        case .frame:
            guard let f = value as? CGRect else { return refuseType(keyPath, value) }
            frame = f
        case .custom(let k):
            setCustom(k, value, in: context)
        case .customField:
            break
        }
    }

    /// `setValue(_:forKeyPath: "startPoint.x")`: the custom key's value with the field
    /// replaced, set as the key's (its action runs, as for the whole key), boxed as the value
    /// the key held (a point stays a point, an NSValue an NSValue).
    private func setCustomField(_ key: PropertyID, _ f: ValueField, _ value: Any?, _ keyPath: String) {
        guard let whole = customModel(key.raw), let (type, kind, width) = CustomValueType.of(whole),
              var lanes = LaneValue.lanes(whole, kind: kind, width: width) else { return refuseType(keyPath, value) }
        guard let field = LaneValue.lanes(value, kind: ValueKind.of(f), width: f.width) else { return refuseType(keyPath, value) }
        guard field.allSatisfy(\.isFinite) else {
            StrataDiagnostics.emit(.nonFiniteValue, "\(keyPath) = \(field) must be finite; unchanged")
            return
        }
        lanes.withUnsafeMutableBufferPointer { l in field.withUnsafeBufferPointer { f.write($0.baseAddress!, additive: false, into: l.baseAddress!) } }
        setCustom(key, type.box(lanes), in: context)
    }
}
