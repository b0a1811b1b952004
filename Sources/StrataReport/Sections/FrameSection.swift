import StrataReportModel

/// Per-frame cost against N: one log-log chart per value width and animation kind, a line per
/// timing for the engine, the reference engine dashed and the bandwidth floor dotted.
enum FrameSection {
    static let widths = ["opacity", "position", "colour", "bounds", "transform"]
    static let kinds = ["basic", "keyframe", "path", "group"]
    static let timings = ["shared", "linear", "own"]

    static func render(_ block: StrataBlock) -> Section? {
        let frames = block.benchmarks.filter { $0.suite == "frame" && $0.parameters["engine"] != "floor" }
        guard !frames.isEmpty else { return nil }
        let usable = frames.filter(\.usable)
        let families = Order.distinct(usable.map { family($0) }, preferred: kinds.flatMap { k in widths.map { "\($0)/\(k)" } })
        let allTimings = Order.distinct(usable.compactMap { $0.parameters["timing"] }, preferred: timings)

        var charts: [Chart] = []
        var single: [BenchmarkSummary] = []
        for fam in families {
            let members = usable.filter { family($0) == fam }
            let chart = lineChart(fam, members, timings: allTimings)
            if let svg = chart.render(id: "frame-\(Escape.id(fam))", title: title(fam), description: description(fam)) {
                charts.append(Chart(id: "frame-\(Escape.id(fam))", title: title(fam),
                                    caption: "ns per animation against N (log-log); dashed: reference engine; dotted: bandwidth floor",
                                    svg: svg, data: table(members)))
            } else {
                single += members
            }
        }
        if !single.isEmpty, let snap = snapshot(single, timings: allTimings) { charts.append(snap) }
        let failed = frames.filter { $0.error != nil }
        var intro = paragraph("Time per animation of one frame (sample, evaluate, write back) for N animations. The reference engine is the classic design on the same workload; the floor is a triad touching the same bytes: the memory bound.")
        let superLinear = block.growth.filter { $0.suite == "frame" && $0.superLinear }
        if !superLinear.isEmpty {
            intro += "<p class=\"callout bad\"><strong>Super-linear growth</strong> (time per frame grows faster than N): "
                + Escape.text(superLinear.map { "\($0.family) (N^\(String(format: "%.2f", $0.exponent)))" }.joined(separator: ", ")) + "</p>"
        }
        if !failed.isEmpty {
            intro += paragraph("Did not run: " + failed.map { "\($0.name) (\($0.error ?? ""))" }.joined(separator: "; "), cls: "note warn")
        }
        return .make(id: "frame", title: "Frame cost", intro: intro, charts: charts)
    }

    /// `width/kind` (the chart a benchmark belongs to).
    static func family(_ b: BenchmarkSummary) -> String {
        "\(b.parameters["width"] ?? "?")/\(b.parameters["kind"] ?? "?")"
    }

    static func title(_ fam: String) -> String { fam.replacingOccurrences(of: "/", with: " · ") }

    static func description(_ fam: String) -> String {
        "Frame cost per animation against the number of animations for \(title(fam)), per timing, with the reference engine and the bandwidth floor, on log-log axes."
    }

    static func engine(_ b: BenchmarkSummary) -> String { b.parameters["engine"] ?? "strata" }

    static func label(_ b: BenchmarkSummary) -> String {
        [b.parameters["width"], b.parameters["timing"], b.parameters["kind"]].compactMap { $0 }.joined(separator: " · ")
    }

    static func tooltip(_ b: BenchmarkSummary) -> String {
        var lines = ["\(engine(b) == "reference" ? "reference: " : "")\(label(b)), N = \(Format.integer(b.n))", b.spread]
        if let f = b.floorNsPerItem { lines.append("floor \(Format.ns(f)) (\(Format.ratio(b.ratioToFloor)) the floor)") }
        if let r = b.referenceNsPerItem { lines.append("reference \(Format.ns(r)): \(Format.ratio(b.speedupOverReference)) faster") }
        return lines.joined(separator: "\n")
    }

