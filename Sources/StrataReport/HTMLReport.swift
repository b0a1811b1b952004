import Foundation
import StrataReportModel

/// The benchmark report as one self-contained HTML file: inline SVG charts drawn here, one
/// inline stylesheet, the report's data embedded as JSON, no script, and a
/// Content-Security-Policy that forbids every fetch (a stray reference shows up as a console
/// error instead of a request). Sections without data are left out.
public enum HTMLReport {
    /// The policy in the page's meta tag: nothing may load; inline styles and data: images only.
    public static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; base-uri 'none'; form-action 'none'"

    /// The policy when the page carries a flame graph: as strict, except that the one script
    /// with this page's nonce runs.
    static func contentSecurityPolicy(scriptNonce: String) -> String {
        contentSecurityPolicy.replacingOccurrences(of: "script-src 'none'", with: "script-src 'nonce-\(scriptNonce)'")
    }

    /// A fresh nonce: 128 random bits, base64.
    static func makeNonce() -> String {
        var g = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &g) }
        return Data(bytes).base64EncodedString()
    }

    /// The page for `report` (and `googleBenchmark`'s context); `baseline` and `comparison`
    /// add the verdicts and the baseline's fingerprint when given, `trends` the Trends section
    /// (the headline figures over the history's last commits of this machine).
    public static func render(report: StrataBlock, googleBenchmark: [String: Any], baseline: StrataBlock?, comparison: Comparison?,
                              flameGraph: ReportFlameGraph? = nil, trends: ReportTrends? = nil) -> String {
        let candidates: [(String, Section?)] = [
            ("baseline comparison", comparison.map { ComparisonSection.render($0, baseline: baseline) }),
            ("trends", TrendsSection.render(trends, report: report)),
            ("frame suite", FrameSection.render(report)),
            ("snapshot suite", SnapshotSection.render(report)),
            ("scenes", SceneSection.render(report)),
            ("lookup suite", LookupSection.render(report)),
            ("commit suite", CommitSection.render(report)),
            ("tree suite", TreeSection.render(report)),
            ("profile", ProfileSection.render(flameGraph)),
            ("counts", CountsSection.render(report)),
            ("benchmarks", BenchmarksSection.render(report)),
            ("machine", MachineSection.render(report, googleBenchmark: googleBenchmark, baseline: baseline)),
        ]
        let sections = candidates.compactMap(\.1)
        let absent = candidates.filter { $0.1 == nil && !["benchmarks", "profile", "trends"].contains($0.0) }.map(\.0)
        let charts = sections.flatMap(\.charts)

        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        let nonce = flameGraph == nil ? nil : makeNonce()
        let policy = nonce.map { contentSecurityPolicy(scriptNonce: $0) } ?? contentSecurityPolicy
        html += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(Escape.text(policy))\">"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        html += "<meta name=\"referrer\" content=\"no-referrer\">"
        html += "<meta name=\"color-scheme\" content=\"light dark\">"
        html += "<meta name=\"generator\" content=\"\(Escape.text(report.tool)) (StrataReport)\">"
        html += "<meta name=\"strata-chart-count\" content=\"\(charts.count)\">"
        html += "<meta name=\"strata-chart-ids\" content=\"\(Escape.text(charts.map(\.id).joined(separator: " ")))\">"
        html += "<title>Strata benchmark report · \(Escape.text(report.createdAt))</title>"
        html += "<style>\(Style.css)</style></head><body><main>"
        html += HeaderSection.render(report, comparison: comparison, sections: sections, absent: absent)
        html += sections.map(\.rendered).joined(separator: "\n")
        html += "<footer>Written by \(Escape.text(report.tool)) (report schema \(report.schemaVersion)). One self-contained file: charts are inline SVG, nothing is fetched; hover a point, bar or line for its figures. The report's data is embedded in the element <code>#strata-report-data</code> (JSON).</footer>"
        html += "</main>"
        html += "<script type=\"application/json\" id=\"strata-report-data\">\(Escape.jsonInScript(embeddedData(report, comparison: comparison)))</script>"
        if let flameGraph, let nonce {
            html += "<script nonce=\"\(nonce)\">\(Escape.scriptBody(flameGraph.script))</script>"
        }
        html += "</body></html>\n"
        return html
    }

    /// The strata block (and the comparison) as JSON in the report file's own spelling;
    /// non-finite numbers, which strict JSON cannot hold, as `null`.
    static func embeddedData(_ report: StrataBlock, comparison: Comparison?) -> String {
        struct Embedded: Encodable {
            var strata: StrataBlock
            var comparison: Comparison?
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        let value = Embedded(strata: report, comparison: comparison)
        if let data = try? encoder.encode(value) { return String(decoding: data, as: UTF8.self) }
        // A non-finite number somewhere: encode it as a marker string, then make that null.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "\u{1}nf", negativeInfinity: "\u{1}nf", nan: "\u{1}nf")
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"\\u0001nf\"", with: "null")
    }
}
