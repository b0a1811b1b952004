/// An HTML table: header labels, rows of cells (text escaped unless given as markup).
struct Table {
    struct Column {
        var label: String
        var numeric = false
        var tooltip: String?

        init(_ label: String, numeric: Bool = false, tooltip: String? = nil) {
            self.label = label
            self.numeric = numeric
            self.tooltip = tooltip
        }
    }

    struct Cell {
        /// Markup (already escaped).
        var html: String
        var cls: String?
        var tooltip: String?

        static func text(_ s: String, cls: String? = nil, tooltip: String? = nil) -> Cell {
            Cell(html: Escape.text(s), cls: cls, tooltip: tooltip)
        }

        static func markup(_ html: String, cls: String? = nil, tooltip: String? = nil) -> Cell {
            Cell(html: html, cls: cls, tooltip: tooltip)
        }
    }

    var columns: [Column]
    var rows: [[Cell]] = []
    var cls = "data-table"
    /// Classes per row (e.g. a verdict), parallel to `rows` when set.
    var rowClasses: [String?] = []

    init(_ columns: [Column], cls: String = "data-table") {
        self.columns = columns
        self.cls = cls
    }

    mutating func add(_ cells: [Cell], cls: String? = nil) {
        rows.append(cells)
        rowClasses.append(cls)
    }

    mutating func add(text cells: [String], cls: String? = nil) {
        add(cells.map { Cell.text($0) }, cls: cls)
    }

    var html: String {
        var out = "<div class=\"table-wrap\"><table class=\"\(Escape.text(cls))\"><thead><tr>"
        for c in columns {
            let attrs = SVG.attributes([("class", c.numeric ? "num" : nil), ("title", c.tooltip), ("scope", "col")])
            out += "<th\(attrs)>\(Escape.text(c.label))</th>"
        }
        out += "</tr></thead><tbody>"
        for (i, row) in rows.enumerated() {
            let rc = i < rowClasses.count ? rowClasses[i] : nil
            out += "<tr\(SVG.attributes([("class", rc)]))>"
            for (j, cell) in row.enumerated() {
                let numeric = j < columns.count && columns[j].numeric
                let cls = [numeric ? "num" : nil, cell.cls].compactMap { $0 }.joined(separator: " ")
                out += "<td\(SVG.attributes([("class", cls.isEmpty ? nil : cls), ("title", cell.tooltip)]))>\(cell.html)</td>"
            }
            out += "</tr>"
        }
        return out + "</tbody></table></div>"
    }
}
