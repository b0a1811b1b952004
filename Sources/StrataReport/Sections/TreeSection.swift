import StrataReportModel

/// Tree scaling: per operation, time per iteration against N per shape, with the fitted
/// growth (exponent labelled, super-linear growth flagged).
enum TreeSection {
    static let operations = ["build", "subtree-in-out", "convert-time", "presentation"]
    static let shapes = ["chain", "fan", "balanced"]

    static func render(_ block: StrataBlock) -> Section? {
        let trees = block.benchmarks.filter { $0.suite == "tree" }
        guard !trees.isEmpty else { return nil }
        let usable = trees.filter(\.usable)
        let ops = Order.distinct(usable.map { $0.parameters["operation"] ?? "?" }, preferred: operations)
        let shapeOrder = Order.distinct(usable.map { $0.parameters["shape"] ?? "?" }, preferred: shapes)
        let fits = Dictionary(block.growth.filter { $0.suite == "tree" }.map { ($0.family, $0) }, uniquingKeysWith: { a, _ in a })
        var charts: [Chart] = []
        var flagged: [String] = []
        var estimated = false
        var oneSize: [BenchmarkSummary] = []
        for op in ops {
            var series: [LineSeries] = []
            var t = Table([.init("shape"), .init("N", numeric: true), .init("per iteration", numeric: true),
                           .init("per item", numeric: true), .init("growth", numeric: true)])
            for (i, shape) in shapeOrder.enumerated() {
                let members = usable.filter { $0.parameters["operation"] == op && $0.parameters["shape"] == shape && $0.n != nil }
                    .sorted { $0.n! < $1.n! }
                guard !members.isEmpty else { continue }
                let perIteration = { (b: BenchmarkSummary) in b.medianNsPerItem * Double(max(b.itemsPerIteration, 1)) }
                var fit = fits[members[0].familyKey].flatMap(PowerFit.from)
                if fit == nil, var f = PowerFit.leastSquares(members.map { (x: $0.n!, y: perIteration($0)) }) {
                    f.estimated = true
                    fit = f
                    estimated = true
                }
                if let f = fit, f.superLinear { flagged.append("\(op) · \(shape) (N^\(String(format: "%.2f", f.exponent)))") }
                series.append(LineSeries(
                    label: shape, colour: Palette.colour(i), marker: Marker.at(i),
                    points: members.map { b in
                        LinePoint(x: b.n!, y: perIteration(b), tooltip: "\(op) · \(shape), N = \(Format.integer(b.n)) layers\n\(Format.ns(perIteration(b))) per iteration; \(b.spread)")
                    }, fit: fit))
                for b in members {
                    t.add(text: [shape, Format.integer(b.n), Format.ns(perIteration(b)), Format.ns(b.medianNsPerItem),
                                 fit.map { $0.label } ?? Format.dash], cls: fit?.superLinear == true ? "flagged-row" : nil)
                }
            }
            let id = "tree-\(Escape.id(op))"
            let chart = LineChart(xTitle: "N (layers in the tree)", yTitle: "time per iteration", series: series)
            if let svg = chart.render(id: id, title: "tree · \(op)",
                                      description: "Time per iteration of the \(op) operation against the tree size per shape, with the fitted power law, on log-log axes.") {
                charts.append(Chart(id: id, title: "tree · \(op)", caption: "time per iteration against N (log-log): points measured, lines fitted", svg: svg, data: t))
            } else {
                // Every shape at one size: nothing to fit; shown as bars below.
                oneSize += usable.filter { $0.parameters["operation"] == op }
            }
        }
        if !oneSize.isEmpty {
            let rows = oneSize.map { b in
                BarRow(label: "\(b.parameters["operation"] ?? "?") · \(b.parameters["shape"] ?? "?") · N=\(Format.short(b.n ?? 0))",
                       value: b.medianNsPerItem, low: b.minNsPerItem, high: b.maxNsPerItem,
                       colour: Palette.colour(shapeOrder.firstIndex(of: b.parameters["shape"] ?? "") ?? 0), tooltip: b.spread)
            }
            if let svg = BarRowsChart(xTitle: "time per item (log)", rows: rows).render(
                id: "tree-one-size", title: "Tree operations at one size",
                description: "Time per item of each tree operation and shape that ran at a single N, on a log axis.") {
                charts.append(Chart(id: "tree-one-size", title: "Tree operations at one size", caption: "per item at one N: no growth to fit", svg: svg, wide: true))
            }
        }
        var intro = paragraph("Deep chains, wide fans and balanced trees. A fitted exponent near 1 means time per iteration grows linearly with N; above \(String(format: "%.2f", 1 + GrowthFit.superLinearMargin)) is flagged super-linear.")
        if !flagged.isEmpty {
            intro += "<p class=\"callout bad\"><strong>Super-linear growth:</strong> \(Escape.text(flagged.joined(separator: ", ")))</p>"
        }
        if estimated {
            intro += paragraph("Some families ran at fewer than three sizes, so the report has no fit for them; their lines are fitted here from the sizes that ran (marked est.).")
        }
        let failed = trees.filter { $0.error != nil }
        if !failed.isEmpty {
            intro += paragraph("Did not run: " + failed.map { "\($0.name) (\($0.error ?? ""))" }.joined(separator: "; "), cls: "note warn")
        }
        return .make(id: "tree", title: "Tree scaling", intro: intro, charts: charts)
    }
}
