import CAllocationCounter
import CCallgrind
import Foundation

/// Deterministic counts beside the times: instructions per item under callgrind and mallocs
/// per item, for a fixed small set of benchmark bodies. They do not move with the machine's
/// load, so CI can gate on them.
public enum Counts {
    /// Iterations counted per body (after two warm-up iterations).
    public static let defaultIterations = 20

    /// Mallocs, frees and bytes per item of `c`'s body, counted in this process (the reset
    /// runs uncounted between iterations).
    public static func allocations(_ c: BenchmarkCase, iterations: Int = defaultIterations) throws -> (mallocs: Double, frees: Double, bytes: Double) {
        let w = try c.make()
        for _ in 0..<2 { w.reset?(); w.run() }
        var mallocs: UInt64 = 0, frees: UInt64 = 0, bytes: UInt64 = 0
        for _ in 0..<iterations {
            w.reset?()
            strata_alloc_counting_begin()
            w.run()
            strata_alloc_counting_end()
            mallocs += strata_alloc_count()
            frees += strata_free_count()
            bytes += strata_alloc_bytes()
        }
        let items = Double(iterations * max(c.items, 1))
        return (Double(mallocs) / items, Double(frees) / items, Double(bytes) / items)
    }

    /// Run inside callgrind (`--collect-atstart=no`): for each case, collection is switched on
    /// around the body only, and the counters are dumped under the case's name.
    public static func collectInstructions(_ cases: [BenchmarkCase], iterations: Int = defaultIterations) throws {
        for c in cases {
            let w = try c.make()
            for _ in 0..<2 { w.reset?(); w.run() }
            strata_callgrind_zero_stats()
            for _ in 0..<iterations {
                w.reset?()
                strata_callgrind_toggle_collect()
                w.run()
                strata_callgrind_toggle_collect()
            }
            strata_callgrind_dump_stats_at(c.name)
        }
    }

    /// Whether valgrind can be used for instruction counts.
    public static var valgrindAvailable: Bool { MachineFingerprint.run("valgrind", ["--version"]) != nil }

    /// Runs `executable arguments` under callgrind (address-space randomisation off,
    /// deterministic hashing) and returns the instructions counted per dump name.
    public static func instructions(executable: String, arguments: [String], scratch: URL) throws -> [String: UInt64] {
        try? FileManager.default.removeItem(at: scratch)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let out = scratch.appendingPathComponent("callgrind.out")
        // valgrind 3.19 cannot read the DWARF 5 the Swift toolchain writes ("unhandled dwarf2
        // abbrev form"): count on a copy without debug sections (symbols stay).
        let stripped = scratch.appendingPathComponent("counted-executable")
        guard MachineFingerprint.run("objcopy", ["--strip-debug", executable, stripped.path]) != nil else {
            throw BenchmarkError("objcopy --strip-debug \(executable) failed (binutils is needed for instruction counts)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_DETERMINISTIC_HASHING"] = "1"
        p.environment = env
        p.arguments = ["setarch", "x86_64", "-R", "valgrind", "--tool=callgrind", "--collect-atstart=no",
                       "--callgrind-out-file=\(out.path)", stripped.path] + arguments
        let log = Pipe()
        p.standardOutput = log
        p.standardError = log
        try p.run()
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw BenchmarkError("callgrind run failed (status \(p.terminationStatus)):\n\(text.suffix(2000))")
        }
        var counts: [String: UInt64] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: scratch.path) where file.hasPrefix("callgrind.out") {
            let dump = try String(contentsOf: scratch.appendingPathComponent(file), encoding: .utf8)
            if let (name, ir) = parseDump(dump) { counts[name] = ir }
        }
        return counts
    }

    /// The trigger name and instruction total of one callgrind dump
    /// (`desc: Trigger: Client Request: NAME` and `summary:`/`totals:` lines).
    static func parseDump(_ text: String) -> (String, UInt64)? {
        var name: String?, total: UInt64?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("desc: Trigger: Client Request: ") {
                name = String(line.dropFirst("desc: Trigger: Client Request: ".count))
            } else if line.hasPrefix("summary:") || (total == nil && line.hasPrefix("totals:")) {
                total = UInt64(line.split(separator: " ").dropFirst().first ?? "")
            }
        }
        guard let name, let total else { return nil }
        return (name, total)
    }
}
