import CSQLite
import Foundation
import StrataReportModel

/// The benchmark history: every report CI adds (`strata-bench history add`), as figures per
/// run in one SQLite file, read back as per-commit series with their change points
/// (`strata-bench history show`, the HTML report's trends).
///
/// Schema (`PRAGMA user_version` = `schemaVersion`, `PRAGMA application_id` =
/// `applicationID`; files without both are refused):
///
///     runs(id INTEGER PRIMARY KEY, git_commit, git_dirty, created_at, machine_key, hostname,
///          machine_json, source, added_at, UNIQUE(created_at, git_commit, machine_key))
///     results(run_id → runs.id, name, metric, value REAL, PRIMARY KEY(run_id, name, metric))
///
/// `machine_key` is the fingerprint's `timingKey` (what time comparisons require equal);
/// `machineID` shortens it for the command line. Metrics per run (`HistoryMetric`):
/// benchmarks' `time` (median ns/item; failed benchmarks left out), the counted bodies'
/// `instructions`, `estimated-cycles`, `l1-misses`, `ll-misses` and `mallocs` per item (where
/// measured), and scenes, named `scene/NAME`, with `p50`, `p99` (ms) and `hitch` (ms/s).
///
/// A thin wrapper over sqlite3: prepared statements with bound parameters, every return code
/// checked (errors carry `sqlite3_errmsg`), one transaction per added report. Not for use
/// from several threads at once; several processes may share the file (writers wait up to
/// `busyTimeoutMs` for each other).
public final class HistoryStore {
    /// Bumped when the schema changes; other versions are refused.
    public static let schemaVersion: Int32 = 1
    /// "SBH1": marks the file as ours (`PRAGMA application_id`).
    public static let applicationID: Int32 = 0x5342_4831
    /// How long a writer waits for another process's transaction.
    public static let busyTimeoutMs: Int32 = 10_000

    /// How the file is opened.
    public enum Mode {
        /// Reading only; the file must exist and hold the schema.
        case readOnly
        /// Reading and adding; the file must exist (an empty file gets the schema).
        case readWrite
        /// As `readWrite`, creating the file (not its directory) when missing.
        case create
    }

    /// A report added, or found already there (same created_at, commit and machine).
    public enum AddResult: Equatable {
        /// Added as run `runID`, with `results` figures.
        case added(runID: Int64, results: Int)
        /// Already there as run `runID`; nothing was written.
        case alreadyPresent(runID: Int64)
    }

    /// One figure of one benchmark (or scene) on one machine, per commit.
    public struct Series: Codable, Equatable {
        /// A commit's figure: the median over its runs.
        public struct Point: Codable, Equatable {
            /// The commit (`git rev-parse HEAD` of its runs).
            public var commit: String
            /// The runs had uncommitted changes (a separate point from the clean commit).
            public var dirty: Bool
            /// created_at (ISO 8601) of the commit's first run.
            public var firstSeen: String
            /// The median of the commit's runs, in the series' unit.
            public var value: Double
            /// Runs of this commit the value comes from.
            public var runs: Int

            /// A point as given.
            public init(commit: String, dirty: Bool, firstSeen: String, value: Double, runs: Int) {
                self.commit = commit
                self.dirty = dirty
                self.firstSeen = firstSeen
                self.value = value
                self.runs = runs
            }

            /// The commit's first 7 characters, "-dirty" added for uncommitted changes.
            public var label: String { String(commit.prefix(7)) + (dirty ? "-dirty" : "") }
            /// `firstSeen` as a date (nil if it is not ISO 8601).
            public var firstSeenDate: Date? { ISO8601DateFormatter().date(from: firstSeen) }
        }

        /// The benchmark or counted body (`scene/NAME` for a scene).
        public var name: String
        /// The `HistoryMetric` raw value (`time`, `instructions`, `p99` ...).
        public var metric: String
        /// The machine's `MachineFingerprint.timingKey`.
        public var machineKey: String
        /// By the first run of each commit (created_at, then the order added).
        public var points: [Point]

        /// The points' values, in order.
        public var values: [Double] { points.map(\.value) }
        /// The metric's unit (empty for a metric this version does not know).
        public var unit: String { HistoryMetric(rawValue: metric)?.unit ?? "" }
    }

    /// A series' last commits and where they stepped.
    public struct Trend: Codable, Equatable {
        /// The series, cut to its last commits.
        public var series: Series
        /// Indices into `series.points`.
        public var changePoints: [ChangePoint]

