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
            default:
                if a[i] != b[i] { return "entry \(i): \(a[i]) vs \(b[i])" }
            }
        }
        return nil
    }
}

/// Shrinks a failing script: drops operations (halves, then single ones) and rounds numbers
/// while `fails` still holds, so the fixture kept is small enough to read.
public enum ScriptShrinker {
    public static func shrink(_ script: Script, budget: Int = 400, fails: (Script) -> Bool) -> Script {
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
