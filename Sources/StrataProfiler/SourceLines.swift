import Foundation

/// A source position: a file and a line in it.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public init(file: String, line: Int) { self.file = file; self.line = line }
    /// `file:line` (`file:0 (no line: compiler-generated)` for line 0).
    public var description: String { line == 0 ? "\(file):0 (no line: compiler-generated)" : "\(file):\(line)" }
}

/// Source lines of code addresses from the objects' DWARF line tables, read by binutils'
/// `addr2line` (Debian's binutils; not a DWARF parser of our own). The innermost position is
/// taken: an inlined callee's line, where the instruction's code came from.
public enum SourceLines {
    /// `offsets` of each object (by path, as `Symbolizer.Symbol.objectOffset` gives them)
    /// resolved to source positions; an offset without line information is left out. The
    /// second value says why some or all could not be resolved (nil when every object was
    /// read).
    public static func resolve(_ offsets: [String: [UInt]]) -> (locations: [String: [UInt: SourceLocation]], problem: String?) {
        var out: [String: [UInt: SourceLocation]] = [:]
        var problems: [String] = []
        for (path, list) in offsets.sorted(by: { $0.key < $1.key }) where !list.isEmpty {
            guard FileManager.default.isReadableFile(atPath: path) else { problems.append("\(path) is not readable"); continue }
            let unique = Array(Set(list)).sorted()
            var resolved: [UInt: SourceLocation] = [:]
            // In chunks: the addresses go on the command line (no pipe to fill both ways).
            var start = 0
            while start < unique.count {
                let chunk = Array(unique[start..<min(start + 4_000, unique.count)])
                start += chunk.count
                guard let text = run(["addr2line", "-e", path] + chunk.map { "0x" + String($0, radix: 16) }) else {
                    problems.append("addr2line failed on \(path) (binutils installed? scripts/setup installs it)")
                    break
                }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                for (k, offset) in chunk.enumerated() where k < lines.count {
                    if let loc = parse(lines[k]) { resolved[offset] = loc }
                }
            }
            out[path] = resolved
        }
        return (out, problems.isEmpty ? nil : problems.joined(separator: "; "))
    }

    /// One addr2line answer: `FILE:LINE`, maybe followed by ` (discriminator N)`; `??:0`,
    /// `??:?` and `FILE:?` are nil. Line 0 stays: code of that file the compiler attributed
    /// to no line (`SourceLocation.description` says so).
    static func parse(_ answer: Substring) -> SourceLocation? {
        var text = answer
        if let paren = text.range(of: " (discriminator") { text = text[..<paren.lowerBound] }
        guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]), line >= 0 else { return nil }
        let file = String(text[..<colon])
        guard !file.isEmpty, file != "??" else { return nil }
        return SourceLocation(file: file, line: line)
    }

    private static func run(_ arguments: [String]) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return p.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}

extension StackProfile {
    /// A function's self samples by source line.
    public struct FunctionLines: Sendable {
        public var frame: Frame
        /// Samples with this function as the leaf.
        public var selfSamples: Int
        /// Its lines, most samples first: nil where the line table had no line.
        public var lines: [(location: SourceLocation?, samples: Int)]
    }

    /// Attaches source positions: each frame's function start (`frameLocations`, which the
    /// speedscope file carries) and each leaf instruction's line (`hottestLines`). Returns
    /// why some could not be resolved, or nil.
    @discardableResult
    public mutating func attachSourceLines() -> String? {
        var requests: [String: [UInt]] = [:]
        for (k, f) in frames.enumerated() where !f.path.isEmpty {
            if let start = functionStarts[k] { requests[f.path, default: []].append(start) }
        }
        for leaf in leafAddresses { requests[frames[leaf.frame].path, default: []].append(leaf.objectOffset) }
        let (found, problem) = SourceLines.resolve(requests)
        setSourceLocations(found)
        return problem
    }

    /// The `limit` functions with the most self samples and, for each, its lines by samples
    /// (at most `lines` of them; the rest summed into a nil line when they had none).
    public func hottestLines(functions limit: Int = 5, lines: Int = 8) -> [FunctionLines] {
        var byFunction: [Int: [SourceLocation?: Int]] = [:]
        var selfSamples: [Int: Int] = [:]
        for (k, leaf) in leafAddresses.enumerated() {
            let loc = k < leafLocations.count ? leafLocations[k] : nil
            byFunction[leaf.frame, default: [:]][loc, default: 0] += leaf.samples
            selfSamples[leaf.frame, default: 0] += leaf.samples
        }
        return selfSamples.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(limit).map { frame, total in
            let sorted = byFunction[frame]!.sorted { a, b in
                a.value != b.value ? a.value > b.value : (a.key?.line ?? Int.max) < (b.key?.line ?? Int.max)
            }
            return FunctionLines(frame: frames[frame], selfSamples: total,
                                 lines: sorted.prefix(lines).map { (location: $0.key, samples: $0.value) })
        }
    }
}

extension StackProfile {
    /// `hottestLines` as an HTML section (a table per function), "" when there is no sample.
    public func hottestLinesHTML(functions limit: Int = 5, lines: Int = 8) -> String {
        let hot = hottestLines(functions: limit, lines: lines)
        guard !hot.isEmpty else { return "" }
        let total = Double(max(totalSamples, 1))
        var out = "<h2 style=\"font-size:16px\">Hottest source lines</h2>\n"
        out += "<p style=\"font-size:13px\">Self samples of the functions with the most, by the line of the interrupted instruction (DWARF line tables through addr2line; an inlined callee's line where its code was).</p>\n"
        for f in hot {
            out += "<table class=\"strata-lines\" style=\"font:12px monospace;border-collapse:collapse;margin-bottom:12px\">"
            out += "<caption style=\"text-align:left;font-weight:bold\">\(FlameGraph.escapeXML(f.frame.name)) — \(f.selfSamples) self samples (\(String(format: "%.1f", 100 * Double(f.selfSamples) / total))%)</caption>"
            out += "<tr><th style=\"text-align:right;padding-right:12px\">samples</th><th style=\"text-align:right;padding-right:12px\">% of function</th><th style=\"text-align:left\">line</th></tr>"
            for l in f.lines {
                out += "<tr><td style=\"text-align:right;padding-right:12px\">\(l.samples)</td>"
                out += "<td style=\"text-align:right;padding-right:12px\">\(String(format: "%.1f", 100 * Double(l.samples) / Double(max(f.selfSamples, 1))))</td>"
                out += "<td>\(FlameGraph.escapeXML(l.location?.description ?? "(no line information)"))</td></tr>"
            }
            out += "</table>\n"
        }
        return out
    }
}
