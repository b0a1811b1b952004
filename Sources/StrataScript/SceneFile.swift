import Foundation

// Scene files: a frame loop described in JSON (Benchmarks/Scenes/README.md documents the
// format, Benchmarks/Scenes/scene.schema.json is its JSON Schema). A file is read into a
// `SceneProgram`: the set-up operations (the layer tree) and steps that generate each
// frame's operations (StrataScript `Op`s), so a scene runs on either engine.

/// One problem found in a scene file: where (1-based line and column, and the JSON pointer
/// of the field) and what was expected.
public struct SceneProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    /// RFC 6901 JSON pointer of the field ("" for the document, "/frame/0/transaction").
    public var pointer: String
    public var message: String

    public var description: String { "\(line):\(column): \(pointer.isEmpty ? "" : "\(pointer): ")\(message)" }
    /// `FILE:LINE:COLUMN: POINTER: message`, as compilers print problems.
    public func formatted(file: String) -> String { "\(file):\(description)" }
}

/// A scene file that could not be read: every problem found (at most `SceneLimits.maxProblems`).
public struct SceneLoadError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var problems: [SceneProblem]
    public var description: String { problems.map { $0.formatted(file: file) }.joined(separator: "\n") }
}

/// Bounds a scene must stay within, so a hostile or mistaken file gets an error instead of
/// exhausting memory.
public struct SceneLimits: Sendable {
    public var maxBytes = 256 << 20
    public var maxDepth = 200
    public var maxLayers = 10_000_000
    public var maxOperationsPerFrame = 10_000_000
    public var maxFrames = 100_000_000
    public var maxProblems = 50
    public init() {}
}

/// A scene parameter: its default, the value in use (default or `--param`), and what it means.
public struct SceneParameter: Sendable, Equatable {
    public var name: String
    public var defaultValue: Double
    public var value: Double
    public var description: String
    public var minimum: Double?
    public var maximum: Double?
}

/// The value kinds of the key paths a scene may set or animate.
public enum SceneValueKind: String, Sendable {
    case scalar, bool, point, size, rect, color, transform, object, path

    /// Numbers in the value's array notation.
    var width: Int {
        switch self {
        case .scalar, .bool, .object: return 1
        case .point, .size: return 2
        case .rect, .color: return 4
        case .transform: return 16
        case .path: return 0
        }
    }

    var expected: String {
        switch self {
        case .scalar: return "a number"
        case .bool: return "true or false"
        case .point: return "a point [x, y]"
        case .size: return "a size [width, height]"
        case .rect: return "a rectangle [x, y, width, height]"
        case .color: return "a colour [red, green, blue, alpha] (0 to 1), \"#RRGGBB[AA]\" or null"
        case .transform: return "a transform: 16 numbers, m11 to m44"
        case .object: return "an integer (contents: object N)"
        case .path: return "a path: a list of {\"move\": [x, y]}, {\"line\": [x, y]}, {\"quad\": [x, y, cx, cy]}, {\"cubic\": [x, y, c1x, c1y, c2x, c2y]} or \"close\""
        }
    }
}

