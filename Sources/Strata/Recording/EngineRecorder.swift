import Foundation
import StrataScript

/// Records one engine's use as StrataScript operations (see `StrataRecording`). Every hook
/// is behind one `recorder != nil` test on the engine; with no recorder nothing here runs.
///
/// Layers get script ids on first use; a layer first seen after the recording began (made
/// before it) is given its current model values and superlayer then. The renderer's root is
/// the script's root (-1). Layers stay alive until the recording ends, so an id is never
/// reused for another layer at the same address.
final class EngineRecorder {
    private(set) var operations: [Op] = []
    /// Presentation reads: the operation index of the copy's making, layer, key, value.
    private var reads: [(at: Int, layer: Int, key: String, lanes: [Double]?)] = []
    /// Lookup outcomes: the index of the change's `.set` operation and the outcome.
    private var lookups: [(at: Int, outcome: UInt8)] = []
    static let outcomeNames = ["builtIn", "none", "animation", "action"]
    private var ids: [ObjectIdentifier: Int] = [:]
    private var kept: [CALayer] = []
    private var nextId = 0
    /// Copies made by `presentation()` while recording: the layer and the operation index.
    private var copies: [ObjectIdentifier: (layer: Int, at: Int)] = [:]
    /// Per layer, the delegate answers the replay installs to reproduce the lookup outcomes.
    private var answers: [Int: [String: ScriptBehavior]] = [:]
    private var objectIds: [ObjectIdentifier: Int] = [:]
    private var rootLayer: ObjectIdentifier?
    private var completions = 0
    private(set) var frames = 0
    private var unreplayable: [String: Int] = [:]
    let path: String?
    let startedAt = Date()

    init(path: String?) { self.path = path }

    func note(_ what: String) { unreplayable[what, default: 0] += 1 }

    // MARK: layers

    func setRoot(_ layer: CALayer?) {
        guard let layer, rootLayer == nil, ids[ObjectIdentifier(layer)] == nil else { return }
        rootLayer = ObjectIdentifier(layer)
        ids[ObjectIdentifier(layer)] = -1
        kept.append(layer)
    }

    /// The layer's script id, introducing it (made, its model values, its superlayer) on
    /// first use; `before` gives one property's value before the change being recorded.
    /// The first tree root met before any renderer's is taken as the script's root.
    @inline(__always)
    func id(_ layer: CALayer, before: (PropertyID, Lanes)? = nil) -> Int {
        if let id = ids[ObjectIdentifier(layer)] { return id }
        return introduce(layer, before: before)
    }

    @inline(never)
    func introduce(_ layer: CALayer, before: (PropertyID, Lanes)?) -> Int {
        if rootLayer == nil && layer.superlayer == nil && !(layer.sublayers ?? []).isEmpty {
            setRoot(layer)
            return -1
        }
        let id = nextId
        nextId += 1
        ids[ObjectIdentifier(layer)] = id
        kept.append(layer)
        operations.append(.makeLayer(id: id, shape: layer is CAShapeLayer))
        // Values it had before the recording saw it (none for a layer made while recording).
        var sets: [Op] = []
        for (i, row) in PropertyTable.rows.enumerated() where row.isLaneProperty && row.kind != .timing {
            let p = PropertyID(Int32(i))
            if row.shapeOnly && !(layer is CAShapeLayer) { continue }
            let lanes = layer.readLanes(p)
            let source = before.flatMap { $0.0 == p ? $0.1 : nil } ?? lanes
            let value = (0..<row.width).map { source[$0] }
            let same = zip(value, row.defaults).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
            if !same, let v = scriptValue(row.kind, value) { sets.append(.set(layer: id, keyPath: row.name, value: v)) }
        }
        if !sets.isEmpty { operations += [.begin, .setDisableActions(true)] + sets + [.commit] }
        if let parent = layer.superlayer {
            let p = self.id(parent)
            operations.append(.addSublayer(parent: p, child: id))
        }
        return id
    }

