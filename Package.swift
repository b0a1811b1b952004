// swift-tools-version:6.1
import PackageDescription

/// Release builds that are timed use AVX2/FMA codegen (`-target-cpu haswell`); see README.
let package = Package(
    name: "Strata",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        .library(name: "StrataReference", targets: ["StrataReference"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // Core Graphics' value types, shared by both engines (re-exported by each).
        .target(name: "StrataGeometry", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(
            name: "Strata",
            dependencies: ["StrataGeometry", .product(name: "Logging", package: "swift-log")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The same semantics written the classic way: the correctness oracle and baseline.
        .target(
            name: "StrataReference",
            dependencies: ["StrataGeometry"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Operation scripts both engines run: benchmark scenes and differential-fuzzing cases.
        .target(name: "StrataScript", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "StrataScriptFast", dependencies: ["Strata", "StrataScript"],
                swiftSettings: [.swiftLanguageMode(.v5)]),
        // ScriptRunner.swift here is a link to StrataScriptFast's: one runner, two engines.
        .target(name: "StrataScriptReference", dependencies: ["StrataReference", "StrataScript"],
                swiftSettings: [.swiftLanguageMode(.v5)]),
        // Both runners side by side: traces compared, failures shrunk into fixtures.
        .target(name: "StrataDifferential", dependencies: ["StrataScript", "StrataScriptFast", "StrataScriptReference",
                                                           .product(name: "Logging", package: "swift-log")],
                swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(name: "strata-fuzz", dependencies: ["StrataDifferential"],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
        // Counts malloc-family calls by interposing them; linked only into tests.
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "strata-firstbench",
            dependencies: ["Strata"],
            path: "Benchmarks/FirstFigures",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "StrataTests",
            dependencies: ["Strata", "CAllocationCounter"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "StrataDifferentialTests",
            dependencies: ["StrataDifferential", "StrataScript"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // Its own tests, plus the behaviour and seed-example tests of StrataTests (linked
        // here, compiled against StrataReference): both engines pass the same suite.
        .testTarget(
            name: "StrataReferenceTests",
            dependencies: ["StrataReference"],
            swiftSettings: [.swiftLanguageMode(.v5), .define("STRATA_REFERENCE")]
        ),
    ]
)
