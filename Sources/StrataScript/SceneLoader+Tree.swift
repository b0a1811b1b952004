import Foundation

extension SceneReader {
    // MARK: the tree

    static let layerFields = ["id", "parent", "class", "group", "attached", "properties", "sublayers", "actions", "delegate", "style"]
    static let generatorFields = ["generate", "parent", "class", "group", "leaves", "attached", "properties", "layers", "fanout",
                                  "levels", "actions", "delegate", "style", "count", "layer"]
    static let levelFields = ["count", "class", "group", "properties", "actions", "delegate", "style"]

    /// Reserves `n` more layers; false (with a problem) beyond the limit.
    func reserve(_ n: Int, _ f: Field) -> Bool {
        if n > limits.maxLayers - isShape.count {
            problem(f, "the tree would have more than \(limits.maxLayers) layers (\(isShape.count) so far, \(n) more here)")
            budgetExceeded = true
            return false
        }
        return true
    }

    func className(_ f: Field?) -> Bool? {
        guard let f else { return false }
        guard let s = string(f) else { return nil }
        switch s {
        case "CALayer": return false
        case "CAShapeLayer": return true
        default: problem(f, "unknown layer class \"\(s)\": expected CALayer or CAShapeLayer"); return nil
        }
    }

    func groupName(_ f: Field) -> String? {
        guard let s = string(f, what: "a group name") else { return nil }
        guard !s.isEmpty, s.count <= 100 else { problem(f, "a group name is 1 to 100 characters"); return nil }
        return s
    }

    /// A new layer: made, its properties set, added to `parent` (nil: the root; -2: kept out of the tree).
    func make(shape: Bool, parent p: Int?, properties: [(String, ValueSpec)], index: Int, count: Int,
              parentIndex: Int, parentCount: Int, behaviors: [Op] = []) -> Int {
        let id = isShape.count
        isShape.append(shape)
        attached.append(p != -2)
        parent.append(p ?? -1)
        setup.append(.makeLayer(id: id, shape: shape))
        for (key, v) in properties {
            let value: ScriptValue
            switch v {
            case let .grid(x, y, w, h, columns):
                let cols = max(1, columns ?? Int((Double(count) * w / max(h, 1e-9)).squareRoot()))
                let rows = max(1, (count + cols - 1) / cols)
                value = .point(x + Double(index % cols) * w / Double(cols), y + Double(index / cols) * h / Double(rows))
            case let .hue(byParent, alpha):
                let h = byParent ? Double(parentIndex) / Double(max(parentCount, 1)) : Double(index) / Double(max(count, 1))
                let t = 2 * Double.pi
                value = .color([0.5 + 0.4 * cos(t * h), 0.5 + 0.4 * cos(t * (h - 1.0 / 3)), 0.5 + 0.4 * cos(t * (h - 2.0 / 3)), alpha])
            default:
                value = setupRandom.value(v)
            }
            setup.append(.set(layer: id, keyPath: key, value: value))
        }
        for b in behaviors { setup.append(retarget(b, to: id)) }
        if p != -2 { setup.append(.addSublayer(parent: p ?? -1, child: id)) }
        return id
    }

    func retarget(_ op: Op, to id: Int) -> Op {
        switch op {
        case let .setActions(_, a): return .setActions(layer: id, actions: a)
        case let .setDelegate(_, a): return .setDelegate(layer: id, actions: a)
        case let .setStyle(_, a): return .setStyle(layer: id, actions: a)
        default: return op
        }
    }

    func addToGroup(_ name: String?, _ id: Int) {
        guard let name else { return }
        groups[name, default: []].append(id)
    }

