// One source for the per-frame workloads of both engines: Benchmarks/Reference lists this
// folder (Workloads) in its `shared-sources`, compiled there with STRATA_REFERENCE, so the reference engine
// runs exactly the same fixture and body as the fast engine.
import Foundation
import StrataBench
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif

/// What one frame benchmark animates: the property (value width), how animations are timed,
/// and what kind of animation each one is.
struct FrameSpec: Hashable {
    /// The animated property: its width in doubles sets the bytes the kernel touches.
    /// `rotation`: whole transforms that turn (and scale), interpolated by decomposition;
    /// `transform` only scales, which interpolates entry by entry.
    /// `gradient`: a CAGradientLayer's two `colors` (8 lanes, a keyed array value).
    enum Width: String, CaseIterable { case opacity, position, colour, bounds, transform, rotation, gradient }
    /// `shared`: implicit animations of one transaction, one Bézier solve per frame;
    /// `linear`: the same with a linear curve; `own`: explicit animations each with its own
    /// begin time and its own curve.
    enum Timing: String, CaseIterable { case shared, linear, own }
    /// `basic` (from/to), `keyframe` (8 values), `path` (cubic, paced), `group` (opacity +
    /// position children; `shared`: equal groups, `own`: each group its own begin time and
    /// curve), `spring` (a lightly damped CASpringAnimation, one second into its
    /// motion: `shared` timing gives every layer the same spring and begin time, one solve per
    /// frame; `own` gives each its own stiffness and begin time, a solve per animation).
    enum Kind: String, CaseIterable { case basic, keyframe, path, group, spring }

    var width: Width
    var timing: Timing
    var kind: Kind
    var n: Int
    /// Threads `render()` may use (`StrataEngine.renderThreads`); 0: the engine's default.
    var threads = 0

    /// `width/timing/kind/N` (`width/timing/kind/T-threads/N` with a thread count), the tail
    /// of the benchmark name.
    var tail: String {
        let t = threads > 0 ? "\(threads)-thread\(threads == 1 ? "" : "s")/" : ""
        return "\(width.rawValue)/\(timing.rawValue)/\(kind.rawValue)/\(t)\(n)"
    }

    /// Doubles per animated value.
    var lanes: Int {
        switch width {
        case .opacity: return 1
        case .position: return 2
        case .colour, .bounds: return 4
        case .transform, .rotation: return 16
        case .gradient: return 8
        }
    }

    /// Bytes one frame must touch at the least: per animation the from and delta values
    /// and the presentation value written (3 x lanes doubles) plus a layer/timing index;
    /// keyframes also read their key times and the segment's values, paths their arc table
    /// row (64 samples) and segment coefficients; groups are an opacity plus a position.
    var bytesPerAnimation: Int {
        switch kind {
        case .basic, .spring: return 3 * lanes * 8 + 8
        case .keyframe: return 3 * lanes * 8 + 8 + 8 * 8 + 4 * lanes * 8
        case .path: return 3 * lanes * 8 + 8 + 64 * 8 + 4 * lanes * 8
        case .group: return (3 * 1 * 8 + 8) + (3 * 2 * 8 + 8)
        }
    }

    var bytes: Int { n * bytesPerAnimation }
}

