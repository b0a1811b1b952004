import Foundation

extension EngineContext {
    /// `CAAnimation.run(forKey:object:arguments:)`: adds a copy under the event's key; a
    /// property animation without a key path animates the event's key.
    func runAnimationAction(_ anim: CAAnimation, event: String, layer: CALayer) {
        let copy = anim.copy() as! CAAnimation
        if let p = copy as? CAPropertyAnimation, p.keyPath == nil { p.keyPath = event }
        addAnimation(copy, forKey: event, to: layer, fromAction: true, copied: true)
    }

    /// The "current value" an animation starts from: the value before the change in flight,
    /// else the presentation value of a committed layer, else the model value.
    func currentLanes(row: Int32, _ p: PropertyID, offset: Int, width: Int) -> [Double] {
        let pw = PropertyTable[p].width
        if let c = changeInFlight, c.row == row, c.property == p, c.old.count == pw {
            return Array(c.old[offset..<(offset + width)])
        }
        let committed = layers.flags[Int(row)] & LayerFlags.committed != 0
        let col = committed ? layers.presentationColumn(p) : layers.modelColumn(p)
        return (0..<width).map { col[Int(row) * pw + offset + $0] }
    }

    func modelLanes(row: Int32, _ p: PropertyID, offset: Int, width: Int) -> [Double] {
        let pw = PropertyTable[p].width
        let col = layers.modelColumn(p)
        return (0..<width).map { col[Int(row) * pw + offset + $0] }
    }

    /// `add(_:forKey:)`: validates at the boundary (key path, value types, finite values,
    /// timing), converts boxed values to lanes once, then stores the animation. On bad input:
    /// a diagnostic, and nothing changes (not even the animation under the same key).
    func addAnimation(_ anim: CAAnimation, forKey key: String?, to layer: CALayer,
                      fromAction: Bool, copied: Bool = false) {
        guard layer.row >= 0 else {
            StrataDiagnostics.emit(.invalidArgument, "add(_:forKey:) on a presentation copy; ignored")
            return
        }
        guard anim.validateTiming() else { return }
        let row = layer.row
        ensureTransaction()
        let stored = copied ? anim : (anim.copy() as! CAAnimation)

        if stored is CATransition {
            let e = entry(for: timingParameters(stored, fromAction: fromAction))
            removeAnimation(row: row, key: KeyInterner.transition.raw, finished: false)
            var r = AnimationRecord()
            r.layer = row; r.key = KeyInterner.transition.raw; r.property = -1; r.kind = .timingOnly; r.timing = e
            r.flags = RecordFlags.alive | (stored.delegate != nil ? RecordFlags.hasDelegate : 0)
            let id = animations.newRecord(r, object: stored)
            link(id)
            return
        }
        guard let basic = stored as? CABasicAnimation else {
            StrataDiagnostics.emit(.invalidArgument,
                "\(type(of: stored)) is not evaluated yet (keyframe, path and group animations arrive with the explicit-animation work); animation not added")
            return
        }
        guard let path = basic.keyPath else {
            StrataDiagnostics.emit(.unknownKeyPath, "CABasicAnimation has no keyPath; animation not added")
            return
        }
        guard let resolved = KeyPathResolver.resolve(path, isShape: layer is CAShapeLayer) else {
            StrataDiagnostics.emit(.unknownKeyPath,
                "CABasicAnimation keyPath \"\(path)\" names no animatable property of \(type(of: layer)); animation not added")
            return
        }
        let keyID = key.map { KeyInterner.id($0).raw } ?? animations.nextAnonymousKey()
        switch resolved.target {
        case .lanes(let p, let offset, let width):
            let kind = resolved.kind
            guard let (from, to) = basicEndpoints(basic, row: row, p, offset: offset, width: width, kind: kind) else { return }
            let e = entry(for: timingParameters(stored, fromAction: fromAction))
            removeAnimation(row: row, key: keyID, finished: false)
            var f = from, t = to
            if kind == .color {
                if f[0].isNaN { f = [0, 0, 0, 0] }
                if t[0].isNaN { t = [0, 0, 0, 0] }
            }
            _ = addLaneRecord(row: row, p, offset: offset, width: width, from: f, to: t, timing: e,
                              key: keyID, additive: basic.isAdditive, object: stored)
        case .object(let p):
            let current: Any? = objectInFlight.map { $0.from } ?? layer.readObject(p)
            let from = basic.fromValue ?? current
            let to = basic.toValue ?? (objectInFlight.map { $0.to } ?? layer.readObject(p))
            let e = entry(for: timingParameters(stored, fromAction: fromAction))
            addObjectAnimation(layer, p, from: from, to: to, timing: e, key: keyID, object: stored)
        case .transformField, .frame, .custom:
            StrataDiagnostics.emit(.unknownKeyPath,
                "keyPath \"\(path)\" is not animatable by this engine yet (derived transform fields and custom keys arrive with the explicit-animation work); animation not added")
        }
    }

