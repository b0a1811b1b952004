import Foundation

/// Reads scene files into `SceneProgram`s, collecting every problem with its line, column
/// and JSON pointer (up to `SceneLimits.maxProblems`).
public enum SceneLoader {
    /// The format name and the versions this reader understands.
    public static let format = "strata-scene"
    public static let version = 1

    /// Reads the file at `path` with `parameters` overriding the file's defaults.
    public static func load(path: String, parameters: [String: Double] = [:], limits: SceneLimits = SceneLimits()) throws -> SceneProgram {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? NSNumber, size.intValue > limits.maxBytes {
            throw SceneLoadError(file: path, problems: [SceneProblem(line: 1, column: 1, pointer: "",
                                                                     message: "the file is \(size.intValue) bytes; scene files are at most \(limits.maxBytes)")])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SceneLoadError(file: path, problems: [SceneProblem(line: 1, column: 1, pointer: "", message: "cannot read the file")])
        }
        return try load(bytes: [UInt8](data), file: path, parameters: parameters, limits: limits)
    }

    /// Reads a scene from `bytes`; `file` names it in problems.
    public static func load(bytes: [UInt8], file: String, parameters: [String: Double] = [:],
                            limits: SceneLimits = SceneLimits()) throws -> SceneProgram {
        guard bytes.count <= limits.maxBytes else {
            throw SceneLoadError(file: file, problems: [SceneProblem(line: 1, column: 1, pointer: "",
                                                                     message: "the scene is \(bytes.count) bytes; at most \(limits.maxBytes)")])
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes, maxDepth: limits.maxDepth)
        } catch let e as JSONSyntaxError {
            // Positions of a syntax error need the line table the failed parse did not return.
            let (line, column) = SyntaxPosition.of(e.offset, in: bytes)
            throw SceneLoadError(file: file, problems: [SceneProblem(line: line, column: column, pointer: "", message: e.message)])
        }
        if case .object(let ms) = document.root.value, let f = ms.first(where: { $0.key == "format" }),
           case .string(Recording.format) = f.value.value {
            return try loadRecording(bytes: bytes, document: document, file: file, parameters: parameters)
        }
        let reader = SceneReader(document: document, overrides: parameters, limits: limits, file: file)
        let program = reader.read()
        guard reader.problems.isEmpty, let program else {
            // In the file's order, as a compiler lists them.
            let sorted = reader.problems.enumerated().sorted { ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset) }
            throw SceneLoadError(file: file, problems: reader.problems.isEmpty
                                 ? [SceneProblem(line: 1, column: 1, pointer: "", message: "not a scene")] : sorted.map(\.element))
        }
        return program
    }

    /// A recording (`Recording`), read with Codable; a problem is placed at the field its
    /// coding path names.
    static func loadRecording(bytes: [UInt8], document: JSONDocument, file: String, parameters: [String: Double]) throws -> SceneProgram {
        if let k = parameters.keys.first {
            let (line, column) = document.position(of: document.root.offset)
            throw SceneLoadError(file: file, problems: [SceneProblem(line: line, column: column, pointer: "",
                                                                     message: "--param \(k): a recording has no parameters")])
        }
        return try SceneProgram(recording: decodeRecording(bytes: bytes, document: document, file: file), file: file)
    }

    /// A recording decoded; a problem is placed at the field its coding path names.
    static func decodeRecording(bytes: [UInt8], document: JSONDocument, file: String) throws -> Recording {
        func fail(_ path: [CodingKey], _ message: String) -> SceneLoadError {
            var node = document.root
            var pointer = ""
            for key in path {
                switch node.value {
                case .object(let ms):
                    guard let m = ms.first(where: { $0.key == key.stringValue }) else { break }
                    node = m.value
                    pointer += "/" + key.stringValue
                case .array(let items):
                    guard let i = key.intValue, i < items.count else { break }
                    node = items[i]
                    pointer += "/\(i)"
                default: break
                }
            }
            let (line, column) = document.position(of: node.offset)
            return SceneLoadError(file: file, problems: [SceneProblem(line: line, column: column, pointer: pointer, message: message)])
        }
        let r: Recording
        do {
            r = try JSONDecoder().decode(Recording.self, from: Data(bytes))
        } catch DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c) {
            throw fail(c.codingPath, "expected another type: \(c.debugDescription)")
        } catch DecodingError.keyNotFound(let key, let c) {
            throw fail(c.codingPath, "missing \"\(key.stringValue)\"")
        } catch DecodingError.dataCorrupted(let c) {
            throw fail(c.codingPath, c.debugDescription)
        }
        guard r.version == Recording.version else { throw fail([], "recording version \(r.version); this strata-bench reads \(Recording.version)") }
        return r
    }

    /// Reads a recording file for `scene check`.
    public static func recording(path: String) throws -> Recording {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SceneLoadError(file: path, problems: [SceneProblem(line: 1, column: 1, pointer: "", message: "cannot read the file")])
        }
        let bytes = [UInt8](data)
        let document: JSONDocument
        do { document = try JSONDocument(bytes: bytes) } catch let e as JSONSyntaxError {
            let (line, column) = SyntaxPosition.of(e.offset, in: bytes)
            throw SceneLoadError(file: path, problems: [SceneProblem(line: line, column: column, pointer: "", message: e.message)])
        }
        return try decodeRecording(bytes: bytes, document: document, file: path)
    }

    /// Parameter names and defaults of the scene in `path`, without building it (for
    /// `--param` usage errors and `scene info`).
    public static func parameterNames(path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path),
              let doc = try? JSONDocument(bytes: [UInt8](data)),
              case .object(let members) = doc.root.value,
              let p = members.first(where: { $0.key == "parameters" }), case .object(let params) = p.value.value
        else { return [] }
        return params.map(\.key)
    }
}

