import Foundation
import XCTest

/// Checks of the output files, shared by the acceptance and unit tests.
enum OutputChecks {
    /// Folded stacks as (frames root first, count); fails on a malformed line.
    static func parseFolded(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [([String], Int)] {
        var out: [([String], Int)] = []
        for l in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let space = l.lastIndex(of: " "), let n = Int(l[l.index(after: space)...]), n > 0 else {
                XCTFail("malformed folded line: \(l)", file: file, line: line)
                continue
            }
            out.append((l[..<space].split(separator: ";", omittingEmptySubsequences: false).map(String.init), n))
        }
        return out
    }

    /// The file against speedscope's schema (https://www.speedscope.app/file-format-schema.json,
    /// FileFormat.File): `$schema`, `shared.frames` (name, optional file/line/col), `profiles`
    /// of type "sampled" (name, unit, startValue <= endValue, samples of frame indices,
    /// weights of the same count), optional name / activeProfileIndex / exporter, nothing
    /// else. Returns the number of samples over all profiles.
    @discardableResult
    static func validateSpeedscope(_ data: Data, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object", file: file, line: line)
        let allowed: Set<String> = ["$schema", "shared", "profiles", "name", "activeProfileIndex", "exporter"]
        XCTAssertEqual(Set(root.keys).subtracting(allowed), [], "unknown top-level keys", file: file, line: line)
        XCTAssertEqual(root["$schema"] as? String, "https://www.speedscope.app/file-format-schema.json", file: file, line: line)
        if let n = root["name"] { XCTAssertTrue(n is String, file: file, line: line) }
        if let e = root["exporter"] { XCTAssertTrue(e is String, file: file, line: line) }
        let shared = try XCTUnwrap(root["shared"] as? [String: Any], "shared", file: file, line: line)
        XCTAssertEqual(Set(shared.keys), ["frames"], file: file, line: line)
        let frames = try XCTUnwrap(shared["frames"] as? [[String: Any]], "shared.frames", file: file, line: line)
        XCTAssertFalse(frames.isEmpty, file: file, line: line)
        for f in frames {
            XCTAssertTrue(Set(f.keys).isSubset(of: ["name", "file", "line", "col"]), "\(f.keys)", file: file, line: line)
            XCTAssertNotNil(f["name"] as? String, "frame without a name", file: file, line: line)
            if let p = f["file"] { XCTAssertTrue(p is String, file: file, line: line) }
        }
        let profiles = try XCTUnwrap(root["profiles"] as? [[String: Any]], "profiles", file: file, line: line)
        XCTAssertFalse(profiles.isEmpty, file: file, line: line)
        if let i = root["activeProfileIndex"] as? Int { XCTAssertTrue(profiles.indices.contains(i), file: file, line: line) }
        let units: Set<String> = ["none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"]
        var total = 0
        for p in profiles {
            XCTAssertEqual(Set(p.keys), ["type", "name", "unit", "startValue", "endValue", "samples", "weights"], file: file, line: line)
            XCTAssertEqual(p["type"] as? String, "sampled", file: file, line: line)
            XCTAssertNotNil(p["name"] as? String, file: file, line: line)
            XCTAssertTrue(units.contains(p["unit"] as? String ?? ""), "unit \(String(describing: p["unit"]))", file: file, line: line)
            let start = try XCTUnwrap((p["startValue"] as? NSNumber)?.doubleValue, file: file, line: line)
            let end = try XCTUnwrap((p["endValue"] as? NSNumber)?.doubleValue, file: file, line: line)
            XCTAssertLessThanOrEqual(start, end, file: file, line: line)
            let samples = try XCTUnwrap(p["samples"] as? [[Int]], "samples must be arrays of frame indices", file: file, line: line)
            let weights = try XCTUnwrap((p["weights"] as? [NSNumber])?.map(\.doubleValue), "weights", file: file, line: line)
            XCTAssertEqual(samples.count, weights.count, file: file, line: line)
            for s in samples {
                XCTAssertFalse(s.isEmpty, file: file, line: line)
                XCTAssertTrue(s.allSatisfy { frames.indices.contains($0) }, "frame index out of range", file: file, line: line)
            }
            XCTAssertTrue(weights.allSatisfy { $0 > 0 }, file: file, line: line)
            XCTAssertEqual(weights.reduce(0, +), end - start, accuracy: 1e-6 * max(1, end), file: file, line: line)
            total += samples.count
        }
        return total
    }

