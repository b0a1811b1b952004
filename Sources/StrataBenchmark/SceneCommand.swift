import ArgumentParser
import Foundation
import StrataBench
import StrataBenchSuites
import StrataPicture
import StrataDifferential
import StrataScript

/// `strata-bench scene render|player`: see what a scene animates.
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Check, describe, picture and play scene files.",
        discussion: """
        A scene is a JSON file (format: Benchmarks/Scenes/README.md; schema: Benchmarks/Scenes/scene.schema.json), \
        or the name of a built-in one: \(Scenes.names.joined(separator: ", ")) (in \(Scenes.directory)).
        """,
        subcommands: [SceneValidateCommand.self, SceneInfoCommand.self, SceneCheckCommand.self, SceneListCommand.self,
                      SceneRenderCommand.self, ScenePlayerCommand.self])
}

/// The scene named (built-in) or a file, or a usage error listing the built-in scenes.
private func sceneName(_ name: String) throws -> String {
    guard Scenes.path(name) != nil else {
        throw ValidationError("no scene '\(name)': not a file, and not a built-in scene (\(Scenes.names.joined(separator: ", ")))")
    }
    return name
}

/// `strata-bench scene validate FILE...`
struct SceneValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scene files: every problem as FILE:LINE:COLUMN: /json/pointer: message.",
        discussion: """
        Reads each file as `run --scene` would (with the parameters given) and builds its tree, without \
        running it. Prints one line per valid file and, on standard error, one line per problem.
        Exit status: 0 every file valid, 65 a problem in a file, 66 a file missing, 64 usage.
        """)

    @Argument(help: "Scene files (or built-in scene names).") var files: [String]
    @OptionGroup var sceneOptions: SceneOptions

    func run() throws {
        var failed: Int32 = 0
        for f in files {
            do {
                let p = try sceneOptions.load([f])[0]
                print("\(Scenes.path(f) ?? f): valid: \(p.name), \(p.layers + 1) layers, depth \(p.depth), \(p.frames) frames")
            } catch let e as ExitCode {
                failed = max(failed, e.rawValue)
            }
        }
        if failed != 0 { throw ExitCode(failed) }
    }
}

/// `strata-bench scene check RECORDING`
struct SceneCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Replay a recording on the fast and the reference engine against the presentation values the program read.",
        discussion: """
        A recording is what a program linking Strata writes when run with STRATA_RECORD=FILE (or between \
        StrataRecording.begin() and .end()). Each engine replays its operations on a thread of its own; every \
        value the program read is compared (relative tolerance 1e-4) with what each engine shows there.
        Exit status: 0 every read agrees, 1 a difference (the first is named: operation index, layer, key \
        path, values), 65 the file is not a recording, 66 no such file.
        """)

    @Argument(help: "A recording (JSON).") var file: String

    func run() throws {
        guard FileManager.default.fileExists(atPath: file) else {
            FileHandle.standardError.write(Data("\(file): no such file\n".utf8))
            throw ExitCode(66)
        }
        let recording: Recording
        do {
            recording = try SceneLoader.recording(path: file)
        } catch let e as SceneLoadError {
            FileHandle.standardError.write(Data((e.description + "\n").utf8))
            throw ExitCode(65)
        } catch {
            FileHandle.standardError.write(Data("\(file): not a recording: \(error)\n".utf8))
            throw ExitCode(65)
        }
        progress("replaying \(recording.operations.count) operations (\(recording.frames) frames) of \(recording.program) on both engines")
        Differential.silenceDiagnostics()
        let outcome = RecordingCheck.check(recording)
        for n in recording.notes { print("note: \(n)") }
        if let d = outcome.difference {
            print("\(file): \(d)")
            throw ExitCode(1)
        }
        print("\(file): agrees: \(outcome.compared) presentation values read, the same on the fast and the reference engine")
    }
}

/// `strata-bench scene info FILE`
struct SceneInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "What a scene builds and does per frame: layers, depth, parameters, changes and animations per frame.",
        discussion: "Exit status: 0, 65 a problem in the file, 66 no such file, 64 usage.")

    @Argument(help: "A scene file or a built-in scene name.") var file: String
    @OptionGroup var sceneOptions: SceneOptions

    func run() throws {
        let p = try sceneOptions.load([file])[0]
        let f = p.perFrame
        func n(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(format: "%.2f", x) }
        print("\(p.name): \(p.description)")
        print("  file:        \(Scenes.path(file) ?? file)")
        print("  layers:      \(p.layers + 1) (root included), depth \(p.depth)")
        print("  frames:      \(p.frames) (quick \(p.quickFrames)), after \(p.warmupFrames) warm-up frames, \(n(1 / p.interval)) per second")
        print("  per frame:   \(n(f.changes)) property changes (\(n(f.implicit)) with actions enabled), \(n(f.explicit)) explicit animations, \(n(f.moves)) subtree moves")
        print("  animations started per frame: up to \(n(f.implicit + f.explicit)) (implicit changes find their action by lookup)")
        if p.parameters.isEmpty {
            print("  parameters:  none")
        } else {
            print("  parameters (--param NAME=VALUE):")
            for q in p.parameters {
                let range = [q.minimum.map { "min \(n($0))" }, q.maximum.map { "max \(n($0))" }].compactMap { $0 }.joined(separator: ", ")
                print("    \(q.name) = \(n(q.value))\(q.value != q.defaultValue ? " (default \(n(q.defaultValue)))" : "")\(range.isEmpty ? "" : " [\(range)]")\(q.description.isEmpty ? "" : ": \(q.description)")")
            }
        }
    }
}

