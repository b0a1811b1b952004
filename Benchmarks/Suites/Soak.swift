import Foundation
import StrataBench
import StrataScript
@_spi(Benchmarks) import Strata

/// The soak: a large tree under constant churn for many frames, on an engine of its own, with
/// the invariants a long-running user relies on checked as it goes:
/// - layers: the engine holds exactly the layers the soak holds (none leaked, none lost);
/// - animations: every animation added is finished, replaced or removed, and each delegate
///   hears exactly one `animationDidStop`; after the final frames none is left running;
/// - completion blocks: every transaction's block runs exactly once;
/// - memory: after the warm-up the engine's store capacities and the process's resident
///   memory stay within a bound of their warm-up readings.
///
/// Each frame: `churn` leaf layers are released and as many new ones added (with an onOrderIn
/// lookup each), `changes` implicit property changes in a transaction with a completion block,
/// `explicit` explicit animations (some replacing a running one under the same key, some
/// removed before they end), then the frame.
public enum Soak {
    public struct Configuration: Sendable {
        public var layers = 100_000
        public var frames = 1_000_000
        public var churn = 100
        public var changes = 1_000
        public var explicit = 50
        public var seed: UInt64 = 0x50A4
        /// Readings (memory, counts) every this many frames.
        public var checkEvery = 10_000
        /// Frames before the memory baseline is read.
        public var warmupFrames = 2_000
        /// Allowed growth over the warm-up readings: store bytes (a fraction) and resident
        /// memory (bytes; the allocator keeps some slack).
        public var storeSlack = 0.05
        public var residentSlack = 16 << 20

        public init() {}
    }

    public struct Reading: Codable, Equatable, Sendable {
        public var frame: Int
        public var layers: Int
        public var animations: Int
        public var storeBytes: Int
        public var residentBytes: Int
        public var frameMs: Double
    }

    public struct Result: Codable, Equatable, Sendable {
        public var frames: Int
        public var layers: Int
        public var seconds: Double
        public var readings: [Reading]
        /// Transactions committed, and how many of their completion blocks ran 0, 1 or more
        /// times (all must be exactly once).
        public var transactions: Int
        public var completionsNotRun: Int
        public var completionsRunTwice: Int
        /// Explicit animations added, and delegate stops heard per animation.
        public var explicitAdded: Int
        public var stopsMissing: Int
        public var stopsRepeated: Int
        /// Layers released and created by the churn.
        public var layersReleased: Int
        /// Animations left running after the final frames (0).
        public var animationsLeft: Int
        /// The engine's layer count minus the soak's own layers (0).
        public var layersLeaked: Int
        public var warmupStoreBytes: Int
        public var peakStoreBytes: Int
        public var warmupResidentBytes: Int
        public var peakResidentBytes: Int
        /// Everything that went wrong, in words (empty when the soak held).
        public var failures: [String]

        public var passed: Bool { failures.isEmpty }
    }

    /// Callbacks still owed, by tag: an entry is added when the animation (or transaction)
    /// starts and removed by its one callback; a second callback finds none (counted). The
    /// sets stay as small as what is in flight, so the soak's own memory does not grow.
    final class Owed {
        var open = Set<Int>()
        var next = 0
        var heard = 0
        var repeated = 0
        func expect() -> Int { next += 1; open.insert(next); return next }
        func hear(_ tag: Int) {
            heard += 1
            if open.remove(tag) == nil { repeated += 1 }
        }
    }

    /// One animation's delegate (Core Animation retains it): tells `owed` of its stop.
    final class StopListener: NSObject, CAAnimationDelegate {
        let owed: Owed
        let tag: Int
        init(_ owed: Owed) { self.owed = owed; tag = owed.expect() }
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { owed.hear(tag) }
    }

    /// Runs the soak on a thread of its own (a fresh engine) and returns what it saw.
    public static func run(_ c: Configuration, progress: @escaping (String) -> Void = { _ in }) -> Result {
        // `runHere` does not throw.
        try! onFreshEngine(named: "strata-soak") { runHere(c, progress: progress) }
    }

