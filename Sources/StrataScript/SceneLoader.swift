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
            r = try Recording.decoder.decode(Recording.self, from: Data(bytes))
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
