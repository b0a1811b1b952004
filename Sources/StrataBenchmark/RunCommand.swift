import ArgumentParser
import Foundation
import StrataBench
import StrataBenchSuites
import StrataPicture

/// Runs the suites on Google Benchmark, the frame-time scenes and the deterministic counts,
/// and writes one JSON report (Google Benchmark's schema plus a `strata` block).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run benchmarks and scenes; write the JSON report.",
        discussion: """
        Arguments after `--` go to Google Benchmark unchanged (e.g. -- --benchmark_enable_random_interleaving=true).
        Exit status: 0 all ran, 3 a benchmark or scene failed (the report is still written).
        """)

    @Option(name: .customLong("suite"), help: "Suites to run (repeatable): \(Catalog.suites.joined(separator: ", ")). Default: all.")
    var suites: [String] = []
    @Option(help: "Regular expression over benchmark names (scenes: over `scene/NAME`, those named with --scene too).") var filter: String?
    @Flag(help: "CI's short run: the quick subset, 3 repetitions, short minimum time, short scenes.") var quick = false
    @Flag(help: "Every case of the chosen suites (the whole matrix; strata-bench's 398 take about 8 minutes), not only the headline the default run times (its headline cases, counted bodies and quick subset). Any --filter selects from every case too.")
    var full = false
    @Option(help: "Repetitions of each benchmark (Google Benchmark's --benchmark_repetitions). Default: 9, quick 3.")
    var repetitions: Int?
    @Option(help: "Minimum seconds per repetition (--benchmark_min_time). Default 0.05, quick 0.01.") var minTime: Double?
    @Option(help: "Where the JSON report goes.") var out = "reports/latest.json"
    @Option(help: "Where the HTML report goes (default: beside the JSON, .html).") var html: String?
    @Flag(help: "Skip the callgrind and malloc counts.") var noCounts = false
    @Flag(inversion: .prefixedNo, help: "Count the counted bodies (callgrind and mallocs, each in a process of its own: about 3 to 5 minutes for strata-bench's 52). Default: yes, except in the default (headline) run without --gate, which counts the scenes' frames only.")
    var bodyCounts: Bool?
    @Option(help: "Heap placements each counted body is counted under by callgrind; its figures are the median placement's (1 counts as laid out, quickly, without a range).")
    var countLayouts = Counts.defaultLayouts
    @Option(help: ArgumentHelp("Iterations of each counted body under callgrind and the malloc counter, after two warm-up iterations (fewer for a heavy body: callgrind runs it 50-100x slower). Figures are per item, so runs with different iterations compare.", valueName: "n"))
    var countIterations = Counts.defaultIterations
    @Flag(help: "Only the deterministic counts (of the chosen suites' counted bodies and the selected scenes, matching --filter): no timings.")
    var countsOnly = false
    @Option(help: ArgumentHelp("Frames of each scene counted under callgrind, after its warm-up (at most the scene's frames). Default: 100, fewer for trees over 10,000 layers (1 million layer-frames, at least 10).", valueName: "n"))
    var countFrames: Int?
    @Option(help: "Heap placements each scene is counted under by callgrind; its per-frame figures are the median placement's.")
    var countSceneLayouts = SceneCounts.defaultLayouts
    @Flag(inversion: .prefixedNo, help: "Write each scene's player beside the report (OUT.player-SCENE.html), linked from it.")
    var players = true
    @Option(name: .customLong("scene"), help: ArgumentHelp("A scene file or a built-in scene to time (repeatable). Without --suite only the scenes run.", valueName: "file"))
    var sceneFiles: [String] = []
    @Option(help: ArgumentHelp("A report to compare this run with: its count verdicts (and time differences) go to the terminal and the HTML report's headline. Default: reports/baseline.json when it exists; `none` for no comparison.", valueName: "report"))
    var baseline: String?
    @Option(help: ArgumentHelp("Gate this run on the comparison with the baseline, with `compare --gate`'s verdicts and exit status: counts, all or none (the default: the exit status says only whether the run failed).", valueName: "gate"))
    var gate = "none"
    @Option(help: ArgumentHelp("With --gate: benchmark names (a regular expression) that may be in one report only.", valueName: "pattern"))
    var allowMissing: String?
    @OptionGroup var sceneOptions: SceneOptions
    @OptionGroup var trendOptions: TrendOptions
    @Argument(parsing: .postTerminator, help: "Google Benchmark flags.") var googleBenchmarkFlags: [String] = []

    func validate() throws {
        guard (1...15).contains(countLayouts) else { throw ValidationError("--count-layouts must be in 1...15") }
        guard (1...10_000).contains(countIterations) else { throw ValidationError("--count-iterations must be in 1...10000") }
        if let f = countFrames, f < 1 { throw ValidationError("--count-frames must be at least 1") }
        if full && quick { throw ValidationError("--full and --quick choose different cases: give one") }
        guard (1...15).contains(countSceneLayouts) else { throw ValidationError("--count-scene-layouts must be in 1...15") }
        for s in suites where !Catalog.suites.contains(s) {
            throw ValidationError("unknown suite '\(s)'; suites: \(Catalog.suites.joined(separator: ", "))")
        }
        if let r = repetitions, r < 1 { throw ValidationError("--repetitions must be at least 1") }
        if let t = minTime, !(t > 0 && t.isFinite) { throw ValidationError("--min-time must be a positive number of seconds") }
        if try parseGate(gate) != .none && baselinePath == nil {
            throw ValidationError("--gate \(gate) needs a baseline: --baseline FILE (reports/baseline.json is used when it exists)")
        }
        _ = try missingPattern(allowMissing)
    }

    func run() throws {
        let started = Date()
        let chosen = suites.isEmpty ? (sceneFiles.isEmpty ? Catalog.suites : []) : suites
        // Scene files are read (and any problem reported) before anything runs.
        // Scenes named with --scene may be Swift scenes registered by name.
        let swiftNamed = sceneFiles.compactMap { n in Catalog.swiftScenes.first { $0.name == n } }
        let files = sceneFiles.filter { n in !Catalog.swiftScenes.contains { $0.name == n } }
        let programs = try sceneOptions.load(files + (chosen.contains("scenes") ? Catalog.defaultSceneFiles : []))
        let swiftScenes = swiftNamed + (chosen.contains("scenes") ? Catalog.swiftScenes.filter { s in !swiftNamed.contains { $0.name == s.name } } : [])
        let reps = repetitions ?? (quick ? 3 : 9)
        let minTime = self.minTime ?? (quick ? 0.01 : 0.05)
        // The default run times the headline (when the catalog names one); --full, --quick
        // and --filter choose from every case.
        let headlineOnly = !full && !quick && filter == nil && !Catalog.headlinePatterns.isEmpty
        let selection = quick ? "quick" : filter != nil ? "filter" : headlineOnly ? "headline" : "full"
        let cases = countsOnly ? [] : try Catalog.select(suites: chosen, quick: quick, filter: filter, headlineOnly: headlineOnly)
        var warnings: [String] = []
        if _isDebugAssertConfiguration() {
            warnings.append("\(commandName) is a debug build: timings are not representative (build with -c release)")
        }
        if let knob = ProcessInfo.processInfo.environment["STRATA_BENCH_INJECT_SLOWDOWN"] {
            warnings.append("STRATA_BENCH_INJECT_SLOWDOWN=\(knob): frame bodies carry an injected slowdown (a trust experiment, not a real run)")
        }
        if let knob = ProcessInfo.processInfo.environment["STRATA_BENCH_INJECT_CACHE_MISSES"] {
            warnings.append("STRATA_BENCH_INJECT_CACHE_MISSES=\(knob): frame bodies carry injected side-buffer loads (a trust experiment, not a real run)")
        }
        if let mismatch = MachineFingerprint.builtFromMismatch() { warnings.append(mismatch) }
        warnings.forEach { progress("warning: \($0)") }

        // 1. Google Benchmark: the suites.
        // Colour only on a terminal, and never with NO_COLOR set (no-color.org): Google
        // Benchmark's own "auto" looks at TERM alone, so a log or a file kept its escape codes.
        let gbArguments = ["--benchmark_repetitions=\(reps)", "--benchmark_min_time=\(minTime)"]
            + (ConsoleColor.enabled ? [] : ["--benchmark_color=false"]) + googleBenchmarkFlags
        var document: [String: Any] = [:]
        var summaries: [BenchmarkSummary] = []
        if !cases.isEmpty {
            let of = headlineOnly ? " (the headline of \(Catalog.cases(suites: chosen).count); --full runs them all)" : ""
            progress("running \(cases.count) benchmarks\(of) (\(reps) repetitions, min time \(minTime) s) on Google Benchmark")
            let runner = GoogleBenchmarkRunner()
            runner.register(cases)
            runner.addContext("strata_build", MachineFingerprint.compiledFlags)
            let t0 = Date()
            let (json, _) = try runner.run(arguments: gbArguments)
            document = try ReportBuilder.parseGoogleBenchmark(json, warnings: &warnings)
            summaries = ReportBuilder.summaries(document, cases: cases)
            progress("timed \(cases.count) benchmarks in \(Int(Date().timeIntervalSince(t0))) s")
        } else {
            document = ["context": [String: Any](), "benchmarks": [Any]()]
        }
        let context = document["context"] as? [String: Any] ?? [:]
        // Debian's libbenchmark is a debug build on every machine: the report's machine section
        // says so once, beside the hand-timed check that measures its effect (not a warning on
        // every run, with nothing a user could do about it).
        let buildType = context["library_build_type"] as? String ?? "unknown"

        // 2. One kernel timed by hand beside Google Benchmark's figure.
        let handCheck = try handTimedCheck(summaries: summaries, cases: cases)

        // 3. Frame-time scenes.
        var scenes: [SceneResult] = []
        let re = try filter.map { try NSRegularExpression(pattern: $0) }
        // Scenes go by `scene/NAME` under --filter.
        func selects(_ name: String) -> Bool {
            let full = "scene/\(name)"
            return re?.matches(full) ?? true
        }
        let selected = programs.filter { selects($0.name) }
        let selectedSwift = swiftScenes.filter { selects($0.name) }
        do {
            // A scene named with --scene that --filter leaves out is said, not dropped in silence.
            if let filter {
                for n in programs.prefix(files.count).map(\.name) + swiftNamed.map(\.name) where !selects(n) {
                    let w = "--scene \(n) not run: --filter '\(filter)' does not match scene/\(n) (the filter selects scenes too; add |scene/\(n) to it)"
                    warnings.append(w)
                    progress("warning: \(w)")
                }
            }
            let t0 = Date()
            scenes = countsOnly ? [] : try sceneOptions.run(selected, quick: quick, playerPath: players ? playerPath : nil, warnings: &warnings)
            if !countsOnly { scenes += try sceneOptions.run(selectedSwift, quick: quick, playerPath: players ? playerPath : nil, warnings: &warnings) }
            if !scenes.isEmpty { progress("ran \(scenes.count) scene\(scenes.count == 1 ? "" : "s") in \(Int(Date().timeIntervalSince(t0))) s") }
        }

        // 4. Deterministic counts. The headline run leaves the bodies' to CI's gate, --full,
        // --counts-only and --body-counts: under callgrind each body is counted in a process of
        // its own (a fork of a serving worker): 122 s for the quick run's 52 bodies here, where
        // the headline's timings and scenes take about 270 s.
        var counts: [CountResult] = []
        let countBodies = bodyCounts ?? (!headlineOnly || countsOnly || (Gate(rawValue: gate) ?? .none) != .none)
        if !noCounts && !countBodies && !chosen.filter({ $0 != "scenes" }).isEmpty {
            progress("the counted bodies are not counted in the headline run (--body-counts, --full or --counts-only counts them; CI's gate does)")
        }
        if !noCounts && countBodies && !chosen.filter({ $0 != "scenes" }).isEmpty {
            // The counted bodies of the chosen suites, narrowed by --filter like the timings.
            let re = try filter.map { try NSRegularExpression(pattern: $0) }
            let counted = Catalog.counted.filter { c in
                chosen.contains(c.suite)
                    && (re?.matches(c.name) ?? true)
            }
            let t0 = Date()
            counts = try countAll(counted, layouts: countLayouts, warnings: &warnings)
            if !counted.isEmpty { progress("counted \(counted.count) bodies in \(Int(Date().timeIntervalSince(t0))) s") }
        }
        // 5. The scenes' deterministic frame cost.
        if !noCounts {
            let runs = try SceneCounting.runs(selected, selectedSwift, options: sceneOptions, frames: countFrames, warnings: &warnings)
            counts += try SceneCounting.count(runs, layouts: countSceneLayouts, warnings: &warnings)
        }

        let options = RunOptions(quick: quick, suites: chosen, filter: filter, repetitions: reps, minTime: minTime,
                                 googleBenchmarkArguments: gbArguments, selection: selection)
        let gate = Gate(rawValue: gate) ?? .none
        let comparison = try writeRunReport(started: started, document: document, buildType: buildType, options: options, summaries: summaries,
                                            scenes: scenes, counts: counts, handCheck: handCheck, warnings: warnings, out: out, html: html,
                                            history: trendOptions.source, baseline: baselinePath, gate: gate)
        let failed = summaries.filter { $0.error != nil }
        for f in failed { print("FAILED \(f.name): \(f.error ?? "")") }
        if !failed.isEmpty || warnings.contains(where: { $0.hasPrefix("scene ") && $0.contains(" failed") }) {
            throw ExitCode(3)
        }
        // --gate: the comparison's verdicts decide, as `compare --gate` would.
        guard gate != .none else { return }
        guard let comparison else {
            printError("--gate \(gate.rawValue): the baseline \(baselinePath ?? "") could not be read (see the warning above)")
            throw ExitCode(5)
        }
        let allowed = try missingPattern(allowMissing)
        if let problem = comparison.coverage(gate: gate, allowMissing: allowed).problem(gate: gate) {
            print(problem)
        }
        let code = comparison.exitCode(gate: gate, allowMissing: allowed)
        print("exit status \(code) (gate: \(gate.rawValue), against \(baselinePath ?? ""))")
        if code != 0 { throw ExitCode(code) }
    }

    /// The report to compare with: `--baseline`, else reports/baseline.json when it exists
    /// (and is not the report being written).
    var baselinePath: String? {
        if let baseline { return baseline == "none" ? nil : baseline }
        let d = "reports/baseline.json"
        guard FileManager.default.fileExists(atPath: d),
              URL(fileURLWithPath: d).standardizedFileURL != URL(fileURLWithPath: out).standardizedFileURL else { return nil }
        return d
    }

    /// The player of scene `name`, beside the JSON report: `latest.json` -> `latest.player-app-10k.html`.
    func playerPath(_ name: String) -> String { Self.playerPath(beside: out, scene: name) }

    /// Where the player of scene run `name` goes beside the report `out` (OUT.player-NAME.html).
    static func playerPath(beside out: String, scene name: String) -> String {
        let base = out.hasSuffix(".json") ? String(out.dropLast(5)) : out
        return "\(base).player-\(name.replacingOccurrences(of: "/", with: "-")).html"
    }

    /// `frame/opacity/shared/basic/10000` (or the first frame case that ran) timed with a
    /// plain clock loop: 9 batches of the iteration count Google Benchmark chose, median.
    func handTimedCheck(summaries: [BenchmarkSummary], cases: [BenchmarkCase]) throws -> HandTimedCheck? {
        let preferred = "frame/opacity/shared/basic/10000"
        guard let s = summaries.first(where: { $0.name == preferred && $0.error == nil })
                ?? summaries.first(where: { $0.suite == "frame" && $0.parameters["engine"] == "strata" && $0.error == nil }),
              let c = cases.first(where: { $0.name == s.name }) else { return nil }
        let w = try c.make()
        let iterations = max(1, s.iterations.sorted()[s.iterations.count / 2])
        w.run()
        var samples: [Double] = []
        for _ in 0..<9 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { w.run() }
            let t1 = DispatchTime.now().uptimeNanoseconds
            samples.append(Double(t1 - t0) / Double(iterations * c.items))
        }
        samples.sort()
        let hand = samples[4]
        return HandTimedCheck(benchmark: s.name, googleBenchmarkNsPerItem: s.medianNsPerItem, handTimedNsPerItem: hand,
                              method: "median of 9 batches of \(iterations) iterations, DispatchTime, same fixture builder")
    }

    /// Mallocs and instructions by this executable re-run, each body in a process of its own:
    /// natively for the mallocs, under callgrind for the instructions.
    func countAll(_ counted: [BenchmarkCase], layouts: Int, warnings: inout [String]) throws -> [CountResult] {
        guard !counted.isEmpty else { return [] }
        progress("counting mallocs, instructions and simulated cache misses of \(counted.count) bodies")
        let executable = CommandLine.arguments[0].contains("/") ? URL(fileURLWithPath: CommandLine.arguments[0]).path : CommandLine.arguments[0]
        var allocations: [String: Counts.AllocationCounts] = [:]
        do {
            allocations = try Counts.allocationsEachBody(executable: executable, bodies: counted.map(\.name), iterations: countIterations,
                                                         progress: progress)
        } catch {
            warnings.append("mallocs counted in this process, after its timings (a count can then depend on what ran before it): \(error)")
        }
        var callgrind: [String: Counts.LayoutCounts] = [:]
        if Counts.valgrindAvailable {
            do {
                callgrind = try Counts.byBody(Counts.callgrindEachBody(
                    executable: executable,
                    bodies: counted.map(\.name), iterations: countIterations, layouts: layouts, progress: progress))
            } catch {
                warnings.append("instruction counts unavailable: \(error)")
            }
        } else {
            warnings.append("valgrind not found: no instruction counts (scripts/setup installs it)")
        }
        return try counted.map { c in
            let a = try allocations[c.name].map { (mallocs: $0.mallocs, frees: $0.frees, bytes: $0.bytes) } ?? Counts.allocations(c, iterations: countIterations)
            let items = Double(countIterations * max(c.items, 1))
            let placed = callgrind[c.name], g = placed?.median
            return CountResult(name: c.name, item: c.item, itemsPerIteration: c.items, iterations: countIterations,
                               instructionsPerItem: g.map { Double($0.ir) / items },
                               l1MissesPerItem: g?.cache.map { Double($0.l1Misses) / items },
                               llMissesPerItem: g?.cache.map { Double($0.llMisses) / items },
                               estimatedCyclesPerItem: g?.estimatedCycles.map { Double($0) / items },
                               layouts: placed?.layouts,
                               estimatedCyclesMinPerItem: placed?.estimatedCyclesRange.map { Double($0.lowerBound) / items },
                               estimatedCyclesMaxPerItem: placed?.estimatedCyclesRange.map { Double($0.upperBound) / items },
                               mallocsPerItem: a.mallocs, freesPerItem: a.frees, bytesAllocatedPerItem: a.bytes)
        }
    }
}

