// One runner source, compiled against each engine: Sources/StrataScriptReference lists this
// folder (Shared) in its `shared-sources` (the SharedSources plugin), so both engines run scripts by the
// same code.
import Foundation

/// Runs a `Script` on this module's engine and returns the trace of values read and events.
/// Each run happens on a thread of its own, so it starts from a fresh engine (engines and
/// transaction stacks are per thread).
public enum ScriptRunner {
    /// Runs `script` and returns its trace.
    public static func run(_ script: Script) -> [TraceEntry] {
        let trace = HandOff<[TraceEntry]>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                let state = RunState()
                state.run(script.ops)
                state.finish()
                trace.value = state.trace
            }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        return trace.value ?? []
    }

    /// Runs `script` on a thread of its own and returns the render snapshot of its root taken
    /// after the last operation (the frame a renderer would draw then), and the trace.
    public static func snapshot(after script: Script) -> (RenderSnapshot, [TraceEntry]) {
        let result = HandOff<(RenderSnapshot, [TraceEntry])>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                let state = RunState()
                state.run(script.ops)
                result.value = (state.renderer.snapshot(), state.trace)
                state.finish()
            }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        return result.value!
    }

    /// Runs `script` on the calling thread (benchmarks: the caller owns the engine).
    public static func runHere(_ script: Script) -> [TraceEntry] {
        let state = RunState()
        state.run(script.ops)
        state.finish()
        return state.trace
    }
}

/// A script applied in pieces on the calling thread: scenes feed it one frame's operations at
/// a time (generated outside the timed region) and time each piece.
public final class ScriptSession {
    let state = RunState()

    /// `typedSetters`: `.set` ops on opacity, position, bounds and backgroundColor call the
    /// typed property setters (`layer.opacity = x`, as app code does) instead of
    /// `setValue(_:forKeyPath:)`; other keys still go through key-value coding.
    /// `snapshotEachFrame`: every `.frame` takes the render snapshot between `render()` and
    /// `endFrame()` (a renderer's whole frame), timed on its own too.
    public init(typedSetters: Bool = false, snapshotEachFrame: Bool = false) {
        state.typedSetters = typedSetters
        state.snapshotEachFrame = snapshotEachFrame
    }

    /// Whether each `.frame` takes the render snapshot (see `init`); a replay that needs
    /// only some frames' snapshots turns it on for those.
    public var snapshotEachFrame: Bool {
        get { state.snapshotEachFrame }
        set { state.snapshotEachFrame = newValue }
    }

    /// Applies `ops` in order.
    public func apply(_ ops: [Op]) { state.run(ops) }

