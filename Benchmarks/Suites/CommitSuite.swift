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
        for n in sizes { cases.append(retireCase(n: n, churn: true)) }
        return cases
    }
}

extension CommitSuite {
    /// `commit/retire/N`: the frame in which N implicit opacity animations finish and are
    /// removed (their records, track slots and list links go, the presentation shows the
    /// model). The reset (untimed) starts them in one transaction, over the layers in a
    /// scattered order (`scatteredOrder`), as a scene's random changes leave them, and
    /// renders their first frame; the run renders long after their end.
    ///
    /// `commit/retire-churn/N` (`churn`): the same N animations, their track slots taking
    /// turns with N long animations of N other layers that keep running, as slots end up in a
    /// scene where animations start and end every frame. The retirement is then what the
    /// scene pays: every slot that goes takes a running one in its place (the lanes copied,
    /// the running animation's record told its new slot), where in `retire` the slots go
    /// from the end of the track and nothing moves. The reset (untimed) removes the long
    /// animations and starts both sets again, one of each in turn.
    static func retireCase(n: Int, churn: Bool = false) -> BenchmarkCase {
        let variant = retireVariant(churn: churn)
        return BenchmarkCase(
            "commit/\(variant)/\(n)", items: n, item: "animation",
            unit: n >= 10_000 ? .microseconds : .nanoseconds,
            resets: true,
            parameters: ["suite": "commit", "engine": "strata", "variant": variant, "properties": "1", "n": "\(n)"],
            make: { try makeRetireWorkload(n: n, churn: churn) })
    }

    /// The variant name of a retirement case.
    static func retireVariant(churn: Bool) -> String { churn ? "retire-churn" : "retire" }

    /// The key of `retire-churn`'s long animations.
    static let holdKey = "strata.retire-churn.hold"

    static func makeRetireWorkload(n: Int, churn: Bool) throws -> Workload {
        let name = "commit/\(retireVariant(churn: churn))/\(n)"
        let root = CALayer()
        var layers: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for i in 0..<(churn ? 2 * n : n) {
            let l = CALayer()
            l.position = CGPoint(x: Double(i % 100), y: 0)
            root.addSublayer(l)
            layers.append(l)
        }
        CATransaction.commit()
        let order = scatteredOrder(layers)
        // Churn: the scattered order's even places retire, its odd places hold.
        let retiring = churn ? stride(from: 0, to: order.count, by: 2).map { order[$0] } : order
        let holding = churn ? stride(from: 1, to: order.count, by: 2).map { order[$0] } : []
        let hold = CABasicAnimation(keyPath: "opacity")
        hold.fromValue = 0.2
        hold.toValue = 0.3
        hold.duration = 1e9
        let renderer = CARenderer(layer: root)
        var t = 0.0
        renderer.renderFrame(atTime: t)
        var on = false
        let reset = {
            on.toggle()
            let opacity: Float = on ? 0.5 : 1
            for l in holding { l.removeAnimation(forKey: holdKey) }
            CATransaction.begin()
            for (i, l) in retiring.enumerated() {
                l.opacity = opacity
                if i < holding.count { holding[i].add(hold, forKey: holdKey) }
            }
            CATransaction.commit()
            t += 0.1
            renderer.renderFrame(atTime: t)
        }
        let run = {
            t += 1000
            renderer.renderFrame(atTime: t)
        }
        // Precondition: a reset starts N animations (and N long ones), a run retires the N and
        // shows the model, the long ones still show their own value.
        let before = StrataEngine.activeAnimationCount
        reset()
        let started = StrataEngine.activeAnimationCount - before
        try BenchmarkError.check(started == n + holding.count, "\(name): \(started) animations running after the reset, expected \(n + holding.count)")
        let p = retiring[n / 2].presentation()?.opacity ?? -1
        try BenchmarkError.check(p > 0.5 && p < 1, "\(name): presentation opacity \(p) not between 1 and 0.5 mid-animation")
        run()
        let left = StrataEngine.activeAnimationCount - before
        try BenchmarkError.check(left == holding.count, "\(name): \(left) animations left after the run, expected \(holding.count)")
        let shown = retiring[n / 2].presentation()?.opacity ?? -1
        try BenchmarkError.check(shown == 0.5, "\(name): presentation opacity \(shown) after the run, expected the model's 0.5")
        if churn {
            let held = holding[n / 2].presentation()?.opacity ?? -1
            try BenchmarkError.check(abs(held - 0.2) < 1e-3, "\(name): a long animation shows \(held), expected about 0.2")
        }
        return Workload(retaining: [root, renderer, layers as AnyObject], reset: reset, run: run)
    }
}