    /// `parent` as given on a node: an id written earlier is resolved now, a later one after
    /// the whole tree is read.
    func readLayerNode(_ f: Field, parent enclosing: Int?, template: (index: Int, count: Int)? = nil) {
        guard case .object(let ms) = f.node.value else {
            problem(f, "expected a layer or a generator (an object), got \(f.node.kindName)")
            return
        }
        if ms.contains(where: { $0.key == "generate" }) {
            if enclosing != nil || template != nil { problem(f, "generators are written at the top of \"layers\"") } else { readGenerator(f) }
            return
        }
        guard let o = object(f, Self.layerFields, what: "a layer") else { return }
        if template != nil {
            for k in ["id", "parent"] where o[k] != nil { problem(o[k]!, "a repeated layer has no \"\(k)\" (it is made many times)") }
        }
        guard template != nil || reserve(1, f) else { return }
        let shape = className(o["class"]) ?? false
        let props = readProperties(o["properties"], shape: shape, generated: template != nil)
        let behaviors = readBehaviors(o)
        let detached = o["attached"].flatMap { bool($0) } == false
        var parentId: Int? = enclosing
        var laterParent: (String, Field)?
        if let pf = o["parent"] {
            if enclosing != nil { problem(pf, "a layer inside \"sublayers\" has its parent already") }
            if case .null = pf.node.value {
                parentId = nil
            } else if let name = string(pf, what: "a layer id") {
                if let known = ids[name] { parentId = known } else { laterParent = (name, pf) }
            }
        }
        let t = template ?? (0, 1)
        let id = make(shape: shape, parent: detached ? -2 : (laterParent != nil ? -2 : parentId), properties: props,
                      index: t.index, count: t.count, parentIndex: t.index, parentCount: t.count, behaviors: behaviors)
        if detached, o["parent"] != nil { problem(o["parent"]!, "a detached layer (\"attached\": false) has no parent") }
        if let lp = laterParent, !detached {
            attached[id] = true
            deferredAdds.append((lp.0, id, lp.1))
        }
        if let idf = o["id"], let name = string(idf, what: "a layer id") {
            if ids[name] != nil || groups[name] != nil {
                problem(idf, "\"\(name)\" names a layer or group already")
            } else {
                ids[name] = id
                groups[name] = [id]
            }
        }
        if let g = o["group"], let name = groupName(g) {
            if ids[name] != nil { problem(g, "\"\(name)\" is a layer id, not a group") } else { addToGroup(name, id) }
        }
        if let sf = o["sublayers"], let items = array(sf, what: "sublayers") {
            for item in items where !budgetExceeded { readLayerNode(item, parent: id, template: template) }
        }
    }

    /// Layers a template makes: itself and its sublayers (nil: not a layer node).
    func templateSize(_ n: JSONNode) -> Int {
        guard case .object(let ms) = n.value else { return 1 }
        var size = 1
        if let s = ms.first(where: { $0.key == "sublayers" }), case .array(let items) = s.value.value {
            for i in items { size += templateSize(i) }
        }
        return size
    }

