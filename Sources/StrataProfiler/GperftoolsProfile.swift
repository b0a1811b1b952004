import Foundation

extension Profile {
    /// The profile in gperftools' legacy CPU profile format, which `google-pprof` (and Go's
    /// pprof) read: native-endian machine words, a header `0, 3, 0, period_us, 0`, one record
    /// per distinct stack (`count, depth, pc...`, leaf first; the readers subtract 1 from
    /// every pc but the first, as return addresses), the trailer `0, 1, 0`, then the text of
    /// /proc/self/maps so addresses map to objects. Counts are samples; the period is the
    /// configured timer period.
    ///
    /// Must be written by the process that recorded the profile (for its maps).
    public func gperftoolsData() -> Data {
        var words: [UInt] = [0, 3, 0, UInt(max(1, periodNanoseconds / 1000)), 0]
        var counts: [ArraySlice<UInt>: Int] = [:]
        var order: [ArraySlice<UInt>] = []
        for s in samples where !s.frames.isEmpty {
            let pcs = frames(of: s)
            if counts[pcs] == nil { order.append(pcs) }
            counts[pcs, default: 0] += 1
        }
        for pcs in order {
            words.append(UInt(counts[pcs]!))
            words.append(UInt(pcs.count))
            words.append(contentsOf: pcs)
        }
        words += [0, 1, 0]
        var data = words.withUnsafeBufferPointer { Data(buffer: $0) }
        if let maps = FileManager.default.contents(atPath: "/proc/self/maps") { data.append(maps) }
        return data
    }
}