/// Key paths scenes may set and animate: Core Animation's property names and their
/// documented sub-paths, with the kind of value each takes.
public enum SceneKeys {
    /// Name -> (kind, CAShapeLayer only).
    static let table: [String: (SceneValueKind, Bool)] = {
        var t: [String: (SceneValueKind, Bool)] = [
            "anchorPoint": (.point, false), "backgroundColor": (.color, false), "borderColor": (.color, false),
            "borderWidth": (.scalar, false), "bounds": (.rect, false), "contentsRect": (.rect, false),
            "cornerRadius": (.scalar, false), "hidden": (.bool, false), "isHidden": (.bool, false),
            "masksToBounds": (.bool, false), "opacity": (.scalar, false), "position": (.point, false),
            "shadowColor": (.color, false), "shadowOffset": (.size, false), "shadowOpacity": (.scalar, false),
            "shadowRadius": (.scalar, false), "sublayerTransform": (.transform, false), "transform": (.transform, false),
            "zPosition": (.scalar, false), "anchorPointZ": (.scalar, false), "doubleSided": (.bool, false),
            "isDoubleSided": (.bool, false), "contents": (.object, false),
            "strokeStart": (.scalar, true), "strokeEnd": (.scalar, true), "lineWidth": (.scalar, true),
            "fillColor": (.color, true), "strokeColor": (.color, true), "miterLimit": (.scalar, true),
            "lineDashPhase": (.scalar, true), "path": (.path, true), "shadowPath": (.path, false),
        ]
        for p in ["position", "anchorPoint"] { t[p + ".x"] = (.scalar, false); t[p + ".y"] = (.scalar, false) }
        t["shadowOffset.width"] = (.scalar, false); t["shadowOffset.height"] = (.scalar, false)
        for r in ["bounds", "contentsRect"] {
            t[r + ".origin"] = (.point, false); t[r + ".size"] = (.size, false)
            for f in ["origin.x", "origin.y", "size.width", "size.height"] { t["\(r).\(f)"] = (.scalar, false) }
        }
        for m in ["transform", "sublayerTransform"] {
            for f in ["rotation", "rotation.x", "rotation.y", "rotation.z", "scale", "scale.x", "scale.y", "scale.z",
                      "scale.xy", "translation.x", "translation.y", "translation.z"] { t["\(m).\(f)"] = (.scalar, false) }
            t["\(m).translation"] = (.size, false)
        }
        return t
    }()

    /// Every key path a scene may use, sorted.
    public static var names: [String] { table.keys.sorted() }
    /// The kind of `keyPath`'s values, and whether only CAShapeLayer has it; nil if unknown.
    public static func kind(of keyPath: String) -> (kind: SceneValueKind, shapeOnly: Bool)? {
        table[keyPath].map { ($0.0, $0.1) }
    }
}

/// A value in a scene: written out, drawn at random per use, or laid out by a generator.
enum ValueSpec: Sendable {
    case literal(ScriptValue)
    /// Component-wise `lo + u * (hi - lo)`, u in [0, 1) in steps of 1e-4; components with
    /// lo == hi draw nothing.
    case random(SceneValueKind, lo: [Double], hi: [Double])
    /// A point on a grid over `rect`, by the layer's index among its generator's layers.
    case grid(x: Double, y: Double, width: Double, height: Double, columns: Int?)
    /// A hue around the colour wheel by the layer's (or its parent's) index.
    case hue(byParent: Bool, alpha: Double)

    var isLiteral: Bool { if case .literal = self { return true } else { return false } }
}

/// An animation with values that may be drawn per use.
struct AnimationSpec: Sendable {
    var base: ScriptAnimation
    var from: ValueSpec?
    var to: ValueSpec?
    var by: ValueSpec?
    var values: [ValueSpec]?
    var children: [AnimationSpec]?
    var isLiteral: Bool

    func make(_ draw: inout SceneRandom) -> ScriptAnimation {
        if isLiteral { return base }
        var a = base
        if let from { a.from = draw.value(from) }
        if let to { a.to = draw.value(to) }
        if let by { a.by = draw.value(by) }
        if let values { a.values = values.map { draw.value($0) } }
        if let children { a.children = children.map { $0.make(&draw) } }
        return a
    }
}

/// The scenes' random numbers: SplitMix64, values in steps of 1e-4.
struct SceneRandom: Sendable {
    var rng: SeededGenerator
    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }
    mutating func next() -> UInt64 { rng.next() }
    mutating func unit() -> Double { Double(rng.next() % 10_000) / 10_000 }
    mutating func index(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }

    mutating func value(_ v: ValueSpec) -> ScriptValue {
        switch v {
        case .literal(let s): return s
        case let .random(kind, lo, hi):
            var c = lo
            for k in c.indices where lo[k] != hi[k] { c[k] = lo[k] + unit() * (hi[k] - lo[k]) }
            return SceneValues.make(kind, c)
        case .grid, .hue:
            return .scalar(0)   // laid out by the tree builder, never drawn here
        }
    }
}

enum SceneValues {
    static func make(_ kind: SceneValueKind, _ c: [Double]) -> ScriptValue {
        switch kind {
        case .scalar: return .scalar(c[0])
        case .bool: return .bool(c[0] != 0)
        case .point: return .point(c[0], c[1])
        case .size: return .size(c[0], c[1])
        case .rect: return .rect(c[0], c[1], c[2], c[3])
        case .color: return .color(c)
        case .transform: return .transform(c)
        case .object: return .object(Int(c[0]))
        case .path: return .path([])
        }
    }
}

