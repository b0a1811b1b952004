// libFuzzer target: StrataScript's JSON (what `strata-fuzz --replay` and the differential
// fixtures read). Built by scripts/fuzz-parsers with StrataScript's target:
//   swiftc -sanitize=fuzzer,address -parse-as-library Tests/Fuzz/FuzzScript.swift Sources/StrataScript/*.swift
// Any input must decode or be refused with an error; a decoded script must encode and decode
// again to the same script.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let script = try? JSONDecoder().decode(Script.self, from: data) else { return 0 }
    let again = try! JSONEncoder().encode(script)
    let decoded = try! JSONDecoder().decode(Script.self, from: again)
    precondition(decoded == script, "a script changed through encode and decode")
    return 0
}