/// Builds the frame fixture of `spec`: N layers under one root, one running animation on
/// each (a group counts as one), the renderer advanced to the middle of the animations, and
/// the presentation values checked before anything is timed. One iteration renders one
/// frame (beginFrame + render + endFrame) 1/120 s after the previous one.
func makeFrameWorkload(_ spec: FrameSpec) throws -> Workload {
    let n = spec.n
    let duration = 1e7
    let gradient = spec.width == .gradient
    let (root, layers, renderer) = makeFlatTree(n, make: gradient ? { CAGradientLayer() } : { CALayer() }) { l, i in
        // Gradients start from colours of their own (set without animation).
        if gradient { (l as? CAGradientLayer)?.colors = gradientColors(i, to: false) }
    }

    CATransaction.begin()
    CATransaction.setAnimationDuration(duration)
    if spec.timing == .linear {
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
    }
    for (i, l) in layers.enumerated() {
        switch (spec.kind, spec.timing) {
        case (.basic, .shared), (.basic, .linear):
            setTarget(l, spec.width, i)
        case (.basic, .own):
            let a = CABasicAnimation(keyPath: keyPath(spec.width))
            a.fromValue = value(spec.width, i, to: false)
            a.toValue = value(spec.width, i, to: true)
            a.duration = duration
            a.beginTime = Double(i % 1000) * 1e-3   // absolute: every animation its own start
            let k = Float(i % 9973) / 9973
            a.timingFunction = CAMediaTimingFunction(controlPoints: 0.1 + 0.3 * k, 0.05, 0.6 + 0.3 * k, 1)
            l.add(a, forKey: "own")
        case (.keyframe, _):
            let a = CAKeyframeAnimation(keyPath: keyPath(spec.width))
            a.values = (0..<8).map { value(spec.width, i + $0 * 7, to: $0 % 2 == 1) }
            a.duration = duration
            l.add(a, forKey: "k")
        case (.path, _):
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 150))
            path.addCurve(to: CGPoint(x: 300, y: 150), control1: CGPoint(x: 75, y: Double(i % 10)),
                          control2: CGPoint(x: 225, y: 300))
            let a = CAKeyframeAnimation(keyPath: "position")
            a.path = path
            a.calculationMode = .paced
            a.duration = duration
            l.add(a, forKey: "p")
        case (.group, _):
            let o = CABasicAnimation(keyPath: "opacity")
            o.fromValue = 0.0
            o.toValue = 1.0
            o.duration = duration
            let p = CABasicAnimation(keyPath: "position")
            p.fromValue = CGPoint(x: 0, y: 0)
            p.toValue = CGPoint(x: Double(i % 100), y: 50)
            p.duration = duration
            let g = CAAnimationGroup()
            g.animations = [o, p]
            g.duration = duration
            if spec.timing == .own {
                // As `basic` with own timing: each group its own begin time and curve (its
                // members run on the group's eased time).
                g.beginTime = Double(i % 1000) * 1e-3
                let k = Float(i % 9973) / 9973
                g.timingFunction = CAMediaTimingFunction(controlPoints: 0.1 + 0.3 * k, 0.05, 0.6 + 0.3 * k, 1)
            }
            l.add(g, forKey: "g")
        case (.spring, _):
            let s = CASpringAnimation(keyPath: keyPath(spec.width))
            s.fromValue = value(spec.width, i, to: false)
            s.toValue = value(spec.width, i, to: true)
            s.duration = duration
            let p = springParameters(spec, i)
            s.stiffness = CGFloat(p.stiffness)
            s.damping = CGFloat(p.damping)
            s.beginTime = p.begin
            l.add(s, forKey: "spring")
        }
    }
    CATransaction.commit()

    // Precondition: every animation is running, and halfway through, every sampled layer's
    // presentation lies strictly between its start and end (exactly halfway when linear).
    var t = duration / 2
    renderer.renderFrame(atTime: t)
    let expected = spec.kind == .group ? 2 * n : n
    try BenchmarkError.check(StrataEngine.activeAnimationCount >= n,
                             "\(spec.tail): \(StrataEngine.activeAnimationCount) animations running, expected \(expected)")
    for i in stride(from: 0, to: n, by: max(1, n / 64)) {
        try checkMidway(spec, layers[i], i)
    }

    let step = 1.0 / 120
    // The benchmark-only slowdown knob (see `injectedSlowdownPeriod`): one extra frame every
    // `period` iterations adds exactly 1/period of the body's work.
    let period = injectedSlowdownPeriod
    var iteration = 0
    let threads = spec.threads
    return Workload(retaining: [root, renderer, layers as AnyObject]) {
        t += step
        // A set thread count for this body only; the next case gets the default back (each
        // engine's `EngineThreads`: the reference engine renders on one thread).
        EngineThreads.with(threads) {
            renderer.beginFrame(atTime: t)
            renderer.render()
            renderer.endFrame()
            if period > 0 {
                iteration += 1
                if iteration % period == 0 {
                    renderer.beginFrame(atTime: t)
                    renderer.render()
                    renderer.endFrame()
                }
            }
            if let misses = injectedCacheMisses { misses.touch(loads: misses.loadsPerThousand * n / 1000) }
        }
    }
}