    /// `ops` resolved ahead of time, for `apply(_:)`: typed property sets on layers that
    /// already exist become direct setter calls (the layer found, the key path matched and
    /// the value built now), so a timed `apply` spends its time in the engine, not in
    /// matching key-path strings and copying script values. Everything else is kept as is.
    /// Without `typedSetters` every operation is kept as is.
    public func prepare(_ ops: [Op]) -> PreparedOps {
        var out: [PreparedOp] = []
        out.reserveCapacity(ops.count)
        for op in ops {
            guard state.typedSetters, case let .set(id, keyPath, v) = op, let l = state.layer(id) else {
                out.append(.other(op))
                continue
            }
            switch (keyPath, v) {
            case let ("opacity", .scalar(x)): out.append(.opacity(l, Float(x)))
            case let ("position", .point(x, y)): out.append(.position(l, CGPoint(x: x, y: y)))
            case let ("bounds", .rect(x, y, w, h)): out.append(.bounds(l, CGRect(x: x, y: y, width: w, height: h)))
            case let ("backgroundColor", .color(c?)) where c.count == 4:
                out.append(.backgroundColor(l, CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3])))
            default: out.append(.other(op))
            }
        }
        return PreparedOps(ops: out)
    }

    /// Applies prepared operations in order: the same effect as `apply` on the operations
    /// they were prepared from.
    public func apply(_ prepared: PreparedOps) {
        for op in prepared.ops {
            if case .other = op {} else if state.probe != nil { state.enter(.setters) }
            switch op {
            case let .opacity(l, x): l.opacity = x
            case let .position(l, p): l.position = p
            case let .bounds(l, r): l.bounds = r
            case let .backgroundColor(l, c): l.backgroundColor = c
            case let .other(op): state.apply(op)
            }
            state.opIndex += 1
        }
    }

    /// Nanoseconds the last `.frame` op spent in `renderFrame` (commit + render + endFrame,
    /// and the snapshot when taken).
    public var lastRenderNanoseconds: UInt64 { state.lastRenderNanoseconds }
    /// Nanoseconds the last `.frame` op spent taking the render snapshot (0 when not taken).
    public var lastSnapshotNanoseconds: UInt64 { state.lastSnapshotNanoseconds }
    /// The render snapshot the last `.frame` took (its renderer's own, updated in place).
    public var lastSnapshot: RenderSnapshot? { state.lastSnapshot }
    /// The render snapshot of the script's root now.
    public func snapshot() -> RenderSnapshot { state.renderer.snapshot() }

    /// Commits what is open and removes every animation (as `run` does at the end).
    public func finish() { state.finish() }

    /// Hears where each frame's phases begin (nil: nobody listens, the default). Set it
    /// before a frame's operations: the frame starts in `.setters`, explicit commits and
    /// flushes are `.commit`, and a `.frame` operation runs `.commit` (beginFrame), `.render`,
    /// `.snapshot` (when taken) and `.endFrame`. `beginProbedFrame()` starts each frame.
    public var probe: FramePhaseProbe? {
        get { state.probe }
        set { state.probe = newValue; state.phase = .setters }
    }

    /// The next operations start a frame: its phase is `.setters` again (the probe is not
    /// called: the caller starts the frame's measurement).
    public func beginProbedFrame() { state.phase = .setters }

    /// Values read and events so far.
    public var trace: [TraceEntry] { state.trace }
}

/// Operations resolved by `ScriptSession.prepare(_:)`.
public struct PreparedOps {
    let ops: [PreparedOp]
    public var count: Int { ops.count }
    /// Operations kept as they were (not direct setter calls).
    public var otherCount: Int { ops.reduce(0) { if case .other = $1 { return $0 + 1 } else { return $0 } } }
}

enum PreparedOp {
    case opacity(CALayer, Float)
    case position(CALayer, CGPoint)
    case bounds(CALayer, CGRect)
    case backgroundColor(CALayer, CGColor)
    case other(Op)
}

/// Script layer ids to layers: an array for the small dense ids scripts use (a dictionary
/// lookup per operation was a visible part of a scene's frame), a dictionary beyond.
struct LayerTable {
    private var dense: [CALayer?] = []
    private var sparse: [Int: CALayer] = [:]
    private static let denseLimit = 1 << 22

    subscript(id: Int) -> CALayer? {
        get {
            if id >= 0 && id < dense.count { return dense[id] }
            return id >= Self.denseLimit || id < 0 ? sparse[id] : nil
        }
        set {
            guard id >= 0 && id < Self.denseLimit else { sparse[id] = newValue; return }
            if id >= dense.count {
                guard newValue != nil else { return }
                dense.append(contentsOf: repeatElement(nil, count: id - dense.count + 1))
            }
            dense[id] = newValue
        }
    }

    /// Ids holding a layer, ascending.
    var ids: [Int] {
        (dense.indices.filter { dense[$0] != nil } + sparse.keys).sorted()
    }
}

