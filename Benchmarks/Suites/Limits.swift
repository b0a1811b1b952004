import Foundation
import StrataBench
@_spi(Benchmarks) import Strata

/// Large counts: a tree of `layers` layers (containers of 1,000 leaves) and `animations`
/// running animations (implicit opacity changes, one per leaf, in one transaction), on an
/// engine of its own. Either it runs, every count and a sample of presentation values right,
/// or it stops at a capacity limit with `.outOfCapacity` diagnostics (never a wrapped index).
public enum Limits {
    public struct Result: Codable, Sendable {
        public var layers: Int
        public var animations: Int
        public var buildSeconds: Double
        public var changeSeconds: Double
        public var frameMs: [Double]
        /// The render snapshot of the whole tree: a full pass, then an update (ms).
        public var snapshotMs: [Double]
        public var releaseSeconds: Double
        public var storeBytes: Int
        public var residentBytes: Int
        public var diagnostics: [String]
        public var failures: [String]
        public var passed: Bool { failures.isEmpty }
    }

    public static func run(layers: Int, animations: Int, progress: @escaping (String) -> Void = { _ in }) -> Result {
        // `runHere` does not throw.
        try! onFreshEngine(named: "strata-limits") { runHere(layers: layers, animations: animations, progress: progress) }
    }

    private static func seconds(since t: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - t) / 1e9 }

    private static func runHere(layers n: Int, animations a: Int, progress: (String) -> Void) -> Result {
        var failures: [String] = []
        var diagnostics: [String] = []
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        var t0 = DispatchTime.now().uptimeNanoseconds
        var containers: [CALayer] = []
        var leaves: [CALayer] = []
        leaves.reserveCapacity(n)
        let d1 = StrataDiagnostics.capture {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            while 1 + containers.count + leaves.count < n {
                if leaves.count == containers.count * 999 {   // a full (or no) container: a new one
                    let c = CALayer()
                    root.addSublayer(c)
                    containers.append(c)
                    if containers.count % 1_000 == 0 { progress("\(1 + containers.count + leaves.count) layers") }
                    continue
                }
                let l = CALayer()
                containers[containers.count - 1].addSublayer(l)
                leaves.append(l)
            }
            CATransaction.commit()
        }
        diagnostics += d1.map(\.message)
        let build = seconds(since: t0)
        renderer.renderFrame(atTime: 0)
        if StrataEngine.layerCount != min(n, StrataEngine.capacityLimits.layers) {
            failures.append("the engine holds \(StrataEngine.layerCount) layers, \(n) were made")
        }
        progress("\(StrataEngine.layerCount) layers in \(String(format: "%.1f", build)) s; now \(min(a, leaves.count)) implicit changes")
        t0 = DispatchTime.now().uptimeNanoseconds
        let animated = min(a, leaves.count)
        let d2 = StrataDiagnostics.capture {
            CATransaction.begin()
            CATransaction.setAnimationDuration(1)
            CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
            for i in 0..<animated { leaves[i].opacity = 0 }
            CATransaction.commit()
        }
        diagnostics += d2.map(\.message)
        let change = seconds(since: t0)
        let expected = min(animated, StrataEngine.capacityLimits.animations)
        if StrataEngine.activeAnimationCount != expected {
            failures.append("\(StrataEngine.activeAnimationCount) animations running, \(expected) expected")
        }
        progress("\(StrataEngine.activeAnimationCount) animations in \(String(format: "%.1f", change)) s; frames")
        var frames: [Double] = []
        for (k, time) in [0.25, 0.5, 0.75].enumerated() {
            t0 = DispatchTime.now().uptimeNanoseconds
            renderer.renderFrame(atTime: time)
            frames.append(seconds(since: t0) * 1e3)
            for i in stride(from: 0, to: expected, by: max(1, expected / 1_000)) {
                let shown = leaves[i].presentation()!.opacity
                if abs(Double(shown) - (1 - time)) > 1e-6 {
                    failures.append("frame \(k): layer \(i) shows \(shown), \(1 - time) expected")
                    break
                }
            }
        }
        // The render snapshot of the whole tree at the last frame: every layer an item, the
        // animated leaves at 1 - 0.75 of their opacity.
        var snapshotMs: [Double] = []
        for pass in 0..<2 {
            t0 = DispatchTime.now().uptimeNanoseconds
            let snap = renderer.snapshot()
            snapshotMs.append(seconds(since: t0) * 1e3)
            if snap.count != StrataEngine.layerCount {
                failures.append("snapshot \(pass): \(snap.count) items, \(StrataEngine.layerCount) layers")
                break
            }
            for k in stride(from: 0, to: snap.count, by: max(1, snap.count / 1_000)) where snap.parents[Int(snap.drawOrder[k])] > 0 {
                let i = Int(snap.drawOrder[k])
                let expectedOpacity: Float = snap.layer(at: i)?.animation(forKey: "opacity") != nil ? 0.25 : 1
                if abs(snap.opacities[i] - expectedOpacity) > 1e-6 {
                    failures.append("snapshot \(pass): item \(i) at opacity \(snap.opacities[i]), \(expectedOpacity) expected")
                    break
                }
            }
        }
        progress("snapshots of \(StrataEngine.layerCount) layers in \(snapshotMs.map { String(format: "%.0f", $0) }.joined(separator: ", ")) ms")
        let m = StrataEngine.memory
        let resident = SceneMemory.residentBytes()
        renderer.renderFrame(atTime: 2)
        if StrataEngine.activeAnimationCount != 0 { failures.append("\(StrataEngine.activeAnimationCount) animations left after they ended") }
        t0 = DispatchTime.now().uptimeNanoseconds
        leaves = []
        containers = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.sublayers = nil   // the tree lets go of its layers: all of them are freed
        CATransaction.commit()
        let release = seconds(since: t0)
        if StrataEngine.layerCount != 1 { failures.append("\(StrataEngine.layerCount - 1) layers left after the release") }
        withExtendedLifetime((root, renderer)) {}
        return Result(layers: n, animations: expected, buildSeconds: build, changeSeconds: change, frameMs: frames, snapshotMs: snapshotMs,
                      releaseSeconds: release, storeBytes: m.totalBytes, residentBytes: resident,
                      diagnostics: Array(Set(diagnostics)).sorted(), failures: failures)
    }
}
