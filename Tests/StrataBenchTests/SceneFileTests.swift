import Foundation
import XCTest
import StrataBench
import StrataBenchReference
@testable import StrataBenchSuites
import StrataScript
import StrataPicture

/// Scene files: the format's reader (values, generators, steps, parameters), every scene in
/// Benchmarks/Scenes running on both engines, and bad input named by line, column and field.
final class SceneFileTests: XCTestCase {
    /// A scene from text; fails the test with the problems if it does not load.
    func load(_ text: String, parameters: [String: Double] = [:], limits: SceneLimits = SceneLimits()) throws -> SceneProgram {
        try SceneLoader.load(bytes: Array(text.utf8), file: "test.json", parameters: parameters, limits: limits)
    }

    /// The problems reading `text` gives (empty when it loads).
    func problems(_ text: String, parameters: [String: Double] = [:], limits: SceneLimits = SceneLimits()) -> [SceneProblem] {
        do {
            _ = try load(text, parameters: parameters, limits: limits)
            return []
        } catch let e as SceneLoadError {
            return e.problems
        } catch {
            XCTFail("unexpected error \(error)")
            return []
        }
    }

    func scene(layers: String = "[]", frame: String = "[]", extra: String = "") -> String {
        """
        {"format": "strata-scene", "version": 1, "name": "t", "frames": 3,\(extra)
         "layers": \(layers),
         "frame": \(frame)}
        """
    }

    // MARK: the format

    func test_explicitLayersAndSublayersBuildTheTreeInOrder() throws {
        let p = try load(scene(layers: """
        [{"id": "card", "properties": {"bounds": [0, 0, 100, 50], "backgroundColor": "#FF000080"},
          "sublayers": [{"id": "dot", "class": "CAShapeLayer", "properties": {"strokeEnd": 0.5, "fillColor": null}}]}]
        """))
        XCTAssertEqual(p.layers, 2)
        XCTAssertEqual(p.depth, 2)
        XCTAssertEqual(p.setup, [
            .begin, .setDisableActions(true),
            .makeLayer(id: 0, shape: false),
            .set(layer: 0, keyPath: "bounds", value: .rect(0, 0, 100, 50)),
            .set(layer: 0, keyPath: "backgroundColor", value: .color([1, 0, 0, 128.0 / 255])),
            .addSublayer(parent: -1, child: 0),
            .makeLayer(id: 1, shape: true),
            .set(layer: 1, keyPath: "strokeEnd", value: .scalar(0.5)),
            .set(layer: 1, keyPath: "fillColor", value: .color(nil)),
            .addSublayer(parent: 0, child: 1),
            .commit, .frame(time: 0),
        ])
    }

