/// A legend laid out in rows across the top of a chart (text widths estimated: the report
/// has no font metrics, so a generous average advance is used).
struct LegendItem {
    enum Swatch { case line(Dash, Marker, hollow: Bool), box, band }

    var label: String
    var colour: String
    var swatch: Swatch
    /// Drawn in the warning style (e.g. a super-linear fit).
    var flagged = false
    /// Extra CSS class for the swatch (e.g. the floor's muted colour).
    var cls: String?
    var tooltip: String?
}

enum Legend {
    static let charWidth = 6.4
    static let rowHeight = 16.0

    /// The legend's SVG and the height it takes, for items laid out within `width` from `x`.
    static func render(_ items: [LegendItem], x: Double, y: Double, width: Double) -> (svg: String, height: Double) {
        guard !items.isEmpty else { return ("", 0) }
        var out = ""
        var cx = x, row = 0
        for item in items {
            let w = 30 + Double(item.label.count) * charWidth + 14
            if cx > x && cx + w > x + width { cx = x; row += 1 }
            let cy = y + Double(row) * rowHeight + 8
            var swatch = ""
            switch item.swatch {
            case let .line(dash, marker, hollow):
                swatch += SVG.line(cx, cy, cx + 24, cy, cls: ["legend-line", item.cls].compactMap { $0 }.joined(separator: " "),
                                   stroke: item.colour, dash: dash.pattern, width: 2)
                swatch += marker.svg(cx + 12, cy, colour: item.colour, hollow: hollow, size: 3)
            case .box:
                swatch += SVG.rect(cx + 6, cy - 5, 12, 10, cls: item.cls, fill: item.colour)
            case .band:
                swatch += SVG.rect(cx + 2, cy - 5, 20, 10, cls: ["band", item.cls].compactMap { $0 }.joined(separator: " "))
            }
            let label = SVG.text(cx + 30, cy + 4, item.label, cls: item.flagged ? "legend-label flagged" : "legend-label")
            out += SVG.group(swatch + label, cls: "legend-item", tooltip: item.tooltip)
            cx += w
        }
        return (SVG.group(out, cls: "legend"), Double(row + 1) * rowHeight + 4)
    }
}
