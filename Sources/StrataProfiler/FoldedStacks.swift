extension StackProfile {
    /// Folded stacks (Brendan Gregg's flamegraph.pl input; speedscope opens it too): one line
    /// per distinct stack, frames root first joined by `;`, then a space and its sample
    /// count. Threads with the same stack are merged. The counts sum to `totalSamples`.
    ///
    ///     main;run;commitLike 598
    ///     main;run;lookupLike 301
    public func folded() -> String {
        var merged: [[Int]: Int] = [:]
        var order: [[Int]] = []
        for s in stacks {
            if merged[s.frames] == nil { order.append(s.frames) }
            merged[s.frames, default: 0] += s.samples
        }
        let names = frames.map { Self.foldedName($0.name) }
        var out = ""
        for path in order {
            out += path.map { names[$0] }.joined(separator: ";")
            out += " \(merged[path]!)\n"
        }
        return out
    }

    /// A frame name safe in a folded line: `;` separates frames and the line ends in a count.
    static func foldedName(_ name: String) -> String {
        var n = name.replacingOccurrences(of: ";", with: ":")
        n = n.replacingOccurrences(of: "\n", with: " ")
        return n.isEmpty ? "[unknown]" : n
    }
}