/// `STRATA_BENCH_INJECT_CACHE_MISSES=MODE:N` makes every frame benchmark body also load N
/// words per 1,000 animations from a side buffer: `local` walks 4 KiB (first-level hits),
/// `scattered` jumps 32 KiB at a time through 64 MiB (a miss at every level). Both modes run
/// exactly the same instructions, so `local` against `scattered` is a regression of cache
/// misses alone: what a layout change does, and what instruction counts cannot see. Nil when
/// unset. Never set it for a real run; `run` records it in the report's warnings.
let injectedCacheMisses: CacheMissInjection? = {
    guard let text = ProcessInfo.processInfo.environment["STRATA_BENCH_INJECT_CACHE_MISSES"] else { return nil }
    let parts = text.split(separator: ":")
    guard parts.count == 2, let n = Int(parts[1]), n > 0, n <= 1_000_000 else { return nil }
    switch parts[0] {
    case "local": return CacheMissInjection(words: 512, stride: 1, loadsPerThousand: n)
    case "scattered": return CacheMissInjection(words: 8 << 20, stride: 4099, loadsPerThousand: n)
    default: return nil
    }
}()

/// The side buffer and the walk of `STRATA_BENCH_INJECT_CACHE_MISSES`.
final class CacheMissInjection {
    let words: UnsafeMutablePointer<UInt64>
    let mask: Int
    let stride: Int
    let loadsPerThousand: Int
    private var cursor = 0
    private(set) var sink: UInt64 = 0

    /// `words` a power of two; `stride` in words.
    init(words: Int, stride: Int, loadsPerThousand: Int) {
        self.words = .allocate(capacity: words)
        for i in 0..<words { self.words[i] = UInt64(truncatingIfNeeded: i) }
        mask = words - 1
        self.stride = stride
        self.loadsPerThousand = loadsPerThousand
    }

    deinit { words.deallocate() }

    /// `loads` dependent-free loads along the walk; the same instructions in both modes.
    @inline(never) func touch(loads: Int) {
        var c = cursor, s = sink
        for _ in 0..<loads {
            s &+= words[c & mask]
            c &+= stride
        }
        cursor = c
        sink = s
    }
}

/// `STRATA_BENCH_INJECT_SLOWDOWN=P` (a percentage, e.g. 5 or 10) makes every frame benchmark
/// body render one extra frame every 100/P iterations: a known extra cost of P% in time and
/// in instructions, to measure how often `compare` catches a regression of that size. 0 when
/// unset. Never set it for a real run; `run` records it in the report's warnings.
let injectedSlowdownPeriod: Int = {
    guard let text = ProcessInfo.processInfo.environment["STRATA_BENCH_INJECT_SLOWDOWN"], let p = Double(text), p > 0, p <= 100 else { return 0 }
    return Int((100 / p).rounded())
}()

/// The key path animated for a width.
private func keyPath(_ w: FrameSpec.Width) -> String {
    switch w {
    case .opacity: return "opacity"
    case .position: return "position"
    case .colour: return "backgroundColor"
    case .bounds: return "bounds"
    case .transform, .rotation: return "transform"
    case .gradient: return "colors"
    }
}

/// A start (`to: false`) or end value for layer `i`, boxed as Core Animation takes it.
private func value(_ w: FrameSpec.Width, _ i: Int, to: Bool) -> Any {
    let x = Double(i % 100) + (to ? 100 : 0)
    switch w {
    case .opacity: return to ? 1.0 : 0.0
    case .position: return CGPoint(x: x, y: x / 2)
    case .colour: return CGColor(red: to ? 1 : 0, green: 0.5, blue: Double(i % 10) / 10, alpha: 1)
    case .bounds: return CGRect(x: 0, y: 0, width: x, height: x + 1)
    case .transform: return CATransform3DMakeScale(to ? 2 : 1, 1 + x / 100, 1)
    case .rotation: return turn(i, to: to)
    case .gradient: return gradientColors(i, to: to)
    }
}

