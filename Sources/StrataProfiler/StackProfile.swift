import Foundation

/// A profile with names: every sample's stack as function frames (root first), identical
/// stacks merged per thread. The input of every output format but gperftools' (which
/// takes raw addresses).
public struct StackProfile: Sendable {
    /// A function in an object.
    public struct Frame: Hashable, Sendable {
        public var name: String
        public var module: String
        public var path: String
    }

    /// An interrupted instruction (a sample's leaf) and the samples that stopped there.
    public struct LeafAddress: Sendable {
        /// The leaf frame's function (index into `frames`).
        public var frame: Int
        /// The instruction's offset in its object (`Symbolizer.Symbol.objectOffset`).
        public var objectOffset: UInt
        /// Samples that stopped at it.
        public var samples: Int
    }

    /// A distinct stack of one thread and the samples that had it.
    public struct Stack: Sendable {
        /// Indices into `frames`, root first.
        public var frames: [Int]
        public var thread: Int32
        /// Samples with this stack.
        public var samples: Int
        /// Their summed weight (timer periods).
        public var weight: Int
    }

    /// A frame's share of the samples.
    public struct FrameShare: Sendable {
        public var frame: Frame
        /// Samples with this frame as the leaf.
        public var selfSamples: Int
        /// Samples with this frame anywhere in the stack (counted once per sample).
        public var inclusiveSamples: Int
        public var selfPercent: Double
        public var inclusivePercent: Double
    }

    public private(set) var frames: [Frame] = []
    public private(set) var stacks: [Stack] = []
    /// Each sample's stack (index into `stacks`), in time order.
    public private(set) var sampleStacks: [Int] = []
    /// Each sample's weight, in time order.
    public private(set) var sampleWeights: [Int] = []
    /// Every distinct leaf instruction, with its samples (for source lines).
    public private(set) var leafAddresses: [LeafAddress] = []
    /// Each frame's function start as an offset in its object (nil when no symbol gave one).
    public private(set) var functionStarts: [UInt?] = []
    /// Each frame's function start as a source position, once `attachSourceLines()` ran.
    public private(set) var frameLocations: [SourceLocation?] = []
    /// Each of `leafAddresses`' source position, once `attachSourceLines()` ran (empty before).
    public private(set) var leafLocations: [SourceLocation?] = []
    /// Threads with samples, in order of first sample.
    public private(set) var threads: [Int32] = []
    public private(set) var totalSamples = 0
    public private(set) var totalWeight = 0
    /// Nanoseconds one unit of weight stands for.
    public let periodNanoseconds: UInt64
    /// Length of the run.
    public let durationNanoseconds: UInt64

    init(_ profile: Profile, symbolizer: Symbolizer) {
        periodNanoseconds = profile.periodNanoseconds
        durationNanoseconds = profile.endNanoseconds &- profile.startNanoseconds
        var frameIndex: [Frame: Int] = [:]
        var stackIndex: [StackKey: Int] = [:]
        var seenThreads = Set<Int32>()
        var leafIndex: [UInt: Int] = [:]
        for sample in profile.samples {
            var path: [Int] = []
            path.reserveCapacity(sample.frames.count)
            // Leaf first in the profile; root first here.
            for (i, address) in profile.frames(of: sample).enumerated().reversed() {
                let s = symbolizer.symbol(for: address, exact: i == 0)
                let f = Frame(name: s.name, module: s.module, path: s.path)
                if let k = frameIndex[f] { path.append(k) } else {
                    frameIndex[f] = frames.count
                    path.append(frames.count)
                    frames.append(f)
                    functionStarts.append(s.source == .none || s.path.isEmpty ? nil : s.objectOffset &- s.offset)
                }
                if i == 0 && !s.path.isEmpty {
                    if let l = leafIndex[address] { leafAddresses[l].samples += 1 } else {
                        leafIndex[address] = leafAddresses.count
                        leafAddresses.append(LeafAddress(frame: path.last!, objectOffset: s.objectOffset, samples: 1))
                    }
                }
            }
            let key = StackKey(thread: sample.thread, frames: path)
            let w = Int(sample.weight)
            let k: Int
            if let existing = stackIndex[key] {
                k = existing
                stacks[k].samples += 1
                stacks[k].weight += w
            } else {
                k = stacks.count
                stackIndex[key] = k
                stacks.append(Stack(frames: path, thread: sample.thread, samples: 1, weight: w))
            }
            sampleStacks.append(k)
            sampleWeights.append(w)
            if seenThreads.insert(sample.thread).inserted { threads.append(sample.thread) }
            totalSamples += 1
            totalWeight += w
        }
    }

    /// Sets `frameLocations` and `leafLocations` from resolved object offsets.
    mutating func setSourceLocations(_ found: [String: [UInt: SourceLocation]]) {
        frameLocations = frames.indices.map { k in functionStarts[k].flatMap { found[frames[k].path]?[$0] } }
        leafLocations = leafAddresses.map { found[frames[$0.frame].path]?[$0.objectOffset] }
    }

    private struct StackKey: Hashable {
        var thread: Int32
        var frames: [Int]
    }

    /// Frames by self samples (ties by inclusive), with both shares.
    ///
    /// - Complexity: O(total frames of all distinct stacks).
    public func topFrames(_ count: Int = 10) -> [FrameShare] {
        var selfCount = [Int](repeating: 0, count: frames.count)
        var inclusive = [Int](repeating: 0, count: frames.count)
        var mark = [Int](repeating: -1, count: frames.count)
        for (k, s) in stacks.enumerated() {
            if let leaf = s.frames.last { selfCount[leaf] += s.samples }
            for f in s.frames where mark[f] != k {
                mark[f] = k
                inclusive[f] += s.samples
            }
        }
        let total = Double(max(totalSamples, 1))
        return frames.indices
            .sorted { (selfCount[$0], inclusive[$0]) > (selfCount[$1], inclusive[$1]) }
            .prefix(count)
            .map { FrameShare(frame: frames[$0], selfSamples: selfCount[$0], inclusiveSamples: inclusive[$0],
                              selfPercent: 100 * Double(selfCount[$0]) / total,
                              inclusivePercent: 100 * Double(inclusive[$0]) / total) }
    }

    /// Percentage of samples whose stack has a frame for which `matches` holds.
    public func inclusivePercent(where matches: (Frame) -> Bool) -> Double {
        let hit = frames.map(matches)
        var n = 0
        for s in stacks where s.frames.contains(where: { hit[$0] }) { n += s.samples }
        return totalSamples == 0 ? 0 : 100 * Double(n) / Double(totalSamples)
    }
}
