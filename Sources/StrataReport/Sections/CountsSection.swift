import StrataReportModel

/// Deterministic counts per item: callgrind instructions, its cache simulation's estimated
/// cycles (with the range the body took over its placements) and malloc-family calls.
enum CountsSection {
    static func render(_ block: StrataBlock) -> Section? {
        guard !block.counts.isEmpty else { return nil }
        var t = Table([.init("benchmark"), .init("item"), .init("items / iteration", numeric: true), .init("iterations", numeric: true),
                       .init("instructions", numeric: true, tooltip: "per item, under callgrind, body only"),
                       .init("estimated cycles", numeric: true,
                             tooltip: "per item: L1 hits + 5 x LL hits + 35 x memory accesses in callgrind's cache simulation; the median placement's"),
                       .init("over placements", tooltip: "fewest and most estimated cycles per item over the placements the body was counted under (heap laid out otherwise in each)"),
                       .init("mallocs", numeric: true), .init("frees", numeric: true), .init("bytes allocated", numeric: true)])
        for c in block.counts {
            let range = c.estimatedCyclesRangePerItem.map { "\(Format.perItem($0.lowerBound)) – \(Format.perItem($0.upperBound)) (\(c.layouts ?? 0))" } ?? "–"
            t.add(text: [c.name, c.item, Format.integer(c.itemsPerIteration), Format.integer(c.iterations), Format.perItem(c.instructionsPerItem),
                         Format.perItem(c.estimatedCyclesPerItem), range,
                         Format.perItem(c.mallocsPerItem), Format.perItem(c.freesPerItem), Format.perItem(c.bytesAllocatedPerItem)])
        }
        var intro = paragraph("Per item of the benchmark body: exact from run to run, so compared with a tight threshold. "
            + "The cache simulation sees addresses, so each body is counted under several placements of its heap and judged by the median; "
            + "an estimated-cycles change counts only when it holds in every placement.")
        if block.counts.allSatisfy({ $0.instructionsPerItem == nil }) {
            intro += paragraph("No instruction counts: valgrind was not available for this run.", cls: "note warn")
        }
        return Section(id: "counts", title: "Deterministic counts", html: intro + t.html)
    }
}
