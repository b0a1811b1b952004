import Foundation
import StrataReportModel

/// The step from a run to the report model: Google Benchmark's entries matched to the cases
/// that were registered (the cases live in the harness, the model knows nothing of them).
extension ReportBuilder {
    /// Per-benchmark summaries from Google Benchmark's `benchmarks` array (its per-repetition
    /// entries; aggregates are recomputed from them), with the ratios to each baseline that
    /// ran: the floor (frame), the reference engine and `chain` (lookup).
    public static func summaries(_ document: [String: Any], cases: [BenchmarkCase]) -> [BenchmarkSummary] {
        let byName = Dictionary(cases.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var samples: [String: [Double]] = [:], iterations: [String: [Int]] = [:], errors: [String: String] = [:]
        var order: [String] = []
        for entry in document["benchmarks"] as? [[String: Any]] ?? [] {
            guard (entry["run_type"] as? String ?? "iteration") == "iteration" else { continue }
            let name = caseName(entry["run_name"] as? String ?? entry["name"] as? String ?? "")
            guard let c = byName[name] else { continue }
            if samples[name] == nil { order.append(name); samples[name] = [] }
            if entry["error_occurred"] as? Bool == true {
                errors[name] = entry["error_message"] as? String ?? "error"
                continue
            }
            guard let t = entry["real_time"] as? Double, t.isFinite else { continue }
            let ns = t * nanoseconds(per: entry["time_unit"] as? String ?? "ns")
            samples[name]!.append(ns / Double(max(c.items, 1)))
            iterations[name, default: []].append(entry["iterations"] as? Int ?? 0)
        }
        var out: [BenchmarkSummary] = order.map { name in
            let c = byName[name]!
            let s = samples[name] ?? []
            return BenchmarkSummary(
                name: name, suite: c.suite, item: c.item, itemsPerIteration: c.items, parameters: c.parameters,
                samplesNsPerItem: s, medianNsPerItem: median(s), minNsPerItem: s.min() ?? 0, maxNsPerItem: s.max() ?? 0,
                iterations: iterations[name] ?? [], error: errors[name])
        }
        addBaselineRatios(&out)
        return out
    }

    /// The case a Google Benchmark run name belongs to: the name less the `/iterations:N`
    /// Google Benchmark appends to a case whose iterations are pinned (`commit/retire/1000`
    /// runs as `commit/retire/1000/iterations:200`). Unmatched, those cases were left out of
    /// the report and its gate: the baseline refreshed after they were pinned had none of the
    /// 8 (its test, `ExportFormatTests`, found it).
    static func caseName(_ runName: String) -> String {
        guard let r = runName.range(of: "/iterations:", options: .backwards),
              !runName[r.upperBound...].isEmpty, runName[r.upperBound...].allSatisfy(\.isNumber) else { return runName }
        return String(runName[..<r.lowerBound])
    }

    static func nanoseconds(per unit: String) -> Double {
        switch unit {
        case "us": return 1e3
        case "ms": return 1e6
        case "s": return 1e9
        default: return 1
        }
    }
}
