import Foundation

/// The few figures a reader looks for first, as a Markdown table: frame cost per animation
/// against the reference engine and the bandwidth floor, commit cost per change, and each
/// lookup strategy against `chain`. Printed after a run and pasted into notes.
public enum Headline {
    /// The headline tables of `block` (frame, commit, lookup, snapshot), the scene lines and
    /// the counts, as Markdown; suites that did not run are left out.
    public static func markdown(_ block: StrataBlock) -> String {
        var lines: [String] = []
        func ns(_ x: Double?) -> String {
            guard let x else { return "–" }
            return x >= 100 ? String(format: "%.0f", x) : x >= 10 ? String(format: "%.1f", x) : String(format: "%.2f", x)
        }
        func ratio(_ x: Double?) -> String { x.map { String(format: "%.2fx", $0) } ?? "–" }

        let frames = block.benchmarks.filter { $0.suite == "frame" && $0.parameters["engine"] == "strata" }
        if !frames.isEmpty {
            lines.append("| frame (ns per animation) | N | strata | reference | speed-up | floor | x floor |")
            lines.append("|---|---:|---:|---:|---:|---:|---:|")
            // The large sizes when they ran (a quick run has only small ones: then every size).
            let large = frames.contains { [10_000, 100_000, 1_000_000].contains(Int($0.parameters["n"] ?? "") ?? 0) }
            for s in frames.sorted(by: frameOrder) where s.error == nil {
                let n = Int(s.parameters["n"] ?? "") ?? 0
                if large && ![10_000, 100_000, 1_000_000].contains(n) { continue }
                let label = [s.parameters["width"], s.parameters["timing"], s.parameters["kind"]].compactMap { $0 }.joined(separator: " ")
                lines.append("| \(label) | \(n) | \(ns(s.medianNsPerItem)) | \(ns(s.referenceNsPerItem)) | \(ratio(s.speedupOverReference)) | \(ns(s.floorNsPerItem)) | \(ratio(s.ratioToFloor)) |")
            }
            lines.append("")
        }
        let commits = block.benchmarks.filter { $0.suite == "commit" && $0.error == nil }
        if !commits.isEmpty {
            lines.append("| commit (ns per change) | N | median | min | max |")
            lines.append("|---|---:|---:|---:|---:|")
            for s in commits {
                lines.append("| \(s.name.split(separator: "/").dropFirst().dropLast().joined(separator: " ")) | \(s.parameters["n"] ?? "") | \(ns(s.medianNsPerItem)) | \(ns(s.minNsPerItem)) | \(ns(s.maxNsPerItem)) |")
            }
            lines.append("")
        }
        let lookups = block.benchmarks.filter { $0.suite == "lookup" && $0.error == nil }
        if !lookups.isEmpty {
            lines.append("| lookup (ns per lookup) | strategy | median | x chain |")
            lines.append("|---|---|---:|---:|")
            for s in lookups {
                lines.append("| \(s.parameters["outcome"] ?? s.name) | \(s.parameters["strategy"] ?? "") | \(ns(s.medianNsPerItem)) | \(ratio(s.ratioToChain)) |")
            }
            lines.append("")
        }
        let snapshots = block.benchmarks.filter { $0.suite == "snapshot" && $0.error == nil && $0.parameters["engine"] != "floor" }
        if !snapshots.isEmpty {
            lines.append("| snapshot (ns per layer) | N | median | floor | x floor | vs | ratio |")
            lines.append("|---|---:|---:|---:|---:|---|---:|")
            for s in snapshots {
                let label = s.name.split(separator: "/").dropFirst().dropLast().joined(separator: " ")
                let versus = s.parameters["relativeTo"].map { $0.split(separator: "/").dropFirst().joined(separator: " ") }
                    ?? (s.referenceNsPerItem != nil ? "reference" : "")
                let r = s.ratioToRelative ?? s.speedupOverReference.map { 1 / $0 }
                lines.append("| \(label) | \(s.parameters["n"] ?? "") | \(ns(s.medianNsPerItem)) | \(ns(s.floorNsPerItem)) | \(ratio(s.ratioToFloor)) | \(versus) | \(r.map { String(format: "%.4fx", $0) } ?? "–") |")
            }
            lines.append("")
        }
        lines += variantTable(block.scenes)
        for scene in block.scenes {
            lines.append(String(format: "scene %@: %d frames, p50 %.3f ms, p99 %.3f ms, max %.3f ms, %.1f%% within 8.33 ms, hitch %.1f ms/s (%@)",
                                scene.name, scene.frames, scene.p50, scene.p99, scene.max, 100 * scene.withinBudget8,
                                scene.hitchMsPerSecond, scene.hitchRating.rawValue))
            if let o = scene.frameOverrunMs {
                lines.append(String(format: "  frame overrun (time minus the 60 Hz budget, CPU-side): p50 %.2f, p90 %.2f, p95 %.2f, p99 %.2f ms over %d frames",
                                    o.p50, o.p90, o.p95, o.p99, scene.frames))
            }
            if let p50 = scene.snapshotP50, let p99 = scene.snapshotP99 {
                lines.append(String(format: "  of which the render snapshot: p50 %.3f ms, p99 %.3f ms", p50, p99))
            }
            if let m = scene.memory {
                lines.append(String(format: "  memory: %.0f bytes per layer, %.0f per running animation; stores %+d bytes, resident %+d KiB from warm-up to frame %d, less %d KiB the player's recording grew by (peak resident %d KiB)",
                                    m.bytesPerLayer, m.bytesPerAnimation, m.storeGrowthBytes, m.residentGrowthBytes / 1024,
                                    m.samples.last?.frame ?? 0, m.harnessGrowthBytes / 1024, m.peakResidentBytes / 1024))
            }
        }
        let bodies = block.counts.filter { $0.frames == nil }
        if !bodies.isEmpty {
            lines.append("")
            lines.append("| counts per item | instructions | mallocs |")
            lines.append("|---|---:|---:|")
            for c in bodies {
                lines.append("| \(c.name) | \(c.instructionsPerItem.map { String(format: "%.1f", $0) } ?? "–") | \(String(format: "%.3f", c.mallocsPerItem)) |")
            }
        }
        lines += frameCostTable(block.counts)
        return lines.joined(separator: "\n")
    }

