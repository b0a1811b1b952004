import Foundation

/// What a timing depends on besides the code: the machine, the toolchain, the build and the
/// tools that were there. Two runs compare on time only when their `timingKey`s match.
public struct MachineFingerprint: Codable, Equatable {
    /// `model name` from /proc/cpuinfo.
    public var cpuModel: String
    /// Active processors.
    public var cores: Int
    /// The CPU flags that change codegen or measurement (avx2, fma, avx512f, ...).
    public var cpuFlags: [String]
    /// Physical memory (MemTotal), bytes.
    public var memoryBytes: UInt64
    /// `uname -sr`.
    public var kernel: String
    /// The first line of `swift --version`.
    public var swiftVersion: String
    /// `git rev-parse HEAD` of the working directory, or `unknown`.
    public var gitCommit: String
    /// Tracked files had uncommitted changes.
    public var gitDirty: Bool
    /// `release` or `debug` (debug timings are not worth comparing).
    public var buildConfiguration: String
    /// Codegen flags the engine was compiled with (`-target-cpu haswell` in release).
    public var buildFlags: String
    /// Debian's libbenchmark-dev package version (`dpkg-query`), or `unknown`.
    public var googleBenchmarkVersion: String
    /// The build type Google Benchmark reports in its context (`debug` on Debian).
    public var googleBenchmarkBuildType: String
    /// `valgrind --version`, or nil.
    public var valgrind: String?
    /// Whether `perf stat -e instructions` works here (hardware counters in this VM).
    public var perfAvailable: Bool
    /// The host's name (several hosts may share a `timingKey`).
    public var hostname: String

    /// The fields a time comparison requires equal.
    public var timingKey: String {
        [cpuModel, "\(cores)", cpuFlags.joined(separator: ","), swiftVersion, buildConfiguration, buildFlags].joined(separator: "|")
    }

    /// Reads this machine (a few short subprocesses: swift, git, valgrind, perf, dpkg).
    public static func current(googleBenchmarkBuildType: String = "unknown") -> MachineFingerprint {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "unknown"
        let flagLine = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }.map(String.init) ?? ""
        let flags = Set(flagLine.split(separator: ":", maxSplits: 1).last?.split(separator: " ").map(String.init) ?? [])
        let interesting = ["sse4_2", "avx", "avx2", "fma", "bmi2", "avx512f", "avx512vl", "hypervisor"]
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memKB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal") }
            .flatMap { UInt64($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let swift = run("swift", ["--version"]).map { firstLine($0) } ?? "unknown"
        let here = workingTreeCommit()
        // Built by the command plugin: the commit it built from (the binary's), not the
        // working tree's now (`builtFromMismatch` says when they differ).
        let built = builtFrom
        let commit = built?.commit ?? here.commit
        let dirty = built?.dirty ?? here.dirty
        let valgrind = run("valgrind", ["--version"]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let perf = run("perf", ["stat", "-e", "instructions", "-x", ",", "true"], allowFailure: false).map { !$0.contains("not supported") } ?? false
        let gb = run("dpkg-query", ["-W", "-f=${Version}", "libbenchmark-dev"]) ?? "unknown"
        return MachineFingerprint(
            cpuModel: model, cores: ProcessInfo.processInfo.activeProcessorCount,
            cpuFlags: interesting.filter { flags.contains($0) }, memoryBytes: memKB * 1024,
            kernel: run("uname", ["-sr"]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown",
            swiftVersion: swift, gitCommit: commit, gitDirty: dirty,
            buildConfiguration: buildConfiguration,
            buildFlags: compiledFlags, googleBenchmarkVersion: gb, googleBenchmarkBuildType: googleBenchmarkBuildType,
            valgrind: valgrind, perfAvailable: perf, hostname: ProcessInfo.processInfo.hostName)
    }

    /// `git rev-parse HEAD` of the working directory and whether tracked files changed.
    public static func workingTreeCommit() -> (commit: String, dirty: Bool) {
        let commit = run("git", ["rev-parse", "HEAD"]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown"
        let dirty = !(run("git", ["status", "--porcelain", "--untracked-files=no"]) ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        return (commit.isEmpty ? "unknown" : commit, dirty)
    }

    /// The commit the running executable was built from, when its builder said
    /// (`STRATA_BUILT_FROM=SHA` or `SHA-dirty`, set by the command plugin as it builds).
    public static var builtFrom: (commit: String, dirty: Bool)? {
        guard let v = ProcessInfo.processInfo.environment["STRATA_BUILT_FROM"], !v.isEmpty else { return nil }
        return v.hasSuffix("-dirty") ? (String(v.dropLast(6)), true) : (v, false)
    }

    /// A warning when the executable was built from another commit than the working tree's
    /// (a run records the build's: what was measured).
    public static func builtFromMismatch() -> String? {
        guard let built = builtFrom else { return nil }
        let here = workingTreeCommit()
        guard here.commit != "unknown", built.commit != here.commit || built.dirty != here.dirty else { return nil }
        return "this executable was built from \(built.commit.prefix(12))\(built.dirty ? " with uncommitted changes" : ""), the working tree is at \(here.commit.prefix(12))\(here.dirty ? " with uncommitted changes" : ""): the run records the build's commit"
    }

    /// The engine's codegen flags, known at compile time through Package.swift's define.
    public static var compiledFlags: String {
        #if STRATA_TARGET_HASWELL
        return "-O -target-cpu haswell"
        #elseif DEBUG
        return "-Onone"
        #else
        return "-O (no -target-cpu: SIMD8 split into SSE halves)"
        #endif
    }

    /// The build configuration this code was compiled in (SwiftPM defines DEBUG in debug).
    public static var buildConfiguration: String {
        #if DEBUG
        return "debug"
        #else
        return "release"
        #endif
    }

    static func firstLine(_ s: String) -> String {
        String(s.split(separator: "\n").first ?? "").trimmingCharacters(in: .whitespaces)
    }

    /// Output of a command found on PATH, or nil if it is missing or (unless allowed) fails.
    package static func run(_ tool: String, _ arguments: [String], allowFailure: Bool = false) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        do { try p.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard allowFailure || p.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
