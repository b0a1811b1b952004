import Foundation
import StrataBench
@_spi(Benchmarks) import Strata

/// The render snapshot: what a renderer (or a test, or an app) pays to read a frame.
///
/// - `snapshot/full/SHAPE/N`: a full pass over a tree of N layers (chains, fans, balanced
///   trees), beside a triad over the bytes the pass touches (`snapshot/floor/BYTES`).
/// - `snapshot/update/SHAPE/PCT/N`: the next frame's snapshot with PCT% of the layers
///   animating (the update recomputes them), as a share of the full pass; with 2,048 marked
///   leaves or more the update splits them across the engine's two render threads, and
///   `snapshot/update-1-thread/SHAPE/10/N` (fans and balanced trees, N >= 100,000) is the same
///   update on one, beside it.
/// - `snapshot/presentation/SHAPE/N`: reading every layer's `presentation()?.position`,
///   the way a frame was read before the snapshot; `snapshot/presentation-copy/...` makes
///   each copy the way `presentation()` did before copies read the columns on access.
/// - `snapshot/moves/N` and `snapshot/moves-none/N` (`SnapshotSuite+Moves.swift`): a frame
///   moving N / 1,000 subtrees, spliced into the order, beside the same frame without them.
/// - `snapshot/frame/ENGINE/N` (with the reference engine, FrameWorkload.swift): a whole
///   frame, evaluate + snapshot, of N layers each animating its position; and
///   `snapshot/frame-readout/ENGINE/N`, the same frame read out through `presentation()`.
enum SnapshotSuite {
    static let sizes = [1_000, 10_000, 100_000, 1_000_000]
    static let animatedPercents = [1, 10, 100]

    /// Bytes a full pass touches per layer of these fixtures: flags and hints (3), tree and
    /// order (16), opacity twice, position, bounds and background colour (96), and the
    /// item's columns (184, the draw order's 4 included). The fixture checks the engine's own
    /// count against it.
    static let bytesPerLayer = 3 + 16 + 16 + 16 + 32 + 32 + 184

    static func fullName(_ shape: TreeSuite.Shape, _ n: Int) -> String { "snapshot/full/\(shape.rawValue)/\(n)" }
    static func readoutName(_ shape: TreeSuite.Shape, _ n: Int) -> String { "snapshot/presentation/\(shape.rawValue)/\(n)" }
    static func floorName(_ n: Int) -> String { "snapshot/floor/\(n * bytesPerLayer)" }