/// `strata-bench scene list`
struct SceneListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The built-in scenes and what each does.")

    func run() throws {
        print("built-in scenes in \(Scenes.directory) (* run by default):")
        for name in Scenes.names {
            let d = (try? Scenes.load(name)).map { "\($0.layers + 1) layers: \($0.description)" } ?? "(does not load: `\(commandName) scene validate \(name)`)"
            print("  \(Catalog.defaultSceneFiles.contains(name) ? "*" : " ") \(name): \(d)")
        }
        if !Catalog.swiftScenes.isEmpty {
            print("scenes written in Swift (run by default):")
            for s in Catalog.swiftScenes { print("  * \(s.name): \(s.description)") }
        }
    }
}

/// `strata-bench scene render SCENE --at T [--at T ...] --out DIR`
struct SceneRenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Pictures (PNG, SVG) of a scene at given times.",
        discussion: """
        Runs the scene (untimed) on an engine of its own and draws its render snapshot at each time \
        (the frame at or before it: frames are 1/60 s apart, the set-up frame at 0) with cairo. \
        Writes SCENE-at-T.png and .svg into DIR and prints what each picture approximated.
        Exit status: 0 written, 64 usage, 65 a snapshot could not be drawn (too many layers, no \
        geometry), 1 a file could not be written.
        """)

    @Argument(help: "A scene file or a built-in scene: \(Scenes.names.joined(separator: ", ")).") var scene: String
    @OptionGroup var sceneOptions: SceneOptions
    @Option(name: .customLong("at"), help: "Media time in seconds (repeatable).") var times: [Double] = []
    @Option(help: "Directory for the pictures.") var out: String
    @Option(help: "png, svg or both.") var format = "both"
    @Option(help: "Pixels per point.") var scale = 1.0
    @Option(help: "The target-space rectangle to draw, x,y,width,height (default: the layers' bounds).") var viewport: String?
    @Option(help: "Snapshots with more layers are refused.") var maxLayers = 2_000_000

    func validate() throws {
        _ = try sceneName(scene)
        guard !times.isEmpty else { throw ValidationError("give at least one --at TIME (seconds)") }
        for t in times where !(t >= 0 && t.isFinite) { throw ValidationError("--at \(t): times are finite seconds from 0") }
        guard ["png", "svg", "both"].contains(format) else { throw ValidationError("--format is png, svg or both") }
        guard scale > 0 && scale.isFinite else { throw ValidationError("--scale must be a positive number") }
        if let v = viewport, parseViewport(v) == nil { throw ValidationError("--viewport '\(v)': expected x,y,width,height") }
    }

    func run() throws {
        var options = PictureOptions(viewport: viewport.flatMap(parseViewport), scale: scale)
        options.maxItems = maxLayers
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var failure: Error?
        let started = Date()
        let program = try sceneOptions.load([scene])[0]
        try Scenes.snapshots(program, at: times) { t, snapshot in
            let base = (out as NSString).appendingPathComponent("\(program.name)-at-\(String(format: "%.3f", t))")
            do {
                var notes = PictureNotes()
                if format != "svg" { notes = try Picture.writePNG(snapshot, to: base + ".png", options: options) }
                if format != "png" { notes = try Picture.writeSVG(snapshot, to: base + ".svg", options: options) }
                let files = format == "both" ? "\(base).png, .svg" : "\(base).\(format)"
                print("t = \(t) s: \(snapshot.count) layers, \(notes.width) x \(notes.height) px -> \(files)")
                for c in notes.caveats { print("  note: \(c)") }
                if snapshot.nonFiniteLayers > 0 { print("  note: \(snapshot.nonFiniteLayers) layer(s) with non-finite geometry left out") }
            } catch {
                failure = failure ?? error
                FileHandle.standardError.write(Data("scene render: t = \(t) s: \(error)\n".utf8))
            }
        }
        progress("rendered \(times.count) time(s) of \(program.name) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        if let failure {
            throw ExitCode(failure is PictureError ? 65 : 1)
        }
    }
}

