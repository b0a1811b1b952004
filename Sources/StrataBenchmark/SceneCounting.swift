import ArgumentParser
import Foundation
import StrataBench
import StrataBenchReference
import StrataBenchSuites
import StrataScript

/// What the callgrind worker counts: each run of a scene (a scene file copied into the
/// scratch directory, or a scene written in Swift, by name), every placement of it.
struct SceneCountJob: Codable {
    struct Run: Codable {
        /// The run's index in the counting command (dumps are named by it).
        var index: Int
        /// The name the counts are reported under (`scene/LABEL`).
        var label: String
        /// A scene file (scene files, recordings and stress trees are copied to scratch).
        var file: String?
        var parameters: [String: Double]
        /// A scene written in Swift, registered by this name.
        var swift: String?
        var engine: String
        var strategy: String?
        /// Frames to count after the scene's warm-up.
        var frames: Int
    }
    var runs: [Run]
    /// The placements to count (of each run).
    var layouts: [Int]
    /// callgrind's `--callgrind-out-file` (the planted regression reads its dumps back).
    var dumpFile: String
}

extension SceneCountJob.Run {
    /// The run, its scene read again (a file) or found among the registered Swift scenes.
    func countRun() throws -> SceneCountRun {
        let program = try file.map { try SceneLoader.load(path: $0, parameters: parameters) }
        let scene = try swift.map { name in
            guard let s = Catalog.swiftScenes.first(where: { $0.name == name }) else { throw ValidationError("no Swift scene named \(name)") }
            return s
        }
        return SceneCountRun(label: label, program: program, swift: scene, engine: engine, strategy: strategy, frames: frames)
    }
}

/// One run to count, as `run` and `stress` select it.
struct SceneCountRun {
    var label: String
    var program: SceneProgram?
    var swift: SceneBenchmark?
    var engine: String
    var strategy: String?
    var frames: Int
    /// The scene file's text, for a scene made in memory (`stress`).
    var text: String?

    /// The run's stepper with `counter` (for the malloc pass here, or callgrind's in the worker).
    func stepper(_ counter: SceneFrameCounter) throws -> SceneStepping {
        let settings = SceneRunSettings(frames: frames, strategy: strategy, label: label, counter: counter)
        if let swift { return try swift.makeRun(settings) }
        guard let program else { throw BenchmarkError("scene \(label): nothing to run") }
        return engine == "reference" ? try ReferenceScenes.makeRun(program, settings) : try Scenes.makeRun(program, settings)
    }

    var warmupFrames: Int { swift?.warmupFrames ?? program?.warmupFrames ?? 0 }
}

/// Plays a counted run: set-up, the warm-up and the counted frames, then its release, all on
/// one new thread (a fresh engine; the run's `EngineThread` is inline), the caller blocked
/// until it ends: no other thread of the process runs while a frame is counted. (Handing
/// each frame to an engine thread, the caller's few instructions on its way into the wait
/// were counted now and then: 86 instructions in one frame of two runs of one scene.)
/// Returns the frames played.
@discardableResult
func playCounted(_ run: SceneStepping, progress: @escaping (Int, Int) -> Void = { _, _ in }) throws -> Int {
    try EngineThread.run(name: "strata-counted-scene") {
        try run.setUp()
        do {
            let every = max(1, run.totalFrames / 10)
            for f in 0..<run.totalFrames {
                try run.frame(f)
                if (f + 1) % every == 0 || f + 1 == run.totalFrames { progress(f + 1, run.totalFrames) }
            }
        } catch {
            _ = try? run.finish()
            throw error
        }
        _ = try run.finish()
        return run.totalFrames
    }
}

/// The deterministic frame cost of scenes: `run` (and `stress`) count every selected scene.
enum SceneCounting {
    /// The runs of `programs` and `swiftScenes` under the engines and strategies asked for,
    /// labelled as their timed runs are.
    /// `frames`: counted frames (nil: `SceneCounts.defaultFrames` of each scene).
    static func runs(_ programs: [SceneProgram], _ swiftScenes: [SceneBenchmark], options: SceneOptions, frames: Int?,
                     warnings: inout [String]) throws -> [SceneCountRun] {
        let strategies = try options.strategies()
        var out: [SceneCountRun] = []
        for p in programs {
            let full = min(p.frames, p.recordedFrameCount ?? .max)
            let n = frames ?? SceneCounts.defaultFrames(layers: p.layers + 1)
            for (engine, strategy, label) in try options.variants(of: p.name) {
                out.append(SceneCountRun(label: label, program: p, engine: engine, strategy: strategy, frames: max(1, min(n, full))))
            }
        }
        for s in swiftScenes {
            for strategy in strategies.map({ $0.map(Optional.some) }) ?? [nil] {
                out.append(SceneCountRun(label: s.name + (strategy.map { "/\($0)" } ?? ""), swift: s, engine: "fast",
                                         strategy: strategy, frames: max(1, min(frames ?? SceneCounts.defaultFrames(layers: nil), s.frames))))
            }
        }
        return out
    }

