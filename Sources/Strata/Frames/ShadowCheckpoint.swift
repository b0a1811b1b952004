import Foundation

/// What a frame's evaluation wrote, kept while `FrameRenderer.renderShadow` evaluates the
/// same animations at other times: every materialised presentation column, and the timing
/// entries' phase, progress, iteration and child time. Restoring copies them back, so the
/// snapshot that evaluated replicator instances leaves the presentation as the frame (and
/// whatever followed it, an `endFrame()` included) left it. The buffers are kept for the
/// next snapshot.
final class ShadowCheckpoint {
    /// The buffers hold the last frame's state (cleared by the next `render()`).
    @exclusivity(unchecked) var holdsFrame = false
    @exclusivity(unchecked) private var columns: [Slab<Double>?] = Array(repeating: nil, count: PropertyTable.count)
    @exclusivity(unchecked) private var columnCounts = [Int](repeating: 0, count: PropertyTable.count)
    @exclusivity(unchecked) private var saved = [Bool](repeating: false, count: PropertyTable.count)
    @exclusivity(unchecked) private var entries = 0
    @exclusivity(unchecked) private var progress: [Double] = []
    @exclusivity(unchecked) private var iteration: [Double] = []
    @exclusivity(unchecked) private var childTime: [Double] = []
    @exclusivity(unchecked) private var phase: [UInt8] = []

    deinit { for c in columns { c?.free() } }

    func save(_ layers: LayerStore, _ timings: TimingStore) {
        for p in 0..<PropertyTable.count {
            guard let pr = layers.presentation[p] else { saved[p] = false; continue }
            let n = layers.capacity * PropertyTable[PropertyID(Int32(p))].width
            if columnCounts[p] < n {
                columns[p]?.free()
                columns[p] = .allocate(capacity: n)
                columnCounts[p] = n
            }
            columns[p]!.base.update(from: pr.base, count: n)
            saved[p] = true
        }
        let n = timings.highWater
        entries = n
        progress.removeAll(keepingCapacity: true)
        progress.append(contentsOf: UnsafeBufferPointer(start: timings.progress.base, count: n))
        iteration.removeAll(keepingCapacity: true)
        iteration.append(contentsOf: UnsafeBufferPointer(start: timings.iteration.base, count: n))
        childTime.removeAll(keepingCapacity: true)
        childTime.append(contentsOf: UnsafeBufferPointer(start: timings.childTime.base, count: n))
        phase.removeAll(keepingCapacity: true)
        phase.append(contentsOf: UnsafeBufferPointer(start: timings.phase.base, count: n))
        holdsFrame = true
    }

    func restore(_ layers: LayerStore, _ timings: TimingStore) {
        for p in 0..<PropertyTable.count where saved[p] {
            guard let pr = layers.presentation[p] else { continue }
            let n = min(columnCounts[p], layers.capacity * PropertyTable[PropertyID(Int32(p))].width)
            pr.base.update(from: columns[p]!.base, count: n)
        }
        let n = min(entries, timings.highWater)
        progress.withUnsafeBufferPointer { timings.progress.base.update(from: $0.baseAddress!, count: n) }
        iteration.withUnsafeBufferPointer { timings.iteration.base.update(from: $0.baseAddress!, count: n) }
        childTime.withUnsafeBufferPointer { timings.childTime.base.update(from: $0.baseAddress!, count: n) }
        phase.withUnsafeBufferPointer { timings.phase.base.update(from: $0.baseAddress!, count: n) }
    }
}
