import Foundation

/// SplitMix64: a small, fast, seedable generator, so a failing script is reproduced by its
/// seed alone.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64
    /// A generator starting at `seed`.
    public init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random valid scripts: trees of layers, nested transactions, every animation kind with
/// random timing, re-targeting mid-flight, removal during animation, completion blocks that
/// mutate the tree, and reads after frames.
public struct ScriptGenerator {
    var rng: SeededGenerator
    var layerCount = 0
    var time = 0.0
    var ops: [Op] = []
    var depth = 0
    var tags = 0
    /// Ids of the script's host views (their layers are layers of the script).
    var viewIDs: [Int] = []
    /// Ids of the script's replicators with a delay (later layers often go under them).
    var delayedReplicators: [Int] = []
    var forcedParent: Int?
    /// Layers given timing of their own (`layerTiming`): some moves go under them, so
    /// subtrees cross into and out of timed subtrees (the engine's respacing path).
    var timedLayers: [Int] = []
    let maxLayers: Int

    /// A generator for `seed`; scripts use up to `maxLayers` layers.
    public init(seed: UInt64, maxLayers: Int = 24) {
        rng = SeededGenerator(seed: seed)
        self.maxLayers = maxLayers
    }

    /// The script of this seed (`length` operations, roughly).
    public static func script(seed: UInt64, length: Int = 60, maxLayers: Int = 24) -> Script {
        var g = ScriptGenerator(seed: seed, maxLayers: maxLayers)
        return g.make(length: length)
    }

    mutating func make(length: Int) -> Script {
        // Mostly small scenes; one in twenty builds a tree of hundreds of layers.
        let initial = chance(0.05) ? Int.random(in: 100...300, using: &rng) : Int.random(in: 1...min(6, maxLayers), using: &rng)
        for _ in 0..<initial { makeLayer() }
        let target = ops.count + length
        while ops.count < target { step() }
        frame()
        for _ in 0..<min(layerCount, 32) { ops.append(.read(layer: layer(), keyPath: pick(Self.readKeys))) }
        return Script(ops)
    }

    static let scalarKeys = ["opacity", "cornerRadius", "borderWidth", "zPosition", "shadowRadius", "shadowOpacity"]
    static let readKeys = ["opacity", "position", "bounds", "backgroundColor", "cornerRadius", "transform",
                           "position.x", "bounds.size.width", "isHidden", "zPosition", "anchorPoint",
                           "contents", "progress", "shadowPath", "path", "levels", "colors", "locations",
                           "startPoint", "fontSize", "foregroundColor", "instanceTransform",
                           "transform.translation", "transform.scale.xy", "sublayerTransform"]
    static let curves = [ScriptCurve(0, 0, 1, 1), ScriptCurve(0.42, 0, 1, 1), ScriptCurve(0, 0, 0.58, 1),
                         ScriptCurve(0.42, 0, 0.58, 1), ScriptCurve(0.25, 0.1, 0.25, 1)]

    mutating func pick<T>(_ a: [T]) -> T { a[Int.random(in: 0..<a.count, using: &rng)] }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func number(_ r: ClosedRange<Double>) -> Double {
        // Three decimals: readable fixtures, and values away from the tails of Double.
        (Double.random(in: r, using: &rng) * 1000).rounded() / 1000
    }
    mutating func layer() -> Int { Int.random(in: 0..<layerCount, using: &rng) }