        /// The commit where a change point's new level starts.
        public func point(at change: ChangePoint) -> Series.Point? {
            series.points.indices.contains(change.index) ? series.points[change.index] : nil
        }
    }

    /// A machine (timing key) the history has runs of.
    public struct Machine: Codable, Equatable {
        /// The `MachineFingerprint.timingKey`.
        public var key: String
        /// `HistoryStore.machineID(key)`.
        public var id: String
        /// Runs recorded on it.
        public var runs: Int
        /// Distinct commits it ran (a dirty tree counted apart from its clean commit).
        public var commits: Int
        /// The hosts its runs came from, sorted.
        public var hostnames: [String]
        /// created_at of its first run.
        public var firstRun: String
        /// created_at of its last run.
        public var lastRun: String
        /// The fingerprint recorded with its last run (nil if unreadable).
        public var fingerprint: MachineFingerprint?
    }

    /// The database file.
    public let path: String
    private let db: OpaquePointer

    /// Opens (and with `.create`, creates) the history at `path`. Throws a `HistoryError`:
    /// `.missing` when there is no such file (and `mode` does not create one),
    /// `.notAHistoryDatabase` for a file that is not SQLite or lacks this schema or version,
    /// `.sqlite` for anything else SQLite refuses.
    public init(path: String, mode: Mode = .create) throws {
        if mode != .create && !FileManager.default.fileExists(atPath: path) {
            throw HistoryError(.missing, "no history database at \(path)")
        }
        var handle: OpaquePointer?
        let flags = (mode == .readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | (mode == .create ? SQLITE_OPEN_CREATE : 0)
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close(handle)
            throw HistoryError(.sqlite, "cannot open \(path): \(message)")
        }
        do {
            try Self.check(sqlite3_busy_timeout(handle, Self.busyTimeoutMs), handle, path, "setting the busy timeout")
            try Self.prepareSchema(handle, path: path, writable: mode != .readOnly)
        } catch {
            sqlite3_close(handle)
            throw error
        }
        db = handle
        self.path = path
    }

    deinit {
        // Statements are finalized by their owners before this (none outlives a method);
        // close_v2 would defer the close past any that did.
        sqlite3_close_v2(db)
    }

    // MARK: Adding

    /// Adds a report's figures as one run, in one transaction; a run with the same
    /// created_at, commit and machine key is not added again. `source` is recorded (the
    /// report's path).
    public func add(report: StrataBlock, source: String, addedAt: Date = Date()) throws -> AddResult {
        guard !report.createdAt.isEmpty else {
            throw HistoryError(.badReport, "\(source): the report has no created_at: it cannot be placed in the history")
        }
        let key = report.machine.timingKey
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        let machineJSON = String(decoding: try encoder.encode(report.machine), as: UTF8.self)
        return try transaction {
            let existing = try statement("SELECT id FROM runs WHERE created_at = ?1 AND git_commit = ?2 AND machine_key = ?3")
            try existing.bind([.text(report.createdAt), .text(report.machine.gitCommit), .text(key)])
            if try existing.step() { return .alreadyPresent(runID: existing.int(0)) }

            let run = try statement("""
                INSERT INTO runs(git_commit, git_dirty, created_at, machine_key, hostname, machine_json, source, added_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                """)
            try run.bind([.text(report.machine.gitCommit), .int(report.machine.gitDirty ? 1 : 0), .text(report.createdAt),
                          .text(key), .text(report.machine.hostname), .text(machineJSON), .text(source),
                          .text(ISO8601DateFormatter().string(from: addedAt))])
            try run.run()
            let runID = sqlite3_last_insert_rowid(db)

            // A name and metric twice in one report: the first is kept.
            let insert = try statement("""
                INSERT INTO results(run_id, name, metric, value) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT(run_id, name, metric) DO NOTHING
                """)
            var inserted = 0
            for r in Self.figures(of: report) {
                try insert.reset()
                try insert.bind([.int(runID), .text(r.name), .text(r.metric.rawValue), .real(r.value)])
                try insert.run()
                inserted += Int(sqlite3_changes(db))
            }
            return .added(runID: runID, results: inserted)
        }
    }