    /// Adds layers whose parent was written later, once every id is known; a parent chain
    /// that comes back to a layer is a cycle.
    func resolveParents() {
        for (name, child, f) in deferredAdds {
            guard let p = ids[name] else {
                problem(f, "unknown layer id \"\(name)\"\(ids.isEmpty ? "" : "; ids: \(ids.keys.sorted().prefix(8).joined(separator: ", "))\(ids.count > 8 ? " ..." : "")")")
                continue
            }
            parent[child] = p
        }
        // Cycles: walk up from every deferred child.
        for (_, child, f) in deferredAdds {
            var seen = Set<Int>([child])
            var x = parent[child]
            while x >= 0 {
                if !seen.insert(x).inserted || x == child {
                    let names = Dictionary(ids.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
                    problem(f, "the parents form a cycle: layer \"\(names[child] ?? "#\(child)")\" is its own ancestor")
                    return
                }
                x = parent[x]
            }
        }
        for (name, child, _) in deferredAdds { if let p = ids[name] { setup.append(.addSublayer(parent: p, child: child)) } }
    }

    func depth() -> Int {
        var d = [Int](repeating: -1, count: parent.count)
        var deepest = 0
        for i in parent.indices {
            var chain: [Int] = []
            var x = i
            while x >= 0 && d[x] < 0 && chain.count <= parent.count { chain.append(x); x = parent[x] }
            var base = x >= 0 ? d[x] : 0
            if x == -2 { base = 0 }
            for c in chain.reversed() { base += 1; d[c] = base }
            deepest = max(deepest, d[i])
        }
        return deepest
    }

    func readGenerator(_ f: Field) {
        guard let o = object(f, Self.generatorFields, required: ["generate"], what: "a generator") else { return }
        guard let kind = o["generate"].flatMap({ string($0) }) else { return }
        let kinds = ["levels", "balanced", "chain", "fan", "random", "repeat"]
        guard kinds.contains(kind) else {
            problem(o["generate"]!, "unknown generator \"\(kind)\": expected one of \(kinds.joined(separator: ", "))")
            return
        }
        let detached = o["attached"].flatMap { bool($0) } == false
        var top: Int? = nil
        if let pf = o["parent"] {
            if let name = string(pf, what: "a layer id") {
                guard let p = ids[name] else {
                    problem(pf, "unknown layer id \"\(name)\" (a generator's parent is a layer written before it)")
                    return
                }
                top = p
            }
        }
        if detached { top = -2 }
        if kind != "repeat" {
            for bad in ["count", "layer"] { if let b = o[bad] { problem(b, "\"\(bad)\" belongs to a repeat generator") } }
        }
        if kind == "repeat" {
            for bad in ["layers", "fanout", "properties", "class", "leaves", "levels", "actions", "delegate", "style"] {
                if let b = o[bad] { problem(b, "\"\(bad)\" does not belong to a repeat generator (write it in \"layer\")") }
            }
            guard let cf = o["count"], let lf = o["layer"] else { problem(f, "a repeat generator needs \"count\" and \"layer\""); return }
            guard let n = int(cf, in: 0...limits.maxLayers, what: "count") else { return }
            let size = templateSize(lf.node)
            guard Double(n) * Double(size) <= Double(limits.maxLayers), reserve(n * size, cf) else {
                if Double(n) * Double(size) > Double(limits.maxLayers) {
                    problem(cf, "\(n) copies of \(size) layers make more than \(limits.maxLayers) layers")
                    budgetExceeded = true
                }
                return
            }
            let all = o["group"].flatMap { groupName($0) }
            if let all { groups[all] = groups[all] ?? [] }
            for i in 0..<n {
                let before = problems.count
                let first = isShape.count
                readLayerNode(lf, parent: top, template: (i, n))
                if let all, isShape.count > first { addToGroup(all, first) }
                if problems.count > before { return }   // the template's problems once, not n times
            }
            return
        }
        if kind == "levels" {
            for bad in ["layers", "fanout", "properties", "class", "leaves", "actions", "delegate", "style"] {
                if let b = o[bad] { problem(b, "\"\(bad)\" belongs in each level of a levels generator") }
            }
            guard let lf = o["levels"], let items = array(lf, what: "the levels") else {
                if o["levels"] == nil { problem(f, "a levels generator needs \"levels\"") }
                return
            }
            guard !items.isEmpty, items.count <= 64 else { problem(lf, "expected 1 to 64 levels"); return }
            struct Level { var count: Int; var shape: Bool; var group: String?; var props: [(String, ValueSpec)]; var behaviors: [Op] }
            var levels: [Level] = []
            var total = 0.0, width = 1.0
            for item in items {
                guard let lo = object(item, Self.levelFields, required: ["count"], what: "a level") else { return }
                guard let c = lo["count"].flatMap({ int($0, in: 0...limits.maxLayers, what: "count") }) else { return }
                let shape = className(lo["class"]) ?? false
                width *= Double(c)
                total += width
                levels.append(Level(count: c, shape: shape, group: lo["group"].flatMap { groupName($0) },
                                    props: readProperties(lo["properties"], shape: shape, generated: true),
                                    behaviors: readBehaviors(lo)))
            }
            guard total <= Double(limits.maxLayers), reserve(Int(total), f) else {
                if total > Double(limits.maxLayers) {
                    problem(f, "the levels make \(formatted(total)) layers; at most \(limits.maxLayers)")
                    budgetExceeded = true
                }
                return
            }
            if let g = o["group"] { if let name = groupName(g) { groups[name] = groups[name] ?? [] } }
            let all = o["group"].flatMap { groupName($0) }
            // Layers per level (for grids and hues), and each level's running index.
            var perLevel: [Int] = []
            var w = 1
            for l in levels { w *= l.count; perLevel.append(w) }
            var next = [Int](repeating: 0, count: levels.count)
            func build(_ level: Int, parent: Int?, parentIndex: Int) {
                guard level < levels.count else { return }
                let l = levels[level]
                for _ in 0..<l.count {
                    let j = next[level]
                    next[level] += 1
                    let id = make(shape: l.shape, parent: level == 0 ? parent : parent, properties: l.props, index: j,
                                  count: perLevel[level], parentIndex: parentIndex,
                                  parentCount: level == 0 ? 1 : perLevel[level - 1], behaviors: l.behaviors)
                    addToGroup(l.group, id)
                    addToGroup(all, id)
                    build(level + 1, parent: id, parentIndex: j)
                }
            }
            build(0, parent: top, parentIndex: 0)
            return
        }
        if let l = o["levels"] { problem(l, "\"levels\" belongs to a levels generator") }
        guard let nf = o["layers"] else { problem(f, "a \(kind) generator needs \"layers\""); return }
        guard let n = int(nf, in: 0...Int(Int32.max), what: "layers") else { return }
        guard reserve(n, nf) else { return }
        var fanout = 2
        if kind == "balanced" {
            guard let ff = o["fanout"] else { problem(f, "a balanced generator needs \"fanout\""); return }
            guard let v = int(ff, in: 1...1_000_000, what: "fanout") else { return }
            fanout = v
        } else if let ff = o["fanout"] {
            problem(ff, "\"fanout\" belongs to a balanced generator")
        }
        let shape = className(o["class"]) ?? false
        let props = readProperties(o["properties"], shape: shape, generated: true)
        let behaviors = readBehaviors(o)
        let all = o["group"].flatMap { groupName($0) }
        let leavesName = o["leaves"].flatMap { groupName($0) }
        var made: [Int] = []
        made.reserveCapacity(n)
        var hasChild = [Bool](repeating: false, count: n)
        for i in 0..<n {
            var local = -1   // index of the parent among this generator's layers; -1: the generator's parent
            switch kind {
            case "balanced": local = i == 0 ? -1 : (i - 1) / fanout
            case "chain": local = i - 1
            case "fan": local = -1
            default: local = i == 0 ? -1 : setupRandom.index(i + 1) - 1
            }
            if local >= 0 { hasChild[local] = true }
            let p: Int? = local >= 0 ? made[local] : top
            let id = make(shape: shape, parent: p, properties: props, index: i, count: n,
                          parentIndex: max(local, 0), parentCount: n, behaviors: behaviors)
            made.append(id)
            addToGroup(all, id)
        }
        if let leavesName {
            groups[leavesName, default: []] += made.indices.filter { !hasChild[$0] }.map { made[$0] }
        }
    }

    func readBehaviors(_ o: Members) -> [Op] {
        var ops: [Op] = []
        for key in ["actions", "delegate", "style"] {
            guard let f = o[key], case .object(let ms) = f.node.value else {
                if let f = o[key] { problem(f, "expected an object of key: null or animation, got \(f.node.kindName)") }
                continue
            }
            var answers: [String: ScriptBehavior] = [:]
            for m in ms {
                let mf = f.member(m.key, m.value)
                if case .null = m.value.value { answers[m.key] = .null; continue }
                if let a = readAnimation(mf, defaultKeyPath: m.key) {
                    answers[m.key] = .animation(a.make(&setupRandom))
                }
            }
            switch key {
            case "actions": ops.append(.setActions(layer: -1, actions: answers))
            case "delegate": ops.append(.setDelegate(layer: -1, actions: answers))
            default: ops.append(.setStyle(layer: -1, actions: answers))
            }
        }
        return ops
    }
}
