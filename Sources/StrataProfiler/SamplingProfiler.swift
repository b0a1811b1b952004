import CSampler
import Foundation

/// An in-process sampling profiler: a per-thread timer interrupts each registered thread
/// `rate` times a second (of CPU or wall time) and the signal handler records its stack.
/// Symbolization and every output happen after `stop()`.
///
///     let profiler = try SamplingProfiler.start(.init(rate: 1000, unwinder: .backtrace))
///     work()                                   // the calling thread is sampled
///     let profile = profiler.stop()
///     let stacks = profile.symbolicated()
///     print(stacks.folded())                   // "main;work;inner 412\n..."
///
/// One profiler runs at a time per process (the signal handler is process-wide).
public final class SamplingProfiler {
    /// How the signal handler walks the stack.
    public enum Unwinder: String, CaseIterable, Sendable {
        /// libunwind's `unw_backtrace`: its cached fast trace, falling back to DWARF.
        case backtrace
        /// A full DWARF walk from the signal context (`unw_init_local2` with
        /// `UNW_INIT_SIGNAL_FRAME`, then `unw_step`).
        case dwarf
        /// The frame-pointer chain from the interrupted RBP. Cheapest; misses the caller of a
        /// leaf that has not set up its frame, and code built without frame pointers.
        case fp
    }

    /// What the timers count.
    public enum Clock: String, CaseIterable, Sendable {
        /// Thread CPU time. The kernel checks CPU-time timers at its tick (CONFIG_HZ, often
        /// 250), so a higher rate arrives as fewer samples, each weighted by the expiries it
        /// stands for (`Sample.weight`).
        case cpu
        /// Wall time (high-resolution monotonic timers): the requested rate, running or not.
        case wall
    }

    /// Which timer drives the signal.
    public enum TimerKind: String, Sendable {
        /// One POSIX timer per registered thread (`SIGEV_THREAD_ID`).
        case perThread
        /// `setitimer`: one timer for the process; the kernel picks the thread.
        case process
    }

    /// libunwind's register-state cache (set outside the handler).
    public enum Caching: String, CaseIterable, Sendable {
        /// UNW_CACHE_PER_THREAD (default). Debian's libunwind has no thread-local cache and
        /// uses its global cache behind a mutex instead; the sampler lets one thread into
        /// libunwind at a time, so that mutex is never waited for inside a handler.
        case perThread
        /// UNW_CACHE_GLOBAL.
        case global
        /// UNW_CACHE_NONE: every step re-reads the unwind tables (10-20x slower walks).
        case none
    }

    /// A profiler's settings.
    public struct Configuration: Sendable {
        /// Samples per second and thread (default 1 kHz).
        public var rate: Int
        public var unwinder: Unwinder
        public var clock: Clock
        public var timer: TimerKind
        /// Deepest stack recorded; deeper ones are truncated (counted).
        public var maxDepth: Int
        /// Ring slots between the handler and the collector thread.
        public var capacity: Int
        /// How often the collector empties the ring.
        public var drainInterval: TimeInterval
        /// libunwind's cache policy.
        public var caching: Caching

        public init(rate: Int = 1000, unwinder: Unwinder = .backtrace, clock: Clock = .cpu,
                    timer: TimerKind = .perThread, maxDepth: Int = 128, capacity: Int = 8192,
                    drainInterval: TimeInterval = 0.005, caching: Caching = .perThread) {
            self.rate = rate
            self.unwinder = unwinder
            self.clock = clock
            self.timer = timer
            self.maxDepth = maxDepth
            self.capacity = capacity
            self.drainInterval = drainInterval
            self.caching = caching
        }
    }

    /// Why the profiler could not start or register a thread.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The settings it runs with.
    public let configuration: Configuration
    private let collector: SampleCollector
    private let startedNanoseconds: UInt64
    private var stopped = false