    func test_generatorsMakeTheirShapes() throws {
        func tree(_ g: String) throws -> SceneProgram { try load(scene(layers: "[\(g)]")) }
        let balanced = try tree(#"{"generate": "balanced", "layers": 21, "fanout": 4, "group": "all", "leaves": "leaves"}"#)
        XCTAssertEqual(balanced.layers, 21)
        XCTAssertEqual(balanced.depth, 3, "1 + 4 + 16 layers: three levels")
        let chain = try tree(#"{"generate": "chain", "layers": 50}"#)
        XCTAssertEqual(chain.depth, 50)
        let fan = try tree(#"{"generate": "fan", "layers": 50}"#)
        XCTAssertEqual(fan.depth, 1)
        let random = try tree(#"{"generate": "random", "layers": 1000}"#)
        XCTAssertEqual(random.layers, 1000)
        XCTAssertGreaterThan(random.depth, 3)
        XCTAssertLessThan(random.depth, 60, "a random recursive tree is about e ln n deep")
        let levels = try tree(#"{"generate": "levels", "levels": [{"count": 3, "group": "a"}, {"count": 4}, {"count": 2}]}"#)
        XCTAssertEqual(levels.layers, 3 + 12 + 24)
        XCTAssertEqual(levels.depth, 3)
        let copies = try tree(#"{"generate": "repeat", "count": 5, "group": "cards", "layer": {"sublayers": [{}, {"sublayers": [{}]}]}}"#)
        XCTAssertEqual(copies.layers, 20)
        XCTAssertEqual(copies.depth, 3)
    }

    func test_framesDrawRandomValuesPickLayersAndEndInTheFrame() throws {
        let text = scene(layers: #"[{"generate": "fan", "layers": 10, "group": "dots"}]"#, frame: """
        [{"transaction": {"duration": 0.5, "timingFunction": "easeIn", "changes": [
            {"layers": "dots", "count": 3, "set": {"opacity": {"random": [0.25, 0.75]}, "position": {"random": [[0, 5], [10, 5]]}}}]}},
         {"animate": {"every": 2, "layers": "dots", "pick": "sequential", "count": 2, "key": "k", "animations": [
            {"kind": "basic", "keyPath": "position.x", "from": 0, "to": 10, "duration": 1}]}}]
        """, extra: #" "framesPerSecond": 30,"#)
        var p = try load(text)
        let f0 = p.frame(0)
        XCTAssertEqual(f0.first, .begin)
        XCTAssertEqual(Array(f0[1...2]), [.setAnimationDuration(0.5), .setTimingFunction(ScriptCurve(0.42, 0, 1, 1))])
        let sets = f0.compactMap { op -> (Int, String, ScriptValue)? in if case let .set(l, k, v) = op { return (l, k, v) }; return nil }
        XCTAssertEqual(sets.count, 6)
        for (l, k, v) in sets {
            XCTAssertTrue((0..<10).contains(l))
            switch (k, v) {
            case let ("opacity", .scalar(x)): XCTAssertTrue(x >= 0.25 && x < 0.75, "\(x)")
            case let ("position", .point(x, y)): XCTAssertTrue(x >= 0 && x < 10); XCTAssertEqual(y, 5, "equal bounds draw nothing")
            default: XCTFail("\(k) \(v)")
            }
        }
        let adds = f0.compactMap { op -> Int? in if case let .add(l, key, a) = op { XCTAssertEqual(key, "k"); XCTAssertEqual(a.keyPath, "position.x"); return l }; return nil }
        XCTAssertEqual(adds, [0, 1], "sequential picks go through the group in order")
        XCTAssertEqual(f0.last, .frame(time: 1.0 / 30))
        let f1 = p.frame(1)
        XCTAssertFalse(f1.contains { if case .add = $0 { return true }; return false }, "every 2: not on frame 1")
        XCTAssertEqual(p.frame(2).filter { if case .add = $0 { return true }; return false }.count, 2)
        // Deterministic: a copy of the loaded program generates the same frames again.
        let q = try load(text)
        XCTAssertEqual(q.script(frames: 5), q.script(frames: 5))
    }

    func test_parametersTakeDefaultsAndOverrides() throws {
        let text = scene(layers: #"[{"generate": "fan", "layers": "$n"}]"#,
                         extra: #" "parameters": {"n": {"default": 7, "minimum": 1, "maximum": 100, "description": "layers"}},"#)
        XCTAssertEqual(try load(text).layers, 7)
        XCTAssertEqual(try load(text, parameters: ["n": 42]).layers, 42)
        XCTAssertEqual(try load(text, parameters: ["n": 42]).parameters.first?.defaultValue, 7)
        XCTAssertTrue(problems(text, parameters: ["n": 500]).contains { $0.message.contains("above its maximum 100") })
        XCTAssertTrue(problems(text, parameters: ["m": 1]).contains { $0.message.contains("--param m: the scene has no such parameter; parameters: n") })
        XCTAssertTrue(problems(text, parameters: ["n": 2.5]).contains { $0.message.contains("2.5 ($n) is out of range: expected a whole number") })
    }

    // MARK: the scenes in Benchmarks/Scenes

    /// A scene's player: its motion window is replayed after the timed run (the scene again,
    /// untimed, on a fresh engine) and draws the run's slowest frame as the run drew it.
    func test_aScenesPlayerReplaysAMotionWindowAroundItsSlowestFrame() throws {
        // app-10k at a tenth: 1,000 layers, implicit changes, explicit basic and keyframe
        // animations, subtrees in and out.
        let program = try Scenes.load("app-10k", parameters: ["containers": 10])
        let frames = PlayerRecorder.windowFrames(seconds: 1, interval: program.interval)
        XCTAssertEqual(frames, 60)
        let recorder = PlayerRecorder(scene: "app-1k", description: "", expectedFrames: 150, windowFrames: frames)
        final class Said: @unchecked Sendable { var lines: [String] = [] }
        let said = Said()
        _ = try Scenes.run(program, SceneRunSettings(frames: 150), player: recorder) { said.lines.append($0) }
        let doc = recorder.document()
        let window = try XCTUnwrap(doc.window, "\(doc.notes)")
        let slowest = doc.frameTimes.indices.max { doc.frameTimes[$0] < doc.frameTimes[$1] }!
        // The slowest frame is the slowest by the clock, so a busy machine can put it anywhere
        // (a preempted frame); the frames before it keep to half the window's bytes. So the
        // window holds the 60 frames asked for, or says in its note how many fit and why.
        // (The window's shape at fixed frame times is PlayerTests' to judge.)
        if window.count != 60 {
            XCTAssertTrue(doc.notes.contains { $0.contains("\(window.count) of the 60 frames asked for fit its") },
                          "a window of \(window.count) frames without the reason: \(doc.notes)")
        }
        XCTAssertGreaterThan(window.count, 1, "\(doc.notes)")
        XCTAssertTrue(window.contains(slowest), "\(window) holds the slowest frame, \(slowest)")
        let kept = doc.frames.filter { window.contains($0.index) }
        XCTAssertEqual(kept.map(\.index), Array(window))
        XCTAssertTrue(kept[0].isKey && kept.dropFirst().allSatisfy { !$0.isKey })
        XCTAssertEqual(kept.map(\.frameMilliseconds), window.map { Double(doc.frameTimes[$0]) }, "the run's frame times")
        XCTAssertFalse(doc.notes.contains { $0.contains("unlike the run") || $0.contains("no motion window") || $0.contains("dropped") },
                       "the replay drew the slowest frame as the run did: \(doc.notes)")
        XCTAssertTrue(said.lines.contains { $0.hasPrefix("motion window replayed in") }, "\(said.lines)")
    }

    func test_everySceneFileIsValidAndRunsOnBothEngines() throws {
        let names = Scenes.names
        XCTAssertTrue(Set(names).isSuperset(of: ["app-10k", "stress-100k", "list-1k", "dashboard-200", "field-100k"]), "\(names)")
        // The large ones run smaller (their parameters), so a debug build runs them in seconds.
        let smaller: [String: [String: Double]] = ["app-10k": ["containers": 10], "stress-100k": ["containers": 20],
                                                   "field-100k": ["tiles": 4, "animated": 400]]
        for name in names {
            XCTAssertNoThrow(try Scenes.load(name), name)
            let program = try Scenes.load(name, parameters: smaller[name] ?? [:])
            XCTAssertGreaterThan(program.layers, 0)
            let fast = try Scenes.run(program, SceneRunSettings(frames: 3))
            XCTAssertEqual(fast.frames, 3, name)
            XCTAssertEqual(fast.engine, "fast")
            XCTAssertEqual(fast.scene, name)
            XCTAssertEqual(fast.layers, program.layers + 1)
            XCTAssertGreaterThan(fast.p50, 0)
        }
        // The reference engine on the small ones (its frames of the large ones take seconds).
        for name in ["list-1k", "dashboard-200"] {
            let r = try ReferenceScenes.run(try Scenes.load(name), SceneRunSettings(frames: 2))
            XCTAssertEqual(r.engine, "reference")
            XCTAssertEqual(r.frames, 2)
        }
    }

    func test_builtInScenesKeepTheirShape() throws {
        // The sizes the scenes promise (and the generated versions had): app-10k 10,101 layers
        // (100 containers of 99 cells, two 50-layer panels), stress-100k 101,001.
        let app = try Scenes.load("app-10k")
        XCTAssertEqual(app.layers + 1, 10_101)
        XCTAssertEqual(app.perFrame.changes, 250)
        XCTAssertEqual(app.perFrame.implicit, 200)
        XCTAssertEqual(try Scenes.load("stress-100k").layers + 1, 101_001)
        XCTAssertEqual(try Scenes.load("field-100k").layers, 100_000)
        // Parameters of a built-in scene resize it.
        XCTAssertEqual(try Scenes.load("app-10k", parameters: ["containers": 10]).layers + 1, 1 + 10 * 100 + 100)
    }

    func test_sideBySideRunsAreInterleavedAndNamed() throws {
        let p = try load(scene(layers: #"[{"generate": "fan", "layers": 20, "group": "d"}]"#, frame: """
        [{"transaction": {"changes": [{"layers": "d", "count": 5, "set": {"opacity": {"random": [0, 1]}}}]}}]
        """))
        let runs: [SceneStepping] = try ["chain", "cached"].map { (s: String) in
            try Scenes.makeRun(p, SceneRunSettings(frames: 4, strategy: s, label: "t/\(s)"))
        } + [try ReferenceScenes.makeRun(p, SceneRunSettings(frames: 4, label: "t/reference"))]
        let results = try SceneInterleaver.run(runs).map { try $0.get() }
        XCTAssertEqual(results.map(\.name), ["t/chain", "t/cached", "t/reference"])
        XCTAssertEqual(results.map(\.strategy), ["chain", "cached", "chain"])
        XCTAssertEqual(results.map(\.frames), [4, 4, 4])
        XCTAssertThrowsError(try Scenes.makeRun(p, SceneRunSettings(strategy: "fastest")))
    }

    // MARK: bad input: a clear error, line, column and field; no crash

    func test_wrongTypesAndUnknownFieldsAreNamedByLineColumnAndPointer() {
        let text = """
        {"format": "strata-scene", "version": 1, "name": "t",
         "frames": "ten",
         "layers": [{"id": "a", "properties": {"opacity": "high", "positon": [1, 2]}}],
         "frmae": []}
        """
        let ps = problems(text)
        XCTAssertEqual(ps.map(\.description), [
            "2:12: /frames: expected a number or \"$parameter\", got a string",
            "3:51: /layers/0/properties/opacity: expected a number or \"$parameter\", got a string",
            "3:59: /layers/0/properties/positon: unknown key path \"positon\"; did you mean position, position.x, position.y?",
            "4:2: /frmae: unknown field \"frmae\" in a scene; expected one of: format, version, name, description, seed, parameters, frames, quickFrames, warmupFrames, framesPerSecond, frameInterval, layers, frame",
        ])
        XCTAssertEqual(ps[0].formatted(file: "s.json"), "s.json:2:12: /frames: expected a number or \"$parameter\", got a string")
    }

    func test_badReferencesAndCyclesAreRefused() {
        let cycle = scene(layers: #"[{"id": "a", "parent": "b"}, {"id": "b", "parent": "a"}]"#)
        XCTAssertTrue(problems(cycle).contains { $0.message.contains("cycle") }, "\(problems(cycle))")
        let unknownParent = scene(layers: #"[{"id": "a", "parent": "nowhere"}]"#)
        XCTAssertTrue(problems(unknownParent).contains { $0.message.hasPrefix("unknown layer id \"nowhere\"") && $0.pointer == "/layers/0/parent" })
        let unknownGroup = scene(layers: #"[{"id": "a"}]"#, frame: #"[{"read": {"layers": "cells", "keyPath": "opacity"}}]"#)
        XCTAssertTrue(problems(unknownGroup).contains { $0.message.hasPrefix("unknown group or layer id \"cells\"") && $0.pointer == "/frame/0/read/layers" })
        let shapeKey = scene(layers: #"[{"id": "a", "properties": {"strokeEnd": 0.5}}]"#)
        XCTAssertEqual(problems(shapeKey).first?.message, "strokeEnd is a CAShapeLayer property; these layers are CALayers")
        let duplicate = scene(layers: #"[{"id": "a"}, {"id": "a"}]"#)
        XCTAssertTrue(problems(duplicate).contains { $0.message.contains("names a layer or group already") })
        let moveIntoItself = scene(layers: #"[{"id": "a", "sublayers": [{"id": "b"}]}]"#,
                                   frame: #"[{"move": {"subtrees": "a", "into": "b"}}]"#)
        XCTAssertTrue(problems(moveIntoItself).contains { $0.message.contains("cannot move into itself") })
        let wrongWidth = scene(layers: #"[{"properties": {"bounds": [0, 0, 10]}}]"#)
        XCTAssertEqual(problems(wrongWidth).first?.message, "expected a rectangle [x, y, width, height]; got 3 numbers")
    }

    func test_syntaxErrorsNaNAndHugeNumbersAreRefusedWithTheirPosition() {
        let nan = "{\"format\": \"strata-scene\",\n \"frames\": NaN}"
        XCTAssertEqual(problems(nan).map(\.description), ["2:12: NaN and Infinity are not JSON numbers"])
        XCTAssertEqual(problems("{\"frames\": 1e400}").first?.message, "number 1e400 is out of range")
        XCTAssertEqual(problems("").first?.message, "empty document: expected a JSON value")
        XCTAssertEqual(problems("{\"a\": 1,}").first?.message, "unexpected '}': expected a key in double quotes")
        XCTAssertEqual(problems("{\"a\": 1, \"a\": 2}").first?.message, "duplicate key \"a\"")
        XCTAssertEqual(problems("[1, 2").first?.message, "unexpected end of file: expected ',' or ']'")
        // A truncated scene file.
        let full = try! String(contentsOfFile: Scenes.path("app-10k")!, encoding: .utf8)
        let cut = String(full.prefix(full.count / 2))
        let ps = problems(cut)
        XCTAssertEqual(ps.count, 1)
        XCTAssertTrue(ps[0].message.hasPrefix("unexpected end of file") || ps[0].message.hasPrefix("unterminated string"), ps[0].message)
        // Not UTF-8 text at all.
        XCTAssertFalse(problems(String(decoding: [0xFF, 0xFE, 0x00, 0x7B], as: UTF8.self)).isEmpty)
    }

    func test_millionDeepNestingAndBillionLayersAreRefusedQuickly() {
        let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        XCTAssertEqual(problems(deep).first?.message, "nesting deeper than 200 levels")
        let deepLayers = scene(layers: "[" + String(repeating: #"{"sublayers": ["#, count: 300) + "{}" + String(repeating: "]}", count: 300) + "]")
        XCTAssertEqual(problems(deepLayers).first?.message, "nesting deeper than 200 levels")
        let billion = scene(layers: #"[{"generate": "balanced", "layers": 1000000000, "fanout": 4}]"#)
        XCTAssertEqual(problems(billion).first?.message, "the tree would have more than 10000000 layers (0 so far, 1000000000 more here)")
        let levels = scene(layers: #"[{"generate": "levels", "levels": [{"count": 100000}, {"count": 100000}]}]"#)
        XCTAssertTrue(problems(levels).contains { $0.message.contains("at most 10000000") })
        let copies = scene(layers: #"[{"generate": "repeat", "count": 5000000, "layer": {"sublayers": [{}, {}]}}]"#)
        XCTAssertEqual(problems(copies).first?.message, "5000000 copies of 3 layers make more than 10000000 layers")
        let changes = scene(layers: #"[{"id": "a"}]"#, frame: #"[{"transaction": {"changes": [{"layers": "a", "count": 1e12, "set": {"opacity": 1}}]}}]"#)
        XCTAssertTrue(problems(changes).contains { $0.message.contains("count 1000000000000 is out of range") })
        var small = SceneLimits()
        small.maxLayers = 100
        XCTAssertFalse(problems(scene(layers: #"[{"generate": "fan", "layers": 101}]"#), limits: small).isEmpty)
    }

    func test_theFuzzFixturesOfTheSceneReaderStillLoadOrFailCleanly() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/parsers/scene")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        XCTAssertFalse(files.isEmpty, "seeds of the scene reader's fuzz target are kept in \(dir.path)")
        for f in files {
            let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent(f)))
            do { _ = try SceneLoader.load(bytes: bytes, file: f) } catch is SceneLoadError {} // a clean refusal
        }
    }
}

/// The JSON Schema beside the scene files accepts every one of them (Debian's
/// python3-jsonschema, installed by scripts/setup) and refuses a file the reader refuses too.
final class SceneSchemaTests: XCTestCase {
    func test_theSchemaAcceptsEverySceneFileAndRefusesAWrongOne() throws {
        let dir = Scenes.directory
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-scene-\(getpid()).json")
        try #"{"format": "strata-scene", "version": 1, "name": "x", "frames": "ten", "layers": []}"#.write(to: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bad) }
        let script = """
        import json, sys, glob, jsonschema
        schema = json.load(open(sys.argv[1] + '/scene.schema.json'))
        jsonschema.Draft202012Validator.check_schema(schema)
        v = jsonschema.Draft202012Validator(schema)
        for f in sorted(glob.glob(sys.argv[1] + '/*.json')) + [sys.argv[2]]:
            if f.endswith('.schema.json'): continue
            errors = list(v.iter_errors(json.load(open(f))))
            print(f.split('/')[-1], len(errors))
        """
        let (status, text) = try runProcess("/usr/bin/python3", ["-c", script, dir, bad.path])
        XCTAssertEqual(status, 0, text)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let n = Int(parts[1]) { counts[String(parts[0])] = n }
        }
        for name in Scenes.names { XCTAssertEqual(counts[name + ".json"], 0, "\(name): \(text)") }
        XCTAssertGreaterThan(counts[bad.lastPathComponent] ?? 0, 0, text)
    }
}
