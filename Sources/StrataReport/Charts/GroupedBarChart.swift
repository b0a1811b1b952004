/// Vertical bars side by side within groups, on a log axis, each with a min–max whisker
/// (lookup strategies per outcome).
struct GroupedBarChart {
    struct Bar {
        var value: Double
        var low: Double?
        var high: Double?
        var tooltip: String
    }

    var groups: [String]
    /// Series name and colour, in bar order within a group.
    var series: [(name: String, colour: String)]
    /// bars[group][series]; nil where that combination did not run.
    var bars: [[Bar?]]
    var yTitle: String
    var yFormat: (Double) -> String = { Format.ns($0, compactZeros: true) }
    var width = 1100.0
    var height = 340.0

    func render(id: String, title: String, description: String) -> String? {
        let all = bars.flatMap { $0.compactMap { $0 } }.filter { $0.value.isFinite && $0.value > 0 }
        guard !all.isEmpty, !groups.isEmpty else { return nil }
        let items = series.map { LegendItem(label: $0.name, colour: $0.colour, swatch: .box) }
        let legend = Legend.render(items, x: 66, y: 4, width: width - 80)
        let longest = Double(groups.map(\.count).max() ?? 4)
        let area = PlotArea(width: width, height: height + legend.height, marginLeft: 66, marginTop: 12 + legend.height,
                            marginRight: 14, marginBottom: min(110, 34 + longest * 3.4))
        let values = all.flatMap { [$0.value, $0.low ?? $0.value, $0.high ?? $0.value] }
        let y = LogScale(values: values, range: (area.bottom, area.top), padding: 1.5)
        var body = area.frame + Axis.left(y, area: area, format: yFormat, title: yTitle)
        body += SVG.line(area.left, area.bottom, area.right, area.bottom, cls: "axis")
        let groupWidth = area.plotWidth / Double(groups.count)
        let barWidth = groupWidth * 0.78 / Double(max(series.count, 1))
        var out = ""
        for (g, name) in groups.enumerated() {
            let gx = area.left + Double(g) * groupWidth
            let cx = gx + groupWidth / 2
            out += SVG.text(cx + 3, area.bottom + 12, name, cls: "tick-label", anchor: .end, rotate: -30)
            if g > 0 { out += SVG.line(gx, area.top, gx, area.bottom, cls: "grid group-sep") }
            for (s, entry) in series.enumerated() {
                guard g < bars.count, s < bars[g].count, let bar = bars[g][s], bar.value.isFinite, bar.value > 0 else { continue }
                let x0 = gx + groupWidth * 0.11 + Double(s) * barWidth
                let top = y.clamped(bar.value)
                out += SVG.rect(x0 + 1, top, barWidth - 2, area.bottom - top, cls: "data bar", fill: entry.colour, tooltip: bar.tooltip)
                if let lo = bar.low, let hi = bar.high, lo > 0, hi > 0 {
                    let mx = x0 + barWidth / 2, cap = min(4, barWidth / 3)
                    var p = PathData()
                    p.move(mx, y.clamped(lo)); p.line(mx, y.clamped(hi))
                    p.move(mx - cap, y.clamped(lo)); p.line(mx + cap, y.clamped(lo))
                    p.move(mx - cap, y.clamped(hi)); p.line(mx + cap, y.clamped(hi))
                    out += SVG.path(p.d, cls: "whisker", tooltip: "min \(yFormat(lo)), max \(yFormat(hi))")
                }
            }
        }
        body += SVG.group(out, cls: "bars") + legend.svg
        return SVG.document(id: id, width: area.width, height: area.height, title: title, description: description, content: body)
    }
}