    /// SEMANTICS.md's from/to/by table, in lanes. nil (after a diagnostic) on bad values.
    func basicEndpoints(_ a: CABasicAnimation, row: Int32, _ p: PropertyID, offset: Int, width: Int,
                        kind: ValueKind) -> ([Double], [Double])? {
        func convert(_ v: Any?, _ name: String) -> [Double]?? {
            guard let v else { return .some(nil) }
            guard let l = LaneValue.lanes(v, kind: kind, width: width) else {
                StrataDiagnostics.emit(.wrongValueType,
                    "\(name) of type \(type(of: v)) does not fit \"\(a.keyPath ?? "")\" (\(kind)); animation not added")
                return nil
            }
            guard LaneValue.finite(l, kind: kind) else {
                StrataDiagnostics.emit(.nonFiniteValue, "\(name) \(l) is not finite; animation not added")
                return nil
            }
            return .some(l)
        }
        guard let from = convert(a.fromValue, "fromValue"), let to = convert(a.toValue, "toValue"),
              let by = convert(a.byValue, "byValue") else { return nil }
        let add = { (x: [Double], y: [Double]) in zip(x, y).map { $0 + $1 } }
        let sub = { (x: [Double], y: [Double]) in zip(x, y).map { $0 - $1 } }
        let current = { self.currentLanes(row: row, p, offset: offset, width: width) }
        switch (from, to, by) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, add(f, b))
        case let (nil, t?, b?): return (sub(t, b), t)
        case let (f?, nil, nil): return (f, current())
        case let (nil, t?, nil): return (current(), t)
        case let (nil, nil, b?): let c = current(); return (c, add(c, b))
        case (nil, nil, nil):
            return (current(), modelLanes(row: row, p, offset: offset, width: width))
        }
    }

    /// Timing parameters of an animation: duration 0 takes the transaction's; a run action
    /// with no timing function takes the transaction's; otherwise nil is linear.
    func timingParameters(_ a: CAAnimation, fromAction: Bool) -> TimingParameters {
        let top = transactions[transactions.count - 1]
        var p = TimingParameters()
        p.beginTime = a.beginTime
        p.duration = a.duration > 0 ? a.duration : top.duration
        p.speed = Double(a.speed)
        p.timeOffset = a.timeOffset
        p.repeatCount = Double(a.repeatCount)
        p.repeatDuration = a.repeatDuration
        p.autoreverses = a.autoreverses
        p.fill = a.fillMode.code
        p.removedOnCompletion = a.isRemovedOnCompletion
        p.curve = timings.curveID(a.timingFunction ?? (fromAction ? top.timingFunction : nil))
        return p
    }

    func addLaneRecord(row: Int32, _ p: PropertyID, offset: Int, width: Int, from: [Double], to: [Double],
                       timing e: Int32, key: Int32, additive: Bool, object: CAAnimation?) -> Int32 {
        from.withUnsafeBufferPointer { f in
            to.withUnsafeBufferPointer { t in
                addLaneRecord(row: row, p, offset: offset, width: width, from: f.baseAddress!, to: t.baseAddress!,
                              timing: e, key: key, additive: additive, object: object)
            }
        }
    }

    /// The animation object under a record, made on demand for built-in implicit animations.
    func animationObject(_ id: Int32) -> CAAnimation {
        if let o = animations.objects[Int(id)] { return o }
        let r = animations.records[Int(id)]
        let p = PropertyID(r.property)
        let info = PropertyTable[p]
        let a = CABasicAnimation(keyPath: info.name)
        let params = timings.params[Int(r.timing)]
        a.duration = params.duration
        a.timingFunction = timings.curveFunctions[Int(params.curve)]
        a.beginTime = timings.committed[Int(r.timing)] ? timings.begin[Int(r.timing)] : 0
        if r.kind == .lanes {
            let (f, t) = animations.tracks[Int(r.track)].endpoints(r.slot)
            f.withUnsafeBufferPointer { a.fromValue = LaneValue.box($0.baseAddress!, kind: info.kind) }
            t.withUnsafeBufferPointer { a.toValue = LaneValue.box($0.baseAddress!, kind: info.kind) }
        } else if r.kind == .object {
            a.fromValue = animations.objectValues[id]?.from ?? nil
            a.toValue = animations.objectValues[id]?.to ?? nil
        }
        animations.objects[Int(id)] = a
        return a
    }
}
