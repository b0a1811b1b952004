import Foundation
import StrataBench
import Strata

/// One transaction changing P properties over N layers: begin, the changes (each an action
/// lookup plus a model write plus, when an action runs, an animation record), commit. The
/// reset (timer paused) renders far ahead so every animation has finished and been removed,
/// and each iteration starts from the same state; values toggle so every change is real.
enum CommitSuite {
    static let sizes = [100, 1_000, 10_000, 100_000]

    typealias Variant = CommitVariant

    static func cases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for v in Variant.allCases {
            for n in sizes {
                cases.append(commitCase(v, n: n, engine: "strata",
                                        quick: n == 1_000 && [.implicit, .hostView, .actionsDictionary].contains(v)))
            }
        }
        for n in sizes { cases.append(retireCase(n: n)) }
        return cases
    }
}

extension CommitSuite {
    /// `commit/retire/N`: the frame in which N implicit opacity animations finish and are
    /// removed (their records, track slots and list links go, the presentation shows the
    /// model). The reset (untimed) starts them in one transaction, over the layers in a
    /// scattered order (`scatteredOrder`), as a scene's random changes leave them, and
    /// renders their first frame; the run renders long after their end.
    static func retireCase(n: Int) -> BenchmarkCase {
        BenchmarkCase(
            "commit/retire/\(n)", items: n, item: "animation",
            unit: n >= 10_000 ? .microseconds : .nanoseconds,
            resets: true,
            parameters: ["suite": "commit", "engine": "strata", "variant": "retire", "properties": "1", "n": "\(n)"],
            make: { try makeRetireWorkload(n: n) })
    }

    static func makeRetireWorkload(n: Int) throws -> Workload {
        let root = CALayer()
        var layers: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for i in 0..<n {
            let l = CALayer()
            l.position = CGPoint(x: Double(i % 100), y: 0)
            root.addSublayer(l)
            layers.append(l)
        }
        CATransaction.commit()
        let order = scatteredOrder(layers)
        let renderer = CARenderer(layer: root)
        var t = 0.0
        renderer.renderFrame(atTime: t)
        var on = false
        let reset = {
            on.toggle()
            let opacity: Float = on ? 0.5 : 1
            CATransaction.begin()
            for l in order { l.opacity = opacity }
            CATransaction.commit()
            t += 0.1
            renderer.renderFrame(atTime: t)
        }
        let run = {
            t += 1000
            renderer.renderFrame(atTime: t)
        }
        // Precondition: a reset starts N animations, a run retires them all and shows the model.
        let before = StrataEngine.activeAnimationCount
        reset()
        let started = StrataEngine.activeAnimationCount - before
        try BenchmarkError.check(started == n, "commit/retire/\(n): \(started) animations running after the reset, expected \(n)")
        let p = layers[n / 2].presentation()?.opacity ?? -1
        try BenchmarkError.check(p > 0.5 && p < 1, "commit/retire/\(n): presentation opacity \(p) not between 1 and 0.5 mid-animation")
        run()
        let left = StrataEngine.activeAnimationCount - before
        try BenchmarkError.check(left == 0, "commit/retire/\(n): \(left) animations left after the run")
        let shown = layers[n / 2].presentation()?.opacity ?? -1
        try BenchmarkError.check(shown == 0.5, "commit/retire/\(n): presentation opacity \(shown) after the run, expected the model's 0.5")
        return Workload(retaining: [root, renderer, layers as AnyObject], reset: reset, run: run)
    }
}
