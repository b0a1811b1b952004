import Foundation

/// Key-value coding on String keys: built-in properties, key paths into them, custom keys.
/// The public methods in CALayer.swift call these.
extension CALayer {
    func readValue(forKeyPath keyPath: String) -> Any? {
        switch keyPath {
        case "name": return name
        case "sublayers": return sublayers
        case "superlayer": return superlayer
        default: break
        }
        guard let target = KeyPaths.resolve(keyPath, isShape: self is CAShapeLayer) else {
            if KeyPaths.isCustomKey(keyPath) { return customModel(keyPath) }
            if case let .customField(key, field)? = KeyPaths.customField(keyPath, value: customModel),
               let whole = customModel(key), let (_, kind, width) = CustomValueType.of(whole),
               let components = Boxing.components(whole, kind: kind, width: width) {
                return field.part(of: components).withUnsafeBufferPointer { buffer -> Any? in field.box(buffer.baseAddress!) }
            }
            StrataDiagnostics.emit(.unknownKeyPath, "value(forKeyPath: \"\(keyPath)\"): no such key path on \(type(of: self))")
            return nil
        }
        switch target {
        case .components(let spec, let offset, let width):
            return Boxing.box(Array(components(spec.name)[offset..<(offset + width)]), kind: target.kind)
        case .timing(let spec):
            switch spec.name {
            case "beginTime": return beginTime
            case "duration": return duration
            case "speed": return speed
            case "timeOffset": return timeOffset
            case "repeatCount": return repeatCount
            case "repeatDuration": return repeatDuration
            case "autoreverses": return autoreverses
            default: return fillMode
            }
        case .transformField(let spec, let field):
            return field.boxed(in: transform3D(spec.name))
        case .object(let spec):
            return objectValues[spec.name]
        case .frame:
            return frame
        case .custom(let key):
            return customModel(key)
        case .customField:
            return nil
        }
    }

    func writeValue(_ value: Any?, forKeyPath keyPath: String) {
        if setTreeKeyValue(value, forKeyPath: keyPath) { return }
        guard let target = KeyPaths.resolve(keyPath, isShape: self is CAShapeLayer) else {
            if KeyPaths.isCustomKey(keyPath) {
                guard toolboxAccepts(keyPath, value) else { return refuseType(keyPath, value) }
                engine.setCustom(of: self, keyPath, value)
                return
            }
            if case let .customField(key, field)? = KeyPaths.customField(keyPath, value: customModel) {
                return writeCustomField(key, field, value, keyPath)
            }
            StrataDiagnostics.emit(.unknownKeyPath,
                "setValue(_:forKeyPath: \"\(keyPath)\"): no such key path on \(type(of: self)); nothing changed")
            return
        }
        switch target {
        case .components(let spec, let offset, let width):
            guard let new = Boxing.components(value, kind: target.kind, width: width) else {
                return refuseType(keyPath, value)
            }
            var full = components(spec.name)
            full.replaceSubrange(offset..<(offset + width), with: new)
            engine.setComponents(of: self, spec.name, full)
        case .timing(let spec):
            if spec.name == "fillMode" {
                guard let mode = value as? CAMediaTimingFillMode else { return refuseType(keyPath, value) }
                fillMode = mode
                return
            }
            guard let v = value.flatMap(Boxing.number) else { return refuseType(keyPath, value) }
            switch spec.name {
            case "beginTime": beginTime = v
            case "duration": duration = v
            case "speed": setSpeed(v)
            case "timeOffset": timeOffset = v
            case "repeatCount": setRepeatCount(v)
            case "repeatDuration": repeatDuration = v
            default: autoreverses = v != 0
            }
        case .transformField(let spec, let field):
            guard let v = Boxing.components(value, kind: target.kind, width: field.width) else { return refuseType(keyPath, value) }
            guard v.allSatisfy(\.isFinite) else {
                StrataDiagnostics.emit(.nonFiniteValue, "\(keyPath) = \(v) must be finite; unchanged")
                return
            }
            setTransform3D(spec.name, field.setting(v[0], v.count > 1 ? v[1] : 0, in: transform3D(spec.name)))
        case .object(let spec):
            guard KeyPaths.objectFits(spec.name, value) else { return refuseType(keyPath, value) }
            engine.setObject(of: self, spec.name, value)
        case .frame:
            guard let f = value as? CGRect else { return refuseType(keyPath, value) }
            frame = f
        case .custom(let key):
            engine.setCustom(of: self, key, value)
        case .customField:
            break
        }
    }

    /// `setValue(_:forKeyPath: "startPoint.x")`: the custom key's value with the field
    /// replaced, set as the key's, boxed as the value the key held.
    func writeCustomField(_ key: String, _ field: ValueField, _ value: Any?, _ keyPath: String) {
        guard let whole = customModel(key), let (type, kind, width) = CustomValueType.of(whole),
              let components = Boxing.components(whole, kind: kind, width: width) else { return refuseType(keyPath, value) }
        let fieldKind: ValueKind = field.width == 1 ? .cgFloat : field.isSize ? .size : .point
        guard let v = Boxing.components(value, kind: fieldKind, width: field.width) else { return refuseType(keyPath, value) }
        guard v.allSatisfy(\.isFinite) else {
            StrataDiagnostics.emit(.nonFiniteValue, "\(keyPath) = \(v) must be finite; unchanged")
            return
        }
        engine.setCustom(of: self, key, type.box(field.writing(v, additive: false, into: components)))
    }
}
