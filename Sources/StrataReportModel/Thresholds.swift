import Foundation

/// A package's checked-in thresholds (package-benchmark's static thresholds and tolerances in
/// one file): per benchmark, per metric, the figure a run recorded (`value`) and the change
/// tolerated either way, relative (percent) and absolute (the metric's unit). Metrics are
/// named as `compare` prints them; a percentile is part of the name (`instructions-p99`,
/// `frame-time-p99`). `thresholds update` records a run's figures, keeping the tolerances;
/// `thresholds check` judges a run against the recorded figures; `baseline check` and
/// `compare --thresholds` judge two reports with the tolerances in place of
/// `--threshold`/`--count-threshold`.
///
///     {
///       "version": 1,
///       "defaults": { "instructions": { "relative": 1 }, "frame-time-p99": { "relative": 300 } },
///       "benchmarks": {
///         "my-app/pulse-badges/1000": { "instructions": { "value": 2811.4 },
///                                       "mallocs": { "value": 3, "absolute": 1 } },
///         "scene/my-app-feed": { "frame-time-p99": { "value": 0.41, "relative": 100 } }
///       }
///     }
public struct Thresholds: Codable, Equatable {
    /// The file format's version.
    public static let currentVersion = 1
    public var version: Int
    /// Tolerances by metric, for entries that set none of their own.
    public var defaults: [String: Tolerance]
    /// Per benchmark (`scene/NAME` for a scene), per metric.
    public var benchmarks: [String: [String: Threshold]]

    /// A change tolerated either way. With both set, exceeding either is a violation (as
    /// package-benchmark checks its relative and absolute thresholds); with neither, the
    /// metric's default applies.
    public struct Tolerance: Codable, Equatable {
        /// Percent of the recorded figure (1 = 1%).
        public var relative: Double?
        /// In the metric's unit (instructions, mallocs per item; ms for frame times).
        public var absolute: Double?

        public init(relative: Double? = nil, absolute: Double? = nil) {
            self.relative = relative
            self.absolute = absolute
        }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            try AnyKey.reject(c, allowing: ["relative", "absolute"])
            relative = try c.decodeIfPresent(Double.self, forKey: AnyKey("relative"))
            absolute = try c.decodeIfPresent(Double.self, forKey: AnyKey("absolute"))
        }

        /// Whether it tolerates anything at all (an entry without one takes the default).
        public var isSet: Bool { relative != nil || absolute != nil }

        /// +1: `head` is beyond the tolerance above `reference` (worse: every metric here is
        /// smaller-is-better), -1 beyond it below, 0 within.
        public func judge(reference b: Double, head h: Double) -> Int {
            func beyond(_ sign: Double) -> Bool {
                let d = sign * (h - b)
                guard d > 0 else { return false }
                if let r = relative {
                    if b == 0 { return true }
                    if d > abs(b) * r / 100 { return true }
                }
                if let a = absolute, d > a { return true }
                return false
            }
            return beyond(1) ? 1 : beyond(-1) ? -1 : 0
        }

