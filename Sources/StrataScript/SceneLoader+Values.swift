import Foundation

extension SceneReader {
    // MARK: values

    func keyKind(_ f: Field, _ key: String, shape: Bool?, at offset: Int? = nil) -> SceneValueKind? {
        guard let (kind, shapeOnly) = SceneKeys.kind(of: key) else {
            let near = SceneKeys.names.filter { $0.lowercased().hasPrefix(String(key.lowercased().prefix(3))) }.prefix(5)
            problem(f, "unknown key path \"\(key)\"\(near.isEmpty ? "" : "; did you mean \(near.joined(separator: ", "))?")", at: offset)
            return nil
        }
        if shapeOnly && shape == false {
            problem(f, "\(key) is a CAShapeLayer property; these layers are CALayers", at: offset)
            return nil
        }
        return kind
    }

    func readProperties(_ f: Field?, shape: Bool?, generated: Bool) -> [(String, ValueSpec)] {
        guard let f else { return [] }
        guard case .object(let ms) = f.node.value else {
            problem(f, "expected the properties (an object of key path: value), got \(f.node.kindName)")
            return []
        }
        var out: [(String, ValueSpec)] = []
        for m in ms {
            let mf = f.member(m.key, m.value)
            guard let kind = keyKind(mf, m.key, shape: shape, at: m.keyOffset) else { continue }
            if let v = value(mf, kind, generated: generated) { out.append((m.key, v)) }
        }
        return out
    }

    /// A value of `kind`: literal, {"random": [lo, hi]}, and in generators {"grid": ...} or {"hue": ...}.
    func value(_ f: Field, _ kind: SceneValueKind, generated: Bool = false) -> ValueSpec? {
        if case .object(let ms) = f.node.value, let first = ms.first {
            switch first.key {
            case "random":
                guard let o = object(f, ["random"], what: "a random value") else { return nil }
                guard let rf = o["random"], let pair = array(rf, what: "[lowest, highest]"), pair.count == 2 else {
                    problem(o["random"] ?? f, "expected [lowest, highest], each \(kind.expected)")
                    return nil
                }
                guard kind != .bool, kind != .object, kind != .path else { problem(f, "\(kind.expected) cannot be random"); return nil }
                guard let lo = components(pair[0], kind), let hi = components(pair[1], kind) else { return nil }
                return .random(kind, lo: lo, hi: hi)
            case "grid" where generated:
                guard kind == .point else { problem(f, "a grid lays out points (position, anchorPoint)"); return nil }
                guard let o = object(f, ["grid"], what: "a grid"),
                      let g = o["grid"].flatMap({ object($0, ["rect", "columns"], required: ["rect"], what: "a grid") }),
                      let rf = g["rect"], let r = components(rf, .rect) else { return nil }
                let columns = g["columns"].flatMap { int($0, in: 1...1_000_000, what: "columns") }
                return .grid(x: r[0], y: r[1], width: r[2], height: r[3], columns: columns)
            case "hue" where generated:
                guard kind == .color else { problem(f, "a hue is a colour"); return nil }
                guard let o = object(f, ["hue", "alpha"], what: "a hue"), let hf = o["hue"], let by = string(hf) else { return nil }
                guard by == "index" || by == "parent" else { problem(hf, "expected \"index\" or \"parent\""); return nil }
                let alpha = o["alpha"].flatMap { double($0, in: 0...1, what: "alpha") } ?? 1
                return .hue(byParent: by == "parent", alpha: alpha)
            default:
                break
            }
        }
        if kind == .path {
            if case .object = f.node.value { problem(f, "expected \(kind.expected)"); return nil }
            return readPath(f).map { .literal(.path($0)) }
        }
        guard let c = components(f, kind) else { return nil }
        if kind == .color, c.isEmpty { return .literal(.color(nil)) }
        return .literal(SceneValues.make(kind, c))
    }

    /// A literal's numbers (empty: a nil colour).
    func components(_ f: Field, _ kind: SceneValueKind) -> [Double]? {
        switch (kind, f.node.value) {
        case (.bool, .bool(let b)): return [b ? 1 : 0]
        case (.scalar, _):
            guard let x = number(f) else { return nil }
            return [x]
        case (.object, _):
            guard let x = int(f, in: 0...Int(Int32.max), what: "contents") else { return nil }
            return [Double(x)]
        case (.color, .null): return []
        case (.color, .string(let s)) where s.hasPrefix("#"):
            let hex = s.dropFirst()
            guard hex.count == 6 || hex.count == 8, let v = UInt64(hex, radix: 16) else {
                problem(f, "expected \"#RRGGBB\" or \"#RRGGBBAA\", got \"\(s.prefix(20))\"")
                return nil
            }
            let n = hex.count == 6 ? (v << 8 | 0xFF) : v
            return [Double(n >> 24 & 0xFF) / 255, Double(n >> 16 & 0xFF) / 255, Double(n >> 8 & 0xFF) / 255, Double(n & 0xFF) / 255]
        case (_, .array(let items)):
            guard items.count == kind.width else {
                problem(f, "expected \(kind.expected); got \(items.count) number\(items.count == 1 ? "" : "s")")
                return nil
            }
            var out: [Double] = []
            for (i, item) in items.enumerated() {
                guard let x = number(f.item(i, item)) else { return nil }
                out.append(x)
            }
            return out
        default:
            problem(f, "expected \(kind.expected), got \(f.node.kindName)")
            return nil
        }
    }

