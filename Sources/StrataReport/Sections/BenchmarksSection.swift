import StrataReportModel

/// Every benchmark's figures and every growth fit, in collapsed tables.
enum BenchmarksSection {
    static func render(_ block: StrataBlock) -> Section? {
        guard !block.benchmarks.isEmpty || !block.growth.isEmpty else { return nil }
        var html = ""
        if !block.benchmarks.isEmpty {
            var t = Table([.init("benchmark"), .init("item"), .init("median", numeric: true), .init("min", numeric: true),
                           .init("max", numeric: true), .init("reps", numeric: true), .init("vs baseline", numeric: true, tooltip: "× floor, speed-up over the reference, × chain, or × the benchmark it is measured against"),
                           .init("error")])
            for b in block.benchmarks {
                var ratios: [String] = []
                if let r = b.ratioToFloor { ratios.append("\(Format.ratio(r)) floor") }
                if let r = b.speedupOverReference { ratios.append("\(Format.ratio(r)) faster than reference") }
                if let r = b.ratioToChain { ratios.append("\(Format.ratio(r)) chain") }
                if let r = b.ratioToRelative { ratios.append("\(Format.ratio(r)) \(b.parameters["relativeTo"] ?? "")") }
                t.add([.text(b.name), .text(b.item), .text(Format.ns(b.medianNsPerItem)), .text(Format.ns(b.minNsPerItem)),
                       .text(Format.ns(b.maxNsPerItem)), .text("\(b.samplesNsPerItem.count)"), .text(ratios.joined(separator: "; ")),
                       .text(b.error ?? "", cls: b.error == nil ? nil : "bad-text")], cls: b.error == nil ? nil : "row-failed")
            }
            html += "<details><summary>All \(block.benchmarks.count) benchmarks</summary>\(t.html)</details>"
        }
        if !block.growth.isEmpty {
            var g = Table([.init("family"), .init("suite"), .init("sizes", numeric: true), .init("exponent", numeric: true), .init("growth")])
            for f in block.growth {
                g.add([.text(f.family), .text(f.suite), .text("\(f.points.count)"), .text(String(format: "%.3f", f.exponent.isFinite ? f.exponent : 0)),
                       f.superLinear ? .markup("<span class=\"badge verdict-regression\">super-linear</span>") : .text("≤ linear + \(Format.compact(GrowthFit.superLinearMargin))")],
                      cls: f.superLinear ? "flagged-row" : nil)
            }
            let flagged = block.growth.filter(\.superLinear).count
            html += "<details\(flagged > 0 ? " open" : "")><summary>Growth fits (\(block.growth.count)\(flagged > 0 ? ", \(flagged) super-linear" : ""))</summary>\(g.html)</details>"
        }
        return Section(id: "benchmarks", title: "All figures", html: html)
    }
}