    /// gperftools' legacy CPU profile: header `0, 3, 0, period, 0`, records `count, depth,
    /// pcs`, trailer `0, 1, 0`, then the maps text. Returns (period, samples, maps text).
    static func parseGperftools(_ data: Data, file: StaticString = #filePath, line: UInt = #line) throws -> (period: UInt, samples: Int, maps: String) {
        let wordSize = MemoryLayout<UInt>.size
        func word(_ i: Int) -> UInt? {
            guard (i + 1) * wordSize <= data.count else { return nil }
            return data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i * wordSize, as: UInt.self) }
        }
        XCTAssertEqual((0..<5).compactMap(word).count, 5, "short header", file: file, line: line)
        XCTAssertEqual(word(0), 0, file: file, line: line)
        XCTAssertEqual(word(1), 3, file: file, line: line)
        XCTAssertEqual(word(2), 0, file: file, line: line)
        XCTAssertEqual(word(4), 0, file: file, line: line)
        let period = try XCTUnwrap(word(3), file: file, line: line)
        var i = 5
        var samples = 0
        while true {
            let count = try XCTUnwrap(word(i), "no trailer", file: file, line: line)
            let depth = try XCTUnwrap(word(i + 1), "no trailer", file: file, line: line)
            if count == 0 {
                XCTAssertEqual(depth, 1, "trailer", file: file, line: line)
                XCTAssertEqual(word(i + 2), 0, "trailer", file: file, line: line)
                i += 3
                break
            }
            XCTAssertGreaterThan(depth, 0, file: file, line: line)
            for k in 0..<Int(depth) { XCTAssertNotEqual(try XCTUnwrap(word(i + 2 + k), file: file, line: line), 0, file: file, line: line) }
            samples += Int(count)
            i += 2 + Int(depth)
        }
        let maps = String(decoding: data[(i * wordSize)...], as: UTF8.self)
        return (period, samples, maps)
    }

    /// Complete (`X`) events of a Chrome trace, per thread, are properly nested: each event
    /// lies inside every open event that started before it, or after its end. Returns the
    /// events (name, tid, ts, dur) and fails on every overlap.
    @discardableResult
    static func validateTraceNesting(_ data: Data, file: StaticString = #filePath, line: UInt = #line) throws -> [(name: String, tid: Int, ts: Double, dur: Double)] {
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], file: file, line: line)
        let events = try XCTUnwrap(root["traceEvents"] as? [[String: Any]], file: file, line: line)
        var complete: [(name: String, tid: Int, ts: Double, dur: Double)] = []
        for e in events {
            let ph = try XCTUnwrap(e["ph"] as? String, file: file, line: line)
            XCTAssertNotNil(e["pid"] as? Int, file: file, line: line)
            XCTAssertNotNil(e["tid"] as? Int, file: file, line: line)
            XCTAssertNotNil(e["name"] as? String, file: file, line: line)
            switch ph {
            case "X":
                let ts = try XCTUnwrap((e["ts"] as? NSNumber)?.doubleValue, file: file, line: line)
                let dur = try XCTUnwrap((e["dur"] as? NSNumber)?.doubleValue, file: file, line: line)
                XCTAssertGreaterThanOrEqual(dur, 0, file: file, line: line)
                complete.append((e["name"] as! String, e["tid"] as! Int, ts, dur))
            case "C":
                XCTAssertNotNil(e["ts"] as? NSNumber, file: file, line: line)
                XCTAssertNotNil(e["args"] as? [String: Any], file: file, line: line)
            case "M":
                break
            default:
                XCTFail("unexpected phase \(ph)", file: file, line: line)
            }
        }
        let overlaps = nestingViolations(complete) { e, top, tid in
            XCTFail("\(e.name) at \(e.ts) (\(e.dur) µs) overlaps the end of an enclosing event at \(top) on thread \(tid)", file: file, line: line)
        }
        XCTAssertEqual(overlaps, 0, "events not nested", file: file, line: line)
        return complete
    }

    /// Complete events that start inside an earlier event of their thread and end after it.
    static func nestingViolations(_ events: [(name: String, tid: Int, ts: Double, dur: Double)],
                                  report: ((_ event: (name: String, tid: Int, ts: Double, dur: Double), _ enclosingEnd: Double, _ tid: Int) -> Void)? = nil) -> Int {
        let epsilon = 0.0005   // half a nanosecond, in microseconds
        var overlaps = 0
        for tid in Set(events.map(\.tid)) {
            let mine = events.filter { $0.tid == tid }.sorted { ($0.ts, -$0.dur) < ($1.ts, -$1.dur) }
            var open: [(ts: Double, end: Double)] = []
            for e in mine {
                while let top = open.last, e.ts >= top.end - epsilon { open.removeLast() }
                if let top = open.last, e.ts + e.dur > top.end + epsilon {
                    overlaps += 1
                    if overlaps <= 3 { report?(e, top.end, tid) }
                }
                open.append((e.ts, e.ts + e.dur))
            }
        }
        return overlaps
    }
}
