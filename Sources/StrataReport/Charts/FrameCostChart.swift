import StrataReportModel

/// A scene's deterministic frame cost, frame by frame: estimated cycles and instructions of
/// every counted frame in order (callgrind, the median placement), on one linear axis, with
/// the p50 and p99 of estimated cycles marked.
struct FrameCostChart {
    var name: String
    var counts: FrameCounts
    var width = 1100.0
    var height = 240.0

    func render(id: String) -> String? {
        guard let ir = counts.instructionsSeries, ir.count >= 2 else { return nil }
        let cycles = counts.estimatedCyclesSeries ?? []
        let area = PlotArea(width: width, height: height, marginLeft: 70, marginTop: 14, marginRight: 16, marginBottom: 40)
        let x = LinearScale(values: [0, Double(ir.count - 1)], range: (area.left, area.right), targetTicks: 8)
        let y = LinearScale(values: ir + cycles, including: [0], range: (area.bottom, area.top), targetTicks: 5)
        var body = area.frame
        body += Axis.left(y, area: area, format: { Format.short($0) }, title: "per frame")
        body += Axis.bottom(x, area: area, format: { Format.integer($0) }, title: "counted frame")
        var lines = ""
        if !cycles.isEmpty {
            lines += SVG.path(PathData.polyline(cycles.enumerated().map { (x(Double($0.offset)), y.clamped($0.element)) }).d,
                              cls: "data series", stroke: Palette.orange, width: 1.2, tooltip: "\(name): estimated cycles per frame")
        }
        lines += SVG.path(PathData.polyline(ir.enumerated().map { (x(Double($0.offset)), y.clamped($0.element)) }).d,
                          cls: "data series", stroke: Palette.blue, width: 1.2, tooltip: "\(name): instructions per frame")
        var marks = ""
        if let d = counts.estimatedCycles {
            for (label, v) in [("p50", d.p50), ("p99", d.p99)] {
                marks += SVG.line(area.left, y(v), area.right, y(v), cls: "marker", stroke: Palette.vermillion, dash: "4 3",
                                  tooltip: "estimated cycles \(label): \(Format.integer(v))")
                marks += SVG.text(area.right - 4, y(v) - 3, "cycles \(label)", cls: "marker-label", anchor: .end)
            }
        }
        body += SVG.group(lines, cls: "lines") + SVG.group(marks, cls: "markers")
        body += Legend.render([LegendItem(label: "estimated cycles", colour: Palette.orange, swatch: .box),
                               LegendItem(label: "instructions", colour: Palette.blue, swatch: .box)],
                              x: area.left + 8, y: area.top + 2, width: area.plotWidth - 16).svg
        return SVG.document(id: id, width: width, height: height, title: "\(name): frame cost timeline",
                            description: "Estimated cycles and instructions of every counted frame of \(name) in order, under callgrind (deterministic).",
                            content: body)
    }
}
