import CAllocationCounter
import CCallgrind
import Foundation
import StrataReportModel

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

    /// One body's allocations per item, as `allocations` counts them.
    public struct AllocationCounts: Codable, Equatable {
        public var mallocs: Double
        public var frees: Double
        public var bytes: Double
        public init(mallocs: Double, frees: Double, bytes: Double) {
            self.mallocs = mallocs
            self.frees = frees
            self.bytes = bytes
        }
    }

    /// Every body in `bodies` counted by `allocations` in a process of its own
    /// (`executable count-worker --mallocs FILE --iterations N BODY`, natively, in
    /// `countingEnvironment` with address-space randomisation off), as many at once as there
    /// are cores.
    ///
    /// A process of its own because a body's malloc count depends on the allocator's state:
    /// Swift sizes a growing array's buffer by `malloc_usable_size`, and a free chunk glibc
    /// hands out whole (its remainder too small to split) holds more than a fresh one, so one
    /// append more or less reallocates. Counted in the `run` process after the timings,
    /// `program/layer-churn/100` took 7.11 mallocs an item after a full run's timings and
    /// 5.31 after the program suite's alone, and `program/make-animations/20` 66.2 and 67.0:
    /// CI's quick gate failed a change that had not touched either. In a fresh process with
    /// deterministic hashing and fixed addresses the count depends on the body alone: four
    /// processes counted 19.221 an item of `program/animations/50`, while two with addresses
    /// randomised counted 19.214 and 19.215.
    public static func allocationsEachBody(executable: String, bodies: [String], iterations: Int,
                                           progress: ((String) -> Void)? = nil) throws -> [String: AllocationCounts] {
        let lock = NSLock()
        var counted: [String: AllocationCounts] = [:]
        var failure: Error?
        let started = Date()
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        DispatchQueue.concurrentPerform(iterations: width) { slot in
            for k in stride(from: slot, to: bodies.count, by: width) {
                let result = Result { () throws -> [String: AllocationCounts] in
                    let scratch = URL(fileURLWithPath: scratchDirectory(k).path + "-mallocs")
                    try? FileManager.default.removeItem(at: scratch)
                    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(at: scratch) }
                    let out = scratch.appendingPathComponent("mallocs.json")
                    try countNatively(executable: executable, ["count-worker", "--mallocs", out.path, "--iterations", "\(iterations)", bodies[k]],
                                      what: "malloc count of \(bodies[k])")
                    return try JSONDecoder().decode([String: AllocationCounts].self, from: Data(contentsOf: out))
                }
                lock.lock()
                switch result {
                case .success(let c): counted.merge(c) { a, _ in a }
                case .failure(let error): failure = failure ?? error
                }
                let n = counted.count
                lock.unlock()
                if n % 10 == 0 || n == bodies.count {
                    progress?(String(format: "  mallocs of %d of %d bodies counted (%.0f s)", n, bodies.count, Date().timeIntervalSince(started)))
                }
            }
        }
        if let failure { throw failure }
        return counted
    }

    /// Placements of each counted body under callgrind. Callgrind's cache simulation sees
    /// addresses: a body's misses move when an unrelated change moves its data by a few bytes
    /// or makes the allocator reuse its free chunks in another order. One build at two clone
    /// paths of different lengths (different allocations at start-up) gave 17.96 and 18.06
    /// estimated cycles per item for frame/opacity/shared/basic/1000, and CI's clone 18.1
    /// against a baseline of 17.87: a gate failure with the code unchanged. Each body is
    /// therefore counted under this many placements and judged by the median: placement 0 as
    /// the process lays it out, the others with its fixture's allocations spaced
    /// (`strata_alloc_spacing_begin`, seeded with the placement's number).
    public static let defaultLayouts = 5

    /// The dump name of `body` counted under placement `layout`.
    public static func dumpName(_ body: String, layout: Int) -> String { "\(body)#layout\(layout)" }

    /// Run inside callgrind (`--collect-atstart=no`): for each case and each placement, the
    /// fixture is made (spaced, from placement 1 on) and warmed, then collection is switched on
    /// around the body only, and the counters are dumped under `dumpName(case, layout:)`.
    public static func collectInstructions(_ cases: [BenchmarkCase], iterations: Int = defaultIterations,
                                           layouts: Int = defaultLayouts) throws {
        for c in cases {
            for layout in 0..<max(layouts, 1) {
                defer { strata_alloc_spacing_release() }
                if layout > 0 { strata_alloc_spacing_begin(UInt64(layout)) }
                let made = Result { try c.make() }
                strata_alloc_spacing_end()
                let w = try made.get()
                for _ in 0..<2 { w.reset?(); w.run() }
                strata_callgrind_zero_stats()
                for _ in 0..<iterations {
                    w.reset?()
                    strata_callgrind_toggle_collect()
                    w.run()
                    strata_callgrind_toggle_collect()
                }
                strata_callgrind_dump_stats_at(dumpName(c.name, layout: layout))
            }
        }
    }

    /// One body's counts over its placements: the placement with the median estimated cycles
    /// (the median instruction count without the cache simulation), and the least and most
    /// estimated cycles of any placement.
    public struct LayoutCounts: Equatable {
        /// The median placement's counts.
        public var median: CallgrindCounts
        /// Placements counted.
        public var layouts: Int
        /// Fewest and most estimated cycles over the placements (nil without the simulation).
        public var estimatedCyclesRange: ClosedRange<UInt64>?
    }

    /// Groups `callgrind`'s dumps by body (`dumpName`); a dump without a placement suffix is a
    /// body counted once.
    public static func byBody(_ dumps: [String: CallgrindCounts]) -> [String: LayoutCounts] {
        var grouped: [String: [CallgrindCounts]] = [:]
        for (name, counts) in dumps {
            let body = name.range(of: "#layout", options: .backwards).map { String(name[..<$0.lowerBound]) } ?? name
            grouped[body, default: []].append(counts)
        }
        return grouped.mapValues { all in
            let sorted = all.sorted { ($0.estimatedCycles ?? $0.ir, $0.ir) < ($1.estimatedCycles ?? $1.ir, $1.ir) }
            let cycles = all.compactMap(\.estimatedCycles)
            return LayoutCounts(median: sorted[(sorted.count - 1) / 2], layouts: all.count,
                                estimatedCyclesRange: cycles.count == all.count ? cycles.min()!...cycles.max()! : nil)
        }
    }

    /// Whether valgrind can be used for instruction counts.
    public static var valgrindAvailable: Bool { MachineFingerprint.run("valgrind", ["--version"]) != nil }

    /// Callgrind's simulated caches, fixed rather than read from this CPU so that counts are
    /// the same on every machine: 32 KiB 8-way first-level instruction and data caches and
    /// an 8 MiB 16-way last level, 64-byte lines.
    public static let simulatedCaches = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"]

    /// Runs `executable arguments` under callgrind with its cache simulation (address-space
    /// randomisation off, deterministic hashing) and returns the counts per dump name.
    /// `options` go to callgrind before the executable. Lines the counted process writes
    /// starting with `progressPrefix` are handed to `progress` as they come (the rest is kept
    /// for the error message). Dumps of the same name are added.
    ///
    /// With `feed`, the process reads names on its standard input (a serving count worker,
    /// `serve`): `feed(nil)` gives the first, and each line it writes starting with
    /// `servedPrefix` hands the name it has counted to `feed`, whose answer is written next
    /// (nil closes the input). Each process's dumps then go to a file of its own
    /// (`callgrind.out.PID`), as the worker's forks write them.
    public static func callgrind(executable: String, arguments: [String], scratch: URL, options: [String] = [],
                                 progress: ((String) -> Void)? = nil,
                                 feed: ((_ served: String?) -> String?)? = nil) throws -> [String: CallgrindCounts] {
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
        p.environment = countingEnvironment(ProcessInfo.processInfo.environment)
        p.arguments = ["setarch", "x86_64", "-R", "valgrind", "--tool=callgrind", "--collect-atstart=no",
                       "--cache-sim=yes"] + simulatedCaches + options
            + ["--callgrind-out-file=\(out.path)\(feed == nil ? "" : ".%p")", stripped.path] + arguments
        let log = Pipe()
        p.standardOutput = log
        p.standardError = log
        let input = feed.map { _ in Pipe() }
        if let input { p.standardInput = input }
        try p.run()
        // The name fed last (a serving worker that fails was counting it), and the input's end.
        var fed: String?
        func feedNext(_ served: String?) {
            guard let feed, let input else { return }
            fed = feed(served)
            if let fed {
                // A worker that has just ended (a fork failed) leaves the write unread: its
                // status says why (`callgrindEachBody` ignores SIGPIPE meanwhile).
                try? input.fileHandleForWriting.write(contentsOf: Data((fed + "\n").utf8))
            } else {
                try? input.fileHandleForWriting.close()
            }
        }
        feedNext(nil)
        var text = ""
        var pending = Data()
        while true {
            let chunk = log.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let nl = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...nl)
                if feed != nil, line.hasPrefix(servedPrefix) {
                    feedNext(String(line.dropFirst(servedPrefix.count)))
                } else if let progress, line.hasPrefix(progressPrefix) {
                    progress(String(line.dropFirst(progressPrefix.count)))
                } else {
                    text += line + "\n"
                }
            }
        }
        text += String(decoding: pending, as: UTF8.self)
        p.waitUntilExit()
        if let input, fed != nil { try? input.fileHandleForWriting.close() }
        guard p.terminationStatus == 0 else {
            let counting = fed.map { " counting \($0)" } ?? ""
            throw BenchmarkError("callgrind run failed\(counting) (status \(p.terminationStatus)):\n\(text.suffix(2000))")
        }
        var counts: [String: CallgrindCounts] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: scratch.path) where file.hasPrefix("callgrind.out") {
            // The header (events, summary) is enough; the whole dump only when it has no summary.
            let url = scratch.appendingPathComponent(file)
            let head = try FileHandle(forReadingFrom: url)
            let top = String(decoding: head.readData(ofLength: 65_536), as: UTF8.self)
            try? head.close()
            guard let (name, c) = try parseDump(top, summaryOnly: true) ?? parseDump(String(contentsOf: url, encoding: .utf8)) else { continue }
            counts[name] = counts[name].map { $0 + c } ?? c
        }
        return counts
    }

    /// Every body in `bodies` counted under callgrind in a process of its own, as many at once
    /// as there are cores; the dumps of all, by name. Each process is a fork of a serving
    /// worker (`executable count-worker --serve --iterations N --layouts L`, see `serve`), one
    /// worker a core, each started once under callgrind and fed the next name as it finishes one.
    ///
    /// A process of its own, so a body's counts do not depend on which bodies were counted
    /// before it in the same process (their freed fixtures leave the allocator in another
    /// state): in one process for all 22 bodies, `frame/opacity/shared/basic/1000` counted
    /// 16.84 estimated cycles an item after the commit and lookup bodies and 16.71 with the
    /// frame bodies alone. And at once on both cores: the 22 bodies of the default run took
    /// 188 s in one process here. A fork, because a process started under valgrind costs
    /// about 2.5 s before its first body (valgrind, the Swift runtime and the catalogue, all
    /// instrumented) and a fork of one that has started costs nothing of that; every fork
    /// starts from the same state, with the same arguments on its stack whatever the body.
    public static func callgrindEachBody(executable: String, bodies: [String], iterations: Int, layouts: Int,
                                         progress: ((String) -> Void)? = nil) throws -> [String: CallgrindCounts] {
        let lock = NSLock()
        var dumps: [String: CallgrindCounts] = [:]
        var failure: Error?
        var next = 0, finished = 0
        let started = Date()
        let workers = min(max(1, ProcessInfo.processInfo.activeProcessorCount), bodies.count)
        let sigpipe = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, sigpipe) }
        DispatchQueue.concurrentPerform(iterations: workers) { slot in
            let scratch = scratchDirectory(slot)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let result = Result {
                try callgrind(executable: executable, arguments: [
                    "count-worker", "--serve", "--iterations", "\(iterations)", "--layouts", "\(layouts)"], scratch: scratch,
                    feed: { served in
                        lock.lock()
                        defer { lock.unlock() }
                        if let served {
                            finished += 1
                            progress?(String(format: "  counted %@ (%d of %d bodies, %.0f s)", served, finished, bodies.count,
                                             Date().timeIntervalSince(started)))
                        }
                        guard failure == nil, next < bodies.count else { return nil }
                        next += 1
                        return bodies[next - 1]
                    })
            }
            lock.lock()
            defer { lock.unlock() }
            switch result {
            case .success(let counted): dumps.merge(counted) { a, b in a + b }
            case .failure(let error): failure = failure ?? error
            }
        }
        if let failure { throw failure }
        let missing = bodies.filter { b in !dumps.keys.contains { $0 == b || $0.hasPrefix(b + "#layout") } }
        guard missing.isEmpty else {
            throw BenchmarkError("callgrind wrote no dump for \(missing.joined(separator: ", "))")
        }
        return dumps
    }

    /// What a serving count worker writes, followed by the name, when it has counted a body.
    public static let servedPrefix = "[count-served] "

    /// A serving count worker's loop, run under callgrind (`count-worker --serve`): it forks,
    /// and the fork reads one name from the standard input, counts that body as
    /// `collectInstructions` does, writes `servedPrefix` and the name, and exits; the worker
    /// waits for it and forks again, until the input ends. The worker itself does nothing
    /// between forks but wait, so every fork starts from the same state. Returns the exit
    /// status: 0 at the input's end, else the failed fork's (65 for a name `find` does not
    /// know, 1 for a body that threw, 128 + N for one killed by signal N).
    public static func serve(iterations: Int, layouts: Int, find: (String) -> BenchmarkCase?) -> Int32 {
        fflush(stdout)
        fflush(stderr)
        while true {
            let child = fork()
            if child < 0 {
                perror("count-worker: fork")
                return 71
            }
            if child == 0 { _exit(serveOne(iterations: iterations, layouts: layouts, find: find)) }
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 {
                guard errno == EINTR else {
                    perror("count-worker: waitpid")
                    return 71
                }
            }
            if status & 0x7f != 0 { return 128 + (status & 0x7f) }
            let code = (status >> 8) & 0xff
            if code == endOfInput { return 0 }
            if code != 0 { return code }
        }
    }

    /// A fork's exit status when the input has ended (no more bodies).
    static let endOfInput: Int32 = 100

    /// One fork of `serve`: reads a name byte by byte (the rest of the input is the next
    /// fork's), counts it, says so.
    static func serveOne(iterations: Int, layouts: Int, find: (String) -> BenchmarkCase?) -> Int32 {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(0, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return bytes.isEmpty ? endOfInput : 65 }
            if byte == 10 { break }
            bytes.append(byte)
        }
        let name = String(decoding: bytes, as: UTF8.self)
        guard let c = find(name) else {
            fputs("count-worker: no benchmark named \(name)\n", stderr)
            return 65
        }
        do {
            try collectInstructions([c], iterations: iterations, layouts: layouts)
        } catch {
            fputs("count-worker: \(name): \(error)\n", stderr)
            return 1
        }
        fputs(servedPrefix + name + "\n", stdout)
        fflush(stdout)
        return 0
    }

    /// Runs `executable arguments` natively, as a counted process runs under callgrind: in
    /// `countingEnvironment`, with address-space randomisation off (`setarch -R`). Throws,
    /// naming `what` and quoting the output's end, when it exits non-zero.
    public static func countNatively(executable: String, _ arguments: [String], what: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.environment = countingEnvironment(ProcessInfo.processInfo.environment)
        p.arguments = ["setarch", "x86_64", "-R", executable] + arguments
        let log = Pipe()
        p.standardOutput = log
        p.standardError = log
        try p.run()
        let text = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw BenchmarkError("\(what) failed (status \(p.terminationStatus)):\n\(text.suffix(2000))")
        }
    }

    /// What a counted process starts a progress line with (see `callgrind`).
    public static let progressPrefix = "[count-progress] "

    /// The counted process's whole environment: fixed, whatever the shell's. The environment
    /// sits on the initial stack, so another PATH or one more variable moves every stack
    /// address and with it which cache sets the body's stack traffic maps to. With the
    /// inherited environment and a scratch path named by the plain pid, one build's estimated
    /// cycles of frame/opacity/shared/basic/1000 moved by up to 0.9% from run to run (17.80 to
    /// 17.89); with this environment and `scratchDirectory()`, four runs gave 17.833 each.
    /// Kept: the trust experiments' knobs, the sanitizers' options and LD_LIBRARY_PATH; PATH
    /// is fixed (valgrind and setarch are found through it).
    public static func countingEnvironment(_ inherited: [String: String]) -> [String: String] {
        var env = ["PATH": "/usr/local/bin:/usr/bin:/bin", "SWIFT_DETERMINISTIC_HASHING": "1", "LC_ALL": "C"]
        for (k, v) in inherited where k.hasPrefix("STRATA_BENCH_INJECT_") || k.hasSuffix("SAN_OPTIONS") || k == "LD_LIBRARY_PATH" { env[k] = v }
        return env
    }

    /// A scratch directory whose path has the same length in every process (the counted copy
    /// of the executable runs from it, and its path is on the initial stack too).
    public static func scratchDirectory() -> URL {
        URL(fileURLWithPath: "/tmp").appendingPathComponent(String(format: "strata-bench-callgrind-%010d", Int(getpid())))
    }

    /// The scratch directory of counted process `k` of this one (names of one length too).
    public static func scratchDirectory(_ k: Int) -> URL {
        URL(fileURLWithPath: "/tmp").appendingPathComponent(String(format: "strata-bench-callgrind-%010d-%04d", Int(getpid()), k % 10_000))
    }

    /// The trigger name and event totals of one callgrind dump
    /// (`desc: Trigger: Client Request: NAME`, the `events:` line naming the columns, and the
    /// `summary:`/`totals:` line, whose trailing zero columns callgrind omits). Without an
    /// `events:` line the one column is `Ir`.
    static func parseDump(_ text: String, summaryOnly: Bool = false) -> (String, CallgrindCounts)? {
        var name: String?, totals: [UInt64]?
        var events = ["Ir"]
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if summaryOnly && totals != nil { break }
            if line.hasPrefix("desc: Trigger: Client Request: ") {
                name = String(line.dropFirst("desc: Trigger: Client Request: ".count))
            } else if line.hasPrefix("events:") {
                events = line.dropFirst("events:".count).split(separator: " ").map(String.init)
            } else if line.hasPrefix("summary:") || (!summaryOnly && totals == nil && line.hasPrefix("totals:")) {
                let values = line.split(separator: " ").dropFirst().map { UInt64($0) }
                guard !values.isEmpty, !values.contains(nil) else { return nil }
                totals = values.compactMap { $0 }
            }
        }
        guard let name, let totals else { return nil }
        // Callgrind leaves out trailing columns that are zero (no last-level misses, often).
        guard totals.count <= events.count else { return nil }
        var byEvent: [String: UInt64] = [:]
        for (i, e) in events.enumerated() { byEvent[e] = i < totals.count ? totals[i] : 0 }
        guard let ir = byEvent["Ir"] else { return nil }
        return (name, CallgrindCounts(ir: ir, dr: byEvent["Dr"], dw: byEvent["Dw"], i1mr: byEvent["I1mr"], d1mr: byEvent["D1mr"],
                                      d1mw: byEvent["D1mw"], ilmr: byEvent["ILmr"], dlmr: byEvent["DLmr"], dlmw: byEvent["DLmw"]))
    }
}