    /// The engine's layers when the recording begins: made with their model values and
    /// tree (the first tree root with sublayers is the script's root), then a frame at the
    /// engine's time, so they are committed as they were. Animations already running are
    /// not carried (noted).
    func introduceExisting(_ e: EngineContext) {
        var roots: [CALayer] = []
        var running = 0
        for row in 0..<e.layers.highWater where e.layers.flags[row] & LayerFlags.alive != 0 {
            guard let h = e.layers.handle[row] else { continue }
            let l = h.takeUnretainedValue()
            if e.layers.parent[row] < 0 { roots.append(l) }
            if e.animations.firstOfLayer[row] >= 0 { running += 1 }
        }
        guard !roots.isEmpty else { return }
        operations += [.begin, .setDisableActions(true)]
        if let root = roots.first(where: { !($0.sublayers ?? []).isEmpty }) { setRoot(root) }
        func walk(_ l: CALayer) {
            _ = id(l)
            for s in l.sublayers ?? [] { walk(s) }
        }
        for r in roots { walk(r) }
        operations += [.commit, .frame(time: e.now)]
        frames += 1
        if running > 0 { note("layers with animations running when the recording began (those animations are not in it)") }
    }

    // MARK: changes

    /// A property change and the lookup's outcome: the replay's delegate is told to give
    /// the same outcome, then the value is set.
    func set(_ layer: CALayer, _ p: PropertyID, _ lanes: Lanes, old: Lanes, outcome: ActionOutcome?, disabled: Bool) {
        let info = PropertyTable[p]
        let l = id(layer, before: (p, old))
        if !disabled, let outcome { answer(l, info.name, outcome, builtIn: info.action != .none) }
        if let v = scriptValue(info.kind, lanes) {
            operations.append(.set(layer: l, keyPath: info.name, value: v))
        }
    }

    func setObject(_ layer: CALayer, _ p: PropertyID, _ value: Any?, outcome: ActionOutcome?, disabled: Bool) {
        let info = PropertyTable[p]
        let l = id(layer)
        guard let v = objectValue(value) else { note("\(info.name) set to a \(value.map { "\(type(of: $0))" } ?? "nil") value the replay cannot make"); return }
        if !disabled, let outcome { answer(l, info.name, outcome, builtIn: info.action != .none) }
        operations.append(.set(layer: l, keyPath: info.name, value: v))
    }

    func setCustom(_ layer: CALayer, _ key: String, _ value: Any?, outcome: ActionOutcome?, disabled: Bool) {
        let l = id(layer)
        guard let v = anyValue(value) else { note("custom key \(key) set to a value the replay cannot make"); return }
        if !disabled, let outcome { answer(l, key, outcome, builtIn: false) }
        operations.append(.set(layer: l, keyPath: key, value: v))
    }

    private func answer(_ layer: Int, _ key: String, _ outcome: ActionOutcome, builtIn: Bool) {
        let want: ScriptBehavior?
        // The `.set` this outcome belongs to comes next (after any `.setDelegate`).
        var kind: UInt8 = 0
        defer { lookups.append((operations.count, kind)) }
        switch outcome {
        case .builtIn: want = nil
        case .none: want = builtIn ? .null : nil; kind = 1
        case .action(let a):
            kind = 2
            if let anim = a as? CAAnimation, let s = animation(anim) {
                want = .animation(s)
            } else {
                kind = 3
                note("a lookup answered by a \(type(of: a)) (not an animation) is replayed as no action")
                want = .null
            }
        }
        guard answers[layer]?[key] != want else { return }
        var current = answers[layer] ?? [:]
        current[key] = want
        answers[layer] = current
        operations.append(.setDelegate(layer: layer, actions: current))
    }

    // MARK: tree, animations, transactions, frames

    func inserted(_ child: CALayer, into parent: CALayer, at index: Int) {
        let c = id(child), p = id(parent)
        operations.append(.insertSublayer(parent: p, child: c, index: index))
    }

    func removed(_ child: CALayer) { operations.append(.removeFromSuperlayer(layer: id(child))) }

    func added(_ anim: CAAnimation, forKey key: String?, to layer: CALayer) {
        guard let s = animation(anim) else { note("an animation the replay cannot make"); return }
        operations.append(.add(layer: id(layer), key: key, animation: s))
    }

    func removedAnimation(_ key: String?, from layer: CALayer) {
        let l = id(layer)
        operations.append(key.map { .removeAnimation(layer: l, key: $0) } ?? .removeAllAnimations(layer: l))
    }

    func transaction(_ op: Op) { operations.append(op) }

    func completion() {
        completions += 1
        operations.append(.setCompletion(tag: completions, ops: []))
    }

    func frame(_ t: Double, root: CALayer?) {
        setRoot(root)
        frames += 1
        operations.append(.frame(time: t))
    }

    // MARK: presentation reads

    func copyMade(_ copy: CALayer, of layer: CALayer) {
        copies[ObjectIdentifier(copy)] = (id(layer), operations.count)
    }

