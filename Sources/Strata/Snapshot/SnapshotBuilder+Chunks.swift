import Foundation
import Synchronization

extension SnapshotBuilder {
    // MARK: chunks (the pipelined full pass)

    /// Items per chunk.
    static let chunk = 1_024

    /// Resets the chunk counters for a pass over at most `capacity` items.
    func beginChunks(capacity: Int, _ inputs: SnapshotInputs) {
        let chunks = capacity / SnapshotBuilder.chunk + 2
        if chunkDoneCapacity < chunks {
            freeChunkFlags()
            let p = Slab<Atomic<UInt32>>.allocate(capacity: chunks)
            for k in 0..<chunks { (p.base + k).initialize(to: Atomic(0)) }
            chunkDone = p
            chunkDoneCapacity = chunks
        }
        chunkInputs = inputs
        chunkColumns = ItemColumns(output)
        itemsOrdered.store(0, ordering: .relaxed)
        orderedItems.store(-1, ordering: .relaxed)
        nextChunk.store(0, ordering: .relaxed)
        culledByWorker = 0
    }

    /// The worker's part (`WorkerTask`): an update's upper half of the leaves, or a full
    /// pass's chunks until none are left.
    func runOnWorker() {
        if leafSplit > 0 {
            let list = UnsafeBufferPointer(start: leafScratch.base + leafSplitStart, count: leafSplit)
            culledByWorker = computeItems(list, chunkInputs!, chunkColumns!)
        } else {
            culledByWorker = runChunks()
        }
    }

    /// Takes chunks of items in order (shared with the other thread), waits until the walk
    /// has made them and the chunks holding their items' parents are done, computes them.
    /// Returns the items culled.
    func runChunks() -> Int {
        let inputs = chunkInputs!, columns = chunkColumns!, done = chunkDone!, thisPass = pass
        var culled = 0
        while true {
            let k = nextChunk.wrappingAdd(1, ordering: .relaxed).oldValue
            let start = k * SnapshotBuilder.chunk
            var end = start + SnapshotBuilder.chunk
            // Wait for the walk to make the chunk (or to finish short of it).
            while true {
                let total = orderedItems.load(ordering: .acquiring)
                if total >= 0 { end = min(end, total); break }
                if itemsOrdered.load(ordering: .acquiring) >= end { break }
            }
            if start >= end { return culled }
            // Parents in chunks another thread has not finished are computed again here
            // (`pendingContext`), so a chunk does not wait for the one before it.
            culled &+= computeItems(start..<end, inputs, columns, ready: Readiness(start: start, done: done, pass: thisPass))
            done[k].store(thisPass, ordering: .releasing)
        }
    }

    /// Deinitialises and frees the chunk flags (at a regrowth and in `deinit`).
    func freeChunkFlags() {
        guard let d = chunkDone else { return }
        d.base.deinitialize(count: chunkDoneCapacity)
        d.free()
        chunkDone = nil
    }

    /// Which items a chunk thread may read: those before `start` whose chunk is done.
    struct Readiness {
        let start: Int
        let done: Slab<Atomic<UInt32>>
        let pass: UInt32

        @inline(__always)
        func isReady(_ item: Int) -> Bool { done[item / SnapshotBuilder.chunk].load(ordering: .acquiring) == pass }
    }
}

extension SnapshotBuilder: WorkerTask {}