/// "x,y,width,height" as a rectangle with a positive size.
func parseViewport(_ s: String) -> CGRect? {
    let parts = s.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4, parts.allSatisfy(\.isFinite), parts[2] > 0, parts[3] > 0 else { return nil }
    return CGRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
}

/// `strata-bench scene player SCENE --out player.html`
struct ScenePlayerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player",
        abstract: "A self-contained HTML player of a scene's frames and frame times.",
        discussion: """
        Runs the scene timed, as `run` does, and records its render snapshots: a sample of the frames \
        spread over the run and the slowest ones, within --max-bytes (fewer frames are kept when they \
        are large; the page says how many). The page plays them on a canvas with a scrubber, frame \
        stepping and the timeline of every frame's time; a click on the timeline shows the nearest \
        recorded frame. Nothing in it is fetched.
        Exit status: 0 written, 64 usage, 3 the scene failed, 1 the file could not be written.
        """)

    @Argument(help: "A scene file, a built-in scene (\(Scenes.names.joined(separator: ", "))) or a scene written in Swift that the executable registers.")
    var scene: String
    @OptionGroup var sceneOptions: SceneOptions
    @Option(help: "Where the page goes.") var out: String
    @Option(help: "Frames to run (default: the scene's own count; --quick: its short run).") var frames: Int?
    @Flag(help: "The scene's short run.") var quick = false
    @Option(help: "Bytes of recorded frames at most (the page is about 4/3 of it).") var maxBytes = 4_000_000
    @Option(help: "Frames sampled over the run at most (besides the slowest).") var sample = 120
    @Option(help: "Seconds of consecutive frames around the slowest frame, played at the scene's rate (0: none).") var windowSeconds = 2.0

    var swiftScene: SceneBenchmark? { Catalog.swiftScenes.first { $0.name == scene } }

    func validate() throws {
        if swiftScene == nil {
            guard Scenes.path(scene) != nil else {
                let swift = Catalog.swiftScenes.map(\.name)
                throw ValidationError("no scene '\(scene)': not a file, not a built-in scene (\(Scenes.names.joined(separator: ", ")))"
                                      + (swift.isEmpty ? "" : " and not a scene written in Swift (\(swift.joined(separator: ", ")))"))
            }
        }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        guard maxBytes >= 10_000 else { throw ValidationError("--max-bytes must be at least 10000") }
        guard sample >= 1 else { throw ValidationError("--sample must be at least 1") }
        guard windowSeconds >= 0 && windowSeconds <= 60 else { throw ValidationError("--window-seconds must be between 0 and 60") }
    }

    func run() throws {
        if let s = swiftScene { return try runSwift(s) }
        let program = try sceneOptions.load([scene])[0]
        let total = frames ?? (quick ? program.quickFrames : program.frames)
        let recorder = PlayerRecorder(scene: program.name, description: program.description,
                                      expectedFrames: total, byteBudget: maxBytes, sampleTarget: sample,
                                      windowFrames: PlayerRecorder.windowFrames(seconds: windowSeconds, interval: program.interval))
        recorder.fixedViewport = try sceneOptions.viewportRect()
        progress("running \(program.name) for \(total) frames, recording its player")
        let result: SceneResult
        do {
            result = try Scenes.run(program, SceneRunSettings(quick: quick, frames: total), player: recorder) { progress("  \(program.name): \($0)") }
        } catch {
            FileHandle.standardError.write(Data("scene player: \(program.name) failed: \(error)\n".utf8))
            throw ExitCode(3)
        }
        try write(recorder, result)
    }

    /// A scene written in Swift: its own code, on the fast engine, recorded as a file's is.
    func runSwift(_ s: SceneBenchmark) throws {
        let total = frames ?? (quick ? s.quickFrames : s.frames)
        let recorder = PlayerRecorder(scene: s.name, description: s.description, expectedFrames: total, byteBudget: maxBytes,
                                      sampleTarget: sample,
                                      windowFrames: PlayerRecorder.windowFrames(seconds: windowSeconds, interval: 1 / s.framesPerSecond))
        recorder.fixedViewport = try sceneOptions.viewportRect()
        progress("running \(s.name) (Swift) for \(total) frames, recording its player")
        let run = try s.makeRun(SceneRunSettings(quick: quick, frames: total), player: recorder)
        switch SceneInterleaver.run([run], progress: { progress("  \(s.name): \($0)") })[0] {
        case .success(let result): try write(recorder, result)
        case .failure(let error):
            FileHandle.standardError.write(Data("scene player: \(s.name) failed: \(error)\n".utf8))
            throw ExitCode(3)
        }
    }

    func write(_ recorder: PlayerRecorder, _ result: SceneResult) throws {
        let document = recorder.document()
        try document.write(to: out)
        print("\(out): \(document.frames.count) recorded frames of \(result.frames); p50 \(String(format: "%.3f", result.p50)) ms, p99 \(String(format: "%.3f", result.p99)) ms")
        for n in document.notes { print("  note: \(n)") }
    }
}