    /// The figures a report contributes, in report order (non-finite values left out).
    public static func figures(of report: StrataBlock) -> [(name: String, metric: HistoryMetric, value: Double)] {
        var out: [(name: String, metric: HistoryMetric, value: Double)] = []
        func add(_ name: String, _ metric: HistoryMetric, _ value: Double?) {
            if let value, value.isFinite { out.append((name, metric, value)) }
        }
        for b in report.benchmarks where b.error == nil && b.medianNsPerItem > 0 {
            add(b.name, .time, b.medianNsPerItem)
        }
        for c in report.counts {
            if let f = c.frames {
                // A scene's frame cost: the per-frame figures compare judges.
                add(c.name, .instructionsP50, f.instructions?.p50)
                add(c.name, .instructionsP99, f.instructions?.p99)
                add(c.name, .estimatedCyclesP50, f.estimatedCycles?.p50)
                add(c.name, .estimatedCyclesP99, f.estimatedCycles?.p99)
                add(c.name, .mallocs, f.mallocs.mean)
                continue
            }
            add(c.name, .instructions, c.instructionsPerItem)
            add(c.name, .estimatedCycles, c.estimatedCyclesPerItem)
            add(c.name, .l1Misses, c.l1MissesPerItem)
            add(c.name, .llMisses, c.llMissesPerItem)
            add(c.name, .mallocs, c.mallocsPerItem)
        }
        for s in report.scenes where s.frames > 0 {
            add("scene/\(s.name)", .p50, s.p50)
            add("scene/\(s.name)", .p99, s.p99)
            add("scene/\(s.name)", .hitch, s.hitchMsPerSecond)
        }
        return out
    }

    // MARK: Reading

    /// Series of the names `namePattern` finds (searched, as `--filter` does; nil: all), of
    /// one metric (nil: all) on one machine key (nil: each machine its own series), ordered
    /// by name, metric and machine key (byte order).
    public func series(namePattern: NSRegularExpression? = nil, metric: String? = nil, machineKey: String? = nil) throws -> [Series] {
        var matches: [String: Bool] = [:]
        return try series(names: nil, metric: metric, machineKey: machineKey) { name in
            if let cached = matches[name] { return cached }
            let hit = namePattern.map { $0.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil } ?? true
            matches[name] = hit
            return hit
        }
    }

    /// For each of `names` (in that order) that has figures of `metric` on `machineKey`: its
    /// last `last` commits and their change points (found among those commits only).
    public func trends(names: [String], metric: String, machineKey: String, last: Int,
                       detector: ChangePointDetector = ChangePointDetector()) throws -> [Trend] {
        var seen = Set<String>()
        var out: [Trend] = []
        for name in names where seen.insert(name).inserted {
            for s in try series(names: [name], metric: metric, machineKey: machineKey, include: { _ in true }) {
                out.append(Self.trend(s, last: last, detector: detector))
            }
        }
        return out
    }

    /// A series cut to its last `last` points, with their change points.
    public static func trend(_ series: Series, last: Int, detector: ChangePointDetector = ChangePointDetector()) -> Trend {
        var s = series
        s.points = Array(s.points.suffix(max(0, last)))
        return Trend(series: s, changePoints: detector.detect(s.values))
    }

