import StrataReportModel

/// Against a baseline: the verdict summary, the change charts (times, then counts) and the
/// verdict table.
enum ComparisonSection {
    static func render(_ c: Comparison, baseline: StrataBlock?) -> Section {
        var html = ""
        let counts = Dictionary(grouping: c.rows, by: \.verdict).mapValues(\.count)
        html += "<p class=\"verdicts\">" + Verdict.allCases.sorted { VerdictStyle.rank($0) < VerdictStyle.rank($1) }
            .compactMap { v in counts[v].map { "\(VerdictStyle.badge(v)) <strong>\($0)</strong>" } }.joined(separator: " ") + "</p>"
        var facts = ["baseline \(c.baselinePath)", "head \(c.headPath)",
                     "time threshold \(Format.percent(c.timeThreshold))", "count threshold \(Format.percent(c.countThreshold))"]
        if let b = baseline { facts.append("baseline from \(b.createdAt), commit \(String(b.machine.gitCommit.prefix(10)))\(b.machine.gitDirty ? " (dirty)" : "")") }
        html += paragraph(facts.joined(separator: " · "))
        if !c.sameMachine {
            html += "<p class=\"callout warn\"><strong>Different machines or builds:</strong> times are shown but not judged; instruction and malloc counts are still compared.</p>"
        }
        for note in c.notes { html += "<p class=\"callout\">\(Escape.text(note))</p>" }

        var charts: [Chart] = []
        // Times (and paired scene frame times, relative); the hitch ratio is a difference in
        // ms/s and stays in the table only.
        let times = c.rows.filter { ["time", "p50", "p99"].contains($0.metric) }
        let countRows = c.rows.filter { !["time", "p50", "p99", "hitch"].contains($0.metric) && $0.verdict != .informational }
        if let svg = ChangeChart(rows: times, threshold: c.timeThreshold, metricName: "median time per item").render(id: "change-time", title: "Time changes") {
            let shown = ChangeChart.select(times).count, total = times.filter { $0.change != nil }.count
            charts.append(Chart(id: "change-time", title: "Time: change against the baseline",
                                caption: (times.contains { $0.basis == "paired" } ? "median per-round ratio of paired rounds (scenes: frame-time p50, p99), head vs base" : "median time per item, head vs baseline") + "; whiskers: bootstrap 95% interval; band: threshold; each verdict's own noise band is in the table" + (shown < total ? " (the \(shown) most telling of \(total))" : ""),
                                svg: svg))
        }
        if let svg = ChangeChart(rows: countRows, threshold: c.countThreshold, metricName: "count per item").render(id: "change-counts", title: "Count changes") {
            charts.append(Chart(id: "change-counts", title: "Counts: change against the baseline",
                                caption: "instructions, estimated cycles (callgrind's cache simulation) and mallocs per item, exact; band: threshold", svg: svg))
        }
        let sorted = c.rows.sorted { a, b in
            let ra = VerdictStyle.rank(a.verdict), rb = VerdictStyle.rank(b.verdict)
            if ra != rb { return ra < rb }
            return abs(a.change ?? 0) > abs(b.change ?? 0)
        }
        let quiet: Set<Verdict> = [.unchanged, .insufficientData, .informational]
        let notable = verdictTable(sorted.filter { !quiet.contains($0.verdict) })
        let rest = verdictTable(sorted.filter { quiet.contains($0.verdict) })
        var table = "<h3 id=\"verdicts\">Verdicts</h3>"
        if c.rows.isEmpty {
            table += paragraph("No metrics to compare.")
        } else {
            table += notable.rows.isEmpty ? paragraph("Nothing changed beyond its threshold.", cls: "callout good") : notable.html
            if !rest.rows.isEmpty {
                let n = sorted.filter { $0.verdict == .unchanged }.count, m = sorted.filter { $0.verdict == .insufficientData }.count
                let info = sorted.filter { $0.verdict == .informational }
                let frames = info.filter { $0.metric.hasPrefix("frame-time") }.count, k = info.count - frames
                table += "<details><summary>\(n) unchanged\(m > 0 ? ", \(m) with insufficient data" : "")"
                    + (k > 0 ? ", \(k) cache-miss counts (shown, not judged: estimated cycles carry them)" : "")
                    + (frames > 0 ? ", \(frames) scene frame times (shown, not judged: two runs cannot; the scenes' counts and `ab` can)" : "")
                    + "</summary>\(rest.html)</details>"
            }
        }
        return .make(id: "comparison", title: "Against the baseline", intro: html, charts: charts, gridded: false, outro: table)
    }

    /// Rows as the verdict table: values in their metric's unit, the verdict as a badge.
    static func verdictTable(_ rows: [ComparisonRow]) -> Table {
        var t = Table([.init("benchmark"), .init("metric"), .init("baseline", numeric: true), .init("head", numeric: true),
                       .init("change", numeric: true), .init("95% interval", numeric: true, tooltip: "bootstrap interval of the ratio of medians, minus 1"),
                       .init("noise band", numeric: true, tooltip: "the A/A band the verdict was judged against: a change inside it is never a regression"),
                       .init("p", numeric: true, tooltip: "paired: exact sign test over the rounds; unpaired: two-sided Mann–Whitney U"),
                       .init("verdict")], cls: "data-table verdict-table")
        for r in rows {
            let ci = (r.ciLow != nil && r.ciHigh != nil) ? "\(r.formatChange(r.ciLow)) … \(r.formatChange(r.ciHigh))" : Format.dash
            let band = r.band == nil ? Format.dash : r.formatBand + (r.basis.map { " (\($0)\(r.rounds.map { ", \($0) rounds" } ?? ""))" } ?? "")
            t.add([.text(r.name), .text(r.metric), .text(VerdictStyle.value(r.baseline, metric: r.metric)),
                   .text(VerdictStyle.value(r.head, metric: r.metric)), .text(r.formatChange(r.change), cls: "verdict-text-\(r.verdict.rawValue)"),
                   .text(ci), .text(band), .text(Format.pValue(r.pValue)), .markup(VerdictStyle.badge(r.verdict, label: r.verdictLabel))],
                  cls: "row-\(r.verdict.rawValue)")
        }
        return t
    }
}