enum SyntaxPosition {
    static func of(_ offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1, column = 1
        for i in 0..<min(offset, bytes.count) {
            if bytes[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }
}

/// A node and its JSON pointer.
struct Field {
    let node: JSONNode
    let pointer: String
    func member(_ key: String, _ node: JSONNode) -> Field {
        Field(node: node, pointer: pointer + "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1"))
    }
    func item(_ i: Int, _ node: JSONNode) -> Field { Field(node: node, pointer: "\(pointer)/\(i)") }
}

/// An object's members, in order, by key.
struct Members {
    let field: Field
    let list: [(String, Field)]
    subscript(_ key: String) -> Field? { list.first { $0.0 == key }?.1 }
}

final class SceneReader {
    let document: JSONDocument
    let overrides: [String: Double]
    let limits: SceneLimits
    let file: String
    var problems: [SceneProblem] = []
    var parameters: [String: SceneParameter] = [:]
    var parameterOrder: [String] = []

    // The tree as it is built.
    var setup: [Op] = []
    var isShape: [Bool] = []
    var attached: [Bool] = []
    var parent: [Int] = []
    var groups: [String: [Int]] = [:]
    var ids: [String: Int] = [:]
    var setupRandom = SceneRandom(seed: 0)
    var deferredAdds: [(parent: String, child: Int, field: Field)] = []
    var explicitParents: [Int: (String, Field)] = [:]
    var budgetExceeded = false

    init(document: JSONDocument, overrides: [String: Double], limits: SceneLimits, file: String) {
        self.document = document
        self.overrides = overrides
        self.limits = limits
        self.file = file
    }

    // MARK: problems and typed reads

    func problem(_ f: Field, _ message: String, at offset: Int? = nil) {
        guard problems.count < limits.maxProblems else { return }
        let (line, column) = document.position(of: offset ?? f.node.offset)
        problems.append(SceneProblem(line: line, column: column, pointer: f.pointer, message: message))
    }

    func object(_ f: Field, _ allowed: [String], required: [String] = [], what: String) -> Members? {
        guard case .object(let ms) = f.node.value else {
            problem(f, "expected \(what) (an object), got \(f.node.kindName)")
            return nil
        }
        var list: [(String, Field)] = []
        for m in ms {
            if allowed.contains(m.key) || (m.key == "$schema" && f.pointer.isEmpty) || m.key.hasPrefix("//") {
                list.append((m.key, f.member(m.key, m.value)))
            } else {
                problem(f.member(m.key, m.value), "unknown field \"\(m.key)\" in \(what); expected one of: \(allowed.joined(separator: ", "))",
                        at: m.keyOffset)
            }
        }
        for r in required where !ms.contains(where: { $0.key == r }) {
            problem(f, "\(what) needs \"\(r)\"")
        }
        return Members(field: f, list: list)
    }

