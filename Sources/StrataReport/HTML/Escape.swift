/// Escaping for text that goes into the report: one function serves HTML and the inline SVG
/// (the SVG must also parse as XML, so only the five XML entities are ever written).
enum Escape {
    /// Text content and attribute values: `&`, `<`, `>`, `"` and `'` as entities; control
    /// characters other than tab and newline (not allowed in XML) dropped.
    static func text(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    continue
                }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A fragment identifier made of `[a-z0-9-]` only (for ids and anchors).
    static func id(_ s: String) -> String {
        var out = ""
        var lastDash = false
        for c in s.lowercased().unicodeScalars {
            if ("a"..."z").contains(c) || ("0"..."9").contains(c) {
                out.unicodeScalars.append(c)
                lastDash = false
            } else if !lastDash && !out.isEmpty {
                out += "-"
                lastDash = true
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "x" : out
    }

    /// Script source safe inside `<script>`: no `</` can end the element early.
    static func scriptBody(_ source: String) -> String {
        source.replacingOccurrences(of: "</", with: "<\\/")
    }

    /// JSON for a `<script type="application/json">` block: `<`, `>` and `&` as `\u` escapes so
    /// neither `</script>` nor `<!--` can end the block early.
    static func jsonInScript(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for c in json.unicodeScalars {
            switch c {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
