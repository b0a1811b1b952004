import Foundation

/// Turns Google Benchmark's JSON into the report: its own document untouched, plus the
/// `strata` block of per-item summaries, baselines ratios and growth fits.
public enum ReportBuilder {
    /// Google Benchmark's document as a JSON object. Its writer prints `nan`/`inf` for
    /// non-finite counters; those become `null` (with a warning) so the file stays strict JSON.
    public static func parseGoogleBenchmark(_ text: String, warnings: inout [String]) throws -> [String: Any] {
        var cleaned = text
        let pattern = #"(:\s*)-?(nan|inf)\b"#
        if let re = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) {
            let range = NSRange(cleaned.startIndex..., in: cleaned)
            let hits = re.numberOfMatches(in: cleaned, range: range)
            if hits > 0 {
                cleaned = re.stringByReplacingMatches(in: cleaned, range: range, withTemplate: "$1null")
                warnings.append("Google Benchmark wrote \(hits) non-finite value(s); written as null")
            }
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(cleaned.utf8)) as? [String: Any] else {
            throw BenchmarkError("Google Benchmark's output is not a JSON object")
        }
        return object
    }

    /// Fills the floor, reference, chain and `relativeTo` ratios from benchmarks of the same run.
    package static func addBaselineRatios(_ summaries: inout [BenchmarkSummary]) {
        let index = Dictionary(summaries.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        let byParameters = Dictionary(summaries.enumerated().map { ($0.element.parameters, $0.offset) },
                                      uniquingKeysWith: { a, _ in a })
        for i in summaries.indices {
            let s = summaries[i]
            guard s.error == nil, s.medianNsPerItem > 0 else { continue }
            if let floorName = s.parameters["floor"], let bytes = Double(s.parameters["bytes"] ?? ""),
               let f = index[floorName], summaries[f].error == nil {
                let perItem = summaries[f].medianNsPerItem * bytes / Double(max(s.itemsPerIteration, 1))
                summaries[i].floorNsPerItem = finite(perItem)
                summaries[i].ratioToFloor = finite(s.medianNsPerItem / perItem)
            }
            if s.parameters["engine"] == "strata" {
                var p = s.parameters
                p["engine"] = "reference"
                if let r = byParameters[p], summaries[r].error == nil {
                    summaries[i].referenceNsPerItem = summaries[r].medianNsPerItem
                    summaries[i].speedupOverReference = finite(summaries[r].medianNsPerItem / s.medianNsPerItem)
                }
            }
            if let other = s.parameters["relativeTo"], let r = index[other], summaries[r].error == nil,
               summaries[r].medianNsPerItem > 0 {
                summaries[i].relativeNsPerItem = summaries[r].medianNsPerItem
                summaries[i].ratioToRelative = finite(s.medianNsPerItem / summaries[r].medianNsPerItem)
            }
            if let strategy = s.parameters["strategy"] {
                var p = s.parameters
                p["strategy"] = "chain"
                if let c = byParameters[p], summaries[c].error == nil {
                    summaries[i].chainNsPerItem = summaries[c].medianNsPerItem
                    summaries[i].ratioToChain = strategy == "chain" ? 1 : finite(s.medianNsPerItem / summaries[c].medianNsPerItem)
                }
            }
        }
    }

    /// Growth of cost with N: benchmarks grouped by every parameter but `n` (and those that
    /// follow from it: `BenchmarkSummary.sizeParameters`), fitted where a family has 3 or more sizes.
    public static func growth(_ summaries: [BenchmarkSummary]) -> [GrowthFit] {
        var families: [String: [(n: Double, ns: Double, suite: String)]] = [:]
        for s in summaries where s.error == nil && s.parameters["engine"] != "floor" {
            guard let n = Double(s.parameters["n"] ?? ""), n > 0, s.medianNsPerItem > 0 else { continue }
            families[s.familyKey, default: []].append((n, s.medianNsPerItem * Double(s.itemsPerIteration), s.suite))
        }
        return families.compactMap { key, points -> GrowthFit? in
            let p = points.sorted { $0.n < $1.n }
            guard Set(p.map(\.n)).count >= 3 else { return nil }
            let xs = p.map { log($0.n) }, ys = p.map { log($0.ns) }
            let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
            var sxy = 0.0, sxx = 0.0
            for (x, y) in zip(xs, ys) { sxy += (x - mx) * (y - my); sxx += (x - mx) * (x - mx) }
            guard sxx > 0, let slope = finite(sxy / sxx) else { return nil }
            return GrowthFit(family: key, suite: p[0].suite, points: p.map { [$0.n, $0.ns] }, exponent: slope,
                             superLinear: slope > 1 + GrowthFit.superLinearMargin)
        }.sorted { $0.family < $1.family }
    }

    /// Google Benchmark's document with the `strata` block added, as strict, sorted JSON.
    public static func document(_ googleBenchmark: [String: Any], strata: StrataBlock) throws -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let block = try JSONSerialization.jsonObject(with: try encoder.encode(strata))
        var doc = googleBenchmark
        doc["strata"] = block
        return try JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted, .sortedKeys])
    }

    /// Reads a report written by `document`: Google Benchmark's part and the `strata` block.
    public static func read(_ url: URL) throws -> (googleBenchmark: [String: Any], strata: StrataBlock) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BenchmarkError("cannot read \(url.path): \(error.localizedDescription)")
        }
        return try read(data, name: url.path)
    }

    /// A report from its bytes; `name` (a path) is what the errors call it.
    public static func read(_ data: Data, name: String) throws -> (googleBenchmark: [String: Any], strata: StrataBlock) {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw BenchmarkError("\(name) is not valid JSON: \(jsonErrorPosition(error, data))")
        }
        guard var doc = object as? [String: Any], let block = doc.removeValue(forKey: "strata") else {
            throw BenchmarkError("\(name) has no `strata` block: not a strata-bench report")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            let strata = try decoder.decode(StrataBlock.self, from: JSONSerialization.data(withJSONObject: block))
            return (doc, strata)
        } catch {
            throw BenchmarkError("\(name): the `strata` block does not match schema \(StrataBlock.currentSchemaVersion): \(error)")
        }
    }

    /// "line L, column C: what" for a JSONSerialization error (it reports a character
    /// offset, or only "end of file").
    static func jsonErrorPosition(_ error: Error, _ data: Data) -> String {
        let what = (error as NSError).userInfo["NSDebugDescription"] as? String ?? error.localizedDescription
        var offset = data.count
        if let r = what.range(of: #"character (\d+)"#, options: .regularExpression),
           let n = Int(what[r].split(separator: " ").last ?? "") {
            offset = min(n, data.count)
        }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return "line \(line), column \(column) (byte \(offset) of \(data.count)): \(what)"
    }

    /// Several runs of the same benchmarks (e.g. the rounds of an interleaved A/B run) as one
    /// report: each benchmark's repetitions concatenated and its figures recomputed, Google
    /// Benchmark's entries concatenated; counts, scenes and the machine from the first run
    /// that has them.
    public static func merge(_ reports: [(googleBenchmark: [String: Any], strata: StrataBlock)]) throws -> (googleBenchmark: [String: Any], strata: StrataBlock) {
        guard var first = reports.first else { throw BenchmarkError("merge: no reports") }
        var byName: [String: BenchmarkSummary] = [:]
        var order: [String] = []
        var entries: [Any] = []
        for r in reports {
            guard r.strata.machine.timingKey == first.strata.machine.timingKey else {
                throw BenchmarkError("merge: reports from different machines or builds cannot be merged")
            }
            entries += r.googleBenchmark["benchmarks"] as? [Any] ?? []
            for b in r.strata.benchmarks {
                if var m = byName[b.name] {
                    m.samplesNsPerItem += b.samplesNsPerItem
                    m.iterations += b.iterations
                    m.error = m.error ?? b.error
                    byName[b.name] = m
                } else {
                    byName[b.name] = b
                    order.append(b.name)
                }
            }
        }
        var summaries = order.map { name -> BenchmarkSummary in
            var s = byName[name]!
            s.medianNsPerItem = median(s.samplesNsPerItem)
            s.minNsPerItem = s.samplesNsPerItem.min() ?? 0
            s.maxNsPerItem = s.samplesNsPerItem.max() ?? 0
            s.floorNsPerItem = nil; s.ratioToFloor = nil
            s.referenceNsPerItem = nil; s.speedupOverReference = nil
            s.chainNsPerItem = nil; s.ratioToChain = nil
            s.relativeNsPerItem = nil; s.ratioToRelative = nil
            return s
        }
        addBaselineRatios(&summaries)
        first.googleBenchmark["benchmarks"] = entries
        first.strata.benchmarks = summaries
        first.strata.growth = growth(summaries)
        first.strata.counts = reports.first { !$0.strata.counts.isEmpty }?.strata.counts ?? []
        first.strata.scenes = reports.first { !$0.strata.scenes.isEmpty }?.strata.scenes ?? []
        first.strata.options.repetitions = reports.reduce(0) { $0 + $1.strata.options.repetitions }
        first.strata.warnings = Array(Set(reports.flatMap(\.strata.warnings))).sorted()
        return first
    }
}
