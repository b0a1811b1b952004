@_exported import StrataBench
@_exported import StrataScript
import Foundation
import StrataBenchReference
import StrataBenchSuites

/// Benchmarks of your own, with strata-bench's command line: your package's executable
/// registers benchmark cases, scene files and scenes written in Swift, then hands over to
/// `main()`, which gives it `run` (Google Benchmark, frame-time scenes, counts, the JSON
/// and HTML report, players), `list`, `compare` (and its gate), `report`, `merge`,
/// `profile`, `scene` and `stress`, with the same options and exit codes.
///
///     import Strata
///     import StrataBenchmark
///
///     StrataBenchmark.register(suite: "cards", counted: ["cards/flip/100"]) {
///         [BenchmarkCase("cards/flip/100", items: 100, item: "layer") { try makeFlip(100) }]
///     }
///     StrataBenchmark.register(scene: SceneBenchmark(name: "feed", frames: 600, setUp: { root in ... },
///                                                    frame: { f, root in ... }))
///     StrataBenchmark.main()
///
/// Benchmarks/Examples/MyAppBenchmarks is a whole package doing this.
public enum StrataBenchmark {
    /// Adds a suite: `run --suite NAME` runs its cases (all suites run by default). Cases
    /// named in `counted` also get instruction (callgrind) and malloc counts, which
    /// `compare --gate counts` gates on.
    public static func register(suite: String, counted: [String] = [], cases: @escaping () -> [BenchmarkCase]) {
        Catalog.registered.removeAll { $0.name == suite }
        Catalog.registered.append(Catalog.Suite(name: suite, cases: cases))
        Catalog.countedNames.formUnion(counted)
    }

    /// Adds a scene file (a path, or the name of one of strata-bench's scenes) to the scenes
    /// `run` times by default.
    public static func register(sceneFile: String) {
        if !Catalog.defaultSceneFiles.contains(sceneFile) { Catalog.defaultSceneFiles.append(sceneFile) }
    }

    /// Adds a scene written in Swift (your own layers and code) to the scenes `run` times by
    /// default; `run --scene NAME` runs it alone.
    public static func register(scene: SceneBenchmark) {
        Catalog.swiftScenes.removeAll { $0.name == scene.name }
        Catalog.swiftScenes.append(scene)
    }

    /// Adds strata-bench's own suites (commit, lookup, frame, tree, snapshot, each with the
    /// reference engine's cases beside it) and its default scenes.
    public static func registerBuiltIns() {
        for s in Suites.names {
            register(suite: s, counted: Suites.countedNames) {
                Suites.cases(s) + (s == "frame" ? ReferenceSuite.cases() : []) + (s == "snapshot" ? ReferenceSuite.snapshotCases() : [])
            }
        }
        for s in Scenes.defaultNames { register(sceneFile: s) }
    }

    /// Parses the command line (`arguments`, or the process's) and runs the command; exits
    /// with its status.
    public static func main(arguments: [String]? = nil) -> Never {
        StrataBenchCommand.main(arguments)
        exit(0)
    }
}
