import StrataReportModel

/// Deterministic counts per item: callgrind instructions, its cache simulation's estimated
/// cycles (with the range the body took over its placements) and malloc-family calls.
enum CountsSection {
    static func render(_ block: StrataBlock) -> Section? {
        guard !block.counts.isEmpty else { return nil }
        var t = Table([.init("benchmark"), .init("item"), .init("items / iteration", numeric: true), .init("iterations", numeric: true),
                       .init("instructions", numeric: true, tooltip: "per item, under callgrind, body only"),
                       .init("estimated cycles", numeric: true,
                             tooltip: "per item: L1 hits + 5 x LL hits + 35 x memory accesses in callgrind's cache simulation; the median placement's"),
                       .init("over placements", tooltip: "fewest and most estimated cycles per item over the placements the body was counted under (heap laid out otherwise in each)"),
                       .init("mallocs", numeric: true), .init("frees", numeric: true), .init("bytes allocated", numeric: true)])
        for c in block.counts where c.frames == nil {
            let range = c.estimatedCyclesRangePerItem.map { "\(Format.perItem($0.lowerBound)) – \(Format.perItem($0.upperBound)) (\(c.layouts ?? 0))" } ?? "–"
            t.add(text: [c.name, c.item, Format.integer(c.itemsPerIteration), Format.integer(c.iterations), Format.perItem(c.instructionsPerItem),
                         Format.perItem(c.estimatedCyclesPerItem), range,
                         Format.perItem(c.mallocsPerItem), Format.perItem(c.freesPerItem), Format.perItem(c.bytesAllocatedPerItem)])
        }
        var intro = paragraph("Per item of the benchmark body: exact from run to run, so compared with a tight threshold. "
            + "The cache simulation sees addresses, so each body is counted under several placements of its heap and judged by the median; "
            + "an estimated-cycles change counts only when it holds in every placement.")
        if block.counts.allSatisfy({ $0.instructionsPerItem == nil }) {
            intro += paragraph("No instruction counts: valgrind was not available for this run.", cls: "note warn")
        }
        let (sceneHTML, charts) = frameCost(block)
        let bodies = block.counts.contains { $0.frames == nil } ? intro + t.html : ""
        return Section(id: "counts", title: "Deterministic counts", html: bodies + sceneHTML, charts: charts)
    }

    /// The scenes' frame cost: per scene the per-frame distributions, the phases' shares and
    /// the per-frame timeline of estimated cycles and instructions.
    static func frameCost(_ block: StrataBlock) -> (String, [Chart]) {
        let scenes = block.counts.filter { $0.frames != nil }
        guard !scenes.isEmpty else { return ("", []) }
        var html = "<h3 id=\"frame-cost\">Scene frame cost</h3>"
        html += paragraph("Every counted frame of each scene (after its warm-up) under callgrind, on one render thread, split by phase: "
            + "the app's setters with their lookups, commits (explicit and beginFrame's), render, the render snapshot and endFrame. "
            + "Exact from run to run; compare --gate counts judges the per-frame p50 and p99 of instructions and estimated cycles and the mallocs per frame. "
            + "Each scene is counted under several placements of its tree's heap; the figures are the median placement's.")
        var t = Table([.init("scene"), .init("frames", numeric: true),
                       .init("instructions p50", numeric: true), .init("p99", numeric: true), .init("max", numeric: true),
                       .init("estimated cycles p50", numeric: true), .init("p99", numeric: true),
                       .init("p50 over placements", tooltip: "fewest and most per-frame p50 estimated cycles over the placements"),
                       .init("mallocs / frame", numeric: true), .init("counted in", numeric: true)])
        var charts: [Chart] = []
        var details = ""
        for c in scenes {
            guard let f = c.frames else { continue }
            let range = FrameCounts.range(f.estimatedCyclesP50Range).map { "\(Format.integer($0.lowerBound)) – \(Format.integer($0.upperBound))" } ?? "–"
            t.add(text: [c.name, Format.integer(f.frames), Format.integer(f.instructions?.p50), Format.integer(f.instructions?.p99),
                         Format.integer(f.instructions?.max), Format.integer(f.estimatedCycles?.p50), Format.integer(f.estimatedCycles?.p99),
                         range, Format.perItem(f.mallocs.mean), f.countingSeconds.map { String(format: "%.0f s", $0) } ?? "–"])
            var p = Table([.init("phase"), .init("instructions / frame", numeric: true), .init("estimated cycles / frame", numeric: true),
                           .init("mallocs / frame", numeric: true), .init("share", numeric: true, tooltip: "of the frame's estimated cycles")])
            for ph in f.phases {
                p.add(text: [ph.name, Format.integer(ph.instructionsPerFrame), Format.integer(ph.estimatedCyclesPerFrame),
                             Format.perItem(ph.mallocsPerFrame), Format.percent(ph.share)])
            }
            let id = "cost-\(Escape.id(c.name))"
            details += "<h4 id=\"\(Escape.text(id))\">\(Escape.text(c.name)): phases</h4>" + p.html
            if let chart = costChart(c, id: id + "-timeline") {
                charts.append(chart)
                details += "<div class=\"chart-stack\">" + chart.html + "</div>"
            }
        }
        return (html + t.html + details, charts)
    }

    /// The per-frame cost timeline of a counted scene (`scene/NAME`), nil without instructions.
    static func costChart(_ c: CountResult, id: String) -> Chart? {
        guard let f = c.frames, let svg = FrameCostChart(name: c.name, counts: f).render(id: id) else { return nil }
        return Chart(id: id, title: "\(c.name) · frame cost", caption: "estimated cycles and instructions of every counted frame (callgrind, deterministic); dashed: p50 and p99 of estimated cycles", svg: svg)
    }
}
