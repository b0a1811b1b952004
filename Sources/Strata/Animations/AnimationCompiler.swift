import Foundation

/// The bridge between `CAAnimation` objects and the stores' plain values, both ways:
/// - `prepare` validates an animation at the boundary (key path, value types, finite values,
///   timing) and converts its boxed values once, into a `PreparedAnimation` of lanes,
///   compiled keyframes, object values or derived values, with its `TimingParameters`;
/// - `animationObject` makes the object back from a record when the application asks for
///   one (`animation(forKey:)` of a built-in implicit animation, which has none until then).
///
/// It reads the layer store (the values an animation starts from), the animation store (a
/// record's values) and the timing store (curve and spring IDs); it writes no row. The
/// layer an animation is added to is reached through `AnimationTarget`, which the layers'
/// face implements: the compiler names no layer object.
///
/// A class with strong references: the engine holds it, and it holds the stores. As a struct
/// with `unowned` references, each use of a store cost a checked load and a release (about
/// 70 instructions of every explicit add, `commit/explicit-basic`, under callgrind); with
/// `unowned(unsafe)` ones, a retain and a release (about 50).
final class AnimationCompiler {
    let layers: LayerStore
    let animations: AnimationStore
    let timings: TimingStore
    /// The change whose action is running (its old value is where an action's animation starts).
    let inFlight: ChangeInFlight
    /// The last few group members' entries made (`memberEntry`), to share with equal members
    /// of other groups on the same group entry.
    @exclusivity(unchecked) var memberEntries: [(TimingParameters, Int32)] = []

    init(layers: LayerStore, animations: AnimationStore, timings: TimingStore, inFlight: ChangeInFlight) {
        self.layers = layers
        self.animations = animations
        self.timings = timings
        self.inFlight = inFlight
    }

    /// The "current value" an animation starts from: the value before the change in flight,
    /// else the presentation value of a committed layer, else the model value.
    func currentLanes(row: Int32, _ p: PropertyID, offset: Int, width: Int) -> [Double] {
        let pw = PropertyTable[p].width
        if let c = inFlight.change, c.row == row, c.property == p, c.old.count == pw {
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

    /// Whether keyframe keys fit their track's pools, which are addressed by Int32 offsets.
    func fitsKeyPools(_ p: PreparedAnimation) -> Bool {
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
    func prepare<Target: AnimationTarget>(_ a: CAAnimation, layer: Target) -> PreparedAnimation? {
        guard a.validateTiming() else { return nil }
        guard a.validateSpring() else { return nil }
        let row = layer.row
        if a is CATransition { return .transition }
        if let g = a as? CAAnimationGroup {
            // A child that cannot run is dropped, with what refused it reworded; the others
            // run (Core Animation does not refuse the group).
            var children: [(CAAnimation, PreparedAnimation)] = []
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
        if let r = KeyPathResolver.resolve(path, isShape: layer.isShapeLayer) {
            target = r.target
        } else if !path.utf8.contains(UInt8(ascii: ".")), PropertyTable.idsByName[path] == nil {
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
            let changing = inFlight.change.map { $0.row == row && $0.property == p } ?? false
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
            let current: Any? = inFlight.object.map { $0.from } ?? currentObject(layer, p)
            let model: Any? = inFlight.object.map { $0.to } ?? layer.readObject(p)
            guard p.fitsObject(b.fromValue), p.fitsObject(b.toValue) else {
                StrataDiagnostics.emit(.wrongValueType, "values of \"\(path)\" must be of its type; animation not added")
                return nil
            }
            return .object(p, Self.objectValues(p, from: b.fromValue ?? current, to: b.toValue ?? model))
        case (.object(let p), let k as CAKeyframeAnimation):
            guard let v = objectKeyframes(k, p) else { return nil }
            return .object(p, v)
        case (.transformField(let p, let field), let b as CABasicAnimation):
            let currentT = currentTransform(row: row, p), modelT = layer.transform3D(p)
            let changing = inFlight.change.map { $0.row == row && $0.property == p } ?? false
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
    private func customFieldParts<Target: AnimationTarget>(_ layer: Target, _ key: PropertyID, _ field: ValueField)
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
    private func currentCustomLanes<Target: AnimationTarget>(_ layer: Target, _ key: PropertyID, kind: ValueKind, width: Int,
                                    model: [Double]) -> (lanes: [Double], changing: Bool) {
        let custom = inFlight.custom.flatMap { $0.row == layer.row && $0.key == key.raw ? $0 : nil }
        let current = custom.map { $0.old } ?? layer.currentCustom(key.raw)
        return (current.flatMap { LaneValue.lanes($0, kind: kind, width: width) } ?? model, custom != nil)
    }

    /// The object an animation of `p` starts from: what the layer shows once committed (a
    /// morphing path as it stands), the model value before.
    func currentObject<Target: AnimationTarget>(_ layer: Target, _ p: PropertyID) -> Any? {
        layers.flags[Int(layer.row)] & LayerFlags.committed != 0 ? layer.presentedObject(p) : layer.readObject(p)
    }

    /// An animation of object property `p` from `from` to `to`: two paths with the same
    /// elements (`path`, `shadowPath`) interpolate point by point; other values switch at
    /// half-way (SEMANTICS.md, "Paths").
    static func objectValues(_ p: PropertyID, from: Any?, to: Any?) -> ObjectValues {
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

    private func refuseKeyPath(_ path: String) -> PreparedAnimation? {
        StrataDiagnostics.emit(.unknownKeyPath, "\"\(path)\" is a timing field, not an animatable property; animation not added")
        return nil
    }

    /// The current (presented, or model) transform of a layer for derived-field animations.
    func currentTransform(row: Int32, _ p: PropertyID) -> CATransform3D {
        let l = currentLanes(row: row, p, offset: 0, width: 16)
        return l.withUnsafeBufferPointer { LaneValue.transform($0.baseAddress!) }
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
    func timingParameters(_ a: CAAnimation, fromAction: Bool, transactionDuration: Double,
                          transactionTimingFunction: CAMediaTimingFunction?) -> TimingParameters {
        var p = TimingParameters()
        p.beginTime = a.beginTime
        p.duration = a.duration > 0 ? a.duration : transactionDuration
        p.speed = Double(a.speed)
        p.timeOffset = a.timeOffset
        p.repeatCount = Double(a.repeatCount)
        p.repeatDuration = a.repeatDuration
        p.autoreverses = a.autoreverses
        p.fill = a.fillMode.code
        p.removedOnCompletion = a.isRemovedOnCompletion
        p.curve = timings.curveID(a.timingFunction ?? (fromAction ? transactionTimingFunction : nil))
        p.cumulative = (a as? CAPropertyAnimation)?.isCumulative ?? false
        p.spring = timings.springID(a)
        return p
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

/// What the compiler reads of the layer an animation is added to, beyond the stores: its
/// class, its custom keys and its object values (CALayer implements it, in the layers' face).
protocol AnimationTarget: AnyObject {
    /// The layer's row in the layer store.
    var row: Int32 { get }
    /// A shape layer (its key paths include the shape's).
    var isShapeLayer: Bool { get }
    /// A custom key's model value.
    func customModel(_ key: Int32) -> Any?
    /// A custom key's value as shown (animated, else committed, else the model's).
    func currentCustom(_ key: Int32) -> Any?
    /// An object property's model value.
    func readObject(_ p: PropertyID) -> Any?
    /// An object property's value as presented.
    func presentedObject(_ p: PropertyID) -> Any?
    /// A transform property's model value.
    func transform3D(_ p: PropertyID) -> CATransform3D
}
