import CSampler
import Foundation

/// A timeline in Chrome's Trace Event format (the JSON object form), which Perfetto and
/// chrome://tracing open: complete (`X`) events with `ts`/`dur` in microseconds, counter
/// (`C`) events, and thread-name metadata. Timestamps are CLOCK_MONOTONIC nanoseconds (the
/// sampler's clock), written relative to the recorder's creation.
///
///     let trace = TraceRecorder(processName: "strata-bench")
///     trace.measure("render", category: "frame") { renderer.render() }
///     trace.counter("active animations", value: 1200)
///     try trace.json().write(to: url, atomically: true, encoding: .utf8)
///
/// Thread-safe: events from several threads land under their own `tid`.
public final class TraceRecorder: @unchecked Sendable {
    /// A recorded event.
    public struct Event: Sendable {
        public enum Phase: String, Sendable { case complete = "X", counter = "C", metadata = "M" }
        public var name: String
        public var category: String
        public var phase: Phase
        /// Start, CLOCK_MONOTONIC nanoseconds.
        public var start: UInt64
        /// Duration (complete events).
        public var duration: UInt64
        public var thread: Int32
        /// Counter values / metadata arguments (numbers or strings, already JSON).
        public var args: [(String, String)]
    }

    public let processName: String
    public let pid: Int32
    /// Events before this time are clamped to it; `ts` counts from here.
    public let origin: UInt64
    private var events: [Event] = []
    private var named: Set<Int32> = []
    private let lock = NSLock()

    /// At most this many events are held (about 120 bytes of JSON each): a long run's trace
    /// must still open in Perfetto. When the cap is reached, every other decimatable event
    /// held is dropped and from then on one in `decimation` new ones is kept (doubling at each
    /// further halving), so the whole run stays covered, sparser. Metadata events and the
    /// categories in `keptCategories` are never dropped.
    public let maxEvents: Int
    /// Categories never decimated (a benchmark's span, its preparation).
    public var keptCategories: Set<String> = ["benchmark", "setup", "__metadata"]
    /// One in this many decimatable events is kept (1 until the cap is first reached).
    public private(set) var decimation = 1
    /// Decimatable events dropped so far.
    public private(set) var droppedEvents = 0
    private var decimatableSeen = 0
    /// Beside `events`: each decimatable event's number among them all (-1 for the others),
    /// so a halving keeps exactly the multiples of the new `decimation`.
    private var sequence: [Int] = []

    public init(processName: String, origin: UInt64 = csampler_now_ns(), maxEvents: Int = 500_000) {
        self.processName = processName
        pid = getpid()
        self.origin = origin
        self.maxEvents = max(maxEvents, 16)
    }

    /// Appends `e` under the lock, decimating at the cap.
    private func append(_ e: Event) {
        lock.lock(); defer { lock.unlock() }
        var n = -1
        if e.phase != .metadata && !keptCategories.contains(e.category) {
            n = decimatableSeen
            decimatableSeen &+= 1
            if n % decimation != 0 { droppedEvents += 1; return }
        }
        events.append(e)
        sequence.append(n)
        if events.count >= maxEvents { halve() }
    }

    /// Keeps the decimatable events whose number is a multiple of twice `decimation` (every
    /// other one held), and from now on one new one in twice as many.
    private func halve() {
        decimation *= 2
        var k = 0
        for i in events.indices {
            let n = sequence[i]
            if n >= 0 && n % decimation != 0 { droppedEvents += 1; continue }
            events[k] = events[i]
            sequence[k] = n
            k += 1
        }
        events.removeLast(events.count - k)
        sequence.removeLast(sequence.count - k)
    }

    /// A sentence for the command's output when events were dropped, else nil.
    public var decimationNote: String? {
        lock.lock(); defer { lock.unlock() }
        guard droppedEvents > 0 else { return nil }
        return "the trace reached its cap of \(maxEvents) events: \(droppedEvents) were dropped evenly over the run (1 in \(decimation) kept at the end); spans of whole benchmarks and their preparation are all there"
    }

    /// The clock events are measured with (CLOCK_MONOTONIC nanoseconds).
    public static func now() -> UInt64 { csampler_now_ns() }

    /// The calling thread's id as the trace shows it.
    public static func currentThread() -> Int32 { csampler_gettid() }

    /// Records a complete event from `start` to `end` on `thread` (default: this thread).
    public func complete(_ name: String, category: String = "strata", start: UInt64, end: UInt64,
                         thread: Int32 = TraceRecorder.currentThread()) {
        append(Event(name: name, category: category, phase: .complete, start: start,
                     duration: end >= start ? end - start : 0, thread: thread, args: []))
    }

    /// Runs `body`, recording it as a complete event on this thread.
    @discardableResult
    public func measure<T>(_ name: String, category: String = "strata", _ body: () throws -> T) rethrows -> T {
        let t0 = csampler_now_ns()
        defer { complete(name, category: category, start: t0, end: csampler_now_ns()) }
        return try body()
    }

    /// Records counter `name` at `time` (one series per name in Perfetto).
    public func counter(_ name: String, value: Double, at time: UInt64 = csampler_now_ns(),
                        thread: Int32 = TraceRecorder.currentThread()) {
        let v = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        append(Event(name: name, category: "counter", phase: .counter, start: time, duration: 0,
                     thread: thread, args: [("value", v)]))
    }

    /// Names `thread` in the viewer.
    public func nameThread(_ name: String, thread: Int32 = TraceRecorder.currentThread()) {
        lock.lock()
        if named.insert(thread).inserted {
            events.append(Event(name: "thread_name", category: "__metadata", phase: .metadata, start: origin,
                                duration: 0, thread: thread, args: [("name", JSONText.quoted(name))]))
            sequence.append(-1)
        }
        lock.unlock()
    }

    /// The events so far, in recording order.
    public var recorded: [Event] {
        lock.lock(); defer { lock.unlock() }
        return events
    }

    /// The trace as JSON: `{"traceEvents":[...],"displayTimeUnit":"ms"}`; `otherData` says
    /// when events were dropped at the cap.
    public func json() -> String {
        let snapshot = recorded
        let note = decimationNote.map { ",\"decimation\":\(JSONText.quoted($0))" } ?? ""
        var out = "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"strata-profiler\"\(note)},\"traceEvents\":[\n"
        out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":\(pid),\"tid\":0,\"args\":{\"name\":\(JSONText.quoted(processName))}}"
        for e in snapshot {
            let ts = JSONText.microseconds(e.start > origin ? e.start - origin : 0)
            out += ",\n{\"name\":\(JSONText.quoted(e.name)),\"cat\":\(JSONText.quoted(e.category)),\"ph\":\"\(e.phase.rawValue)\","
            out += "\"ts\":\(ts),\"pid\":\(pid),\"tid\":\(e.thread)"
            if e.phase == .complete { out += ",\"dur\":\(JSONText.microseconds(e.duration))" }
            if !e.args.isEmpty {
                out += ",\"args\":{" + e.args.map { "\(JSONText.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
            }
            out += "}"
        }
        out += "\n]}\n"
        return out
    }
}
