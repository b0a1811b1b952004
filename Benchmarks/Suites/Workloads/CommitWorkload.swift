import Foundation
import StrataBench
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif

// Shared by the fast engine's commit suite and the reference engine's (this file is linked
// into Benchmarks/Reference, built with STRATA_REFERENCE): the same fixture and body.

/// How the changes of a commit benchmark are made, and how many animations each must start.
enum CommitVariant: String, CaseIterable {
    /// Plain layers, built-in implicit animations (P = 1: opacity).
    case implicit
    /// `implicit` on layers each already running an explicit opacity animation (added by the
    /// fixture under its own key, lasting the whole run): each change interrupts a running
    /// animation, as UI code retargets a move in flight, and the two animations of the
    /// property are composed. `implicit` beside it is the same change with nothing running,
    /// and it runs right after it (cases register in this order): a case run after the
    /// suite's 1e5 fixtures took 9-30% longer than run first (after
    /// `implicit-scattered/100000`: `nested/1000` +30%, `disable-actions/1000` +9%, this one
    /// +27%), so a ratio of two cases far apart in the run measured the order.
    case implicitOverRunning = "implicit-over-running"
    /// `implicit` with P = 3: opacity, position, backgroundColor.
    case implicit3 = "implicit-3-properties"
    /// `implicit` over the layers in a scattered order (stride 7919, prime to every size),
    /// as a scene's random changes reach them: at 1e5 layers each change's rows and lists
    /// are out of cache.
    case implicitScattered = "implicit-scattered"
    /// `setDisableActions(true)`: no lookup result is used, no animation.
    case disableActions = "disable-actions"
    /// Layers backing host views, whose delegate returns NSNull outside animation blocks.
    case hostView = "host-view-nsnull"
    /// `layer.actions = ["opacity": custom CABasicAnimation]`.
    case actionsDictionary = "actions-dictionary"
    /// Every change in its own nested transaction inside the outer one.
    case nested
    /// `implicit` with the engine recorded (`StrataRecording`): what recording costs a change.
    case recorded

    var properties: Int { self == .implicit3 ? 3 : 1 }
    var animates: Bool { self != .disableActions && self != .hostView }
}

/// A commit benchmark's case: `commit/VARIANT/N` on the fast engine,
/// `commit/reference/VARIANT/N` on the reference engine (matched by parameters, so the report
/// quotes the speed-up).
func commitCase(_ v: CommitVariant, n: Int, engine: String, quick: Bool) -> BenchmarkCase {
    BenchmarkCase(
        engine == "strata" ? "commit/\(v.rawValue)/\(n)" : "commit/reference/\(v.rawValue)/\(n)",
        items: n * v.properties, item: "change",
        unit: n >= 10_000 || engine != "strata" ? .microseconds : .nanoseconds,
        quick: quick, resets: true,
        parameters: ["suite": "commit", "engine": engine, "variant": v.rawValue, "properties": "\(v.properties)", "n": "\(n)"],
        make: { try makeCommitWorkload(v, n: n) })
}

/// `items` in a scattered order: item k * 7919 mod n at k (7919 is prime, so prime to every
/// size the suite uses: a permutation), as a scene's random changes reach layers.
func scatteredOrder<T>(_ items: [T]) -> [T] {
    let n = items.count
    return (0..<n).map { items[$0 &* 7919 % n] }
}