    private init(_ configuration: Configuration) {
        self.configuration = configuration
        collector = SampleCollector(interval: configuration.drainInterval)
        startedNanoseconds = csampler_now_ns()
    }

    /// Starts the profiler and registers the calling thread.
    ///
    /// - Throws: `Failure` when another profiler runs, the rate is out of range, or the kernel
    ///   refuses the timer.
    public static func start(_ configuration: Configuration = Configuration(),
                             registeringCurrentThread: Bool = true) throws -> SamplingProfiler {
        guard (1...100_000).contains(configuration.rate) else {
            throw Failure(description: "rate \(configuration.rate) Hz is outside 1...100000")
        }
        guard (1...1024).contains(configuration.maxDepth), configuration.capacity >= 16 else {
            throw Failure(description: "maxDepth must be in 1...1024 and capacity at least 16")
        }
        var c = csampler_config()
        c.hz = UInt32(configuration.rate)
        c.unwinder = configuration.unwinder.cValue
        c.clock = configuration.clock == .cpu ? CSAMPLER_CLOCK_CPU.rawValue : CSAMPLER_CLOCK_WALL.rawValue
        c.timer = configuration.timer == .perThread ? CSAMPLER_TIMER_PER_THREAD.rawValue : CSAMPLER_TIMER_PROCESS.rawValue
        c.capacity = UInt32(configuration.capacity)
        c.max_depth = UInt32(configuration.maxDepth)
        switch configuration.caching {
        case .none: c.caching = CSAMPLER_CACHE_NONE.rawValue
        case .perThread: c.caching = CSAMPLER_CACHE_PER_THREAD.rawValue
        case .global: c.caching = CSAMPLER_CACHE_GLOBAL.rawValue
        }
        let r = csampler_start(&c)
        guard r == 0 else {
            throw Failure(description: r == -EBUSY ? "a profiler is already running"
                                                    : "csampler_start: \(String(cString: strerror(-r)))")
        }
        let profiler = SamplingProfiler(configuration)
        profiler.collector.start()
        if registeringCurrentThread {
            do { try profiler.registerCurrentThread() } catch {
                _ = profiler.stop()
                throw error
            }
        }
        return profiler
    }

    /// Samples the calling thread from now on (its own timer, random first expiry).
    public func registerCurrentThread() throws {
        let r = csampler_register_thread()
        guard r == 0 else {
            throw Failure(description: "csampler_register_thread: \(String(cString: strerror(-r)))")
        }
    }

    /// Stops sampling the calling thread. Call before a registered thread exits.
    public func unregisterCurrentThread() {
        _ = csampler_unregister_thread()
    }

    /// Runs `body` with the calling thread registered.
    public func sampling<T>(_ body: () throws -> T) throws -> T {
        try registerCurrentThread()
        defer { unregisterCurrentThread() }
        return try body()
    }

    /// Runs `body` without taking samples on the calling thread (set-up, resets).
    public func paused<T>(_ body: () throws -> T) rethrows -> T {
        csampler_pause_thread(1)
        defer { csampler_pause_thread(0) }
        return try body()
    }

    /// Counters so far.
    public var statistics: SamplerStatistics { SamplerStatistics(csampler_get_stats()) }

    /// Stops every timer, collects the remaining samples and frees the ring.
    public func stop() -> Profile {
        precondition(!stopped, "SamplingProfiler.stop() called twice")
        stopped = true
        let ended = csampler_now_ns()
        csampler_stop()
        collector.finish()
        let stats = SamplerStatistics(csampler_get_stats())
        let period = csampler_period_ns()
        csampler_release()
        return Profile(configuration: configuration, statistics: stats, periodNanoseconds: period,
                       startNanoseconds: startedNanoseconds, endNanoseconds: ended,
                       samples: collector.samples, addresses: collector.addresses)
    }
}

