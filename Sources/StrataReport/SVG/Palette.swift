/// Series colours and line styles. The colours are Okabe and Ito's set, distinguishable with
/// the common colour-vision deficiencies; every series also differs by marker or dash, so
/// nothing depends on colour alone.
enum Palette {
    static let blue = "#0072B2"
    static let orange = "#E69F00"
    static let green = "#009E73"
    static let vermillion = "#D55E00"
    static let purple = "#CC79A7"
    static let sky = "#56B4E9"
    static let olive = "#8A7A00"
    static let indigo = "#332288"

    static let series = [blue, orange, green, vermillion, purple, sky, olive, indigo]

    static func colour(_ i: Int) -> String { series[((i % series.count) + series.count) % series.count] }
}

/// A line's dash pattern.
enum Dash: String {
    case solid, dashed, dotted

    var pattern: String? {
        switch self {
        case .solid: return nil
        case .dashed: return "6 3"
        case .dotted: return "1.5 3"
        }
    }
}

/// A point's marker shape.
enum Marker: CaseIterable {
    case circle, square, triangle, diamond, none

    static func at(_ i: Int) -> Marker { [.circle, .square, .triangle, .diamond][((i % 4) + 4) % 4] }

    /// The marker at (x, y); hollow markers are filled with the background.
    func svg(_ x: Double, _ y: Double, colour: String, hollow: Bool = false, size: Double = 3.2, tooltip: String? = nil) -> String {
        let fill = hollow ? nil : colour
        let cls = hollow ? "marker hollow" : "marker"
        switch self {
        case .none: return ""
        case .circle: return SVG.circle(x, y, size, cls: cls, fill: fill, stroke: colour, tooltip: tooltip)
        case .square: return SVG.rect(x - size, y - size, 2 * size, 2 * size, cls: cls, fill: fill, stroke: colour, tooltip: tooltip)
        case .triangle:
            var p = PathData()
            p.move(x, y - 1.2 * size); p.line(x + 1.1 * size, y + 0.8 * size); p.line(x - 1.1 * size, y + 0.8 * size); p.close()
            return SVG.path(p.d, cls: cls, stroke: colour, fill: fill, tooltip: tooltip)
        case .diamond:
            var p = PathData()
            p.move(x, y - 1.3 * size); p.line(x + 1.3 * size, y); p.line(x, y + 1.3 * size); p.line(x - 1.3 * size, y); p.close()
            return SVG.path(p.d, cls: cls, stroke: colour, fill: fill, tooltip: tooltip)
        }
    }
}