    func read(_ copy: CALayer, _ p: PropertyID, _ lanes: Lanes) {
        guard let c = copies[ObjectIdentifier(copy)] else { return }
        let info = PropertyTable[p]
        var v: [Double]? = (0..<info.width).map { lanes[$0] }
        switch info.kind {
        case .color where v![0].isNaN: v = nil
        case .float: v = [Double(Float(v![0]))]
        case .bool: v = [v![0] >= 0.5 ? 1 : 0]
        default: break
        }
        reads.append((c.at, c.layer, info.name, v))
    }

    // MARK: the file

    /// The recording: reads placed where their copies were made.
    func recording() -> Recording {
        var ops: [Op] = []
        var recorded: [RecordedRead] = []
        ops.reserveCapacity(operations.count + reads.count)
        var r = 0
        let sorted = reads.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        var moved = [Int](repeating: 0, count: operations.count + 1)   // old index -> index with the reads in
        for (i, op) in operations.enumerated() {
            while r < sorted.count && sorted[r].at == i {
                recorded.append(RecordedRead(op: ops.count, lanes: sorted[r].lanes))
                ops.append(.read(layer: sorted[r].layer, keyPath: sorted[r].key))
                r += 1
            }
            moved[i] = ops.count
            ops.append(op)
        }
        moved[operations.count] = ops.count
        while r < sorted.count {
            recorded.append(RecordedRead(op: ops.count, lanes: sorted[r].lanes))
            ops.append(.read(layer: sorted[r].layer, keyPath: sorted[r].key))
            r += 1
        }
        let notes = unreplayable.sorted { $0.key < $1.key }.map { "\($0.value) x \($0.key)" }
        let outcomes = lookups.map { RecordedLookup(op: moved[min($0.at, operations.count)], outcome: Self.outcomeNames[Int($0.outcome)]) }
        return Recording(program: CommandLine.arguments.first ?? "?", createdAt: ISO8601DateFormatter().string(from: startedAt),
                         operations: ops, reads: recorded, lookups: outcomes, frames: frames, notes: notes)
    }

    // MARK: values

    func scriptValue(_ kind: ValueKind, _ l: Lanes) -> ScriptValue? {
        switch kind {
        case .cgFloat, .float: return .scalar(l[0])
        case .bool: return .bool(l[0] >= 0.5)
        case .point: return .point(l[0], l[1])
        case .size: return .size(l[0], l[1])
        case .rect: return .rect(l[0], l[1], l[2], l[3])
        case .color, .transform: return scriptValue(kind, (0..<kind.width).map { l[$0] })
        case .object, .timing, .array: return nil
        }
    }

    func scriptValue(_ kind: ValueKind, _ c: [Double]) -> ScriptValue? {
        switch kind {
        case .cgFloat, .float: return .scalar(c[0])
        case .bool: return .bool(c[0] >= 0.5)
        case .point: return .point(c[0], c[1])
        case .size: return .size(c[0], c[1])
        case .rect: return .rect(c[0], c[1], c[2], c[3])
        case .color: return .color(c[0].isNaN ? nil : c)
        case .transform: return .transform(c)
        case .object, .timing, .array: return nil
        }
    }

    func objectValue(_ v: Any?) -> ScriptValue? {
        switch v {
        case nil: return .object(0)
        case let p as CGPath: return .path(p.elements.map(pathElement))
        case let o as AnyObject:
            if o is CALayer { return nil }
            let key = ObjectIdentifier(o)
            if let n = objectIds[key] { return .object(n) }
            let n = objectIds.count + 1
            objectIds[key] = n
            return .object(n)
        default: return nil
        }
    }

    func pathElement(_ e: PathElement) -> ScriptPathElement {
        switch e {
        case .moveTo(let p): return .move(Double(p.x), Double(p.y))
        case .addLine(let p): return .line(Double(p.x), Double(p.y))
        case let .addQuadCurve(p, c): return .quad(Double(p.x), Double(p.y), cx: Double(c.x), cy: Double(c.y))
        case let .addCurve(p, c1, c2):
            return .cubic(Double(p.x), Double(p.y), c1x: Double(c1.x), c1y: Double(c1.y), c2x: Double(c2.x), c2y: Double(c2.y))
        case .closeSubpath: return .close
        }
    }

