import ArgumentParser
import Foundation
import StrataBench

/// `ab BASE_REF`: the base commit and the working tree built side by side, run interleaved in
/// one job over R rounds (the order inside each round drawn at random), and judged from the
/// paired rounds (`PairedJudge`): the verdicts a CI can trust on a noisy machine.
struct AbCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ab",
        abstract: "Paired A/B: build BASE_REF beside the working tree, run both interleaved, judge from the pairs.",
        discussion: """
        Each round runs one process of each build and a second of the base (the A/A control), every selected
        benchmark (--repetitions times: the round's figure is their minimum) and scene each, in an order drawn at
        random; a round's head/base ratio carries the change and little of the machine's drift. Per benchmark and
        scene (p50, p99, hitch ratio): the median per-round ratio with a bootstrap 95% interval, judged against the A/A noise band measured in the same job
        (the control/base ratios): regression, improvement, unchanged or inconclusive. A difference inside the band
        is never a regression.
        Deterministic counts (instructions, estimated cycles, mallocs) are taken once per build and compared exactly.
        Writes OUT/{base,head}.json (rounds merged), OUT/compare.json, OUT/summary.md, OUT/ab.html and
        OUT/noise-bands.json (how far one build moves between processes: `compare --noise-bands`).
        Exit status: 0 fine, 2 regression (gated kinds), 3 a build or run failed, or a gated figure of the base is not in the
        head, 4 improvement only, 5 a gated figure of the head is not in the base, or nothing was compared, 64 usage.
        Example: strata-bench ab HEAD~1 --suite frame --filter 'opacity/shared/basic' --scene app-10k --quick
        """)

    @Argument(help: "The base: a commit, branch or tag of this package's git repository.") var base: String
    @Option(help: "Paired rounds (at least \(PairedJudge.minimumRounds) for a verdict).") var rounds = 9
    @Option(help: "Untimed rounds first (page cache, clocks, the loader): their results are dropped.") var warmupRounds = 1
    @Option(name: .customLong("suite"), help: "Suites to run (repeatable), as for `run`.") var suites: [String] = []
    @Option(help: "Regular expression over benchmark names, as for `run`.") var filter: String?
    @Option(name: .customLong("scene"), help: ArgumentHelp("A scene file or built-in scene (repeatable), as for `run`.", valueName: "file"))
    var scenes: [String] = []
    @Option(name: .customLong("param"), help: ArgumentHelp("A scene parameter NAME=VALUE (repeatable), as for `run`.", valueName: "name=value"))
    var params: [String] = []
    @Flag(help: "The quick subset and short scenes, as for `run --quick`.") var quick = false
    @Option(help: "Repetitions of each benchmark in each round's process: the round's figure is their minimum.") var repetitions = 5
    @Option(help: "Minimum seconds per repetition.") var minTime = 0.02
    @Option(help: "Passes of each scene in each round's process: the round's p50, p99 and hitch ratio are each their minimum (a pass the machine interrupted is not the round's figure).")
    var scenePasses = 3
    @Option(help: "Where the reports, summary and HTML go.") var out = "reports/ab"
    @Option(help: "text (a table) or markdown (the summary) on standard output.") var format = "text"
    @Option(help: "Relative change that matters, e.g. 2%.") var threshold = "2%"
    @Option(help: "The smallest noise band trusted, e.g. 1%.") var noiseFloor = "1%"
    @Option(help: "Verdicts that set the exit status: all, counts (times printed only), none.") var gate = "all"
    @Option(help: "Use this base executable instead of building BASE_REF (its commit is still named BASE_REF).") var baseBinary: String?
    @Option(help: "Use this head executable instead of building the working tree.") var headBinary: String?
    @Option(help: "The executable product to build (default: this program's name).") var product: String?
    @Option(help: "Seed of the round order (default: drawn, and printed).") var seed: UInt64?
    @Option(help: "Also save the measured noise bands here, for `compare --noise-bands`.") var saveBands: String?
    @Flag(help: "Skip the deterministic counts.") var noCounts = false
    @Flag(help: "No A/A control run per round (a third fewer runs; the band then comes from consecutive rounds and holds the machine's drift).")
    var noControl = false
    @Option(help: ArgumentHelp("An environment variable for the head's runs only, NAME=VALUE (repeatable): trust experiments plant a slowdown this way (STRATA_BENCH_INJECT_SLOWDOWN=5).", valueName: "name=value"))
    var headEnv: [String] = []
    @Option(help: ArgumentHelp("An environment variable for the base's runs (and its control's) only, NAME=VALUE (repeatable).", valueName: "name=value"))
    var baseEnv: [String] = []

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        guard warmupRounds >= 0 else { throw ValidationError("--warmup-rounds must not be negative") }
        guard ["text", "markdown"].contains(format) else { throw ValidationError("--format must be text or markdown") }
        _ = try parseGate(gate)
        guard minTime > 0 && minTime.isFinite else { throw ValidationError("--min-time must be a positive number of seconds") }
        guard repetitions >= 1 else { throw ValidationError("--repetitions must be at least 1") }
        guard scenePasses >= 1 else { throw ValidationError("--scene-passes must be at least 1") }
        for e in headEnv + baseEnv where !e.contains("=") || e.hasPrefix("=") { throw ValidationError("--head-env/--base-env '\(e)' is not NAME=VALUE") }
    }

    func run() throws {
        let started = Date()
        let gate = Gate(rawValue: gate) ?? .all
        let judge = PairedJudge(threshold: try fraction(threshold, "--threshold"), noiseFloor: try fraction(noiseFloor, "--noise-floor"))
        // 1. The two executables.
        let packagePath = FileManager.default.currentDirectoryPath
        let (top, baseCommit) = try RefBuild.resolve(base, packagePath: packagePath, tool: "ab")
        let productName = product ?? URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        let headLabel = (RefBuild.git(["status", "--porcelain", "--untracked-files=no"], in: packagePath) ?? "").isEmpty
            ? "HEAD \(String((RefBuild.git(["rev-parse", "HEAD"], in: packagePath) ?? "?").prefix(10)))"
            : "working tree (on \(String((RefBuild.git(["rev-parse", "HEAD"], in: packagePath) ?? "?").prefix(10))), uncommitted changes)"
        let baseLabel = "\(base) \(baseCommit.prefix(10))"
        let outDir = URL(fileURLWithPath: out)
        let work = outDir.appendingPathComponent("rounds")
        let givenBase = try baseBinary.map(absolute), givenHead = try headBinary.map(absolute)
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let a = try givenBase ?? RefBuild.buildBase(commit: baseCommit, top: top, packagePath: packagePath, product: productName, tool: "ab")
        let b = try givenHead ?? buildHead(packagePath: packagePath, product: productName)

        // 2. Rounds, interleaved, the order drawn per round.
        let seed = self.seed ?? UInt64.random(in: 1...UInt64(UInt32.max))
        var rng = SplitMix64(seed: seed)
        // Each scene named once per pass: `run` times it that many times in the one process.
        var runOptions = suites.flatMap { ["--suite", $0] } + scenes.flatMap { s in Array(repeating: ["--scene", s], count: scenePasses).joined() }
            + params.flatMap { ["--param", $0] }
        if let filter { runOptions += ["--filter", filter] }
        if quick { runOptions.append("--quick") }
        runOptions += ["--min-time", "\(minTime)"]
        progress("ab: \(rounds) rounds of base (\(baseLabel)) and head (\(headLabel))\(headEnv.isEmpty ? "" : " with \(headEnv.joined(separator: " "))"), order seed \(seed)")
        for i in 0..<max(0, warmupRounds) {
            progress("ab: warm-up round \(i + 1)/\(warmupRounds) (not judged)")
            for (side, exe) in [("base", a), ("head", b)] {
                _ = try runQuietly(exe, ["run", "--repetitions", "\(repetitions)", "--no-counts", "--no-players",
                                         "--out", work.appendingPathComponent("warmup-\(side)-\(i + 1).json").path,
                                         "--html", work.appendingPathComponent("warmup-\(side)-\(i + 1).html").path] + runOptions,
                                   head: side == "head")
            }
        }
        var baseRounds: [StrataBlock] = [], headRounds: [StrataBlock] = [], controlRounds: [StrataBlock] = []
        var baseReports: [(googleBenchmark: [String: Any], strata: StrataBlock)] = []
        var headReports: [(googleBenchmark: [String: Any], strata: StrataBlock)] = []
        for i in 1...rounds {
            // The base, the head and (unless --no-control) the base again as the A/A control,
            // in an order drawn for this round.
            var order = noControl ? ["base", "head"] : ["base", "control", "head"]
            for k in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(k, Int(rng.next() % UInt64(k + 1))) }
            for side in order {
                let report = work.appendingPathComponent("round-\(side)-\(i).json")
                progress("ab: round \(i)/\(rounds): \(side) (\(Int(Date().timeIntervalSince(started))) s)")
                let status = try runQuietly(side == "head" ? b : a,
                                            ["run", "--repetitions", "\(repetitions)", "--no-counts", "--no-players", "--out", report.path,
                                             "--html", work.appendingPathComponent("round-\(side)-\(i).html").path] + runOptions,
                                            head: side == "head")
                guard let r = try? ReportBuilder.read(report) else {
                    printError("ab: round \(i), \(side): the run wrote no readable report (exit \(status)); see \(report.path).log")
                    throw ExitCode(3)
                }
                if i == 1 && side == "head" {
                    // Scenes named with --scene that --filter leaves out: said once, as `run` says it.
                    for w in r.strata.warnings where w.hasPrefix("--scene ") { progress("ab: warning: \(w)") }
                }
                switch side {
                case "base": baseRounds.append(r.strata); baseReports.append(r)
                case "control": controlRounds.append(r.strata)
                default: headRounds.append(r.strata); headReports.append(r)
                }
            }
        }

        // 3. Counts once per build (they do not move between rounds).
        var countRows: [ComparisonRow] = []
        var notes = ["paired: \(rounds) rounds, one process of each build per round\(noControl ? "" : " and the base's again as the A/A control that measures the noise band"), order drawn at random (seed \(seed)); base \(baseLabel), head \(headLabel)\(headEnv.isEmpty ? "" : " run with \(headEnv.joined(separator: " "))")\(baseEnv.isEmpty ? "" : ", base run with \(baseEnv.joined(separator: " "))")"]
        if !noCounts {
            progress("ab: deterministic counts of each build (bodies, and each scene's frame cost)")
            // Each scene once: its frames are counted, not timed.
            let counted = suites.flatMap { ["--suite", $0] } + scenes.flatMap { ["--scene", $0] } + params.flatMap { ["--param", $0] }
                + ["--counts-only", "--no-players"] + (filter.map { ["--filter", $0] } ?? [])
            var sides: [(googleBenchmark: [String: Any], strata: StrataBlock)] = []
            for (side, exe) in [("base", a), ("head", b)] {
                let report = work.appendingPathComponent("counts-\(side).json")
                let status = try runQuietly(exe, ["run", "--out", report.path, "--html", work.appendingPathComponent("counts-\(side).html").path] + counted,
                                            head: side == "head")
                if let r = try? ReportBuilder.read(report) { sides.append(r) } else {
                    // A base from before `run --counts-only` cannot take them: said, not fatal.
                    notes.append("the \(side) build's count run failed (exit \(status); \(report.path).log): counts not compared")
                    break
                }
            }
            if sides.count == 2 {
                baseReports.insert(sides[0], at: 0)
                headReports.insert(sides[1], at: 0)
                let counts = Comparator().compare(base: sides[0].strata, head: sides[1].strata, basePath: baseLabel, headPath: headLabel)
                countRows = counts.rows.filter { $0.metric != "time" }
                notes += counts.notes.filter { !$0.hasPrefix("unpaired") }
            }
        }

        // 4. Verdicts, reports, summary.
        let rows = judge.judge(base: baseRounds, head: headRounds, control: noControl ? nil : controlRounds) + countRows
        let comparison = Comparison(baselinePath: baseLabel, headPath: headLabel, timeThreshold: judge.threshold,
                                    countThreshold: Comparator().countThreshold, sameMachine: true, notes: notes, rows: rows)
        var mergedBase = try ReportBuilder.merge(baseReports), mergedHead = try ReportBuilder.merge(headReports)
        // The merged reports show each scene once (its first pass of the first round).
        mergedBase.strata.scenes = firstPasses(mergedBase.strata.scenes)
        mergedHead.strata.scenes = firstPasses(mergedHead.strata.scenes)
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        try ReportBuilder.document(mergedBase.googleBenchmark, strata: mergedBase.strata).write(to: outDir.appendingPathComponent("base.json"), options: .atomic)
        try ReportBuilder.document(mergedHead.googleBenchmark, strata: mergedHead.strata).write(to: outDir.appendingPathComponent("head.json"), options: .atomic)
        try writeJSON(comparison, to: outDir.appendingPathComponent("compare.json").path)
        let markdown = comparison.markdown(title: "\(commandName) ab: \(headLabel) against \(baseLabel)", gate: gate)
        try markdown.write(to: outDir.appendingPathComponent("summary.md"), atomically: true, encoding: .utf8)
        if let bands = NoiseBands.measure([baseRounds + controlRounds, headRounds], source: "strata-bench ab, \(rounds) rounds",
                                          createdAt: ISO8601DateFormatter().string(from: started)) {
            try writeJSON(bands, to: outDir.appendingPathComponent("noise-bands.json").path)
            if let saveBands { try writeJSON(bands, to: saveBands) }
        }
        try writeHTML(mergedHead.strata, mergedHead.googleBenchmark, baseline: mergedBase.strata, comparison: comparison,
                      to: outDir.appendingPathComponent("ab.html").path)
        print(format == "markdown" ? markdown : comparison.table())
        let code = comparison.exitCode(gate: gate)
        progress("ab: wrote \(out)/{base,head,compare,noise-bands}.json, summary.md and ab.html in \(Int(Date().timeIntervalSince(started))) s; exit status \(code) (gate: \(gate.rawValue))")
        if code != 0 { throw ExitCode(code) }
    }

    /// Each scene's first pass, in order.
    func firstPasses(_ scenes: [SceneResult]) -> [SceneResult] {
        var seen = Set<String>()
        return scenes.filter { seen.insert($0.name).inserted }
    }

    /// The working tree, built as `swift build -c release` builds it.
    func buildHead(packagePath: String, product: String) throws -> String {
        progress("ab: building \(product) from the working tree")
        let status = try RefBuild.runStreaming("swift", ["build", "-c", "release", "--product", product], in: packagePath)
        guard status == 0 else {
            printError("ab: the working tree does not build \(product) (swift build exited \(status))")
            throw ExitCode(3)
        }
        let bin = try RefBuild.runCapturing("swift", ["build", "-c", "release", "--show-bin-path"], in: packagePath).trimmingCharacters(in: .whitespacesAndNewlines)
        return URL(fileURLWithPath: bin).appendingPathComponent(product).path
    }

    func absolute(_ path: String) throws -> String {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            printError("ab: \(path) is not an executable")
            throw ExitCode(64)
        }
        return url.path
    }

    /// Runs a round; its output goes to REPORT.log beside the report.
    func runQuietly(_ executable: String, _ arguments: [String], head: Bool = false) throws -> Int32 {
        let out = arguments.firstIndex(of: "--out").map { arguments[$0 + 1] } ?? "/dev/null"
        _ = FileManager.default.createFile(atPath: out + ".log", contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: out + ".log"))
        defer { try? log.close() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let extra = head ? headEnv : baseEnv
        if !extra.isEmpty {
            var env = ProcessInfo.processInfo.environment
            for e in extra {
                let parts = e.split(separator: "=", maxSplits: 1)
                env[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            p.environment = env
        }
        p.standardOutput = log
        p.standardError = log
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}
