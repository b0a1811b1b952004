import Foundation

/// Axes with ticks, tick labels, grid lines and a title, drawn along a plot area's edges.
/// Every tick gets its grid line; labels that would collide are left out, the roundest values
/// (powers of ten, then 2 and 5 times them) kept first.
enum Axis {
    /// Estimated advance of a tick label character (10.5 px text).
    static let labelCharWidth = 6.1

    /// The x axis under the plot: a grid line and a label per tick, the title below.
    static func bottom(_ scale: Scale, area: PlotArea, format: (Double) -> String, title: String?,
                       ticks: [Double]? = nil, grid: Bool = true) -> String {
        var out = ""
        let ticks = (ticks ?? scale.ticks()).filter { scale.contains($0) }
        let labels = ticks.map(format)
        let keep = thin(ticks.indices.map { i in
            (position: scale(ticks[i]), extent: Double(labels[i].count) * labelCharWidth + 8, priority: roundness(ticks[i]))
        })
        for (i, t) in ticks.enumerated() {
            let x = scale(t)
            if grid { out += SVG.line(x, area.top, x, area.bottom, cls: "grid") }
            out += SVG.line(x, area.bottom, x, area.bottom + 4, cls: "tick")
            if keep.contains(i) { out += SVG.text(x, area.bottom + 16, labels[i], cls: "tick-label", anchor: .middle) }
        }
        out += SVG.line(area.left, area.bottom, area.right, area.bottom, cls: "axis")
        if let title {
            out += SVG.text((area.left + area.right) / 2, area.height - 6, title, cls: "axis-title", anchor: .middle)
        }
        return SVG.group(out, cls: "x-axis")
    }

    /// The y axis left of the plot: a grid line and a label per tick, the title rotated.
    static func left(_ scale: Scale, area: PlotArea, format: (Double) -> String, title: String?,
                     ticks: [Double]? = nil, grid: Bool = true) -> String {
        var out = ""
        let ticks = (ticks ?? scale.ticks()).filter { scale.contains($0) }
        let keep = thin(ticks.map { (position: scale($0), extent: 14, priority: roundness($0)) })
        for (i, t) in ticks.enumerated() {
            let y = scale(t)
            if grid { out += SVG.line(area.left, y, area.right, y, cls: "grid") }
            out += SVG.line(area.left - 4, y, area.left, y, cls: "tick")
            if keep.contains(i) { out += SVG.text(area.left - 7, y + 3.5, format(t), cls: "tick-label", anchor: .end) }
        }
        out += SVG.line(area.left, area.top, area.left, area.bottom, cls: "axis")
        if let title {
            out += SVG.text(13, (area.top + area.bottom) / 2, title, cls: "axis-title", anchor: .middle, rotate: -90)
        }
        return SVG.group(out, cls: "y-axis")
    }

    /// 0 for a power of ten, 1 for 2 or 5 times one, 2 otherwise (which labels to keep first).
    static func roundness(_ v: Double) -> Int {
        guard v != 0, v.isFinite else { return 0 }
        let m = abs(v) / pow(10, floor(log10(abs(v))))
        let r = (m * 1000).rounded() / 1000
        return r == 1 ? 0 : (r == 2 || r == 5) ? 1 : 2
    }

    /// The indices of labels to draw: greedily by priority, skipping any whose extent
    /// (centred on its position) overlaps one already kept.
    static func thin(_ labels: [(position: Double, extent: Double, priority: Int)]) -> Set<Int> {
        var kept: [(lo: Double, hi: Double)] = []
        var out = Set<Int>()
        for i in labels.indices.sorted(by: { (labels[$0].priority, $0) < (labels[$1].priority, $1) }) {
            let l = labels[i]
            let span = (lo: l.position - l.extent / 2, hi: l.position + l.extent / 2)
            if kept.allSatisfy({ span.hi <= $0.lo || span.lo >= $0.hi }) {
                kept.append(span)
                out.insert(i)
            }
        }
        return out
    }

    /// A labelled reference line across the plot at x = `value` (a budget), with a tooltip;
    /// the label at the top (row 0, 1 ...) or, with `labelAtBottom`, near the bottom.
    static func verticalMarker(_ scale: Scale, area: PlotArea, value: Double, label: String, cls: String,
                               labelRow: Int = 0, labelAtBottom: Bool = false, tooltip: String) -> String {
        guard scale.contains(value) else { return "" }
        let x = scale(value)
        let y = labelAtBottom ? area.bottom - 6 - Double(labelRow) * 12 : area.top + 11 + Double(labelRow) * 12
        return SVG.group(SVG.line(x, area.top, x, area.bottom, cls: "marker-line " + cls)
                         + SVG.text(x - 3, y, label, cls: "marker-label " + cls, anchor: .end), tooltip: tooltip)
    }

    /// The same across the plot at y = `value`.
    static func horizontalMarker(_ scale: Scale, area: PlotArea, value: Double, label: String, cls: String, tooltip: String) -> String {
        guard scale.contains(value) else { return "" }
        let y = scale(value)
        return SVG.group(SVG.line(area.left, y, area.right, y, cls: "marker-line " + cls)
                         + SVG.text(area.right - 3, y - 3, label, cls: "marker-label " + cls, anchor: .end), tooltip: tooltip)
    }
}
