import Foundation
import StrataBench
@_spi(Benchmarks) import Strata

/// Subtree moves in a frame (issue 45): `snapshot/moves/N` is one whole frame in a tree of N
/// layers (containers of 89 cells, 1% of the cells running an explicit animation), as
/// stress-100k's with 100 changes a frame: N / 1,000 cells changed implicitly, then the frame
/// rendered and its snapshot taken, with N / 1,000 ten-layer subtrees moved: half into
/// another container, half out of the tree or back in. `snapshot/moves-none/N` is the same
/// frame without the moves: an update. The snapshot splices the moved subtrees into its
/// order instead of a full pass.
extension SnapshotSuite {
    static let moveSizes = [10_000, 100_000]

    static func moveCases() -> [BenchmarkCase] {
        var cases: [BenchmarkCase] = []
        for n in moveSizes {
            let unit: TimeUnit = n >= 100_000 ? .milliseconds : .microseconds
            let plain = "snapshot/moves-none/\(n)"
            cases.append(BenchmarkCase(plain, items: n, item: "layer", unit: unit, quick: false,
                                       parameters: ["suite": "snapshot", "kind": "moves-none", "n": "\(n)"],
                                       make: { try movesWorkload(n: n, moves: false) }))
            cases.append(BenchmarkCase("snapshot/moves/\(n)", items: n, item: "layer", unit: unit, quick: n == 10_000,
                                       parameters: ["suite": "snapshot", "kind": "moves", "n": "\(n)",
                                                    "moves": "\(n / 1_000)", "relativeTo": plain],
                                       make: { try movesWorkload(n: n, moves: true) }))
        }
        return cases
    }

    /// The tree, rendered once and snapshotted (the change log's owner), and a body moving
    /// N / 1,000 subtrees (`moves`) then taking the snapshot.
    static func movesWorkload(n: Int, moves: Bool) throws -> Workload {
        let name = "snapshot/moves\(moves ? "" : "-none")/\(n)"
        let count = n / 1_000
        let root = CALayer()
        var containers: [CALayer] = [], cells: [CALayer] = [], pool: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for c in 0..<(n - 20 * count - 1) / 90 {
            let container = CALayer()
            container.bounds = CGRect(x: 0, y: 0, width: 400, height: 800)
            container.position = CGPoint(x: Double(c % 10) * 40, y: Double(c % 7) * 20)
            for k in 0..<89 {
                let cell = CALayer()
                cell.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
                cell.position = CGPoint(x: Double(k % 9) * 22, y: Double(k / 9) * 22)
                cell.backgroundColor = CGColor(red: Double(k % 7) / 7, green: 0.5, blue: 1, alpha: 1)
                container.addSublayer(cell)
                cells.append(cell)
            }
            root.addSublayer(container)
            containers.append(container)
        }
        // Twice as many subtrees as a frame moves: half in the tree to begin with.
        for s in 0..<(2 * count) {
            let subtree = CALayer()
            subtree.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
            subtree.backgroundColor = CGColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 0.6)
            for k in 0..<9 {
                let dot = CALayer()
                dot.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
                dot.position = CGPoint(x: Double(k % 7) * 8 + 6, y: Double(k / 7) * 8 + 6)
                subtree.addSublayer(dot)
            }
            if s % 2 == 0 { containers[(s * 7919) % containers.count].addSublayer(subtree) }
            pool.append(subtree)
        }
        CATransaction.commit()
        let renderer = CARenderer(layer: root)
        renderer.renderFrame(atTime: 0)
        // 1% of the cells animate their position (the update recomputes them every frame).
        CATransaction.begin()
        CATransaction.setAnimationDuration(1e7)
        for i in stride(from: 0, to: cells.count, by: 100) { cells[i].position = CGPoint(x: 500, y: 0) }
        CATransaction.commit()
        renderer.renderFrame(atTime: 1)
        _ = renderer.snapshot()
        var frame = 0, changed = 0
        /// The frame's implicit changes (animations of 0.25 s, retired as time goes on).
        func changeCells() {
            CATransaction.begin()
            for k in 0..<count {
                let cell = cells[(changed * 7 + k * 104_729) % cells.count]
                if (changed + k) % 2 == 0 { cell.opacity = Float((changed + k) % 9 + 1) / 10 } else {
                    cell.position = CGPoint(x: Double((changed * 31 + k) % 400), y: Double(k % 800))
                }
            }
            CATransaction.commit()
            changed += 1
        }
        func render() {
            renderer.renderFrame(atTime: 1 + Double(changed) / 60)
        }
        func moveSubtrees() {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            for k in 0..<count {
                let s = pool[(frame * count + k) % pool.count]
                if k % 2 == 0 || s.superlayer == nil {
                    containers[(frame * 131 + k * 7919) % containers.count].addSublayer(s)
                } else {
                    s.removeFromSuperlayer()
                }
            }
            CATransaction.commit()
            frame += 1
        }
        // Preconditions: a frame of moves is spliced (no full pass), and draws what a full
        // pass of the same tree draws.
        let layers = 1 + containers.count * 90 + 10 * pool.count
        if moves {
            moveSubtrees()
            let s = renderer.snapshot()
            try BenchmarkError.check(!s.wasFullPass && s.splicedItems > 0,
                                     "\(name): the moves were not spliced (full pass: \(s.wasFullPass), \(s.splicedItems) items spliced)")
            let spliced = s.itemsInDrawOrder()
            let full = renderer.snapshotFullPass().itemsInDrawOrder()
            try BenchmarkError.check(spliced == full, "\(name): the spliced snapshot differs from a full pass")
            _ = renderer.snapshot()
        }
        let shown = 1 + containers.count * 90 + 10 * pool.filter { $0.superlayer != nil }.count
        try BenchmarkError.check(renderer.snapshot().count == shown, "\(name): \(renderer.snapshot().count) items, \(shown) shown (\(layers) layers)")
        let retained: [AnyObject] = [root, renderer] + containers + pool
        if moves {
            return Workload(retaining: retained) {
                changeCells()
                moveSubtrees()
                render()
                blackHole(renderer.snapshot().splicedItems)
            }
        }
        return Workload(retaining: retained) {
            changeCells()
            render()
            blackHole(renderer.snapshot().recomputedItems)
        }
    }
}