final class RunState {
    var layers = LayerTable()
    /// The layer a script id names: -1 is the script's root (a recording's renderer root).
    func layer(_ id: Int) -> CALayer? { id == -1 ? root : layers[id] }
    var trace: [TraceEntry] = []
    var opIndex = 0
    var openTransactions = 0
    let root = CALayer()
    lazy var renderer = CARenderer(layer: root)
    var delegates: [AnyObject] = []
    /// The script's host views (their layers are in `layers`).
    var views: [View] = []
    var lastRenderNanoseconds: UInt64 = 0
    var lastSnapshotNanoseconds: UInt64 = 0
    var lastSnapshot: RenderSnapshot?
    var typedSetters = false
    var snapshotEachFrame = false
    /// `ScriptSession.probe` and the phase it last heard.
    var probe: FramePhaseProbe?
    var phase = FramePhase.setters
    /// Inside a `.frame` operation (its phases are set by it).
    var inFrame = false

    @inline(__always)
    func enter(_ p: FramePhase) {
        guard let probe, p != phase else { return }
        phase = p
        probe.enter(p)
    }

    func run(_ ops: [Op]) {
        for op in ops {
            apply(op)
            opIndex += 1
        }
    }

    func finish() {
        while openTransactions > 0 { CATransaction.commit(); openTransactions -= 1 }
        CATransaction.flush()
        for id in layers.ids { layers[id]?.removeAllAnimations() }
    }

