import Foundation
import StrataBench
import Strata

/// Large layer trees: deep chains, wide fans and balanced trees of 1e4 to 1e6 layers. Each
/// operation is a family over N, so the report fits how its cost grows and flags growth
/// beyond linear.
enum TreeSuite {
    static let sizes = [10_000, 100_000, 1_000_000]

    /// Tree shapes.
    enum Shape: String, CaseIterable {
        /// Each layer the only child of the previous one: depth N.
        case chain
        /// Every layer a child of the root: depth 1, N siblings.
        case fan
        /// Fan-out 8: depth log8 N.
        case balanced
    }

    /// What is timed.
    enum Operation: String, CaseIterable {
        /// Create N layers and link them into the shape (items: layers).
        case build
        /// Move a 64-layer subtree, whose layers carry onOrderIn / onOrderOut actions, into
        /// the deepest point of the tree and out again (items: the two moves; only the moved
        /// layer's order action runs).
        case subtree = "subtree-in-out"
        /// `convertTime(_:from: nil)` for the deepest layer, through every ancestor (items:
        /// conversions).
        case convert = "convert-time"
        /// Read the presentation opacity of every layer while each runs an animation (items:
        /// layers).
        case present = "presentation"
        /// One frame of an animation on every layer, under a root with a time offset of its
        /// own, as a root paused (speed 0) or scrubbed (timeOffset) puts them: the layers'
        /// animations run in the root's time (items: animations).
        case timedFrame = "frame-timed-root"
        /// The same frame with no timed root: `frame-timed-root`'s plain path, beside it in
        /// the same run (items: animations).
        case plainFrame = "frame-plain-root"
    }