/// Layer `i`'s two gradient colours: red to blue at the start, green to white at the end.
private func gradientColors(_ i: Int, to: Bool) -> [CGColor] {
    let b = Double(i % 10) / 10
    return to ? [CGColor(red: 0, green: 1, blue: b, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 1)]
              : [CGColor(red: 1, green: 0, blue: b, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
}

/// Layer `i`'s turn about z (0.2 rad to 1.4) at a scale of its own: a pair of matrices that
/// interpolates by decomposition.
private func turn(_ i: Int, to: Bool) -> CATransform3D {
    let s = 1 + Double(i % 100) / 100
    return CATransform3DConcat(CATransform3DMakeScale(s, s, 1), CATransform3DMakeRotation(to ? 1.4 : 0.2, 0, 0, 1))
}

/// Sets the model value of an implicitly animated property (the app's `layer.x = v`).
private func setTarget(_ l: CALayer, _ w: FrameSpec.Width, _ i: Int) {
    let x = Double(i % 100) + 100
    switch w {
    case .opacity: l.opacity = 0
    case .position: l.position = CGPoint(x: x, y: x / 2)
    case .colour: l.backgroundColor = CGColor(red: 1, green: 0.5, blue: Double(i % 10) / 10, alpha: 1)
    case .bounds: l.bounds = CGRect(x: 0, y: 0, width: x, height: x + 1)
    case .transform: l.transform = CATransform3DMakeScale(2, 1 + x / 100, 1)
    case .rotation: l.transform = turn(i, to: true)
    case .gradient: (l as? CAGradientLayer)?.colors = gradientColors(i, to: true)
    }
}

/// The time of the fixture's checking frame (half the animations' duration).
private let checkTime = 1e7 / 2

/// Layer `i`'s spring in a `spring` fixture: stiffness 100 and damping 0.5 (damping ratio
/// 0.025: it still swings after the run's thousand seconds), begun a second before the
/// checking frame; `own` timing varies the stiffness and the begin time per layer.
private func springParameters(_ spec: FrameSpec, _ i: Int) -> (stiffness: Double, damping: Double, begin: Double) {
    if spec.timing == .own { return (100 + Double(i % 997) * 0.1, 0.5, checkTime - 1 - Double(i % 1000) * 1e-3) }
    return (100, 0.5, checkTime - 1)
}

/// Checks a presentation value halfway through its animation.
private func checkMidway(_ spec: FrameSpec, _ l: CALayer, _ i: Int) throws {
    guard let p = l.presentation() else { throw BenchmarkError("\(spec.tail): layer \(i) has no presentation") }
    func between(_ v: Double, _ a: Double, _ b: Double, _ what: String) throws {
        let lo = min(a, b), hi = max(a, b)
        try BenchmarkError.check(v > lo && v < hi && v.isFinite,
                                 "\(spec.tail): layer \(i) \(what) = \(v), expected strictly inside (\(lo), \(hi))")
        if spec.timing == .linear && spec.kind == .basic {
            try BenchmarkError.check(abs(v - (a + b) / 2) < 1e-6 * max(1, abs(b - a)),
                                     "\(spec.tail): layer \(i) \(what) = \(v), expected \((a + b) / 2) (linear, halfway)")
        }
    }
    switch spec.kind {
    case .spring:
        // The spring's own formula (SEMANTICS.md): the value it must show at this time.
        let sp = springParameters(spec, i)
        let w0 = sp.stiffness.squareRoot(), zeta = sp.damping / (2 * w0), t = checkTime - sp.begin
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        let progress = 1 - exp(-zeta * w0 * t) * (cos(wd * t) + zeta * w0 / wd * sin(wd * t))
        let x = Double(i % 100)
        let v: Double, expected: Double
        switch spec.width {
        case .opacity: v = Double(p.opacity); expected = progress
        default: v = p.position.x; expected = x + 100 * progress
        }
        try BenchmarkError.check(abs(v - expected) < 1e-6 * max(1, abs(expected)),
                                 "\(spec.tail): layer \(i) shows \(v), the spring gives \(expected)")
    case .group:
        try between(Double(p.opacity), 0, 1, "opacity")
    case .path:
        try between(p.position.x, 0, 300, "position.x")
    case .keyframe:
        // Key values alternate between start and end values: the value is finite and the
        // animation is running (its exact place depends on the segment).
        try BenchmarkError.check(l.animation(forKey: "k") != nil, "\(spec.tail): layer \(i) lost its keyframe animation")
        try BenchmarkError.check(p.position.x.isFinite && Double(p.opacity).isFinite, "\(spec.tail): non-finite presentation")
    case .basic:
        let x = Double(i % 100)
        switch spec.width {
        case .opacity: try between(Double(p.opacity), 0, 1, "opacity")
        case .position: try between(p.position.x, 0, x + 100, "position.x")
        case .colour:
            let c = p.backgroundColor?.components ?? []
            try BenchmarkError.check(c.count == 4, "\(spec.tail): layer \(i) colour has \(c.count) components")
            try between(Double(c[0]), 0, 1, "backgroundColor.red")
        case .bounds: try between(p.bounds.width, spec.timing == .own ? x : 0, x + 100, "bounds.width")
        case .transform: try between(p.transform.m11, 1, 2, "transform.m11")
        case .gradient:
            let c = (p as? CAGradientLayer)?.colors ?? []
            try BenchmarkError.check(c.count == 2, "\(spec.tail): layer \(i) shows \(c.count) gradient colours")
            let red = (c[0] as? CGColor)?.components ?? []
            try BenchmarkError.check(red.count == 4, "\(spec.tail): layer \(i) gradient colour has \(red.count) components")
            try between(Double(red[0]), 0, 1, "colors[0].red")
        case .rotation:
            // From the identity: the turn grows from 0 and the scale from 1, never below (an
            // entry-by-entry interpolation would shrink it mid-turn).
            let t = p.transform
            try between(atan2(t.m12, t.m11), 0, 1.4, "the turn")
            let scale = (t.m11 * t.m11 + t.m12 * t.m12).squareRoot(), s = 1 + Double(i % 100) / 100
            try between(scale, 1 - 1e-9, s + 1e-9, "the scale")
        }
    }
}

/// Touches `bytes` bytes once per iteration the way the frame kernel must at the least:
/// a STREAM triad `c = a + s * b` (two streams read, one written). Its time per byte is the
/// memory-bandwidth floor the frame results are quoted against.
final class TriadFloor {
    let n: Int
    let a, b, c: UnsafeMutablePointer<Double>

    init(bytes: Int) {
        n = max(bytes / 24, 8)
        a = .allocate(capacity: n)
        b = .allocate(capacity: n)
        c = .allocate(capacity: n)
        a.initialize(repeating: 1, count: n)
        b.initialize(repeating: 2, count: n)
        c.initialize(repeating: 0, count: n)
    }

    deinit {
        a.deallocate()
        b.deallocate()
        c.deallocate()
    }

    @inline(never)
    func run(_ s: Double) {
        for i in 0..<n { c[i] = a[i] + s * b[i] }
    }

    /// The same triad with its halves on two threads at once: what two cores can stream.
    @inline(never)
    func run2(_ s: Double) {
        let half = (n / 2) & ~7
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let range = part == 0 ? 0..<half : half..<n
            for i in range { c[i] = a[i] + s * b[i] }
        }
    }

    /// The workload of one triad over the same bytes (on `threads` threads: 1 or 2),
    /// checked before it is timed.
    static func workload(bytes: Int, threads: Int = 1) throws -> Workload {
        let t = TriadFloor(bytes: bytes)
        if threads == 2 { t.run2(0.5) } else { t.run(0.5) }
        try BenchmarkError.check(t.c[t.n - 1] == 2 && t.c[0] == 2 && t.c[t.n / 2] == 2,
                                 "triad: c = 1 + 0.5 * 2 expected 2, got \(t.c[0])")
        if threads == 2 {
            return Workload(retaining: [t]) {
                t.run2(0.5)
                blackHole(t.c[t.n / 2])
            }
        }
        return Workload(retaining: [t]) {
            t.run(0.5)
            blackHole(t.c[t.n / 2])
        }
    }
}

/// The name of the floor benchmark for a byte count.
func floorName(bytes: Int) -> String { "frame/floor/\(bytes)" }

/// A frame case of either engine (`engine` "strata" or "reference").
func frameCase(_ s: FrameSpec, engine: String, quick: Bool, make: @escaping () throws -> Workload) -> BenchmarkCase {
    let prefix = engine == "strata" ? "frame" : "frame/reference"
    return BenchmarkCase(
        "\(prefix)/\(s.tail)", items: s.n, item: "animation",
        unit: s.n >= 100_000 || engine != "strata" ? .microseconds : .nanoseconds, quick: quick,
        parameters: ["suite": "frame", "engine": engine, "width": s.width.rawValue, "timing": s.timing.rawValue,
                     "kind": s.kind.rawValue, "n": "\(s.n)", "bytes": "\(s.bytes)",
                     "floor": floorName(bytes: s.bytes)].merging(s.threads > 0 ? ["threads": "\(s.threads)"] : [:]) { a, _ in a },
        make: make)
}

/// The triad over `bytes` bytes split across two threads (`DispatchQueue.concurrentPerform`,
/// whose hand-off is in the time: a conservative figure): how much a second core adds to the
/// memory system's throughput, the ceiling of `render()`'s two-core speed-up.
func twoThreadFloorCase(bytes: Int) -> BenchmarkCase {
    BenchmarkCase("frame/floor-2-threads/\(bytes)", items: bytes, item: "byte", unit: .microseconds, quick: false,
                  parameters: ["suite": "frame", "engine": "floor", "bytes": "\(bytes)", "n": "\(bytes)", "threads": "2"],
                  make: { try TriadFloor.workload(bytes: bytes, threads: 2) })
}

/// The triad floor over `bytes` bytes; items are bytes, so the report scales it to any
/// workload touching a known number of bytes.
func floorCase(bytes: Int, quick: Bool) -> BenchmarkCase {
    BenchmarkCase(floorName(bytes: bytes), items: bytes, item: "byte",
                  unit: bytes >= 10_000_000 ? .microseconds : .nanoseconds, quick: quick,
                  parameters: ["suite": "frame", "engine": "floor", "bytes": "\(bytes)", "n": "\(bytes)"],
                  make: { try TriadFloor.workload(bytes: bytes) })
}

/// A frame read by a renderer: N layers under one root (20 x 20, a background colour),
/// each animating its position on one shared linear timing. One iteration is beginFrame,
/// render, the render snapshot (or, `readout`, every layer's `presentation()?.position`, as
/// a renderer read a frame before the snapshot existed) and endFrame, 1/120 s on. The
/// snapshot's item of a sampled layer is checked halfway before anything is timed.
func makeSnapshotFrameWorkload(n: Int, readout: Bool) throws -> Workload {
    let (root, layers, renderer) = makeFlatTree(n, configure: { l, i in
        l.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        l.backgroundColor = CGColor(red: Double(i % 7) / 7, green: 0.5, blue: 1, alpha: 1)
    })
    CATransaction.begin()
    CATransaction.setAnimationDuration(1e7)
    CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
    for (i, l) in layers.enumerated() { l.position = CGPoint(x: Double(i % 100) + 100, y: 50) }
    CATransaction.commit()
    var t = 5e6
    renderer.beginFrame(atTime: t)
    renderer.render()
    let s = renderer.snapshot()
    renderer.endFrame()
    // Precondition: the root and every layer are items; layer k is halfway to x = k % 100 +
    // 100 (its bounds' origin 10 before its position; the root's bounds are empty).
    try BenchmarkError.check(s.count == n + 1, "snapshot/frame/\(n): \(s.count) items, expected \(n + 1)")
    for k in stride(from: 0, to: n, by: max(1, n / 16)) {
        let x = Double(s.transforms[k + 1].row4.x), expected = (Double(k % 100) + 100) / 2 - 10
        try BenchmarkError.check(abs(x - expected) < 1e-3, "snapshot/frame/\(n): layer \(k) at x \(x), expected \(expected)")
    }
    return Workload(retaining: [root, renderer, layers as AnyObject]) {
        t += 1.0 / 120
        renderer.beginFrame(atTime: t)
        renderer.render()
        if readout {
            var sum = 0.0
            for l in layers { sum += Double(l.presentation()?.position.x ?? 0) }
            blackHole(sum)
        } else {
            blackHole(renderer.snapshot().count)
        }
        renderer.endFrame()
    }
}

/// `n` sublayers of a new root, each set up by `configure` and added with actions disabled,
/// and a renderer that has rendered time 0 (every layer committed, nothing animating).
private func makeFlatTree(_ n: Int, make: () -> CALayer = { CALayer() },
                          configure: (CALayer, Int) -> Void = { _, _ in }) -> (CALayer, [CALayer], CARenderer) {
    let root = CALayer()
    var layers: [CALayer] = []
    layers.reserveCapacity(n)
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    for i in 0..<n {
        let l = make()
        configure(l, i)
        root.addSublayer(l)
        layers.append(l)
    }
    CATransaction.commit()
    let renderer = CARenderer(layer: root)
    renderer.renderFrame(atTime: 0)
    return (root, layers, renderer)
}

/// A whole-frame case of either engine: `snapshot/frame/ENGINE/N` (evaluate + snapshot) or
/// `snapshot/frame-readout/ENGINE/N` (evaluate + every layer's `presentation()`).
func snapshotFrameCase(n: Int, engine: String, readout: Bool, quick: Bool, make: @escaping () throws -> Workload) -> BenchmarkCase {
    let kind = readout ? "frame-readout" : "frame"
    return BenchmarkCase("snapshot/\(kind)/\(engine)/\(n)", items: n, item: "layer",
                         unit: engine == "strata" ? .microseconds : .milliseconds, quick: quick,
                         parameters: ["suite": "snapshot", "kind": kind, "engine": engine, "n": "\(n)"], make: make)
}
