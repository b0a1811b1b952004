/// JSON with positions: every value keeps the byte offset where it starts, so a reader of a
/// file (scene files) can name the line and column of a problem, not only its field.
/// Foundation's parsers give no positions for values, only for syntax errors.
///
/// The grammar is RFC 8259's, strictly: no comments, no trailing commas, no NaN or Infinity
/// (a number too large for a Double is refused too), no duplicate keys. Nesting deeper than
/// `maxDepth` is refused instead of recursing without bound.
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        /// Members in the order written.
        case object([JSONMember])
    }

    public var value: Value
    /// Byte offset in the text where the value starts.
    public var offset: Int

    /// What the value is, for messages ("a string", "an array" ...).
    public var kindName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One member of an object: its key, where the key starts, and the value.
public struct JSONMember: Sendable {
    public var key: String
    public var keyOffset: Int
    public var value: JSONNode
}

/// A syntax error at a byte offset.
public struct JSONSyntaxError: Error, Sendable {
    public var offset: Int
    public var message: String
}

/// A parsed text: the root value and what turns offsets into lines and columns.
public struct JSONDocument: Sendable {
    public let root: JSONNode
    let lineStarts: [Int]
    let bytes: [UInt8]

    /// Parses `bytes` (UTF-8; a byte-order mark is skipped).
    public init(bytes: [UInt8], maxDepth: Int = 200) throws {
        var p = JSONParser(bytes: bytes, maxDepth: maxDepth)
        self.bytes = bytes
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        lineStarts = starts
        root = try p.parseDocument()
    }

    /// 1-based line and column (in Unicode scalars) of a byte offset.
    public func position(of offset: Int) -> (line: Int, column: Int) {
        let o = max(0, min(offset, bytes.count))
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= o { lo = mid } else { hi = mid - 1 }
        }
        var column = 1
        var i = lineStarts[lo]
        while i < o {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (lo + 1, column)
    }
}

struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var i = 0
    var depth = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
    }

    func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? i, message: message)
    }

    mutating func parseDocument() throws -> JSONNode {
        skipSpace()
        guard i < bytes.count else { throw fail("empty document: expected a JSON value") }
        let v = try parseValue()
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected \(describe(i)) after the end of the document") }
        return v
    }

    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    func describe(_ at: Int) -> String {
        guard at < bytes.count else { return "end of file" }
        let b = bytes[at]
        if b >= 0x21 && b < 0x7F { return "'\(Character(UnicodeScalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    mutating func parseValue() throws -> JSONNode {
        guard i < bytes.count else { throw fail("unexpected end of file: expected a value") }
        let start = i
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(value: .bool(true), offset: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(value: .bool(false), offset: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(value: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), offset: start)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw fail("NaN and Infinity are not JSON numbers")
        default:
            throw fail("unexpected \(describe(i)): expected a value")
        }
    }

    mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        let n = w.count
        guard i + n <= bytes.count, bytes[i..<(i + n)].elementsEqual(w) else {
            throw fail("unexpected \(describe(i)): expected \(word)")
        }
        i += n
    }

    mutating func enter() throws {
        depth += 1
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
    }

    mutating func parseObject() throws -> JSONNode {
        let start = i
        try enter()
        i += 1
        var members: [JSONMember] = []
        var seen = Set<String>()
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
            i += 1; depth -= 1
            return JSONNode(value: .object(members), offset: start)
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw fail("unexpected \(describe(i)): expected a key in double quotes")
            }
            let keyOffset = i
            let key = try parseString()
            guard seen.insert(key).inserted else { throw fail("duplicate key \"\(key)\"", at: keyOffset) }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                throw fail("unexpected \(describe(i)): expected ':' after the key")
            }
            i += 1
            skipSpace()
            let v = try parseValue()
            members.append(JSONMember(key: key, keyOffset: keyOffset, value: v))
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of file: expected ',' or '}'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            throw fail("unexpected \(describe(i)): expected ',' or '}'")
        }
        depth -= 1
        return JSONNode(value: .object(members), offset: start)
    }

    mutating func parseArray() throws -> JSONNode {
        let start = i
        try enter()
        i += 1
        var items: [JSONNode] = []
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
            i += 1; depth -= 1
            return JSONNode(value: .array(items), offset: start)
        }
        while true {
            skipSpace()
            items.append(try parseValue())
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end of file: expected ',' or ']'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw fail("unexpected \(describe(i)): expected ',' or ']'")
        }
        depth -= 1
        return JSONNode(value: .array(items), offset: start)
    }

    mutating func parseNumber() throws -> Double {
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            return i - s
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else { throw fail("a number needs digits after '-'") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { throw fail("numbers do not start with 0", at: start) }
        } else {
            _ = digits()
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw fail("a number needs digits after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw fail("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            throw fail("number \(text.prefix(40)) is out of range", at: start)
        }
        return v
    }

    mutating func parseString() throws -> String {
        let start = i
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail("unterminated string", at: start) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            if b < 0x20 { throw fail("control character in a string (escape it)") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw fail("unterminated string", at: start) }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw fail("a high surrogate must be followed by a low one")
                    }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw fail("invalid low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw fail("a low surrogate without a high one")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("invalid escape '\\\(Character(UnicodeScalar(e)))'", at: i - 2)
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("a string that is not valid UTF-8", at: start) }
        return s
    }

    mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("\\u needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw fail("\\u needs four hex digits")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }
}