    static func cases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for op in Operation.allCases {
            for shape in Shape.allCases {
                for n in sizes {
                    let items: Int
                    switch op {
                    case .build, .present, .timedFrame, .plainFrame: items = n
                    case .subtree: items = 2
                    case .convert: items = 1
                    }
                    cases.append(BenchmarkCase(
                        "tree/\(op.rawValue)/\(shape.rawValue)/\(n)", items: items,
                        item: op == .convert ? "conversion" : op == .subtree ? "move" : op == .timedFrame || op == .plainFrame ? "animation" : "layer",
                        unit: [.build, .present, .timedFrame, .plainFrame].contains(op) ? (n >= 100_000 ? .milliseconds : .microseconds) : .nanoseconds,
                        quick: n == 10_000 && shape != .fan, resets: op == .build,
                        parameters: ["suite": "tree", "operation": op.rawValue, "shape": shape.rawValue, "n": "\(n)"],
                        make: { try workload(op, shape, n) }))
                }
            }
        }
        return cases
    }

    static let subtreeSize = 64

    static func workload(_ op: Operation, _ shape: Shape, _ n: Int) throws -> Workload {
        switch op {
        case .build:
            var tree: Tree?
            return Workload(retaining: [], reset: { tree = nil }) {
                tree = Tree(shape, n)
                blackHole(tree)
            }
        case .subtree: return try subtreeWorkload(shape, n)
        case .convert: return try convertWorkload(shape, n)
        case .present: return try presentWorkload(shape, n)
        case .timedFrame: return try frameWorkload(shape, n, timedRoot: true)
        case .plainFrame: return try frameWorkload(shape, n, timedRoot: false)
        }
    }

    static func subtreeWorkload(_ shape: Shape, _ n: Int) throws -> Workload {
        let tree = Tree(shape, n)
        let renderer = CARenderer(layer: tree.root)
        renderer.renderFrame(atTime: 0)
        // A subtree: a root and 63 children, each with order actions (short fades).
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 0.25
        let actions: [String: CAAction] = [kCAOnOrderIn: fade, kCAOnOrderOut: fade]
        let sub = CALayer()
        sub.actions = actions
        var children: [CALayer] = []
        for _ in 1..<subtreeSize {
            let c = CALayer()
            c.actions = actions
            sub.addSublayer(c)
            children.append(c)
        }
        let target = tree.deepest
        let run = {
            target.addSublayer(sub)
            sub.removeFromSuperlayer()
        }
        // Precondition: joining the tree runs the subtree root's onOrderIn action.
        target.addSublayer(sub)
        try BenchmarkError.check(sub.animation(forKey: kCAOnOrderIn) != nil,
                                 "tree/subtree/\(shape)/\(n): onOrderIn did not run when the subtree joined")
        try BenchmarkError.check(sub.superlayer === target, "tree/subtree/\(shape)/\(n): subtree not linked")
        sub.removeFromSuperlayer()
        try BenchmarkError.check(sub.animation(forKey: kCAOnOrderOut) != nil,
                                 "tree/subtree/\(shape)/\(n): onOrderOut did not run when the subtree left")
        return Workload(retaining: [tree, renderer, sub, children as AnyObject], run: run)
    }

    static func convertWorkload(_ shape: Shape, _ n: Int) throws -> Workload {
        let tree = Tree(shape, n)
        // Ten layers on the path from the root to the deepest layer carry a time offset of
        // 0.5 s (setting one respaces its subtree, so only a few are set): converting a time
        // from the root's space to the deepest layer's adds 5 s.
        var path: [CALayer] = []
        var l: CALayer? = tree.deepest
        while let x = l { path.append(x); l = x.superlayer }
        let timed = stride(from: 0, to: path.count, by: max(1, path.count / 10)).prefix(10).map { path[$0] }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for x in timed { x.timeOffset = 0.5 }
        CATransaction.commit()
        let deepest = tree.deepest
        let expected = 1.0 + 0.5 * Double(timed.count)
        let got = deepest.convertTime(1.0, from: nil)
        try BenchmarkError.check(abs(got - expected) < 1e-9,
                                 "tree/convert/\(shape)/\(n): converted 1.0 to \(got), expected \(expected) (depth \(path.count))")
        var t = 1.0
        return Workload(retaining: [tree, deepest]) {
            t += 1e-6
            blackHole(deepest.convertTime(t, from: nil))
        }
    }

    static func frameWorkload(_ shape: Shape, _ n: Int, timedRoot: Bool) throws -> Workload {
        let name = "tree/\(timedRoot ? Operation.timedFrame.rawValue : Operation.plainFrame.rawValue)/\(shape)/\(n)"
        let tree = Tree(shape, n)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        if timedRoot { tree.root.timeOffset = 0.5 }
        CATransaction.commit()
        let renderer = CARenderer(layer: tree.root)
        renderer.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1e7)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        for l in tree.all { l.opacity = 0 }
        CATransaction.commit()
        var t = 5e6
        renderer.renderFrame(atTime: t)
        // Precondition: halfway (the offset root's time has moved as far as media time),
        // every layer presents 0.5.
        let deep = Double(tree.deepest.presentation()?.opacity ?? -1)
        try BenchmarkError.check(abs(deep - 0.5) < 1e-6, "\(name): deepest opacity \(deep), expected 0.5")
        try BenchmarkError.check(tree.deepest.convertTime(t, from: nil) == t + (timedRoot ? 0.5 : 0),
                                 "\(name): the deepest layer's time is not its root's")
        return Workload(retaining: [tree, renderer]) {
            t += 1.0 / 120
            renderer.renderFrame(atTime: t)
        }
    }

    static func presentWorkload(_ shape: Shape, _ n: Int) throws -> Workload {
        let tree = Tree(shape, n)
        let renderer = CARenderer(layer: tree.root)
        renderer.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(10)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        for l in tree.all { l.opacity = 0 }
        CATransaction.commit()
        renderer.renderFrame(atTime: 5)
        let layers = tree.all
        // Precondition: halfway through, every layer presents opacity 0.5.
        var sum = 0.0
        for l in layers { sum += Double(l.presentation()?.opacity ?? -1) }
        try BenchmarkError.check(abs(sum - 0.5 * Double(layers.count)) < 1e-3 * Double(layers.count),
                                 "tree/presentation/\(shape)/\(n): mean presentation opacity \(sum / Double(layers.count)), expected 0.5")
        return Workload(retaining: [tree, renderer]) {
            var s: Float = 0
            for l in layers { s += l.presentation()?.opacity ?? 0 }
            blackHole(s)
        }
    }
}

/// A tree of N layers (the root included) in a shape. Deep chains are built bottom-up so
/// each link is O(1), and taken down from the bottom so no release recurses.
final class Tree {
    let root: CALayer
    let all: [CALayer]
    /// The last layer of the longest root-to-leaf path.
    let deepest: CALayer

    init(_ shape: TreeSuite.Shape, _ n: Int) {
        var layers: [CALayer] = []
        layers.reserveCapacity(n)
        for _ in 0..<n { layers.append(CALayer()) }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        switch shape {
        case .chain:
            for i in stride(from: n - 1, to: 0, by: -1) { layers[i - 1].addSublayer(layers[i]) }
            deepest = layers[n - 1]
        case .fan:
            for i in 1..<n { layers[0].addSublayer(layers[i]) }
            deepest = layers[n - 1]
        case .balanced:
            for i in 1..<n { layers[(i - 1) / 8].addSublayer(layers[i]) }
            deepest = layers[n - 1]
        }
        CATransaction.commit()
        root = layers[0]
        all = layers
    }

    deinit {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for l in all.reversed() { l.removeFromSuperlayer() }
        CATransaction.commit()
    }
}