    /// The machines with runs, the one with the newest run first.
    public func machines() throws -> [Machine] {
        let q = try statement("SELECT machine_key, hostname, created_at, git_commit, git_dirty, machine_json FROM runs ORDER BY created_at, id")
        var byKey: [String: Machine] = [:]
        var commits: [String: Set<String>] = [:]
        var json: [String: String] = [:]
        while try q.step() {
            let key = q.text(0), host = q.text(1), created = q.text(2)
            var m = byKey[key] ?? Machine(key: key, id: Self.machineID(key), runs: 0, commits: 0, hostnames: [],
                                          firstRun: created, lastRun: created, fingerprint: nil)
            m.runs += 1
            m.lastRun = created
            if !m.hostnames.contains(host) { m.hostnames.append(host) }
            commits[key, default: []].insert(q.text(3) + (q.int(4) != 0 ? "-dirty" : ""))
            json[key] = q.text(5)
            byKey[key] = m
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return byKey.values.map { m in
            var m = m
            m.hostnames.sort()
            m.commits = commits[m.key]?.count ?? 0
            m.fingerprint = json[m.key].flatMap { try? decoder.decode(MachineFingerprint.self, from: Data($0.utf8)) }
            return m
        }.sorted { $0.lastRun != $1.lastRun ? $0.lastRun > $1.lastRun : $0.key < $1.key }
    }

    /// The machine key of the newest run (by created_at, then the order added), or nil when
    /// the history is empty.
    public func newestMachineKey() throws -> String? {
        let q = try statement("SELECT machine_key FROM runs ORDER BY created_at DESC, id DESC LIMIT 1")
        return try q.step() ? q.text(0) : nil
    }

    /// The machine key `spec` names: a whole key, or a prefix (at least 4 characters) of one
    /// machine's `machineID`; nil when none or several match.
    public func machineKey(matching spec: String) throws -> String? {
        let keys = try machines().map(\.key)
        if keys.contains(spec) { return spec }
        guard spec.count >= 4 else { return nil }
        let hits = keys.filter { Self.machineID($0).hasPrefix(spec.lowercased()) }
        return hits.count == 1 ? hits[0] : nil
    }

    /// The metrics recorded, sorted.
    public func metrics() throws -> [String] {
        let q = try statement("SELECT DISTINCT metric FROM results ORDER BY metric")
        var out: [String] = []
        while try q.step() { out.append(q.text(0)) }
        return out
    }

    /// Runs recorded.
    public func runCount() throws -> Int {
        let q = try statement("SELECT COUNT(*) FROM runs")
        return try q.step() ? Int(q.int(0)) : 0
    }

    /// A short, stable name for a machine key: the first 8 hex digits of its 64-bit FNV-1a hash.
    public static func machineID(_ key: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return String(String(h, radix: 16).leftPadded(to: 16).prefix(8))
    }

    /// Rows of results joined to their runs, grouped into series; `include` filters names.
    private func series(names: [String]?, metric: String?, machineKey: String?, include: (String) -> Bool) throws -> [Series] {
        var conditions: [String] = [], parameters: [SQLValue] = []
        if let names {
            conditions.append("r.name IN (\(names.indices.map { "?\(parameters.count + $0 + 1)" }.joined(separator: ", ")))")
            parameters += names.map { .text($0) }
        }
        if let metric { conditions.append("r.metric = ?\(parameters.count + 1)"); parameters.append(.text(metric)) }
        if let machineKey { conditions.append("u.machine_key = ?\(parameters.count + 1)"); parameters.append(.text(machineKey)) }
        let q = try statement("""
            SELECT r.name, r.metric, u.machine_key, u.git_commit, u.git_dirty, u.created_at, r.value
            FROM results r JOIN runs u ON u.id = r.run_id
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY r.name, r.metric, u.machine_key, u.created_at, u.id
            """)
        try q.bind(parameters)

        var out: [Series] = []
        // The series being read: its points' values by (commit, dirty), in first-seen order.
        var current: Series?
        var order: [String] = []
        var values: [String: (commit: String, dirty: Bool, firstSeen: String, values: [Double])] = [:]
        func finish() {
            guard var s = current else { return }
            s.points = order.compactMap { k in
                values[k].map { Series.Point(commit: $0.commit, dirty: $0.dirty, firstSeen: $0.firstSeen,
                                             value: median($0.values), runs: $0.values.count) }
            }
            out.append(s)
            current = nil
            order = []
            values = [:]
        }
        while try q.step() {
            let name = q.text(0), metric = q.text(1), machine = q.text(2)
            guard include(name) else { continue }
            if current.map({ $0.name != name || $0.metric != metric || $0.machineKey != machine }) ?? true {
                finish()
                current = Series(name: name, metric: metric, machineKey: machine, points: [])
            }
            let commit = q.text(3), dirty = q.int(4) != 0
            let k = commit + (dirty ? "\u{0}dirty" : "")
            if values[k] == nil {
                order.append(k)
                values[k] = (commit, dirty, q.text(5), [])
            }
            values[k]?.values.append(q.double(6))
        }
        finish()
        return out
    }

    // MARK: SQLite

    /// Checks the file is ours (or empty and writable: then creates the schema).
    private static func prepareSchema(_ db: OpaquePointer, path: String, writable: Bool) throws {
        func state() throws -> (application: Int64, version: Int64, tables: [String]) {
            do {
                let a = try SQLiteStatement(db, path, "PRAGMA application_id")
                let v = try SQLiteStatement(db, path, "PRAGMA user_version")
                let t = try SQLiteStatement(db, path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                var tables: [String] = []
                while try t.step() { tables.append(t.text(0)) }
                return (try a.step() ? a.int(0) : 0, try v.step() ? v.int(0) : 0, tables)
            } catch let e as HistoryError where e.sqliteCode == SQLITE_NOTADB || e.sqliteCode == SQLITE_CORRUPT {
                // The file is something else (or a damaged database).
                throw HistoryError(.notAHistoryDatabase, "\(path) is not a strata-bench history database (\(e.sqliteMessage ?? e.description))")
            }
        }
        func verify(_ s: (application: Int64, version: Int64, tables: [String])) throws -> Bool {
            if s.application == Int64(applicationID) {
                guard s.version == Int64(schemaVersion) else {
                    throw HistoryError(.notAHistoryDatabase,
                                       "\(path) is a strata-bench history database of schema version \(s.version); this strata-bench reads version \(schemaVersion)")
                }
                let missing = ["results", "runs"].filter { !s.tables.contains($0) }
                guard missing.isEmpty else {
                    throw HistoryError(.notAHistoryDatabase, "\(path) is not a strata-bench history database (table \(missing.joined(separator: ", ")) missing)")
                }
                return true
            }
            if s.application == 0 && s.version == 0 && s.tables.isEmpty {
                guard writable else {
                    throw HistoryError(.notAHistoryDatabase, "\(path) is not a strata-bench history database (an empty SQLite database)")
                }
                return false
            }
            let what = s.tables.isEmpty ? "no tables" : "tables \(s.tables.joined(separator: ", "))"
            throw HistoryError(.notAHistoryDatabase,
                               "\(path) is not a strata-bench history database (a SQLite database with \(what), application_id \(s.application), user_version \(s.version))")
        }
        if try verify(try state()) {
            if writable { try exec(db, path, "PRAGMA foreign_keys = ON") }
            return
        }
        // Empty: create the schema, unless another process did in the meantime.
        try exec(db, path, "BEGIN IMMEDIATE")
        do {
            if try !verify(try state()) {
                try exec(db, path, """
                    CREATE TABLE runs(
                        id INTEGER PRIMARY KEY,
                        git_commit TEXT NOT NULL,
                        git_dirty INTEGER NOT NULL,
                        created_at TEXT NOT NULL,
                        machine_key TEXT NOT NULL,
                        hostname TEXT NOT NULL,
                        machine_json TEXT NOT NULL,
                        source TEXT NOT NULL,
                        added_at TEXT NOT NULL,
                        UNIQUE(created_at, git_commit, machine_key));
                    CREATE TABLE results(
                        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        metric TEXT NOT NULL,
                        value REAL NOT NULL,
                        PRIMARY KEY(run_id, name, metric)) WITHOUT ROWID;
                    CREATE INDEX results_by_series ON results(name, metric);
                    CREATE INDEX runs_by_machine ON runs(machine_key, created_at);
                    PRAGMA application_id = \(applicationID);
                    PRAGMA user_version = \(schemaVersion);
                    """)
            }
            try exec(db, path, "COMMIT")
        } catch {
            // Best effort: the error that got here is the one to report.
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
        try exec(db, path, "PRAGMA foreign_keys = ON")
    }

    /// `body` in one write transaction: committed when it returns, rolled back when it throws.
    private func transaction<T>(_ body: () throws -> T) throws -> T {
        try Self.exec(db, path, "BEGIN IMMEDIATE")
        do {
            let result = try body()
            try Self.exec(db, path, "COMMIT")
            return result
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    private func statement(_ sql: String) throws -> SQLiteStatement { try SQLiteStatement(db, path, sql) }

    /// Runs SQL without results (several statements allowed).
    private static func exec(_ db: OpaquePointer, _ path: String, _ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            throw HistoryError(.sqlite, "\(path): sqlite: \(text) (code \(rc), in \(sql.split(separator: "\n").first ?? ""))", sqlite: text, code: rc)
        }
    }

    fileprivate static func check(_ rc: Int32, _ db: OpaquePointer, _ path: String, _ what: String) throws {
        guard rc == SQLITE_OK else {
            let text = String(cString: sqlite3_errmsg(db))
            throw HistoryError(.sqlite, "\(path): sqlite: \(text) (code \(rc), \(what))", sqlite: text, code: rc)
        }
    }
}

/// The figures the history keeps per run, and their units.
public enum HistoryMetric: String, CaseIterable, Codable {
    /// A benchmark's median time, ns per item.
    case time
    /// A counted body's instructions per item (callgrind).
    case instructions
    /// A counted body's estimated cycles per item (callgrind's cache simulation).
    case estimatedCycles = "estimated-cycles"
    /// A counted body's first-level cache misses per item.
    case l1Misses = "l1-misses"
    /// A counted body's last-level cache misses per item.
    case llMisses = "ll-misses"
    /// A counted body's allocation calls per item.
    case mallocs
    /// A scene's median frame time, ms.
    case p50
    /// A scene's 99th-percentile frame time, ms.
    case p99
    /// A scene's hitch time ratio, ms/s.
    case hitch
    /// A scene's per-frame instructions, median and 99th percentile (callgrind).
    case instructionsP50 = "instructions-p50"
    case instructionsP99 = "instructions-p99"
    /// A scene's per-frame estimated cycles, median and 99th percentile.
    case estimatedCyclesP50 = "estimated-cycles-p50"
    case estimatedCyclesP99 = "estimated-cycles-p99"

    /// The unit the values are in, as the command line and the report print it.
    public var unit: String {
        switch self {
        case .time: return "ns/item"
        case .instructions: return "instr/item"
        case .estimatedCycles: return "cycles/item"
        case .l1Misses, .llMisses: return "misses/item"
        case .mallocs: return "mallocs/item"
        case .p50, .p99: return "ms"
        case .hitch: return "ms/s"
        case .instructionsP50, .instructionsP99: return "instr/frame"
        case .estimatedCyclesP50, .estimatedCyclesP99: return "cycles/frame"
        }
    }
}

/// What went wrong with the history, by kind (the commands map kinds to exit statuses).
public struct HistoryError: Error, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: Equatable {
        /// No database at the path.
        case missing
        /// The file is not SQLite, or not our schema or version.
        case notAHistoryDatabase
        /// A report that cannot be added.
        case badReport
        /// SQLite failed otherwise (full disk, locked past the timeout, ...).
        case sqlite
    }
    /// Which kind of failure.
    public var kind: Kind
    /// What went wrong, naming the file.
    public var description: String
    /// sqlite3_errmsg, when SQLite reported the error.
    public var sqliteMessage: String?
    /// SQLite's result code, when SQLite reported the error.
    public var sqliteCode: Int32?

    /// An error of `kind`; `sqlite` and `code` are SQLite's message and result code, if any.
    public init(_ kind: Kind, _ description: String, sqlite: String? = nil, code: Int32? = nil) {
        self.kind = kind
        self.description = description
        self.sqliteMessage = sqlite
        self.sqliteCode = code
    }
}

/// A parameter value.
fileprivate enum SQLValue {
    case text(String)
    case int(Int64)
    case real(Double)
    case null
}

/// One prepared statement, finalized when released.
fileprivate final class SQLiteStatement {
    private let db: OpaquePointer
    private let handle: OpaquePointer
    private let path: String
    private let sql: String

    init(_ db: OpaquePointer, _ path: String, _ sql: String) throws {
        var h: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &h, nil)
        guard rc == SQLITE_OK, let h else {
            sqlite3_finalize(h)
            let text = String(cString: sqlite3_errmsg(db))
            throw HistoryError(.sqlite, "\(path): sqlite: \(text) (code \(rc), preparing \(sql.split(separator: "\n").first ?? ""))", sqlite: text, code: rc)
        }
        self.db = db
        self.handle = h
        self.path = path
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to ?1, ?2, ...
    func bind(_ values: [SQLValue]) throws {
        for (i, v) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch v {
            case .text(let s): rc = sqlite3_bind_text(handle, index, s, -1, csqlite_transient())
            case .int(let n): rc = sqlite3_bind_int64(handle, index, n)
            case .real(let x): rc = sqlite3_bind_double(handle, index, x)
            case .null: rc = sqlite3_bind_null(handle, index)
            }
            try check(rc, "binding parameter \(index)")
        }
    }

    /// The next row (true) or the end (false).
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            try check(rc, "running")
            return false
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws {
        if try step() { throw HistoryError(.sqlite, "\(path): sqlite: unexpected row from \(sql)") }
    }

    /// Ready to run again with new parameters.
    func reset() throws {
        try check(sqlite3_reset(handle), "resetting")
        try check(sqlite3_clear_bindings(handle), "clearing bindings")
    }

    func text(_ column: Int32) -> String { sqlite3_column_text(handle, column).map { String(cString: $0) } ?? "" }
    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    private func check(_ rc: Int32, _ what: String) throws {
        guard rc == SQLITE_OK else {
            let text = String(cString: sqlite3_errmsg(db))
            throw HistoryError(.sqlite, "\(path): sqlite: \(text) (code \(rc), \(what) \(sql.split(separator: "\n").first ?? ""))", sqlite: text, code: rc)
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
