import Foundation
import StrataScript

/// `strata-bench scene check`: a recording replayed on both engines, every presentation
/// value the program read compared with what each engine shows at that operation.
public enum RecordingCheck {
    /// The first place an engine disagrees with the program (or with the other engine).
    public struct Difference: Sendable, CustomStringConvertible {
        public var operation: Int
        public var layer: Int
        public var keyPath: String
        public var recorded: [Double]?
        public var fast: [Double]?
        public var reference: [Double]?
        public var engine: String

        public var description: String {
            func v(_ x: [Double]?) -> String { x.map { "[" + $0.map { String(format: "%.6g", $0) }.joined(separator: ", ") + "]" } ?? "nil" }
            return "operation \(operation): layer \(layer) \(keyPath): the program read \(v(recorded)), the fast engine shows \(v(fast)), the reference engine \(v(reference)) (\(engine) differs)"
        }
    }

    public struct Outcome: Sendable {
        /// Reads compared.
        public var compared: Int
        public var difference: Difference?
    }

    /// Replays `recording` on each engine (a thread and engine of its own) and compares each
    /// read within `tolerance` (relative, as the differential fuzzer compares).
    public static func check(_ recording: Recording, tolerance: Double = 1e-4) -> Outcome {
        let script = Script(recording.operations)
        let (fast, reference) = Differential.traces(script)
        func values(_ t: [TraceEntry]) -> [Int: [Double]?] {
            var out: [Int: [Double]?] = [:]
            for e in t { if case let .value(op, lanes, _) = e { out[op] = lanes } }
            return out
        }
        let f = values(fast), r = values(reference)
        func same(_ a: [Double]?, _ b: [Double]?) -> Bool {
            switch (a, b) {
            case (nil, nil): return true
            case let (x?, y?):
                return x.count == y.count && zip(x, y).allSatisfy { u, v in
                    u == v || abs(u - v) <= tolerance * max(1, abs(u), abs(v))
                }
            default: return false
            }
        }
        var compared = 0
        for read in recording.reads {
            guard read.op >= 0, read.op < recording.operations.count,
                  case let .read(layer, keyPath) = recording.operations[read.op] else {
                return Outcome(compared: compared, difference: Difference(operation: read.op, layer: -1, keyPath: "?", recorded: read.lanes,
                                                                           fast: nil, reference: nil, engine: "the recording (no read operation there)"))
            }
            let fv = f[read.op] ?? nil, rv = r[read.op] ?? nil
            let fastOK = same(read.lanes, fv), referenceOK = same(read.lanes, rv)
            compared += 1
            if !fastOK || !referenceOK {
                let who = !fastOK && !referenceOK ? "each engine" : !fastOK ? "the fast engine" : "the reference engine"
                return Outcome(compared: compared, difference: Difference(operation: read.op, layer: layer, keyPath: keyPath,
                                                                           recorded: read.lanes, fast: fv, reference: rv, engine: who))
            }
        }
        return Outcome(compared: compared, difference: nil)
    }
}