    static func lineChart(_ fam: String, _ members: [BenchmarkSummary], timings: [String]) -> LineChart {
        var series: [LineSeries] = []
        for eng in ["strata", "reference"] {
            for timing in timings {
                let pts = members.filter { engine($0) == eng && $0.parameters["timing"] == timing && $0.n != nil }
                guard !pts.isEmpty else { continue }
                let i = timings.firstIndex(of: timing) ?? 0
                series.append(LineSeries(
                    label: eng == "strata" ? timing : "reference · \(timing)", colour: Palette.colour(i),
                    dash: eng == "strata" ? .solid : .dashed, marker: Marker.at(i), hollow: eng != "strata",
                    points: pts.map { LinePoint(x: $0.n!, y: $0.medianNsPerItem, low: $0.minNsPerItem, high: $0.maxNsPerItem, tooltip: tooltip($0)) }))
            }
        }
        // The floor depends on the bytes per animation only (the same for every timing).
        var floor: [Double: BenchmarkSummary] = [:]
        for b in members where b.floorNsPerItem != nil && b.n != nil && floor[b.n!] == nil { floor[b.n!] = b }
        if !floor.isEmpty {
            series.append(LineSeries(
                label: "bandwidth floor", colour: "#767676", dash: .dotted, marker: .none, cls: "floor",
                points: floor.values.map { b in
                    LinePoint(x: b.n!, y: b.floorNsPerItem!, tooltip: "floor, N = \(Format.integer(b.n)): \(Format.ns(b.floorNsPerItem)) per animation (\(b.parameters["bytes"].flatMap(Double.init).map { Format.integer($0) } ?? "?") bytes)")
                },
                legendTooltip: "A triad over the same bytes: the memory-bandwidth bound"))
        }
        return LineChart(xTitle: "N (animations)", yTitle: "time per animation", series: series)
    }

    static func table(_ members: [BenchmarkSummary]) -> Table {
        var t = Table([.init("engine"), .init("timing"), .init("N", numeric: true), .init("median", numeric: true),
                       .init("min", numeric: true), .init("max", numeric: true), .init("reference", numeric: true),
                       .init("speed-up", numeric: true), .init("floor", numeric: true), .init("× floor", numeric: true)])
        for b in members.sorted(by: { (engine($0), $0.parameters["timing"] ?? "", $0.n ?? 0) < (engine($1), $1.parameters["timing"] ?? "", $1.n ?? 0) }) {
            t.add(text: [engine(b), b.parameters["timing"] ?? "", Format.integer(b.n), Format.ns(b.medianNsPerItem),
                         Format.ns(b.minNsPerItem), Format.ns(b.maxNsPerItem), Format.ns(b.referenceNsPerItem),
                         Format.ratio(b.speedupOverReference), Format.ns(b.floorNsPerItem), Format.ratio(b.ratioToFloor)])
        }
        return t
    }

    /// Families measured at one size: a bar per benchmark with the reference and floor marked.
    static func snapshot(_ members: [BenchmarkSummary], timings: [String]) -> Chart? {
        let strata = members.filter { engine($0) == "strata" }
        let rows = (strata.isEmpty ? members : strata).map { b -> BarRow in
            let i = timings.firstIndex(of: b.parameters["timing"] ?? "") ?? 0
            var marks: [BarRow.Mark] = []
            if let r = b.referenceNsPerItem { marks.append(.init(kind: .reference, value: r, tooltip: "reference engine: \(Format.ns(r)) per animation")) }
            if let f = b.floorNsPerItem { marks.append(.init(kind: .floor, value: f, tooltip: "bandwidth floor: \(Format.ns(f)) per animation")) }
            return BarRow(label: "\(label(b)) · N=\(Format.short(b.n ?? 0))", value: b.medianNsPerItem, low: b.minNsPerItem,
                          high: b.maxNsPerItem, colour: Palette.colour(i), tooltip: tooltip(b), marks: marks)
        }
        var legend = timings.enumerated().map { LegendItem(label: $0.element, colour: Palette.colour($0.offset), swatch: .box) }
        legend.append(LegendItem(label: "reference engine", colour: "currentColor", swatch: .line(.solid, .diamond, hollow: true), cls: "invisible-line"))
        legend.append(LegendItem(label: "bandwidth floor", colour: "#767676", swatch: .line(.solid, .none, hollow: false), cls: "floor"))
        let chart = BarRowsChart(xTitle: "time per animation (log)", rows: rows, legend: legend)
        let id = "frame-one-size"
        guard let svg = chart.render(id: id, title: "Frame cost at one size",
                                     description: "Frame cost per animation of each benchmark that ran at a single N, with the reference engine (diamond) and the bandwidth floor (grey tick), on a log axis.")
        else { return nil }
        return Chart(id: id, title: "Frame cost at one size", caption: "each family ran at one N only: bars are medians with min–max whiskers; ◇ reference engine; | floor",
                     svg: svg, data: table(members), wide: true)
    }
}