    func apply(_ op: Op) {
        // Operations a callback runs inside a frame's phase (a completion block at endFrame)
        // belong to that phase.
        if probe != nil && !inFrame {
            switch op {
            case .commit, .flush: enter(.commit)
            case .frame: break
            default: enter(.setters)
            }
        }
        switch op {
        case let .makeLayer(id, shape):
            guard layers[id] == nil else { return }
            layers[id] = shape ? CAShapeLayer() : CALayer()
        case let .makeOverridingLayer(id, shape, actions, superDuration):
            guard layers[id] == nil else { return }
            let answers = ActionAnswers(actions: actions.mapValues(action), superDuration: superDuration)
            if shape {
                let l = ScriptOverridingShapeLayer()
                l.answers = answers
                layers[id] = l
            } else {
                let l = ScriptOverridingLayer()
                l.answers = answers
                layers[id] = l
            }
        case let .addSublayer(parent, child):
            guard let c = layers[child] else { return }
            (parent < 0 ? root : layers[parent])?.addSublayer(c)
        case let .insertSublayer(parent, child, index):
            guard let c = layers[child] else { return }
            (parent < 0 ? root : layers[parent])?.insertSublayer(c, at: UInt32(max(0, index)))
        case let .removeFromSuperlayer(layer):
            self.layer(layer)?.removeFromSuperlayer()
        case let .set(layer, keyPath, value):
            guard let l = self.layer(layer) else { return }
            if keyPath == "fillMode", case let .scalar(x) = value {
                // A fill mode by number: 0 removed, 1 forwards, 2 backwards, 3 both.
                let modes: [CAMediaTimingFillMode] = [.removed, .forwards, .backwards, .both]
                l.setValue(modes[x.isFinite ? Int(min(max(x, 0), 3)) : 0], forKeyPath: keyPath)
                return
            }
            if typedSetters, setTyped(l, keyPath, value) { return }
            l.setValue(box(value), forKeyPath: keyPath)
        case .begin:
            CATransaction.begin(); openTransactions += 1
        case .commit:
            CATransaction.commit()
            if openTransactions > 0 { openTransactions -= 1 }
        case .flush:
            CATransaction.flush()
        case let .setAnimationDuration(d):
            CATransaction.setAnimationDuration(d)
        case let .setDisableActions(b):
            CATransaction.setDisableActions(b)
        case let .setTimingFunction(c):
            CATransaction.setAnimationTimingFunction(c.map(timingFunction))
        case let .setCompletion(tag, ops):
            CATransaction.setCompletionBlock { [unowned self] in
                self.trace.append(.event("completion \(tag)"))
                self.run(ops)
            }
        case let .setActions(layer, actions):
            self.layer(layer)?.actions = actions.mapValues(action)
        case let .setDelegate(layer, actions):
            guard let l = self.layer(layer) else { return }
            let d = ScriptDelegate(actions.mapValues(action))
            delegates.append(d)
            l.delegate = d
        case let .setStyle(layer, actions):
            self.layer(layer)?.style = ["actions": actions.mapValues(action) as [String: CAAction]]
        case let .add(layer, key, a):
            self.layer(layer)?.add(animation(a), forKey: key)
        case let .removeAnimation(layer, key):
            self.layer(layer)?.removeAnimation(forKey: key)
        case let .removeAllAnimations(layer):
            self.layer(layer)?.removeAllAnimations()
        case let .frame(time):
            if probe != nil {
                // Counted, not timed: no clock is read (its cost varies from call to call).
                inFrame = true
                defer { inFrame = false }
                enter(.commit)
                renderer.beginFrame(atTime: time)
                enter(.render)
                renderer.render()
                if snapshotEachFrame {
                    enter(.snapshot)
                    lastSnapshot = renderer.snapshot()
                }
                enter(.endFrame)
                renderer.endFrame()
                return
            }
            let t0 = DispatchTime.now().uptimeNanoseconds
            if snapshotEachFrame {
                renderer.beginFrame(atTime: time)
                renderer.render()
                let s0 = DispatchTime.now().uptimeNanoseconds
                lastSnapshot = renderer.snapshot()
                lastSnapshotNanoseconds = DispatchTime.now().uptimeNanoseconds &- s0
                renderer.endFrame()
            } else {
                renderer.renderFrame(atTime: time)
            }
            lastRenderNanoseconds = DispatchTime.now().uptimeNanoseconds &- t0
        case let .read(layer, keyPath):
            let p = self.layer(layer)?.presentation()
            let (lanes, discrete) = unbox(p?.value(forKeyPath: keyPath))
            trace.append(.value(op: opIndex, lanes: p == nil ? nil : lanes, discrete: discrete))
        case let .readKeys(layer):
            trace.append(.keys(op: opIndex, self.layer(layer)?.animationKeys() ?? []))
        case .snapshot:
            trace.append(.snapshot(op: opIndex, items: snapshotItems(renderer.snapshot())))
        case let .makeClassLayer(id, kind):
            guard layers[id] == nil else { return }
            switch kind {
            case "gradient": layers[id] = CAGradientLayer()
            case "text": layers[id] = CATextLayer()
            case "replicator": layers[id] = CAReplicatorLayer()
            case "transform": layers[id] = CATransformLayer()
            default: layers[id] = CALayer()
            }
        case let .makeView(id):
            guard layers[id] == nil else { return }
            let v = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            views.append(v)
            layers[id] = v.layer
        case let .viewAnimate(b):
            let completion: ((Bool) -> Void)? = b.tag.map { tag in { [unowned self] finished in
                self.trace.append(.event("view \(tag) \(finished)"))
            } }
            let options = View.AnimationOptions(rawValue: b.options)
            if let s = b.spring, s.count == 2 {
                View.animate(withDuration: b.duration, delay: b.delay, usingSpringWithDamping: CGFloat(s[0]),
                             initialSpringVelocity: CGFloat(s[1]), options: options,
                             animations: { [unowned self] in self.run(b.ops) }, completion: completion)
            } else {
                View.animate(withDuration: b.duration, delay: b.delay, options: options,
                             animations: { [unowned self] in self.run(b.ops) }, completion: completion)
            }
        case let .performWithoutAnimation(inner):
            View.performWithoutAnimation { self.run(inner) }
        }
    }