    static func cases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for shape in TreeSuite.Shape.allCases {
            for n in sizes {
                let unit: TimeUnit = n >= 100_000 ? .milliseconds : .microseconds
                var p = ["suite": "snapshot", "kind": "full", "shape": shape.rawValue, "n": "\(n)",
                         "bytes": "\(n * bytesPerLayer)", "floor": floorName(n)]
                if n <= 100_000 { p["relativeTo"] = readoutName(shape, n) }
                cases.append(BenchmarkCase(fullName(shape, n), items: n, item: "layer", unit: unit,
                                           quick: n == 1_000 && shape == .balanced, parameters: p,
                                           make: { try workload(.full, shape, n, animatedPercent: 0) }))
                for pct in animatedPercents {
                    cases.append(BenchmarkCase(
                        "snapshot/update/\(shape.rawValue)/\(pct)/\(n)", items: n, item: "layer", unit: unit,
                        quick: n == 1_000 && shape == .balanced && pct == 10,
                        parameters: ["suite": "snapshot", "kind": "update", "shape": shape.rawValue, "n": "\(n)",
                                     "animated": "\(pct)", "relativeTo": fullName(shape, n)],
                        make: { try workload(.update, shape, n, animatedPercent: pct) }))
                }
                if n >= 100_000 && shape != .chain {
                    // The split's baseline: one thread (a chain's marked layers are links, not
                    // leaves, and never split).
                    cases.append(BenchmarkCase(
                        "snapshot/update-1-thread/\(shape.rawValue)/10/\(n)", items: n, item: "layer", unit: unit, quick: false,
                        parameters: ["suite": "snapshot", "kind": "update-1-thread", "shape": shape.rawValue, "n": "\(n)",
                                     "animated": "10", "threads": "1", "relativeTo": "snapshot/update/\(shape.rawValue)/10/\(n)"],
                        make: { try workload(.update, shape, n, animatedPercent: 10, threads: 1) }))
                }
                if n <= 100_000 {
                    cases.append(BenchmarkCase(
                        readoutName(shape, n), items: n, item: "layer", unit: unit, quick: false,
                        parameters: ["suite": "snapshot", "kind": "presentation", "shape": shape.rawValue, "n": "\(n)"],
                        make: { try workload(.presentation, shape, n, animatedPercent: 0) }))
                }
                if n <= 10_000 {
                    cases.append(BenchmarkCase(
                        "snapshot/presentation-copy/\(shape.rawValue)/\(n)", items: n, item: "layer", unit: unit, quick: false,
                        parameters: ["suite": "snapshot", "kind": "presentation-copy", "shape": shape.rawValue, "n": "\(n)",
                                     "relativeTo": readoutName(shape, n)],
                        make: { try workload(.presentationCopy, shape, n, animatedPercent: 0) }))
                }
            }
        }
        // One call, and one read from a held copy, alone (1,000 per iteration).
        cases.append(BenchmarkCase("snapshot/presentation-call/1000", items: 1_000, item: "call", quick: true,
                                   parameters: ["suite": "snapshot", "kind": "presentation-call", "n": "1000"],
                                   make: { try presentationCallWorkload(read: false) }))
        cases.append(BenchmarkCase("snapshot/presentation-read/1000", items: 1_000, item: "read", quick: false,
                                   parameters: ["suite": "snapshot", "kind": "presentation-read", "n": "1000"],
                                   make: { try presentationCallWorkload(read: true) }))
        for n in sizes {
            cases.append(BenchmarkCase(floorName(n), items: n * bytesPerLayer, item: "byte",
                                       unit: n >= 100_000 ? .microseconds : .nanoseconds, quick: n == 1_000,
                                       parameters: ["suite": "snapshot", "engine": "floor", "bytes": "\(n * bytesPerLayer)", "n": "\(n * bytesPerLayer)"],
                                       make: { try TriadFloor.workload(bytes: n * bytesPerLayer) }))
        }
        cases += moveCases()
        for n in [10_000, 100_000] {
            cases.append(snapshotFrameCase(n: n, engine: "strata", readout: false, quick: false) { try makeSnapshotFrameWorkload(n: n, readout: false) })
            cases.append(snapshotFrameCase(n: n, engine: "strata", readout: true, quick: false) { try makeSnapshotFrameWorkload(n: n, readout: true) })
        }
        return cases
    }

    enum Body { case full, update, presentation, presentationCopy }

    /// A tree of `n` layers in `shape`, each 20 x 20 with a position and a background colour
    /// (and opacity 1 set, so the columns a frame reads exist whatever ran before), rendered
    /// once; `animatedPercent` of them (evenly spread) animating their position on one
    /// shared timing.
    /// `threads` > 0: the update's body runs with that many render threads (the next case
    /// gets the engine's default back).
    static func workload(_ body: Body, _ shape: TreeSuite.Shape, _ n: Int, animatedPercent: Int, threads: Int = 0) throws -> Workload {
        let tree = Tree(shape, n)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for (i, l) in tree.all.enumerated() {
            l.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
            l.position = CGPoint(x: Double(i % 97), y: Double(i % 89))
            l.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.5, blue: 1, alpha: 1)
            l.opacity = 1
        }
        CATransaction.commit()
        let renderer = CARenderer(layer: tree.root)
        renderer.renderFrame(atTime: 0)
        let name = "snapshot/\(body)/\(shape.rawValue)/\(animatedPercent)/\(n)"
        var animated = 0
        if animatedPercent > 0 {
            // The last layers made: leaves of fans and balanced trees, the deepest links of a
            // chain (animated content is mostly leaves; a moving container moves its subtree
            // and costs the update that subtree).
            animated = max(1, n * animatedPercent / 100)
            CATransaction.begin()
            CATransaction.setAnimationDuration(1e7)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            for i in (n - animated)..<n { tree.all[i].position = CGPoint(x: Double(i % 97) + 100, y: 0) }
            CATransaction.commit()
        }
        renderer.renderFrame(atTime: 5e6)
        // Preconditions: every layer is an item, the pass touched the bytes its floor streams,
        // and the animated layers are halfway.
        let full = renderer.snapshotFullPass()
        try BenchmarkError.check(full.count == n, "\(name): \(full.count) items, expected \(n)")
        try BenchmarkError.check(full.fullPassBytes == n * bytesPerLayer,
                                 "\(name): the pass touched \(full.fullPassBytes) bytes, its floor streams \(n * bytesPerLayer)")
        if animatedPercent > 0 {
            // The last layer made is halfway from its x to 100 more.
            let last = n - 1
            let x = Double(tree.all[last].presentation()?.position.x ?? -1), expected = Double(last % 97) + 50
            try BenchmarkError.check(abs(x - expected) < 1e-6, "\(name): the last layer at x \(x), expected \(expected) halfway")
            // An update recomputes at least the animated layers; with nearly every layer
            // animating (over 7/8) it is a full pass, which costs less than marking them all.
            let update = renderer.snapshot()
            try BenchmarkError.check(update.recomputedItems >= animated, "\(name): update recomputed \(update.recomputedItems) items, \(animated) animate")
            try BenchmarkError.check(update.wasFullPass == (animated > n - n / 8),
                                     "\(name): the update was \(update.wasFullPass ? "" : "not ")a full pass with \(animated) of \(n) layers animating")
        }
        let layers = tree.all
        switch body {
        case .full:
            return Workload(retaining: [tree, renderer]) { blackHole(renderer.snapshotFullPass().count) }
        case .update:
            _ = renderer.snapshot()
            return Workload(retaining: [tree, renderer]) {
                EngineThreads.with(threads) { blackHole(renderer.snapshot().recomputedItems) }
            }
        case .presentation:
            var sum = 0.0
            for l in layers { sum += Double(l.presentation()?.position.x ?? .nan) }
            try BenchmarkError.check(sum.isFinite, "\(name): a layer has no presentation")
            return Workload(retaining: [tree, renderer]) {
                var s = 0.0
                for l in layers { s += Double(l.presentation()?.position.x ?? 0) }
                blackHole(s)
            }
        case .presentationCopy:
            return Workload(retaining: [tree, renderer]) {
                var s = 0.0
                for l in layers { s += Double(l.presentationCopyingEverything()?.position.x ?? 0) }
                blackHole(s)
            }
        }
    }
}

extension SnapshotSuite {
    /// `presentation()` of one animating layer 1,000 times (the copies dropped at once, as
    /// a read-out drops them), or (`read`) its opacity read 1,000 times from one copy.
    static func presentationCallWorkload(read: Bool) throws -> Workload {
        let root = CALayer(), layer = CALayer()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.addSublayer(layer)
        CATransaction.commit()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(10)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        layer.opacity = 0
        CATransaction.commit()
        renderer.renderFrame(atTime: 5)
        guard let copy = layer.presentation() else { throw BenchmarkError("snapshot/presentation-call: no presentation") }
        try BenchmarkError.check(abs(copy.opacity - 0.5) < 1e-6, "snapshot/presentation-call: opacity \(copy.opacity), expected 0.5")
        if read {
            return Workload(retaining: [root, layer, renderer, copy]) {
                var s: Float = 0
                for _ in 0..<1_000 { s += copy.opacity }
                blackHole(s)
            }
        }
        return Workload(retaining: [root, layer, renderer]) {
            for _ in 0..<1_000 { blackHole(layer.presentation()) }
        }
    }
}
