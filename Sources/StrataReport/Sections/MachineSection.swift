import Foundation
import StrataReportModel

/// The machine fingerprint and build flags (beside the baseline's when there is one), the run
/// options, Google Benchmark's context and the hand-timed check.
enum MachineSection {
    static func fingerprintRows(_ m: MachineFingerprint) -> [(String, String)] {
        [("CPU", m.cpuModel), ("cores", "\(m.cores)"), ("CPU flags", m.cpuFlags.joined(separator: " ")),
         ("memory", Format.bytes(Double(m.memoryBytes))), ("kernel", m.kernel), ("Swift", m.swiftVersion),
         ("git commit", m.gitCommit + (m.gitDirty ? " (dirty)" : "")), ("build configuration", m.buildConfiguration),
         ("build flags", m.buildFlags), ("Google Benchmark", "\(m.googleBenchmarkVersion) (\(m.googleBenchmarkBuildType) build)"),
         ("valgrind", m.valgrind ?? "not available"), ("perf counters", m.perfAvailable ? "available" : "not available"),
         ("host", m.hostname)]
    }

    static func render(_ block: StrataBlock, googleBenchmark: [String: Any], baseline: StrataBlock?) -> Section {
        var html = ""
        let head = fingerprintRows(block.machine)
        if let baseline {
            let base = fingerprintRows(baseline.machine)
            let same = block.machine.timingKey == baseline.machine.timingKey
            html += same ? paragraph("Same machine kind and build as the baseline (timing key): times are comparable.", cls: "callout good")
                         : "<p class=\"callout warn\"><strong>Different machine kind or build than the baseline</strong> (CPU, cores, flags, Swift, configuration or build flags differ): times are not comparable.</p>"
            var t = Table([.init("field"), .init("this run"), .init("baseline")], cls: "data-table kv")
            for ((k, v), (_, b)) in zip(head, base) {
                t.add([.text(k), .text(v), .text(b)], cls: v == b || k == "git commit" || k == "host" ? nil : "differs")
            }
            html += t.html
        } else {
            var t = Table([.init("field"), .init("value")], cls: "data-table kv")
            for (k, v) in head { t.add(text: [k, v]) }
            html += t.html
        }

        let o = block.options
        var ot = Table([.init("option"), .init("value")], cls: "data-table kv")
        ot.add(text: ["run", o.quick ? "quick (CI's short run)" : "full"])
        ot.add(text: ["suites", o.suites.joined(separator: ", ")])
        ot.add(text: ["filter", o.filter ?? "none"])
        ot.add(text: ["repetitions", "\(o.repetitions)"])
        ot.add(text: ["minimum time", "\(Format.compact(o.minTime)) s per repetition"])
        ot.add(text: ["Google Benchmark arguments", o.googleBenchmarkArguments.joined(separator: " ")])
        ot.add(text: ["report", "\(block.tool), schema \(block.schemaVersion), created \(block.createdAt)"])
        html += "<h3>Run options</h3>" + ot.html

        if let context = googleBenchmark["context"] as? [String: Any], !context.isEmpty {
            var ct = Table([.init("key"), .init("value")], cls: "data-table kv")
            for key in context.keys.sorted() { ct.add(text: [key, describe(key, context[key]!)]) }
            html += "<details><summary>Google Benchmark context</summary>\(ct.html)</details>"
        }
        if block.machine.googleBenchmarkBuildType == "debug" {
            html += paragraph("Google Benchmark is Debian's libbenchmark, a debug build (library_build_type=debug): its timing loop is compiled without optimisation. "
                              + "The benchmark bodies are this release build's; the hand-timed check below measures what the loop adds.", cls: "note")
        }
        if let h = block.handTimedCheck {
            let off = abs(h.ratio - 1)
            html += "<h3 id=\"hand-timed\">Hand-timed check</h3>"
            var ht = Table([.init("benchmark"), .init("Google Benchmark", numeric: true), .init("by hand", numeric: true),
                            .init("ratio", numeric: true), .init("method")])
            ht.add(text: [h.benchmark, Format.ns(h.googleBenchmarkNsPerItem), Format.ns(h.handTimedNsPerItem), Format.ratio(h.ratio), h.method],
                   cls: off > 0.1 ? "differs" : nil)
            html += ht.html
            html += paragraph(off <= 0.1
                ? "Google Benchmark's figure is within 10% of the hand-timed one: its debug-built timing loop does not distort this kernel."
                : "Google Benchmark's figure differs from the hand-timed one by \(Format.percent(off)): read its absolute times with care.",
                cls: off <= 0.1 ? "note" : "note warn")
        }
        return Section(id: "machine", title: "Machine and build", html: html)
    }

    /// A context value as text: caches and load averages spelled out, numbers as numbers.
    static func describe(_ key: String, _ value: Any) -> String {
        if key == "caches", let caches = value as? [[String: Any]] {
            return caches.map { c in
                let size = (c["size"] as? NSNumber).map { Format.bytes($0.doubleValue) } ?? "?"
                let sharing = (c["num_sharing"] as? NSNumber)?.intValue ?? 1
                return "L\((c["level"] as? NSNumber)?.intValue ?? 0) \(c["type"] as? String ?? "") \(size)" + (sharing > 1 ? " (shared by \(sharing))" : "")
            }.joined(separator: ", ")
        }
        switch value {
        case let s as String: return s
        case let b as Bool: return b ? "true" : "false"
        case let n as NSNumber: return Format.compact(n.doubleValue, 6)
        case let a as [Any]: return a.map { describe("", $0) }.joined(separator: ", ")
        case let d as [String: Any]: return d.keys.sorted().map { "\($0): \(describe($0, d[$0]!))" }.joined(separator: "; ")
        default: return "\(value)"
        }
    }
}
