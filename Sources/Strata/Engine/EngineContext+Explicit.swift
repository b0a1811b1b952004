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

    /// An animation validated and converted at the boundary, ready to install.
    indirect enum Prepared {
        case lanes(PropertyID, offset: Int, width: Int, from: [Double], to: [Double], additive: Bool, cumulative: Bool)
        case keyframes(PropertyID, offset: Int, width: Int, CompiledKeyframes, additive: Bool, cumulative: Bool, rotate: UInt8)
        case object(PropertyID, ObjectValues)
        case derived(DerivedValue, PropertyID)
        case custom(DerivedValue)
        case transition
        case group([(CAAnimation, Prepared)])

        /// Records it takes (a group one for itself and its children's).
        var records: Int {
            if case let .group(children) = self { return 1 + children.reduce(0) { $0 + $1.1.records } }
            return 1
        }

        /// The property whose lanes it writes (-1: none, e.g. transitions and groups).
        var property: Int32 {
            switch self {
            case let .lanes(p, _, _, _, _, _, _), let .keyframes(p, _, _, _, _, _, _), let .object(p, _): return p.raw
            case let .derived(_, p): return p.raw
            case let .custom(d): return -1000 - d.customKey
            default: return -1
            }
        }
    }

    /// `add(_:forKey:)`: validates at the boundary (key path, value types, finite values,
    /// timing), converts boxed values once, then stores the animation. On bad input: a
    /// diagnostic, and nothing changes (not even the animation under the same key).
    func addAnimation(_ anim: CAAnimation, forKey key: String?, to layer: CALayer,
                      fromAction: Bool, copied: Bool = false) {
        guard isCurrent else { return }   // another thread: refused (reported by CALayer.context)
        guard layer.row >= 0 else {
            StrataDiagnostics.emit(.invalidArgument, "add(_:forKey:) on a presentation copy; ignored")
            return
        }
        ensureTransaction()
        if recorder != nil && !fromAction { recorder!.added(anim, forKey: anim is CATransition ? nil : key, to: layer) }
        let stored = copied ? anim : (anim.copy() as! CAAnimation)
        guard let prepared = prepare(stored, layer: layer) else { return }
        guard hasRoomForAnimations(prepared.records), fitsKeyPools(prepared) else {
            refuseAnimationsAtCapacity("add(_:forKey: \(key ?? "nil"))")
            return
        }
        let keyID: Int32
        if stored is CATransition { keyID = KeyInterner.transition.raw }
        else { keyID = key.map { KeyInterner.id($0).raw } ?? animations.nextAnonymousKey() }
        var params = timingParameters(stored, fromAction: fromAction)
        if layers.inTimedSubtree(layer.row) { params.space = layer.row }
        let e = entry(for: params)
        removeAnimation(row: layer.row, key: keyID, finished: false, replacing: prepared.property)
        let id = install(prepared, object: stored, layer: layer, key: keyID, timing: e)
        if _slowPath(layers.flags[Int(layer.row)] & LayerFlags.customClass != 0) { noteDisplayedAnimation(stored, layer) }
        if fromAction && id >= 0, let c = changeInFlight, c.row == layer.row, animations.records[Int(id)].property == c.property.raw {
            animations.records[Int(id)].flags |= RecordFlags.startsAtChange
        }
        deliverDeferred()
    }

    /// Whether keyframe keys fit their track's pools, which are addressed by Int32 offsets.
    func fitsKeyPools(_ p: Prepared) -> Bool {
        switch p {
        case let .keyframes(prop, offset, width, k, _, _, _):
            let t = animations.keyframeTracks.first { $0.property == prop && $0.offset == offset && $0.width == width }
            let limit = Int(Int32.max)
            return (t?.coefficients.count ?? 0) + k.coefficients.count < limit && (t?.arcs.count ?? 0) + k.arcTables.count < limit
                && (t?.times.count ?? 0) + k.times.count < limit
        case let .group(children): return children.allSatisfy { fitsKeyPools($0.1) }
        default: return true
        }
    }

    /// Validates and converts one animation (recursively for groups); nil after a diagnostic.
    /// (`Prepared.property`: the property it animates, -1 for none.)
    func prepare(_ a: CAAnimation, layer: CALayer) -> Prepared? {
        guard a.validateTiming() else { return nil }
        guard a.validateSpring() else { return nil }
        let row = layer.row
        if a is CATransition { return .transition }
        if let g = a as? CAAnimationGroup {
            // A child that cannot run is dropped, with what refused it reworded; the others
            // run (Core Animation does not refuse the group).
            var children: [(CAAnimation, Prepared)] = []
            for (i, child) in (g.animations ?? []).enumerated() {
                let (p, held) = StrataDiagnostics.withholding { prepare(child, layer: layer) }
                for d in held { StrataDiagnostics.deliver(p == nil ? d.droppedFromGroup(child: i) : d) }
                if let p { children.append((child, p)) }
            }
            return .group(children)
        }
        guard let pa = a as? CAPropertyAnimation else {
            StrataDiagnostics.emit(.invalidArgument, "\(type(of: a)) animates nothing: add a CABasicAnimation, CAKeyframeAnimation, CAAnimationGroup or CATransition")
            return nil
        }
        guard let path = pa.keyPath else {
            StrataDiagnostics.emit(.unknownKeyPath, "\(type(of: a)) has no keyPath; animation not added")
            return nil
        }
        let target: ResolvedKeyPath.Target
        if let r = KeyPathResolver.resolve(path, isShape: layer is CAShapeLayer) {
            target = r.target
        } else if !path.contains("."), PropertyTable.idsByName[path] == nil {
            target = .custom(KeyInterner.id(path))
        } else if let r = KeyPathResolver.customField(path, value: { layer.customModel($0.raw) }) {
            target = r.target
        } else {
            StrataDiagnostics.emit(.unknownKeyPath,
                "\(type(of: a)) keyPath \"\(path)\" names no animatable property of \(type(of: layer)); animation not added")
            return nil
        }
        let kind = ResolvedKeyPath(target: target).kind
        switch (target, a) {
        case (.lanes(let p, let offset, let width), let b as CABasicAnimation):
            guard PropertyTable[p].kind != .timing else { return refuseKeyPath(path) }
            let changing = changeInFlight.map { $0.row == row && $0.property == p } ?? false
            guard let (from, to) = basicEndpoints(b, kind: kind, width: width, changing: changing,
                                                  current: { self.currentLanes(row: row, p, offset: offset, width: width) },
                                                  model: { self.modelLanes(row: row, p, offset: offset, width: width) }) else { return nil }
            var f = from, t = to
            if kind == .color {
                if f[0].isNaN { f = [0, 0, 0, 0] }
                if t[0].isNaN { t = [0, 0, 0, 0] }
            }
            return .lanes(p, offset: offset, width: width, from: f, to: t, additive: b.isAdditive, cumulative: b.isCumulative)
        case (.lanes(let p, let offset, let width), let k as CAKeyframeAnimation):
            guard PropertyTable[p].kind != .timing else { return refuseKeyPath(path) }
            guard let compiled = KeyframeCompiler.compile(k, kind: kind, width: width, timings: timings) else { return nil }
            var rotate: UInt8 = 0
            if k.path != nil, let m = k.rotationMode {
                rotate = SlotFlags.rotate | (m == .rotateAutoReverse ? SlotFlags.rotateReverse : 0)
            }
            return .keyframes(p, offset: offset, width: width, compiled, additive: k.isAdditive, cumulative: k.isCumulative, rotate: rotate)
        case (.object(let p), let b as CABasicAnimation):
            let current: Any? = objectInFlight.map { $0.from } ?? currentObject(layer, p)
            let model: Any? = objectInFlight.map { $0.to } ?? layer.readObject(p)
            guard p.fitsObject(b.fromValue), p.fitsObject(b.toValue) else {
                StrataDiagnostics.emit(.wrongValueType, "values of \"\(path)\" must be of its type; animation not added")
                return nil
            }
            return .object(p, objectValues(p, from: b.fromValue ?? current, to: b.toValue ?? model))
        case (.object(let p), let k as CAKeyframeAnimation):
            guard let v = objectKeyframes(k, p) else { return nil }
            return .object(p, v)
        case (.transformField(let p, let field), let b as CABasicAnimation):
            let currentT = currentTransform(row: row, p), modelT = layer.transform3D(p)
            let changing = changeInFlight.map { $0.row == row && $0.property == p } ?? false
            guard let (from, to) = basicEndpoints(b, kind: kind, width: field.width, changing: changing,
                                                  current: { field.lanes(in: currentT) },
                                                  model: { field.lanes(in: modelT) }) else { return nil }
            return .derived(DerivedValue(field: field, from: from, delta: zip(to, from).map { $0 - $1 },
                                         additive: b.isAdditive, cumulative: b.isCumulative), p)
        case (.custom(let key), let b as CABasicAnimation):
            let model = layer.customModel(key.raw)
            guard let sample = model ?? b.toValue ?? b.fromValue ?? b.byValue,
                  let (type, k, width) = CustomValueType.of(sample) else {
                StrataDiagnostics.emit(.wrongValueType,
                    "custom key \"\(path)\" holds no interpolatable value (numbers, points, sizes, rects, colours, transforms, arrays of numbers or colours); animation not added")
                return nil
            }
            let modelLanes = model.flatMap { LaneValue.lanes($0, kind: k, width: width) } ?? [Double](repeating: 0, count: width)
            let current = currentCustomLanes(layer, key, kind: k, width: width, model: modelLanes)
            guard let (from, to) = basicEndpoints(b, kind: k, width: width, changing: current.changing,
                                                  current: { current.lanes }, model: { modelLanes }) else { return nil }
            let d = DerivedValue(field: nil, from: from, delta: zip(to, from).map { $0 - $1 },
                                 additive: b.isAdditive, cumulative: b.isCumulative)
            d.customKey = key.raw; d.customType = type; d.kind = k
            return .custom(d)
        case (.customField(let key, let field), let b as CABasicAnimation):
            guard let (d, current, model) = customFieldParts(layer, key, field) else { return nil }
            guard let (from, to) = basicEndpoints(b, kind: kind, width: field.width, changing: current.changing,
                                                  current: { current.lanes }, model: { model }) else { return nil }
            d.from = from
            d.delta = zip(to, from).map { $0 - $1 }
            d.additive = b.isAdditive
            d.cumulative = b.isCumulative
            return .custom(d)
        case (.customField(let key, let field), let k as CAKeyframeAnimation):
            guard let (d, _, _) = customFieldParts(layer, key, field),
                  let compiled = KeyframeCompiler.compile(k, kind: kind, width: field.width, timings: timings) else { return nil }
            d.keyframes = compiled
            d.additive = k.isAdditive
            d.cumulative = k.isCumulative
            return .custom(d)
        case (.transformField(let p, let field), let k as CAKeyframeAnimation):
            // Numbers (sizes, for `translation`), one per key time, set into the field frame by frame.
            guard let compiled = KeyframeCompiler.compile(k, kind: kind, width: field.width, timings: timings) else { return nil }
            let d = DerivedValue(field: field, from: [], delta: [], additive: k.isAdditive, cumulative: k.isCumulative)
            d.keyframes = compiled
            return .derived(d, p)
        case (.custom(let key), let k as CAKeyframeAnimation):
            // A path animates a point.
            let pathSample: Any? = k.path == nil ? nil : CGPoint.zero
            guard let sample = layer.customModel(key.raw) ?? k.values?.first ?? pathSample,
                  let (type, vk, width) = CustomValueType.of(sample) else {
                StrataDiagnostics.emit(.wrongValueType,
                    "custom key \"\(path)\" holds no interpolatable value; animation not added")
                return nil
            }
            guard let compiled = KeyframeCompiler.compile(k, kind: vk, width: width, timings: timings) else { return nil }
            let d = DerivedValue(field: nil, from: [], delta: [], additive: k.isAdditive, cumulative: k.isCumulative)
            d.customKey = key.raw; d.customType = type; d.kind = vk; d.keyframes = compiled
            return .custom(d)
        default:
            StrataDiagnostics.emit(.invalidArgument,
                "\(type(of: a)) on \"\(path)\" is not supported (keyframes animate lane properties and their components); animation not added")
            return nil
        }
    }

    /// An animation of `field` of custom key `key`: its value (the key's type, the whole
    /// value's lanes and the field), the field's current lanes (the value before the change in
    /// flight, else what is shown) and its model lanes.
    private func customFieldParts(_ layer: CALayer, _ key: PropertyID, _ field: ValueField)
        -> (DerivedValue, current: (lanes: [Double], changing: Bool), model: [Double])? {
        guard let model = layer.customModel(key.raw), let (type, kind, width) = CustomValueType.of(model),
              let modelLanes = LaneValue.lanes(model, kind: kind, width: width) else { return nil }
        let current = currentCustomLanes(layer, key, kind: kind, width: width, model: modelLanes)
        let d = DerivedValue(field: nil, from: [], delta: [], additive: false, cumulative: false)
        d.customKey = key.raw; d.customType = type; d.kind = kind; d.subField = field; d.wholeWidth = width
        return (d, (field.part(of: current.lanes), current.changing), field.part(of: modelLanes))
    }

    /// The lanes a custom key's animation starts from: the value before the change in flight
    /// (`changing`), else what is shown; the model's when neither fits.
    private func currentCustomLanes(_ layer: CALayer, _ key: PropertyID, kind: ValueKind, width: Int,
                                    model: [Double]) -> (lanes: [Double], changing: Bool) {
        let inFlight = customInFlight.flatMap { $0.row == layer.row && $0.key == key.raw ? $0 : nil }
        let current = inFlight.map { $0.old } ?? layer.currentCustom(key.raw)
        return (current.flatMap { LaneValue.lanes($0, kind: kind, width: width) } ?? model, inFlight != nil)
    }

    /// The object an animation of `p` starts from: what the layer shows once committed (a
    /// morphing path as it stands), the model value before.
    func currentObject(_ layer: CALayer, _ p: PropertyID) -> Any? {
        layers.flags[Int(layer.row)] & LayerFlags.committed != 0 ? layer.presentedObject(p) : layer.readObject(p)
    }

    /// An animation of object property `p` from `from` to `to`: two paths with the same
    /// elements (`path`, `shadowPath`) interpolate point by point; other values switch at
    /// half-way (SEMANTICS.md, "Paths").
    func objectValues(_ p: PropertyID, from: Any?, to: Any?) -> ObjectValues {
        if p == .path || p == .shadowPath, let f = from as? CGPath, let t = to as? CGPath, PathPoints.sameStructure(f, t) {
            return .morph(PathMorph(from: f, to: t))
        }
        return .halves(from: from, to: to)
    }

    /// Keyframes of object property `p`: paths that all have the same elements interpolate
    /// point by point at the key times, in the calculation mode; other values (contents'
    /// sprite frames, paths of different structure) step, each from its key time on. nil
    /// after a diagnostic.
    private func objectKeyframes(_ k: CAKeyframeAnimation, _ p: PropertyID) -> ObjectValues? {
        let name = PropertyTable[p].name
        guard k.path == nil else {
            StrataDiagnostics.emit(.wrongValueType,
                "CAKeyframeAnimation.path needs a point key path; \"\(name)\" is not one; animation not added")
            return nil
        }
        guard let values = k.values, !values.isEmpty else {
            StrataDiagnostics.emit(.invalidArgument, "CAKeyframeAnimation \"\(name)\" has no values and no path; animation not added")
            return nil
        }
        for (i, v) in values.enumerated() where !p.fitsObject(v) {
            StrataDiagnostics.emit(.wrongValueType,
                "CAKeyframeAnimation values[\(i)] of type \(type(of: v)) does not fit \"\(name)\"; animation not added")
            return nil
        }
        let paths = values.compactMap { $0 as? CGPath }
        if p == .path || p == .shadowPath, paths.count == values.count, PathPoints.sameStructure(paths) {
            let points = paths.map { PathPoints.coordinates($0) }
            guard points.allSatisfy({ $0.allSatisfy(\.isFinite) }) else {
                StrataDiagnostics.emit(.nonFiniteValue, "CAKeyframeAnimation values of \"\(name)\" have a point that is not finite; animation not added")
                return nil
            }
            guard let compiled = KeyframeCompiler.compile(points: points, k, timings: timings) else { return nil }
            return .morph(PathMorph(template: paths[0], keyframes: compiled))
        }
        let n = values.count
        let mode = k.calculationMode
        let segments = mode == .discrete ? n : max(n - 1, 1)
        if mode == .paced || mode == .cubicPaced {
            return .steps(values, times: (0...segments).map { Double($0) / Double(segments) })
        }
        guard let times = KeyframeCompiler.keyTimes(k.keyTimes, count: segments + 1, what: "values: \(n), mode \(mode.rawValue)"),
              KeyframeCompiler.segmentCurves(k.timingFunctions, segments: segments, timings: timings) != nil else { return nil }
        return .steps(values, times: times)
    }

    private func refuseKeyPath(_ path: String) -> Prepared? {
        StrataDiagnostics.emit(.unknownKeyPath, "\"\(path)\" is a timing field, not an animatable property; animation not added")
        return nil
    }

    /// The current (presented, or model) transform of a layer for derived-field animations.
    func currentTransform(row: Int32, _ p: PropertyID) -> CATransform3D {
        let l = currentLanes(row: row, p, offset: 0, width: 16)
        return l.withUnsafeBufferPointer { LaneValue.transform($0.baseAddress!) }
    }

    /// Stores a prepared animation under `key` with timing entry `e`; returns its record.
    @discardableResult
    func install(_ prepared: Prepared, object: CAAnimation?, layer: CALayer, key: Int32, timing e: Int32) -> Int32 {
        let row = layer.row
        switch prepared {
        case let .lanes(p, offset, width, from, to, additive, cumulative):
            let id = addLaneRecord(row: row, p, offset: offset, width: width, from: from, to: to, timing: e,
                                   key: key, additive: additive, object: object)
            if cumulative {
                let r = animations.records[Int(id)]
                animations.tracks[Int(r.track)].compose[Int(r.slot)] |= SlotFlags.cumulative
            }
            return id
        case let .keyframes(p, offset, width, compiled, additive, cumulative, rotate):
            let t = animations.keyframeTrack(p, offset: offset, width: width)
            var r = AnimationRecord()
            r.layer = row; r.key = key; r.property = p.raw; r.kind = .keyframes; r.track = t; r.timing = e
            r.flags = RecordFlags.alive | (additive ? RecordFlags.additive : 0)
                | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
            let id = animations.newRecord(r, object: object)
            // Whole transforms: segments that turn by decomposition, cumulative repetitions
            // concatenated.
            let matrix = width == 16 && !compiled.keys.isEmpty && (!compiled.blends.isEmpty || cumulative)
            let flags = (cumulative ? SlotFlags.cumulative : 0) | rotate | (matrix ? SlotFlags.decompose : 0)
            if rotate != 0 {
                animations.rotatingSlots += 1
                layers.addHints(Int(row), SnapshotHint.transform)   // the path's tangent turns the layer
            }
            animations.records[Int(id)].slot = animations.keyframeTracks[Int(t)].append(
                layer: row, timing: e, record: id, compiled, flags: flags)
            link(id)
            updateComposition(row: row, p)
            return id
        case let .object(p, v):
            return addObjectAnimation(layer, p, v, timing: e, key: key, object: object)
        case let .derived(d, p):
            return addDerived(row: row, property: p, kind: .derived, d, timing: e, key: key, object: object)
        case let .custom(d):
            return addDerived(row: row, property: nil, kind: .custom, d, timing: e, key: key, object: object)
        case .transition:
            var r = AnimationRecord()
            r.layer = row; r.key = key; r.property = -1; r.kind = .timingOnly; r.timing = e
            r.flags = RecordFlags.alive | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
            let id = animations.newRecord(r, object: object)
            link(id)
            return id
        case let .group(children):
            var r = AnimationRecord()
            r.layer = row; r.key = key; r.property = -1; r.kind = .group; r.timing = e
            r.flags = RecordFlags.alive | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
            let gid = animations.newRecord(r, object: object)
            link(gid)
            let groupDuration = timings.params[Int(e)].duration
            var ids: [Int32] = []
            for (child, p) in children {
                var cp = timingParameters(child, fromAction: false)
                if child.duration == 0 { cp.duration = groupDuration }
                cp.parent = e
                cp.removedOnCompletion = false
                let ce = timings.make(cp, groups: [])
                pendingEntries.append(ce)
                let added = install(p, object: nil, layer: layer, key: animations.nextAnonymousKey(), timing: ce)
                if added >= 0 {
                    animations.records[Int(added)].flags |= RecordFlags.groupChild
                    ids.append(added)
                }
            }
            animations.groupChildren[gid] = ids
            return gid
        }
    }

    /// A derived transform field or custom key animation (evaluated after the tracks).
    @discardableResult
    func addDerived(row: Int32, property: PropertyID?, kind: RecordKind, _ d: DerivedValue, timing e: Int32,
                    key: Int32, object: CAAnimation?) -> Int32 {
        var r = AnimationRecord()
        r.layer = row; r.key = key; r.property = property?.raw ?? -1; r.kind = kind; r.timing = e
        r.flags = RecordFlags.alive | (d.additive ? RecordFlags.additive : 0)
            | (object?.delegate != nil ? RecordFlags.hasDelegate : 0)
        let id = animations.newRecord(r, object: object)
        animations.derivedValues[id] = d
        if max(d.width, d.wholeWidth) > animations.widestCustom { animations.widestCustom = max(d.width, d.wholeWidth) }
        if kind == .custom && d.keyframes == nil && d.subField == nil && d.from.count == d.delta.count && d.from.count > 0 {
            // A basic animation of a custom key: a slot of the custom track of its width,
            // written directly while it is the key's only animation (and replaces).
            let others = demoteCustomSlots(row: row, key: d.customKey)
            let direct = !others && !d.additive
            let t = animations.customTrack(width: d.from.count)
            animations.records[Int(id)].track = t
            animations.records[Int(id)].slot = animations.customTracks[Int(t)].append(
                layer: row, key: d.customKey, timing: e, record: id, from: d.from, delta: d.delta,
                cumulative: d.cumulative, direct: direct)
            animations.customSlots += 1
            if !direct { animations.appendDerived(id) }
        } else {
            if kind == .custom { _ = demoteCustomSlots(row: row, key: d.customKey) }
            animations.appendDerived(id)
        }
        link(id)
        return id
    }

    /// Another animation of custom key `key` joins the layer's: the key's direct custom-track
    /// slots go back to per-layer composition (into the per-frame list). Returns whether the
    /// layer has animations of the key.
    private func demoteCustomSlots(row: Int32, key: Int32) -> Bool {
        var any = false
        forEachCustomRecord(row: row, key: key) { id, r in
            any = true
            guard r.track >= 0 else { return }
            let t = animations.customTracks[Int(r.track)]
            if t.flags[Int(r.slot)] & CustomTrack.direct != 0 {
                t.setDirect(Int(r.slot), false)
                animations.appendDerived(id)
            }
        }
        return any
    }

    /// The layer's animations of custom key `key` are down to one: a basic, replacing one
    /// is written directly again (out of the per-frame list).
    func promoteSoleCustomSlot(row: Int32, key: Int32) {
        var sole: Int32 = -1, n = 0
        forEachCustomRecord(row: row, key: key) { id, _ in sole = id; n += 1 }
        guard n == 1 else { return }
        let r = animations.records[Int(sole)]
        guard r.track >= 0, r.flags & RecordFlags.additive == 0 else { return }
        let t = animations.customTracks[Int(r.track)]
        guard t.flags[Int(r.slot)] & CustomTrack.direct == 0 else { return }
        t.setDirect(Int(r.slot), true)
        animations.dropDerived(sole)
    }

    /// SEMANTICS.md's from/to/by table, in lanes. nil (after a diagnostic) on bad values.
    /// `changing`: the animation is the action of a change of its property (run while the
    /// change is in flight): a nil `toValue` after a `fromValue` ends at the new model value,
    /// the value the layer shows once the change is committed.
    func basicEndpoints(_ a: CABasicAnimation, kind: ValueKind, width: Int, changing: Bool = false,
                        current: () -> [Double], model: () -> [Double]) -> ([Double], [Double])? {
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
        // Sums, and for whole transforms concatenation (`to = Concat(by, from)`).
        let matrices = kind == .transform && width == 16
        let add = { (x: [Double], y: [Double]) -> [Double] in
            if matrices { return LaneValue.transformLanes(CATransform3DConcat(LaneValue.transform(y), LaneValue.transform(x))) }
            return zip(x, y).map { $0 + $1 }
        }
        let sub = { (x: [Double], y: [Double]) -> [Double] in
            if matrices {
                return LaneValue.transformLanes(CATransform3DConcat(CATransform3DInvert(LaneValue.transform(y)), LaneValue.transform(x)))
            }
            return zip(x, y).map { $0 - $1 }
        }
        switch (from, to, by) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, add(f, b))
        case let (nil, t?, b?): return (sub(t, b), t)
        case let (f?, nil, nil): return (f, changing ? model() : current())
        case let (nil, t?, nil): return (current(), t)
        case let (nil, nil, b?): let c = current(); return (c, add(c, b))
        case (nil, nil, nil): return (current(), model())
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
        p.cumulative = (a as? CAPropertyAnimation)?.isCumulative ?? false
        p.spring = timings.springID(a)
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

    /// A basic animation run as the action of a change of its whole property, with no
    /// `fromValue`, shows where it started (the value before the change, the track's start),
    /// as built-in implicit animations do; not when `toValue` and `byValue` fix the start.
    /// Filled on the first read, so a change pays nothing for it.
    private func showStart(of o: CAAnimation, record id: Int32) {
        animations.records[Int(id)].flags &= ~RecordFlags.startsAtChange
        let r = animations.records[Int(id)]
        guard r.kind == .lanes, let b = o as? CABasicAnimation, b.fromValue == nil,
              b.toValue == nil || b.byValue == nil else { return }
        let t = animations.tracks[Int(r.track)]
        guard t.offset == 0 && t.width == t.propertyWidth else { return }
        let info = PropertyTable[PropertyID(r.property)]
        let (f, _) = t.endpoints(r.slot)
        b.fromValue = f.withUnsafeBufferPointer { LaneValue.box($0.baseAddress!, kind: info.kind) }
    }

    /// The animation object under a record, made on demand for built-in implicit animations.
    func animationObject(_ id: Int32) -> CAAnimation {
        let r = animations.records[Int(id)]
        if let o = animations.objects[Int(id)] {
            if r.flags & RecordFlags.startsAtChange != 0 { showStart(of: o, record: id) }
            return o
        }
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
        } else if r.kind == .object, let v = animations.objectValues[id] {
            a.fromValue = v.endpoints.from
            a.toValue = v.endpoints.to
        }
        animations.objects[Int(id)] = a
        animations.records[Int(id)].flags |= RecordFlags.hasObject
        return a
    }
}

extension EngineContext {
    /// A layer of a class of its own animates a key its class displays for: its presentation
    /// draws at every frame while the animation runs (CALayer+Display).
    @inline(never)
    func noteDisplayedAnimation(_ a: CAAnimation, _ layer: CALayer) {
        let paths: [String]
        if let g = a as? CAAnimationGroup {
            paths = (g.animations ?? []).compactMap { ($0 as? CAPropertyAnimation)?.keyPath }
        } else {
            paths = (a as? CAPropertyAnimation)?.keyPath.map { [$0] } ?? []
        }
        for p in paths where type(of: layer).needsDisplay(forKey: p) { displayQueue.noteAnimated(layer, p) }
    }

    /// This engine's display work, made on first use.
    var displayQueue: DisplayQueue {
        if let q = displayWork { return q }
        let q = DisplayQueue()
        displayWork = q
        return q
    }
}

extension CALayer {
    /// This layer's engine's display work.
    var displayQueue: DisplayQueue { engine.displayQueue }
}
