import Foundation

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
}
