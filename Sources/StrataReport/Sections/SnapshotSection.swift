import StrataReportModel

/// The render snapshot: a full pass per layer against N per tree shape, beside the bandwidth
/// floor over the bytes it touches and the read-out through `presentation()` it replaces;
/// updates with 1, 10 and 100% of the layers animating; the whole frame (evaluate + snapshot)
/// beside the reference engine.
enum SnapshotSection {
    static func render(_ block: StrataBlock) -> Section? {
        let all = block.benchmarks.filter { $0.suite == "snapshot" && $0.parameters["engine"] != "floor" }
        guard !all.isEmpty else { return nil }
        let usable = all.filter(\.usable)
        let shapes = Order.distinct(usable.compactMap { $0.parameters["shape"] }, preferred: TreeSection.shapes)
        var charts: [Chart] = []
        var oneSize: [BarRow] = []

        // Full passes and the read-out they replace, per layer against N.
        var series: [LineSeries] = []
        for (i, shape) in shapes.enumerated() {
            for (kind, label, dash) in [("full", "snapshot", Dash.solid), ("presentation", "presentation() read-out", Dash.dashed)] {
                let members = of(usable, kind, shape: shape)
                guard !members.isEmpty else { continue }
                series.append(LineSeries(label: "\(shape) · \(label)", colour: Palette.colour(i), dash: dash,
                                         marker: Marker.at(i), hollow: dash != .solid, points: members.map(point)))
            }
        }
        var floors: [Double: BenchmarkSummary] = [:]
        for b in of(usable, "full") where b.floorNsPerItem != nil && floors[b.n!] == nil { floors[b.n!] = b }
        if !floors.isEmpty {
            series.append(LineSeries(
                label: "bandwidth floor", colour: "#767676", dash: .dotted, marker: .none, cls: "floor",
                points: floors.values.map { b in
                    LinePoint(x: b.n!, y: b.floorNsPerItem!, tooltip: "floor, N = \(Format.integer(b.n)): \(Format.ns(b.floorNsPerItem)) per layer")
                },
                legendTooltip: "A triad over the bytes a full pass touches: the memory-bandwidth bound"))
        }
        let fullChart = LineChart(xTitle: "N (layers)", yTitle: "time per layer", series: series)
        if let svg = fullChart.render(id: "snapshot-full", title: "Full pass",
                                      description: "Time per layer of a full snapshot pass against the tree size per shape, with the presentation() read-out it replaces (dashed) and the bandwidth floor (dotted), on log-log axes.") {
            charts.append(Chart(id: "snapshot-full", title: "Full pass", caption: "ns per layer against N (log-log); dashed: reading every layer's presentation(); dotted: bandwidth floor",
                                svg: svg, data: summaryTable(usable, shapes: shapes)))
        } else {
            oneSize += (of(usable, "full") + of(usable, "presentation")).map { bar($0, shapes: shapes) }
        }

        // Updates: the next frame with some layers animating, per layer of the whole tree.
        let percents = Order.distinct(usable.compactMap { $0.parameters["animated"] }, preferred: ["1", "10", "100"])
        var updates: [LineSeries] = []
        for (i, shape) in shapes.enumerated() {
            for (j, pct) in percents.enumerated() {
                let members = of(usable, "update", shape: shape).filter { $0.parameters["animated"] == pct }
                guard !members.isEmpty else { continue }
                updates.append(LineSeries(label: "\(shape) · \(pct)%", colour: Palette.colour(i),
                                          dash: [Dash.dotted, .dashed, .solid][min(j, 2)], marker: Marker.at(j),
                                          points: members.map(point)))
            }
        }
        let updateChart = LineChart(xTitle: "N (layers)", yTitle: "time per layer of the tree", series: updates)
        if let svg = updateChart.render(id: "snapshot-update", title: "Updates",
                                        description: "Time per layer of the tree of an incremental snapshot with 1, 10 and 100 percent of the layers animating, per shape, on log-log axes.") {
            charts.append(Chart(id: "snapshot-update", title: "Updates", caption: "the next frame's snapshot per layer of the tree, by share of layers animating (log-log); the table gives each as a share of the full pass",
                                svg: svg, data: updateTable(usable)))
        } else {
            oneSize += of(usable, "update").map { bar($0, shapes: shapes) }
        }

        // The whole frame: evaluate + snapshot, or evaluate + presentation() read-out.
        let frames = usable.filter { ["frame", "frame-readout"].contains($0.parameters["kind"] ?? "") }
            .sorted { ($0.n ?? 0, $0.name) < ($1.n ?? 0, $1.name) }
        if !frames.isEmpty {
            let rows = frames.map { b -> BarRow in
                let engine = b.parameters["engine"] ?? "strata"
                var marks: [BarRow.Mark] = []
                if let r = b.referenceNsPerItem { marks.append(.init(kind: .reference, value: r, tooltip: "reference engine: \(Format.ns(r)) per layer")) }
                return BarRow(label: "\(engine) · \(b.parameters["kind"] == "frame" ? "snapshot" : "presentation() read-out") · N=\(Format.short(b.n ?? 0))",
                              value: b.medianNsPerItem, low: b.minNsPerItem, high: b.maxNsPerItem,
                              colour: Palette.colour(engine == "strata" ? 0 : 1), tooltip: tooltip(b), marks: marks)
            }
            let legend = [LegendItem(label: "strata", colour: Palette.colour(0), swatch: .box),
                          LegendItem(label: "reference engine", colour: Palette.colour(1), swatch: .box)]
            if let svg = BarRowsChart(xTitle: "time per layer (log)", rows: rows, legend: legend).render(
                id: "snapshot-frame", title: "The whole frame",
                description: "Time per layer of a whole frame, evaluating N position animations and then taking the render snapshot or reading every layer's presentation(), for both engines, on a log axis.") {
                charts.append(Chart(id: "snapshot-frame", title: "The whole frame",
                                    caption: "evaluate + snapshot, or evaluate + presentation() read-out, per layer; ◇ the reference engine on the same frame",
                                    svg: svg, wide: true))
            }
        }
        if !oneSize.isEmpty, let svg = BarRowsChart(xTitle: "time per layer (log)", rows: oneSize).render(
            id: "snapshot-one-size", title: "Snapshot at one size",
            description: "Time per layer of each snapshot benchmark that ran at a single N, on a log axis.") {
            charts.append(Chart(id: "snapshot-one-size", title: "Snapshot at one size", caption: "each family ran at one N: bars are medians with min–max whiskers",
                                svg: svg, data: summaryTable(usable, shapes: shapes), wide: true))
        }

        var intro = paragraph("What a renderer, a test or an app pays to read a frame: the render snapshot (every visible layer's world transform, opacity, geometry and style in painter's order) taken as a full pass, and incrementally when a share of the layers animate; beside it, reading every layer's presentation() as a frame was read before, and the bandwidth floor over the bytes a full pass touches.")
        var facts: [String] = []
        if let call = usable.first(where: { $0.parameters["kind"] == "presentation-call" }) {
            facts.append("presentation() \(Format.ns(call.medianNsPerItem)) per call")
        }
        if let read = usable.first(where: { $0.parameters["kind"] == "presentation-read" }) {
            facts.append("a value read from the copy \(Format.ns(read.medianNsPerItem))")
        }
        if !facts.isEmpty { intro += paragraph(facts.joined(separator: "; ") + ".") }
        let failed = all.filter { $0.error != nil }
        if !failed.isEmpty {
            intro += paragraph("Did not run: " + failed.map { "\($0.name) (\($0.error ?? ""))" }.joined(separator: "; "), cls: "note warn")
        }
        return .make(id: "snapshot", title: "Render snapshot", intro: intro, charts: charts)
    }

