import Foundation
import StrataBench
import StrataScript
import StrataPicture
@_spi(Benchmarks) import Strata

/// Frame-time scenes: app frame loops read from scene files (Benchmarks/Scenes/*.json, or a
/// user's own file) and timed frame by frame into an HdrHistogram. Each frame's operations
/// are generated and resolved (`ScriptSession.prepare`: layers found, key paths matched,
/// values built) before the frame is timed; the time covers applying them (the app's setter
/// calls in transactions, explicit animations, tree changes) and the frame a renderer takes:
/// commit, render, the render snapshot, end of frame.
public enum Scenes {
    /// The scenes `run` times by default (files in `directory`).
    public static let defaultNames = ["app-10k", "stress-100k"]

    /// Where the built-in scene files are: `$STRATA_SCENES`, else `Benchmarks/Scenes` of the
    /// source tree this tool was built from, else of the working directory.
    public static var directory: String {
        if let d = ProcessInfo.processInfo.environment["STRATA_SCENES"], !d.isEmpty { return d }
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenes").path
        if FileManager.default.fileExists(atPath: here) { return here }
        return "Benchmarks/Scenes"
    }

    /// The built-in scenes: every scene file in `directory`, by name.
    public static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The file of a built-in scene `name`, or `name` itself when it is a path to a file.
    public static func path(_ nameOrPath: String) -> String? {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
            return FileManager.default.fileExists(atPath: nameOrPath) ? nameOrPath : nil
        }
        let p = (directory as NSString).appendingPathComponent(nameOrPath + ".json")
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }

    /// Reads a built-in scene or a scene file; problems come as `SceneLoadError`.
    public static func load(_ nameOrPath: String, parameters: [String: Double] = [:]) throws -> SceneProgram {
        guard let p = path(nameOrPath) else {
            throw BenchmarkError("no scene \(nameOrPath): not a file, and not one of the built-in scenes (\(names.joined(separator: ", ")) in \(directory))")
        }
        return try SceneLoader.load(path: p, parameters: parameters)
    }

    /// The whole scene as one script (for writing out or replaying on the reference engine).
    public static func script(_ nameOrPath: String, frames: Int) -> Script? {
        (try? load(nameOrPath))?.script(frames: frames)
    }

    /// Runs `program` on the fast engine, on a thread and engine of its own.
    public static func run(_ program: SceneProgram, _ settings: SceneRunSettings = SceneRunSettings(), player: PlayerRecorder? = nil,
                           progress: @escaping (String) -> Void = { _ in }) throws -> SceneResult {
        try SceneRunner.run(program, settings, player: player, progress: progress)
    }

    /// A run of `program` on the fast engine to advance frame by frame beside others
    /// (`SceneInterleaver`).
    public static func makeRun(_ program: SceneProgram, _ settings: SceneRunSettings, player: PlayerRecorder? = nil) throws -> SceneStepping {
        try SceneRun(program, settings, player: player)
    }

    /// Runs the built-in scene or scene file `name` (its short run when `quick`).
    public static func run(_ name: String, quick: Bool, frames: Int? = nil, player: PlayerRecorder? = nil,
                           progress: @escaping (String) -> Void = { _ in }) throws -> SceneResult {
        try run(load(name), SceneRunSettings(quick: quick, frames: frames), player: player, progress: progress)
    }

    /// Runs `program` untimed and hands `body` the render snapshot at each of `times`.
    public static func snapshots(_ program: SceneProgram, at times: [Double], maxFrames: Int = 200_000,
                                 _ body: @escaping (Double, RenderSnapshot) throws -> Void) throws {
        try SceneRunner.snapshots(program, at: times, maxFrames: maxFrames, body)
    }
}
