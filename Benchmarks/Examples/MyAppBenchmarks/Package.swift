// swift-tools-version:6.1
// An app's own benchmarks on StrataBenchmark: two benchmark cases and a scene written in
// Swift, run with strata-bench's command line (`swift run -c release my-app-benchmarks run`).
// It depends on Strata by path (a real package would use Strata's URL and a version).
import PackageDescription

let package = Package(
    name: "MyAppBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Strata", path: "../../..")],
    targets: [
        .executableTarget(
            name: "my-app-benchmarks",
            dependencies: [.product(name: "Strata", package: "Strata"),
                           .product(name: "StrataBenchmark", package: "Strata")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