    /// Benchmarks of one kind (and shape), with N, by N.
    static func of(_ usable: [BenchmarkSummary], _ kind: String, shape: String? = nil) -> [BenchmarkSummary] {
        usable.filter { $0.parameters["kind"] == kind && $0.n != nil && (shape == nil || $0.parameters["shape"] == shape) }
            .sorted { $0.n! < $1.n! }
    }

    static func tooltip(_ b: BenchmarkSummary) -> String {
        var lines = ["\(b.name)", b.spread]
        if let f = b.floorNsPerItem { lines.append("floor \(Format.ns(f)) (\(Format.ratio(b.ratioToFloor)) the floor)") }
        if let r = b.ratioToRelative, let other = b.parameters["relativeTo"] {
            lines.append(b.parameters["kind"] == "update" ? "\(Format.percent(r)) of the full pass"
                                                          : "\(Format.ratio(r)) \(other) (\(Format.ratio(1 / r)) faster)")
        }
        if let r = b.referenceNsPerItem { lines.append("reference \(Format.ns(r)): \(Format.ratio(b.speedupOverReference)) faster") }
        return lines.joined(separator: "\n")
    }

    static func point(_ b: BenchmarkSummary) -> LinePoint {
        LinePoint(x: b.n!, y: b.medianNsPerItem, low: b.minNsPerItem, high: b.maxNsPerItem, tooltip: tooltip(b))
    }

