import Foundation
import StrataBench

/// Synthetic reports, built as the JSON a report file holds (the model's types have no public
/// memberwise initialisers) and decoded the way `ReportBuilder.read` decodes them.
enum Fixtures {
    static func decode<T: Decodable>(_ type: T.Type, _ object: Any) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(T.self, from: JSONSerialization.data(withJSONObject: object))
    }

    static let machine: [String: Any] = [
        "cpu_model": "Test CPU <fast>", "cores": 2, "cpu_flags": ["avx2", "fma"], "memory_bytes": 8_589_934_592,
        "kernel": "Linux 6.1", "swift_version": "Swift version 6.3.1", "git_commit": "0123456789abcdef0123456789abcdef01234567",
        "git_dirty": false, "build_configuration": "release", "build_flags": "-O -target-cpu haswell",
        "google_benchmark_version": "1.7.1-1", "google_benchmark_build_type": "debug", "valgrind": "valgrind-3.19.0",
        "perf_available": false, "hostname": "ci",
    ]

    static func benchmark(_ name: String, suite: String, item: String, items: Int, parameters: [String: String],
                          median: Double, extra: [String: Any] = [:]) -> [String: Any] {
        let samples = (0..<9).map { median * (1 + 0.01 * Double($0 - 4)) }
        var b: [String: Any] = [
            "name": name, "suite": suite, "item": item, "items_per_iteration": items, "parameters": parameters,
            "samples_ns_per_item": samples, "median_ns_per_item": median, "min_ns_per_item": samples.min()!,
            "max_ns_per_item": samples.max()!, "iterations": Array(repeating: 1000, count: 9),
        ]
        for (k, v) in extra { b[k] = v }
        return b
    }

    /// Every suite, two scenes' worth of frames (one over budget), counts, a growth fit flagged
    /// super-linear, and a benchmark whose name carries markup.
    static func fullBlock(evilName: String = "lookup/<script>alert(1)</script>&\"quoted\"/chain") throws -> StrataBlock {
        var benchmarks: [[String: Any]] = []
        let sizes = [100, 1_000, 10_000]
        for (width, kind) in [("opacity", "basic"), ("position", "keyframe")] {
            for n in sizes {
                let bytes = n * 32
                let floorName = "frame/floor/\(bytes)"
                for timing in ["shared", "own"] {
                    var p = ["suite": "frame", "engine": "strata", "width": width, "timing": timing, "kind": kind,
                             "n": "\(n)", "bytes": "\(bytes)", "floor": floorName]
                    let median = (timing == "own" ? 30.0 : 1.5) * (1 + log10(Double(n)) / 10)
                    benchmarks.append(benchmark("frame/\(width)/\(timing)/\(kind)/\(n)", suite: "frame", item: "animation", items: n,
                                                parameters: p, median: median,
                                                extra: ["floor_ns_per_item": 0.3, "ratio_to_floor": median / 0.3,
                                                        "reference_ns_per_item": 900.0, "speedup_over_reference": 900 / median]))
                    if timing == "shared" {
                        p["engine"] = "reference"
                        benchmarks.append(benchmark("frame/reference/\(width)/\(timing)/\(kind)/\(n)", suite: "frame", item: "animation",
                                                    items: n, parameters: p, median: 900, extra: ["floor_ns_per_item": 0.3]))
                    }
                }
                benchmarks.append(benchmark(floorName, suite: "frame", item: "byte", items: bytes,
                                            parameters: ["suite": "frame", "engine": "floor", "n": "\(bytes)", "bytes": "\(bytes)"], median: 0.01))
            }
        }
        for outcome in ["built-in", "miss"] {
            for (i, strategy) in ["chain", "interned", "cached"].enumerated() {
                let median = i == 0 ? 60.0 : 11.0
                benchmarks.append(benchmark("lookup/\(outcome)/\(strategy)", suite: "lookup", item: "lookup", items: 256,
                                            parameters: ["suite": "lookup", "strategy": strategy, "outcome": outcome, "n": "256"],
                                            median: median, extra: ["chain_ns_per_item": 60.0, "ratio_to_chain": median / 60]))
            }
        }
        benchmarks.append(benchmark(evilName, suite: "lookup", item: "lookup", items: 256,
                                    parameters: ["suite": "lookup", "strategy": "chain", "outcome": "<evil>", "n": "256"], median: 70))
        for variant in ["implicit", "nested"] {
            for n in sizes {
                benchmarks.append(benchmark("commit/\(variant)/\(n)", suite: "commit", item: "change", items: n,
                                            parameters: ["suite": "commit", "variant": variant, "properties": "1", "n": "\(n)"],
                                            median: variant == "implicit" ? 63 : 300))
            }
        }
        for n in sizes {   // the reference engine's commits: a line of their own
            benchmarks.append(benchmark("commit/reference/implicit/\(n)", suite: "commit", item: "change", items: n,
                                        parameters: ["suite": "commit", "engine": "reference", "variant": "implicit", "properties": "1", "n": "\(n)"],
                                        median: 1_800))
        }
        var growth: [[String: Any]] = []
        for op in ["build", "convert-time"] {
            for shape in ["chain", "fan"] {
                var points: [[Double]] = []
                let exponent = op == "convert-time" && shape == "chain" ? 2.0 : 1.0
                for n in sizes {
                    let perIteration = 100 * pow(Double(n), exponent)
                    let items = op == "build" ? n : 1
                    points.append([Double(n), perIteration])
                    benchmarks.append(benchmark("tree/\(op)/\(shape)/\(n)", suite: "tree", item: "layer", items: items,
                                                parameters: ["suite": "tree", "operation": op, "shape": shape, "n": "\(n)"],
                                                median: perIteration / Double(items)))
                }
                growth.append(["family": "operation=\(op),shape=\(shape),suite=tree",
                               "suite": "tree", "points": points, "exponent": exponent, "super_linear": exponent > 1.15])
            }
        }
        benchmarks.append(benchmark("commit/broken/100", suite: "commit", item: "change", items: 100,
                                    parameters: ["suite": "commit", "variant": "broken", "n": "100"], median: 0,
                                    extra: ["error": "precondition failed: <no animations>", "samples_ns_per_item": [Double](), "min_ns_per_item": 0, "max_ns_per_item": 0]))

        var frames: [Double] = (0..<600).map { 0.1 + 0.02 * Double($0 % 7) }
        frames[300] = 20.5
        let scene: [String: Any] = [
            "name": "app-10k", "description": "10,000 layers & <friends>", "layers": 10_101, "frames": frames.count, "warmup_frames": 30,
            "p50": 0.15, "p90": 0.2, "p99": 0.22, "p999": 20.5, "max": 20.5, "mean": 0.19, "render_p50": 0.03, "render_p99": 0.06,
            "within_budget16": 599.0 / 600, "within_budget8": 599.0 / 600, "dropped_frames": 1, "hitch_ms_per_second": 0.4,
            "histogram": [[100_000.0, 200.0], [125_000.0, 250.0], [156_250.0, 149.0], [20_971_520.0, 1.0]], "frame_times_ms": frames,
            "memory": ["samples": [["frame": 30, "resident_bytes": 33_554_432, "store_bytes": 4_194_304, "layers": 10_101, "animations": 2_700],
                                   ["frame": 630, "resident_bytes": 34_603_008, "store_bytes": 4_194_304, "layers": 10_101, "animations": 2_712]],
                       "bytes_per_layer": 354.0, "bytes_per_animation": 236.6, "peak_resident_bytes": 34_603_008, "peak_store_bytes": 4_194_304],
        ]
        let block: [String: Any] = [
            "schema_version": 1, "tool": "strata-bench", "created_at": "2026-01-02T03:04:05Z", "machine": machine,
            "options": ["quick": false, "suites": ["frame", "lookup", "commit", "tree", "scenes"], "repetitions": 9, "min_time": 0.05,
                        "google_benchmark_arguments": ["--benchmark_repetitions=9"]],
            "benchmarks": benchmarks, "growth": growth, "scenes": [scene],
            "counts": [["name": "frame/opacity/shared/basic/1000", "item": "animation", "items_per_iteration": 1000, "iterations": 20,
                        "instructions_per_item": 15.5, "mallocs_per_item": 0, "frees_per_item": 0, "bytes_allocated_per_item": 0]],
            "hand_timed_check": ["benchmark": "frame/opacity/shared/basic/1000", "google_benchmark_ns_per_item": 1.5,
                                 "hand_timed_ns_per_item": 1.45, "ratio": 1.034, "method": "median of 9 batches"],
            "warnings": ["a warning with <markup> & ampersands"],
        ]
        return try decode(StrataBlock.self, block)
    }

    /// A quick run: each frame family at one size, no scenes, no counts.
    static func quickBlock() throws -> StrataBlock {
        var full = try fullBlock()
        full.benchmarks = full.benchmarks.filter { $0.suite == "frame" && $0.parameters["n"] == "1000" }
        full.growth = []
        full.scenes = []
        full.counts = []
        full.options.quick = true
        return full
    }

    static func comparison() -> Comparison {
        Comparison(baselinePath: "reports/baseline.json", headPath: "reports/latest.json", timeThreshold: 0.05, countThreshold: 0.01,
                   sameMachine: true, notes: ["a note with <b>markup</b>"], rows: [
                       ComparisonRow(name: "frame/opacity/shared/basic/1000", metric: "time", baseline: 1.5, head: 1.8, change: 0.2,
                                     ciLow: 0.15, ciHigh: 0.25, pValue: 0.0004, verdict: .regression),
                       ComparisonRow(name: "frame/position/own/keyframe/1000", metric: "time", baseline: 30, head: 27, change: -0.1,
                                     ciLow: -0.12, ciHigh: -0.08, pValue: 0.001, verdict: .improvement),
                       ComparisonRow(name: "lookup/miss/chain", metric: "time", baseline: 60, head: 60.3, change: 0.005,
                                     ciLow: -0.01, ciHigh: 0.02, pValue: 0.6, verdict: .unchanged),
                       ComparisonRow(name: "commit/implicit/100", metric: "time", baseline: 63, head: 70, change: 0.11, verdict: .insufficientData),
                       ComparisonRow(name: "frame/opacity/shared/basic/1000", metric: "instructions", baseline: 15.5, head: 17.1,
                                     change: 0.103, verdict: .regression),
                       ComparisonRow(name: "frame/opacity/shared/basic/1000", metric: "mallocs", baseline: 0, head: 0, change: 0, verdict: .unchanged),
                       ComparisonRow(name: "tree/new/1", metric: "time", baseline: nil, head: 5, change: nil, verdict: .new),
                   ])
    }
}
