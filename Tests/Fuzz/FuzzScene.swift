// libFuzzer target: the scene-file reader (`strata-bench run --scene`, `scene validate`).
// Built by scripts/fuzz-parsers with StrataScript's target:
//   swiftc -sanitize=fuzzer,address -parse-as-library Tests/Fuzz/FuzzScene.swift Sources/StrataScript/*.swift
// Any input must load or be refused with problems that have a position; a loaded scene must
// generate frames whose operations name only layers it made.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    var limits = SceneLimits()
    limits.maxLayers = 20_000
    limits.maxOperationsPerFrame = 20_000
    do {
        let program = try SceneLoader.load(bytes: bytes, file: "fuzz", limits: limits)
        let script = program.script(frames: 3)
        for op in script.ops {
            switch op {
            case let .makeLayer(id, _): precondition(id >= 0 && id < program.layers, "layer id \(id) out of range")
            case let .set(l, _, _), let .add(l, _, _), let .read(l, _), let .removeFromSuperlayer(l):
                precondition(l >= 0 && l < program.layers, "op on layer \(l) of \(program.layers)")
            case let .addSublayer(p, c): precondition(p >= -1 && p < program.layers && c >= 0 && c < program.layers && p != c, "add \(c) to \(p)")
            default: break
            }
        }
    } catch let e as SceneLoadError {
        precondition(!e.problems.isEmpty, "a refusal without a problem")
        for p in e.problems { precondition(p.line >= 1 && p.column >= 1, "a problem without a position: \(p)") }
    } catch {
        preconditionFailure("unexpected error \(error)")
    }
    return 0
}
