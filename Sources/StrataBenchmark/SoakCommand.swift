import ArgumentParser
import Foundation
import StrataBenchSuites

/// The soak: a large tree under constant churn for many frames, its invariants checked as
/// it runs (layers, animations, completion blocks, callbacks, store capacities, resident
/// memory). Exit status 0 when they all held, 1 when one did not.
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Run a large layer tree under churn for many frames and check nothing leaks or grows.")

    @Option(help: "Layers in the tree.") var layers = 100_000
    @Option(help: "Frames to run.") var frames = 1_000_000
    @Option(help: "Layers released and replaced per frame.") var churn = 100
    @Option(help: "Implicit property changes per frame (one transaction).") var changes = 1_000
    @Option(help: "Explicit animations added (or removed) per frame.") var explicit = 50
    @Option(help: "Frames between readings.") var checkEvery = 10_000
    @Option(help: "Frames before the memory baseline is read.") var warmup = 2_000
    @Option(help: "Write the readings and the verdict here (JSON).") var out: String?

    func run() throws {
        var c = Soak.Configuration()
        c.layers = layers; c.frames = frames; c.churn = churn; c.changes = changes; c.explicit = explicit
        c.checkEvery = max(1, checkEvery); c.warmupFrames = min(warmup, frames)
        progress("soak: \(layers) layers, \(frames) frames; per frame \(churn) layers replaced, \(changes) changes, \(explicit) explicit animations")
        let r = Soak.run(c) { progress($0) }
        if let out { try writeJSON(r, to: out) }
        print(String(format: "soak: %d frames of %d layers in %.0f s; %d layers released and replaced; %d transactions, %d explicit animations",
                     r.frames, r.layers, r.seconds, r.layersReleased, r.transactions, r.explicitAdded))
        print("  stores after the warm-up \(r.warmupStoreBytes >> 20) MiB, peak \(r.peakStoreBytes >> 20) MiB; resident after the warm-up \(r.warmupResidentBytes >> 20) MiB, peak \(r.peakResidentBytes >> 20) MiB")
        print("  completion blocks not run \(r.completionsNotRun), run twice \(r.completionsRunTwice); stops missing \(r.stopsMissing), repeated \(r.stopsRepeated); animations left \(r.animationsLeft); layers leaked \(r.layersLeaked)")
        if r.passed {
            print("soak: PASS")
        } else {
            for f in r.failures { print("  FAIL: \(f)") }
            throw ExitCode(1)
        }
    }
}
