// swift-tools-version:6.1
import PackageDescription

/// Strata checked out by SwiftPM for a package that depends on it by version (or by Xcode, or
/// from a registry): SwiftPM refuses unsafe flags in such a dependency ("contains unsafe build
/// flags"), so there the manifest has none. A dependent gets the same codegen by passing the
/// flag to its whole build (`swift build -c release -Xswiftc -target-cpu -Xswiftc haswell`);
/// see README, "Depending on Strata". SwiftPM's checkouts are `SCRATCH/checkouts/NAME`
/// (whatever `--scratch-path` names), its clones `SCRATCH/repositories/`. A root clone in a
/// folder named `checkouts` loses the flag too: `build_flags` in its reports says so.
let isDependencyCheckout = ["/checkouts/", "/repositories/", "/registry/downloads/"].contains { Context.packageDirectory.contains($0) }

/// Release builds use AVX2/FMA codegen (`-target-cpu haswell`: this driver rejects
/// `x86-64-v3`, and without it SIMD8<Double> is split into SSE halves); see README.
/// `STRATA_TARGET_HASWELL` lets the benchmark tool report the flag it was built with.
let release: [SwiftSetting] = [.swiftLanguageMode(.v5)] + (isDependencyCheckout ? [] : [
    .unsafeFlags(["-target-cpu", "haswell"], .when(configuration: .release)),
    .define("STRATA_TARGET_HASWELL", .when(configuration: .release)),
])
let package = Package(
    name: "Strata",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataReference", targets: ["StrataReference"]),
        .library(name: "StrataBenchmark", targets: ["StrataBenchmark"]),
        // `swift package strata run | baseline update|compare|check NAME | thresholds update|check`.
        .plugin(name: "StrataPlugin", targets: ["StrataCommandPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
    ],
    targets: [
        // Core Graphics' value types, shared by both engines (re-exported by each).
        .target(name: "StrataGeometry", swiftSettings: release),
        // Which subclasses override a method (read from vtables): both engines ask a layer's
        // own action(forKey:) only when its class overrides it.
        .target(name: "StrataOverrides", swiftSettings: release),
        // The engine's thread-local pointer, read inline by every change's thread check.
        .target(name: "CStrataThread"),
        // The render-ready frame (RenderSnapshot), the format both engines fill and pictures draw.
        .target(name: "StrataSnapshot", dependencies: ["StrataGeometry"], swiftSettings: release),
        .target(
            name: "Strata",
            dependencies: ["StrataGeometry", "StrataSnapshot", "StrataScript", "StrataOverrides", "CStrataThread",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "HeapModule", package: "swift-collections")],
            swiftSettings: release
        ),
        // The same semantics written the classic way: the correctness oracle and baseline.
        // Core Animation's layer classes (Sources/Strata/Layers/Toolbox, listed in its
        // `shared-sources`) are compiled here too: one source for both engines.
        .target(
            name: "StrataReference",
            dependencies: ["StrataGeometry", "StrataSnapshot", "StrataOverrides"],
            exclude: ["shared-sources"],
            swiftSettings: release + [.define("STRATA_REFERENCE")],
            plugins: ["SharedSources"]
        ),
        // Operation scripts both engines run: benchmark scenes and differential-fuzzing cases.
        .target(name: "StrataScript", swiftSettings: release),
        .target(name: "StrataScriptFast", dependencies: ["Strata", "StrataScript"],
                swiftSettings: release),
        // StrataScriptFast's Shared/ folder (the script runner) is compiled here too
        // (SharedSources plugin, listed in `shared-sources`): one runner, two engines.
        .target(name: "StrataScriptReference", dependencies: ["StrataReference", "StrataScript"],
                exclude: ["shared-sources"], swiftSettings: release,
                plugins: ["SharedSources"]),
        // Both runners side by side: traces compared, failures shrunk into fixtures.
        .target(name: "StrataDifferential", dependencies: ["StrataScript", "StrataScriptFast", "StrataScriptReference",
                                                           .product(name: "Logging", package: "swift-log")],
                swiftSettings: release),
        .executableTarget(name: "strata-fuzz", dependencies: ["StrataDifferential"],
                          swiftSettings: release),
        // Counts malloc-family calls by interposing them; linked only into tests.
        .target(name: "CAllocationCounter"),
        // Google Benchmark (Debian's libbenchmark-dev) behind a C interface.
        .target(name: "CGoogleBenchmark", linkerSettings: [.linkedLibrary("benchmark"), .linkedLibrary("pthread")]),
        // Callgrind client requests: instruction counts of exactly the benchmark body.
        .target(name: "CCallgrind"),
        // SQLite (Debian's libsqlite3-dev): the benchmark history store (History.swift).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The report model (Foundation only): the JSON schema, reading, merging, comparing and the
        // statistics behind verdicts; what `compare`, `report` and the parser fuzzing need.
        .target(name: "StrataReportModel", swiftSettings: release),
        // The benchmark history (SQLite) and change-point detection.
        .target(name: "StrataHistory", dependencies: ["StrataReportModel", "CSQLite"], swiftSettings: release),
        // The harness: registration on Google Benchmark, frame-time recorder, counts; re-exports
        // the model and the history.
        .target(name: "StrataBench",
                dependencies: ["StrataReportModel", "StrataHistory", "StrataScript", "CGoogleBenchmark", "CAllocationCounter", "CCallgrind",
                               .product(name: "Histogram", package: "hdrhistogram-swift")],
                swiftSettings: release),
        // The benchmark definitions: suites and scenes on the fast engine ...
        .target(name: "StrataBenchSuites",
                dependencies: ["Strata", "StrataBench", "StrataScript", "StrataScriptFast", "StrataPicture"],
                path: "Benchmarks/Suites", swiftSettings: release),
        // ... and the same workloads on the reference engine, for the ratios.
        .target(name: "StrataBenchReference",
                dependencies: ["StrataReference", "StrataBench", "StrataScript", "StrataScriptReference", "StrataPicture"],
                path: "Benchmarks/Reference", exclude: ["shared-sources"],
                swiftSettings: release + [.define("STRATA_REFERENCE")], plugins: ["SharedSources"]),
        // Compiles the Swift files of the folders a target's `shared-sources` lists into it.
        .plugin(name: "SharedSources", capability: .buildTool()),
        // The sampling profiler: SIGPROF handler + libunwind walk in C (gcc_s linked before
        // unwind, so C++/Swift keep libgcc_s's `_Unwind_*`), the Swift API and outputs over it.
        .target(name: "CSampler", linkerSettings: [.linkedLibrary("gcc_s"), .linkedLibrary("unwind")]),
        // pprof's protobuf profile through swift-protobuf (Proto/profile.pb.swift is generated
        // by scripts/generate-pprof-proto and committed).
        .target(name: "StrataProfiler",
                dependencies: ["CSampler", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
                exclude: ["Proto/profile.proto"], swiftSettings: release),
        // The profiler's acceptance workload: commit-, lookup- and evaluate-like work, 6:3:1.
        // Optimised in the debug configuration too (the profiler is tested on optimised code),
        // so the tests' debug build makes it and scripts/test needs no release build.
        .executableTarget(name: "strata-profile-acceptance", dependencies: ["StrataProfiler"],
                          swiftSettings: release + (isDependencyCheckout ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))])),
        // cairo (Debian's libcairo2-dev): pictures of render snapshots.
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // Pictures of a RenderSnapshot (PNG, SVG) drawn with cairo; pixel comparison for goldens.
        .target(name: "StrataPicture", dependencies: ["CCairo", "StrataSnapshot", "StrataGeometry"], swiftSettings: release),
        // The self-contained HTML report: inline SVG charts, no network.
        .target(name: "StrataReport", dependencies: ["StrataReportModel", "StrataHistory"], swiftSettings: release),
        // strata-bench's command line as a library: a package's own benchmark executable
        // registers its cases and scenes and calls StrataBenchmark.main().
        .target(
            name: "StrataBenchmark",
            dependencies: ["Strata", "StrataBench", "StrataBenchSuites", "StrataBenchReference", "StrataReport", "StrataProfiler", "StrataScriptFast",
                           "StrataPicture", "StrataDifferential", "StrataScript",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: release
        ),
        .executableTarget(name: "strata-bench", dependencies: ["StrataBenchmark"], swiftSettings: release),
        // A package's own benchmark executables built in release (with -target-cpu haswell on a
        // CPU that has AVX2 and FMA) and run: baselines and thresholds kept in its repository.
        // No declared permission (a prompt on every call); on macOS the plugin sandbox needs
        // `swift package --allow-writing-to-package-directory strata ...`, as package-benchmark's.
        .plugin(name: "StrataCommandPlugin",
                capability: .command(intent: .custom(verb: "strata", description: "Build and run your Strata benchmarks; baselines and thresholds"))),
        // The engine's own tests (Tests/StrataTests, @testable) and the conformance suites
        // (Tests/Conformance, public behaviour), which StrataReferenceTests compiles too.
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata", "CAllocationCounter", "StrataDifferential", "StrataScript"],
            path: "Tests", exclude: ["Fixtures", "Fuzz", "README.md", "StrataBenchTests", "StrataDifferentialTests",
                                     "StrataPictureTests", "StrataProfilerTests", "StrataReferenceTests", "StrataReportTests"],
            sources: ["StrataTests", "Conformance"],
            // StrataDifferential links both engines; members of the reference engine's
            // extensions stay out of files that do not import it.
            swiftSettings: [.swiftLanguageMode(.v5), .enableUpcomingFeature("MemberImportVisibility")]
        ),
        .testTarget(name: "StrataProfilerTests", dependencies: ["StrataProfiler", "CSampler"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "StrataPictureTests",
                    dependencies: ["StrataPicture", "Strata", "StrataScript", "StrataScriptFast", "StrataScriptReference"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "StrataReportTests", dependencies: ["StrataReport", "StrataBench", "StrataProfiler"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(
            name: "StrataBenchTests",
            dependencies: ["StrataBench", "StrataReportModel", "StrataHistory", "StrataBenchSuites", "StrataBenchReference",
                           "StrataProfiler", "StrataBenchmark", "StrataScript", "StrataScriptFast", "StrataPicture"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "StrataDifferentialTests",
            dependencies: ["StrataDifferential", "StrataScript"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Its own tests, plus the conformance suites of Tests/Conformance (listed in
        // `shared-sources`, compiled here against StrataReference by the SharedSources
        // plugin): both engines pass the same suites.
        .testTarget(
            name: "StrataReferenceTests",
            dependencies: ["StrataReference"],
            exclude: ["shared-sources"],
            swiftSettings: [.swiftLanguageMode(.v5), .define("STRATA_REFERENCE")],
            plugins: ["SharedSources"]
        ),
    ]
)