    /// A boxed value as a script value (what `setValue` and animations take).
    func anyValue(_ v: Any?) -> ScriptValue? {
        if let v, let n = NSValueShape.instance(v) {
            // Wrapped geometry, recorded wrapped (replayed as the same NSValue).
            if let p = NSValueShape.point(n) { return .wrapped(.point(Double(p.x), Double(p.y))) }
            if let s = NSValueShape.size(n) { return .wrapped(.size(Double(s.width), Double(s.height))) }
            if let r = NSValueShape.rect(n) { return .wrapped(.rect(Double(r.origin.x), Double(r.origin.y), Double(r.width), Double(r.height))) }
            if let t = NSValueShape.transform3D(n) { return anyValue(t).map { .wrapped($0) } }
            return objectValue(v)
        }
        switch v {
        case let x as CGFloat: return .scalar(Double(x))
        case let x as Double: return .scalar(x)
        case let x as Float: return .scalar(Double(x))
        case let x as Int: return .scalar(Double(x))
        case let x as Bool: return .bool(x)
        case let x as NSNumber: return .scalar(x.doubleValue)
        case let p as CGPoint: return .point(Double(p.x), Double(p.y))
        case let s as CGSize: return .size(Double(s.width), Double(s.height))
        case let r as CGRect: return .rect(Double(r.origin.x), Double(r.origin.y), Double(r.width), Double(r.height))
        case let c as CGColor: return .color([c.rgba[0], c.rgba[1], c.rgba[2], c.rgba[3]])
        case let t as CATransform3D:
            return .transform([t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                               t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map { Double($0) })
        case let p as CGPath: return .path(p.elements.map(pathElement))
        case let a as [Double]: return .numbers(a)
        case nil: return nil
        default: return objectValue(v)
        }
    }

    func curve(_ f: CAMediaTimingFunction?) -> ScriptCurve? {
        guard let f else { return nil }
        var a: [Float] = [0, 0], b: [Float] = [0, 0]
        f.getControlPoint(at: 1, values: &a)
        f.getControlPoint(at: 2, values: &b)
        return ScriptCurve(a[0], a[1], b[0], b[1])
    }

    /// An animation as a script animation (nil: a kind or value it cannot carry).
    func animation(_ a: CAAnimation) -> ScriptAnimation? {
        var s: ScriptAnimation
        switch a {
        case let b as CABasicAnimation:
            s = ScriptAnimation(kind: .basic)
            s.keyPath = b.keyPath
            s.from = anyValue(b.fromValue); s.to = anyValue(b.toValue); s.by = anyValue(b.byValue)
            if (b.fromValue != nil && s.from == nil) || (b.toValue != nil && s.to == nil) || (b.byValue != nil && s.by == nil) { return nil }
            s.additive = b.isAdditive; s.cumulative = b.isCumulative
            if let sp = b as? CASpringAnimation {
                s.spring = ScriptSpring(mass: Double(sp.mass), stiffness: Double(sp.stiffness),
                                        damping: Double(sp.damping), velocity: Double(sp.initialVelocity))
            }
        case let k as CAKeyframeAnimation:
            s = ScriptAnimation(kind: .keyframe)
            s.keyPath = k.keyPath
            if let values = k.values {
                let v = values.compactMap(anyValue)
                guard v.count == values.count else { return nil }
                s.values = v
            }
            s.keyTimes = k.keyTimes?.map(\.doubleValue)
            s.calculationMode = k.calculationMode.rawValue
            s.rotationMode = k.rotationMode?.rawValue
            s.path = k.path.map { $0.elements.map(pathElement) }
            s.additive = k.isAdditive; s.cumulative = k.isCumulative
        case let g as CAAnimationGroup:
            s = ScriptAnimation(kind: .group)
            if let children = g.animations {
                let c = children.compactMap(animation)
                guard c.count == children.count else { return nil }
                s.children = c
            }
        case let t as CATransition:
            s = ScriptAnimation(kind: .transition)
            s.transitionType = t.type.rawValue
            s.transitionSubtype = t.subtype?.rawValue
        default:
            return nil
        }
        s.beginTime = a.beginTime; s.duration = a.duration; s.speed = a.speed; s.timeOffset = a.timeOffset
        s.repeatCount = a.repeatCount; s.repeatDuration = a.repeatDuration; s.autoreverses = a.autoreverses
        s.fillMode = a.fillMode.rawValue; s.removedOnCompletion = a.isRemovedOnCompletion
        s.timingFunction = curve(a.timingFunction)
        return s
    }
}