/// How a step chooses layers from a group.
enum PickMode: String, Sendable { case random, sequential, all }

/// One change of a transaction: `count` layers picked from a group, each given one of the
/// alternatives (drawn when there are several).
struct ChangeSpec: Sendable {
    var layers: [Int]
    var pick: PickMode
    var count: Int
    var alternatives: [[(String, ValueSpec)]]
}

/// One step of every frame (or of every `every`-th frame).
enum SceneStep: Sendable {
    case transaction(every: Int, settings: [Op], completion: Bool, changes: [ChangeSpec])
    case animate(every: Int, layers: [Int], pick: PickMode, count: Int, key: String?, animations: [AnimationSpec])
    case move(every: Int, count: Int, subtrees: [Int], into: [Int])
    case read(every: Int, layers: [Int], pick: PickMode, count: Int, keyPath: String)
    case removeAnimations(every: Int, layers: [Int], pick: PickMode, count: Int, key: String?)

    var every: Int {
        switch self {
        case let .transaction(e, _, _, _), let .animate(e, _, _, _, _, _), let .move(e, _, _, _),
             let .read(e, _, _, _, _), let .removeAnimations(e, _, _, _, _): return e
        }
    }
}

/// A scene read from a file: its set-up operations and the steps that generate its frames.
/// A value: copy a loaded program to run it again from its first frame.
public struct SceneProgram: Sendable {
    public var name: String
    public var description: String
    public var file: String
    public var parameters: [SceneParameter]
    /// Frames a full run times, and a `--quick` run.
    public var frames: Int
    public var quickFrames: Int
    /// Untimed frames before the timed ones (animations reach their steady number).
    public var warmupFrames: Int
    /// Layers the set-up builds (the root the runner supplies not counted), and the deepest.
    public var layers: Int
    public var depth: Int
    /// Builds the tree (actions disabled) and renders the first frame at time 0.
    public var setup: [Op]
    var steps: [SceneStep]
    var framesPerSecond: Double?
    var frameInterval: Double?
    var random: SceneRandom
    var cursors: [Int]
    var attached: [Bool]
    var completions = 0
    /// A recording's frames, replayed as recorded (`frame(_:)` cycles through them).
    var recordedFrames: [[Op]]?
    /// Frames a recording holds (nil: a scene file, which makes as many as asked).
    public var recordedFrameCount: Int? { recordedFrames?.count }

    /// Media time of frame `f` (the set-up frame is at 0).
    public func time(ofFrame f: Int) -> Double {
        if let r = recordedFrames, let last = r[f % r.count].last, case let .frame(t) = last { return t }
        if let frameInterval { return Double(f + 1) * frameInterval }
        return Double(f + 1) / (framesPerSecond ?? 60)
    }

    /// Seconds between frames.
    public var interval: Double { frameInterval ?? 1 / (framesPerSecond ?? 60) }

    /// Average per frame: property changes, of them implicitly animated (transactions with
    /// actions enabled), explicit animations added, subtree moves.
    public var perFrame: (changes: Double, implicit: Double, explicit: Double, moves: Double) {
        if let r = recordedFrames, !r.isEmpty {
            let t = Self.tally(r.flatMap { $0 })
            let n = Double(r.count)
            return (t.changes / n, t.implicit / n, t.explicit / n, t.moves / n)
        }
        var c = 0.0, i = 0.0, e = 0.0, m = 0.0
        for s in steps {
            let w = 1 / Double(s.every)
            switch s {
            case let .transaction(_, settings, _, changes):
                let n = changes.reduce(0.0) { $0 + Double($1.pick == .all ? $1.layers.count : $1.count) }
                c += n * w
                if !settings.contains(.setDisableActions(true)) { i += n * w }
            case let .animate(_, layers, pick, count, _, _): e += Double(pick == .all ? layers.count : count) * w
            case let .move(_, count, _, _): m += Double(count) * w
            case .read, .removeAnimations: break
            }
        }
        return (c, i, e, m)
    }

