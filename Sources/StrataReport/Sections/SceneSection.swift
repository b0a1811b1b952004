import StrataReportModel

/// Frame-time scenes: per scene its figures, the histogram and CDF side by side, and the
/// timeline beneath.
enum SceneSection {
    static func render(_ block: StrataBlock) -> Section? {
        guard !block.scenes.isEmpty else { return nil }
        var html = paragraph("Scripted app frame loops timed frame by frame (the app's changes, commit, render, the render snapshot a renderer takes, end of frame). Budgets: 16.67 ms at 60 Hz, 8.33 ms at 120 Hz.")
        var charts: [Chart] = []
        html += variantTables(block.scenes)
        for scene in block.scenes {
            let base = "scene-\(Escape.id(scene.name))"
            var sceneCharts: [Chart] = []
            if let svg = SceneHistogramChart(scene: scene).render(id: base + "-histogram") {
                sceneCharts.append(Chart(id: base + "-histogram", title: "\(scene.name) · histogram",
                                         caption: "frames per frame-time bucket (log time axis); orange past 8.33 ms, red past 16.67 ms", svg: svg))
            }
            if let svg = SceneCDFChart(scene: scene).render(id: base + "-cdf") {
                sceneCharts.append(Chart(id: base + "-cdf", title: "\(scene.name) · CDF",
                                         caption: "share of frames at or under a time; ○ p50, p90, p99, p99.9", svg: svg))
            }
            var timeline: Chart?
            if let svg = SceneTimelineChart(scene: scene).render(id: base + "-timeline") {
                timeline = Chart(id: base + "-timeline", title: "\(scene.name) · timeline",
                                 caption: "every frame in order (log axis); red dots: over 16.67 ms", svg: svg)
            }
            html += "<article class=\"scene\" id=\"\(Escape.text(base))\"><h3>\(Escape.text(scene.name))</h3>"
            html += paragraph(scene.description)
            var about: [String] = []
            if let f = scene.file { about.append("file \(f)") }
            if let p = scene.parameters, !p.isEmpty {
                about.append("parameters " + p.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value == $0.value.rounded() ? Format.integer($0.value) : String($0.value))" }.joined(separator: ", "))
            }
            if let e = scene.engine { about.append("\(e) engine" + (scene.strategy.map { ", \($0) lookup" } ?? "")) }
            if !about.isEmpty { html += paragraph(about.joined(separator: "; "), cls: "note") }
            if let player = scene.player {
                html += "<p class=\"note\">See what it animates: <a href=\"\(Escape.text(player))\">\(Escape.text(player))</a> (the scene's player, beside this report: its recorded frames on a canvas, with this timeline).</p>"
            }
            html += stats(scene)
            if !sceneCharts.isEmpty { html += "<div class=\"chart-grid\">" + sceneCharts.map(\.html).joined() + "</div>" }
            if let timeline { html += "<div class=\"chart-stack\">" + timeline.html + "</div>" }
            // Beside the time timeline, the same scene's deterministic frame cost when it was counted.
            if let counted = block.counts.first(where: { $0.name == "scene/\(scene.name)" }),
               let cost = CountsSection.costChart(counted, id: base + "-cost") {
                html += "<div class=\"chart-stack\">" + cost.html + "</div>"
                charts.append(cost)
            }
            if sceneCharts.isEmpty && timeline == nil { html += paragraph("No frames were recorded.", cls: "note warn") }
            html += "</article>"
            charts += sceneCharts + (timeline.map { [$0] } ?? [])
        }
        return Section(id: "scenes", title: "Frame-time scenes", html: html, charts: charts)
    }

    /// A scene run under several engines or lookup strategies: the variants side by side,
    /// each against the first.
    static func variantTables(_ scenes: [SceneResult]) -> String {
        var html = ""
        for (scene, runs) in Headline.variants(scenes) {
            let first = runs[0]
            var t = Table([Table.Column("run"), Table.Column("engine"), Table.Column("strategy")]
                          + ["p50", "p90", "p99", "p99.9", "max", "hitch", "p50 / first", "p99 / first"].map { Table.Column($0, numeric: true) })
            for r in runs {
                t.add([.markup("<a href=\"#scene-\(Escape.id(r.name))\">\(Escape.text(r.name))</a>"), .text(r.engine ?? "fast"), .text(r.strategy ?? "")]
                      + [Format.ms(r.p50), Format.ms(r.p90), Format.ms(r.p99), Format.ms(r.p999), Format.ms(r.max),
                         String(format: "%.1f ms/s", r.hitchMsPerSecond.isFinite ? r.hitchMsPerSecond : 0),
                         String(format: "%.2fx", r.p50 / max(first.p50, 1e-9)), String(format: "%.2fx", r.p99 / max(first.p99, 1e-9))]
                        .map { Table.Cell.text($0) })
            }
            html += "<h3>\(Escape.text(scene)): side by side</h3>" + t.html
            html += paragraph("Each run on an engine of its own, one after another in this order; the ratios are against the first run. Runs of one process can drift (caches, the other core's load): repeat or reorder to check a small difference.", cls: "note")
        }
        return html
    }