    /// A snapshot's items with script ids for layers (-1: the root).
    func snapshotItems(_ s: RenderSnapshot) -> [SnapshotTraceItem] {
        var ids: [ObjectIdentifier: Int] = [:]
        for id in layers.ids { if let l = layers[id] { ids[ObjectIdentifier(l)] = id } }
        // In draw order, parents and clips as draw positions: the engines give out slots
        // differently (the fast one splices tree edits), and draw the same frame.
        let items = s.itemsInDrawOrder(), order = s.drawOrder
        return (0..<s.count).map { k in
            let it = items[k]
            let id = s.layer(at: Int(order[k])).flatMap { ids[ObjectIdentifier($0)] } ?? -1
            let t = it.transform
            var v: [Double] = [t.row1, t.row2, t.row3, t.row4].flatMap { r in (0..<4).map { Double(r[$0]) } }
            v.append(Double(it.opacity))
            v += (0..<4).map { Double(it.bounds[$0]) }
            v.append(Double(it.cornerRadius))
            v += (0..<4).map { Double(it.backgroundColor[$0]) } + (0..<4).map { Double(it.borderColor[$0]) }
            v.append(Double(it.borderWidth))
            v += (0..<4).map { Double(it.shadowColor[$0]) }
            v += [Double(it.shadowOffset.x), Double(it.shadowOffset.y), Double(it.shadowRadius), Double(it.shadowOpacity)]
            var elements = -1
            if let sh = it.shape {
                v += (0..<4).map { Double(sh.fillColor[$0]) } + (0..<4).map { Double(sh.strokeColor[$0]) }
                v += [Double(sh.lineWidth), Double(sh.strokeStart), Double(sh.strokeEnd), Double(sh.miterLimit), Double(sh.lineDashPhase)]
                elements = sh.path?.elements.count ?? -1
            }
            return SnapshotTraceItem(layer: id, parent: it.parent, clip: it.clip, flags: it.flags.rawValue,
                                     pathElements: elements, values: v)
        }
    }

    func action(_ b: ScriptBehavior) -> CAAction {
        switch b {
        case .null: return NSNull()
        case .animation(let a): return animation(a)
        }
    }

    func animation(_ s: ScriptAnimation) -> CAAnimation {
        let a: CAAnimation
        switch s.kind {
        case .basic:
            let b: CABasicAnimation
            if let spring = s.spring {
                let sp = CASpringAnimation(keyPath: s.keyPath)
                sp.mass = CGFloat(spring.mass); sp.stiffness = CGFloat(spring.stiffness)
                sp.damping = CGFloat(spring.damping); sp.initialVelocity = CGFloat(spring.velocity)
                b = sp
            } else {
                b = CABasicAnimation(keyPath: s.keyPath)
            }
            b.fromValue = s.from.map(animationValue); b.toValue = s.to.map(animationValue); b.byValue = s.by.map(animationValue)
            b.isAdditive = s.additive; b.isCumulative = s.cumulative
            a = b
        case .keyframe:
            let k = CAKeyframeAnimation(keyPath: s.keyPath)
            k.values = s.values?.map(animationValue)
            k.keyTimes = s.keyTimes?.map { NSNumber(value: $0) }
            if let m = s.calculationMode { k.calculationMode = CAAnimationCalculationMode(rawValue: m) }
            if let r = s.rotationMode { k.rotationMode = CAAnimationRotationMode(rawValue: r) }
            if let elements = s.path {
                let p = cgPath(elements)
                k.path = p
            }
            k.isAdditive = s.additive; k.isCumulative = s.cumulative
            a = k
        case .group:
            let g = CAAnimationGroup()
            g.animations = s.children?.map(animation)
            a = g
        case .transition:
            let t = CATransition()
            if let v = s.transitionType { t.type = CATransitionType(rawValue: v) }
            if let v = s.transitionSubtype { t.subtype = CATransitionSubtype(rawValue: v) }
            a = t
        }
        a.beginTime = s.beginTime; a.duration = s.duration; a.speed = s.speed; a.timeOffset = s.timeOffset
        a.repeatCount = s.repeatCount; a.repeatDuration = s.repeatDuration; a.autoreverses = s.autoreverses
        a.fillMode = CAMediaTimingFillMode(rawValue: s.fillMode)
        a.isRemovedOnCompletion = s.removedOnCompletion
        a.timingFunction = s.timingFunction.map(timingFunction)
        if let tag = s.delegateTag {
            let d = ScriptAnimationDelegate(tag: tag) { [unowned self] in self.trace.append(.event($0)) }
            a.delegate = d
        }
        return a
    }