    // MARK: animations

    static let animationFields = ["kind", "keyPath", "from", "to", "by", "values", "keyTimes", "calculationMode", "path",
                                  "rotationMode", "animations", "type", "subtype", "beginTime", "duration", "speed",
                                  "timeOffset", "repeatCount", "repeatDuration", "autoreverses", "fillMode",
                                  "removedOnCompletion", "additive", "cumulative", "timingFunction", "spring"]

    func readAnimation(_ f: Field, defaultKeyPath: String? = nil) -> AnimationSpec? {
        guard let o = object(f, Self.animationFields, required: ["kind"], what: "an animation") else { return nil }
        guard let kf = o["kind"], let kindName = string(kf) else { return nil }
        guard let kind = ScriptAnimation.Kind(rawValue: kindName) else {
            problem(kf, "unknown animation kind \"\(kindName)\": expected basic, keyframe, group or transition")
            return nil
        }
        var a = ScriptAnimation(kind: kind)
        var spec = AnimationSpec(base: a, isLiteral: true)
        let keyPath = o["keyPath"].flatMap { string($0) } ?? (kind == .basic || kind == .keyframe ? defaultKeyPath : nil)
        a.keyPath = keyPath
        var valueKind: SceneValueKind?
        if kind == .basic || kind == .keyframe {
            if let keyPath { valueKind = keyKind(o["keyPath"] ?? f, keyPath, shape: nil) } else { problem(f, "a \(kindName) animation needs \"keyPath\"") }
        } else if let k = o["keyPath"], kind == .transition {
            problem(k, "a transition has no key path")
        }
        func val(_ key: String) -> ValueSpec? {
            guard let vf = o[key] else { return nil }
            guard kind == .basic else { problem(vf, "\"\(key)\" belongs to a basic animation"); return nil }
            guard let vk = valueKind else { return nil }
            return value(vf, vk)
        }
        spec.from = val("from"); spec.to = val("to"); spec.by = val("by")
        if let vf = o["values"] {
            if kind != .keyframe { problem(vf, "\"values\" belongs to a keyframe animation") }
            else if let items = array(vf, what: "the keyframe values"), let vk = valueKind {
                if items.count > 100_000 { problem(vf, "at most 100,000 keyframe values") }
                else { spec.values = items.compactMap { value($0, vk) } }
            }
        }
        if let tf = o["keyTimes"], let items = array(tf, what: "the key times") {
            a.keyTimes = items.compactMap { double($0, in: 0...1, what: "key time") }
        }
        if let mf = o["calculationMode"], let m = string(mf) {
            if ["linear", "discrete", "paced", "cubic", "cubicPaced"].contains(m) { a.calculationMode = m }
            else { problem(mf, "expected linear, discrete, paced, cubic or cubicPaced") }
        }
        if let rf = o["rotationMode"], let m = string(rf) {
            if ["auto", "autoReverse"].contains(m) { a.rotationMode = m } else { problem(rf, "expected auto or autoReverse") }
        }
        if let pf = o["path"] {
            if kind != .keyframe { problem(pf, "\"path\" belongs to a keyframe animation") }
            else if valueKind != nil && valueKind != .point { problem(pf, "a path animates a point (position, anchorPoint)") }
            else { a.path = readPath(pf) }
        }
        if let cf = o["animations"] {
            if kind != .group { problem(cf, "\"animations\" belongs to a group") }
            else if let items = array(cf, what: "the group's animations") {
                spec.children = items.compactMap { readAnimation($0) }
            }
        }
        if let tf = o["type"], let t = string(tf) {
            if kind != .transition { problem(tf, "\"type\" belongs to a transition") }
            else if ["fade", "moveIn", "push", "reveal"].contains(t) { a.transitionType = t }
            else { problem(tf, "expected fade, moveIn, push or reveal") }
        }
        if let sf = o["subtype"], let t = string(sf) {
            if ["fromLeft", "fromRight", "fromTop", "fromBottom"].contains(t) { a.transitionSubtype = t }
            else { problem(sf, "expected fromLeft, fromRight, fromTop or fromBottom") }
        }
        let big = 1e9
        if let x = o["beginTime"].flatMap({ double($0, in: -big...big, what: "beginTime") }) { a.beginTime = x }
        if let x = o["duration"].flatMap({ double($0, in: 0...big, what: "duration") }) { a.duration = x }
        if let x = o["speed"].flatMap({ double($0, in: -1e6...1e6, what: "speed") }) { a.speed = Float(x) }
        if let x = o["timeOffset"].flatMap({ double($0, in: -big...big, what: "timeOffset") }) { a.timeOffset = x }
        if let x = o["repeatCount"].flatMap({ double($0, in: 0...Double(Float.greatestFiniteMagnitude), what: "repeatCount") }) { a.repeatCount = Float(x) }
        if let x = o["repeatDuration"].flatMap({ double($0, in: 0...big, what: "repeatDuration") }) { a.repeatDuration = x }
        if let b = o["autoreverses"].flatMap({ bool($0) }) { a.autoreverses = b }
        if let ff = o["fillMode"], let m = string(ff) {
            if ["removed", "forwards", "backwards", "both"].contains(m) { a.fillMode = m } else { problem(ff, "expected removed, forwards, backwards or both") }
        }
        if let b = o["removedOnCompletion"].flatMap({ bool($0) }) { a.removedOnCompletion = b }
        if let b = o["additive"].flatMap({ bool($0) }) { a.additive = b }
        if let b = o["cumulative"].flatMap({ bool($0) }) { a.cumulative = b }
        if let tf = o["timingFunction"] { a.timingFunction = timingCurve(tf) }
        if let sf = o["spring"] {
            // {"mass": 1, "stiffness": 100, "damping": 10, "initialVelocity": 0}: a CASpringAnimation.
            if kind != .basic { problem(sf, "\"spring\" belongs to a basic animation") }
            else if let so = object(sf, ["mass", "stiffness", "damping", "initialVelocity"], required: [], what: "a spring") {
                var sp = ScriptSpring()
                if let x = so["mass"].flatMap({ double($0, in: 1e-6...1e6, what: "mass") }) { sp.mass = x }
                if let x = so["stiffness"].flatMap({ double($0, in: 1e-6...1e9, what: "stiffness") }) { sp.stiffness = x }
                if let x = so["damping"].flatMap({ double($0, in: 0...1e9, what: "damping") }) { sp.damping = x }
                if let x = so["initialVelocity"].flatMap({ double($0, in: -1e6...1e6, what: "initialVelocity") }) { sp.velocity = x }
                a.spring = sp
            }
        }

        spec.base = a
        spec.isLiteral = [spec.from, spec.to, spec.by].allSatisfy { $0?.isLiteral ?? true }
            && (spec.values?.allSatisfy(\.isLiteral) ?? true) && (spec.children?.allSatisfy(\.isLiteral) ?? true)
        if spec.isLiteral {
            // Literal values are built once.
            var r = SceneRandom(seed: 0)
            spec.isLiteral = false
            spec.base = spec.make(&r)
            spec.isLiteral = true
        }
        return spec
    }

