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

    public init(processName: String, origin: UInt64 = csampler_now_ns()) {
        self.processName = processName
        pid = getpid()
        self.origin = origin
    }

    /// The clock events are measured with (CLOCK_MONOTONIC nanoseconds).
    public static func now() -> UInt64 { csampler_now_ns() }

    /// The calling thread's id as the trace shows it.
    public static func currentThread() -> Int32 { csampler_gettid() }

    /// Records a complete event from `start` to `end` on `thread` (default: this thread).
    public func complete(_ name: String, category: String = "strata", start: UInt64, end: UInt64,
                         thread: Int32 = TraceRecorder.currentThread()) {
        let e = Event(name: name, category: category, phase: .complete, start: start,
                      duration: end >= start ? end - start : 0, thread: thread, args: [])
        lock.lock(); events.append(e); lock.unlock()
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
        let e = Event(name: name, category: "counter", phase: .counter, start: time, duration: 0,
                      thread: thread, args: [("value", v)])
        lock.lock(); events.append(e); lock.unlock()
    }

    /// Names `thread` in the viewer.
    public func nameThread(_ name: String, thread: Int32 = TraceRecorder.currentThread()) {
        lock.lock()
        if named.insert(thread).inserted {
            events.append(Event(name: "thread_name", category: "__metadata", phase: .metadata, start: origin,
                                duration: 0, thread: thread, args: [("name", JSONText.quoted(name))]))
        }
        lock.unlock()
    }

    /// The events so far, in recording order.
    public var recorded: [Event] {
        lock.lock(); defer { lock.unlock() }
        return events
    }

    /// The trace as JSON: `{"traceEvents":[...],"displayTimeUnit":"ms"}`.
    public func json() -> String {
        let snapshot = recorded
        var out = "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"producer\":\"strata-profiler\"},\"traceEvents\":[\n"
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
