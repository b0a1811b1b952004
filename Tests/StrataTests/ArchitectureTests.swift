import Foundation
import XCTest

// engine-only: it reads the fast engine's source folders (Sources/Strata) as text.

/// The engine's rooms (the folders of Sources/Strata) and which may use which, checked on the
/// source text, in the spirit of ArchUnit and import-linter: a reference that goes against the
/// one-way flow fails. See `Strata.docc/Architecture.md` and `../shared/DESIGN.md`.
///
/// The rules (a "use" is a reference to a type that a room declares at the top level):
/// 1. Foundations (Support, Values, Keys, Timing, Diagnostics) use only foundations.
/// 2. Stores use only foundations.
/// 3. Only the faces (Layers, Host and Vocabulary) use the layer objects (the types Layers
///    and Host declare, and `View`) ...
/// 4. ... and only they and the owner use the owner (the types Engine declares). A face file,
///    one of Core Animation's own names (`CARenderer+Engine.swift`, `CAAnimation.swift` ...)
///    or an extension of a face's type (`StrataDiagnostics+Log.swift`), in a part's room, is
///    that face's engine side: it is at the faces' level.
/// 5. The owner uses every part, and no layer object.
/// 6. Core Animation's public vocabulary (the `CA`-named types of the part rooms, such as
///    `CAAnimation` and `CAMediaTimingFunction`, and Vocabulary/'s protocols and enums) may be
///    named in any room but the foundations.
/// 7. Parts use the stores and the vocabulary; of each other, only: the snapshot asks Frames
///    to evaluate (never the other way), and the recorder notes what Actions found.
///
/// The back edges the code still has are listed in `ArchitectureTests.knownBackEdges`: the list
/// only shrinks. A back edge not on it fails, and so does an entry that no longer occurs (take
/// it off the list).
final class ArchitectureTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Strata")

    static let foundations: Set<String> = ["Support", "Values", "Keys", "Timing", "Diagnostics"]
    static let faces: Set<String> = ["Layers", "Host", "Vocabulary"]
    static let owner = "Engine"

    /// Back edges of today's tree, as "file -> Room.Type". Each is a debt with its way out
    /// (the owner, Engine/, has none left: what it asks of layer objects goes through the
    /// `LayerSide` protocol the layers implement):
    /// - the lookup's walk of layer objects (Actions/*) moves to the setter's side (Layers);
    /// - the recorder (Recording/*) observes the faces and is reached from them;
    /// - the snapshot reads layer objects (a replicator's settings, a shape's path, object
    ///   values), and the frame renderer writes their animated object values, both through the
    ///   layer store's handle column (seen since the scan counts `handle[…]` with
    ///   `takeUnretainedValue()` as a use of `CALayer`): that state moves into the layer store.
    static let knownBackEdges: Set<String> = [
        "Actions/ActionLookup.swift -> Layers.CALayer",
        "Actions/ActionLookup.swift -> Layers.ToolboxImplicitAction",
        "Actions/ActionLookup.swift -> Vocabulary.View",
        "Actions/ActionOverride.swift -> Layers.CALayer",
        "Actions/LookupBatch.swift -> Layers.CALayer",
        "Frames/FrameRenderer+Compose.swift -> Layers.CALayer",
        "Frames/FrameRenderer+Rotations.swift -> Layers.CALayer",
        "Recording/EngineRecorder.swift -> Engine.EngineContext",
        "Recording/EngineRecorder.swift -> Layers.CALayer",
        "Recording/EngineRecorder.swift -> Layers.CAShapeLayer",
        "Recording/StrataRecording.swift -> Engine.EngineContext",
        "Snapshot/SnapshotBuilder.swift -> Layers.CALayer",
        "Snapshot/SnapshotBuilder+Items.swift -> Layers.CALayer",
        "Snapshot/SnapshotBuilder+Replicas.swift -> Layers.CALayer",
        "Snapshot/SnapshotBuilder+Replicas.swift -> Layers.CAReplicatorLayer",
        "Stores/LayerStore.swift -> Layers.CALayer",
    ]

    // MARK: The checker

    /// Swift sources of a tree, by path relative to it ("Room/File.swift").
    static func read(_ root: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = e?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let relative = String(url.path.dropFirst(root.path.count + 1))
            files[relative] = try String(contentsOf: url, encoding: .utf8)
        }
        return files
    }

    /// The source without comments and string literals (their words are not references).
    static func code(_ source: String) -> String {
        var out = "", chars = Array(source.unicodeScalars), i = 0
        out.unicodeScalars.reserveCapacity(chars.count)
        while i < chars.count {
            let c = chars[i], next = i + 1 < chars.count ? chars[i + 1] : " "
            if c == "/" && next == "/" {
                while i < chars.count && chars[i] != "\n" { i += 1 }
            } else if c == "/" && next == "*" {
                var depth = 0
                repeat {
                    if chars[i] == "/" && i + 1 < chars.count && chars[i + 1] == "*" { depth += 1; i += 2 }
                    else if chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/" { depth -= 1; i += 2 }
                    else { i += 1 }
                } while depth > 0 && i < chars.count
                out.unicodeScalars.append(" ")
            } else if c == "\"" {
                // A string literal (single- or multi-line); interpolations are code but rarely
                // name a type, and dropping them keeps the scan simple.
                let triple = next == "\"" && i + 2 < chars.count && chars[i + 2] == "\""
                i += triple ? 3 : 1
                while i < chars.count {
                    if chars[i] == "\\" { i += 2; continue }
                    if triple {
                        if chars[i] == "\"" && i + 2 < chars.count && chars[i + 1] == "\"" && chars[i + 2] == "\"" { i += 3; break }
                    } else if chars[i] == "\"" || chars[i] == "\n" { i += 1; break }
                    i += 1
                }
                out.unicodeScalars.append("\"")
            } else {
                out.unicodeScalars.append(c)
                i += 1
            }
        }
        return out
    }

    static func room(_ path: String) -> String { String(path.split(separator: "/").first ?? "") }

    /// Capitalised identifiers of a piece of code.
    static func identifiers(_ code: String) -> Set<String> {
        var found = Set<String>(), word = ""
        for c in code.unicodeScalars {
            if CharacterSet.alphanumerics.contains(c) || c == "_" { word.unicodeScalars.append(c) }
            else {
                if let f = word.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(f) { found.insert(word) }
                word = ""
            }
        }
        if let f = word.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(f) { found.insert(word) }
        return found
    }

    /// The types each room declares at the top level (class, struct, enum, protocol,
    /// typealias, actor), by name.
    static func declarations(_ files: [String: String]) -> [String: String] {
        var owners: [String: String] = [:]
        let kinds: Set<String> = ["class", "struct", "enum", "protocol", "typealias", "actor"]
        let modifiers: Set<String> = ["public", "internal", "private", "fileprivate", "final", "open", "package", "indirect", "nonisolated"]
        for (path, source) in files.sorted(by: { $0.key < $1.key }) {
            for line in code(source).split(separator: "\n", omittingEmptySubsequences: true) {
                guard let first = line.first, !first.isWhitespace, first != "}" else { continue }
                var words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "<" || $0 == "{" || $0 == "(" || $0 == "=" })[...]
                while let w = words.first, w.hasPrefix("@") || modifiers.contains(String(w)) { words = words.dropFirst() }
                guard let kind = words.first, kinds.contains(String(kind)), words.count > 1 else { continue }
                let name = String(words[words.startIndex + 1])
                if owners[name] == nil { owners[name] = room(path) }
            }
        }
        return owners
    }

    /// Whether a type is one of the layer objects: what Layers and Host declare, and the
    /// shared `View`.
    static func isLayerObject(_ type: String, in room: String) -> Bool {
        faces.contains(room) && (room != "Vocabulary" || type == "View")
    }

    /// Whether a file is a face's: named for Core Animation (`CARenderer+Engine.swift`), or
    /// extending a type of the faces (`StrataDiagnostics+Log.swift`, `View+Engine.swift`).
    static func isFaceFile(_ file: String, faceTypes: Set<String>) -> Bool {
        let name = file.split(separator: "/").last.map(String.init) ?? ""
        if name.hasPrefix("CA") { return true }
        guard let plus = name.firstIndex(of: "+") else { return false }
        return faceTypes.contains(String(name[..<plus]))
    }

    /// Whether a file of `from` may use a type that room `to` declares (`face`: the file is
    /// a face's, at the faces' level wherever it sits).
    static func allowed(file: String, face: Bool = false, from: String, to: String, type: String) -> Bool {
        if from == to { return true }
        if face { return true }
        if foundations.contains(from) { return foundations.contains(to) }
        if foundations.contains(to) || faces.contains(from) || from == owner && !isLayerObject(type, in: to) { return true }
        if isLayerObject(type, in: to) || to == owner { return false }
        // The vocabulary: Core Animation's names of the parts, and the shared Vocabulary/.
        if type.hasPrefix("CA") || to == "Vocabulary" { return true }
        if from == "Stores" { return false }
        // Part to part: the stores; the snapshot asks the frames; the recorder notes what the
        // lookup found.
        return to == "Stores" || (from == "Snapshot" && to == "Frames") || (from == "Recording" && to == "Actions")
    }

    /// Every use against the rules, as "file -> Room.Type".
    static func backEdges(_ files: [String: String]) -> Set<String> {
        let owners = declarations(files)
        let faceTypes = Set(owners.filter { faces.contains($0.value) }.keys)
        var edges = Set<String>()
        for (path, source) in files {
            let from = room(path), face = isFaceFile(path, faceTypes: faceTypes)
            let text = code(source)
            for name in identifiers(text) {
                guard let to = owners[name], !allowed(file: path, face: face, from: from, to: to, type: name) else { continue }
                edges.insert("\(path) -> \(to).\(name)")
            }
            // A layer object reached through the layer store's handle column names no type
            // (`layers.handle[row]?.takeUnretainedValue().animatedObjects`): a use of `CALayer`
            // all the same.
            if text.contains(".handle["), text.contains("takeUnretainedValue()"), let to = owners["CALayer"],
               !allowed(file: path, face: face, from: from, to: to, type: "CALayer") {
                edges.insert("\(path) -> \(to).CALayer")
            }
        }
        return edges
    }

    // MARK: Raw pointers live in handle types

    /// The types that may store a raw pointer: each owns memory (`Column`, `RowTable`, `Pool`,
    /// `Slab`; the snapshot's `SnapshotBuffer`) or lends it to a pass or a job for its duration
    /// (`ColumnSpan`), and gives typed access to it. Everything else holds handles.
    static let handleTypes: Set<String> = ["Column", "RowTable", "Pool", "Slab", "ColumnSpan", "SnapshotBuffer"]

    /// The snapshot's module, whose buffers the snapshot builder writes.
    static let snapshotSources = sources.deletingLastPathComponent().appendingPathComponent("StrataSnapshot")

    /// A stored property declared on `line` whose written type is a raw pointer (or holds one,
    /// as `Column<UnsafeMutablePointer<Double>?>`): its names. Computed properties, whose type
    /// is followed by their body, are not stored.
    static func storedPointerNames(_ line: Substring) -> [String] {
        let pattern = #"^\s*(?:(?:@\w+(?:\([^)]*\))?|public|internal|private|fileprivate|package|open|static|class|lazy|final|nonisolated|weak|unowned)(?:\([^)]*\))?\s+)*(?:let|var)\s+([^:=]+?)\s*:\s*([^={]+)(.*)$"#
        let text = String(line)
        guard let re = try? NSRegularExpression(pattern: pattern),
              let m = re.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let names = Range(m.range(at: 1), in: text), let type = Range(m.range(at: 2), in: text),
              let rest = Range(m.range(at: 3), in: text) else { return [] }
        guard text[type].range(of: #"Unsafe(Mutable)?(Raw)?(Buffer)?Pointer"#, options: .regularExpression) != nil,
              !text[rest].trimmingCharacters(in: .whitespaces).hasPrefix("{") else { return [] }
        return text[names].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Stored raw pointers outside the handle types, as "File: Type.name" (a type's own body
    /// and its extensions are read; function bodies, closures and comments are not).
    static func storedRawPointers(_ files: [String: String]) -> [String] {
        let typeKinds: Set<String> = ["class", "struct", "enum", "extension", "actor", "protocol"]
        let modifiers: Set<String> = ["public", "internal", "private", "fileprivate", "final", "open", "package", "indirect", "nonisolated"]
        var found: [String] = []
        for (path, source) in files.sorted(by: { $0.key < $1.key }) {
            var scopes: [String?] = []   // a type's name for its body, nil for any other braces
            for line in code(source).split(separator: "\n", omittingEmptySubsequences: false) {
                let words = line.split(whereSeparator: { " :<{(=,".contains($0) })
                var declared: String?
                if let k = words.firstIndex(where: { typeKinds.contains(String($0)) }), k + 1 < words.count,
                   words[..<k].allSatisfy({ $0.hasPrefix("@") || modifiers.contains(String($0)) }) {
                    declared = String(words[k + 1].split(separator: ".").last ?? words[k + 1])
                }
                if declared == nil, let type = scopes.last ?? nil, !handleTypes.contains(type) {
                    found += storedPointerNames(line).map { "\(path): \(type).\($0)" }
                }
                for c in line {
                    if c == "{" { scopes.append(declared); declared = nil } else if c == "}" { _ = scopes.popLast() }
                }
            }
        }
        return found
    }

    // MARK: Tests

    func test_theEngineHasNoBackEdgeBeyondTheKnownOnes() throws {
        let files = try Self.read(Self.sources)
        XCTAssertGreaterThan(files.count, 50, "read the engine's sources at \(Self.sources.path)")
        let edges = Self.backEdges(files)
        let new = edges.subtracting(Self.knownBackEdges).sorted()
        XCTAssertTrue(new.isEmpty, """
            a room uses one it must not (Tests/StrataTests/ArchitectureTests.swift states the rules; \
            Strata.docc/Architecture.md the rooms):
            \(new.joined(separator: "\n"))
            """)
        let gone = Self.knownBackEdges.subtracting(edges).sorted()
        XCTAssertTrue(gone.isEmpty, "these back edges are gone: take them off ArchitectureTests.knownBackEdges:\n\(gone.joined(separator: "\n"))")
    }

    func test_aPlantedBackEdgeIsFound() throws {
        var files = try Self.read(Self.sources)
        files["Stores/Planted.swift"] = """
            // EngineContext in a comment is not a use, nor "CALayer" in a string.
            struct Planted { unowned var engine: EngineContext }
            """
        files["Frames/Planted.swift"] = "func planted(_ b: SnapshotBuilder) {}"
        files["Keys/Planted.swift"] = "let planted: LayerStore? = nil"
        files["Timing/Planted+Engine.swift"] = "let planted: EngineContext? = nil"
        files["Transactions/Planted.swift"] = "func planted(_ l: CALayer) {}"
        // A layer object through the handle column, its type inferred.
        files["Changes/Planted.swift"] = "func planted(_ s: LayerStore) { _ = s.handle[0]?.takeUnretainedValue().name }"
        // A handle compared with nil is no use of the object.
        files["Animations/Planted.swift"] = "func planted(_ s: LayerStore) -> Bool { s.handle[0] != nil }"
        let edges = Self.backEdges(files)
        XCTAssertEqual(edges.filter { $0.contains("/Planted") }.sorted(), [
            "Changes/Planted.swift -> Layers.CALayer",
            "Frames/Planted.swift -> Snapshot.SnapshotBuilder",
            "Keys/Planted.swift -> Stores.LayerStore",
            "Stores/Planted.swift -> Engine.EngineContext",
            "Timing/Planted+Engine.swift -> Engine.EngineContext",
            "Transactions/Planted.swift -> Layers.CALayer",
        ])
        // A face file of a part may reach the owner and the layers, as the layers do.
        files = ["Transactions/CATransaction.swift": "func begin() { EngineContext.current.begin() }",
                 "Engine/EngineContext.swift": "final class EngineContext {}",
                 "Layers/CALayer.swift": "open class CALayer { func f(_ s: Planted) {} }",
                 "Stores/Planted.swift": "struct Planted {}"]
        XCTAssertEqual(Self.backEdges(files), [])
    }

    func test_theScanReadsDeclarationsAndSkipsCommentsAndStrings() {
        let source = """
            /// A doc comment naming Foo.
            public final class Bar<T>: Baz {
                struct Inner {}   // nested: not a room's top-level type
            }
            @usableFromInline enum Qux { case a }
            typealias Pair = (Int, Int)
            let s = "Hidden" + \"\"\"
                AlsoHidden
                \"\"\"
            /* Block /* nested */ Gone */ let v: Visible
            """
        XCTAssertEqual(Set(Self.declarations(["R/a.swift": source]).keys), ["Bar", "Qux", "Pair"])
        let ids = Self.identifiers(Self.code(source))
        XCTAssertTrue(ids.isSuperset(of: ["Bar", "Baz", "Inner", "Qux", "Pair", "Visible", "T"]))
        XCTAssertTrue(ids.isDisjoint(with: ["Foo", "Hidden", "AlsoHidden", "Block", "Gone"]), "\(ids)")
    }

    func test_rawPointersAreStoredOnlyInHandleTypes() throws {
        var files = try Self.read(Self.sources)
        for (path, text) in try Self.read(Self.snapshotSources) { files["StrataSnapshot/" + path] = text }
        XCTAssertGreaterThan(files.count, 50)
        let found = Self.storedRawPointers(files)
        XCTAssertTrue(found.isEmpty, """
            a raw pointer is stored outside the handle types (\(Self.handleTypes.sorted().joined(separator: ", "))): \
            hold a Slab (owned) or a ColumnSpan (lent) instead:
            \(found.joined(separator: "\n"))
            """)
    }

    func test_aPlantedStoredPointerIsFound() {
        let source = """
            struct Inputs {
                let opacity, position: UnsafeMutablePointer<Double>?
                @exclusivity(unchecked) private(set) var rows: Column<UnsafeMutablePointer<Int32>?>
                static let table: UnsafeRawPointer = make()
                var computed: UnsafeMutablePointer<Double> { base }   // not stored
                // let commented: UnsafeMutablePointer<Double>
                func f() { let local: UnsafeMutablePointer<Double> = p }
                let span: ColumnSpan<Double>
            }
            extension Outer.Inner {
                let q: UnsafePointer<UInt8>
            }
            struct Slab<E> {
                let base: UnsafeMutablePointer<E>
            }
            extension ColumnSpan where Element: Copyable {
                var p: UnsafeMutablePointer<Element>
            }
            """
        XCTAssertEqual(Self.storedRawPointers(["Room/Planted.swift": source]), [
            "Room/Planted.swift: Inputs.opacity", "Room/Planted.swift: Inputs.position",
            "Room/Planted.swift: Inputs.rows", "Room/Planted.swift: Inputs.table",
            "Room/Planted.swift: Inner.q",
        ])
    }
}
