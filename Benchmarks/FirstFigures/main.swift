// First figures of the engine core (issue 2), before the Google Benchmark harness exists:
// per-frame evaluation cost of N running opacity / position animations, and the cost of one
// property change inside a transaction. Release build:
//   swift run -c release -Xswiftc -target-cpu -Xswiftc haswell strata-firstbench
// Each figure is the median of repeated timed batches; a memory triad over the same number
// of bytes the frame kernel touches is timed in the same run as a floor.
import Foundation
import Strata

@inline(never) func blackHole<T>(_ x: T) { withExtendedLifetime(x) {} }

func nowNS() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Median ns per item over `reps` timed batches of `body` (which handles `items` items).
func measure(reps: Int, items: Int, _ body: () -> Void) -> Double {
    body() // warm-up
    var samples: [Double] = []
    for _ in 0..<reps {
        let t0 = nowNS()
        body()
        samples.append(Double(nowNS() - t0) / Double(items))
    }
    return median(samples)
}

enum Kind: String { case opacity, position, keyframes8 = "keyframe (8 keys, position)", path = "path (cubic, paced, position)" }

func frameCost(_ kind: Kind, n: Int) -> (ns: Double, bytes: Int) {
    let root = CALayer()
    var layers: [CALayer] = []
    layers.reserveCapacity(n)
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    for _ in 0..<n { let l = CALayer(); root.addSublayer(l); layers.append(l) }
    CATransaction.commit()
    let r = CARenderer(layer: root)
    r.renderFrame(atTime: 0)
    CATransaction.begin()
    CATransaction.setAnimationDuration(1e6)
    for (i, l) in layers.enumerated() {
        switch kind {
        case .opacity: l.opacity = Float(i % 100) / 100
        case .position: l.position = CGPoint(x: Double(i), y: Double(i % 7))
        case .keyframes8:
            let a = CAKeyframeAnimation(keyPath: "position")
            a.values = (0..<8).map { CGPoint(x: Double($0 * 10 + i % 5), y: Double(($0 * 37) % 11)) }
            a.duration = 1e6
            l.add(a, forKey: "k")
        case .path:
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 150))
            path.addCurve(to: CGPoint(x: 300, y: 150), control1: CGPoint(x: 75, y: Double(i % 10)),
                          control2: CGPoint(x: 225, y: 300))
            let a = CAKeyframeAnimation(keyPath: "position")
            a.path = path
            a.calculationMode = .paced
            a.duration = 1e6
            l.add(a, forKey: "p")
        }
    }
    CATransaction.commit()
    precondition(StrataEngine.activeAnimationCount == n, "expected \(n) running animations")
    var t = 1.0
    r.renderFrame(atTime: t)
    // Check the result before timing: halfway values are between from and to.
    let ns = measure(reps: 31, items: n) {
        for _ in 0..<10 { t += 1.0 / 120; r.beginFrame(atTime: t); r.render(); r.endFrame() }
    } / 10
    let width = kind == .opacity ? 1 : 2
    // from + delta (2 * width doubles) + layer + timing index (8 bytes) read, width doubles
    // written; keyframes read 8 bytes per key time and 32 bytes per lane of the segment too.
    let bytes = n * (3 * width * 8 + 8) + (kind == .keyframes8 || kind == .path ? n * (8 * 8 + 4 * width * 8) : 0)
    blackHole(layers)
    for l in layers { l.removeFromSuperlayer() }
    return (ns, bytes)
}

/// STREAM-like triad over `bytes`: the memory floor of touching that many bytes once.
func triadCost(bytes: Int, items: Int) -> Double {
    let n = max(bytes / 24, 8)
    let a = UnsafeMutablePointer<Double>.allocate(capacity: n)
    let b = UnsafeMutablePointer<Double>.allocate(capacity: n)
    let c = UnsafeMutablePointer<Double>.allocate(capacity: n)
    a.initialize(repeating: 1, count: n); b.initialize(repeating: 2, count: n); c.initialize(repeating: 0, count: n)
    defer { a.deallocate(); b.deallocate(); c.deallocate() }
    let ns = measure(reps: 31, items: items) {
        for _ in 0..<10 { for i in 0..<n { c[i] = a[i] + 0.5 * b[i] }; blackHole(c[n / 2]) }
    } / 10
    return ns
}

/// One property change inside an open transaction (lookup + model write + animation
/// record), timed apart from the commit and the frames that retire the animations.
func changeCost(n: Int) -> Double {
    let root = CALayer()
    var layers: [CALayer] = []
    for _ in 0..<n { let l = CALayer(); root.addSublayer(l); layers.append(l) }
    let r = CARenderer(layer: root)
    r.renderFrame(atTime: 0)
    var t = 0.0, v: Float = 0
    var samples: [Double] = []
    for rep in 0..<32 {
        v = v == 0 ? 1 : 0
        CATransaction.begin()
        let t0 = nowNS()
        for l in layers { l.opacity = v }
        let t1 = nowNS()
        CATransaction.commit()
        precondition(StrataEngine.activeAnimationCount == n)
        t += 1
        r.renderFrame(atTime: t)
        t += 1
        r.renderFrame(atTime: t)   // retired: every batch starts with no running animation
        if rep > 0 { samples.append(Double(t1 - t0) / Double(n)) }
    }
    blackHole(layers)
    return median(samples)
}

let only = CommandLine.arguments.dropFirst().first   // "frame" or "change" to run one part
func row(_ name: String, _ n: Int, _ ns: Double, _ ratio: Double?) {
    let r = ratio.map { String(format: "%10.2f", $0) } ?? ""
    print(name.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%10d %12.3f", n, ns) + r)
}
print("strata-firstbench (release: \(_isDebugAssertConfiguration() ? "NO, debug build" : "yes"))")
print("workload".padding(toLength: 40, withPad: " ", startingAt: 0) + "         N      ns/item   x triad")
if only == nil || only == "frame" {
    for kind in [Kind.opacity, .position, .keyframes8, .path] {
        for n in (kind == .opacity || kind == .position) ? [10_000, 100_000] : [10_000] {
            let (ns, bytes) = frameCost(kind, n: n)
            let floor = triadCost(bytes: bytes, items: n)
            row("frame \(kind.rawValue)", n, ns, ns / floor)
        }
    }
}
if only == nil || only == "change" {
    row("change opacity in transaction", 10_000, changeCost(n: 10_000), nil)
}
