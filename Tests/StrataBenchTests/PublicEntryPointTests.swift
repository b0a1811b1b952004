import Foundation
import StrataBenchSuites
import XCTest

/// The engine's public entry points and the counted bodies that run them
/// (`PublicEntryPoints`): every public symbol of module `Strata`, read from its symbol graph
/// (the `swift-symbolgraph-extract` of the toolchain, over the module this test build made),
/// is claimed by an entry; every entry claims a symbol; every body an entry names is counted.
/// A new public method without a body fails here, naming it.
final class PublicEntryPointTests: XCTestCase {
    /// A public symbol: its path (`CALayer.presentation()`) and symbol graph kind
    /// (`swift.method`, `swift.property` ...).
    struct Symbol: Hashable {
        let path: String
        let kind: String
    }

    /// Kinds that declare a type: not entry points themselves (their members are).
    static let typeKinds: Set<String> = ["swift.class", "swift.struct", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"]

    /// The public symbols of module `Strata` (its own and its extensions of other modules'
    /// types), from the module this test build made.
    static func engineSymbols() throws -> [Symbol] {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let build = exe.deletingLastPathComponent()
        let modules = build.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("Strata.swiftmodule").path) else {
            throw SymbolGraphError("no Strata.swiftmodule beside the test executable (\(modules.path))")
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("strata-symbols-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let (status, output) = try runProcess("/usr/bin/env", [
            "swift-symbolgraph-extract", "-module-name", "Strata", "-target", "x86_64-unknown-linux-gnu",
            "-I", modules.path,
            "-Xcc", "-fmodule-map-file=\(build.appendingPathComponent("CStrataThread.build/module.modulemap").path)",
            "-Xcc", "-I\(root.appendingPathComponent("Sources/CStrataThread/include").path)",
            "-minimum-access-level", "public", "-output-dir", out.path])
        guard status == 0 else { throw SymbolGraphError("swift-symbolgraph-extract failed (\(status)):\n\(output)") }
        var symbols: [Symbol] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: out.path) where file.hasPrefix("Strata") && file.hasSuffix(".symbols.json") {
            let data = try Data(contentsOf: out.appendingPathComponent(file))
            let graph = try JSONDecoder().decode(Graph.self, from: data)
            for s in graph.symbols where !typeKinds.contains(s.kind.identifier) {
                symbols.append(Symbol(path: s.pathComponents.joined(separator: "."), kind: s.kind.identifier))
            }
        }
        return symbols
    }

    struct Graph: Decodable {
        struct S: Decodable {
            struct Kind: Decodable { let identifier: String }
            let kind: Kind
            let pathComponents: [String]
        }
        let symbols: [S]
    }

    /// A failure to read the symbols is a failure, not a skip: the list must be checked.
    struct SymbolGraphError: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    func test_everyPublicEntryPointIsCoveredByACountedBody() throws {
        let symbols = try Self.engineSymbols()
        // The graph is the whole surface, not a fragment of it.
        XCTAssertGreaterThan(symbols.count, 300, "the symbol graph holds \(symbols.count) public symbols")
        for expected in ["CALayer.presentation()", "CARenderer.renderFrame(atTime:)", "CARenderer.snapshot()", "CALayerBase.hitTest(_:)",
                         "CALayer.model()", "CALayer.value(forKeyPath:)", "CATransaction.begin()", "CALayer.action(forKey:)"] {
            XCTAssertTrue(symbols.contains { $0.path == expected }, "\(expected) is not among the public symbols read")
        }
        var unclaimed: [Symbol] = [], byKind: [PublicEntryPoints.Entry.Kind: Int] = [:]
        var usedPatterns = Set<String>()
        for s in Set(symbols).sorted(by: { $0.path < $1.path }) {
            guard let (entry, pattern) = PublicEntryPoints.entry(for: s.path, kind: s.kind) else {
                unclaimed.append(s)
                continue
            }
            usedPatterns.insert(pattern)
            byKind[entry.kind, default: 0] += 1
        }
        XCTAssertTrue(unclaimed.isEmpty, """
            public entry points no counted body covers (add a body to Benchmarks/Suites/ProgramSuite*.swift and \
            name it in PublicEntryPoints, or say there why none is needed):
            \(unclaimed.map { "  \($0.path) (\($0.kind))" }.joined(separator: "\n"))
            """)
        // Every pattern claims something (a renamed or removed entry point leaves none behind).
        for e in PublicEntryPoints.entries {
            for p in e.patterns where !usedPatterns.contains(p) {
                XCTFail("PublicEntryPoints names \(p), which claims no public symbol: remove it or fix its spelling")
            }
        }
        XCTAssertGreaterThan(byKind[.covered] ?? 0, 250, "symbols covered by bodies: \(byKind)")
    }

    func test_everyBodyAnEntryNamesIsCountedAndEveryEntryIsExplained() {
        let counted = Set(Suites.countedNames)
        let cases = Set((Suites.names.flatMap { Suites.cases($0) }).map(\.name))
        for e in PublicEntryPoints.entries {
            XCTAssertFalse(e.note.isEmpty, "\(e.patterns): no note")
            switch e.kind {
            case .covered:
                XCTAssertFalse(e.bodies.isEmpty, "\(e.patterns): covered by no body")
                for b in e.bodies {
                    XCTAssertTrue(counted.contains(b), "\(e.patterns) names \(b), which is not a counted body")
                    XCTAssertTrue(cases.contains(b), "\(e.patterns) names \(b), which is not a benchmark")
                }
            case .value, .setup, .compatibility:
                XCTAssertTrue(e.bodies.isEmpty, "\(e.patterns): a \(e.kind) entry names bodies")
            }
        }
        // Every body of the program suite is counted, and some entry names it.
        let named = Set(PublicEntryPoints.entries.flatMap(\.bodies))
        for b in ProgramSuite.names {
            XCTAssertTrue(counted.contains(b), "\(b) is not counted")
            XCTAssertTrue(named.contains(b), "\(b) covers no entry point in PublicEntryPoints")
        }
    }

    func test_patternsMatchWholePaths() {
        XCTAssertTrue(PublicEntryPoints.matches("CALayer.*", "CALayer.opacity"))
        XCTAssertTrue(PublicEntryPoints.matches("View.AnimationOptions*", "View.AnimationOptions.repeat"))
        XCTAssertTrue(PublicEntryPoints.matches("CALayer.presentation()", "CALayer.presentation()"))
        XCTAssertFalse(PublicEntryPoints.matches("CALayer.presentation()", "CALayer.presentation()x"))
        XCTAssertFalse(PublicEntryPoints.matches("CALayer.*", "CAShapeLayer.path"))
        XCTAssertTrue(PublicEntryPoints.matches("*.init()", "CALayer.init()"))
        // A property-only entry does not claim a method of the class.
        XCTAssertEqual(PublicEntryPoints.entry(for: "View.alpha", kind: "swift.property")?.entry.bodies.first, "program/properties/2")
        XCTAssertNil(PublicEntryPoints.entry(for: "View.someNewMethod()", kind: "swift.method"))
    }
}
