import CGoogleBenchmark
import Foundation
import StrataReportModel

/// Registers `BenchmarkCase`s with Google Benchmark and runs them. Fixtures are built in the
/// untimed part of Google Benchmark's function (before its timing loop) and kept while the
/// same case is called again (iteration estimation, repetitions); building another case's
/// fixture releases the previous one, so only one large fixture lives at a time.
public final class GoogleBenchmarkRunner {
    private var boxes: [CaseBox] = []
    /// The fixture currently alive, and whose it is.
    fileprivate var live: (box: CaseBox, workload: Workload)?

    /// A runner with nothing registered.
    public init() {}

    /// Registers every case (each name at most once).
    public func register(_ cases: [BenchmarkCase]) {
        for c in cases {
            let box = CaseBox(c, runner: self)
            boxes.append(box)
            c.name.withCString { name in
                var spec = strata_gb_benchmark()
                spec.name = name
                spec.context = Unmanaged.passUnretained(box).toOpaque()
                spec.setup = { ctx in CaseBox.from(ctx).setUp() }
                spec.run = { ctx in CaseBox.from(ctx).workload.run() }
                spec.reset = c.hasReset ? { ctx in CaseBox.from(ctx).workload.reset?() } : nil
                spec.items_per_iteration = Double(c.items)
                spec.time_unit = Int32(c.unit.rawValue)
                spec.iterations = Int64(c.iterations)
                strata_gb_register(&spec)
            }
        }
    }

    /// Adds a key/value to the JSON `context` block.
    public func addContext(_ key: String, _ value: String) { strata_gb_add_context(key, value) }

    /// Runs the registered benchmarks Google Benchmark selects with `arguments` (its own
    /// `--benchmark_*` flags), printing its console table as each finishes; returns its JSON.
    public func run(arguments: [String]) throws -> (json: String, count: Int) {
        let argv = ["strata-bench"] + arguments
        var cStrings = argv.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var json: UnsafeMutablePointer<CChar>?
        var unknown: UnsafeMutablePointer<CChar>?
        let count = cStrings.withUnsafeMutableBufferPointer { buf -> Int64 in
            buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buf.count) {
                strata_gb_run(Int32(argv.count), $0, &json, &unknown)
            }
        }
        defer { free(json); free(unknown) }
        live = nil
        let text = json.map { String(cString: $0) } ?? ""
        if count < 0 { throw BenchmarkError("Google Benchmark: \(text)") }
        return (text, Int(count))
    }
}

/// A case plus its fixture slot, reached from C through an opaque pointer.
private final class CaseBox {
    let spec: BenchmarkCase
    unowned let runner: GoogleBenchmarkRunner
    var lastError: UnsafeMutablePointer<CChar>?

    init(_ spec: BenchmarkCase, runner: GoogleBenchmarkRunner) {
        self.spec = spec
        self.runner = runner
    }

    deinit { free(lastError) }

    static func from(_ ctx: UnsafeMutableRawPointer?) -> CaseBox {
        Unmanaged<CaseBox>.fromOpaque(ctx!).takeUnretainedValue()
    }

    var workload: Workload { runner.live!.workload }

    /// Builds (or reuses) this case's fixture; returns an error message for Google Benchmark.
    func setUp() -> UnsafePointer<CChar>? {
        if let live = runner.live, live.box === self { return nil }
        runner.live = nil   // release the previous fixture before building this one
        do {
            let w = try spec.make()
            if (w.reset != nil) != spec.hasReset {
                throw BenchmarkError("\(spec.name): the workload's reset and the case's `resets` disagree")
            }
            runner.live = (self, w)
            return nil
        } catch {
            free(lastError)
            lastError = strdup("precondition failed: \(error)")
            return UnsafePointer(lastError)
        }
    }
}
