import StrataReportModel

/// The top of the page: title, what ran where, the headline figures as cards, warnings, and
/// the table of contents.
enum HeaderSection {
    struct Card {
        var label: String
        var value: String
        var detail: String
        var href: String
        var cls: String?

        var html: String {
            "<a class=\"card\(cls.map { " " + $0 } ?? "")\" href=\"#\(Escape.text(href))\"><span class=\"card-label\">\(Escape.text(label))</span><span class=\"card-value\">\(Escape.text(value))</span><span class=\"card-detail\">\(Escape.text(detail))</span></a>"
        }
    }

    static func render(_ block: StrataBlock, comparison: Comparison?, sections: [Section], absent: [String]) -> String {
        let m = block.machine
        var html = "<header class=\"page-header\"><h1>Strata benchmark report</h1>"
        let facts = [block.createdAt, "commit \(String(m.gitCommit.prefix(10)))\(m.gitDirty ? " (dirty)" : "")",
                     "\(m.cpuModel), \(m.cores) cores", m.buildConfiguration + " · " + m.buildFlags,
                     block.options.quick ? "quick run" : "\(block.options.repetitions) repetitions",
                     "suites: " + (block.options.suites.isEmpty ? "none" : block.options.suites.joined(separator: ", "))]
        html += "<p class=\"meta\">" + facts.map { "<span>\(Escape.text($0))</span>" }.joined(separator: "") + "</p>"
        let cards = headlineCards(block, comparison: comparison)
        if !cards.isEmpty { html += "<div class=\"cards\">" + cards.map(\.html).joined() + "</div>" }
        if !block.warnings.isEmpty {
            html += "<div class=\"callout warn\" id=\"warnings\"><strong>Warnings</strong><ul>"
                + block.warnings.map { "<li>\(Escape.text($0))</li>" }.joined() + "</ul></div>"
        }
        let failed = block.benchmarks.filter { $0.error != nil }
        if !failed.isEmpty {
            html += "<div class=\"callout bad\"><strong>\(failed.count) benchmark\(failed.count == 1 ? "" : "s") did not run</strong><ul>"
                + failed.prefix(20).map { "<li>\(Escape.text($0.name)): \(Escape.text($0.error ?? ""))</li>" }.joined() + "</ul></div>"
        }
        html += "<nav class=\"toc\" aria-label=\"Sections\">" + sections.map {
            "<a href=\"#\(Escape.text($0.id))\">\(Escape.text($0.title))</a>"
        }.joined() + "</nav>"
        if !absent.isEmpty {
            html += paragraph("Not in this run: \(absent.joined(separator: ", ")).", cls: "note absent")
        }
        return html + "</header>"
    }

