import Foundation
import XCTest

/// scripts/lib/leak-report.py, the classifier `scripts/sanitize address` uses to judge
/// LeakSanitizer's report: a leak made while a test ran is the tests' (XCTest keeps its
/// test-case objects), any other leak whose first own frame is in this checkout fails the run.
/// The checkout may sit at any path (a CI clone included), and a test target's sources may be
/// copies the SharedSources plugin puts under the build folder.
final class LeakReportTests: TemporaryDirectoryTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/lib/leak-report.py").path

    /// One LeakSanitizer block: the allocator, the Swift runtime, then `frames` (symbol, file).
    func block(_ bytes: Int, _ frames: [(String, String)]) -> String {
        var lines = ["Indirect leak of \(bytes) byte(s) in 1 object(s) allocated from:",
                     "    #0 0x561e59c5eb44 in malloc /home/build-user/llvm-project/compiler-rt/lib/asan/asan_malloc_linux.cpp:67:3",
                     "    #1 0x7f30bbe6fa6e in swift_slowAlloc (/opt/swift/usr/lib/swift/linux/libswiftCore.so+0x46fa6e)",
                     "    #2 0x7f30bbe6fdc6 in swift_allocObject (/opt/swift/usr/lib/swift/linux/libswiftCore.so+0x46fdc6)"]
        for (i, frame) in frames.enumerated() {
            lines.append("    #\(i + 3) 0x561e5a71b223 in \(frame.0) \(frame.1)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func classify(_ blocks: [String], script: String = LeakReportTests.script) throws -> (status: Int32, output: String) {
        let log = path("asan.log")
        let text = "==1==ERROR: LeakSanitizer: detected memory leaks\n\n" + blocks.joined(separator: "\n")
            + "\nSUMMARY: AddressSanitizer: 1 byte(s) leaked in 1 allocation(s).\n"
        try text.write(toFile: log, atomically: true, encoding: .utf8)
        return try runProcess("/usr/bin/python3", [script, log])
    }

    var root: String { Self.root.path }

    func test_aLeakInTheEnginesOwnCodeFailsWhereverTheCheckoutLives() throws {
        let engine = ("$s6Strata7CALayerC4makeyyF", root + "/Sources/Strata/Layers/CALayer.swift:186:90")
        let caller = ("$s6Strata13EngineContextC5beginyyF", root + "/Sources/Strata/Engine/EngineContext.swift:40:9")
        let (status, output) = try classify([block(96, [engine, caller])])
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("1 leak(s) charged to the project's code"), output)
        XCTAssertTrue(output.contains("project: Sources/Strata/Layers/CALayer.swift:186:90"), output)
    }

    func test_aLeakMadeWhileASharedSourcesTestRanIsTheTests() throws {
        // The reference engine's tests compile the fast engine's test files through the
        // SharedSources plugin: their frames sit under .build-asan/plugins/outputs, not Tests/.
        let engine = ("$s15StrataReference15PropertyChangesC3setyyF", root + "/Sources/StrataReference/PropertyChanges.swift:79:33")
        let test = ("$s20StrataReferenceTests017KeyframeAnimationC0C4name11testClosureACSS_y6XCTest0I4CaseCKctcfC",
                    root + "/.build-asan/plugins/outputs/main/StrataReferenceTests/destination/SharedSources/KeyframeAnimationTests.swift")
        let own = ("$s11StrataTests05BasicC0C4testyyF", root + "/Tests/StrataTests/BasicAnimationTests.swift:20:5")
        let (status, output) = try classify([block(7680, [engine, test]), block(512, [engine, own])])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("no leak charged to the project's code"), output)
        XCTAssertTrue(output.contains("8192      2  made by the tests"), output)
    }

    func test_aLeakInTheToolchainIsListedNotCharged() throws {
        let foundation = ("$s10Foundation8ProcessC3runyyKF", "(/opt/swift/usr/lib/swift/linux/libFoundation.so+0x1234)")
        let (status, output) = try classify([block(360, [foundation])])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("toolchain: libFoundation.so"), output)
    }

    func test_aCheckoutInsideAFolderNamedTestsStillOwnsItsLeaks() throws {
        // Only the path inside the checkout says whether a frame is a test's.
        let checkout = directory.appendingPathComponent("Tests/strata")
        let copy = checkout.appendingPathComponent("scripts/lib/leak-report.py")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.script, toPath: copy.path)
        let engine = ("$s6Strata7CALayerC4makeyyF", checkout.path + "/Sources/Strata/Layers/CALayer.swift:186:90")
        var (status, output) = try classify([block(96, [engine])], script: copy.path)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("project: Sources/Strata/Layers/CALayer.swift:186:90"), output)
        let test = ("$s11StrataTests05BasicC0C4testyyF", checkout.path + "/Tests/StrataTests/BasicAnimationTests.swift:20:5")
        (status, output) = try classify([block(96, [engine, test])], script: copy.path)
        XCTAssertEqual(status, 0, output)
    }

    func test_anotherCheckoutsFilesAreNotThisProjects() throws {
        // The same file names under some other folder: not this checkout, so not charged.
        let elsewhere = ("$s6Strata7CALayerC4makeyyF", "/somewhere/else/Sources/Strata/Layers/CALayer.swift:186:90")
        let (status, output) = try classify([block(96, [elsewhere])])
        XCTAssertEqual(status, 0, output)
        XCTAssertFalse(output.contains("charged to the project's code:"), output)
    }
}
