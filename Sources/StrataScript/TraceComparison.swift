import Foundation

/// Compares two traces: values within a relative tolerance (Bézier-timed values may differ
/// by solver error), discrete values exactly, events in identical order.
public enum TraceComparison {
    /// The first disagreement, described, or nil when the traces agree.
    public static func firstDifference(_ a: [TraceEntry], _ b: [TraceEntry], tolerance: Double = 1e-4) -> String? {
        for i in 0..<max(a.count, b.count) {
            guard i < a.count else { return "entry \(i): fast trace ended; reference has \(b[i])" }
            guard i < b.count else { return "entry \(i): reference trace ended; fast has \(a[i])" }
            switch (a[i], b[i]) {
            case let (.value(op1, l1, d1), .value(op2, l2, d2)):
                guard op1 == op2 else { return "entry \(i): reads of different ops \(op1) / \(op2)" }
                switch (l1, l2) {
                case (nil, nil): continue
                case let (x?, y?):
                    guard x.count == y.count else { return "op \(op1): \(x) vs \(y)" }
                    for (u, v) in zip(x, y) {
                        if u.isNaN || v.isNaN { return "op \(op1): NaN in \(x) vs \(y)" }
                        if d1 || d2 {
                            if u != v { return "op \(op1): discrete \(x) vs \(y)" }
                        } else if abs(u - v) > tolerance * max(1, abs(u), abs(v)) {
                            return "op \(op1): \(x) vs \(y)"
                        }
                    }
                default: return "op \(op1): \(String(describing: l1)) vs \(String(describing: l2))"
                }
            case let (.snapshot(op1, x), .snapshot(op2, y)):
                guard op1 == op2 else { return "entry \(i): snapshots of different ops \(op1) / \(op2)" }
                guard x.count == y.count else {
                    return "op \(op1): snapshot of \(x.count) items vs \(y.count) (layers \(x.map(\.layer)) vs \(y.map(\.layer)))"
                }
                for (k, (u, v)) in zip(x, y).enumerated() {
                    guard u.layer == v.layer, u.parent == v.parent, u.clip == v.clip, u.flags == v.flags,
                          u.pathElements == v.pathElements, u.values.count == v.values.count else {
                        return "op \(op1): snapshot item \(k): \(u) vs \(v)"
                    }
                    // The 16 transform entries are one value: a coordinate near 0 beside others in
                    // the hundreds carries their rounding, so they share the matrix's scale.
                    let matrixScale = u.values.prefix(16).reduce(1.0) { max($0, abs($1)) }
                    for (j, (a, b)) in zip(u.values, v.values).enumerated()
                    where a.isNaN || b.isNaN || abs(a - b) > tolerance * max(j < 16 ? matrixScale : 1, abs(a), abs(b)) {
                        return "op \(op1): snapshot item \(k) (layer \(u.layer)): \(u.values) vs \(v.values)"
                    }
                }
            default:
                if a[i] != b[i] { return "entry \(i): \(a[i]) vs \(b[i])" }
            }
        }
        return nil
    }
}

/// Shrinks a failing script: drops operations (halves, then single ones), then rounds its
/// numbers (to integers, then to zero) while `fails` still holds, so the fixture kept is small
/// enough to read.
public enum ScriptShrinker {
    public static func shrink(_ script: Script, budget: Int = 400, fails: (Script) -> Bool) -> Script {
        let dropped = dropOperations(script, budget: budget, fails: fails)
        return shrinkNumbers(dropped, budget: budget / 2, fails: fails)
    }

    /// Rounds each number of the script's JSON form, keeping a rounding while the script
    /// still fails.
    static func shrinkNumbers(_ script: Script, budget: Int, fails: (Script) -> Bool) -> Script {
        guard let data = try? JSONEncoder().encode(script),
              var json = try? JSONSerialization.jsonObject(with: data) else { return script }
        var best = script
        var tries = 0
        var index = 0
        while tries < budget {
            var seen = 0
            var changed = false
            var candidateFound: Script?
            for replacement in [{ (x: Double) in x.rounded() }, { (_: Double) in 0.0 }] {
                seen = 0
                let candidate = rewrite(json, target: index, seen: &seen) { x in
                    let y = replacement(x)
                    if y != x { changed = true }
                    return y
                }
                guard changed else { continue }
                tries += 1
                if let d = try? JSONSerialization.data(withJSONObject: candidate),
                   let s = try? JSONDecoder().decode(Script.self, from: d), fails(s) {
                    json = candidate
                    candidateFound = s
                }
                changed = false
            }
            if let s = candidateFound { best = s }
            index += 1
            if index >= seen { break }
        }
        return best
    }

    /// `json` with its `target`-th number (depth-first) replaced by `f(number)`.
    private static func rewrite(_ json: Any, target: Int, seen: inout Int, _ f: (Double) -> Double) -> Any {
        switch json {
        case let d as [String: Any]:
            var out: [String: Any] = [:]
            for k in d.keys.sorted() { out[k] = rewrite(d[k]!, target: target, seen: &seen, f) }
            return out
        case let a as [Any]:
            return a.map { rewrite($0, target: target, seen: &seen, f) }
        default:
            if type(of: json) == Bool.self { return json }
            let value: Double
            if let x = json as? Double { value = x } else if let x = json as? Int { value = Double(x) }
            else if let n = json as? NSNumber { value = n.doubleValue } else { return json }
            defer { seen += 1 }
            return seen == target ? f(value) : json
        }
    }

    static func dropOperations(_ script: Script, budget: Int, fails: (Script) -> Bool) -> Script {
        var best = script
        var tries = 0
        var chunk = max(1, best.ops.count / 2)
        while chunk >= 1 && tries < budget {
            var i = 0
            var progressed = false
            while i < best.ops.count && tries < budget {
                var candidate = best
                candidate.ops.removeSubrange(i..<min(best.ops.count, i + chunk))
                tries += 1
                if !candidate.ops.isEmpty && fails(candidate) { best = candidate; progressed = true } else { i += chunk }
            }
            if !progressed { chunk /= 2 }
        }
        return best
    }
}
