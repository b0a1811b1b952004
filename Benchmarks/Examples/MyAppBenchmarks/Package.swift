// swift-tools-version:6.1
// An app's own benchmarks on StrataBenchmark: two benchmark cases and a scene written in
// Swift, built and run by Strata's command plugin:
//
//     swift package strata run                       # release build, then `run`
//     swift package strata baseline update main      # .strataBaselines/my-app-benchmarks/main.json
//     swift package strata baseline check main       # exit status 2 on a regression
//     swift package strata thresholds update|check   # Thresholds/my-app-benchmarks.json
//
// It depends on Strata by URL and version, as your package does. Strata's own checks build it
// against a tagged clone (STRATA_URL=file://CLONE, scripts/check-versioned-dependency) or the
// checkout it sits in (STRATA_CHECKOUT=../../.., scripts/test).
import PackageDescription

let strata: Package.Dependency = Context.environment["STRATA_CHECKOUT"].map { .package(name: "Strata", path: $0) }
    ?? .package(url: Context.environment["STRATA_URL"] ?? "https://github.com/<owner>/strata.git", from: "1.0.0")

let package = Package(
    name: "MyAppBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [strata],
    targets: [
        .executableTarget(
            name: "my-app-benchmarks",
            dependencies: [.product(name: "Strata", package: "Strata"),
                           .product(name: "StrataBenchmark", package: "Strata")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
