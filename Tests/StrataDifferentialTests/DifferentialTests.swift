import XCTest
import Foundation
import StrataScript
import StrataDifferential

/// The fast engine and the reference engine must agree on every script: the committed
/// regression fixtures, a fixed range of generated seeds, and one time-based seed.
final class DifferentialTests: XCTestCase {
    override class func setUp() { Differential.silenceDiagnostics() }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/differential").standardizedFileURL

    func test_regressionFixtures_agree() throws {
        let files = (try? FileManager.default.contentsOfDirectory(at: Self.fixtures, includingPropertiesForKeys: nil)) ?? []
        for f in files where f.pathExtension == "json" {
            let script = try JSONDecoder().decode(Script.self, from: Data(contentsOf: f))
            XCTAssertNil(Differential.disagreement(script), f.lastPathComponent)
        }
    }

    /// Seeds 1... for a bounded time (STRATA_DIFF_SECONDS, 40 s by default), then one seed
    /// from the clock; a disagreement is shrunk, written as a fixture and reported with its seed.
    func test_generatedScripts_agree() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["STRATA_DIFF_SECONDS"] ?? "") ?? 40
        let fixed = Differential.fuzz(firstSeed: 1, seconds: seconds)
        report(fixed.finding)
        let clockSeed = UInt64(Date().timeIntervalSince1970 * 1000)
        let timed = Differential.fuzz(firstSeed: clockSeed, seconds: 60, maxScripts: 25)
        report(timed.finding)
        print("differential: \(fixed.ran) fixed-seed scripts, \(timed.ran) from clock seed \(clockSeed)")
        XCTAssertGreaterThan(fixed.ran, 50, "the bounded run should cover a useful number of scripts")
    }

    private func report(_ finding: Differential.Finding?) {
        guard let f = finding else { return }
        let url = try? Differential.writeFixture(f.shrunk, seed: f.seed, to: Self.fixtures)
        XCTFail("engines disagree on seed \(f.seed): \(f.message); shrunk script (\(f.shrunk.ops.count) ops) written to \(url?.path ?? "?")")
    }
}
