import CSampler
import Foundation

/// Empties the sampler's ring into Swift arrays on a thread of its own, every `interval`,
/// so the ring (a few thousand slots) serves a run of any length.
final class SampleCollector {
    private(set) var samples: [Sample] = []
    private(set) var addresses: [UInt] = []
    private let interval: TimeInterval
    private let condition = NSCondition()
    private var running = false
    private var exited = false

    init(interval: TimeInterval) {
        self.interval = interval
        samples.reserveCapacity(1 << 14)
        addresses.reserveCapacity(1 << 18)
    }

    func start() {
        running = true
        let thread = Thread { [self] in loop() }
        thread.name = "strata-profiler-collector"
        thread.start()
    }

    private func loop() {
        condition.lock()
        while running {
            condition.unlock()
            drain()
            condition.lock()
            if running { _ = condition.wait(until: Date(timeIntervalSinceNow: interval)) }
        }
        exited = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the thread (after the sampler stopped) and takes what is left.
    func finish() {
        condition.lock()
        running = false
        condition.broadcast()
        while !exited { condition.wait() }
        condition.unlock()
        drain()
    }

    /// Copies every published sample (csampler_drain serializes callers).
    private func drain() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = csampler_drain({ sample, context in
            guard let sample, let context else { return }
            Unmanaged<SampleCollector>.fromOpaque(context).takeUnretainedValue().append(sample)
        }, me)
    }

    private func append(_ s: UnsafePointer<csampler_sample>) {
        let depth = Int(s.pointee.depth)
        let start = addresses.count
        let pcs = csampler_sample_pcs(s)!
        for i in 0..<depth { addresses.append(UInt(pcs[i])) }
        samples.append(Sample(timestampNanoseconds: s.pointee.timestamp_ns, thread: s.pointee.tid,
                              weight: s.pointee.weight, flags: s.pointee.flags,
                              unwindNanoseconds: UInt32(clamping: s.pointee.unwind_ns),
                              handlerNanoseconds: UInt32(clamping: s.pointee.handler_ns),
                              frames: start..<(start + depth)))
    }
}
