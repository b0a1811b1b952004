import ArgumentParser
import Foundation
import StrataBenchSuites

/// A tree of millions of layers with as many running animations: it runs (counts and sampled
/// values right) or stops at a capacity limit with a clear diagnostic. Exit 1 otherwise.
struct LimitsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limits",
        abstract: "Build a tree of N layers with M running animations and check it holds.")

    @Option(help: "Layers in the tree.") var layers = 10_000_000
    @Option(help: "Running animations (implicit changes, one per leaf).") var animations = 10_000_000
    @Option(help: "Write the result here (JSON).") var out: String?

    func run() throws {
        let r = Limits.run(layers: layers, animations: animations) { progress($0) }
        if let out { try writeJSON(r, to: out) }
        print(String(format: "limits: %d layers built in %.1f s; %d animations started in %.1f s; frames %@ ms; released in %.1f s",
                     r.layers, r.buildSeconds, r.animations, r.changeSeconds,
                     r.frameMs.map { String(format: "%.0f", $0) }.joined(separator: " / "), r.releaseSeconds))
        print("  render snapshot of the tree: full pass \(r.snapshotMs.first.map { String(format: "%.0f", $0) } ?? "-") ms, update \(r.snapshotMs.dropFirst().first.map { String(format: "%.0f", $0) } ?? "-") ms")
        print("  stores \(r.storeBytes >> 20) MiB, resident \(r.residentBytes >> 20) MiB")
        for d in r.diagnostics { print("  diagnostic: \(d)") }
        if r.passed { print("limits: PASS") } else {
            for f in r.failures { print("  FAIL: \(f)") }
            throw ExitCode(1)
        }
    }
}