    /// The scene's figures as a row of small stat boxes.
    static func stats(_ s: SceneResult) -> String {
        func stat(_ label: String, _ value: String, _ cls: String? = nil, tip: String? = nil) -> String {
            "<div class=\"stat\(cls.map { " " + $0 } ?? "")\"\(SVG.attributes([("title", tip)]))><span class=\"stat-label\">\(Escape.text(label))</span><span class=\"stat-value\">\(Escape.text(value))</span></div>"
        }
        var out = "<div class=\"stats\">"
        out += stat("layers", Format.integer(s.layers))
        out += stat("frames", Format.integer(s.frames), tip: "\(s.warmupFrames) warm-up frames not counted")
        out += stat("p50", Format.ms(s.p50))
        out += stat("p90", Format.ms(s.p90))
        out += stat("p99", Format.ms(s.p99), s.p99 > FrameBudget.hz60 ? "bad" : s.p99 > FrameBudget.hz120 ? "warn" : nil)
        out += stat("p99.9", Format.ms(s.p999))
        out += stat("max", Format.ms(s.max), s.max > FrameBudget.hz60 ? "bad" : nil)
        out += stat("mean", Format.ms(s.mean))
        out += stat("frame part p50 / p99", "\(Format.ms(s.renderP50)) / \(Format.ms(s.renderP99))",
                    tip: s.snapshotP50 == nil ? "commit + render + end of frame" : "commit + render + snapshot + end of frame")
        if let p50 = s.snapshotP50, let p99 = s.snapshotP99 {
            out += stat("snapshot p50 / p99", "\(Format.ms(p50)) / \(Format.ms(p99))", tip: "the render snapshot alone (inside the frame part)")
        }
        out += stat("≤ 16.67 ms", Format.percent(s.withinBudget16), s.withinBudget16 < 1 ? "warn" : "good", tip: "frames within the 60 Hz budget")
        out += stat("≤ 8.33 ms", Format.percent(s.withinBudget8), s.withinBudget8 < 1 ? "warn" : "good", tip: "frames within the 120 Hz budget")
        out += stat("dropped", Format.integer(s.droppedFrames), s.droppedFrames > 0 ? "bad" : "good", tip: "refreshes a 60 Hz display would have missed")
        let rating = s.hitchRating
        out += stat("hitch (\(rating.rawValue))", String(format: "%.1f ms/s", s.hitchMsPerSecond.isFinite ? s.hitchMsPerSecond : 0),
                    rating == .good ? "good" : rating == .warning ? "warn" : "bad",
                    tip: "Apple's hitch time ratio, CPU-side (no display here): time beyond the 60 Hz budget per second of frames; Apple's bands: good under 5 ms/s, warning 5–10, critical above 10")
        if let o = s.frameOverrunMs {
            out += stat("overrun p50 / p90 / p95 / p99", String(format: "%.2f / %.2f / %.2f / %.2f ms", o.p50, o.p90, o.p95, o.p99),
                        o.p99 > 0 ? "warn" : "good",
                        tip: "Android's frameOverrunMs, CPU-side: frame time minus the 60 Hz budget (negative: made the deadline), over \(s.frames) frames")
        }
        if let m = s.memory {
            out += stat("bytes / layer", Format.bytes(m.bytesPerLayer), tip: "layer-store bytes per live layer at the end (capacity, slack included)")
            out += stat("bytes / animation", Format.bytes(m.bytesPerAnimation),
                        tip: "animation- and timing-store bytes per running animation at the end (capacity, slack included)")
            out += stat("store growth", Format.bytes(Double(m.storeGrowthBytes)), m.storeGrowthBytes > 0 ? "warn" : "good",
                        tip: "engine store bytes at the end minus after the warm-up (\(m.samples.count) readings; peak \(Format.bytes(Double(m.peakStoreBytes))))")
            out += stat("RSS growth", Format.bytes(Double(m.residentGrowthBytes)),
                        tip: "process resident memory at the end minus after the warm-up, less the \(Format.bytes(Double(m.harnessGrowthBytes))) the suite's player recording grew by (peak \(Format.bytes(Double(m.peakResidentBytes))))")
        }
        return out + "</div>"
    }
}
