/// Horizontal bars, one row per benchmark, on a log axis: the median as a bar, min–max as a
/// whisker, and optional comparison marks (the reference engine, the floor). Used when a
/// family ran at one size only (a quick run), where a line against N has nothing to join.
struct BarRow {
    var label: String
    var value: Double
    var low: Double?
    var high: Double?
    var colour: String
    var tooltip: String
    var marks: [Mark] = []

    struct Mark {
        enum Kind { case reference, floor }
        var kind: Kind
        var value: Double
        var tooltip: String
    }
}

struct BarRowsChart {
    var xTitle: String
    var rows: [BarRow]
    var format: (Double) -> String = { Format.ns($0, compactZeros: true) }
    var width = 1100.0
    var rowHeight = 20.0
    var legend: [LegendItem] = []

    func render(id: String, title: String, description: String) -> String? {
        let rows = self.rows.filter { $0.value.isFinite && $0.value > 0 }
        guard !rows.isEmpty else { return nil }
        let labelWidth = min(300, max(120, Double(rows.map(\.label.count).max() ?? 10) * 6.2 + 16))
        let legend = Legend.render(self.legend, x: labelWidth, y: 4, width: width - labelWidth - 20)
        let top = 10 + legend.height
        let area = PlotArea(width: width, height: top + Double(rows.count) * rowHeight + 44, marginLeft: labelWidth,
                            marginTop: top, marginRight: 20, marginBottom: 44)
        let values = rows.flatMap { r in [r.value, r.low ?? r.value, r.high ?? r.value] + r.marks.map(\.value) }
        let x = LogScale(values: values, range: (area.left, area.right), padding: 1.4)
        var body = area.frame + Axis.bottom(x, area: area, format: format, title: xTitle)
        var bars = ""
        for (i, r) in rows.enumerated() {
            let cy = area.top + (Double(i) + 0.5) * rowHeight
            bars += SVG.text(area.left - 8, cy + 4, String(r.label.prefix(48)), cls: "row-label", anchor: .end, tooltip: r.label)
            bars += SVG.rect(area.left, cy - rowHeight * 0.32, x.clamped(r.value) - area.left, rowHeight * 0.64,
                             cls: "data bar", fill: r.colour, tooltip: r.tooltip)
            if let lo = r.low, let hi = r.high, lo > 0, hi > 0 {
                bars += SVG.line(x.clamped(lo), cy, x.clamped(hi), cy, cls: "whisker")
            }
            for m in r.marks where m.value > 0 && m.value.isFinite {
                let mx = x.clamped(m.value)
                switch m.kind {
                case .reference: bars += Marker.diamond.svg(mx, cy, colour: "currentColor", hollow: true, size: 4, tooltip: m.tooltip)
                case .floor: bars += SVG.line(mx, cy - rowHeight * 0.45, mx, cy + rowHeight * 0.45, cls: "floor-mark", tooltip: m.tooltip)
                }
            }
        }
        body += SVG.group(bars, cls: "bars") + legend.svg
        return SVG.document(id: id, width: area.width, height: area.height, title: title, description: description, content: body)
    }
}