    func array(_ f: Field, what: String) -> [Field]? {
        guard case .array(let items) = f.node.value else {
            problem(f, "expected \(what) (an array), got \(f.node.kindName)")
            return nil
        }
        return items.enumerated().map { f.item($0.offset, $0.element) }
    }

    func string(_ f: Field, what: String = "a string") -> String? {
        guard case .string(let s) = f.node.value else {
            problem(f, "expected \(what), got \(f.node.kindName)")
            return nil
        }
        return s
    }

    func bool(_ f: Field) -> Bool? {
        guard case .bool(let b) = f.node.value else {
            problem(f, "expected true or false, got \(f.node.kindName)")
            return nil
        }
        return b
    }

    /// A number, or "$name" for a parameter's value.
    func number(_ f: Field) -> Double? {
        switch f.node.value {
        case .number(let x): return x
        case .string(let s) where s.hasPrefix("$"):
            let name = String(s.dropFirst())
            guard let p = parameters[name] else {
                problem(f, "unknown parameter \"\(name)\"; parameters: \(parameterOrder.isEmpty ? "none" : parameterOrder.joined(separator: ", "))")
                return nil
            }
            return p.value
        default:
            problem(f, "expected a number or \"$parameter\", got \(f.node.kindName)")
            return nil
        }
    }

    func double(_ f: Field, in range: ClosedRange<Double>, what: String) -> Double? {
        guard let x = number(f) else { return nil }
        guard range.contains(x) else {
            problem(f, "\(what) \(formatted(x))\(paramNote(f)) is out of range: expected \(formatted(range.lowerBound)) to \(formatted(range.upperBound))")
            return nil
        }
        return x
    }

