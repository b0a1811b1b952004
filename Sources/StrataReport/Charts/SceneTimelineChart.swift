import StrataReportModel

/// Every frame's time in order. Up to one frame per pixel column the line goes through each
/// frame; beyond that each column shows its frames' min–max span and the line its median.
/// Frames over the 60 Hz budget are marked.
struct SceneTimelineChart {
    var scene: SceneResult
    var width = 1100.0
    var height = 260.0
    static let maxMarkedFrames = 300

    func render(id: String) -> String? {
        let times = scene.frameTimesMs
        let finite = times.filter { $0.isFinite && $0 > 0 }
        guard finite.count >= 2 else { return nil }
        let area = PlotArea(width: width, height: height, marginLeft: 62, marginTop: 14, marginRight: 16, marginBottom: 40)
        let x = LinearScale(values: [0, Double(times.count - 1)], range: (area.left, area.right), targetTicks: 8)
        let y = LogScale(values: finite, including: [FrameBudget.hz60, FrameBudget.hz120], range: (area.bottom, area.top), padding: 1.2)
        var body = area.frame
        body += Axis.left(y, area: area, format: FrameBudget.tick, title: "frame time (log)")
        body += Axis.bottom(x, area: area, format: { Format.integer($0) }, title: "frame")
        let columns = Int(area.plotWidth)
        var lines = ""
        if times.count <= columns {
            let d = PathData.polyline(times.enumerated().map { (x(Double($0.offset)), $0.element > 0 ? y.clamped($0.element) : .nan) }).d
            lines += SVG.path(d, cls: "data series", stroke: Palette.blue, width: 1.2, tooltip: "\(scene.name): frame times")
        } else {
            var envelope = PathData()
            var medians: [(Double, Double)] = []
            let per = Double(times.count) / Double(columns)
            for c in 0..<columns {
                let lo = Int(Double(c) * per), hi = min(times.count, Int(Double(c + 1) * per))
                guard hi > lo else { continue }
                let slice = times[lo..<hi].filter { $0.isFinite && $0 > 0 }.sorted()
                guard let mn = slice.first, let mx = slice.last else { continue }
                let px = x(Double(lo + hi - 1) / 2)
                envelope.move(px, y.clamped(mn))
                envelope.line(px, y.clamped(mx) - (mx == mn ? 0.5 : 0))
                medians.append((px, y.clamped(slice[slice.count / 2])))
            }
            lines += SVG.path(envelope.d, cls: "data envelope", stroke: Palette.sky, width: 1,
                              tooltip: "min–max of the frames in each pixel column")
            lines += SVG.path(PathData.polyline(medians).d, cls: "data series", stroke: Palette.blue, width: 1.2,
                              tooltip: "median of the frames in each pixel column")
        }
        var over = ""
        var marked = 0
        for (i, t) in times.enumerated() where t.isFinite && t > FrameBudget.hz60 && marked < Self.maxMarkedFrames {
            over += SVG.circle(x(Double(i)), y.clamped(t), 2.6, cls: "over-budget", tooltip: "frame \(i): \(Format.ms(t)) (over 16.67 ms)")
            marked += 1
        }
        body += SVG.group(lines, cls: "lines") + SVG.group(over, cls: "points")
        body += FrameBudget.horizontalMarkers(y, area: area)
        return SVG.document(id: id, width: width, height: height, title: "\(scene.name): frame timeline",
                            description: "Time of every frame of scene \(scene.name) in order, on a log axis, with the budgets and the frames over 16.67 ms marked.",
                            content: body)
    }
}
