import StrataReportModel

/// A flame graph for the report: the profiler draws it (`FlameGraph.svg(asChart:)`), the
/// report places it, and lets exactly its zoom-and-search script run (a CSP nonce).
public struct ReportFlameGraph {
    /// The `<svg class="strata-flame chart" data-chart=...>` element.
    public var svg: String
    /// The chart id the SVG carries in `data-chart`.
    public var chartID: String
    /// The search box markup the script looks for.
    public var searchBox: String
    /// The script that zooms and searches (runs under the page's nonce).
    public var script: String
    /// Where the profile came from (a file, a command), in words.
    public var source: String
    public var samples: Int

    public init(svg: String, chartID: String, searchBox: String, script: String, source: String, samples: Int) {
        self.svg = svg
        self.chartID = chartID
        self.searchBox = searchBox
        self.script = script
        self.source = source
        self.samples = samples
    }
}

/// The profile section: a flame graph of where the time went.
enum ProfileSection {
    static func render(_ flame: ReportFlameGraph?) -> Section? {
        guard let flame else { return nil }
        let chart = Chart(id: flame.chartID, title: "Flame graph",
                          caption: "\(flame.samples) samples from \(flame.source). Width is the share of samples, the root at the bottom; click a frame to zoom, type a regular expression to highlight frames.",
                          svg: flame.searchBox + flame.svg, data: nil, wide: true)
        return Section.make(id: "profile", title: "Profile", charts: [chart])
    }
}