extension SamplingProfiler.Unwinder {
    var cValue: UInt32 {
        switch self {
        case .backtrace: return CSAMPLER_UNWIND_BACKTRACE.rawValue
        case .dwarf: return CSAMPLER_UNWIND_DWARF.rawValue
        case .fp: return CSAMPLER_UNWIND_FRAME_POINTERS.rawValue
        }
    }
}

/// The sampler's counters: every signal is a sample or counted under one cause.
public struct SamplerStatistics: Sendable, Equatable {
    /// Signals handled while running.
    public var signals: Int
    /// Samples recorded.
    public var samples: Int
    /// Signals lost because the ring was full (the collector fell behind).
    public var droppedRingFull: Int
    /// Signals lost because they arrived while the thread was in the handler.
    public var droppedReentrant: Int
    /// Signals on a thread inside `paused { }` (not samples, not losses).
    public var paused: Int
    /// Timer expiries the kernel merged into other signals (CPU timers above the tick rate,
    /// or a thread not running when its wall timer fired). Carried as sample weights.
    public var overruns: Int
    /// Samples whose walk failed (only the interrupted PC kept).
    public var unwindFailures: Int
    /// Samples cut at `maxDepth`.
    public var truncated: Int
    /// Samples walked by frame pointers because another thread was inside libunwind (the
    /// sampler never waits long for it: see `Caching.perThread`).
    public var contended: Int
    /// Samples walked by frame pointers because the thread was inside the dynamic loader
    /// (dlopen, dlclose, dl_iterate_phdr), where libunwind could wait for the thread itself.
    public var inLoader: Int
    /// The timer actually used (per-thread, or the setitimer fallback).
    public var timer: SamplingProfiler.TimerKind

    /// Signals that did not become samples.
    public var dropped: Int { droppedRingFull + droppedReentrant }

    init(_ s: csampler_stats) {
        signals = Int(s.signals)
        samples = Int(s.samples)
        droppedRingFull = Int(s.dropped_full)
        droppedReentrant = Int(s.dropped_reentrant)
        paused = Int(s.paused)
        overruns = Int(s.overruns)
        unwindFailures = Int(s.unwind_failures)
        truncated = Int(s.truncated)
        contended = Int(s.contended)
        inLoader = Int(s.in_loader)
        timer = s.timer == CSAMPLER_TIMER_PROCESS.rawValue ? .process : .perThread
    }
}

/// Link-order checks of the process the profiler runs in.
public enum UnwinderLinkage {
    /// The object that resolves `_Unwind_RaiseException` for the process: libgcc_s when
    /// `gcc_s` is linked before `unwind`, libunwind otherwise.
    public static var raiseExceptionProvider: String? {
        csampler_unwind_raise_provider().map { String(cString: $0) }
    }

    /// Throws and catches `count` C++ exceptions; the number caught.
    public static func cxxThrowCatch(_ count: Int) -> Int {
        Int(csampler_cxx_throw_catch(Int32(count)))
    }
}

/// SIGINT and SIGTERM as a request to stop a long run, which then writes what it finished
/// (`strata-bench profile`). A second signal of the same kind ends the process as usual.
public enum StopSignals {
    /// Starts catching SIGINT and SIGTERM; false when the handlers could not be installed.
    @discardableResult
    public static func catchSignals() -> Bool { csampler_catch_stop_signals() == 0 }

    /// The signal received since `catchSignals()` (SIGINT or SIGTERM), or nil.
    public static var received: Int32? {
        let s = csampler_stop_signal()
        return s == 0 ? nil : s
    }

    /// Gives both signals their default actions back.
    public static func release() { csampler_release_stop_signals() }
}

/// The allocator's free pages.
public enum FreeMemory {
    /// Gives the pages glibc's heaps hold free back to the system (`malloc_trim(0)`, every
    /// arena): a long run that frees a large fixture before making the next one stays near
    /// the largest fixture's resident memory.
    public static func release() { _ = csampler_malloc_trim() }
}
