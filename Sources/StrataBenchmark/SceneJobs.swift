import ArgumentParser
import Foundation
import StrataBench
import StrataBenchReference
import StrataBenchSuites
import StrataPicture
import StrataScript

/// The scene options `run` and `stress` share: which engines and lookup strategies a scene
/// runs under, its parameters, and reading scene files with problems reported as a compiler
/// reports them.
struct SceneOptions: ParsableArguments {
    @Option(name: .customLong("param"), help: ArgumentHelp("A scene parameter, NAME=VALUE (repeatable); `strata-bench scene info FILE` lists them.", valueName: "name=value"))
    var params: [String] = []
    @Option(help: ArgumentHelp("Lookup strategies to run each scene under, side by side: chain, interned, cached (comma-separated). Default: the engine's own (interned).", valueName: "list"))
    var strategy: String?
    @Option(help: ArgumentHelp("Engines to run each scene on, side by side: fast, reference (comma-separated). Default: fast.", valueName: "list"))
    var engine: String?
    @Option(help: ArgumentHelp("The area a player page shows: X,Y,WIDTH,HEIGHT in the root's coordinates. Default: the root's bounds, or what layers that mask to bounds leave visible.", valueName: "x,y,w,h"))
    var viewport: String?

    static let strategies = ["chain", "interned", "cached"]
    static let engines = ["fast", "reference"]

    func validate() throws {
        _ = try parameters()
        _ = try strategies()
        _ = try engines()
        _ = try viewportRect()
    }

    /// `--viewport` as a rectangle (nil: the default).
    func viewportRect() throws -> CGRect? {
        guard let viewport else { return nil }
        let v = viewport.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 4, let x = v[0], let y = v[1], let w = v[2], let h = v[3],
              [x, y, w, h].allSatisfy(\.isFinite), w > 0, h > 0 else {
            throw ValidationError("--viewport '\(viewport)': give X,Y,WIDTH,HEIGHT, finite, with a positive width and height (e.g. 0,0,390,844)")
        }
        return CGRect(x: x, y: y, width: w, height: h)
    }

    func parameters() throws -> [String: Double] {
        var out: [String: Double] = [:]
        for p in params {
            let parts = p.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let v = Double(parts[1].replacingOccurrences(of: "_", with: "")), v.isFinite else {
                throw ValidationError("--param '\(p)': expected NAME=NUMBER")
            }
            out[parts[0]] = v
        }
        return out
    }

    func list(_ s: String?, _ known: [String], _ flag: String) throws -> [String]? {
        guard let s else { return nil }
        let items = s.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.isEmpty else { throw ValidationError("--\(flag): expected one or more of \(known.joined(separator: ", "))") }
        for i in items where !known.contains(i) {
            throw ValidationError("--\(flag) '\(i)': expected \(known.joined(separator: ", "))")
        }
        return items
    }

    func strategies() throws -> [String]? { try list(strategy, Self.strategies, "strategy") }
    func engines() throws -> [String]? { try list(engine, Self.engines, "engine") }

    /// The runs of scene `name` the options ask for: each engine, and on the fast engine each
    /// strategy (the reference engine walks the literal chain, once), labelled
    /// `name[/engine][/strategy]` by the options given.
    func variants(of name: String) throws -> [(engine: String, strategy: String?, label: String)] {
        let engines = try engines()
        let strategies = try strategies()
        return (engines ?? ["fast"]).flatMap { engine -> [(engine: String, strategy: String?, label: String)] in
            let mine: [String?] = engine == "reference" ? [nil] : strategies.map { $0.map(Optional.some) } ?? [nil]
            return mine.map { strategy in
                (engine, strategy, name + (engines != nil ? "/\(engine)" : "") + (strategy.map { "/\($0)" } ?? ""))
            }
        }
    }

    /// Reads every scene before anything runs: a problem in any of them stops the command
    /// (exit 65) with one `FILE:LINE:COLUMN: pointer: message` line per problem; an unknown
    /// `--param` is a usage error (64).
    func load(_ names: [String]) throws -> [SceneProgram] {
        let params = try parameters()
        // Each file's parameter names, read once.
        var known: [String: Set<String>] = [:]
        for n in names { if let p = Scenes.path(n), known[p] == nil { known[p] = Set(SceneLoader.parameterNames(path: p)) } }
        let everyKnown = known.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        for k in params.keys.sorted() where !everyKnown.contains(k) {
            throw ValidationError("--param \(k): no scene given has that parameter (\(everyKnown.isEmpty ? "they have none" : everyKnown.sorted().joined(separator: ", ")))")
        }
        var programs: [SceneProgram] = []
        var failed = false
        for n in names {
            guard let path = Scenes.path(n) else {
                FileHandle.standardError.write(Data("\(n): no such scene file, and not a built-in scene (\(Scenes.names.joined(separator: ", ")))\n".utf8))
                throw ExitCode(66)
            }
            // Parameters a scene does not have are usage errors, unless another scene given has them.
            let mine = params.filter { known[path]?.contains($0.key) == true }
            do {
                programs.append(try SceneLoader.load(path: path, parameters: mine))
            } catch let e as SceneLoadError {
                FileHandle.standardError.write(Data((e.description + "\n").utf8))
                failed = true
            }
        }
        if failed { throw ExitCode(65) }
        return programs
    }

