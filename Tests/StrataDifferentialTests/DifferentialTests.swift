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

    /// Seeds 1...100 always, then on for a bounded time (STRATA_DIFF_SECONDS, 40 s by default
    /// in all), then seeds from the clock; a disagreement is shrunk, written as a fixture and
    /// reported with its seed. (The first hundred are a count, not a rate: a busy machine runs
    /// fewer scripts in the time, never fewer than these.)
    func test_generatedScripts_agree() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["STRATA_DIFF_SECONDS"] ?? "") ?? 40
        let started = Date()
        let floor = Differential.fuzz(firstSeed: 1, seconds: .infinity, maxScripts: 100)
        report(floor.finding)
        var fixed = floor
        if floor.finding == nil {
            let rest = Differential.fuzz(firstSeed: 101, seconds: seconds - Date().timeIntervalSince(started))
            report(rest.finding)
            fixed = (floor.ran + rest.ran, rest.finding)
        }
        let clockSeed = UInt64(Date().timeIntervalSince1970 * 1000)
        let timed = Differential.fuzz(firstSeed: clockSeed, seconds: 60, maxScripts: 25)
        report(timed.finding)
        print("differential: \(fixed.ran) fixed-seed scripts, \(timed.ran) from clock seed \(clockSeed)")
        XCTAssertGreaterThanOrEqual(fixed.ran, 100, "seeds 1...100 ran whatever the time")
    }

    private func report(_ finding: Differential.Finding?) {
        guard let f = finding else { return }
        let url = try? Differential.writeFixture(f.shrunk, seed: f.seed, to: Self.fixtures)
        XCTFail("engines disagree on seed \(f.seed): \(f.message); shrunk script (\(f.shrunk.ops.count) ops) written to \(url?.path ?? "?")")
    }
}
