import Foundation

/// One figure over the last commits: a point per commit, oldest on the left, joined by a line;
/// change points as labelled vertical markers where the new level starts; this run (when its
/// commit is not in the history yet) as a hollow diamond at the right, joined by a dashed
/// segment and labelled "this run" under the axis. Linear value axis: the steps it shows are a
/// few percent, which a log axis would flatten.
struct TrendChart {
    struct Point {
        /// Under the axis: the short commit, or "this run".
        var label: String
        var value: Double
        var tooltip: String
        var isThisRun = false
    }

    struct Step {
        /// The index of the first point of the new level.
        var index: Int
        /// "step +12.3% at abc1234"
        var label: String
        var tooltip: String
    }

    var points: [Point]
    var steps: [Step] = []
    var yTitle: String
    /// A tick's label, given the significant digits that tell the ticks apart.
    var yFormat: (_ value: Double, _ digits: Int) -> String
    var colour = Palette.blue
    var width = 520.0
    var height = 250.0

    /// The SVG, or nil when fewer than two points have finite values.
    func render(id: String, title: String, description: String) -> String? {
        guard points.count >= 2, points.allSatisfy({ $0.value.isFinite }) else { return nil }
        let rows = Double(steps.count)
        let area = PlotArea(width: width, height: height + 12 * max(0, rows - 1), marginLeft: 62, marginTop: 14 + 12 * max(0, rows - 1),
                            marginRight: 16, marginBottom: 40)
        let n = points.count
        let x = LinearScale(values: [-0.5, Double(n) - 0.5], range: (area.left, area.right), nice: false)
        let y = LinearScale(values: points.map(\.value), range: (area.bottom, area.top), targetTicks: 4)

        var body = area.frame
        let digits = Self.digits(y)
        body += Axis.left(y, area: area, format: { yFormat($0, digits) }, title: yTitle)
        body += commitAxis(x, area: area)

        // Change points: a dashed line between the last commit of the old level and the first
        // of the new, labelled at the top (on the side with room), one row per step.
        var markers = ""
        for (row, step) in steps.enumerated() where step.index > 0 && step.index < n {
            let px = x(Double(step.index) - 0.5)
            let py = area.top - 3 - 12 * Double(steps.count - 1 - row)
            let leftHalf = px < (area.left + area.right) / 2
            markers += SVG.group(SVG.line(px, area.top, px, area.bottom, cls: "marker-line step", stroke: Palette.vermillion)
                                 + SVG.text(leftHalf ? px + 3 : px - 3, py, step.label, cls: "marker-label step",
                                            anchor: leftHalf ? .start : .end),
                                 cls: "change-point", tooltip: step.tooltip)
        }

        // The history's line, then the dashed link to this run.
        let history = points.enumerated().filter { !$0.element.isThisRun }
        var lines = ""
        if history.count >= 2 {
            lines += SVG.path(PathData.polyline(history.map { (x(Double($0.offset)), y.clamped($0.element.value)) }).d,
                              cls: "data series", stroke: colour, width: 2, tooltip: "\(title): one point per commit")
        }
        for (i, p) in points.enumerated() where p.isThisRun && i > 0 {
            var d = PathData()
            d.move(x(Double(i - 1)), y.clamped(points[i - 1].value))
            d.line(x(Double(i)), y.clamped(p.value))
            lines += SVG.path(d.d, cls: "data series this-run", stroke: colour, dash: "4 3", width: 1.6,
                              tooltip: "this run, not in the history yet")
        }
        var marks = ""
        for (i, p) in points.enumerated() {
            let marker: Marker = p.isThisRun ? .diamond : .circle
            marks += marker.svg(x(Double(i)), y.clamped(p.value), colour: colour, hollow: p.isThisRun,
                                size: p.isThisRun ? 3.6 : 3.2, tooltip: p.tooltip)
        }
        body += SVG.group(markers, cls: "markers") + SVG.group(lines, cls: "lines") + SVG.group(marks, cls: "points")
        return SVG.document(id: id, width: area.width, height: area.height, title: title, description: description, content: body)
    }

    /// Significant digits that keep the ticks apart: a step of 0.5 between 613 and 614.5 needs
    /// four (613.5), three tell 1.2 from 1.3.
    static func digits(_ y: LinearScale) -> Int {
        let ticks = y.ticks().filter { $0 != 0 && $0.isFinite }
        guard let largest = ticks.map({ abs($0) }).max(), y.step > 0, y.step.isFinite else { return 3 }
        return min(9, max(1, Int(floor(log10(largest))) - Int(floor(log10(y.step))) + 1))
    }

    /// A tick per commit; labels where they fit, this run, the change points and the ends first.
    private func commitAxis(_ x: LinearScale, area: PlotArea) -> String {
        var out = ""
        let stepStarts = Set(steps.map(\.index))
        let labels = points.enumerated().map { i, p in
            (position: x(Double(i)), extent: Double(p.label.count) * Axis.labelCharWidth + 8,
             priority: p.isThisRun || stepStarts.contains(i) ? 0 : (i == 0 || i == points.count - 1) ? 1 : 2)
        }
        let keep = Axis.thin(labels)
        for (i, p) in points.enumerated() {
            let px = x(Double(i))
            out += SVG.line(px, area.bottom, px, area.bottom + 4, cls: "tick")
            if keep.contains(i) {
                out += SVG.text(px, area.bottom + 16, p.label, cls: p.isThisRun ? "tick-label this-run" : "tick-label", anchor: .middle)
            }
        }
        out += SVG.line(area.left, area.bottom, area.right, area.bottom, cls: "axis")
        out += SVG.text((area.left + area.right) / 2, area.height - 6, "commit (oldest → newest)", cls: "axis-title", anchor: .middle)
        return SVG.group(out, cls: "x-axis")
    }
}
