import StrataReportModel

/// Baseline → head changes as horizontal bars, one row per metric, with the 95% interval as a
/// whisker and the threshold as a shaded band around zero. Bars take their verdict's colour.
struct ChangeChart {
    var rows: [ComparisonRow]
    var threshold: Double
    var metricName: String
    var width = 1100.0
    var rowHeight = 17.0
    /// Rows drawn at most (the most telling: verdicts first, then the largest changes).
    static let maxRows = 60
    /// Changes beyond ±cap are drawn to the edge with an arrow; the label gives the figure.
    static let cap = 1.0

    /// The rows worth drawing, in display order (largest increase first).
    static func select(_ rows: [ComparisonRow]) -> [ComparisonRow] {
        let drawable = rows.filter { $0.change?.isFinite == true }
        let ranked = drawable.sorted { a, b in
            let ia = VerdictStyle.isDecisive(a.verdict) ? 0 : 1, ib = VerdictStyle.isDecisive(b.verdict) ? 0 : 1
            if ia != ib { return ia < ib }
            return abs(a.change!) > abs(b.change!)
        }
        return Array(ranked.prefix(maxRows)).sorted { $0.change! > $1.change! }
    }

    func render(id: String, title: String) -> String? {
        let rows = ChangeChart.select(self.rows)
        guard !rows.isEmpty else { return nil }
        let labels = rows.map { metricName.contains("count") ? "\($0.name) · \($0.metric)" : $0.name }
        let labelWidth = min(380, max(140, Double(labels.map(\.count).max() ?? 10) * 6.2 + 16))
        let legendItems = [LegendItem(label: "threshold ±\(Format.percent(threshold))", colour: "", swatch: .band),
                           LegendItem(label: "95% interval", colour: "currentColor", swatch: .line(.solid, .none, hollow: false), cls: "whisker")]
            + [Verdict.regression, .improvement, .unchanged, .inconclusive, .insufficientData, .differentMachine, .informational].filter { v in rows.contains { $0.verdict == v } }
            .map { LegendItem(label: $0.rawValue, colour: VerdictStyle.colour($0), swatch: .box) }
        let legend = Legend.render(legendItems, x: labelWidth, y: 4, width: width - labelWidth - 70)
        let top = 10 + legend.height
        let area = PlotArea(width: width, height: top + Double(rows.count) * rowHeight + 44, marginLeft: labelWidth,
                            marginTop: top, marginRight: 70, marginBottom: 44)
        let extent = rows.flatMap { [$0.change, $0.ciLow, $0.ciHigh].compactMap { $0 } }.map { min(abs($0), ChangeChart.cap) }
        let m = max(extent.max() ?? 0, threshold * 1.5, 0.01)
        let x = LinearScale(values: [-m, m], range: (area.left, area.right), targetTicks: 6)
        var body = area.frame
        body += SVG.rect(x(-threshold), area.top, x(threshold) - x(-threshold), area.plotHeight, cls: "band",
                         tooltip: "within ±\(Format.percent(threshold)): not a change that counts")
        body += Axis.bottom(x, area: area, format: Format.changeTick, title: "change of the \(metricName) (head vs baseline)")
        body += SVG.line(x(0), area.top, x(0), area.bottom, cls: "zero")
        var out = ""
        for (i, r) in rows.enumerated() {
            let cy = area.top + (Double(i) + 0.5) * rowHeight
            let c = r.change!
            let clippedC = min(max(c, -ChangeChart.cap), ChangeChart.cap)
            let x0 = x(0), x1 = x.clamped(clippedC)
            out += SVG.text(area.left - 8, cy + 4, String(labels[i].prefix(60)), cls: "row-label", anchor: .end, tooltip: "\(r.name) (\(r.metric))")
            out += SVG.rect(min(x0, x1), cy - rowHeight * 0.3, max(1, abs(x1 - x0)), rowHeight * 0.6, cls: "data bar verdict-\(r.verdict.rawValue)",
                            fill: VerdictStyle.colour(r.verdict), tooltip: VerdictStyle.tooltip(r))
            if let lo = r.ciLow, let hi = r.ciHigh {
                let a = x.clamped(min(max(lo, -ChangeChart.cap), ChangeChart.cap)), b = x.clamped(min(max(hi, -ChangeChart.cap), ChangeChart.cap))
                var p = PathData()
                p.move(a, cy); p.line(b, cy)
                p.move(a, cy - 4); p.line(a, cy + 4)
                p.move(b, cy - 4); p.line(b, cy + 4)
                out += SVG.path(p.d, cls: "whisker", tooltip: "95% interval \(Format.change(lo)) to \(Format.change(hi))")
            }
            let clipped = abs(c) > ChangeChart.cap ? (c > 0 ? " ▸" : " ◂") : ""
            out += SVG.text(area.right + 6, cy + 4, Format.change(c) + clipped, cls: "value-label verdict-text-\(r.verdict.rawValue)")
        }
        body += SVG.group(out, cls: "bars") + legend.svg
        return SVG.document(id: id, width: area.width, height: area.height, title: title,
                            description: "Relative change of each \(metricName) from the baseline to this run as horizontal bars coloured by verdict, with 95% intervals and the ±\(Format.percent(threshold)) threshold band.",
                            content: body)
    }
}

/// Colours, order and wording of verdicts.
enum VerdictStyle {
    static func colour(_ v: Verdict) -> String {
        switch v {
        case .regression: return Palette.vermillion
        case .improvement: return Palette.blue
        case .unchanged: return "#9a9a9a"
        case .insufficientData: return Palette.orange
        case .differentMachine: return Palette.purple
        case .new, .missing: return Palette.sky
        case .failed: return "#7a1f1f"
        case .inconclusive: return Palette.olive
        case .informational: return "#c4c4c4"
        }
    }

    /// A verdict that says the metric moved (or could not be measured): shown first.
    static func isDecisive(_ v: Verdict) -> Bool { [.regression, .improvement, .failed].contains(v) }

    /// Worst first.
    static func rank(_ v: Verdict) -> Int {
        [Verdict.failed, .regression, .improvement, .inconclusive, .insufficientData, .differentMachine, .missing, .new, .unchanged,
         .informational].firstIndex(of: v) ?? 99
    }

    static func value(_ x: Double?, metric: String) -> String {
        switch metric {
        case "time": return Format.ns(x)
        case "p50", "p99", "frame-time-p50", "frame-time-p99": return x.map { String(format: "%.3g ms", $0) } ?? Format.dash
        case "hitch": return x.map { String(format: "%.3g ms/s", $0) } ?? Format.dash
        default: return Format.perItem(x)
        }
    }

    static func tooltip(_ r: ComparisonRow) -> String {
        var s = "\(r.name) (\(r.metric)): \(r.verdictLabel)\n\(value(r.baseline, metric: r.metric)) → \(value(r.head, metric: r.metric)), \(r.formatChange(r.change))"
        if let lo = r.ciLow, let hi = r.ciHigh { s += "\n95% interval \(r.formatChange(lo)) to \(r.formatChange(hi))" }
        if r.band != nil { s += "\nnoise band \(r.formatBand)\(r.basis.map { " (\($0))" } ?? "")" }
        if let p = r.pValue { s += "\np = \(Format.pValue(p))" }
        return s
    }

    static func badge(_ v: Verdict, label: String? = nil) -> String {
        "<span class=\"badge verdict-\(v.rawValue)\">\(Escape.text(label ?? v.rawValue))</span>"
    }
}
