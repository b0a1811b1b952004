import ArgumentParser
import Foundation
import StrataBench
import StrataBenchSuites
import StrataScript

/// `strata-bench stress`: a tree of the shape and size asked for, animated and changed as
/// asked, run frame by frame into the frame-time histogram. The tree and its frames are a
/// scene (written with --print-scene), run by the same loader and runner as scene files.
struct StressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stress",
        abstract: "Stress a tree of your shape: frame-time histogram, hitches, memory per layer and its growth.",
        discussion: """
        Builds the tree (balanced: each layer has --fanout sublayers, breadth first; chain: each layer \
        the only sublayer of the one before; fan: every layer a sublayer of the root; random: each layer \
        under a uniformly chosen earlier one), gives --animated of its layers a repeating explicit \
        animation, and every frame makes --changes-per-frame implicit property changes on random layers. \
        Reports p50/p90/p99/p99.9/max, the shares within the 60 and 120 Hz budgets, the hitch ratio, \
        bytes per layer and the stores' growth, and the frames' deterministic cost (callgrind instructions \
        and estimated cycles per frame, by phase, and mallocs per frame; --no-counts skips it), into the \
        JSON and HTML report (--out), which `compare --gate counts` gates like any run's.
        Exit status: 0 ran, 3 a run failed, 64 usage, 65 a tree beyond the limits.
        """)

    @Option(help: "Tree shape: balanced, chain, fan or random.") var tree = "balanced"
    @Option(help: "Layers in the tree (the root not counted).") var layers = 10_000
    @Option(help: "Sublayers per layer (balanced trees).") var fanout = 4
    @Option(help: ArgumentHelp("Share of layers with a repeating explicit animation, e.g. 10% (or 10).", valueName: "percent"))
    var animated = "10%"
    @Option(help: "Implicit property changes per frame (one transaction).") var changesPerFrame = 100
    @Option(help: "Frames to time.") var frames = 600
    @Option(help: "Untimed frames first.") var warmup = 30
    @OptionGroup var sceneOptions: SceneOptions
    @Option(help: "Where the JSON report goes (the HTML beside it).") var out = "reports/stress.json"
    @Option(help: "Where the HTML report goes (default: beside the JSON, .html).") var html: String?
    @Flag(help: "Print the scene file this run is, and stop (save it to edit and run with `run --scene`).") var printScene = false
    @Flag(help: "Skip the deterministic frame cost (callgrind and malloc counts of the tree's frames).") var noCounts = false
    @Flag(inversion: .prefixedNo, help: "Write the tree's player beside the report (OUT.player-NAME.html), linked from it: its slowest two seconds, replayed after the run, and an overview.")
    var players = true
    @Option(help: ArgumentHelp("Frames counted under callgrind after the warm-up. Default: 100, fewer for trees over 10,000 layers (1 million layer-frames, at least 10).", valueName: "n"))
    var countFrames: Int?
    @Option(help: "Heap placements the tree is counted under.") var countSceneLayouts = SceneCounts.defaultLayouts

    static let trees = ["balanced", "chain", "fan", "random"]

    func validate() throws {
        guard Self.trees.contains(tree) else { throw ValidationError("--tree '\(tree)': expected \(Self.trees.joined(separator: ", "))") }
        guard layers >= 1 else { throw ValidationError("--layers must be at least 1") }
        guard fanout >= 1 else { throw ValidationError("--fanout must be at least 1") }
        guard percent != nil else { throw ValidationError("--animated '\(animated)': expected a percentage from 0 to 100, e.g. 10%") }
        guard changesPerFrame >= 0 else { throw ValidationError("--changes-per-frame must be at least 0") }
        guard frames >= 1 else { throw ValidationError("--frames must be at least 1") }
        guard warmup >= 0 else { throw ValidationError("--warmup must be at least 0") }
        if let f = countFrames, f < 1 { throw ValidationError("--count-frames must be at least 1") }
        guard (1...15).contains(countSceneLayouts) else { throw ValidationError("--count-scene-layouts must be in 1...15") }
        if !sceneOptions.params.isEmpty { throw ValidationError("--param is for scene files; stress takes its sizes as options") }
    }

    var percent: Double? {
        let t = animated.hasSuffix("%") ? String(animated.dropLast()) : animated
        guard let p = Double(t), p >= 0, p <= 100 else { return nil }
        return p
    }

    /// The scene, as a scene file's text.
    func sceneText() -> String {
        let animatedCount = Int((Double(layers) * (percent ?? 0) / 100).rounded())
        let name = "stress-\(tree)-\(layers)"
        var steps: [String] = []
        if animatedCount > 0 {
            steps.append("""
                {"animate": {"every": 100000000, "layers": "all", "pick": "sequential", "count": \(animatedCount), "key": "stress", "animations": [
                  {"kind": "basic", "keyPath": "opacity", "from": 1, "to": 0.3, "duration": 1, "autoreverses": true, "repeatCount": 1e9},
                  {"kind": "basic", "keyPath": "position", "by": [4, 4], "duration": 0.75, "autoreverses": true, "repeatCount": 1e9, "timingFunction": "easeInEaseOut"},
                  {"kind": "keyframe", "keyPath": "bounds", "values": [[0, 0, 8, 8], [0, 0, 12, 12], [0, 0, 8, 8]], "duration": 1.5, "repeatCount": 1e9}
                ]}}
            """)
        }
        if changesPerFrame > 0 {
            steps.append("""
                {"transaction": {"changes": [
                  {"layers": "all", "count": \(changesPerFrame), "oneOf": [
                    {"opacity": {"random": [0, 1]}},
                    {"position": {"random": [[0, 0], [1000, 1000]]}},
                    {"bounds": {"random": [[0, 0, 4, 4], [0, 0, 16, 16]]}},
                    {"backgroundColor": {"random": [[0, 0, 0, 1], [1, 1, 1, 1]]}}
                  ]}
                ]}}
            """)
        }
        return """
        {
          "format": "strata-scene",
          "version": 1,
          "name": "\(name)",
          "description": "strata-bench stress: a \(tree) tree of \(layers) layers\(tree == "balanced" ? " (fan-out \(fanout))" : ""), \(animatedCount) with a repeating explicit animation, \(changesPerFrame) implicit changes per frame",
          "seed": 1,
          "frames": \(frames),
          "quickFrames": \(frames),
          "warmupFrames": \(warmup),
          "layers": [
            {"generate": "\(tree)", "layers": \(layers),\(tree == "balanced" ? " \"fanout\": \(fanout)," : "") "group": "all",
             "properties": {"bounds": [0, 0, 8, 8], "position": {"grid": {"rect": [4, 4, 1000, 1000]}}, "backgroundColor": {"hue": "index"}}}
          ],
          "frame": [
        \(steps.joined(separator: ",\n"))
          ]
        }

        """
    }

    func run() throws {
        let started = Date()
        let text = sceneText()
        if printScene { print(text, terminator: ""); return }
        let program: SceneProgram
        do {
            program = try SceneLoader.load(bytes: Array(text.utf8), file: "stress")
        } catch let e as SceneLoadError {
            FileHandle.standardError.write(Data("stress: \(e.problems.map(\.message).joined(separator: "; "))\n".utf8))
            throw ExitCode(65)
        }
        progress("stress: \(program.description); \(frames) frames after \(warmup) warm-up frames")
        var warnings: [String] = []
        let scenes = try sceneOptions.run([program], quick: false, playerPath: players ? { RunCommand.playerPath(beside: out, scene: $0) } : nil,
                                          warnings: &warnings)
        for s in scenes { printHistogram(s) }
        // The tree's deterministic frame cost, as `run` counts every scene.
        var counts: [CountResult] = []
        if !noCounts {
            var runs = try SceneCounting.runs([program], [], options: sceneOptions, frames: countFrames, warnings: &warnings)
            for i in runs.indices { runs[i].text = text }
            counts = try SceneCounting.count(runs, layouts: countSceneLayouts, warnings: &warnings)
        }
        let options = RunOptions(quick: false, suites: ["stress"], filter: nil, repetitions: 1, minTime: 0, googleBenchmarkArguments: [])
        try writeRunReport(started: started, document: ["context": [String: Any](), "benchmarks": [Any]()], buildType: "none",
                           options: options, summaries: [], scenes: scenes, counts: counts, handCheck: nil, warnings: warnings,
                           out: out, html: html)
        if scenes.isEmpty || !warnings.filter({ $0.contains(" failed") }).isEmpty { throw ExitCode(3) }
    }

    /// The frame-time distribution as text: percentiles and the histogram's buckets.
    func printHistogram(_ s: SceneResult) {
        print(String(format: "\n%@: %d frames, %d layers", s.name, s.frames, s.layers))
        print(String(format: "  p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f ms", s.p50, s.p90, s.p99, s.p999, s.max))
        print(String(format: "  within 16.67 ms %.1f%%, within 8.33 ms %.1f%%, dropped %d, hitch ratio %.1f ms/s (%@ by Apple's bands; CPU-side)",
                     100 * s.withinBudget16, 100 * s.withinBudget8, s.droppedFrames, s.hitchMsPerSecond, s.hitchRating.rawValue))
        if let o = s.frameOverrunMs {
            print(String(format: "  frame overrun (Android's frameOverrunMs, CPU-side): p50 %.2f  p90 %.2f  p95 %.2f  p99 %.2f ms", o.p50, o.p90, o.p95, o.p99))
        }
        if let m = s.memory {
            print(String(format: "  %.0f bytes per layer, %.0f per running animation; stores %+d bytes, resident %+d KiB from warm-up to end",
                         m.bytesPerLayer, m.bytesPerAnimation, m.storeGrowthBytes, m.residentGrowthBytes / 1024))
        }
        let total = s.histogram.reduce(0) { $0 + $1[1] }
        guard total > 0 else { return }
        var lower = 0.0
        for b in s.histogram {
            defer { lower = b[0] }
            guard b[1] > 0 else { continue }
            let bar = String(repeating: "#", count: max(1, Int(b[1] / total * 50)))
            print(String(format: "  %8.3f - %8.3f ms %7.0f %@", lower / 1e6, b[0] / 1e6, b[1], bar))
        }
    }
}
