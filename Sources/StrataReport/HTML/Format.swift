import Foundation

/// Numbers as the report prints them: times with a unit chosen by size (ns, µs, ms, s) to
/// three significant digits, counts with separators, changes as signed percentages. A
/// non-finite value prints as an en dash, never as `nan` or `inf`.
enum Format {
    static let dash = "–"

    /// `x` to `digits` significant digits in fixed notation (no exponent), trailing zeros kept.
    static func significant(_ x: Double, _ digits: Int = 3) -> String {
        guard x.isFinite else { return dash }
        if x == 0 { return "0" }
        let magnitude = Int(floor(log10(abs(x))))
        let decimals = min(max(0, digits - 1 - magnitude), 9)
        let rounded = String(format: "%.\(decimals)f", x)
        return decimals == 0 ? grouped(rounded) : rounded
    }

    /// Like `significant`, with trailing zeros after the point removed (axis ticks: `0.1`, `10`).
    static func compact(_ x: Double, _ digits: Int = 3) -> String {
        var s = significant(x, digits)
        guard s.contains("."), !s.contains("e") else { return s }
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// Thousands separators on the integer part of a plain decimal string.
    static func grouped(_ s: String) -> String {
        var sign = ""
        var body = Substring(s)
        if body.hasPrefix("-") { sign = "-"; body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = Array(parts[0])
        guard integer.count > 3 else { return s }
        var out = ""
        for (i, c) in integer.enumerated() {
            if i > 0 && (integer.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return sign + out + (parts.count > 1 ? "." + parts[1] : "")
    }

    /// A duration given in nanoseconds: `0.395 ns`, `903 ns`, `1.76 µs`, `17.6 ms`, `2.03 s`.
    static func ns(_ x: Double?, compactZeros: Bool = false) -> String {
        guard let x, x.isFinite else { return dash }
        let a = abs(x)
        let (value, unit): (Double, String) =
            a < 1e3 ? (x, "ns") : a < 1e6 ? (x / 1e3, "µs") : a < 1e9 ? (x / 1e6, "ms") : (x / 1e9, "s")
        return (compactZeros ? compact(value) : significant(value)) + " " + unit
    }

    /// A duration given in milliseconds (frame times): always in ms, three significant digits.
    static func ms(_ x: Double?, compactZeros: Bool = false) -> String {
        guard let x, x.isFinite else { return dash }
        return (compactZeros ? compact(x) : significant(x)) + " ms"
    }

    /// A count: `950`, `12,345`, `1.5e6` is `1,500,000`.
    static func integer(_ x: Double?) -> String {
        guard let x, x.isFinite else { return dash }
        return grouped(String(format: "%.0f", x.rounded()))
    }

    static func integer(_ x: Int) -> String { grouped(String(x)) }

    /// N on an axis: `100`, `1k`, `10k`, `1M`, `2.5M`.
    static func short(_ x: Double) -> String {
        guard x.isFinite else { return dash }
        let a = abs(x)
        if a >= 1e9 { return compact(x / 1e9) + "G" }
        if a >= 1e6 { return compact(x / 1e6) + "M" }
        if a >= 1e3 { return compact(x / 1e3) + "k" }
        return compact(x)
    }

    /// A per-item count (instructions, mallocs): up to three decimals, separators.
    static func perItem(_ x: Double?) -> String {
        guard let x, x.isFinite else { return dash }
        if x == 0 { return "0" }
        if abs(x) >= 1000 { return integer(x) }
        return compact(x, 4)
    }

    /// A relative change: `+5.2%`, `-0.8%`, `+120%`.
    static func change(_ x: Double?) -> String {
        guard let x, x.isFinite else { return dash }
        let p = 100 * x
        let body = abs(p) >= 100 ? String(format: "%.0f", abs(p)) : abs(p) >= 1 ? String(format: "%.1f", abs(p)) : String(format: "%.2f", abs(p))
        return (p < 0 ? "−" : "+") + grouped(body) + "%"
    }

    /// A change on an axis: `0%`, `+10%`, `−2.5%`.
    static func changeTick(_ x: Double) -> String {
        guard x.isFinite else { return dash }
        let p = 100 * x
        if abs(p) < 1e-9 { return "0%" }
        return (p < 0 ? "−" : "+") + compact(abs(p)) + "%"
    }

    /// A fraction as a percentage: `99.5%`, `100%`.
    static func percent(_ x: Double?) -> String {
        guard let x, x.isFinite else { return dash }
        let p = 100 * x
        if p == p.rounded() { return String(format: "%.0f%%", p) }
        return (p >= 99.95 && p < 100 ? String(format: "%.2f", p) : String(format: "%.1f", p)) + "%"
    }

    /// A ratio: `1,841×`, `5.73×`, `0.691×`.
    static func ratio(_ x: Double?) -> String {
        guard let x, x.isFinite else { return dash }
        return significant(x) + "×"
    }

    /// A p-value: `0.0123`, `< 0.0001`.
    static func pValue(_ x: Double?) -> String {
        guard let x, x.isFinite else { return dash }
        return x < 1e-4 ? "< 0.0001" : compact(x, 2)
    }

    /// Bytes with binary prefixes: `23.5 GiB`.
    static func bytes(_ x: Double) -> String {
        guard x.isFinite else { return dash }
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var v = x, i = 0
        while abs(v) >= 1024 && i < units.count - 1 { v /= 1024; i += 1 }
        return (i == 0 ? String(format: "%.0f", v) : compact(v)) + " " + units[i]
    }
}
