// libFuzzer target: a strata-bench report (what `compare`, `report` and `merge` read). Built
// by scripts/fuzz-parsers with the report model's target (Foundation only):
//   swiftc -sanitize=fuzzer,address -parse-as-library -module-name StrataReportModel \
//       Tests/Fuzz/FuzzReport.swift Sources/StrataReportModel/*.swift
// Any input must be read or refused with a clear error; a report that reads must compare with
// itself (no regression, no crash) and encode again to strict JSON.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let report: (googleBenchmark: [String: Any], strata: StrataBlock)
    do {
        report = try ReportBuilder.read(data, name: "input.json")
    } catch let e as BenchmarkError {
        precondition(!e.description.isEmpty, "an error without a message")
        return 0
    } catch {
        preconditionFailure("a report error that is not a BenchmarkError: \(error)")
    }
    let comparison = Comparator().compare(base: report.strata, head: report.strata, basePath: "input.json", headPath: "input.json")
    precondition(!comparison.rows.contains { $0.verdict == .regression }, "a report regressed against itself")
    _ = try? ReportBuilder.document(report.googleBenchmark, strata: report.strata)
    return 0
}