    /// The scenes' deterministic frame cost: per-frame p50 and p99 of instructions and
    /// estimated cycles, mallocs per frame, and each phase's share.
    public static func frameCostTable(_ counts: [CountResult]) -> [String] {
        let scenes = counts.filter { $0.frames != nil }
        guard !scenes.isEmpty else { return [] }
        func big(_ x: Double?) -> String {
            guard let x else { return "–" }
            return x >= 1e6 ? String(format: "%.2fM", x / 1e6) : x >= 1e3 ? String(format: "%.1fk", x / 1e3) : String(format: "%.0f", x)
        }
        var lines = ["", "| frame cost (per frame) | frames | instructions p50 | p99 | estimated cycles p50 | p99 | mallocs | phases (share of estimated cycles) | counted in |",
                     "|---|---:|---:|---:|---:|---:|---:|---|---:|"]
        for c in scenes {
            guard let f = c.frames else { continue }
            let phases = f.phases.filter { $0.share > 0 }.map { String(format: "%@ %.0f%%", $0.name, 100 * $0.share) }.joined(separator: ", ")
            lines.append("| \(c.name) | \(f.frames) | \(big(f.instructions?.p50)) | \(big(f.instructions?.p99)) | \(big(f.estimatedCycles?.p50)) | \(big(f.estimatedCycles?.p99)) | \(String(format: "%.2f", f.mallocs.mean)) | \(phases) | \(f.countingSeconds.map { String(format: "%.0f s", $0) } ?? "–") |")
        }
        return lines
    }

    /// Scenes run under several engines or lookup strategies, side by side: each variant's
    /// percentiles and hitch ratio, and its p50 and p99 against the first variant's.
    public static func variantTable(_ scenes: [SceneResult]) -> [String] {
        var lines: [String] = []
        for (scene, runs) in variants(scenes) {
            lines.append("| \(scene) | engine | strategy | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | hitch ms/s | p50 / first | p99 / first |")
            lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
            let first = runs[0]
            for r in runs {
                lines.append(String(format: "| %@ | %@ | %@ | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f | %.2fx | %.2fx |",
                                    r.name, r.engine ?? "fast", r.strategy ?? "", r.p50, r.p90, r.p99, r.p999, r.max,
                                    r.hitchMsPerSecond, r.p50 / max(first.p50, 1e-9), r.p99 / max(first.p99, 1e-9)))
            }
            lines.append("")
        }
        return lines
    }

    /// Results grouped by scene, for scenes with more than one run, in run order.
    public static func variants(_ scenes: [SceneResult]) -> [(String, [SceneResult])] {
        var order: [String] = []
        var groups: [String: [SceneResult]] = [:]
        for s in scenes {
            let key = s.scene ?? s.name
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(s)
        }
        return order.compactMap { k in groups[k].flatMap { $0.count > 1 ? (k, $0) : nil } }
    }

    /// Frames by width, timing, kind, then N.
    static func frameOrder(_ a: BenchmarkSummary, _ b: BenchmarkSummary) -> Bool {
        let ka = [a.parameters["kind"] ?? "", a.parameters["timing"] ?? "", a.parameters["width"] ?? ""]
        let kb = [b.parameters["kind"] ?? "", b.parameters["timing"] ?? "", b.parameters["width"] ?? ""]
        if ka != kb { return ka.lexicographicallyPrecedes(kb) }
        return (Int(a.parameters["n"] ?? "") ?? 0) < (Int(b.parameters["n"] ?? "") ?? 0)
    }
}