    func int(_ f: Field, in range: ClosedRange<Int>, what: String) -> Int? {
        guard let x = number(f) else { return nil }
        guard x == x.rounded(), x >= Double(range.lowerBound), x <= Double(range.upperBound) else {
            let bound = x == x.rounded() ? "" : "a whole number "
            problem(f, "\(what) \(formatted(x))\(paramNote(f)) is out of range: expected \(bound)from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return Int(x)
    }

    func paramNote(_ f: Field) -> String {
        if case .string(let s) = f.node.value { return " (\(s))" }
        return ""
    }

    func formatted(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    // MARK: the document

    func read() -> SceneProgram? {
        let root = Field(node: document.root, pointer: "")
        guard let top = object(root, ["format", "version", "name", "description", "seed", "parameters", "frames", "quickFrames",
                                      "warmupFrames", "framesPerSecond", "frameInterval", "layers", "frame"],
                               required: ["format", "version", "name", "frames", "layers"], what: "a scene") else { return nil }
        if let f = top["format"], let s = string(f), s != SceneLoader.format {
            problem(f, "expected \"\(SceneLoader.format)\", got \"\(s)\"")
        }
        if let f = top["version"], let v = int(f, in: 1...1_000_000, what: "version"), v != SceneLoader.version {
            problem(f, "version \(v) is not one this strata-bench reads (it reads version \(SceneLoader.version))")
        }
        var name = "scene"
        if let f = top["name"], let s = string(f) {
            if s.isEmpty || s.count > 100 || !s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) {
                problem(f, "a scene name is 1 to 100 letters, digits, '-', '_' or '.'; got \"\(s.prefix(40))\"")
            } else {
                name = s
            }
        }
        let description = top["description"].flatMap { string($0) } ?? ""
        var seed: UInt64 = 1
        if let f = top["seed"], let s = int(f, in: 0...Int(Int32.max), what: "seed") { seed = UInt64(s) }
        setupRandom = SceneRandom(seed: seed ^ 0x5E7_0000)

        if let f = top["parameters"] { readParameters(f) }
        for (k, _) in overrides where parameters[k] == nil {
            problems.append(SceneProblem(line: 1, column: 1, pointer: "/parameters",
                                         message: "--param \(k): the scene has no such parameter; parameters: \(parameterOrder.isEmpty ? "none" : parameterOrder.joined(separator: ", "))"))
        }

        let frames = top["frames"].flatMap { int($0, in: 1...limits.maxFrames, what: "frames") } ?? 1
        let quickFrames = top["quickFrames"].flatMap { int($0, in: 1...limits.maxFrames, what: "quickFrames") } ?? min(frames, 100)
        let warmup = top["warmupFrames"].flatMap { int($0, in: 0...limits.maxFrames, what: "warmupFrames") } ?? 0
        var fps: Double?, interval: Double?
        if let f = top["framesPerSecond"] { fps = double(f, in: 1...10_000, what: "framesPerSecond") }
        if let f = top["frameInterval"] {
            if top["framesPerSecond"] != nil { problem(f, "give framesPerSecond or frameInterval, not both") }
            interval = double(f, in: 0.0001...10, what: "frameInterval")
        }

        setup = [.begin, .setDisableActions(true)]
        if let f = top["layers"], let items = array(f, what: "the layer tree") {
            for item in items where !budgetExceeded { readLayerNode(item, parent: nil) }
        }
        resolveParents()
        setup += [.commit, .frame(time: 0)]

        var steps: [SceneStep] = []
        if let f = top["frame"], let items = array(f, what: "the frame's steps") {
            for item in items { if let s = readStep(item) { steps.append(s) } }
        }
        if let f = top["frame"] {
            var perFrame = 0.0
            for s in steps {
                switch s {
                case let .transaction(_, _, _, changes):
                    perFrame += changes.reduce(0.0) { $0 + Double($1.pick == .all ? $1.layers.count : $1.count) * Double(max(1, $1.alternatives.map(\.count).max() ?? 1)) }
                case let .animate(_, layers, pick, count, _, _): perFrame += Double(pick == .all ? layers.count : count)
                case let .move(_, count, _, _): perFrame += Double(count)
                case let .read(_, layers, pick, count, _), let .removeAnimations(_, layers, pick, count, _):
                    perFrame += Double(pick == .all ? layers.count : count)
                }
            }
            if perFrame > Double(limits.maxOperationsPerFrame) {
                problem(f, "a frame would have \(formatted(perFrame)) operations; at most \(limits.maxOperationsPerFrame)")
            }
        }
        guard problems.isEmpty else { return nil }
        return SceneProgram(name: name, description: description, file: file,
                            parameters: parameterOrder.compactMap { parameters[$0] },
                            frames: frames, quickFrames: min(quickFrames, frames), warmupFrames: warmup,
                            layers: isShape.count, depth: depth(), setup: setup, steps: steps,
                            framesPerSecond: fps, frameInterval: interval, random: SceneRandom(seed: seed),
                            cursors: Array(repeating: 0, count: steps.count), attached: attached)
    }

    func readParameters(_ f: Field) {
        guard case .object(let ms) = f.node.value else {
            problem(f, "expected the parameters (an object of name: default), got \(f.node.kindName)")
            return
        }
        for m in ms {
            let pf = f.member(m.key, m.value)
            guard let first = m.key.first, first.isLetter || first == "_", m.key.count <= 64,
                  m.key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                problem(pf, "a parameter name is a letter or '_' and then letters, digits or '_'", at: m.keyOffset)
                continue
            }
            var p = SceneParameter(name: m.key, defaultValue: 0, value: 0, description: "", minimum: nil, maximum: nil)
            switch m.value.value {
            case .number(let x): p.defaultValue = x
            case .object:
                guard let o = object(pf, ["default", "description", "minimum", "maximum"], required: ["default"],
                                     what: "a parameter") else { continue }
                guard let d = o["default"], case .number(let x) = d.node.value else {
                    if let d = o["default"] { problem(d, "expected a number, got \(d.node.kindName)") }
                    continue
                }
                p.defaultValue = x
                p.description = o["description"].flatMap { string($0) } ?? ""
                if let mf = o["minimum"] { if case .number(let v) = mf.node.value { p.minimum = v } else { problem(mf, "expected a number") } }
                if let mf = o["maximum"] { if case .number(let v) = mf.node.value { p.maximum = v } else { problem(mf, "expected a number") } }
            default:
                problem(pf, "expected a number (the default) or {\"default\": ..., \"description\": ...}, got \(m.value.kindName)")
                continue
            }
            p.value = overrides[m.key] ?? p.defaultValue
            if !p.value.isFinite {
                problem(pf, "--param \(m.key): expected a finite number")
            } else if let lo = p.minimum, p.value < lo {
                problem(pf, "\(m.key) = \(formatted(p.value)) is below its minimum \(formatted(lo))")
            } else if let hi = p.maximum, p.value > hi {
                problem(pf, "\(m.key) = \(formatted(p.value)) is above its maximum \(formatted(hi))")
            }
            parameters[m.key] = p
            parameterOrder.append(m.key)
        }
    }

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