func makeCommitWorkload(_ v: CommitVariant, n: Int) throws -> Workload {
    let root = CALayer()
    var views: [View] = []
    var layers: [CALayer] = []
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    for i in 0..<n {
        let l: CALayer
        if v == .hostView {
            let view = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            views.append(view)
            l = view.layer
        } else {
            l = CALayer()
        }
        if v == .actionsDictionary {
            let a = CABasicAnimation()
            a.duration = 0.25
            a.timingFunction = CAMediaTimingFunction(name: .easeOut)
            l.actions = ["opacity": a]
        }
        l.position = CGPoint(x: Double(i % 100), y: 0)
        root.addSublayer(l)
        layers.append(l)
    }
    CATransaction.commit()
    if v == .implicitOverRunning {
        let running = CABasicAnimation(keyPath: "opacity")
        running.fromValue = 0.2
        running.toValue = 0.3
        running.duration = 1e12   // outlasts any run: each reset moves the clock 1000 s on
        for l in layers { l.add(running, forKey: commitRunningKey) }
    }
    let renderer = CARenderer(layer: root)
    var t = 0.0
    renderer.renderFrame(atTime: t)
    var on = false
    let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    let scattered = v == .implicitScattered ? scatteredOrder(layers) : []
    let run = {
        on.toggle()
        let opacity: Float = on ? 0.5 : 1
        CATransaction.begin()
        switch v {
        case .implicit, .hostView, .actionsDictionary, .recorded, .implicitOverRunning:
            for l in layers { l.opacity = opacity }
        case .implicitScattered:
            for l in scattered { l.opacity = opacity }
        case .implicit3:
            let x = on ? 10.0 : 0
            let c = on ? red : blue
            for l in layers {
                l.opacity = opacity
                l.position = CGPoint(x: x, y: x)
                l.backgroundColor = c
            }
        case .disableActions:
            CATransaction.setDisableActions(true)
            for l in layers { l.opacity = opacity }
        case .nested:
            for l in layers {
                CATransaction.begin()
                l.opacity = opacity
                CATransaction.commit()
            }
        }
        CATransaction.commit()
    }
    let reset = {
        #if !STRATA_REFERENCE
        // A recording per iteration, begun and ended outside the timed run.
        if v == .recorded { _ = try? StrataRecording.end() }
        #endif
        t += 1000
        renderer.renderFrame(atTime: t)
        #if !STRATA_REFERENCE
        if v == .recorded { StrataRecording.begin() }
        #endif
    }

    // Precondition: one run starts exactly the animations the variant implies, and they
    // end at the model values. Counted from the engine's count after a reset, so
    // animations of layers outside this fixture (none in the harness) cannot confuse it.
    reset()
    let before = StrataEngine.activeAnimationCount
    run()
    t += 0.1
    renderer.renderFrame(atTime: t)
    let expected = v.animates ? n * v.properties : 0
    let started = StrataEngine.activeAnimationCount - before
    try BenchmarkError.check(started == expected,
                             "commit/\(v.rawValue)/\(n): \(started) animations running, expected \(expected)")
    try BenchmarkError.check(layers[n / 2].opacity == 0.5, "commit/\(v.rawValue)/\(n): model opacity not written")
    if v.animates {
        // From the value shown at the change: the model's 1, or the running animation's 0.2.
        let from: Float = v == .implicitOverRunning ? 0.2 : 1
        let p = layers[n / 2].presentation()?.opacity ?? -1
        try BenchmarkError.check(p > min(from, 0.5) && p < max(from, 0.5), "commit/\(v.rawValue)/\(n): presentation opacity \(p) not between \(from) and 0.5 mid-animation")
    }
    reset()
    try BenchmarkError.check(StrataEngine.activeAnimationCount == before, "commit/\(v.rawValue)/\(n): animations left after reset")
    if v == .implicitOverRunning {
        // After the interruption ends, the running animation shows again.
        let p = layers[n / 2].presentation()?.opacity ?? -1
        try BenchmarkError.check(p >= 0.2 && p <= 0.3, "commit/\(v.rawValue)/\(n): presentation opacity \(p) after the change's animation ended, expected the running animation's (0.2-0.3)")
        try BenchmarkError.check(layers[n / 2].animation(forKey: commitRunningKey) != nil, "commit/\(v.rawValue)/\(n): the running animation is gone")
    }
    #if !STRATA_REFERENCE
    if v == .recorded {
        run()
        let r = try StrataRecording.end()
        // After the tree as it was at `begin` (made, then a frame): the run's changes.
        let ops = r?.operations ?? []
        let first = ops.firstIndex { if case .frame = $0 { return true }; return false } ?? -1
        let sets = ops[(first + 1)...].filter { if case .set = $0 { return true }; return false }.count
        try BenchmarkError.check(sets == n, "commit/recorded/\(n): \(sets) changes recorded, expected \(n)")
        reset()
        try BenchmarkError.check(StrataRecording.isRecording, "commit/recorded/\(n): not recording after reset")
    }
    #endif
    var retained: [AnyObject] = [root, renderer, layers as AnyObject, views as AnyObject]
    #if !STRATA_REFERENCE
    if v == .recorded { retained.append(RecordingGuard()) }
    #endif
    return Workload(retaining: retained, reset: reset, run: run)
}

/// The key of `implicit-over-running`'s running animations.
let commitRunningKey = "strata.commit.running"

#if !STRATA_REFERENCE
/// Ends the thread's recording when the `recorded` fixture is released, so later fixtures
/// of the thread run unrecorded.
final class RecordingGuard {
    deinit { _ = try? StrataRecording.end() }
}
#endif