    /// Counts `runs`: mallocs here, instructions and estimated cycles in this executable
    /// re-run under callgrind (`count-scenes-worker`), one `scene/LABEL` entry each.
    static func count(_ runs: [SceneCountRun], layouts: Int, warnings: inout [String]) throws -> [CountResult] {
        guard !runs.isEmpty else { return [] }
        var byRun: [Int: [Int: [Int: [Int: CallgrindCounts]]]] = [:]
        var seconds: [Int: Double] = [:]
        var mallocs: [MallocFrameCounter] = runs.map { _ in MallocFrameCounter() }
        if Counts.valgrindAvailable {
            do {
                (byRun, seconds, mallocs) = try countUnderCallgrind(runs, layouts: layouts, warnings: &warnings)
            } catch {
                warnings.append("scene instruction counts unavailable: \(error)")
            }
        } else {
            warnings.append("valgrind not found: no scene instruction counts (scripts/setup installs it)")
            // Mallocs alone, in this process.
            for (i, r) in runs.enumerated() {
                do { try playCounted(r.stepper(mallocs[i])) } catch { warnings.append("scene \(r.label): counts failed: \(error)") }
            }
        }
        return runs.enumerated().compactMap { i, r in
            guard !mallocs[i].frames.isEmpty else { return nil }
            let frames = SceneCounts.frameCounts(placements: byRun[i], mallocs: mallocs[i], warmupFrames: r.warmupFrames,
                                                 countingSeconds: seconds[i])
            return SceneCounts.result(name: r.label, frames: frames, mallocs: mallocs[i])
        }
    }
}