    func cgPath(_ elements: [ScriptPathElement]) -> CGMutablePath {
        let p = CGMutablePath()
        for e in elements {
            switch e {
            case let .move(x, y): p.move(to: CGPoint(x: x, y: y))
            case let .line(x, y): p.addLine(to: CGPoint(x: x, y: y))
            case let .quad(x, y, cx, cy): p.addQuadCurve(to: CGPoint(x: x, y: y), control: CGPoint(x: cx, y: cy))
            case let .cubic(x, y, c1x, c1y, c2x, c2y):
                p.addCurve(to: CGPoint(x: x, y: y), control1: CGPoint(x: c1x, y: c1y), control2: CGPoint(x: c2x, y: c2y))
            case .close: p.closeSubpath()
            }
        }
        return p
    }

    /// The named curve when the control points are one of Apple's (as code usually spells
    /// them), else a curve from the points.
    func timingFunction(_ c: ScriptCurve) -> CAMediaTimingFunction {
        let named: [(CAMediaTimingFunctionName, [Float])] = [
            (.linear, [0, 0, 1, 1]), (.easeIn, [0.42, 0, 1, 1]), (.easeOut, [0, 0, 0.58, 1]),
            (.easeInEaseOut, [0.42, 0, 0.58, 1]), (.default, [0.25, 0.1, 0.25, 1])]
        for (name, p) in named where p == [c.c1x, c.c1y, c.c2x, c.c2y] { return CAMediaTimingFunction(name: name) }
        return CAMediaTimingFunction(controlPoints: c.c1x, c.c1y, c.c2x, c.c2y)
    }