    mutating func makeLayer() {
        let id = layerCount
        layerCount += 1
        if chance(0.1) {
            // A subclass overriding action(forKey:) (SEMANTICS.md, "One entry point").
            var m: [String: ScriptBehavior] = [:]
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                m[pick(Self.scalarKeys + ["position", "backgroundColor", "progress", "onOrderIn", "onOrderOut", "shadowPath", "levels"])] = behavior()
            }
            ops.append(.makeOverridingLayer(id: id, shape: chance(0.2), actions: m,
                                            superDuration: chance(0.5) ? number(0.1...1) : nil))
        } else if chance(0.12) {
            // Core Animation's layer classes: their keys are keyed values with class defaults
            // and implicit actions of their own.
            let kind = pick(["gradient", "gradient", "text", "replicator", "transform"])
            ops.append(.makeClassLayer(id: id, kind: kind))
            if kind == "replicator" && chance(0.8) {
                // Instances its later sublayers repeat in (the render snapshot's copies).
                ops.append(.set(layer: id, keyPath: "instanceCount", value: value(for: "instanceCount")))
                if chance(0.6) { ops.append(.set(layer: id, keyPath: "instanceTransform", value: value(for: "instanceTransform"))) }
                // Instance k shows its sublayers k delays earlier (evaluated again there).
                if chance(0.5) {
                    ops.append(.set(layer: id, keyPath: "instanceDelay", value: value(for: "instanceDelay")))
                    ops.append(.set(layer: id, keyPath: "instanceCount", value: .scalar(Double(Int.random(in: 2...4, using: &rng)))))
                    delayedReplicators.append(id)
                }
            }
        } else if chance(0.08) {
            ops.append(.makeView(id: id))
            viewIDs.append(id)
        } else {
            ops.append(.makeLayer(id: id, shape: chance(0.2)))
        }
        var parent = id == 0 || chance(0.3) ? -1 : Int.random(in: 0..<id, using: &rng)
        if let r = delayedReplicators.first, r != id, chance(0.4) { parent = pick(delayedReplicators.filter { $0 != id }) }
        if let p = forcedParent { parent = p; forcedParent = nil }
        ops.append(.addSublayer(parent: parent, child: id))
        // A delayed replicator made now gets a sublayer of its own (most layers are made
        // before any animation, so later ones seldom land under it).
        if delayedReplicators.last == id && layerCount < maxLayers && chance(0.8) {
            forcedParent = id
            makeLayer()
        }
    }

    mutating func value(for key: String) -> ScriptValue {
        switch key {
        case "opacity", "shadowOpacity": return .scalar(number(0...1))
        case "position": return .point(number(-200...200), number(-200...200))
        case "anchorPoint": return .point(number(0...1), number(0...1))
        case "bounds": return .rect(0, 0, number(0...300), number(0...300))
        case "backgroundColor": return .color([number(0...1), number(0...1), number(0...1), number(0...1)])
        case "transform":
            let a = number(-3...3), s = number(0.2...2)
            if chance(0.25) {
                // A turn about y with perspective: the layer may show its back.
                let b = number(-3...3)
                return .transform([cos(b), 0, -sin(b), -sin(b) / 500, 0, 1, 0, 0, sin(b), 0, cos(b), cos(b) / 500,
                                   number(-50...50), number(-50...50), 0, 1])
            }
            return .transform([s * cos(a), s * sin(a), 0, 0, -s * sin(a), s * cos(a), 0, 0, 0, 0, 1, 0,
                               number(-50...50), number(-50...50), 0, 1])
        case "sublayerTransform":
            // Perspective for the sublayers, or a plain scale.
            return chance(0.5) ? .transform([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / number(200...800), 0, 0, 0, 1])
                : .transform([number(0.5...2), 0, 0, 0, 0, number(0.5...2), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        case "masksToBounds", "isDoubleSided": return .bool(chance(0.5))
        case "borderWidth", "anchorPointZ": return .scalar(number(0...10))
        case "position.x", "bounds.size.width": return .scalar(number(0...300))
        case "isHidden": return .bool(chance(0.5))
        case "contents": return .object(Int.random(in: 0...9, using: &rng))
        case "progress": return .scalar(number(0...10))
        case "shadowPath", "path": return .path(pathValue())
        case "levels": return .numbers((0..<3).map { _ in number(-10...10) })
        case "colors":
            // Mostly two colours (they interpolate colour by colour), sometimes three.
            return .colors((0..<(chance(0.1) ? 3 : 2)).map { _ in [number(0...1), number(0...1), number(0...1), number(0...1)] })
        case "locations": return .numbers([number(0...0.5), number(0.5...1)])
        case "startPoint": return .point(number(0...1), number(0...1))
        case "fontSize": return .scalar(number(6...48))
        case "foregroundColor": return .color([number(0...1), number(0...1), number(0...1), number(0...1)])
        case "instanceTransform":
            return .transform([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, number(-30...30), number(-30...30), 0, 1])
        case "instanceAlphaOffset": return .scalar(number(-0.3...0))
        case "instanceRedOffset": return .scalar(number(-0.5...0.2))
        // Replicators repeat their sublayers in the render snapshot: none, one, a few.
        case "instanceCount": return .scalar(Double(Int.random(in: 0...4, using: &rng)))
        // Mostly forward, sometimes ahead (negative), often long enough to reach before an
        // animation's start or past its end.
        case "instanceDelay": return .scalar(pick([0.05, 0.1, 0.25, 0.5, -0.2, number(-0.5...1)]))
        // Fields of a transform (Apple's key-value coding extensions).
        case "startPoint.x": return .scalar(number(0...1))
        case let k where k.hasSuffix(".translation"): return .size(number(-50...50), number(-50...50))
        case let k where k.contains(".rotation"): return .scalar(number(-3...3))
        case let k where k.contains(".scale"): return .scalar(number(0.2...2))
        case let k where k.contains(".translation."): return .scalar(number(-50...50))
        default: return .scalar(number(0...40))
        }
    }

    /// `v` as a program often hands it over: points, sizes, rectangles and transforms wrapped
    /// in an `NSValue` one time in three.
    mutating func handed(_ v: ScriptValue) -> ScriptValue {
        switch v {
        case .point, .size, .rect, .transform: return chance(1.0 / 3) ? .wrapped(v) : v
        default: return v
        }
    }

    /// The key paths into values the generator uses (Apple's key-value coding extensions:
    /// `transform.translation` a size, the others numbers), fields of the layer classes' keys
    /// among them (`startPoint.x` of a gradient, `instanceTransform.rotation.z` of a
    /// replicator; refused with a diagnostic on other layers, by both engines).
    static let transformFieldKeys = ["transform.rotation.z", "transform.rotation.x", "transform.rotation.y", "transform.rotation",
                                     "transform.scale", "transform.scale.xy", "transform.scale.x", "transform.translation",
                                     "transform.translation.y", "sublayerTransform.rotation.z", "sublayerTransform.translation",
                                     "startPoint.x", "instanceTransform.rotation.z", "instanceTransform.translation"]

    /// A path of one of three structures (so that two paths often have the same elements and
    /// morph point by point, and sometimes not and switch): a closed quadrilateral, an open
    /// curve (cubic then quadratic), or a triangle; one in ten has a random structure.
    mutating func pathValue() -> [ScriptPathElement] {
        func c() -> Double { number(-100...100) }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<4: return [.move(c(), c()), .line(c(), c()), .line(c(), c()), .line(c(), c()), .close]
        case 4..<7: return [.move(c(), c()), .cubic(c(), c(), c1x: c(), c1y: c(), c2x: c(), c2y: c()), .quad(c(), c(), cx: c(), cy: c())]
        case 7..<9: return [.move(c(), c()), .line(c(), c()), .line(c(), c())]
        default:
            var p: [ScriptPathElement] = [.move(c(), c())]
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                p.append(chance(0.5) ? .line(c(), c()) : .quad(c(), c(), cx: c(), cy: c()))
            }
            return p
        }
    }

    static let timingKeys = ["duration", "repeatCount", "repeatDuration", "autoreverses", "fillMode",
                             "beginTime", "speed", "timeOffset"]

    /// Sets one CAMediaTiming field of a layer (SEMANTICS.md "Fidelity rules", layer timing),
    /// one time in four back to its default. `fillMode` is a scalar 0...3 (removed,
    /// forwards, backwards, both; see `Op.set`); a beginTime is near the current time.
    mutating func layerTiming() {
        let l = layer()
        let key = pick(Self.timingKeys)
        let back = chance(0.25)
        let v: ScriptValue
        switch key {
        case "duration": v = .scalar(back ? 0 : number(0.2...2))
        case "repeatCount": v = .scalar(back ? 0 : pick([1.5, 2, 3, 1000]))
        case "repeatDuration": v = .scalar(back ? 0 : number(0.5...4))
        case "autoreverses": v = .bool(!back)
        case "fillMode": v = .scalar(back ? 0 : Double(Int.random(in: 1...3, using: &rng)))
        case "beginTime": v = .scalar(back ? 0 : max(0, time + number(-1...1)))
        case "speed": v = .scalar(back ? 1 : pick([0, 0.5, 1.5, 2]))
        default: v = .scalar(back ? 0 : number(0...1))
        }
        ops.append(.set(layer: l, keyPath: key, value: v))
        if !back { timedLayers.append(l) }
    }

    static let settableKeys = ["opacity", "position", "bounds", "backgroundColor", "cornerRadius", "transform",
                               "position.x", "bounds.size.width", "zPosition", "anchorPoint", "isHidden",
                               "contents", "progress", "sublayerTransform", "masksToBounds", "isDoubleSided",
                               "borderWidth", "shadowOpacity", "anchorPointZ", "shadowPath", "path", "levels",
                               "colors", "locations", "startPoint", "fontSize", "foregroundColor", "instanceTransform",
                               "instanceAlphaOffset", "instanceCount", "instanceRedOffset", "instanceDelay"] + transformFieldKeys
    static let animatableKeys = ["opacity", "position", "bounds", "backgroundColor", "cornerRadius", "transform",
                                 "position.x", "bounds.size.width", "zPosition", "progress", "shadowPath", "path",
                                 "levels", "colors", "fontSize", "instanceTransform", "instanceDelay"] + transformFieldKeys
    /// Keys whose values are not numbers to add: no `byValue`.
    static let noByKeys: Set<String> = ["backgroundColor", "transform", "shadowPath", "path", "colors", "instanceTransform"]

    mutating func timing(_ a: inout ScriptAnimation) {
        a.duration = chance(0.2) ? 0 : number(0.05...2)
        if chance(0.2) { a.beginTime = time + number(0...1) }
        if chance(0.15) { a.speed = Float(pick([0.5, 2, 1.5])) }
        if chance(0.15) { a.timeOffset = number(0...0.5) }
        if chance(0.2) { a.repeatCount = Float(pick([2, 1.5, 3])) } else if chance(0.1) { a.repeatDuration = number(0.5...3) }
        a.autoreverses = chance(0.2)
        a.fillMode = pick(["removed", "removed", "forwards", "backwards", "both"])
        a.removedOnCompletion = chance(0.85)
        if chance(0.6) { a.timingFunction = pick(Self.curves) }
        if chance(0.3) { tags += 1; a.delegateTag = tags }
    }

    mutating func animation(depth d: Int = 0) -> ScriptAnimation {
        let roll = Double.random(in: 0..<1, using: &rng)
        if roll < 0.5 {
            var a = ScriptAnimation(kind: .basic)
            let key = pick(Self.animatableKeys)
            a.keyPath = key
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: a.from = value(for: key); a.to = value(for: key)
            case 1: a.from = value(for: key); a.by = value(for: key)
            case 2: a.to = value(for: key); a.by = value(for: key)
            case 3: a.from = value(for: key)
            case 4: a.to = value(for: key)
            default: a.by = value(for: key)
            }
            if key == "backgroundColor" || key == "transform" || key == "colors" || key == "instanceTransform" {
                a.by = nil
                if a.to == nil { a.to = value(for: key) }
            }
            a.from = a.from.map { handed($0) }
            a.to = a.to.map { handed($0) }
            a.by = a.by.map { handed($0) }
            // Paths have no byValue (they are not numbers).
            if Self.noByKeys.contains(key) { a.by = nil }
            a.additive = chance(0.15)
            a.cumulative = chance(0.1)
            timing(&a)
            if chance(0.2) {
                // Under-, critically and over-damped springs; a velocity either way.
                var sp = ScriptSpring(mass: pick([1, 0.5, 2, 3]), stiffness: number(10...400),
                                      damping: pick([0, 1, 5, 10, 20, 60]), velocity: pick([0, 0, 2, -3, 10]))
                if chance(0.2) { sp.damping = 2 * (sp.stiffness * sp.mass).squareRoot() }
                a.spring = sp
            }
            return a
        } else if roll < 0.75 {
            var a = ScriptAnimation(kind: .keyframe)
            // Whole transforms (turning keys), objects (sprite frames, path morphs) and a
            // custom key's arrays among them.
            let key = pick(["opacity", "position", "backgroundColor", "cornerRadius", "position.x", "transform",
                            "contents", "shadowPath", "path", "levels", pick(Self.transformFieldKeys)])
            a.keyPath = key
            let mode = pick(["linear", "discrete", "paced", "cubic", "cubicPaced"])
            a.calculationMode = mode
            if key == "position" && chance(0.4) {
                var path: [ScriptPathElement] = [.move(number(-100...100), number(-100...100))]
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0: path.append(.line(number(-100...100), number(-100...100)))
                    case 1: path.append(.quad(number(-100...100), number(-100...100), cx: number(-100...100), cy: number(-100...100)))
                    default: path.append(.cubic(number(-100...100), number(-100...100), c1x: number(-100...100),
                                                c1y: number(-100...100), c2x: number(-100...100), c2y: number(-100...100)))
                    }
                }
                if chance(0.2) { path.append(.close) }
                a.path = path
                if chance(0.4) { a.rotationMode = pick(["auto", "autoReverse"]) }
            } else {
                let n = Int.random(in: 2...6, using: &rng)
                if key == "shadowPath" || key == "path" {
                    // Mostly one structure (a morph), sometimes several (steps).
                    let shape = pathValue()
                    a.values = (0..<n).map { _ in
                        if chance(0.2) { return .path(pathValue()) }
                        return .path(shape.map { jitter($0) })
                    }
                } else {
                    a.values = (0..<n).map { _ in let v = value(for: key); return handed(v) }
                }
                if chance(0.4) && mode != "paced" && mode != "cubicPaced" {
                    let count = mode == "discrete" ? n + 1 : n
                    var t = (0..<count).map { _ in number(0...1) }.sorted()
                    t[0] = 0; t[count - 1] = 1
                    a.keyTimes = t
                }
            }
            a.cumulative = chance(0.1)
            timing(&a)
            return a
        } else if roll < 0.9 && d < 2 {
            var a = ScriptAnimation(kind: .group)
            var members = (0..<Int.random(in: 1...3, using: &rng)).map { _ in animation(depth: d + 1) }.filter { $0.kind != .transition }
            // Half the members take the group's timing and none of their own, as most real
            // groups' members do (the engine runs those on the group's timing entry).
            for i in members.indices where members[i].kind != .group && chance(0.5) {
                members[i].beginTime = 0; members[i].duration = 0; members[i].speed = 1
                members[i].timeOffset = 0; members[i].repeatCount = 0; members[i].repeatDuration = 0
                members[i].autoreverses = false; members[i].fillMode = "removed"
                members[i].timingFunction = nil; members[i].spring = nil; members[i].cumulative = false
            }
            a.children = members
            timing(&a)
            return a
        } else {
            var a = ScriptAnimation(kind: .transition)
            a.transitionType = pick(["fade", "moveIn", "push", "reveal"])
            if chance(0.5) { a.transitionSubtype = pick(["fromLeft", "fromRight", "fromTop", "fromBottom"]) }
            timing(&a)
            return a
        }
    }

    /// The element moved by up to 50 in each coordinate (the same kind).
    mutating func jitter(_ e: ScriptPathElement) -> ScriptPathElement {
        func d() -> Double { number(-50...50) }
        switch e {
        case let .move(x, y): return .move(x + d(), y + d())
        case let .line(x, y): return .line(x + d(), y + d())
        case let .quad(x, y, cx, cy): return .quad(x + d(), y + d(), cx: cx + d(), cy: cy + d())
        case let .cubic(x, y, c1x, c1y, c2x, c2y):
            return .cubic(x + d(), y + d(), c1x: c1x + d(), c1y: c1y + d(), c2x: c2x + d(), c2y: c2y + d())
        case .close: return .close
        }
    }

    mutating func behavior() -> ScriptBehavior {
        chance(0.4) ? .null : .animation({ var a = ScriptAnimation(kind: .basic); a.duration = number(0.1...1); if chance(0.5) { a.timingFunction = pick(Self.curves) }; return a }())
    }

    /// A frame, and its render snapshot (no randomness drawn: a seed's script is the one it
    /// was before snapshots were traced, with snapshot ops added).
    mutating func frame() {
        time += number(0.01...0.4)
        ops.append(.frame(time: time))
        ops.append(.snapshot)
    }

    mutating func step() {
        let r = Double.random(in: 0..<1, using: &rng)
        switch r {
        case ..<0.22:
            // One set in twelve is a layer timing field (about one per script).
            if chance(1.0 / 12) { layerTiming(); break }
            ops.append(.set(layer: layer(), keyPath: pick(Self.settableKeys), value: value(for: pick(Self.settableKeys))))
            // keep the value's type matching the key
            if case let .set(l, k, _) = ops.last! { let v = value(for: k); ops[ops.count - 1] = .set(layer: l, keyPath: k, value: handed(v)) }
        case ..<0.32:
            frame()
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                ops.append(.read(layer: layer(), keyPath: pick(Self.readKeys)))
            }
        case ..<0.42:
            ops.append(.add(layer: layer(), key: chance(0.8) ? pick(["a", "b", "c", "opacity", "position"]) : nil,
                            animation: animation()))
        case ..<0.50:
            if depth < 3 {
                ops.append(.begin); depth += 1
                if chance(0.5) { ops.append(.setAnimationDuration(number(0.1...1.5))) }
                if chance(0.2) { ops.append(.setDisableActions(chance(0.5))) }
                if chance(0.3) { ops.append(.setTimingFunction(pick(Self.curves))) }
                if chance(0.4) {
                    tags += 1
                    var inner: [Op] = []
                    if chance(0.5) { inner.append(.set(layer: layer(), keyPath: "opacity", value: .scalar(number(0...1)))) }
                    if chance(0.3) && layerCount > 1 { inner.append(.removeFromSuperlayer(layer: layer())) }
                    ops.append(.setCompletion(tag: tags, ops: inner))
                }
            } else {
                ops.append(.commit); depth -= 1
            }
        case ..<0.58:
            if depth > 0 { ops.append(.commit); depth -= 1 } else { frame() }
        case ..<0.63:
                if layerCount < maxLayers { makeLayer() } else { ops.append(.readKeys(layer: layer())) }
        case ..<0.67:
            let l = layer()
            if !timedLayers.isEmpty && chance(0.3) {
                ops.append(.addSublayer(parent: pick(timedLayers), child: l))
            } else {
                ops.append(chance(0.5) ? .removeFromSuperlayer(layer: l) : .addSublayer(parent: chance(0.5) ? -1 : layer(), child: l))
            }
        case ..<0.72:
            ops.append(chance(0.6) ? .removeAnimation(layer: layer(), key: pick(["a", "b", "c", "opacity", "position", "transition"]))
                                   : .removeAllAnimations(layer: layer()))
        case ..<0.78:
            var m: [String: ScriptBehavior] = [:]
            // Custom keys ("progress") too: their actions start from the value shown.
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                m[pick(Self.scalarKeys + ["position", "backgroundColor", "progress", "onOrderIn", "onOrderOut", "shadowPath", "levels"])] = behavior()
            }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: ops.append(.setActions(layer: layer(), actions: m))
            case 1: ops.append(.setDelegate(layer: layer(), actions: m))
            default: ops.append(.setStyle(layer: layer(), actions: m))
            }
        case ..<0.84:
            if !viewIDs.isEmpty && chance(0.5) { viewBlock(); break }
            ops.append(.readKeys(layer: layer()))
        default:
            frame()
            ops.append(.read(layer: layer(), keyPath: pick(Self.readKeys)))
        }
    }

    /// A view animation block (UIKit's API on View): changes of the views' animatable
    /// properties, sometimes one without animation, with a delay, curve options, repetition
    /// or the spring variant, and a traced completion.
    mutating func viewBlock() {
        var inner: [Op] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let key = pick(["opacity", "position", "bounds", "backgroundColor", "transform"])
            inner.append(.set(layer: pick(viewIDs), keyPath: key, value: value(for: key)))
        }
        if chance(0.2) {
            let key = pick(["opacity", "position"])
            inner.append(.performWithoutAnimation([.set(layer: pick(viewIDs), keyPath: key, value: value(for: key))]))
        }
        var options: UInt = UInt(Int.random(in: 0...3, using: &rng)) << 16
        if chance(0.1) { options |= 1 << 4 }                      // autoreverse
        if chance(0.15) { options |= 1 << 5 | 1 << 6 }            // override inherited duration and curve
        tags += 1
        let block = ScriptViewBlock(duration: number(0.1...1), delay: chance(0.3) ? number(0...0.5) : 0, options: options,
                                    spring: chance(0.25) ? [number(0.1...1.2), number(-2...4)] : nil,
                                    ops: inner, tag: chance(0.7) ? tags : nil)
        ops.append(.viewAnimate(block))
    }
}