/// One callgrind dump's event totals: instructions, and with the cache simulation, data reads
/// and writes and their misses at each level.
public struct CallgrindCounts: Equatable {
    /// Instructions executed (`Ir`).
    public var ir: UInt64
    /// The cache simulation's events (nil when the dump has none).
    public var cache: Cache?

    /// The cache simulation's events, named as callgrind names them.
    public struct Cache: Equatable {
        /// Data reads.
        public var dr: UInt64
        /// Data writes.
        public var dw: UInt64
        /// First-level instruction-fetch misses.
        public var i1mr: UInt64
        /// First-level data-read misses.
        public var d1mr: UInt64
        /// First-level data-write misses.
        public var d1mw: UInt64
        /// Last-level instruction-fetch misses.
        public var ilmr: UInt64
        /// Last-level data-read misses.
        public var dlmr: UInt64
        /// Last-level data-write misses.
        public var dlmw: UInt64
        /// Instruction and data misses of the first level.
        public var l1Misses: UInt64 { i1mr + d1mr + d1mw }
        /// Misses of the last level (accesses that went to memory).
        public var llMisses: UInt64 { ilmr + dlmr + dlmw }
    }

    /// Counts from a dump's totals; the cache events only when every one of them is there.
    public init(ir: UInt64, dr: UInt64? = nil, dw: UInt64? = nil, i1mr: UInt64? = nil, d1mr: UInt64? = nil, d1mw: UInt64? = nil,
                ilmr: UInt64? = nil, dlmr: UInt64? = nil, dlmw: UInt64? = nil) {
        self.ir = ir
        if let dr, let dw, let i1mr, let d1mr, let d1mw, let ilmr, let dlmr, let dlmw {
            cache = Cache(dr: dr, dw: dw, i1mr: i1mr, d1mr: d1mr, d1mw: d1mw, ilmr: ilmr, dlmr: dlmr, dlmw: dlmw)
        }
    }

    /// Estimated cycles as CodSpeed and iai-callgrind define them: every access that hits the
    /// first level costs 1, one served by the last level 5, one that goes to memory 35.
    /// Accesses are instruction fetches plus data reads and writes.
    public var estimatedCycles: UInt64? {
        guard let c = cache else { return nil }
        let accesses = ir + c.dr + c.dw
        let l1Hits = accesses - min(accesses, c.l1Misses)
        let llHits = c.l1Misses - min(c.l1Misses, c.llMisses)
        return l1Hits + 5 * llHits + 35 * c.llMisses
    }
}
