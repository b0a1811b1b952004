import Foundation

/// One point of a line series, with an optional min–max whisker and its tooltip.
struct LinePoint {
    var x: Double
    var y: Double
    var low: Double?
    var high: Double?
    var tooltip: String
}

/// A series: a line through its points, or (with a fit) its points and the fitted line.
struct LineSeries {
    var label: String
    var colour: String
    var dash: Dash = .solid
    var marker: Marker = .circle
    var hollow = false
    /// Extra class (e.g. `floor`, drawn in the muted colour whatever `colour` says).
    var cls: String?
    var points: [LinePoint]
    var fit: PowerFit?
    var legendTooltip: String?
}

/// Series against N on log-log axes (frame cost, commit cost, tree scaling).
struct LineChart {
    var xTitle: String
    var yTitle: String
    var xFormat: (Double) -> String = Format.short
    var yFormat: (Double) -> String = { Format.ns($0, compactZeros: true) }
    var series: [LineSeries]
    var width = 540.0
    var height = 340.0

    /// The series that can be drawn: finite, positive points (log axes), sorted by x.
    private var drawable: [LineSeries] {
        series.map { s in
            var s = s
            s.points = s.points.filter { $0.x.isFinite && $0.y.isFinite && $0.x > 0 && $0.y > 0 }.sorted { $0.x < $1.x }
            return s
        }.filter { !$0.points.isEmpty }
    }

    /// Whether any series has a line to draw (two points, or a fit).
    var hasLines: Bool { drawable.contains { $0.points.count >= 2 } }

    /// The SVG, or nil when no series has two points to join.
    func render(id: String, title: String, description: String) -> String? {
        let series = drawable
        guard series.contains(where: { $0.points.count >= 2 }) else { return nil }
        let items = series.map { s in
            LegendItem(label: s.fit.map { "\(s.label)  \($0.label)" } ?? s.label, colour: s.colour,
                       swatch: .line(s.dash, s.marker, hollow: s.hollow), flagged: s.fit?.superLinear ?? false,
                       cls: s.cls, tooltip: s.legendTooltip)
        }
        let legend = Legend.render(items, x: 62, y: 6, width: width - 70)
        let area = PlotArea(width: width, height: height + legend.height, marginLeft: 62, marginTop: 14 + legend.height,
                            marginRight: 16, marginBottom: 40)
        let xs = series.flatMap { $0.points.map(\.x) }
        let ys = series.flatMap { s in s.points.flatMap { [$0.y, $0.low ?? $0.y, $0.high ?? $0.y] } }
        let x = LogScale(values: xs, range: (area.left, area.right), padding: 1.25)
        let y = LogScale(values: ys, range: (area.bottom, area.top), padding: 1.3)

        var body = area.frame
        body += Axis.left(y, area: area, format: yFormat, title: yTitle)
        body += Axis.bottom(x, area: area, format: xFormat, title: xTitle)
        var lines = "", marks = ""
        var fitLabels: [(x: Double, y: Double, text: String, flagged: Bool, colour: String)] = []
        for s in series {
            let cls = ["data", "series", s.cls].compactMap { $0 }.joined(separator: " ")
            if let fit = s.fit, let lo = s.points.first?.x, let hi = s.points.last?.x, hi > lo {
                // The fitted line across the measured sizes, its exponent at the end.
                var p = PathData()
                let steps = 8
                for i in 0...steps {
                    let xv = lo * pow(hi / lo, Double(i) / Double(steps))
                    p.line(x(xv), y.clamped(fit(xv)))
                }
                lines += SVG.path(p.d, cls: cls + " fit-line" + (fit.superLinear ? " flagged" : ""), stroke: s.colour,
                                  dash: s.dash.pattern, width: fit.superLinear ? 2.6 : 1.8,
                                  tooltip: "\(s.label): fitted \(fit.label)")
                fitLabels.append((x(hi) + 5, y.clamped(fit(hi)) - 5, String(format: "N^%.2f", fit.exponent) + (fit.superLinear ? " ⚠" : ""),
                                  fit.superLinear, s.colour))
            } else if s.points.count >= 2 {
                let p = PathData.polyline(s.points.map { (x($0.x), y.clamped($0.y)) })
                lines += SVG.path(p.d, cls: cls, stroke: s.colour, dash: s.dash.pattern, width: 2,
                                  tooltip: s.label)
            }
            for pt in s.points {
                let px = x(pt.x), py = y.clamped(pt.y)
                if let lo = pt.low, let hi = pt.high, lo > 0, hi > 0, y(lo) - y(hi) > 2 {
                    marks += SVG.line(px, y.clamped(lo), px, y.clamped(hi), cls: "whisker", stroke: s.colour)
                }
                marks += s.marker.svg(px, py, colour: s.colour, hollow: s.hollow, tooltip: pt.tooltip)
            }
        }
        // Exponent labels at the lines' ends, pushed apart vertically where they would overlap.
        fitLabels.sort { $0.y < $1.y }
        for i in fitLabels.indices.dropFirst() where fitLabels[i].y - fitLabels[i - 1].y < 12 && abs(fitLabels[i].x - fitLabels[i - 1].x) < 50 {
            fitLabels[i].y = fitLabels[i - 1].y + 12
        }
        for l in fitLabels {
            marks += SVG.text(l.x, l.y, l.text, cls: l.flagged ? "fit-label flagged" : "fit-label", fill: l.flagged ? nil : l.colour)
        }
        body += SVG.group(lines, cls: "lines") + SVG.group(marks, cls: "points") + legend.svg
        return SVG.document(id: id, width: area.width, height: area.height, title: title, description: description, content: body)
    }
}
