import CSampler
import Foundation
@testable import StrataProfiler
import XCTest

/// The sampler in this process: unwinders, counters, symbolizer, link order.
final class SamplingProfilerTests: XCTestCase {
    /// Spins until this thread has used `nanoseconds` of CPU.
    @inline(never)
    static func inner(_ nanoseconds: UInt64) -> UInt64 {
        let end = csampler_thread_cpu_ns() + nanoseconds
        var x: UInt64 = 1
        while csampler_thread_cpu_ns() < end {
            for _ in 0..<2_000 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
        }
        return x
    }

    @inline(never)
    static func middle(_ nanoseconds: UInt64) -> UInt64 { inner(nanoseconds) &+ 1 }

    @inline(never)
    static func outer(_ nanoseconds: UInt64) -> UInt64 { middle(nanoseconds) &+ 1 }

    func test_eachUnwinderRecordsTheWholeCallChain() throws {
        for unwinder in SamplingProfiler.Unwinder.allCases {
            let profiler = try SamplingProfiler.start(.init(rate: 2_000, unwinder: unwinder, clock: .wall))
            let sink = Self.outer(300_000_000)
            let profile = profiler.stop()
            XCTAssertNotEqual(sink, 0)
            XCTAssertEqual(profile.statistics.dropped, 0, "\(unwinder)")
            XCTAssertEqual(profile.statistics.unwindFailures, 0, "\(unwinder)")
            XCTAssertGreaterThan(profile.samples.count, 200, "\(unwinder)")
            XCTAssertGreaterThan(profile.unwindCost.median, 0, "\(unwinder)")
            let stacks = profile.symbolicated()
            let name = { (f: String) in { (frame: StackProfile.Frame) in frame.name.contains("SamplingProfilerTests.\(f)(") } }
            var withInner = 0, whole = 0
            for s in stacks.stacks {
                let names = s.frames.map { stacks.frames[$0] }
                guard let i = names.firstIndex(where: name("inner")) else { continue }
                withInner += s.samples
                if let m = names.firstIndex(where: name("middle")), let o = names.firstIndex(where: name("outer")), o < m, m < i {
                    whole += s.samples
                }
            }
            XCTAssertGreaterThan(withInner, profile.samples.count / 2, "\(unwinder): inner on most stacks")
            // Frame pointers miss the caller when the leaf (the clock) keeps no frame.
            let required = unwinder == .fp ? 0.8 : 0.97
            XCTAssertGreaterThanOrEqual(Double(whole) / Double(max(withInner, 1)), required,
                                        "\(unwinder): outer > middle > inner on \(whole) of \(withInner) stacks")
        }
    }

    /// Every signal is a sample or counted: with a tiny ring and a collector that does not
    /// come round, the surplus is counted as dropped.
    func test_droppedSamplesAreCountedWhenTheRingIsFull() throws {
        let profiler = try SamplingProfiler.start(.init(rate: 10_000, clock: .wall, capacity: 16, drainInterval: 30))
        _ = Self.outer(100_000_000)
        let profile = profiler.stop()
        let s = profile.statistics
        XCTAssertGreaterThan(s.droppedRingFull, 0)
        XCTAssertEqual(s.samples + s.dropped + s.paused, s.signals)
        XCTAssertEqual(profile.samples.count, s.samples)
        XCTAssertLessThanOrEqual(profile.samples.count, 16 + 16)   // one ring before the collector's first look, one after
    }

    func test_pausedThreadTakesNoSamples() throws {
        let profiler = try SamplingProfiler.start(.init(rate: 2_000, clock: .wall))
        profiler.paused { _ = Self.inner(100_000_000) }
        let profile = profiler.stop()
        XCTAssertGreaterThan(profile.statistics.paused, 50)
        let stacks = profile.symbolicated()
        XCTAssertEqual(stacks.inclusivePercent { $0.name.contains("SamplingProfilerTests.inner(") }, 0)
    }

    func test_onlyOneProfilerRunsAtATime() throws {
        let profiler = try SamplingProfiler.start(.init(clock: .wall))
        XCTAssertThrowsError(try SamplingProfiler.start(.init(clock: .wall)))
        _ = profiler.stop()
        _ = try SamplingProfiler.start(.init(clock: .wall)).stop()
    }

    /// gcc_s is linked before unwind: libgcc_s's `_Unwind_RaiseException` serves the process
    /// and C++ exceptions unwind, also while the sampler interrupts them.
    func test_cxxExceptionsUseLibgccUnwinderWhileSampled() throws {
        XCTAssertTrue(UnwinderLinkage.raiseExceptionProvider?.contains("libgcc_s") == true,
                      "\(UnwinderLinkage.raiseExceptionProvider ?? "nil")")
        let profiler = try SamplingProfiler.start(.init(rate: 10_000, clock: .wall))
        var caught = 0
        let end = Date(timeIntervalSinceNow: 0.3)
        while Date() < end { caught += UnwinderLinkage.cxxThrowCatch(100) - 100 }
        let profile = profiler.stop()
        XCTAssertEqual(caught, 0, "every exception caught")
        XCTAssertGreaterThan(profile.samples.count, 100)
    }

    func test_symbolizerNamesAndDemangles() throws {
        XCTAssertEqual(Demangler.demangle("$sSi"), "Swift.Int")
        XCTAssertEqual(Demangler.demangle("_ZNSt6vectorIiSaIiEE9push_backERKi"), "std::vector<int, std::allocator<int> >::push_back(int const&)")
        XCTAssertNil(Demangler.demangle("main"))
        let symbolizer = Symbolizer()
        // An exported C function of this test binary, by its exact address.
        let start = unsafeBitCast(csampler_start as @convention(c) (UnsafePointer<csampler_config>?) -> Int32, to: UInt.self)
        let s = symbolizer.symbol(for: start, exact: true)
        XCTAssertEqual(s.name, "csampler_start")
        XCTAssertEqual(s.offset, 0)
        // A return address just past a call at the end of a function belongs to the caller.
        XCTAssertEqual(symbolizer.symbol(for: start + 1, exact: false).name, "csampler_start")
        XCTAssertEqual(symbolizer.symbol(for: start, exact: true), symbolizer.symbol(for: start, exact: true), "cached")
    }

    /// Sampled stacks of a Swift function resolve through the symbol tables to demangled names.
    func test_sampledSwiftFramesAreDemangled() throws {
        let profiler = try SamplingProfiler.start(.init(rate: 2_000, clock: .wall))
        _ = Self.outer(100_000_000)
        let stacks = profiler.stop().symbolicated()
        let inner = try XCTUnwrap(stacks.frames.first { $0.name.contains("SamplingProfilerTests.inner(") })
        XCTAssertTrue(inner.name.contains("(Swift.UInt64) -> Swift.UInt64"), inner.name)
        XCTAssertFalse(stacks.frames.contains { $0.name.hasPrefix("$s") }, "mangled names left")
        // The leaf varies (a debug build leaves the loop's `IndexingIterator.next()` and the
        // clock calls as frames of their own), but nearly every sample is inside `inner`.
        let shares = stacks.topFrames(stacks.frames.count)
        let innerShare = try XCTUnwrap(shares.first { $0.frame.name.contains("SamplingProfilerTests.inner(") })
        XCTAssertGreaterThan(innerShare.inclusivePercent, 90, "\(stacks.topFrames(3).map(\.frame.name))")
    }
}