        /// `±1%`, `±2 absolute`, `±1% or ±2`.
        public var description: String {
            [relative.map { "±\(Thresholds.format($0))%" }, absolute.map { "±\(Thresholds.format($0))" }]
                .compactMap { $0 }.joined(separator: " or ")
        }
    }

    /// One benchmark's metric: the recorded figure and, optionally, its own tolerance.
    public struct Threshold: Codable, Equatable {
        /// The figure `thresholds update` recorded (nil: a tolerance only, for `baseline check`).
        public var value: Double?
        public var relative: Double?
        public var absolute: Double?

        public init(value: Double? = nil, relative: Double? = nil, absolute: Double? = nil) {
            self.value = value
            self.relative = relative
            self.absolute = absolute
        }

        var tolerance: Tolerance { Tolerance(relative: relative, absolute: absolute) }

        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            try AnyKey.reject(c, allowing: ["value", "relative", "absolute"])
            value = try c.decodeIfPresent(Double.self, forKey: AnyKey("value"))
            relative = try c.decodeIfPresent(Double.self, forKey: AnyKey("relative"))
            absolute = try c.decodeIfPresent(Double.self, forKey: AnyKey("absolute"))
        }
    }

    /// Any key, so that a misspelt one ("relativ") is an error, not a tolerance silently lost.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static func reject(_ c: KeyedDecodingContainer<AnyKey>, allowing known: Set<String>) throws {
            if let bad = c.allKeys.first(where: { !known.contains($0.stringValue) }) {
                throw DecodingError.dataCorruptedError(forKey: bad, in: c,
                    debugDescription: "unknown key \"\(bad.stringValue)\" (known: \(known.sorted().joined(separator: ", ")))")
            }
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        try AnyKey.reject(c, allowing: ["version", "defaults", "benchmarks"])
        version = try c.decodeIfPresent(Int.self, forKey: AnyKey("version")) ?? Self.currentVersion
        defaults = try c.decodeIfPresent([String: Tolerance].self, forKey: AnyKey("defaults")) ?? [:]
        benchmarks = try c.decodeIfPresent([String: [String: Threshold]].self, forKey: AnyKey("benchmarks")) ?? [:]
    }

    public init(defaults: [String: Tolerance] = Thresholds.standardDefaults, benchmarks: [String: [String: Threshold]] = [:]) {
        self.version = Self.currentVersion
        self.defaults = defaults
        self.benchmarks = benchmarks
    }

    /// What a new file starts with: counts to 1% (their gate's), times loosely enough for a
    /// shared CI machine to pass and a step of several times to fail (a scene's p99 going from
    /// 0.4 ms to 164 ms): edit them per metric or per benchmark.
    public static let standardDefaults: [String: Tolerance] = [
        "instructions": Tolerance(relative: 1), "estimated-cycles": Tolerance(relative: 1), "mallocs": Tolerance(relative: 1),
        "instructions-p50": Tolerance(relative: 1), "instructions-p99": Tolerance(relative: 1),
        "estimated-cycles-p50": Tolerance(relative: 1), "estimated-cycles-p99": Tolerance(relative: 1),
        "time": Tolerance(relative: 50), "frame-time-p50": Tolerance(relative: 100), "frame-time-p99": Tolerance(relative: 300),
    ]

    /// The tolerance for `metric` of `name`: its own entry's, else the file's default for the
    /// metric, else nil (the comparator's thresholds apply).
    public func tolerance(name: String, metric: String) -> Tolerance? {
        if let own = benchmarks[name]?[metric]?.tolerance, own.isSet { return own }
        if let d = defaults[metric], d.isSet { return d }
        return nil
    }

    /// Whether a metric is a time (judged by the `all` gate only, not by `counts`).
    public static func isTime(_ metric: String) -> Bool { metric == "time" || metric.hasPrefix("frame-time") }

    /// A figure of a report that thresholds can hold.
    public struct Figure: Equatable {
        public var name: String
        public var metric: String
        public var value: Double
    }

    /// The figures of a report thresholds can hold: each counted body's instructions, estimated
    /// cycles and mallocs per item, each scene's per-frame counts (p50, p99) and frame times
    /// (p50, p99 in ms), and each benchmark's median time (ns per item). Failed benchmarks and
    /// figures a run did not measure are left out.
    public static func figures(of block: StrataBlock) -> [Figure] {
        var out: [Figure] = []
        func add(_ name: String, _ metric: String, _ v: Double?) {
            if let v, v.isFinite { out.append(Figure(name: name, metric: metric, value: v)) }
        }
        for c in block.counts {
            if let f = c.frames {
                add(c.name, "instructions-p50", f.instructions?.p50)
                add(c.name, "instructions-p99", f.instructions?.p99)
                add(c.name, "estimated-cycles-p50", f.estimatedCycles?.p50)
                add(c.name, "estimated-cycles-p99", f.estimatedCycles?.p99)
                add(c.name, "mallocs", f.mallocs.mean)
            } else {
                add(c.name, "instructions", c.instructionsPerItem)
                add(c.name, "estimated-cycles", c.estimatedCyclesPerItem)
                add(c.name, "mallocs", c.mallocsPerItem)
            }
        }
        for s in block.scenes {
            add("scene/\(s.name)", "frame-time-p50", s.p50)
            add("scene/\(s.name)", "frame-time-p99", s.p99)
        }
        for b in block.benchmarks where b.error == nil { add(b.name, "time", b.medianNsPerItem) }
        return out
    }

    /// These thresholds with `block`'s figures recorded, the tolerances kept. Benchmarks the
    /// run did not measure are dropped (`removed` names them): the file describes the last run.
    public func updated(with block: StrataBlock) -> (thresholds: Thresholds, removed: [String]) {
        var next: [String: [String: Threshold]] = [:]
        for f in Self.figures(of: block) {
            var entry = benchmarks[f.name]?[f.metric] ?? Threshold()
            entry.value = f.value
            next[f.name, default: [:]][f.metric] = entry
        }
        // Tolerances set for metrics the run did not measure stay (a tolerance, no figure).
        for (name, metrics) in benchmarks where next[name] != nil {
            for (metric, t) in metrics where next[name]?[metric] == nil && t.tolerance.isSet {
                next[name]?[metric] = Threshold(relative: t.relative, absolute: t.absolute)
            }
        }
        var copy = self
        copy.benchmarks = next
        return (copy, benchmarks.keys.filter { next[$0] == nil }.sorted())
    }

    /// `block` judged against the recorded figures: a row per figure, `regression` or
    /// `improvement` beyond its tolerance (`unchanged` within), `new` for a figure with none
    /// recorded, `missing` for one recorded and not measured. Times are rows like counts; the
    /// gate decides whether they count (`Gate.counts` leaves them out).
    public func check(_ block: StrataBlock, headPath: String, thresholdsPath: String) -> Comparison {
        var rows: [ComparisonRow] = []
        var seen = Set<String>()
        var untolerated: [String] = []
        for f in Self.figures(of: block) {
            seen.insert(f.name + "\u{0}" + f.metric)
            guard let recorded = benchmarks[f.name]?[f.metric]?.value else {
                rows.append(ComparisonRow(name: f.name, metric: f.metric, baseline: nil, head: f.value, change: nil, verdict: .new))
                continue
            }
            let change: Double? = recorded != 0 ? f.value / recorded - 1 : (f.value == 0 ? 0 : nil)
            guard let tol = tolerance(name: f.name, metric: f.metric) else {
                untolerated.append("\(f.name) \(f.metric)")
                rows.append(ComparisonRow(name: f.name, metric: f.metric, baseline: recorded, head: f.value, change: change, verdict: .informational))
                continue
            }
            let j = tol.judge(reference: recorded, head: f.value)
            rows.append(ComparisonRow(name: f.name, metric: f.metric, baseline: recorded, head: f.value, change: change,
                                      verdict: j > 0 ? .regression : j < 0 ? .improvement : .unchanged,
                                      band: tol.relative.map { $0 / 100 }, basis: "thresholds"))
        }
        for (name, metrics) in benchmarks.sorted(by: { $0.key < $1.key }) {
            for (metric, t) in metrics.sorted(by: { $0.key < $1.key }) where t.value != nil && !seen.contains(name + "\u{0}" + metric) {
                rows.append(ComparisonRow(name: name, metric: metric, baseline: t.value, head: nil, change: nil, verdict: .missing))
            }
        }
        var notes = ["judged against the figures recorded in \(thresholdsPath) (`thresholds update` records them), each within its tolerance"]
        if !untolerated.isEmpty {
            notes.append("\(untolerated.count) figures have no tolerance (none of their own, no default for the metric): shown, not judged")
        }
        return Comparison(baselinePath: thresholdsPath, headPath: headPath, timeThreshold: (defaults["time"]?.relative ?? 50) / 100,
                          countThreshold: (defaults["instructions"]?.relative ?? 1) / 100, sameMachine: true, notes: notes, rows: rows)
    }

    /// Reads a thresholds file; a clear error for anything but a valid one (a wrong version, a
    /// negative or non-finite tolerance or figure), naming the benchmark and metric.
    public static func read(_ url: URL) throws -> Thresholds {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw BenchmarkError("\(url.path): cannot be read (\(error.localizedDescription))")
        }
        let t: Thresholds
        do { t = try JSONDecoder().decode(Thresholds.self, from: data) } catch {
            throw BenchmarkError("\(url.path): not a thresholds file (\(Self.describe(error)))")
        }
        guard t.version == currentVersion else {
            throw BenchmarkError("\(url.path): thresholds version \(t.version); this build reads version \(currentVersion)")
        }
        func check(_ x: Double?, _ what: String, mayBeNegative: Bool = false) throws {
            guard let x else { return }
            if !x.isFinite || (!mayBeNegative && x < 0) {
                throw BenchmarkError("\(url.path): \(what) is \(x); it must be a finite number\(mayBeNegative ? "" : " of at least 0")")
            }
        }
        for (metric, d) in t.defaults {
            try check(d.relative, "defaults.\(metric).relative")
            try check(d.absolute, "defaults.\(metric).absolute")
        }
        for (name, metrics) in t.benchmarks {
            for (metric, e) in metrics {
                try check(e.value, "benchmarks[\"\(name)\"].\(metric).value", mayBeNegative: true)
                try check(e.relative, "benchmarks[\"\(name)\"].\(metric).relative")
                try check(e.absolute, "benchmarks[\"\(name)\"].\(metric).absolute")
            }
        }
        return t
    }

    /// The file's text: sorted keys, one entry a line or so, for readable diffs.
    public func encoded() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try e.encode(self) + Data("\n".utf8)
    }

    /// A plain-text listing: every benchmark's figures and the tolerance each is judged with.
    public func table() -> String {
        var lines = ["metric                  recorded       tolerance        name"]
        for (name, metrics) in benchmarks.sorted(by: { $0.key < $1.key }) {
            for (metric, t) in metrics.sorted(by: { $0.key < $1.key }) {
                let tol = tolerance(name: name, metric: metric)
                let own = t.tolerance.isSet ? "" : " (default)"
                lines.append(metric.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + (t.value.map { Self.format($0) } ?? "–").padding(toLength: 15, withPad: " ", startingAt: 0)
                    + ((tol?.description ?? "none") + (tol == nil ? "" : own)).padding(toLength: 17, withPad: " ", startingAt: 0)
                    + name)
            }
        }
        return lines.joined(separator: "\n")
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(format: abs(x) >= 100 ? "%.1f" : "%.4g", x)
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.typeMismatch(let type, let c): return "\(path(c)): expected \(type)"
        case DecodingError.keyNotFound(let key, let c): return "\(path(c)): missing \"\(key.stringValue)\""
        case DecodingError.valueNotFound(let type, let c): return "\(path(c)): expected \(type), found null"
        case DecodingError.dataCorrupted(let c): return "\(path(c)): \(c.debugDescription)"
        default: return "\(error)"
        }
    }

    static func path(_ c: DecodingError.Context) -> String {
        c.codingPath.isEmpty ? "top level" : c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
