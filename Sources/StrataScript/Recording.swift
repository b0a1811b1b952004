import Foundation

/// A program's own use of the engine, recorded by Strata (`STRATA_RECORD=FILE`, or
/// `StrataRecording.begin()` / `.end()`): every layer, tree change, property change,
/// transaction, explicit animation, lookup outcome (as the delegate answers that reproduce
/// it) and frame, as StrataScript operations, and the presentation values the program read.
/// `strata-bench run --scene FILE` times it as a scene; `strata-bench scene check FILE`
/// replays it on both engines against the values the program read.
public struct Recording: Codable, Sendable {
    public static let format = "strata-recording"
    public static let version = 1

    /// How a recording's non-finite numbers are written: JSON has none, and real programs use
    /// them (`repeatCount = .infinity`, `HUGE`). As the strings "inf", "-inf" and "nan", which
    /// `decoder` reads back.
    static let nonFinite = (positive: "inf", negative: "-inf", nan: "nan")

    /// The encoder a recording is written with (sorted keys, non-finite numbers as strings).
    public static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: nonFinite.positive,
                                                                negativeInfinity: nonFinite.negative, nan: nonFinite.nan)
        return e
    }

    /// The decoder a recording is read with (the strings `encoder` writes for non-finite numbers).
    public static var decoder: JSONDecoder {
        let d = JSONDecoder()
        d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: nonFinite.positive,
                                                                  negativeInfinity: nonFinite.negative, nan: nonFinite.nan)
        return d
    }

    public var format = Recording.format
    public var version = Recording.version
    /// The recorded program (its executable) and when the recording began (ISO 8601).
    public var program: String
    public var createdAt: String
    /// The operations in the order the program made them; `.read` operations stand where
    /// the program made the presentation copy it read.
    public var operations: [Op]
    /// What the program read at each `.read` operation.
    public var reads: [RecordedRead]
    /// The action lookup's outcome of each property change made with actions enabled (the
    /// replay reproduces them through the `.setDelegate` answers in `operations`).
    public var lookups: [RecordedLookup]?
    /// Frames rendered (the `.frame` operations).
    public var frames: Int
    /// What the replay cannot reproduce exactly (say, lookups answered by an action that is
    /// not an animation), counted.
    public var notes: [String]

    /// The recording as far as it can be encoded: when an operation cannot be (a value JSON
    /// has no form for), the operations before it, their reads, lookups and frames, and a
    /// note that marks the cut (`truncated at operation N of M: why`); nil when the whole
    /// recording encodes. Replay and `scene check` read the kept part as any recording.
    public func truncatedAtFirstUnencodable() -> (recording: Recording, index: Int, error: Error)? {
        let encoder = Recording.encoder
        guard let (index, error) = operations.indices.lazy.compactMap({ i -> (Int, Error)? in
            do { _ = try encoder.encode([operations[i]]); return nil } catch { return (i, error) }
        }).first else { return nil }
        var kept = self
        kept.operations = Array(operations.prefix(index))
        kept.reads = reads.filter { $0.op < index }
        kept.lookups = lookups?.filter { $0.op < index }
        kept.frames = kept.operations.filter { if case .frame = $0 { return true } else { return false } }.count
        kept.notes.append("truncated at operation \(index) of \(operations.count): it could not be encoded (\(error)); the program ran on, unrecorded")
        return (kept, index, error)
    }

    public init(program: String, createdAt: String, operations: [Op], reads: [RecordedRead], lookups: [RecordedLookup] = [],
                frames: Int, notes: [String]) {
        self.program = program
        self.createdAt = createdAt
        self.operations = operations
        self.reads = reads
        self.lookups = lookups
        self.frames = frames
        self.notes = notes
    }
}

/// The outcome of one action lookup: the `.set` operation's index and what the chain gave:
/// `builtIn` (the property's own implicit animation), `none` (nil everywhere or NSNull: no
/// animation), `animation` (a CAAnimation from the delegate, actions, style or
/// defaultAction), `action` (another CAAction, replayed as none).
public struct RecordedLookup: Codable, Equatable, Sendable {
    public var op: Int
    public var outcome: String
    public init(op: Int, outcome: String) {
        self.op = op
        self.outcome = outcome
    }
}

/// A presentation value the program read: the `.read` operation's index and the value's
/// numbers (nil: no value, such as a nil colour).
public struct RecordedRead: Codable, Equatable, Sendable {
    public var op: Int
    public var lanes: [Double]?
    public init(op: Int, lanes: [Double]?) {
        self.op = op
        self.lanes = lanes
    }
}

extension SceneProgram {
    /// A recording as a scene: its operations up to the first frame build it, and each later
    /// frame's operations are one timed frame.
    public init(recording r: Recording, file: String) throws {
        var chunks: [[Op]] = [[]]
        for op in r.operations {
            chunks[chunks.count - 1].append(op)
            if case .frame = op { chunks.append([]) }
        }
        // Operations after the last frame belong to no frame.
        if chunks.count > 1, let last = chunks.last, !last.contains(where: { if case .frame = $0 { return true }; return false }) {
            chunks.removeLast()
        }
        guard chunks.count >= 2 else {
            throw SceneLoadError(file: file, problems: [SceneProblem(line: 1, column: 1, pointer: "/operations",
                                                                     message: "the recording has \(chunks.count == 1 ? "one frame" : "no frame") after its first: nothing to time")])
        }
        let frames = chunks.count - 1
        var layers = Set<Int>()
        var parent: [Int: Int] = [:]
        for op in r.operations {
            switch op {
            case let .makeLayer(id, _), let .makeOverridingLayer(id, _, _, _): layers.insert(id)
            case let .addSublayer(p, c), let .insertSublayer(p, c, _): parent[c] = p
            case let .removeFromSuperlayer(c): parent[c] = nil
            default: break
            }
        }
        var depth = 0
        for l in layers {
            var d = 0, x: Int? = l
            while let y = x, y >= 0, d <= layers.count { d += 1; x = parent[y] }
            depth = max(depth, d)
        }
        self.init(name: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                    .filter { $0.isLetter || $0.isNumber || "-_.".contains($0) },
                  description: "a recording of \(r.program) (\(r.operations.count) operations, \(r.frames) frames, \(r.reads.count) presentation reads)",
                  file: file, parameters: [], frames: frames, quickFrames: min(frames, 100), warmupFrames: 0,
                  layers: layers.count, depth: depth, setup: chunks[0], steps: [], framesPerSecond: nil, frameInterval: nil,
                  random: SceneRandom(seed: 0), cursors: [], attached: [])
        recordedFrames = Array(chunks.dropFirst())
    }
}