    static let namedCurves: [String: ScriptCurve] = [
        "linear": ScriptCurve(0, 0, 1, 1), "easeIn": ScriptCurve(0.42, 0, 1, 1), "easeOut": ScriptCurve(0, 0, 0.58, 1),
        "easeInEaseOut": ScriptCurve(0.42, 0, 0.58, 1), "default": ScriptCurve(0.25, 0.1, 0.25, 1),
    ]

    func timingCurve(_ f: Field) -> ScriptCurve? {
        if case .string(let s) = f.node.value {
            guard let c = Self.namedCurves[s] else {
                problem(f, "unknown timing function \"\(s)\": expected \(Self.namedCurves.keys.sorted().joined(separator: ", ")) or [c1x, c1y, c2x, c2y]")
                return nil
            }
            return c
        }
        guard let items = array(f, what: "a timing function name or [c1x, c1y, c2x, c2y]") else { return nil }
        guard items.count == 4 else { problem(f, "expected four control-point numbers [c1x, c1y, c2x, c2y]"); return nil }
        let v = items.compactMap { number($0) }
        guard v.count == 4 else { return nil }
        guard (0...1).contains(v[0]), (0...1).contains(v[2]), v.allSatisfy({ abs($0) < 1e6 }) else {
            problem(f, "control points' x values are between 0 and 1")
            return nil
        }
        return ScriptCurve(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]))
    }

    func readPath(_ f: Field) -> [ScriptPathElement]? {
        guard let items = array(f, what: "the path's elements") else { return nil }
        var out: [ScriptPathElement] = []
        for item in items {
            if case .string("close") = item.node.value { out.append(.close); continue }
            guard let o = object(item, ["move", "line", "quad", "cubic"], what: "a path element (move, line, quad, cubic or \"close\")"),
                  let (key, vf) = o.list.first, o.list.count == 1 else {
                problem(item, "a path element has one of move, line, quad, cubic")
                continue
            }
            // An unknown key was reported by `object`; it has no element to read.
            guard let need = ["move": 2, "line": 2, "quad": 4, "cubic": 6][key] else { continue }
            guard let xs = array(vf, what: "the element's numbers") else { continue }
            let v = xs.compactMap { number($0) }
            guard v.count == need, xs.count == need else { problem(vf, "\(key) takes \(need) numbers"); continue }
            switch key {
            case "move": out.append(.move(v[0], v[1]))
            case "line": out.append(.line(v[0], v[1]))
            case "quad": out.append(.quad(v[0], v[1], cx: v[2], cy: v[3]))
            default: out.append(.cubic(v[0], v[1], c1x: v[2], c1y: v[3], c2x: v[4], c2y: v[5]))
            }
        }
        return out
    }
}
