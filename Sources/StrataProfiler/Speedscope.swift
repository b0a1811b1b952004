extension StackProfile {
    /// The profile in speedscope's file format (https://www.speedscope.app/file-format-schema.json):
    /// `shared.frames` (name, and the source file and line of the function's start when
    /// `attachSourceLines()` found them, else the object's path), one `sampled` profile per thread whose `samples` are stacks
    /// of frame indices root first, in time order, and whose `weights` are the time each
    /// sample stands for (weight x period) in microseconds.
    public func speedscopeJSON(name: String) -> String {
        let periodMicros = Double(periodNanoseconds) / 1000
        var out = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
        out += "\"name\":\(JSONText.quoted(name)),\"activeProfileIndex\":0,"
        out += "\"exporter\":\"strata-profiler@1\",\"shared\":{\"frames\":["
        for (i, f) in frames.enumerated() {
            if i > 0 { out += "," }
            out += "{\"name\":\(JSONText.quoted(f.name.isEmpty ? "[unknown]" : f.name))"
            // The function's source file and line when `attachSourceLines()` found them, else
            // the object it is in.
            if i < frameLocations.count, let loc = frameLocations[i], loc.line > 0 {
                out += ",\"file\":\(JSONText.quoted(loc.file)),\"line\":\(loc.line)"
            } else if !f.path.isEmpty {
                out += ",\"file\":\(JSONText.quoted(f.path))"
            }
            out += "}"
        }
        out += "]},\"profiles\":["
        for (t, thread) in threads.enumerated() {
            if t > 0 { out += "," }
            var samples: [String] = []
            var weights: [String] = []
            var total = 0.0
            for (i, k) in sampleStacks.enumerated() where stacks[k].thread == thread {
                samples.append("[" + stacks[k].frames.map(String.init).joined(separator: ",") + "]")
                let w = Double(sampleWeights[i]) * periodMicros
                total += w
                weights.append(Self.number(w))
            }
            out += "{\"type\":\"sampled\",\"name\":\(JSONText.quoted("\(name) thread \(thread)")),"
            out += "\"unit\":\"microseconds\",\"startValue\":0,\"endValue\":\(Self.number(total)),"
            out += "\"samples\":[" + samples.joined(separator: ",") + "],"
            out += "\"weights\":[" + weights.joined(separator: ",") + "]}"
        }
        out += "]}\n"
        return out
    }

    static func number(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }
}