/// Writes the JSON report (Google Benchmark's document plus the `strata` block) and the HTML
/// beside it, and prints the headline: `run` and `stress` end here.
/// Returns the comparison with `baseline` (nil without one, or when it could not be read).
@discardableResult
func writeRunReport(started: Date, document: [String: Any], buildType: String, options: RunOptions, summaries: [BenchmarkSummary],
                    scenes: [SceneResult], counts: [CountResult], handCheck: HandTimedCheck?, warnings: [String],
                    out: String, html: String?, history: HistorySource? = nil, baseline: String? = nil,
                    gate: Gate = .none) throws -> Comparison? {
    var warnings = warnings
    let machine = MachineFingerprint.current(googleBenchmarkBuildType: buildType)
    if !machine.cpuFlags.contains("avx2") { warnings.append("this CPU reports no AVX2: the haswell build cannot be timed here") }
    let block = StrataBlock(createdAt: ISO8601DateFormatter().string(from: started), machine: machine, options: options,
                            benchmarks: summaries, growth: ReportBuilder.growth(summaries), scenes: scenes,
                            counts: counts, handTimedCheck: handCheck, warnings: warnings)
    let data = try ReportBuilder.document(document, strata: block)
    let url = URL(fileURLWithPath: out)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url, options: .atomic)
    let htmlPath = html ?? (out.hasSuffix(".json") ? String(out.dropLast(5)) + ".html" : out + ".html")
    // Against the baseline: the verdicts go into the HTML headline and to the terminal (the
    // run's exit status changes only with --gate, as `compare --gate` would exit).
    var against: (block: StrataBlock, comparison: Comparison)?
    if let baseline {
        do {
            var base = try ReportBuilder.read(URL(fileURLWithPath: baseline)).strata
            if options.selection == "headline" {
                // The headline run compares what it chose to run: the baseline's other cases, and
                // the bodies' counts when it did not count them, were left out by design (not
                // "missing", which would fill the report with rows nobody needs to read).
                let timed = Set(block.benchmarks.map(\.name)), counted = Set(block.counts.map(\.name))
                let before = base.benchmarks.count + base.counts.count
                base.benchmarks.removeAll { !timed.contains($0.name) }
                // The bodies' counts only when it took none (with --gate it takes them all, and a
                // body that could not be counted must still show as missing).
                if !block.counts.contains(where: { !$0.name.hasPrefix("scene/") }) {
                    base.counts.removeAll { !$0.name.hasPrefix("scene/") && !counted.contains($0.name) }
                }
                let left = before - base.benchmarks.count - base.counts.count
                if left > 0 { progress("compared with \(baseline): the headline's figures (\(left) more of the baseline's are in a --full run)") }
            }
            against = (base, Comparator().compare(base: base, head: block, basePath: baseline, headPath: out))
        } catch {
            warnings.append("baseline \(baseline) not compared: \(error)")
        }
    }
    try writeHTML(block, document, baseline: against?.block, comparison: against?.comparison, history: history, to: htmlPath)
    print("")
    print(Headline.markdown(block))
    if let c = against?.comparison {
        let counted = c.rows.filter { $0.metric != "time" }
        let by = Dictionary(grouping: counted, by: \.verdict).mapValues(\.count)
        print("")
        print("Against \(baseline ?? ""): counts \(by[.regression] ?? 0) regressed, \(by[.improvement] ?? 0) improved, \(by[.unchanged] ?? 0) unchanged"
              + ((by[.inconclusive] ?? 0) > 0 ? ", \(by[.inconclusive]!) inconclusive" : "") + ((by[.new] ?? 0) > 0 ? ", \(by[.new]!) new" : "")
              + (gate == .none ? " (`\(commandName) compare \(baseline ?? "") \(out) --gate counts`, or this run with --gate counts, gates on them)" : ""))
        for r in counted where [.regression, .improvement, .inconclusive].contains(r.verdict) {
            print("  \(r.verdictLabel) \(r.metric) \(r.formatChange(r.change)) \(r.name)")
        }
    }
    for w in warnings { print("warning: \(w)") }
    progress("wrote \(out) and \(htmlPath) in \(Int(Date().timeIntervalSince(started))) s")
    return against?.comparison
}

/// A progress line on stderr (the console table is on stdout).
/// `value` as the tools' JSON (snake_case keys, sorted, indented) at `path`.
func writeJSON<T: Encodable>(_ value: T, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(value).write(to: URL(fileURLWithPath: path), options: .atomic)
}

func progress(_ s: String) {
    FileHandle.standardError.write(Data("[strata-bench] \(s)\n".utf8))
}
