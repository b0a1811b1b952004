import Foundation
import SwiftProtobuf

extension Profile {
    /// The profile in pprof's protobuf format (`profile.proto`, which `go tool pprof` and
    /// the tools built on it read), symbolized here: one `Location` per distinct address
    /// with its function and source line (`Location.Line`, from the DWARF line tables
    /// through `SourceLines`, the innermost inlined position), one `Sample` per distinct
    /// stack of a thread (leaf first) with two values, `samples/count` and
    /// `cpu/nanoseconds` (the samples' weight times the timer period), and a numeric
    /// `thread` label, one `Mapping` per object (marked symbolized). Return addresses (every frame but the leaf) are looked up one byte
    /// back, in the call instruction, as pprof does. Not gzip-compressed: pprof reads
    /// either.
    ///
    /// Returns the encoded profile and why some source lines could not be resolved (nil
    /// when every object's line table was read).
    public func pprofProtobuf(symbolizer: Symbolizer = Symbolizer(), comment: String? = nil) throws
        -> (data: Data, linesProblem: String?)
    {
        var strings = [""]
        var stringIndex = ["": 0]
        func string(_ s: String) -> Int64 {
            if let k = stringIndex[s] { return Int64(k) }
            stringIndex[s] = strings.count
            strings.append(s)
            return Int64(strings.count - 1)
        }
        struct AddressKey: Hashable { var address: UInt; var leaf: Bool }
        struct FunctionKey: Hashable { var name: String; var path: String }
        struct SampleKey: Hashable { var locations: [UInt64]; var thread: Int32 }
        var locationIDs: [AddressKey: UInt64] = [:]
        var locationSymbols: [Symbolizer.Symbol] = []
        var locationAddresses: [UInt] = []
        var functionIDs: [FunctionKey: UInt64] = [:]
        var functionOf: [UInt64] = []   // per location: its function's id
        var sampleIndex: [SampleKey: Int] = [:]
        var merged: [(key: SampleKey, count: Int64, weight: Int64)] = []
        for sample in samples where !sample.frames.isEmpty {
            var ids: [UInt64] = []
            for (i, address) in frames(of: sample).enumerated() {
                let key = AddressKey(address: address, leaf: i == 0)
                if let id = locationIDs[key] { ids.append(id); continue }
                let s = symbolizer.symbol(for: address, exact: i == 0)
                let f = FunctionKey(name: s.name, path: s.path)
                let fid = functionIDs[f] ?? {
                    let id = UInt64(functionIDs.count + 1)
                    functionIDs[f] = id
                    return id
                }()
                let id = UInt64(locationSymbols.count + 1)
                locationIDs[key] = id
                locationSymbols.append(s)
                locationAddresses.append(address)
                functionOf.append(fid)
                ids.append(id)
            }
            let key = SampleKey(locations: ids, thread: sample.thread)
            if let k = sampleIndex[key] {
                merged[k].count += 1
                merged[k].weight += Int64(sample.weight)
            } else {
                sampleIndex[key] = merged.count
                merged.append((key, 1, Int64(sample.weight)))
            }
        }

        // Source lines of every location's address, object by object.
        var requests: [String: [UInt]] = [:]
        for s in locationSymbols where !s.path.isEmpty && s.source != .none { requests[s.path, default: []].append(s.objectOffset) }
        let (found, problem) = requests.isEmpty ? ([:], nil) : SourceLines.resolve(requests)
        var functionFiles: [UInt64: String] = [:]
        var lines: [SourceLocation?] = []
        for (k, s) in locationSymbols.enumerated() {
            let loc = s.source == .none ? nil : found[s.path]?[s.objectOffset]
            lines.append(loc)
            if let loc, functionFiles[functionOf[k]] == nil { functionFiles[functionOf[k]] = loc.file }
        }

        var p = Perftools_Profiles_Profile()
        let period = Int64(max(1, periodNanoseconds))
        p.sampleType = [valueType(string("samples"), string("count")), valueType(string("cpu"), string("nanoseconds"))]
        p.periodType = valueType(string("cpu"), string("nanoseconds"))
        p.period = period
        let threadKey = string("thread")
        p.sample = merged.map { m in
            var s = Perftools_Profiles_Sample()
            s.locationID = m.key.locations
            s.value = [m.count, m.weight * period]
            var label = Perftools_Profiles_Label()
            label.key = threadKey
            label.num = Int64(m.key.thread)
            s.label = [label]
            return s
        }
        p.location = locationSymbols.indices.map { k in
            var l = Perftools_Profiles_Location()
            l.id = UInt64(k + 1)
            l.address = UInt64(locationAddresses[k])
            var line = Perftools_Profiles_Line()
            line.functionID = functionOf[k]
            line.line = Int64(lines[k]?.line ?? 0)
            l.line = [line]
            return l
        }
        // One mapping per object, already symbolized (pprof then looks up no binary).
        var mappingIDs: [String: UInt64] = [:]
        for (k, sym) in locationSymbols.enumerated() where !sym.path.isEmpty {
            let id = mappingIDs[sym.path] ?? {
                let id = UInt64(mappingIDs.count + 1)
                mappingIDs[sym.path] = id
                return id
            }()
            p.location[k].mappingID = id
        }
        p.mapping = mappingIDs.sorted { $0.value < $1.value }.map { path, id in
            var m = Perftools_Profiles_Mapping()
            m.id = id
            m.filename = string(path)
            m.hasFunctions_p = true
            m.hasFilenames_p = true
            m.hasLineNumbers_p = true
            return m
        }
        p.function = functionIDs.sorted { $0.value < $1.value }.map { key, id in
            var f = Perftools_Profiles_Function()
            f.id = id
            f.name = string(key.name)
            f.systemName = f.name
            f.filename = string(functionFiles[id] ?? key.path)
            return f
        }
        let duration = Int64(endNanoseconds &- startNanoseconds)
        p.durationNanos = duration
        p.timeNanos = Int64(Date().timeIntervalSince1970 * 1e9) - duration
        if let comment { p.comment = [string(comment)] }
        p.stringTable = strings
        let data: Data = try p.serializedBytes()
        return (data, problem)
    }
}

private func valueType(_ type: Int64, _ unit: Int64) -> Perftools_Profiles_ValueType {
    var v = Perftools_Profiles_ValueType()
    v.type = type
    v.unit = unit
    return v
}