extension SceneCounting {
    /// Every placement of every run in a callgrind process of its own: its counts depend on
    /// the scene and the placement alone, not on which other scenes the command counts or in
    /// what order. Two processes run at a time (the machine's two cores; each is one thread
    /// under valgrind). Returns the dumps by run, placement, frame and phase, and each run's
    /// counting seconds (the sum over its placements).
    static func countUnderCallgrind(_ runs: [SceneCountRun], layouts: Int, warnings: inout [String]) throws
        -> ([Int: [Int: [Int: [Int: CallgrindCounts]]]], [Int: Double], [MallocFrameCounter]) {
        let executable = CommandLine.arguments[0].contains("/") ? URL(fileURLWithPath: CommandLine.arguments[0]).path : CommandLine.arguments[0]
        // The scene files, once, under names of one length (nothing in the counted process
        // depends on where the user's files are).
        let files = URL(fileURLWithPath: Counts.scratchDirectory().path + "-scenes")
        try? FileManager.default.removeItem(at: files)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: files) }
        var jobRuns: [SceneCountJob.Run] = []
        for (i, r) in runs.enumerated() {
            var file: String?
            if let p = r.program {
                let copy = files.appendingPathComponent(String(format: "scene-%04d.json", i))
                if let text = r.text {
                    try Data(text.utf8).write(to: copy)
                } else if FileManager.default.fileExists(atPath: p.file) {
                    try FileManager.default.copyItem(at: URL(fileURLWithPath: p.file), to: copy)
                } else {
                    throw BenchmarkError("scene \(r.label): its file is gone")
                }
                file = copy.path
            }
            jobRuns.append(SceneCountJob.Run(index: i, label: r.label, file: file,
                                             parameters: Dictionary(uniqueKeysWithValues: (r.program?.parameters ?? []).map { ($0.name, $0.value) }),
                                             swift: r.swift?.name, engine: r.engine, strategy: r.strategy, frames: r.frames))
        }
        // Placement -1: the run's mallocs, counted by the worker outside callgrind (a fresh
        // process too, so they do not depend on what this process did before).
        let tasks = jobRuns.flatMap { r in (-1..<max(layouts, 1)).map { (run: r, layout: $0) } }
        var mallocs: [MallocFrameCounter] = runs.map { _ in MallocFrameCounter() }
        progress("counting \(runs.count) scene run\(runs.count == 1 ? "" : "s") under callgrind, \(layouts) placement\(layouts == 1 ? "" : "s") each, two processes at a time: \(runs.map { "\($0.label) \($0.frames) frames" }.joined(separator: ", "))")
        let started = Date()
        let lock = NSLock()
        var byRun: [Int: [Int: [Int: [Int: CallgrindCounts]]]] = [:]
        var seconds: [Int: Double] = [:]
        var failures: [String] = []
        var next = 0
        var last = Date.distantPast
        func worker(_ slot: Int) {
            while true {
                lock.lock()
                let k = next
                next += 1
                lock.unlock()
                guard k < tasks.count else { return }
                let (run, layout) = tasks[k]
                let t0 = Date()
                do {
                    let scratch = Counts.scratchDirectory(k)
                    defer { try? FileManager.default.removeItem(at: scratch) }
                    let jobDir = URL(fileURLWithPath: scratch.path + "-job")
                    try? FileManager.default.removeItem(at: jobDir)
                    try FileManager.default.createDirectory(at: jobDir, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(at: jobDir) }
                    let jobFile = jobDir.appendingPathComponent("job.json")
                    let job = SceneCountJob(runs: [run], layouts: [layout], dumpFile: scratch.appendingPathComponent("callgrind.out").path)
                    try JSONEncoder().encode(job).write(to: jobFile)
                    if layout < 0 {
                        let out = jobDir.appendingPathComponent("mallocs.json")
                        try Counts.countNatively(executable: executable, ["count-scenes-worker", jobFile.path, "--mallocs", out.path],
                                                 what: "malloc count of scene \(run.label)")
                        let counted = try JSONDecoder().decode(MallocFrameCounter.self, from: Data(contentsOf: out))
                        lock.lock()
                        mallocs[run.index] = counted
                        lock.unlock()
                        continue
                    }
                    let dumps = try Counts.callgrind(executable: executable, arguments: ["count-scenes-worker", jobFile.path], scratch: scratch,
                                                     options: SceneCounts.callgrindOptions, progress: { line in
                        // "RUN LAYOUT FRAME TOTAL" from the worker, at most every 5 s.
                        let parts = line.split(separator: " ").compactMap { Int($0) }
                        lock.lock()
                        defer { lock.unlock() }
                        guard parts.count == 4, Date().timeIntervalSince(last) > 5 else { return }
                        last = Date()
                        progress(String(format: "  %@: placement %d of %d, frame %d of %d (%.0f s)", run.label, layout + 1, layouts,
                                        parts[2], parts[3], last.timeIntervalSince(started)))
                    })
                    var implausible: [String] = []
                    let counted = SceneCounts.byFrame(dumps, implausible: &implausible)
                    lock.lock()
                    defer { lock.unlock() }
                    if !implausible.isEmpty {
                        failures.append("scene \(run.label): callgrind gave a count that is not plausible (\(implausible.sorted()[0])): its instruction counts are left out")
                        byRun[run.index] = [:]
                    } else if byRun[run.index] != [:] {
                        for (l, frames) in counted[run.index] ?? [:] { byRun[run.index, default: [:]][l] = frames }
                    }
                    seconds[run.index, default: 0] += Date().timeIntervalSince(t0)
                } catch {
                    lock.lock()
                    failures.append("scene \(run.label), placement \(layout + 1): \(error)")
                    lock.unlock()
                }
            }
        }
        let group = DispatchGroup()
        // The workers share the state above under `lock`; the group's wait joins them.
        let work = HandedOver(worker)
        for slot in 0..<2 {
            group.enter()
            Thread {
                work.value(slot)
                group.leave()
            }.start()
        }
        group.wait()
        warnings += failures
        // A run whose counts were found not plausible keeps none.
        for (i, placements) in byRun where placements.isEmpty { byRun[i] = nil }
        progress(String(format: "counted the scenes in %.0f s", Date().timeIntervalSince(started)))
        return (byRun, seconds, mallocs)
    }
}

/// Runs inside callgrind, started by `run`: counts the frames of the scenes in a job file.
struct CountScenesWorker: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "count-scenes-worker", shouldDisplay: false)

    @Argument var job: String
    @Option(help: "Count the runs' mallocs (outside callgrind) and write them here, instead of counting under callgrind.")
    var mallocs: String?

    func run() throws {
        let job = try JSONDecoder().decode(SceneCountJob.self, from: Data(contentsOf: URL(fileURLWithPath: job)))
        if let mallocs {
            for r in job.runs {
                let counter = MallocFrameCounter(expectedFrames: r.frames)
                try playCounted(r.countRun().stepper(counter))
                try JSONEncoder().encode(counter).write(to: URL(fileURLWithPath: mallocs))
            }
            return
        }
        // Made (and calibrated) in every worker, planted or not: both lay out their heaps alike.
        let calibrated = InjectedFrameWork(percent: InjectedFrameWork.percentFromEnvironment ?? 0, dumpFile: job.dumpFile)
        let injection = calibrated.percent > 0 ? calibrated : nil
        for r in job.runs {
            let i = r.index
            let run = try r.countRun()
            for layout in job.layouts {
                let stepper = try run.stepper(CallgrindFrameCounter(run: i, layout: layout, injection: injection))
                let warmup = run.warmupFrames
                print("\(Counts.progressPrefix)\(i) \(layout) 0 \(stepper.totalFrames - warmup)")
                fflush(stdout)
                try playCounted(stepper) { f, total in
                    let counted = max(0, f - warmup)
                    print("\(Counts.progressPrefix)\(i) \(layout) \(counted) \(total - warmup)")
                    fflush(stdout)
                }
            }
        }
    }
}
