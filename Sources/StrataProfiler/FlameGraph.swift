import Foundation

/// A flame graph: the merged call tree of a profile (root at the bottom, width = samples),
/// drawn as inline SVG with a small inline script: click a frame to zoom into it, "reset zoom"
/// to zoom out, type a regular expression to highlight matching frames and see their share.
/// No network, no external files. Built from a profile or from folded stacks (so a profile
/// written earlier can go into a benchmark report).
public struct FlameGraph {
    /// A folded-stacks line that is not `frame;frame;... COUNT`.
    public struct ParseError: Error, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "folded stacks, line \(line): \(message)" }
    }

    let root: FlameNode

    /// Samples in the graph.
    public var totalSamples: Int { root.count }

    public init(_ profile: StackProfile) {
        root = FlameNode.build(profile)
    }

    /// Reads folded stacks (`root;...;leaf COUNT` per line, flamegraph.pl's input; blank lines
    /// skipped), or a differential file (`root;...;leaf BEFORE AFTER` per line, difffolded.pl's
    /// output, as `FlameGraph.differentialFolded` writes it): then the graph is the after
    /// profile's, each frame coloured by how its share of the samples changed (`isDifferential`).
    ///
    /// - Throws: `ParseError` naming the line of a malformed entry, when the lines mix one and
    ///   two counts, or when there is no sample.
    public init(folded text: String) throws {
        let root = FlameNode("all")
        var columns: Int?
        var lastLine = 0
        try Self.parseFolded(text) { stack, counts, line in
            lastLine = line
            if columns == nil { columns = counts.count }
            guard counts.count == columns else {
                throw ParseError(line: line, message: "\(counts.count) count(s) where the lines before have \(columns!)")
            }
            let after = counts.last!, before = counts.count == 2 ? counts[0] : 0
            root.count += after
            root.baseCount += before
            var node = root
            for name in stack.split(separator: ";", omittingEmptySubsequences: false) {
                node = node.child(name.isEmpty ? "[unknown]" : String(name))
                node.count += after
                node.baseCount += before
            }
        }
        guard root.count > 0 else { throw ParseError(line: lastLine, message: "no samples\(columns == 2 ? " in the after column" : "")") }
        if columns == 2 && root.baseCount == 0 { throw ParseError(line: lastLine, message: "no samples in the before column") }
        self.root = root
        isDifferential = columns == 2
    }

    /// Whether the graph compares two profiles (colours are changes of share, not names).
    public private(set) var isDifferential = false

    /// Calls `line` with each folded line's stack and its counts (one or two, each at least 0
    /// and one of them positive) and its line number.
    static func parseFolded(_ text: String, _ line: (Substring, [Int], Int) throws -> Void) throws {
        var lineNumber = 0
        // "\r\n" is one Character (a newline), so Windows line ends split like "\n".
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            var rest = raw[...]
            if rest.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            var counts: [Int] = []
            // Up to two trailing counts: "stack N" or "stack BEFORE AFTER".
            while counts.count < 2, let space = rest.lastIndex(of: " "), let n = Int(rest[rest.index(after: space)...]), n >= 0 {
                counts.insert(n, at: 0)
                rest = rest[..<space]
            }
            guard !counts.isEmpty else {
                guard let space = rest.lastIndex(of: " ") else {
                    throw ParseError(line: lineNumber, message: "no sample count after the stack")
                }
                throw ParseError(line: lineNumber, message: "'\(rest[rest.index(after: space)...].prefix(40))' is not a positive sample count")
            }
            guard counts.contains(where: { $0 > 0 }) else {
                throw ParseError(line: lineNumber, message: "'\(counts.map(String.init).joined(separator: " "))' is not a positive sample count")
            }
            guard !rest.isEmpty else { throw ParseError(line: lineNumber, message: "empty stack") }
            try line(rest, counts, lineNumber)
        }
    }

    /// difffolded.pl's output for two folded-stacks files: every stack of either, then its
    /// count before and after (0 where a side does not have it), stacks in the after file's
    /// order, then those only before.
    ///
    /// - Throws: `ParseError` for a malformed line of either (`before` or `after` in the
    ///   message), or a file with two counts per line.
    public static func differentialFolded(before: String, after: String) throws -> String {
        func read(_ text: String, _ side: String) throws -> (order: [Substring], counts: [Substring: Int]) {
            var order: [Substring] = [], counts: [Substring: Int] = [:]
            do {
                try parseFolded(text) { stack, c, line in
                    guard c.count == 1 else { throw ParseError(line: line, message: "two counts: already a differential file") }
                    if counts[stack] == nil { order.append(stack) }
                    counts[stack, default: 0] += c[0]
                }
            } catch let e as ParseError {
                throw ParseError(line: e.line, message: "\(side): \(e.message)")
            }
            return (order, counts)
        }
        let b = try read(before, "before"), a = try read(after, "after")
        var out = ""
        for stack in a.order { out += "\(stack) \(b.counts[stack] ?? 0) \(a.counts[stack]!)\n" }
        for stack in b.order where a.counts[stack] == nil { out += "\(stack) \(b.counts[stack]!) 0\n" }
        return out
    }

    /// A frame of a differential graph and how its inclusive share changed.
    public struct Change: Equatable {
        /// The frames from the root to this one, `;`-joined.
        public var stack: String
        /// Its inclusive share of the samples before and after, percent.
        public var beforePercent: Double
        public var afterPercent: Double
        /// After minus before, percentage points.
        public var delta: Double { afterPercent - beforePercent }
    }

    /// The frames whose inclusive share grew most (`growth`) or shrank most, at most `limit`,
    /// largest change first. A frame is listed where its change comes from: when no frame it
    /// calls carries 90% of it (a caller whose callee grew is not listed for that growth).
    public func changes(limit: Int = 10, growth: Bool = true) -> [Change] {
        guard isDifferential else { return [] }
        let after = Double(max(root.count, 1)), before = Double(max(root.baseCount, 1))
        var out: [Change] = []
        func visit(_ n: FlameNode, _ path: String) {
            let c = Change(stack: path, beforePercent: 100 * Double(n.baseCount) / before, afterPercent: 100 * Double(n.count) / after)
            let d = growth ? c.delta : -c.delta
            // Where the change starts: more than the parent's minus its other children can account for.
            if d > 0, n.children.allSatisfy({ child in
                let cd = 100 * Double(child.count) / after - 100 * Double(child.baseCount) / before
                return (growth ? cd : -cd) < d * 0.9
            }) { out.append(c) }
            for child in n.children { visit(child, path + ";" + child.name) }
        }
        for child in root.children { visit(child, child.name) }
        return Array(out.sorted { abs($0.delta) > abs($1.delta) }.prefix(limit))
    }

    /// The graph as an `<svg class="strata-flame">` element. `asChart` also marks it as one of
    /// a report's checked charts (`class="chart"`, `data-chart`, each frame's rect `class="data"`).
    public func svg(title: String, width: Int = 1200, minimumWidth: Double = 0.3, asChart: String? = nil) -> String {
        let tree = root
        let rowHeight = 17
        let depth = tree.maxDepth
        let height = (depth + 1) * rowHeight + 40
        let total = Double(max(tree.count, 1))
        let scale = Double(width - 20) / total
        let rectClass = asChart == nil ? "" : " class=\"data\""
        let baseTotal = Double(max(tree.baseCount, 1))
        let largestChange = isDifferential ? Self.largestChange(tree, total, baseTotal) : 0
        var rects = ""
        // Pre-order ids and each subtree's last id (the script zooms by id range), over the
        // nodes wide enough to draw.
        var next = 0
        func number(_ node: FlameNode) {
            node.id = next
            next += 1
            for child in node.children where Double(child.count) * scale >= minimumWidth { number(child) }
            node.end = next - 1
        }
        number(tree)
        func emit(_ node: FlameNode, x: Double, level: Int) {
            let w = Double(node.count) * scale
            guard w >= minimumWidth else { return }
            let y = height - 30 - (level + 1) * rowHeight
            let pct = 100 * Double(node.count) / total
            let label = node.name
            var tip = "\(label) (\(node.count) samples, \(String(format: "%.2f", pct))%)"
            var fill = Self.colour(label)
            if isDifferential {
                let before = 100 * Double(node.baseCount) / baseTotal
                tip = "\(label) (\(node.count) samples, \(String(format: "%.2f", pct))%; before \(node.baseCount) samples, \(String(format: "%.2f", before))%; \(String(format: "%+.2f", pct - before)) points)"
                fill = Self.changeColour(pct - before, largest: largestChange)
            }
            rects += "<g class=\"f\" data-id=\"\(node.id)\" data-e=\"\(node.end)\" data-x=\"\(Self.fmt(x))\" data-w=\"\(Self.fmt(w))\" data-l=\"\(level)\">"
            rects += "<title>\(Self.escapeXML(tip))</title>"
            rects += "<rect\(rectClass) x=\"\(Self.fmt(10 + x))\" y=\"\(y)\" width=\"\(Self.fmt(max(w - 0.5, 0.1)))\" height=\"\(rowHeight - 1)\" rx=\"2\" fill=\"\(fill)\"/>"
            rects += "<text x=\"\(Self.fmt(13 + x))\" y=\"\(y + rowHeight - 5)\">\(Self.escapeXML(Self.fit(label, width: w)))</text></g>\n"
            var cx = x
            for child in node.children {
                emit(child, x: cx, level: level + 1)
                cx += Double(child.count) * scale
            }
        }
        emit(tree, x: 0, level: 0)
        let chartAttributes = asChart.map { " data-chart=\"\(Self.escapeXML($0))\" role=\"img\" aria-label=\"\(Self.escapeXML(title))\"" } ?? ""
        return """
        <svg class="strata-flame\(asChart == nil ? "" : " chart")"\(chartAttributes) width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="monospace" font-size="11">
        <style>svg.strata-flame text{pointer-events:none;fill:#000}.strata-flame g.f{cursor:pointer}.strata-flame g.f.m rect{fill:#e040fb}.strata-flame g.f.h{display:none}</style>
        <text x="10" y="18" font-size="14">\(Self.escapeXML(title)) — \(tree.count) samples\(isDifferential ? " after, \(tree.baseCount) before; red grew, blue shrank (share of samples)" : "")</text>
        <text class="zoom-reset" x="\(width - 200)" y="18" style="cursor:pointer;fill:#06c;pointer-events:all">reset zoom</text>
        <text class="match" x="\(width - 420)" y="18"></text>
        \(rects)</svg>
        """
    }

    /// The search box the script wires to the graph.
    public static let searchBox = "<label>search (regex) <input class=\"strata-flame-search\" size=\"40\"></label>"

    /// A self-contained page: the flame graph, a search box and its script, and `appendix`
    /// (HTML, such as the hottest lines) below the graph.
    public func html(title: String, appendix: String = "") -> String {
        """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>\(Self.escapeXML(title))</title></head>
        <body style="margin:8px;font-family:sans-serif">
        \(Self.searchBox)
        \(svg(title: title))
        \(appendix)
        <script>\(Self.script)</script>
        </body></html>
        """
    }

    /// Zoom and search for every `.strata-flame` on the page.
    public static let script = """
    (function(){
    document.querySelectorAll('svg.strata-flame').forEach(function(svg){
      var W=+svg.getAttribute('width')-20, gs=[].slice.call(svg.querySelectorAll('g.f'));
      gs.forEach(function(g){g._x=+g.dataset.x;g._w=+g.dataset.w;g._id=+g.dataset.id;g._e=+g.dataset.e;g._l=+g.dataset.l;g._t=g.querySelector('text').textContent;g._n=g.querySelector('title').textContent.replace(/ \\(\\d+ samples.*$/,'');});
      function place(g,x,w){var r=g.querySelector('rect'),t=g.querySelector('text');r.setAttribute('x',10+x);r.setAttribute('width',Math.max(w-0.5,0.1));t.setAttribute('x',13+x);var c=Math.floor((w-6)/6.6);t.textContent=c<3?'':(g._n.length<=c?g._n:g._n.slice(0,c-2)+'..');}
      function zoom(z){gs.forEach(function(g){
        if(!z){g.classList.remove('h');place(g,g._x,g._w);return;}
        var inside=g._id>=z._id&&g._id<=z._e, ancestor=g._id<z._id&&g._e>=z._e;
        if(inside){var k=W/z._w;g.classList.remove('h');place(g,(g._x-z._x)*k,g._w*k);}
        else if(ancestor){g.classList.remove('h');place(g,0,W);}
        else g.classList.add('h');});}
      gs.forEach(function(g){g.addEventListener('click',function(){zoom(g);});});
      svg.querySelector('.zoom-reset').addEventListener('click',function(){zoom(null);});
      var input=(svg.closest('body')||document).querySelector('.strata-flame-search');
      if(input)input.addEventListener('input',function(){
        var re=null;try{re=input.value?new RegExp(input.value):null;}catch(e){}
        var total=gs.length?gs[0]._w:1, covered=0, end=-1;
        gs.forEach(function(g){var m=!!re&&re.test(g._n);g.classList.toggle('m',m);if(m&&g._id>end){covered+=g._w;end=g._e;}});
        svg.querySelector('.match').textContent=re?('matched '+(100*covered/total).toFixed(1)+'%'):'';
      });
    });})();
    """

    static func fmt(_ x: Double) -> String { String(format: "%.2f", x) }

    static func fit(_ s: String, width: Double) -> String {
        let chars = Int((width - 6) / 6.6)
        if chars < 3 { return "" }
        return s.count <= chars ? s : String(s.prefix(chars - 2)) + ".."
    }

    static func escapeXML(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    /// The largest change of share (points) of any frame below the root.
    static func largestChange(_ root: FlameNode, _ after: Double, _ before: Double) -> Double {
        var largest = 0.0
        func visit(_ n: FlameNode) {
            largest = max(largest, abs(100 * Double(n.count) / after - 100 * Double(n.baseCount) / before))
            n.children.forEach(visit)
        }
        root.children.forEach(visit)
        return largest
    }

    /// A differential frame's colour: red for a share that grew, blue for one that shrank,
    /// white for none, saturated at the largest change of the graph (difffolded's scheme).
    static func changeColour(_ delta: Double, largest: Double) -> String {
        let k = largest > 0 ? min(abs(delta) / largest, 1) : 0
        let fade = Int((255 * (1 - k)).rounded())
        return delta >= 0 ? "rgb(255,\(fade),\(fade))" : "rgb(\(fade),\(fade),255)"
    }

    /// Warm colours, stable per name.
    static func colour(_ name: String) -> String {
        var h: UInt32 = 2166136261
        for b in name.utf8 { h = (h ^ UInt32(b)) &* 16777619 }
        let r = 205 + Int(h % 50), g = 80 + Int((h >> 8) % 130), b = 30 + Int((h >> 16) % 40)
        return "rgb(\(r),\(g),\(b))"
    }
}

