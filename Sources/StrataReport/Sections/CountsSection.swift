import StrataReportModel

/// Deterministic counts per item: callgrind instructions and malloc-family calls.
enum CountsSection {
    static func render(_ block: StrataBlock) -> Section? {
        guard !block.counts.isEmpty else { return nil }
        var t = Table([.init("benchmark"), .init("item"), .init("items / iteration", numeric: true), .init("iterations", numeric: true),
                       .init("instructions", numeric: true, tooltip: "per item, under callgrind, body only"),
                       .init("mallocs", numeric: true), .init("frees", numeric: true), .init("bytes allocated", numeric: true)])
        for c in block.counts {
            t.add(text: [c.name, c.item, Format.integer(c.itemsPerIteration), Format.integer(c.iterations), Format.perItem(c.instructionsPerItem),
                         Format.perItem(c.mallocsPerItem), Format.perItem(c.freesPerItem), Format.perItem(c.bytesAllocatedPerItem)])
        }
        var intro = paragraph("Per item of the benchmark body: exact from run to run, so compared with a tight threshold.")
        if block.counts.allSatisfy({ $0.instructionsPerItem == nil }) {
            intro += paragraph("No instruction counts: valgrind was not available for this run.", cls: "note warn")
        }
        return Section(id: "counts", title: "Deterministic counts", html: intro + t.html)
    }
}
