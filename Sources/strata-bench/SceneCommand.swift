import ArgumentParser
import Foundation
import StrataBench
import StrataBenchSuites
import StrataPicture

/// `strata-bench scene render|player`: see what a scene animates.
struct SceneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scene",
        abstract: "Pictures and a player of a frame-time scene.",
        discussion: "Scenes: \(Scenes.names.joined(separator: ", ")).",
        subcommands: [SceneRenderCommand.self, ScenePlayerCommand.self])
}

/// The scene named, or a usage error listing the scenes.
private func sceneName(_ name: String) throws -> String {
    guard Scenes.names.contains(name) else {
        throw ValidationError("no scene named '\(name)'; scenes: \(Scenes.names.joined(separator: ", "))")
    }
    return name
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

    @Argument(help: "The scene: \(Scenes.names.joined(separator: ", ")).") var scene: String
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
        try Scenes.snapshots(scene, at: times) { t, snapshot in
            let base = (out as NSString).appendingPathComponent("\(scene)-at-\(String(format: "%.3f", t))")
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
        progress("rendered \(times.count) time(s) of \(scene) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
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

    @Argument(help: "The scene: \(Scenes.names.joined(separator: ", ")).") var scene: String
    @Option(help: "Where the page goes.") var out: String
    @Option(help: "Frames to run (default: the scene's own count; --quick: its short run).") var frames: Int?
    @Flag(help: "The scene's short run.") var quick = false
    @Option(help: "Bytes of recorded frames at most (the page is about 4/3 of it).") var maxBytes = 4_000_000
    @Option(help: "Frames sampled over the run at most (besides the slowest).") var sample = 120

    func validate() throws {
        _ = try sceneName(scene)
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        guard maxBytes >= 10_000 else { throw ValidationError("--max-bytes must be at least 10000") }
        guard sample >= 1 else { throw ValidationError("--sample must be at least 1") }
    }

    func run() throws {
        let total = frames ?? Scenes.frames(scene, quick: quick) ?? 1
        let recorder = PlayerRecorder(scene: scene, description: Scenes.definitions.first { $0.name == scene }?.description ?? "",
                                      expectedFrames: total, byteBudget: maxBytes, sampleTarget: sample)
        progress("running \(scene) for \(total) frames, recording its player")
        let result: SceneResult
        do {
            result = try Scenes.run(scene, quick: quick, frames: total, player: recorder) { progress("  \(scene): \($0)") }
        } catch {
            FileHandle.standardError.write(Data("scene player: \(scene) failed: \(error)\n".utf8))
            throw ExitCode(3)
        }
        let document = recorder.document()
        try document.write(to: out)
        print("\(out): \(document.frames.count) recorded frames of \(result.frames); p50 \(String(format: "%.3f", result.p50)) ms, p99 \(String(format: "%.3f", result.p99)) ms")
        for n in document.notes { print("  note: \(n)") }
    }
}