    static func headlineCards(_ block: StrataBlock, comparison: Comparison?) -> [Card] {
        var cards: [Card] = []
        if let c = comparison {
            let regressions = c.rows.filter { $0.verdict == .regression }.count
            let improvements = c.rows.filter { $0.verdict == .improvement }.count
            let failed = c.rows.filter { $0.verdict == .failed }.count
            let unchanged = c.rows.filter { $0.verdict == .unchanged }.count
            // Only verdicts the evidence stands behind are counted; the rest are named as such.
            let undecided = c.rows.filter { $0.verdict == .inconclusive }.count
            let unpaired = c.rows.contains { $0.basis == "unpaired" && $0.verdict == .inconclusive }
            // A comparison that judged nothing says so: "no regressions" would claim a pass.
            let compared = c.coverage(gate: .all).compared
            let counts = c.coverage(gate: .counts)
            let oneSided = (counts.missingFromHead.isEmpty ? "" : " · \(counts.missingFromHead.count) counted only in the baseline")
                + (counts.missingFromBaseline.isEmpty ? "" : " · \(counts.missingFromBaseline.count) counted only in this run")
            cards.append(Card(label: c.rows.contains { $0.basis == "paired" } ? "against the base (paired rounds)" : "against the baseline",
                              value: compared == 0 ? "nothing compared" : regressions == 0 ? "no regressions" : "\(regressions) regression\(regressions == 1 ? "" : "s")",
                              detail: "\(improvements) improvement\(improvements == 1 ? "" : "s") · \(unchanged) unchanged" + (failed > 0 ? " · \(failed) failed" : "")
                                  + (undecided > 0 ? " · \(undecided) inconclusive\(unpaired ? " (unpaired times: not counted)" : "")" : "")
                                  + oneSided
                                  + (c.sameMachine ? "" : " · different machine: times not judged"),
                              href: "comparison", cls: regressions + failed > 0 || compared == 0 ? "bad" : improvements > 0 ? "good" : nil))
        }
        let frames = block.benchmarks.filter { $0.suite == "frame" && ($0.parameters["engine"] ?? "strata") == "strata" && $0.usable && $0.n != nil }
        if !frames.isEmpty {
            let preferred = frames.filter { $0.parameters["width"] == "opacity" && $0.parameters["timing"] == "shared" && $0.parameters["kind"] == "basic" }
            let pool = preferred.isEmpty ? frames : preferred
            let pick = pool.first { $0.n == 100_000 } ?? pool.max { $0.n! < $1.n! }!
            var detail = ["N = \(Format.integer(pick.n))"]
            if let s = pick.speedupOverReference { detail.append("\(Format.ratio(s)) faster than reference") }
            if let f = pick.ratioToFloor { detail.append("\(Format.ratio(f)) the floor") }
            cards.append(Card(label: "frame · \(FrameSection.label(pick))", value: Format.ns(pick.medianNsPerItem) + " / animation",
                              detail: detail.joined(separator: " · "), href: "frame"))
        }
        for scene in block.scenes.prefix(3) {
            cards.append(Card(label: "scene \(scene.name) · p99", value: Format.ms(scene.p99),
                              detail: "p50 \(Format.ms(scene.p50)) · \(Format.percent(scene.withinBudget8)) ≤ 8.33 ms · \(scene.droppedFrames) dropped",
                              href: "scene-\(Escape.id(scene.name))",
                              cls: scene.p99 > FrameBudget.hz60 || scene.droppedFrames > 0 ? "bad" : scene.p99 > FrameBudget.hz120 ? "warn" : "good"))
        }
        let commits = block.benchmarks.filter { $0.suite == "commit" && $0.usable }
        if let pick = commits.first(where: { $0.parameters["variant"] == "implicit" && $0.n == 1_000 }) ?? commits.first {
            cards.append(Card(label: "commit · \(pick.parameters["variant"] ?? pick.name)", value: Format.ns(pick.medianNsPerItem) + " / change",
                              detail: "N = \(Format.integer(pick.n)) layers", href: "commit"))
        }
        let lookups = block.benchmarks.filter { $0.suite == "lookup" && $0.usable && $0.ratioToChain != nil && $0.parameters["strategy"] != "chain" }
        if let pick = lookups.first(where: { $0.parameters["outcome"] == "built-in" && $0.parameters["strategy"] == "interned" }) ?? lookups.first {
            cards.append(Card(label: "lookup · \(pick.parameters["outcome"] ?? "") · \(pick.parameters["strategy"] ?? "")",
                              value: Format.ns(pick.medianNsPerItem) + " / lookup",
                              detail: "\(Format.ratio(1 / pick.ratioToChain!)) faster than the chain", href: "lookup"))
        }
        let trees = block.growth.filter { $0.suite == "tree" }
        if !trees.isEmpty {
            let flagged = trees.filter(\.superLinear).count
            cards.append(Card(label: "tree scaling", value: flagged == 0 ? "all ≤ linear" : "\(flagged) super-linear",
                              detail: "\(trees.count) fitted families", href: "tree", cls: flagged > 0 ? "bad" : "good"))
        }
        if let c = block.counts.first(where: { $0.instructionsPerItem != nil }) {
            cards.append(Card(label: "instructions per \(c.item) · \(c.name)", value: Format.perItem(c.instructionsPerItem),
                              detail: "\(Format.perItem(c.mallocsPerItem)) mallocs per \(c.item) (callgrind, exact)", href: "counts"))
        }
        return cards
    }
}
