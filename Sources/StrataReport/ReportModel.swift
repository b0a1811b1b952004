import StrataReportModel

extension BenchmarkSummary {
    /// `n` as a number (every sized benchmark has one).
    var n: Double? { parameters["n"].flatMap(Double.init).flatMap { $0.isFinite && $0 > 0 ? $0 : nil } }

    /// Ran, and has a usable median.
    var usable: Bool { error == nil && medianNsPerItem.isFinite && medianNsPerItem > 0 }

    /// Median, min and max per item as a sentence for a tooltip.
    var spread: String {
        "median \(Format.ns(medianNsPerItem)) per \(item) (min \(Format.ns(minNsPerItem)), max \(Format.ns(maxNsPerItem)), \(samplesNsPerItem.count) repetition\(samplesNsPerItem.count == 1 ? "" : "s"))"
    }
}

enum Order {
    /// The distinct values, those in `preferred` first in its order, the rest in first-seen order.
    static func distinct(_ values: [String], preferred: [String] = []) -> [String] {
        var seen = Set<String>(), out: [String] = []
        for v in values where !seen.contains(v) { seen.insert(v); out.append(v) }
        return out.sorted { a, b in
            let ia = preferred.firstIndex(of: a) ?? Int.max, ib = preferred.firstIndex(of: b) ?? Int.max
            if ia != ib { return ia < ib }
            return out.firstIndex(of: a)! < out.firstIndex(of: b)!
        }
    }
}

/// A section of the page: an anchor, a heading, its markup, and how many charts it drew.
struct Section {
    var id: String
    var title: String
    var html: String
    var charts: [Chart] = []

    /// The section with its charts placed after `intro` and before `outro`.
    static func make(id: String, title: String, intro: String = "", charts: [Chart], gridded: Bool = true, outro: String = "") -> Section {
        var html = intro
        if !charts.isEmpty {
            html += "<div class=\"\(gridded ? "chart-grid" : "chart-stack")\">" + charts.map(\.html).joined() + "</div>"
        }
        html += outro
        return Section(id: id, title: title, html: html, charts: charts)
    }

    var rendered: String {
        "<section id=\"\(Escape.text(id))\"><h2><a class=\"anchor\" href=\"#\(Escape.text(id))\">\(Escape.text(title))</a></h2>\(html)</section>"
    }
}

/// A paragraph of escaped text.
func paragraph(_ text: String, cls: String = "note") -> String {
    "<p class=\"\(cls)\">\(Escape.text(text))</p>"
}