    /// A recording's operations counted as `perFrame` counts a scene's steps: property changes
    /// (those made with actions enabled, in the transaction they belong to, nested ones
    /// inheriting the outer setting), explicit animations added, subtrees moved in or out.
    static func tally(_ ops: [Op], disabled outer: Bool = false) -> (changes: Double, implicit: Double, explicit: Double, moves: Double) {
        var c = 0.0, i = 0.0, e = 0.0, m = 0.0
        var stack: [Bool] = []
        var implicitDisabled = outer
        for op in ops {
            let disabled = stack.last ?? implicitDisabled
            switch op {
            case .begin: stack.append(disabled)
            case .commit: if stack.popLast() == nil { implicitDisabled = outer }
            case .flush: stack.removeAll(); implicitDisabled = outer
            case .setDisableActions(let b):
                if stack.isEmpty { implicitDisabled = b } else { stack[stack.count - 1] = b }
            case .set:
                c += 1
                if !disabled { i += 1 }
            case .add: e += 1
            case .addSublayer, .insertSublayer, .removeFromSuperlayer: m += 1
            case .performWithoutAnimation(let inner):
                let t = tally(inner, disabled: true)
                c += t.changes; e += t.explicit; m += t.moves
            case .setCompletion(_, let inner):
                let t = tally(inner, disabled: outer)
                c += t.changes; i += t.implicit; e += t.explicit; m += t.moves
            default: break
            }
        }
        return (c, i, e, m)
    }

    /// The operations of frame `f` (frames are generated in order: 0, 1, 2 ...), ending in
    /// the `.frame` op at `time(ofFrame: f)`.
    public mutating func frame(_ f: Int) -> [Op] {
        if let r = recordedFrames { return r[f % r.count] }
        var ops: [Op] = []
        for (s, step) in steps.enumerated() where f % step.every == 0 {
            switch step {
            case let .transaction(_, settings, completion, changes):
                ops.append(.begin)
                ops += settings
                if completion {
                    completions += 1
                    ops.append(.setCompletion(tag: completions, ops: []))
                }
                for c in changes {
                    let n = c.pick == .all ? c.layers.count : c.count
                    for _ in 0..<n {
                        let l = pick(c.layers, c.pick, step: s)
                        let alt = c.alternatives.count == 1 ? c.alternatives[0] : c.alternatives[random.index(c.alternatives.count)]
                        for (key, v) in alt { ops.append(.set(layer: l, keyPath: key, value: random.value(v))) }
                    }
                }
                ops.append(.commit)
            case let .animate(_, layers, mode, count, key, animations):
                let n = mode == .all ? layers.count : count
                for k in 0..<n {
                    // The animation's values are drawn before its layer is picked.
                    let a = animations[k % animations.count].make(&random)
                    ops.append(.add(layer: pick(layers, mode, step: s), key: key, animation: a))
                }
            case let .move(_, count, subtrees, into):
                for _ in 0..<count where !subtrees.isEmpty {
                    let r = subtrees[cursors[s] % subtrees.count]
                    cursors[s] += 1
                    if attached[r] {
                        ops.append(.removeFromSuperlayer(layer: r))
                    } else {
                        ops.append(.addSublayer(parent: into[random.index(into.count)], child: r))
                    }
                    attached[r].toggle()
                }
            case let .read(_, layers, mode, count, keyPath):
                for _ in 0..<(mode == .all ? layers.count : count) {
                    ops.append(.read(layer: pick(layers, mode, step: s), keyPath: keyPath))
                }
            case let .removeAnimations(_, layers, mode, count, key):
                for _ in 0..<(mode == .all ? layers.count : count) {
                    let l = pick(layers, mode, step: s)
                    ops.append(key.map { .removeAnimation(layer: l, key: $0) } ?? .removeAllAnimations(layer: l))
                }
            }
        }
        ops.append(.frame(time: time(ofFrame: f)))
        return ops
    }

    mutating func pick(_ layers: [Int], _ mode: PickMode, step: Int) -> Int {
        switch mode {
        case .random: return layers[random.index(layers.count)]
        case .sequential, .all:
            let l = layers[cursors[step] % layers.count]
            cursors[step] += 1
            return l
        }
    }

    /// The whole scene as one script: set-up and `frames` frames.
    public func script(frames: Int) -> Script {
        var p = self
        var ops = p.setup
        for f in 0..<frames { ops += p.frame(f) }
        return Script(ops)
    }
}
