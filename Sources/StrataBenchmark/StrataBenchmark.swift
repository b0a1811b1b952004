@_exported import StrataBench
@_exported import StrataScript
import ArgumentParser
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

    /// Names the headline: the cases `run` runs by default, as regular expressions over case
    /// names (searched, as `--filter` is). The default run also takes every counted body and
    /// every case of the quick subset; `run --full` (or any `--filter`) runs the whole matrix.
    /// Without a headline `run` runs every case. For a catalog whose every case takes a second
    /// or more (a matrix of sizes and variants), the headline keeps the everyday run short and
    /// its figures at full statistics.
    public static func register(headline patterns: [String]) throws {
        Catalog.headlinePatterns = try patterns.map { p in
            do { return try NSRegularExpression(pattern: p) } catch {
                throw ValidationError("headline pattern '\(p)' is not a valid regular expression")
            }
        }
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
        // The headline beside the quick subset and the counted bodies: the figures the report's
        // Trends follow, the goals table's rows at 1e4 and 1e5, and the growth of the main
        // frame kernels over three sizes. About 120 of the 398 cases, in about a quarter of the
        // time; `run --full` (which refreshes the committed baseline) times all of them.
        try! register(headline: [
            "^frame/(opacity|position|transform)/shared/basic/(1000|10000|100000)$",
            "^frame/(opacity|position)/own/(basic|keyframe|spring)/100000$",
            "^frame/position/(shared|own)/group/100000$",
            "^frame/reference/(opacity|position)/shared/basic/(10000|100000)$",
            "^frame/(opacity|position)/shared/basic/(1|2)-threads?/1000000$",
            "^commit/(implicit|implicit-over-running|explicit-basic|actions-dictionary)/(10000|100000)$",
            "^commit/reference/implicit/10000$",
            "^snapshot/(moves|moves-none)/100000$",
            "^snapshot/(full|update)/balanced/(10/)?100000$",
            "^tree/frame-(timed|plain)-root/(chain|balanced)/1000000$",
            "^tree/convert-time/chain/(10000|1000000)$",
        ])
    }

    /// Parses the command line (`arguments`, or the process's) and runs the command; exits
    /// with its status.
    public static func main(arguments: [String]? = nil) -> Never {
        StrataBenchCommand.main(arguments)
        exit(0)
    }
}
