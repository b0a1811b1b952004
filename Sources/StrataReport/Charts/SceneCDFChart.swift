import StrataReportModel

/// A scene's frame-time CDF: the share of frames at or under each time, on a log time axis,
/// with the budgets and the reported percentiles marked.
struct SceneCDFChart {
    var scene: SceneResult
    var width = 540.0
    var height = 300.0

    /// (ms, cumulative fraction) steps: from every frame time when the report has them
    /// (thinned to one point per half pixel), else from the histogram buckets.
    func steps(_ x: Scale) -> [(Double, Double)] {
        let times = scene.frameTimesMs.filter { $0.isFinite && $0 > 0 }.sorted()
        if !times.isEmpty {
            var out: [(Double, Double)] = []
            var lastPx = -Double.infinity
            for (i, t) in times.enumerated() {
                let f = Double(i + 1) / Double(times.count)
                let px = x(t)
                if px - lastPx < 0.5 && i != times.count - 1, !out.isEmpty {
                    out[out.count - 1] = (t, f)
                } else {
                    out.append((t, f))
                    lastPx = px
                }
            }
            return [(times[0], 0)] + out
        }
        let buckets = SceneHistogramChart(scene: scene).buckets
        let total = buckets.map(\.count).reduce(0, +)
        guard total > 0 else { return [] }
        var acc = 0.0
        return [(buckets[0].lo, 0)] + buckets.map { acc += $0.count; return ($0.hi, acc / total) }
    }

    func render(id: String) -> String? {
        let times = scene.frameTimesMs.filter { $0.isFinite && $0 > 0 }
        let bucketEdges = SceneHistogramChart(scene: scene).buckets.flatMap { [$0.lo, $0.hi] }
        let values = times.isEmpty ? bucketEdges : times
        guard !values.isEmpty else { return nil }
        let area = PlotArea(width: width, height: height, marginLeft: 62, marginTop: 14, marginRight: 16, marginBottom: 40)
        let x = LogScale(values: values, including: [FrameBudget.hz60, FrameBudget.hz120], range: (area.left, area.right), padding: 1.15)
        let y = LinearScale(values: [0, 1], range: (area.bottom, area.top), targetTicks: 4)
        let pts = steps(x)
        guard pts.count >= 2 else { return nil }
        var body = area.frame
        body += Axis.left(y, area: area, format: { Format.percent($0) }, title: "frames at or under", ticks: [0, 0.25, 0.5, 0.75, 1])
        body += Axis.bottom(x, area: area, format: FrameBudget.tick, title: "frame time (log)")
        let d = PathData.steps(pts.map { (x.clamped($0.0), y($0.1)) }).d
        body += SVG.path(d, cls: "data series cdf", stroke: Palette.blue, width: 2, tooltip: "\(scene.name): cumulative share of frames")
        var marks = ""
        for (name, value, fraction) in [("p50", scene.p50, 0.5), ("p90", scene.p90, 0.9), ("p99", scene.p99, 0.99), ("p99.9", scene.p999, 0.999)]
        where value.isFinite && value > 0 {
            marks += Marker.circle.svg(x.clamped(value), y(fraction), colour: Palette.blue, hollow: true, size: 3.5,
                                       tooltip: "\(name): \(Format.ms(value))")
        }
        body += SVG.group(marks, cls: "points")
        body += FrameBudget.verticalMarkers(x, area: area, within16: scene.withinBudget16, within8: scene.withinBudget8, labelsAtBottom: true)
        return SVG.document(id: id, width: width, height: height, title: "\(scene.name): frame-time CDF",
                            description: "Share of frames of scene \(scene.name) at or under each frame time, with the p50, p90, p99 and p99.9 marked and the 8.33 ms and 16.67 ms budgets.",
                            content: body)
    }
}