    /// The typed setter for the keys app code sets most; false when there is none.
    func setTyped(_ l: CALayer, _ keyPath: String, _ v: ScriptValue) -> Bool {
        switch (keyPath, v) {
        case let ("opacity", .scalar(x)): l.opacity = Float(x)
        case let ("position", .point(x, y)): l.position = CGPoint(x: x, y: y)
        case let ("bounds", .rect(x, y, w, h)): l.bounds = CGRect(x: x, y: y, width: w, height: h)
        case let ("backgroundColor", .color(c?)) where c.count == 4:
            l.backgroundColor = CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3])
        default: return false
        }
        return true
    }

    /// `box(v)` as an animation's value: the value itself, as a program sets one
    /// (`fromValue = CGPoint(...)`), or for none an empty optional in an `Any`, which the
    /// engines refuse as a value of the wrong type. (`s.from.map(box)` put every value in an
    /// optional inside the `Any`, which the engines see through at a cost no program pays.)
    func animationValue(_ v: ScriptValue) -> Any { box(v) ?? (Optional<Any>.none as Any) }

    func box(_ v: ScriptValue) -> Any? {
        switch v {
        case let .scalar(x): return CGFloat(x)
        case let .bool(b): return b
        case let .point(x, y): return CGPoint(x: x, y: y)
        case let .size(w, h): return CGSize(width: w, height: h)
        case let .rect(x, y, w, h): return CGRect(x: x, y: y, width: w, height: h)
        case let .color(c): return c.map { CGColor(red: $0[0], green: $0[1], blue: $0[2], alpha: $0[3]) }
        case let .object(n): return "object-\(n)"
        case let .path(elements): return cgPath(elements)
        case let .numbers(x): return x
        case let .colors(cs): return cs.map { CGColor(red: $0[0], green: $0[1], blue: $0[2], alpha: $0[3]) }
        case let .transform(m):
            return CATransform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                                 m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
        case let .wrapped(inner):
            switch box(inner) {
            case let p as CGPoint: return NSValue(cgPoint: p)
            case let s as CGSize: return NSValue(cgSize: s)
            case let r as CGRect: return NSValue(cgRect: r)
            case let t as CATransform3D: return NSValue(caTransform3D: t)
            case let other: return other
            }
        }
    }

    /// Lanes of a read value, and whether it must match exactly.
    func unbox(_ v: Any?) -> ([Double]?, Bool) {
        switch v {
        case nil: return (nil, true)
        case let x as CGFloat: return ([Double(x)], false)
        case let x as Double: return ([x], false)
        case let x as Float: return ([Double(x)], false)
        case let x as Bool: return ([x ? 1 : 0], true)
        case let x as String: return ([Double(x.split(separator: "-").last ?? "") ?? -1], true)
        case let p as CGPoint: return ([Double(p.x), Double(p.y)], false)
        case let s as CGSize: return ([Double(s.width), Double(s.height)], false)
        case let r as CGRect: return ([Double(r.origin.x), Double(r.origin.y), Double(r.width), Double(r.height)], false)
        case let c as CGColor: return (c.components?.map { Double($0) }, false)
        case let w? where NSValueShape.instance(w) != nil:
            // A wrapped point, size, rectangle or transform (a custom key's): its lanes.
            let n = NSValueShape.instance(w)!
            switch String(cString: n.objCType) {
            case let e where e.hasPrefix("{CGPoint"): return unbox(n.pointValue)
            case let e where e.hasPrefix("{CGSize"): return unbox(n.sizeValue)
            case let e where e.hasPrefix("{CGRect"): return unbox(n.rectValue)
            default: return unbox(n.caTransform3DValue)
            }
        case let t as CATransform3D:
            return ([t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
                     t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map { Double($0) }, false)
        case let p as CGPath:
            // Element kinds and points: a morphing path is compared point by point.
            return (PathPoints.trace(p), false)
        case let a as [Any] where !a.isEmpty && a.allSatisfy({ $0 is CGColor }):
            return (a.flatMap { ($0 as! CGColor).components?.map { Double($0) } ?? [] }, false)
        case let a as [Any] where a.allSatisfy({ unbox($0).0?.count == 1 && !unbox($0).1 }):
            return (a.flatMap { unbox($0).0! }, false)
        default: return ([], true)
        }
    }
}

/// What a script's subclass answers from `action(forKey:)`: its own actions, else super's
/// (a CABasicAnimation from super gets `superDuration` when set).
struct ActionAnswers {
    var actions: [String: CAAction] = [:]
    var superDuration: Double?

    func answer(_ event: String, super base: (String) -> CAAction?) -> CAAction? {
        if let a = actions[event] { return a }
        let a = base(event)
        if let d = superDuration, let b = a as? CABasicAnimation { b.duration = d }
        return a
    }
}

final class ScriptOverridingLayer: CALayer {
    var answers = ActionAnswers()
    override func action(forKey event: String) -> CAAction? {
        answers.answer(event) { super.action(forKey: $0) }
    }
}

final class ScriptOverridingShapeLayer: CAShapeLayer {
    var answers = ActionAnswers()
    override func action(forKey event: String) -> CAAction? {
        answers.answer(event) { super.action(forKey: $0) }
    }
}

final class ScriptDelegate: NSObject, CALayerDelegate {
    let actions: [String: CAAction]
    init(_ actions: [String: CAAction]) { self.actions = actions }
    func action(for layer: CALayer, forKey event: String) -> CAAction? { actions[event] }
}

final class ScriptAnimationDelegate: NSObject, CAAnimationDelegate {
    let tag: Int
    let log: (String) -> Void
    init(tag: Int, log: @escaping (String) -> Void) { self.tag = tag; self.log = log }
    func animationDidStart(_ anim: CAAnimation) { log("start \(tag)") }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { log("stop \(tag) \(flag)") }
}

/// A value the script's thread hands back to the caller (the semaphore orders the two).
private final class HandOff<T>: @unchecked Sendable {
    var value: T?
}
