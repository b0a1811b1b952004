import Foundation

extension SceneReader {
    // MARK: frame steps

    func group(_ f: Field) -> [Int]? {
        if case .array(let items) = f.node.value {
            var out: [Int] = []
            for (i, item) in items.enumerated() {
                guard let name = string(f.item(i, item), what: "a layer id") else { return nil }
                guard let id = ids[name] else { problem(f.item(i, item), "unknown layer id \"\(name)\""); return nil }
                out.append(id)
            }
            guard !out.isEmpty else { problem(f, "expected at least one layer"); return nil }
            return out
        }
        guard let name = string(f, what: "a group name, a layer id or a list of layer ids") else { return nil }
        guard let g = groups[name] else {
            let known = groups.keys.sorted()
            problem(f, "unknown group or layer id \"\(name)\"\(known.isEmpty ? "" : "; defined: \(known.prefix(10).joined(separator: ", "))\(known.count > 10 ? " ..." : "")")")
            return nil
        }
        guard !g.isEmpty else { problem(f, "group \"\(name)\" has no layers (with these parameters)"); return nil }
        return g
    }

    func pickMode(_ o: Members) -> PickMode? {
        guard let f = o["pick"] else { return .random }
        guard let s = string(f) else { return nil }
        guard let m = PickMode(rawValue: s) else { problem(f, "expected random, sequential or all"); return nil }
        return m
    }

    func count(_ o: Members, _ mode: PickMode) -> Int? {
        guard let f = o["count"] else { return mode == .all ? 0 : 1 }
        if mode == .all { problem(f, "\"count\" is the group's size when \"pick\" is \"all\"") }
        return int(f, in: 0...limits.maxOperationsPerFrame, what: "count")
    }

    func every(_ o: Members) -> Int {
        o["every"].flatMap { int($0, in: 1...limits.maxFrames, what: "every") } ?? 1
    }

    func readStep(_ f: Field) -> SceneStep? {
        guard let o = object(f, ["transaction", "animate", "move", "read", "removeAnimations"], what: "a frame step"),
              let (kind, body) = o.list.first else { return nil }
        guard o.list.count == 1 else {
            problem(f, "a step has exactly one of transaction, animate, move, read, removeAnimations")
            return nil
        }
        switch kind {
        case "transaction":
            guard let t = object(body, ["every", "duration", "timingFunction", "disableActions", "completion", "changes"],
                                 required: ["changes"], what: "a transaction") else { return nil }
            var settings: [Op] = []
            if let b = t["disableActions"].flatMap({ bool($0) }) { settings.append(.setDisableActions(b)) }
            if let d = t["duration"].flatMap({ double($0, in: 0...1e6, what: "duration") }) { settings.append(.setAnimationDuration(d)) }
            if let tf = t["timingFunction"], let c = timingCurve(tf) { settings.append(.setTimingFunction(c)) }
            let completion = t["completion"].flatMap { bool($0) } ?? false
            var changes: [ChangeSpec] = []
            if let cf = t["changes"], let items = array(cf, what: "the changes") {
                for item in items {
                    guard let c = object(item, ["layers", "pick", "count", "set", "oneOf"], required: ["layers"], what: "a change"),
                          let lf = c["layers"], let layers = group(lf), let mode = pickMode(c), let n = count(c, mode) else { continue }
                    let shape = layers.allSatisfy { isShape[$0] }
                    var alternatives: [[(String, ValueSpec)]] = []
                    if let s = c["set"] {
                        if c["oneOf"] != nil { problem(item, "a change has \"set\" or \"oneOf\", not both") }
                        alternatives = [readProperties(s, shape: shape, generated: false)]
                    } else if let of = c["oneOf"], let alts = array(of, what: "the alternatives") {
                        alternatives = alts.map { readProperties($0, shape: shape, generated: false) }
                        if alternatives.isEmpty { problem(of, "expected at least one alternative") }
                    } else {
                        problem(item, "a change needs \"set\" (key path: value) or \"oneOf\" (a list of them)")
                    }
                    if !alternatives.isEmpty { changes.append(ChangeSpec(layers: layers, pick: mode, count: n, alternatives: alternatives)) }
                }
            }
            return .transaction(every: every(t), settings: settings, completion: completion, changes: changes)
        case "animate":
            guard let a = object(body, ["every", "layers", "pick", "count", "key", "animations"], required: ["layers", "animations"],
                                 what: "an animate step"),
                  let lf = a["layers"], let layers = group(lf), let mode = pickMode(a), let n = count(a, mode) else { return nil }
            var key: String? = "scene"
            if let kf = a["key"] { if case .null = kf.node.value { key = nil } else { key = string(kf) } }
            guard let af = a["animations"], let items = array(af, what: "the animations") else { return nil }
            let specs = items.compactMap { readAnimation($0) }
            guard specs.count == items.count else { return nil }
            guard !specs.isEmpty else { problem(af, "expected at least one animation"); return nil }
            return .animate(every: every(a), layers: layers, pick: mode, count: n, key: key, animations: specs)
        case "move":
            guard let m = object(body, ["every", "count", "subtrees", "into"], required: ["subtrees", "into"], what: "a move step"),
                  let sf = m["subtrees"], let subtrees = group(sf), let inf = m["into"], let into = group(inf) else { return nil }
            let n = m["count"].flatMap { int($0, in: 0...limits.maxOperationsPerFrame, what: "count") } ?? 1
            // A subtree moved into itself or one of its own sublayers would be a cycle.
            let roots = Set(subtrees)
            for t in into {
                var x = t
                while x >= 0 {
                    if roots.contains(x) { problem(inf, "a subtree cannot move into itself or its own sublayers"); return nil }
                    x = parent[x]
                }
            }
            return .move(every: every(m), count: n, subtrees: subtrees, into: into)
        case "read":
            guard let r = object(body, ["every", "layers", "pick", "count", "keyPath"], required: ["layers", "keyPath"], what: "a read step"),
                  let lf = r["layers"], let layers = group(lf), let mode = pickMode(r), let n = count(r, mode),
                  let kf = r["keyPath"], let keyPath = string(kf) else { return nil }
            guard keyKind(kf, keyPath, shape: layers.allSatisfy { isShape[$0] }) != nil else { return nil }
            return .read(every: every(r), layers: layers, pick: mode, count: n, keyPath: keyPath)
        default:
            guard let r = object(body, ["every", "layers", "pick", "count", "key"], required: ["layers"], what: "a removeAnimations step"),
                  let lf = r["layers"], let layers = group(lf), let mode = pickMode(r), let n = count(r, mode) else { return nil }
            let key = r["key"].flatMap { string($0) }
            return .removeAnimations(every: every(r), layers: layers, pick: mode, count: n, key: key)
        }
    }
}