    private static func runHere(_ c: Configuration, progress: (String) -> Void) -> Result {
        var rng = SeededGenerator(seed: c.seed)
        func random(_ n: Int) -> Int { Int(rng.next() % UInt64(max(n, 1))) }
        let started = DispatchTime.now().uptimeNanoseconds
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        // Containers of 100 leaves; churn replaces leaves.
        let containerCount = max(1, c.layers / 100)
        var containers: [CALayer] = []
        var leaves: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for _ in 0..<containerCount {
            let container = CALayer()
            root.addSublayer(container)
            containers.append(container)
        }
        while containers.count + leaves.count < c.layers {
            let l = CALayer()
            containers[leaves.count % containerCount].addSublayer(l)
            leaves.append(l)
        }
        CATransaction.commit()
        renderer.renderFrame(atTime: 0)

        let completions = Owed()
        let stops = Owed()
        var released = 0
        var readings: [Reading] = []
        var failures: [String] = []
        var warmupStore = 0, warmupResident = 0, peakStore = 0, peakResident = 0
        let budgets = [0.1, 0.25, 0.4]
        var frameNs: UInt64 = 0, framesTimed = 0

        func read(_ frame: Int) {
            let m = StrataEngine.memory
            let r = Reading(frame: frame, layers: m.layers, animations: m.animations, storeBytes: m.totalBytes,
                            residentBytes: SceneMemory.residentBytes(),
                            frameMs: Double(frameNs) / 1e6 / Double(max(1, framesTimed)))
            frameNs = 0
            framesTimed = 0
            readings.append(r)
            if r.layers != 1 + containers.count + leaves.count {
                failures.append("frame \(frame): the engine holds \(r.layers) layers, the soak \(1 + containers.count + leaves.count)")
            }
            if frame >= c.warmupFrames {
                if warmupStore == 0 { warmupStore = r.storeBytes; warmupResident = r.residentBytes }
                peakStore = max(peakStore, r.storeBytes)
                peakResident = max(peakResident, r.residentBytes)
            }
        }

        for f in 1...max(c.frames, 1) where c.frames > 0 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let now = Double(f) / 60
            // Churn: release leaves, add new ones (onOrderIn looked up for each).
            for _ in 0..<c.churn {
                let i = random(leaves.count)
                leaves[i].removeFromSuperlayer()
                let l = CALayer()
                containers[random(containerCount)].addSublayer(l)
                leaves[i] = l   // the old layer's last reference goes here
                released += 1
            }
            // Implicit changes in a transaction whose completion block is counted.
            let tx = completions.expect()
            CATransaction.begin()
            CATransaction.setAnimationDuration(budgets[f % budgets.count])
            CATransaction.setCompletionBlock { completions.hear(tx) }
            for _ in 0..<c.changes {
                let l = leaves[random(leaves.count)]
                switch random(3) {
                case 0: l.opacity = Float(random(100)) / 100
                case 1: l.position = CGPoint(x: random(400), y: random(800))
                default: l.bounds = CGRect(x: 0, y: 0, width: 10 + random(40), height: 10 + random(40))
                }
            }
            CATransaction.commit()
            // Explicit animations: added (some replacing one under the same key), some removed.
            for k in 0..<c.explicit {
                let l = leaves[random(leaves.count)]
                if k % 5 == 4 {
                    l.removeAnimation(forKey: "soak")
                    continue
                }
                let a = CABasicAnimation(keyPath: k % 2 == 0 ? "position.x" : "opacity")
                a.fromValue = 0.0
                a.toValue = k % 2 == 0 ? 100.0 : 1.0
                a.duration = 0.05 + Double(random(20)) / 100
                a.delegate = StopListener(stops)
                l.add(a, forKey: "soak")
            }
            renderer.renderFrame(atTime: now)
            frameNs &+= DispatchTime.now().uptimeNanoseconds &- t0
            framesTimed += 1
            if f % c.checkEvery == 0 || f == c.warmupFrames {
                read(f)
                progress("frame \(f) of \(c.frames): \(readings.last!.animations) animations, stores \(readings.last!.storeBytes >> 20) MiB, resident \(readings.last!.residentBytes >> 20) MiB, \(String(format: "%.2f", readings.last!.frameMs)) ms per frame")
            }
        }
        // Final frames: every animation ends (the longest lasts 0.4 s).
        for k in 1...60 { renderer.renderFrame(atTime: Double(c.frames) / 60 + Double(k) / 60) }
        read(c.frames + 60)
        let animationsLeft = StrataEngine.activeAnimationCount
        let leaked = StrataEngine.layerCount - (1 + containers.count + leaves.count)
        let notRun = completions.open.count, twice = completions.repeated
        let missing = stops.open.count, repeated = stops.repeated
        if animationsLeft != 0 { failures.append("\(animationsLeft) animations still running after the final frames") }
        if leaked != 0 { failures.append("the engine holds \(leaked) layers more than the soak") }
        if notRun != 0 { failures.append("\(notRun) completion blocks never ran") }
        if twice != 0 { failures.append("\(twice) completion blocks ran more than once") }
        if missing != 0 { failures.append("\(missing) animations' delegates never heard a stop") }
        if repeated != 0 { failures.append("\(repeated) animations' delegates heard more than one stop") }
        if warmupStore > 0 && Double(peakStore) > Double(warmupStore) * (1 + c.storeSlack) {
            failures.append("store bytes grew from \(warmupStore) after the warm-up to \(peakStore)")
        }
        if warmupResident > 0 && peakResident > warmupResident + c.residentSlack {
            failures.append("resident memory grew from \(warmupResident >> 20) MiB after the warm-up to \(peakResident >> 20) MiB")
        }
        let result = Result(frames: c.frames, layers: c.layers,
                            seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, readings: readings,
                            transactions: completions.next, completionsNotRun: notRun, completionsRunTwice: twice,
                            explicitAdded: stops.next, stopsMissing: missing, stopsRepeated: repeated,
                            layersReleased: released, animationsLeft: animationsLeft, layersLeaked: leaked,
                            warmupStoreBytes: warmupStore, peakStoreBytes: peakStore,
                            warmupResidentBytes: warmupResident, peakResidentBytes: peakResident, failures: failures)
        withExtendedLifetime((root, renderer, containers, leaves)) {}
        return result
    }
}
