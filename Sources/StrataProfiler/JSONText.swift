/// Writing JSON text directly: the outputs are large arrays of numbers and a few strings,
/// faster and in a fixed key order this way than through JSONSerialization.
enum JSONText {
    /// `s` as a JSON string literal, quotes included.
    static func quoted(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
        return out
    }

    /// Nanoseconds as microseconds with three exact decimals ("1234.567"): no floating-point
    /// rounding, so a child event computed from the same clock readings as its parent never
    /// pokes out of it.
    static func microseconds(_ ns: UInt64) -> String {
        let frac = ns % 1000
        let f = String(frac)
        return "\(ns / 1000)." + String(repeating: "0", count: 3 - f.count) + f
    }
}