    /// Runs every scene under every engine and strategy asked for, named
    /// `scene[/engine][/strategy]` by the options given. The runs of one scene go side by
    /// side, their frames interleaved (`SceneInterleaver`), so the comparison is paired frame
    /// by frame. The reference engine always walks the literal chain: it runs once, whatever
    /// the strategies. A failure is a warning (and the caller's exit 3); the other runs go on.
    func run(_ programs: [SceneProgram], quick: Bool, frames: Int? = nil, playerPath: ((String) -> String)?,
             warnings: inout [String]) throws -> [SceneResult] {
        var results: [SceneResult] = []
        for p in programs {
            var runs: [SceneStepping] = []
            var players: [(PlayerRecorder, String)] = []
            let count = frames ?? (quick ? p.quickFrames : p.frames)
            for (engine, strategy, label) in try variants(of: p.name) {
                let settings = SceneRunSettings(quick: quick, frames: frames, strategy: strategy, label: label)
                do {
                    if engine == "reference" {
                        runs.append(try ReferenceScenes.makeRun(p, settings))
                    } else {
                        var recorder: PlayerRecorder?
                        if let playerPath {
                            let r = PlayerRecorder(scene: label, description: p.description, expectedFrames: count,
                                                   windowFrames: PlayerRecorder.windowFrames(seconds: 2, interval: p.interval))
                            r.fixedViewport = try viewportRect()
                            players.append((r, playerPath(label)))
                            recorder = r
                        }
                        runs.append(try Scenes.makeRun(p, settings, player: recorder))
                    }
                } catch {
                    warnings.append("scene \(label) failed: \(error)")
                }
            }
            guard !runs.isEmpty else { continue }
            progress("scene \(p.name)\(quick ? " (quick)" : ""): \(p.layers + 1) layers, \(count) frames after \(p.warmupFrames) warm-up frames"
                     + (runs.count > 1 ? "; \(runs.count) runs side by side, frames interleaved: \(runs.map(\.label).joined(separator: ", "))" : ""))
            let outcomes = SceneInterleaver.run(runs) { progress("  \(p.name): \($0)") }
            for (run, outcome) in zip(runs, outcomes) {
                switch outcome {
                case .success(var result):
                    if let (recorder, path) = players.first(where: { $0.0.scene == run.label }) {
                        try recorder.document().write(to: path)
                        result.player = URL(fileURLWithPath: path).lastPathComponent
                        progress("  \(run.label): player \(path)")
                    }
                    progress(String(format: "  %@: p50 %.3f ms, p99 %.3f ms", run.label, result.p50, result.p99))
                    results.append(result)
                case .failure(let error):
                    warnings.append("scene \(run.label) failed: \(error)")
                }
            }
        }
        return results
    }

    /// Scenes written in Swift, each under every strategy asked for (the fast engine only:
    /// they are written against Strata's layers), side by side as scene files are.
    func run(_ scenes: [SceneBenchmark], quick: Bool, frames: Int? = nil, playerPath: ((String) -> String)? = nil,
             warnings: inout [String]) throws -> [SceneResult] {
        let strategies = try strategies()
        if try engines()?.contains("reference") == true && !scenes.isEmpty {
            warnings.append("scenes written in Swift run on the fast engine only (they use Strata's own layers): \(scenes.map(\.name).joined(separator: ", "))")
        }
        var results: [SceneResult] = []
        for s in scenes {
            var runs: [SceneStepping] = []
            var players: [(PlayerRecorder, String)] = []
            let count = frames ?? (quick ? s.quickFrames : s.frames)
            for strategy in strategies.map({ $0.map(Optional.some) }) ?? [nil] {
                let label = s.name + (strategy.map { "/\($0)" } ?? "")
                var recorder: PlayerRecorder?
                if let playerPath {
                    let r = PlayerRecorder(scene: label, description: s.description, expectedFrames: count,
                                           windowFrames: PlayerRecorder.windowFrames(seconds: 2, interval: 1 / s.framesPerSecond))
                    r.fixedViewport = try viewportRect()
                    players.append((r, playerPath(label)))
                    recorder = r
                }
                runs.append(try s.makeRun(SceneRunSettings(quick: quick, frames: frames, strategy: strategy, label: label), player: recorder))
            }
            progress("scene \(s.name) (Swift)\(quick ? " (quick)" : ""): \(count) frames after \(s.warmupFrames) warm-up frames")
            for (run, outcome) in zip(runs, SceneInterleaver.run(runs) { progress("  \(s.name): \($0)") }) {
                switch outcome {
                case .success(var r):
                    if let (recorder, path) = players.first(where: { $0.0.scene == run.label }) {
                        try recorder.document().write(to: path)
                        r.player = URL(fileURLWithPath: path).lastPathComponent
                        progress("  \(run.label): player \(path)")
                    }
                    progress(String(format: "  %@: p50 %.3f ms, p99 %.3f ms", run.label, r.p50, r.p99))
                    results.append(r)
                case .failure(let e): warnings.append("scene \(run.label) failed: \(e)")
                }
            }
        }
        return results
    }
}
