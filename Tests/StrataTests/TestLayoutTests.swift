import Foundation
import XCTest

/// Where a test file of the fast engine belongs. A file in Tests/StrataTests reaches into the
/// engine (`@testable import Strata`) or says why it is this engine's alone (an
/// `// engine-only:` line); a test of public behaviour goes to Tests/Conformance, which both
/// engines' test targets compile, and is written against either engine (`#if
/// STRATA_REFERENCE`), never `@testable`.
final class TestLayoutTests: XCTestCase {
    private let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    private func swiftFiles(_ folder: String) throws -> [(name: String, text: String)] {
        let dir = tests.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".swift") }.sorted()
            .map { ($0, try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8)) }
    }

    func test_anEngineTestIsTestableOrSaysWhyItIsEngineOnly() throws {
        let files = try swiftFiles("StrataTests")
        XCTAssertGreaterThan(files.count, 10)
        for (name, text) in files where name != "TestLayoutTests.swift" {
            let testable = text.contains("@testable import Strata\n")
            let engineOnly = text.range(of: #"// engine-only: \S"#, options: .regularExpression) != nil
            XCTAssertTrue(testable || engineOnly,
                          "Tests/StrataTests/\(name) uses only the public API: move it to Tests/Conformance (both engines), or add `// engine-only: <why>`")
        }
    }

    /// Tests/Conformance and its folders (the porting corpus, `Ports`).
    private func conformanceFolders() throws -> [String] {
        let dir = tests.appendingPathComponent("Conformance")
        let subfolders = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path, isDirectory: &isFolder) && isFolder.boolValue
        }
        return ["Conformance"] + subfolders.sorted().map { "Conformance/\($0)" }
    }

    func test_aConformanceSuiteBuildsAgainstEitherEngine() throws {
        let files = try conformanceFolders().flatMap { folder in try swiftFiles(folder).map { ("\(folder)/\($0.name)", $0.text) } }
        XCTAssertGreaterThan(files.count, 10)
        for (name, text) in files {
            XCTAssertFalse(text.contains("@testable"), "Tests/\(name) must test public behaviour only")
            XCTAssertTrue(text.contains("#if STRATA_REFERENCE\nimport StrataReference\n#else\nimport Strata\n#endif"),
                          "Tests/\(name) must import the engine under test with #if STRATA_REFERENCE")
        }
    }

    /// The reference engine's test target compiles the whole Conformance folder, its folders
    /// included (the SharedSources plugin takes the files directly in each folder it names).
    func test_theReferenceTestsShareTheConformanceFolder() throws {
        let list = try String(contentsOf: tests.appendingPathComponent("StrataReferenceTests/shared-sources"), encoding: .utf8)
        let entries = list.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        XCTAssertEqual(entries.map(String.init), try conformanceFolders().map { "Tests/\($0)" })
    }
}
