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
                                        quick: n == 1_000 && [.implicit, .hostView, .actionsDictionary, .implicitOverRunning].contains(v)))
            }
        }
        for n in sizes { cases.append(retireCase(n: n)) }
        for n in sizes { cases.append(retireCase(n: n, churn: true)) }
        for kind in Explicit.allCases {
            for n in sizes { cases.append(explicitCase(kind, n: n)) }
        }
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
    ///
    /// The iterations are pinned, to 200,000 retirements a repetition: Google Benchmark counts
    /// only the timed body towards its minimum time, and a reset here (starting 2N animations)
    /// costs about 30 times the retirement it prepares, so the automatic count ran 17,510
    /// resets a repetition at N = 100 and the four `retire-churn` cases took 93 s of the main
    /// job for 3 s of timed work.
    static func retireCase(n: Int, churn: Bool = false) -> BenchmarkCase {
        let variant = retireVariant(churn: churn)
        return BenchmarkCase(
            "commit/\(variant)/\(n)", items: n, item: "animation",
            unit: n >= 10_000 ? .microseconds : .nanoseconds,
            iterations: max(1, 200_000 / n), resets: true,
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

extension CommitSuite {
    /// The two explicit kinds `explicitCase` times.
    enum Explicit: String, CaseIterable {
        /// `CABasicAnimation(keyPath: "position")`, from a fixed point to a point of its own.
        case basic = "explicit-basic"
        /// `CAKeyframeAnimation(keyPath: "opacity")` over four values, as app-10k adds them.
        case keyframe = "explicit-keyframe"
    }

    /// `commit/explicit-basic/N` and `commit/explicit-keyframe/N`: one transaction adding an
    /// explicit animation to each of N layers with `add(_:forKey:)`, and its commit. Each
    /// layer has its own animation object, made by the fixture (untimed), as a program makes
    /// one per layer with values of its own; the run times what `add` does with it: the
    /// copy, the checks and conversion of its values (a keyframe animation's compile), its
    /// record and track slot. The reset (untimed) renders far ahead so every animation has
    /// finished and been removed.
    static func explicitCase(_ kind: Explicit, n: Int) -> BenchmarkCase {
        BenchmarkCase(
            "commit/\(kind.rawValue)/\(n)", items: n, item: "animation",
            unit: n >= 10_000 ? .microseconds : .nanoseconds,
            resets: true,
            parameters: ["suite": "commit", "engine": "strata", "variant": kind.rawValue, "properties": "1", "n": "\(n)"],
            make: { try makeExplicitWorkload(kind, n: n) })
    }

    /// The key explicit cases add under.
    static let explicitKey = "strata.explicit"

    static func makeExplicitWorkload(_ kind: Explicit, n: Int) throws -> Workload {
        let name = "commit/\(kind.rawValue)/\(n)"
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
        let animations: [CAAnimation] = (0..<n).map { i in
            switch kind {
            case .basic:
                let a = CABasicAnimation(keyPath: "position")
                a.fromValue = CGPoint(x: 0, y: 0)
                a.toValue = CGPoint(x: Double(i % 400), y: Double(i % 800))
                a.duration = 0.5
                return a
            case .keyframe:
                let a = CAKeyframeAnimation(keyPath: "opacity")
                a.values = [1, 0.2, 0.8, 1]
                a.duration = 0.5
                return a
            }
        }
        let renderer = CARenderer(layer: root)
        var t = 0.0
        renderer.renderFrame(atTime: t)
        let run = {
            CATransaction.begin()
            for i in 0..<n { layers[i].add(animations[i], forKey: explicitKey) }
            CATransaction.commit()
        }
        let reset = {
            t += 1000
            renderer.renderFrame(atTime: t)
        }
        // Precondition: a run adds N animations, each shows its own values in the next frame,
        // and a reset removes them all.
        reset()
        let before = StrataEngine.activeAnimationCount
        run()
        let started = StrataEngine.activeAnimationCount - before
        try BenchmarkError.check(started == n, "\(name): \(started) animations running after a run, expected \(n)")
        t += 0.125
        renderer.renderFrame(atTime: t)
        let probe = n / 2
        switch kind {
        case .basic:
            // A quarter of the way with the default (linear) timing.
            let p = layers[probe].presentation()?.position ?? CGPoint(x: -1, y: -1)
            let to = CGPoint(x: Double(probe % 400), y: Double(probe % 800))
            try BenchmarkError.check(abs(p.x - to.x / 4) < 1e-6 && abs(p.y - to.y / 4) < 1e-6,
                                     "\(name): presentation position \(p) a quarter of the way, expected \(CGPoint(x: to.x / 4, y: to.y / 4))")
        case .keyframe:
            // The first segment's end (key times spaced evenly, 1/3 each): 0.2 at t = 1/6 s,
            // so 1 - 0.8 * (0.125 / (0.5 / 3)) = 0.4 at 0.125 s.
            let o = layers[probe].presentation()?.opacity ?? -1
            try BenchmarkError.check(abs(o - 0.4) < 1e-5, "\(name): presentation opacity \(o), expected 0.4")
        }
        try BenchmarkError.check(layers[probe].animation(forKey: explicitKey) != nil, "\(name): no animation under its key")
        reset()
        let left = StrataEngine.activeAnimationCount - before
        try BenchmarkError.check(left == 0, "\(name): \(left) animations left after a reset")
        return Workload(retaining: [root, renderer, layers as AnyObject, animations as AnyObject], reset: reset, run: run)
    }
}
