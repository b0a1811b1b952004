import StrataReportModel

/// A scene's frame-time histogram: HdrHistogram's logarithmic buckets as bars on a log time
/// axis, with the 8.33 and 16.67 ms budgets.
struct SceneHistogramChart {
    var scene: SceneResult
    var width = 540.0
    var height = 300.0

    /// Buckets as (lower ms, upper ms, count); the HdrHistogram values are bucket tops in ns,
    /// each bucket 1.25 times the previous.
    var buckets: [(lo: Double, hi: Double, count: Double)] {
        scene.histogram.compactMap { b -> (Double, Double, Double)? in
            guard b.count >= 2, b[0].isFinite, b[1].isFinite, b[0] > 0, b[1] > 0 else { return nil }
            return (b[0] / 1.25 / 1e6, b[0] / 1e6, b[1])
        }.sorted { $0.0 < $1.0 }
    }

    func render(id: String) -> String? {
        let buckets = self.buckets
        guard !buckets.isEmpty else { return nil }
        let area = PlotArea(width: width, height: height, marginLeft: 62, marginTop: 14, marginRight: 16, marginBottom: 40)
        let x = LogScale(values: buckets.flatMap { [$0.lo, $0.hi] }, including: [FrameBudget.hz60, FrameBudget.hz120],
                         range: (area.left, area.right), padding: 1.15)
        let total = buckets.map(\.count).reduce(0, +)
        let y = LinearScale(values: buckets.map(\.count), including: [0], range: (area.bottom, area.top))
        var body = area.frame
        body += Axis.left(y, area: area, format: { Format.integer($0) }, title: "frames")
        body += Axis.bottom(x, area: area, format: FrameBudget.tick, title: "frame time (log)")
        var bars = ""
        for b in buckets {
            let x0 = x(b.lo), x1 = x(b.hi)
            let over = b.hi > FrameBudget.hz60 ? " over" : b.hi > FrameBudget.hz120 ? " late" : ""
            bars += SVG.rect(x0 + 0.5, y(b.count), max(1, x1 - x0 - 1), area.bottom - y(b.count), cls: "data bar hist" + over,
                             tooltip: "\(Format.ms(b.lo))–\(Format.ms(b.hi)): \(Format.integer(b.count)) frame\(b.count == 1 ? "" : "s") (\(Format.percent(total > 0 ? b.count / total : 0)))")
        }
        body += SVG.group(bars, cls: "bars")
        body += FrameBudget.verticalMarkers(x, area: area, within16: scene.withinBudget16, within8: scene.withinBudget8)
        return SVG.document(id: id, width: width, height: height, title: "\(scene.name): frame-time histogram",
                            description: "Number of frames per frame-time bucket of scene \(scene.name), logarithmic buckets, with the 8.33 ms and 16.67 ms budgets.",
                            content: body)
    }
}
