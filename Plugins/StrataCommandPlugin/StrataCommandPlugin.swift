import Foundation
import PackagePlugin

/// `swift package strata ...`: builds a package's own benchmark executables (executable
/// targets that depend on Strata's StrataBenchmark product) in release, with the CPU flags the
/// engine's SIMD kernels want when this machine has them, and runs the command in each, from
/// the package's directory: `run`, `baseline update|compare|check|list|read|delete NAME`,
/// `thresholds update|check|read`, or any other of the executable's commands. Named baselines
/// go to .strataBaselines/TARGET/, thresholds to Thresholds/TARGET.json, run reports to
/// reports/TARGET/.
@main
struct StrataCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let chosen = extractor.extractOption(named: "target")
        let configurations = extractor.extractOption(named: "configuration")
        let noTuning = extractor.extractFlag(named: "no-cpu-tuning") > 0
        var rest = extractor.remainingArguments
        if rest.first == "help" || rest.first == "--help" || rest.first == "-h" {
            print(Self.usage)
            print(try Self.benchmarkTargets(in: context.package).isEmpty
                  ? "This package has no benchmark executables yet (an executable target that depends on StrataBenchmark)."
                  : "Benchmark executables here: \(try Self.benchmarkTargets(in: context.package).map(\.name).joined(separator: ", ")).")
            return
        }
        let configuration: PackageManager.BuildConfiguration
        switch configurations.last ?? "release" {
        case "release": configuration = .release
        case "debug": configuration = .debug
        case let other: fail("--configuration \(other): release or debug", status: 64)
        }
        var targets = try Self.benchmarkTargets(in: context.package)
        if !chosen.isEmpty {
            for name in chosen where !targets.contains(where: { $0.name == name }) {
                fail("--target \(name) is not a benchmark executable of \(context.package.displayName) (those are: \(targets.map(\.name).joined(separator: ", ")))", status: 64)
            }
            targets = targets.filter { chosen.contains($0.name) }
        }
        guard !targets.isEmpty else {
            fail("\(context.package.displayName) has no benchmark executable: an executable target that depends on .product(name: \"StrataBenchmark\", package: \"Strata\") and calls StrataBenchmark.main()", status: 64)
        }
        if rest.isEmpty || rest.first!.hasPrefix("-") { rest.insert("run", at: 0) }

        var parameters = PackageManager.BuildParameters(configuration: configuration, logging: .concise)
        let tuning = noTuning || configuration == .debug ? [] : Self.cpuFlags()
        parameters.otherSwiftcFlags += tuning
        if configuration == .debug {
            print("strata: a debug build (--configuration debug): counts compare, timings are not representative")
        }
        // The commit the executables are built from, as runs record it (`history add` keys on
        // it): the package's HEAD now, before the build, "-dirty" with uncommitted changes.
        let builtFrom = Self.commit(of: context.package.directoryURL)
        var worst: Int32 = 0
        for target in targets {
            let product = context.package.products(ofType: ExecutableProduct.self).first { $0.mainTarget.id == target.id }?.name ?? target.name
            print("strata: building \(product) (\(configuration == .release ? "release" : "debug")\(tuning.isEmpty ? "" : ", " + tuning.prefix(2).joined(separator: " ")))")
            let started = Date()
            let result = try packageManager.build(.product(product), parameters: parameters)
            guard result.succeeded, let executable = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == product }) else {
                print(result.logText)
                fail("building \(product) failed", status: 1)
            }
            print("strata: built \(product) in \(Int(Date().timeIntervalSince(started).rounded())) s")
            var args = rest
            // Each target's run goes to a folder of its own.
            if args.first == "run" && !args.contains(where: { $0 == "--out" || $0.hasPrefix("--out=") }) {
                args += ["--out", "reports/\(product)/latest.json"]
            }
            print("strata: \(executable.url.path) \(args.joined(separator: " "))")
            let status = try Self.run(executable.url, args, in: context.package.directoryURL,
                                      environment: builtFrom.map { ["STRATA_BUILT_FROM": $0] } ?? [:])
            if status != 0 {
                print("strata: \(product) exited with status \(status)\(Self.meaning(status))")
                if worst != 2 && (worst == 0 || status == 2) { worst = status }
            }
        }
        if worst != 0 {
            // SwiftPM reports a command plugin's failure as exit status 1 whatever its own
            // (swiftlang/swift-package-manager#7380): the status is in the line above, and
            // the executable, run directly, exits with it.
            exit(worst)
        }
    }

    /// The executable targets of `package` that depend on StrataBenchmark, directly or through
    /// a target of their own.
    static func benchmarkTargets(in package: Package) throws -> [SwiftSourceModuleTarget] {
        func uses(_ target: Target, _ seen: inout Set<Target.ID>) -> Bool {
            guard seen.insert(target.id).inserted else { return false }
            return target.dependencies.contains { d in
                switch d {
                case .product(let p): return p.name == "StrataBenchmark"
                case .target(let t): return uses(t, &seen)
                @unknown default: return false
                }
            }
        }
        return package.targets(ofType: SwiftSourceModuleTarget.self).filter { t in
            var seen = Set<Target.ID>()
            return t.kind == .executable && uses(t, &seen)
        }
    }

    /// `-target-cpu haswell` when this machine has AVX2 and FMA (the engine's SIMD8 kernels
    /// are split into SSE halves without it), and the define by which reports say so.
    static func cpuFlags() -> [String] {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return [] }
        let set = Set(flags.split(separator: " ").map(String.init))
        return set.contains("avx2") && set.contains("fma") ? ["-target-cpu", "haswell", "-DSTRATA_TARGET_HASWELL"] : []
    }

    /// `git rev-parse HEAD` of the package, with "-dirty" when tracked files have changes; nil
    /// outside a git repository.
    static func commit(of directory: URL) -> String? {
        func git(_ args: [String]) -> String? {
            let p = Process(), out = Pipe()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["git"] + args
            p.currentDirectoryURL = directory
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { return nil }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return p.terminationStatus == 0 ? String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }
        guard let head = git(["rev-parse", "HEAD"]), !head.isEmpty else { return nil }
        let dirty = !(git(["status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty
        return head + (dirty ? "-dirty" : "")
    }

    static func run(_ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String]) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    static func meaning(_ status: Int32) -> String {
        switch status {
        case 2: return ": a regression beyond the thresholds"
        case 3: return ": a benchmark failed, or a figure is missing from this run"
        case 4: return ": improvements only (update the baseline or thresholds deliberately)"
        case 5: return ": baseline or thresholds not found, a figure not in them, or nothing compared"
        case 64: return ": usage"
        case 65: return ": bad data (a report, baseline or thresholds file)"
        default: return ""
        }
    }

    static let usage = """
    OVERVIEW: Build your benchmark executables in release and run them (Strata's command plugin).

    USAGE: swift package [--allow-writing-to-package-directory] strata [--target T ...] [--configuration release|debug]
                         [--no-cpu-tuning] <command> [options]

    COMMANDS:
      run [options]                     run the benchmarks and scenes; report in reports/TARGET/latest.json (.html)
      baseline update NAME              run and store the result as .strataBaselines/TARGET/NAME.json
      baseline compare NAME [OTHER]     compare NAME with a new run (or with baseline OTHER)
      baseline check NAME [OTHER]       the same, gated: exit status 2 regression, 4 improvements only, 5 not found
      baseline list | read NAME | delete NAME
      thresholds update                 record a run's figures in Thresholds/TARGET.json, keeping the tolerances
      thresholds check                  judge a run against Thresholds/TARGET.json
      thresholds read
      any other command of the executable (list, compare, report, scene, stress, history ...)

    Options after the command are the executable's (`swift package strata baseline check --help`).
    The build adds -target-cpu haswell when this CPU has AVX2 and FMA (--no-cpu-tuning: none).
    SwiftPM turns a plugin's exit status into 1 (swiftlang/swift-package-manager#7380); the status is printed,
    and `.build/release/TARGET COMMAND ...` exits with it.
    """
}

func fail(_ message: String, status: Int32) -> Never {
    print("strata: error: \(message)")
    exit(status)
}
