import Foundation
import StrataReportModel
import XCTest

/// A scene's memory readings: the resident growth they report is the process's less what the
/// suite itself held (the player's recorded frames), which grows over a run up to its budget.
final class SceneMemoryTests: XCTestCase {
    private func sample(_ frame: Int, resident: Int, harness: Int?) -> SceneMemory.Sample {
        SceneMemory.Sample(frame: frame, residentBytes: resident, storeBytes: 1 << 20, layers: 10, animations: 5,
                           harnessBytes: harness)
    }

    func test_residentGrowthLeavesOutTheSuitesOwnHoldings() {
        let m = SceneMemory(samples: [sample(60, resident: 50 << 20, harness: 100_000),
                                      sample(600, resident: 54 << 20, harness: 4_100_000)],
                            bytesPerLayer: 300, bytesPerAnimation: 200)
        XCTAssertEqual(m.harnessGrowthBytes, 4_000_000)
        XCTAssertEqual(m.residentGrowthBytes, (4 << 20) - 4_000_000)
        XCTAssertEqual(m.peakResidentBytes, 54 << 20, "the peak is the process's, as read")
    }

    /// Readings without the field (no player, or a report from before it was read) keep the
    /// process's growth, and decode.
    func test_readingsWithoutHarnessBytesKeepTheProcesssGrowth() throws {
        let json = """
        {"samples": [{"frame": 60, "resident_bytes": 1000, "store_bytes": 8, "layers": 1, "animations": 0},
                     {"frame": 600, "resident_bytes": 5096, "store_bytes": 8, "layers": 1, "animations": 0}],
         "bytes_per_layer": 1, "bytes_per_animation": 2, "peak_resident_bytes": 5096, "peak_store_bytes": 8}
        """
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let m = try decoder.decode(SceneMemory.self, from: Data(json.utf8))
        XCTAssertNil(m.samples[0].harnessBytes)
        XCTAssertEqual(m.residentGrowthBytes, 4096)
        XCTAssertEqual(m.harnessGrowthBytes, 0)
    }
}
