import Strata
import XCTest
@testable import StrataBench
@testable import StrataBenchSuites

/// The frame suite's fixtures: each builds, passes its own precondition, renders, and leaves
/// nothing behind in the engine once released (a leftover would be timed by the next case).
final class FrameSuiteTests: XCTestCase {
    func test_everyFrameSpecBuildsRendersAndReleasesItsAnimations() throws {
        let baseLayers = StrataEngine.layerCount
        let baseAnimations = StrataEngine.activeAnimationCount
        var seen = Set<FrameSpec>()
        for s in FrameSuite.specs() where s.n == 100 {
            seen.insert(s)
            do {
                let w = try makeFrameWorkload(s)
                XCTAssertGreaterThanOrEqual(StrataEngine.activeAnimationCount - baseAnimations, s.n, s.tail)
                w.run()
                w.run()
            }
            XCTAssertEqual(StrataEngine.activeAnimationCount, baseAnimations, "\(s.tail): animations left running after release")
            XCTAssertEqual(StrataEngine.layerCount, baseLayers, "\(s.tail): layers left alive after release")
        }
        // Every width, timing and kind is exercised at N = 100.
        XCTAssertEqual(Set(seen.map(\.width)), Set(FrameSpec.Width.allCases))
        XCTAssertEqual(Set(seen.map(\.timing)), Set(FrameSpec.Timing.allCases))
        XCTAssertEqual(Set(seen.map(\.kind)), Set(FrameSpec.Kind.allCases))
    }

    func test_casesHaveUniqueNamesAndEveryFrameCaseHasItsFloor() {
        let cases = FrameSuite.cases()
        let names = cases.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        for c in cases where c.parameters["engine"] == "strata" {
            XCTAssertTrue(names.contains(c.parameters["floor"] ?? "?"), "\(c.name) has no floor case")
        }
        XCTAssertTrue(cases.contains { $0.quick })
    }

    func test_triadFloorComputesTheTriad() throws {
        let w = try TriadFloor.workload(bytes: 24_000)
        w.run()
        let t = try XCTUnwrap(w.retained.first as? TriadFloor)
        XCTAssertEqual(t.n, 1000)
        XCTAssertEqual(t.c[999], 2)
    }

    /// The two-thread triad writes every element (both halves), and sits beside each size of
    /// the two-thread frame cases.
    func test_twoThreadTriadCoversBothHalvesBesideTheTwoThreadFrames() throws {
        let t = TriadFloor(bytes: 24_024)   // 1001 elements: an odd split
        t.run2(0.5)
        XCTAssertEqual(t.n, 1001)
        XCTAssertTrue((0..<t.n).allSatisfy { t.c[$0] == 2 })
        let cases = FrameSuite.cases()
        let names = Set(cases.map(\.name))
        let twoThread = cases.filter { $0.parameters["threads"] == "2" && $0.parameters["engine"] == "strata" }
        XCTAssertFalse(twoThread.isEmpty)
        for c in twoThread {
            XCTAssertTrue(names.contains("frame/floor-2-threads/\(c.parameters["bytes"]!)"), c.name)
        }
    }
}
