import StrataReportModel

/// Commit cost per change against N, a line per variant.
enum CommitSection {
    static func render(_ block: StrataBlock) -> Section? {
        let commits = block.benchmarks.filter { $0.suite == "commit" }
        guard !commits.isEmpty else { return nil }
        let usable = commits.filter(\.usable)
        // A line per variant and engine: the reference engine's commits (dashed, hollow) are a
        // series of their own, not points of the fast engine's line.
        func variant(_ b: BenchmarkSummary) -> String {
            let v = b.parameters["variant"] ?? b.name
            return b.parameters["engine"] == "reference" ? "\(v) · reference" : v
        }
        let variants = Order.distinct(usable.map(variant))
        let fastVariants = Order.distinct(usable.filter { $0.parameters["engine"] != "reference" }.map(variant))
        func tip(_ b: BenchmarkSummary) -> String {
            "\(variant(b)), N = \(Format.integer(b.n)) layers, \(b.parameters["properties"] ?? "1") propert\(b.parameters["properties"] == "1" ? "y" : "ies") each\n\(b.spread)"
        }
        let series = variants.map { v -> LineSeries in
            let reference = v.hasSuffix(" · reference")
            // A reference line takes its fast engine variant's colour and marker.
            let i = fastVariants.firstIndex(of: reference ? String(v.dropLast(" · reference".count)) : v) ?? variants.firstIndex(of: v) ?? 0
            return LineSeries(label: v, colour: Palette.colour(i), dash: reference ? .dashed : .solid, marker: Marker.at(i),
                              hollow: reference,
                              points: usable.filter { variant($0) == v && $0.n != nil }.map {
                                  LinePoint(x: $0.n!, y: $0.medianNsPerItem, low: $0.minNsPerItem, high: $0.maxNsPerItem, tooltip: tip($0))
                              })
        }
        let fits = Dictionary(block.growth.filter { $0.suite == "commit" }.map { ($0.family, $0) }, uniquingKeysWith: { a, _ in a })
        var t = Table([.init("variant"), .init("N", numeric: true), .init("median", numeric: true), .init("min", numeric: true),
                       .init("max", numeric: true), .init("growth", numeric: true, tooltip: "exponent of time per commit against N (1 is linear)")])
        for b in usable {
            t.add(text: [variant(b), Format.integer(b.n), Format.ns(b.medianNsPerItem), Format.ns(b.minNsPerItem),
                         Format.ns(b.maxNsPerItem), fits[b.familyKey].map { String(format: "N^%.2f", $0.exponent) } ?? Format.dash])
        }
        var charts: [Chart] = []
        let line = LineChart(xTitle: "N (layers changed)", yTitle: "time per change", series: series, width: 1100, height: 380)
        if let svg = line.render(id: "commit-cost", title: "Commit cost per change",
                                 description: "Time per property change of one transaction (lookup, model write, animation record, commit) against the number of layers changed, per variant, on log-log axes.") {
            charts.append(Chart(id: "commit-cost", title: "Commit cost per change", caption: "ns per change against N (log-log), whiskers min–max", svg: svg, data: t))
        } else {
            let rows = usable.map { b in
                BarRow(label: "\(variant(b)) · N=\(Format.short(b.n ?? 0))", value: b.medianNsPerItem, low: b.minNsPerItem, high: b.maxNsPerItem,
                       colour: Palette.colour(variants.firstIndex(of: variant(b)) ?? 0), tooltip: tip(b))
            }
            if let svg = BarRowsChart(xTitle: "time per change (log)", rows: rows).render(
                id: "commit-cost", title: "Commit cost per change",
                description: "Time per property change of one transaction for each variant that ran, at a single N, on a log axis.") {
                charts.append(Chart(id: "commit-cost", title: "Commit cost per change", caption: "ns per change at one N (log axis), whiskers min–max", svg: svg, data: t))
            }
        }
        let intro = paragraph("One transaction changing P properties on N layers, from the first change to the end of the commit, per change. Flat lines mean cost linear in N.")
        return .make(id: "commit", title: "Commit", intro: intro, charts: charts, gridded: false)
    }
}