/// The merged call tree a flame graph draws: children in first-seen order.
final class FlameNode {
    let name: String
    var count = 0
    /// A differential graph's count before (`count` is after).
    var baseCount = 0
    var id = 0
    var end = 0
    var children: [FlameNode] = []
    private var index: [String: Int] = [:]

    init(_ name: String) { self.name = name }

    func child(_ name: String) -> FlameNode {
        if let i = index[name] { return children[i] }
        let c = FlameNode(name)
        index[name] = children.count
        children.append(c)
        return c
    }

    var maxDepth: Int { 1 + (children.map(\.maxDepth).max() ?? 0) - (children.isEmpty ? 1 : 0) }

    static func build(_ p: StackProfile) -> FlameNode {
        let root = FlameNode("all")
        for s in p.stacks {
            root.count += s.samples
            var node = root
            for f in s.frames {
                node = node.child(p.frames[f].name)
                node.count += s.samples
            }
        }
        return root
    }
}

extension StackProfile {
    /// This profile's flame graph as inline SVG (see `FlameGraph`).
    public func flameGraphSVG(title: String, width: Int = 1200, minimumWidth: Double = 0.3) -> String {
        FlameGraph(self).svg(title: title, width: width, minimumWidth: minimumWidth)
    }

    /// A page of its own: the flame graph, its search box and script, and the hottest
    /// source lines once `attachSourceLines()` ran.
    public func flameGraphHTML(title: String) -> String {
        FlameGraph(self).html(title: title, appendix: leafLocations.contains { $0 != nil } ? hottestLinesHTML() : "")
    }
}
