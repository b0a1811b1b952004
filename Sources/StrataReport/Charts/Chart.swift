/// One chart as the page shows it: a figure with a caption, the inline SVG, and optionally
/// the numbers behind it in a collapsed table.
struct Chart {
    /// Unique within the page: the figure's anchor and the SVG's `data-chart`.
    var id: String
    var title: String
    /// What the chart shows, in a sentence (also the SVG's description).
    var caption: String
    var svg: String
    var data: Table?
    /// Spans the full width of a chart grid (wide charts: bars by row, timelines).
    var wide = false

    /// The `<figure>` markup.
    var html: String {
        var out = "<figure class=\"chart-figure\(wide ? " wide" : "")\" id=\"\(Escape.text(id))\">"
        out += "<figcaption><a class=\"anchor\" href=\"#\(Escape.text(id))\">\(Escape.text(title))</a>"
        out += "<span class=\"caption\">\(Escape.text(caption))</span></figcaption>"
        out += svg
        if let data, !data.rows.isEmpty {
            out += "<details class=\"chart-data\"><summary>Data</summary>\(data.html)</details>"
        }
        return out + "</figure>"
    }
}
