import Foundation

/// Hand-written SVG elements. Every coordinate goes through `n` (finite, two decimals) and
/// every piece of text through `Escape.text`, so the output is well-formed XML and never
/// carries `NaN` or `inf`. The root has no `xmlns`: inline SVG in HTML does not need one, and
/// the report holds no URL at all.
enum SVG {
    /// A coordinate: two decimals, trailing zeros dropped; non-finite values become 0 (callers
    /// drop non-finite data before it gets here; this is the last guard).
    static func n(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        let r = (x * 100).rounded() / 100
        if r == r.rounded() && abs(r) < 1e15 { return String(Int(r)) }
        var s = String(format: "%.2f", r)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    /// ` name="value"` for each pair whose value is non-nil (values escaped).
    static func attributes(_ pairs: [(String, String?)]) -> String {
        var out = ""
        for (k, v) in pairs {
            guard let v else { continue }
            out += " \(k)=\"\(Escape.text(v))\""
        }
        return out
    }

    static func element(_ name: String, _ pairs: [(String, String?)], content: String? = nil) -> String {
        guard let content, !content.isEmpty else { return "<\(name)\(attributes(pairs))/>" }
        return "<\(name)\(attributes(pairs))>\(content)</\(name)>"
    }

    /// A tooltip: an SVG `<title>` child.
    static func title(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return "<title>\(Escape.text(text))</title>"
    }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, cls: String? = nil,
                     stroke: String? = nil, dash: String? = nil, width: Double? = nil, tooltip: String? = nil) -> String {
        element("line", [("x1", n(x1)), ("y1", n(y1)), ("x2", n(x2)), ("y2", n(y2)), ("class", cls), ("stroke", stroke),
                         ("stroke-dasharray", dash), ("stroke-width", width.map(n))], content: title(tooltip))
    }

    static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, cls: String? = nil, fill: String? = nil,
                     stroke: String? = nil, opacity: Double? = nil, rx: Double? = nil, tooltip: String? = nil) -> String {
        element("rect", [("x", n(x)), ("y", n(y)), ("width", n(max(0, w))), ("height", n(max(0, h))), ("rx", rx.map(n)),
                         ("class", cls), ("fill", fill), ("stroke", stroke), ("fill-opacity", opacity.map(n))],
                content: title(tooltip))
    }

    static func path(_ d: String, cls: String? = nil, stroke: String? = nil, fill: String? = "none", dash: String? = nil,
                     width: Double? = nil, tooltip: String? = nil) -> String {
        element("path", [("d", d), ("class", cls), ("stroke", stroke), ("fill", fill), ("stroke-dasharray", dash),
                         ("stroke-width", width.map(n))], content: title(tooltip))
    }

    static func circle(_ cx: Double, _ cy: Double, _ r: Double, cls: String? = nil, fill: String? = nil,
                       stroke: String? = nil, tooltip: String? = nil) -> String {
        element("circle", [("cx", n(cx)), ("cy", n(cy)), ("r", n(r)), ("class", cls), ("fill", fill), ("stroke", stroke)],
                content: title(tooltip))
    }

    enum Anchor: String { case start, middle, end }

    static func text(_ x: Double, _ y: Double, _ s: String, cls: String? = nil, anchor: Anchor = .start,
                     rotate: Double? = nil, fill: String? = nil, tooltip: String? = nil) -> String {
        let transform = rotate.map { "rotate(\(n($0)) \(n(x)) \(n(y)))" }
        let body = Escape.text(s) + (title(tooltip) ?? "")
        return "<text\(attributes([("x", n(x)), ("y", n(y)), ("class", cls), ("text-anchor", anchor == .start ? nil : anchor.rawValue), ("transform", transform), ("fill", fill)]))>\(body)</text>"
    }

    static func group(_ content: String, cls: String? = nil, tooltip: String? = nil, transform: String? = nil) -> String {
        "<g\(attributes([("class", cls), ("transform", transform)]))>\(title(tooltip) ?? "")\(content)</g>"
    }

    /// The root element of one chart: scales with its container (viewBox, width 100%), labelled
    /// for assistive technology by its title and description.
    static func document(id: String, width: Double, height: Double, title: String, description: String, content: String) -> String {
        let tid = "\(id)-t", did = "\(id)-d"
        return "<svg\(attributes([("class", "chart"), ("id", id + "-svg"), ("viewBox", "0 0 \(n(width)) \(n(height))"), ("role", "img"), ("aria-labelledby", "\(tid) \(did)"), ("data-chart", id)]))>"
            + "<title id=\"\(tid)\">\(Escape.text(title))</title><desc id=\"\(did)\">\(Escape.text(description))</desc>"
            + content + "</svg>"
    }
}

/// Path data (`d`) built command by command; non-finite points break the line instead of
/// being written.
struct PathData {
    private(set) var commands: [String] = []
    private var penDown = false

    var d: String { commands.joined(separator: " ") }
    var isEmpty: Bool { commands.isEmpty }

    mutating func move(_ x: Double, _ y: Double) {
        guard x.isFinite, y.isFinite else { penDown = false; return }
        commands.append("M\(SVG.n(x)) \(SVG.n(y))")
        penDown = true
    }

    mutating func line(_ x: Double, _ y: Double) {
        guard x.isFinite, y.isFinite else { penDown = false; return }
        if penDown { commands.append("L\(SVG.n(x)) \(SVG.n(y))") } else { move(x, y) }
    }

    mutating func close() {
        if penDown { commands.append("Z") }
        penDown = false
    }

    /// A polyline through `points`, broken at non-finite ones.
    static func polyline(_ points: [(Double, Double)]) -> PathData {
        var p = PathData()
        for (i, (x, y)) in points.enumerated() {
            if i == 0 { p.move(x, y) } else { p.line(x, y) }
        }
        return p
    }

    /// A step line (a CDF): horizontal then vertical between consecutive points.
    static func steps(_ points: [(Double, Double)]) -> PathData {
        var p = PathData()
        var last: (Double, Double)?
        for (x, y) in points where x.isFinite && y.isFinite {
            if let l = last { p.line(x, l.1); p.line(x, y) } else { p.move(x, y) }
            last = (x, y)
        }
        return p
    }
}
