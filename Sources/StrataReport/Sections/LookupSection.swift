import StrataReportModel

/// Action lookup: every strategy side by side per outcome of the chain.
enum LookupSection {
    static let strategies = ["chain", "interned", "cached"]

    static func render(_ block: StrataBlock) -> Section? {
        let lookups = block.benchmarks.filter { $0.suite == "lookup" }
        guard !lookups.isEmpty else { return nil }
        let usable = lookups.filter(\.usable)
        let outcomes = Order.distinct(usable.map { $0.parameters["outcome"] ?? $0.name })
        let strats = Order.distinct(usable.map { $0.parameters["strategy"] ?? "?" }, preferred: strategies)
        let bars: [[GroupedBarChart.Bar?]] = outcomes.map { o in
            strats.map { s in
                usable.first { ($0.parameters["outcome"] ?? $0.name) == o && ($0.parameters["strategy"] ?? "?") == s }.map { b in
                    var tip = "\(o) · \(s)\n\(b.spread)"
                    if let r = b.ratioToChain, s != "chain" { tip += "\n\(Format.ratio(r)) chain (\(Format.ratio(1 / r)) faster)" }
                    return GroupedBarChart.Bar(value: b.medianNsPerItem, low: b.minNsPerItem, high: b.maxNsPerItem, tooltip: tip)
                }
            }
        }
        let chart = GroupedBarChart(groups: outcomes, series: strats.enumerated().map { ($0.element, Palette.colour($0.offset)) },
                                    bars: bars, yTitle: "time per lookup")
        var charts: [Chart] = []
        let id = "lookup-strategies"
        if let svg = chart.render(id: id, title: "Lookup strategies per outcome",
                                  description: "Time per action lookup for each strategy, grouped by the outcome of the lookup chain, with min–max whiskers, on a log axis.") {
            var t = Table([.init("outcome"), .init("strategy"), .init("median", numeric: true), .init("min", numeric: true),
                           .init("max", numeric: true), .init("× chain", numeric: true)])
            for b in usable {
                t.add(text: [b.parameters["outcome"] ?? b.name, b.parameters["strategy"] ?? "", Format.ns(b.medianNsPerItem),
                             Format.ns(b.minNsPerItem), Format.ns(b.maxNsPerItem), Format.ratio(b.ratioToChain)])
            }
            charts.append(Chart(id: id, title: "Lookup strategies per outcome",
                                caption: "ns per lookup (log axis), bars are medians, whiskers min–max", svg: svg, data: t))
        }
        var intro = paragraph("One lookup of an action for a key: the chain walks delegate, actions, style, default action and the built-in table; interned and cached are the engine's faster strategies on the same keys. Lower is better.")
        let failed = lookups.filter { $0.error != nil }
        if !failed.isEmpty {
            intro += paragraph("Did not run: " + failed.map { "\($0.name) (\($0.error ?? ""))" }.joined(separator: "; "), cls: "note warn")
        }
        return .make(id: "lookup", title: "Action lookup", intro: intro, charts: charts, gridded: false)
    }
}