    static func bar(_ b: BenchmarkSummary, shapes: [String]) -> BarRow {
        var marks: [BarRow.Mark] = []
        if let f = b.floorNsPerItem { marks.append(.init(kind: .floor, value: f, tooltip: "bandwidth floor: \(Format.ns(f)) per layer")) }
        let label = [b.parameters["kind"], b.parameters["shape"], b.parameters["animated"].map { "\($0)%" }].compactMap { $0 }.joined(separator: " · ")
        return BarRow(label: "\(label) · N=\(Format.short(b.n ?? 0))", value: b.medianNsPerItem, low: b.minNsPerItem, high: b.maxNsPerItem,
                      colour: Palette.colour(shapes.firstIndex(of: b.parameters["shape"] ?? "") ?? 0), tooltip: tooltip(b), marks: marks)
    }

    /// Per shape and N: the full pass, its floor ratio, the read-out and how many times the
    /// snapshot beats it.
    static func summaryTable(_ usable: [BenchmarkSummary], shapes: [String]) -> Table {
        var t = Table([.init("shape"), .init("N", numeric: true), .init("full pass", numeric: true),
                       .init("floor", numeric: true), .init("× floor", numeric: true),
                       .init("presentation() read-out", numeric: true),
                       .init("faster than the read-out", numeric: true, tooltip: "read-out / full pass")])
        for b in of(usable, "full") {
            t.add(text: [b.parameters["shape"] ?? "", Format.integer(b.n), Format.ns(b.medianNsPerItem),
                         Format.ns(b.floorNsPerItem), Format.ratio(b.ratioToFloor), Format.ns(b.relativeNsPerItem),
                         Format.ratio(b.ratioToRelative.map { 1 / $0 })])
        }
        return t
    }

    static func updateTable(_ usable: [BenchmarkSummary]) -> Table {
        var t = Table([.init("shape"), .init("animated"), .init("N", numeric: true), .init("update", numeric: true),
                       .init("full pass", numeric: true), .init("share of the full pass", numeric: true),
                       .init("update on one thread", numeric: true,
                             tooltip: "the same update with StrataEngine.renderThreads = 1 (an update splits 2,048 marked leaves or more across two)"),
                       .init("speed-up of two threads", numeric: true, tooltip: "one thread / two")])
        let oneThread = Dictionary(of(usable, "update-1-thread").map { ($0.parameters["relativeTo"] ?? "", $0) }) { a, _ in a }
        for b in of(usable, "update") {
            let one = oneThread[b.name]
            t.add(text: [b.parameters["shape"] ?? "", "\(b.parameters["animated"] ?? "?")%", Format.integer(b.n),
                         Format.ns(b.medianNsPerItem), Format.ns(b.relativeNsPerItem), Format.percent(b.ratioToRelative),
                         Format.ns(one?.medianNsPerItem), Format.ratio(one?.ratioToRelative)])
        }
        return t
    }
}
