import Foundation
@testable import Strata
import StrataDifferential
import StrataScript
import XCTest

/// Recording a program (`StrataRecording`, `STRATA_RECORD`): the seed examples, recorded as
/// they run, replay on both engines with the presentation values the program read; a
/// changed value is found and named; recording off changes nothing.
// engine-only: the recorder is this engine's (the reference engine has none; the recordings
// are replayed on both engines through StrataDifferential).
final class RecordingTests: XCTestCase {
    typealias Example = (name: String, run: (XCTestCase) throws -> Void)

    /// Every seed example (SeedExampleTests, Seed003Tests), as the tests run them.
    static var examples: [Example] {
        func e<T: XCTestCase>(_ type: T.Type, _ name: String, _ m: @escaping (T) -> () throws -> Void) -> Example {
            (name, { try m($0 as! T)() })
        }
        return [
            e(SeedExampleTests.self, "seed001 colour change", SeedExampleTests.test_seed001_standaloneLayerColourChangeAnimatesOverQuarterSecond),
            e(SeedExampleTests.self, "seed004 one-second transaction", SeedExampleTests.test_seed004_colourChangeInOneSecondTransactionAnimatesOverOneSecond),
            e(SeedExampleTests.self, "seed004 backing layer", SeedExampleTests.test_seed004_viewBackingLayerDoesNotAnimateOutsideAnimationBlock),
            e(SeedExampleTests.self, "seed004 animation block", SeedExampleTests.test_seed004_viewBackingLayerAnimatesInsideAnimationBlockWithEaseInEaseOut),
            e(SeedExampleTests.self, "seed004 disableActions", SeedExampleTests.test_seed004_setDisableActionsStopsStandaloneLayerAnimation),
            e(SeedExampleTests.self, "seed004 push transition", SeedExampleTests.test_seed004_pushTransitionInActionsReplacesColourFade),
            e(SeedExampleTests.self, "seed003 completion block", SeedExampleTests.test_seed003_completionBlockRotatesLayerAfterOneSecondColourChange),
            e(SeedExampleTests.self, "seed000 NSNull actions", SeedExampleTests.test_seed000_nsNullActionsDisableStrokeAndTransformAnimations),
            e(SeedExampleTests.self, "seed000 explicit strokeStart", SeedExampleTests.test_seed000_explicitStrokeStartAnimationStillRuns),
            e(SeedExampleTests.self, "seed002 delegate transition", SeedExampleTests.test_seed002_delegateReturnsTransitionForContents),
            e(SeedExampleTests.self, "seed002 delegate defers", SeedExampleTests.test_seed002_delegateDefersOtherKeysToSuper),
            e(SeedExampleTests.self, "seed002 silent removal", SeedExampleTests.test_seed002_disableActionsKeepsRemoveFromSuperlayerSilent),
            e(SeedExampleTests.self, "seed003 snaps back", SeedExampleTests.test_seed003_explicitAnimationSnapsBackToModelWhenDone),
            e(SeedExampleTests.self, "seed003 fill forwards", SeedExampleTests.test_seed003_removedOnCompletionFalseAndFillForwardsHoldsEndValue),
            e(SeedExampleTests.self, "seed003 model first", SeedExampleTests.test_seed003_settingModelBeforeAddingAnimationKeepsEndValue),
            e(SeedExampleTests.self, "seed003 superlayer transition", SeedExampleTests.test_seed003_transitionOnSuperlayerIsAddedUnderTransitionKey),
            e(Seed003Tests.self, "seed003 keyframe colours", Seed003Tests.test_seed003_keyframeColourAnimationCyclesBlueRedGreenBlueOverTwoSeconds),
            e(Seed003Tests.self, "seed003 path", Seed003Tests.test_seed003_bezierPathAnimationMovesAndTurnsAlongTheCurveForFourSeconds),
            e(Seed003Tests.self, "seed003 group", Seed003Tests.test_seed003_groupOfTwoAnimationsRunsThemTogetherForTheGroupsFourSeconds),
            e(Seed003Tests.self, "seed003 fade transition", Seed003Tests.test_seed003_fadeTransitionOnAnImageViewRunsUnderTheTransitionKey),
            e(Seed003Tests.self, "seed003 push on add", Seed003Tests.test_seed003_pushTransitionOnTheSuperlayerWhenASubviewIsAdded),
            e(Seed003Tests.self, "seed003 hold end", Seed003Tests.test_seed003_removedOnCompletionFalseAndFillForwardsHoldsTheEndUntilRemoved),
            e(Seed003Tests.self, "seed003 model after add", Seed003Tests.test_seed003_settingTheModelWithActionsDisabledAfterAddingKeepsTheEndValue),
            e(Seed003Tests.self, "seed003 remove snaps", Seed003Tests.test_seed003_removeAnimationSnapsBackToTheModel),
        ]
    }

    /// Runs `example` with this thread's engine recorded; the recording.
    func record(_ example: Example) throws -> Recording {
        let name = example.name
        let test: XCTestCase = name.hasPrefix("seed003 ") && Self.examples.firstIndex { $0.name == name }! >= 16
            ? Seed003Tests(name: name, testClosure: { _ in }) : SeedExampleTests(name: name, testClosure: { _ in })
        test.setUp()
        StrataRecording.begin()
        defer { _ = try? StrataRecording.end(); test.tearDown() }
        try example.run(test)
        return try XCTUnwrap(try StrataRecording.end())
    }

    func test_everySeedExampleRecordedPassesTheCheckOnBothEngines() throws {
        var reads = 0
        var outcomes: [String: Int] = [:]
        for example in Self.examples {
            let recording = try record(example)
            XCTAssertGreaterThan(recording.frames, 0, example.name)
            for l in recording.lookups ?? [] {
                outcomes[l.outcome, default: 0] += 1
                guard case .set = recording.operations[l.op] else { XCTFail("\(example.name): lookup \(l) is not at a change"); continue }
            }
            let outcome = RecordingCheck.check(recording)
            XCTAssertNil(outcome.difference, "\(example.name): \(outcome.difference.map { "\($0)" } ?? "")")
            XCTAssertEqual(outcome.compared, recording.reads.count, example.name)
            reads += outcome.compared
        }
        XCTAssertGreaterThan(reads, 50)
        // The examples between them meet built-in actions, NSNull and animations from
        // delegates and actions dictionaries.
        XCTAssertGreaterThan(outcomes["builtIn"] ?? 0, 0, "\(outcomes)")
        XCTAssertGreaterThan(outcomes["none"] ?? 0, 0, "\(outcomes)")
        XCTAssertGreaterThan(outcomes["animation"] ?? 0, 0, "\(outcomes)")
    }

    func test_aRecordingHoldsTheProgramsOperationsAndTheValuesItRead() {
        // On an engine of its own: the recording begins with every layer its engine holds.
        onFreshEngine {
            do { try self.recordOneTransaction() } catch { XCTFail("\(error)") }
        }
    }

    func recordOneTransaction() throws {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let dot = CALayer()
        root.addSublayer(dot)
        renderer.renderFrame(atTime: 0)
        StrataRecording.begin()
        XCTAssertTrue(StrataRecording.isRecording)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        dot.opacity = 0.2
        CATransaction.commit()
        renderer.renderFrame(atTime: 0.5)
        let shown = try XCTUnwrap(dot.presentation()?.opacity)
        let recording = try XCTUnwrap(try StrataRecording.end())
        XCTAssertFalse(StrataRecording.isRecording)
        // Half-way through the default (ease in, ease out) curve: 1 - 0.8 x (1 - 0.2).
        XCTAssertEqual(shown, 0.358, accuracy: 0.01)
        // The tree as it was when the recording began (the renderer's root is the script's
        // -1), committed by a frame at the engine's time; then the transaction, the frame and
        // the read.
        XCTAssertEqual(recording.operations, [
            .begin, .setDisableActions(true), .makeLayer(id: 0, shape: false), .addSublayer(parent: -1, child: 0),
            .commit, .frame(time: 0),
            .begin, .setAnimationDuration(1), .set(layer: 0, keyPath: "opacity", value: .scalar(Double(Float(0.2)))), .commit,
            .frame(time: 0.5), .read(layer: 0, keyPath: "opacity"),
        ])
        XCTAssertEqual(recording.reads, [RecordedRead(op: 11, lanes: [Double(shown)])])
        XCTAssertEqual(recording.lookups, [RecordedLookup(op: 8, outcome: "builtIn")])
        XCTAssertEqual(recording.frames, 2)
        XCTAssertNil(RecordingCheck.check(recording).difference)

        // A value the engines do not show is found and named.
        var tampered = recording
        tampered.reads[0].lanes = [0.9]
        let d = try XCTUnwrap(RecordingCheck.check(tampered).difference)
        XCTAssertEqual(d.operation, 11)
        XCTAssertEqual(d.keyPath, "opacity")
        XCTAssertEqual(d.engine, "each engine")
        XCTAssertTrue(d.description.hasPrefix("operation 11: layer 0 opacity: the program read [0.9], the fast engine shows [0.358"), d.description)

        // Written and read back as a scene: the set-up, then one timed frame.
        let path = NSTemporaryDirectory() + "strata-recording-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try StrataRecording.write(recording, to: path)
        let again = try SceneLoader.recording(path: path)
        XCTAssertEqual(again.operations, recording.operations)
        // As a scene: the set-up up to the first frame, then one timed frame.
        let program = try SceneLoader.load(path: path)
        XCTAssertEqual(program.frames, 1)
        XCTAssertEqual(program.layers, 1)
        XCTAssertEqual(program.time(ofFrame: 0), 0.5)
        // `scene info` counts the recorded frame's change, made with actions enabled.
        XCTAssertEqual(program.perFrame.changes, 1)
        XCTAssertEqual(program.perFrame.implicit, 1)
        XCTAssertEqual(program.perFrame.explicit, 0)
    }

    /// The usual spinner repeats forever (`repeatCount = .infinity`), and a fade may run for
    /// `repeatDuration = HUGE`: JSON has no infinity, and the recording used to fail to
    /// encode, leaving no file. Recorded, written, read back and replayed: the same operations,
    /// and both engines show what the program read ten seconds in.
    func test_anInfiniteSpinnerIsRecordedWrittenReadBackAndReplayed() {
        onFreshEngine {
            do { try self.recordSpinner() } catch { XCTFail("\(error)") }
        }
    }

    func recordSpinner() throws {
        let root = CALayer()
        let renderer = CARenderer(layer: root)
        let spinner = CALayer()
        root.addSublayer(spinner)
        renderer.renderFrame(atTime: 0)
        StrataRecording.begin()
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = 1
        spin.repeatCount = .infinity
        spinner.add(spin, forKey: "spin")
        let pulse = CABasicAnimation(keyPath: "opacity")
        pulse.fromValue = 1.0
        pulse.toValue = 0.5
        pulse.duration = 2
        pulse.autoreverses = true
        pulse.repeatDuration = .infinity
        spinner.add(pulse, forKey: "pulse")
        CATransaction.flush()   // committed now, at 0: they begin here
        renderer.renderFrame(atTime: 10.25)
        let shown = try XCTUnwrap(spinner.presentation()?.opacity)
        let recording = try XCTUnwrap(try StrataRecording.end())
        XCTAssertEqual(shown, 0.5625, accuracy: 0.001, "10.25 s into a 2 s fade that reverses (4 s a cycle): 0.25 s back from 0.5, linear")
        let added = recording.operations.compactMap { op -> ScriptAnimation? in if case .add(_, _, let a) = op { return a }; return nil }
        XCTAssertEqual(added.map(\.repeatCount), [.infinity, 0])
        XCTAssertEqual(added.map(\.repeatDuration), [0, .infinity])

        let path = NSTemporaryDirectory() + "strata-spinner-recording-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try StrataRecording.write(recording, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.contains("\"inf\""), "infinity written as the string \"inf\"")
        let again = try SceneLoader.recording(path: path)
        XCTAssertEqual(again.operations, recording.operations)
        let outcome = RecordingCheck.check(again)
        XCTAssertNil(outcome.difference, "\(outcome.difference.map { "\($0)" } ?? "")")
        XCTAssertEqual(outcome.compared, 1)
        // `scene info`'s figures: the one timed frame adds the two animations.
        let f = try SceneLoader.load(path: path).perFrame
        XCTAssertEqual(f.explicit, 2)
        XCTAssertEqual(f.changes, 0)
    }

    func test_aRecordingThatCannotBeWrittenWhereAskedIsKeptAndSaysWhere() throws {
        let recording = Recording(program: "app", createdAt: "2026-12-07T00:00:00Z",
                                  operations: [.frame(time: 0), .frame(time: 1.0 / 60)], reads: [], frames: 2, notes: [])
        XCTAssertNil(recording.truncatedAtFirstUnencodable(), "every operation encodes: nothing cut")
        let missing = NSTemporaryDirectory() + "no-such-folder-\(getpid())/out.json"
        let message = StrataRecording.writeKeepingWhatItCan(recording, to: missing)
        let fallback = NSTemporaryDirectory() + "/strata-recording-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: fallback) }
        XCTAssertTrue(message.hasPrefix("could not write the recording to \(missing)"), message)
        XCTAssertTrue(message.contains("kept 2 operations and 2 frames in \(fallback)"), message)
        XCTAssertTrue(message.contains("make \(missing)'s folder exist"), message)
        let kept = try SceneLoader.recording(path: fallback)
        XCTAssertEqual(kept.operations, recording.operations)
        XCTAssertEqual(StrataRecording.writeKeepingWhatItCan(recording, to: fallback), "recorded 2 operations and 2 frames into \(fallback)")
    }

    /// A program recorded with no code change: this test executable run again with
    /// STRATA_RECORD in its environment, running only the README's example.
    func test_STRATA_RECORD_recordsAProgramWithoutAChangeToIt() throws {
        let path = NSTemporaryDirectory() + "strata-env-recording-\(getpid()).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        p.arguments = ["StrataTests.ReadmeExampleTests"]
        var env = ProcessInfo.processInfo.environment
        env["STRATA_RECORD"] = path
        // Under scripts/sanitize the child is sanitized too: its exit is this test's concern,
        // its leaks (XCTest's own, at exit) are not.
        env["ASAN_OPTIONS"] = "detect_leaks=0"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, printed)
        XCTAssertTrue(printed.contains("strata: recorded "), printed)
        let recording = try SceneLoader.recording(path: path)
        XCTAssertEqual(recording.frames, 3, "the example renders at 0, 0.25 (begin/render/end) and 1, and nothing else ran")
        XCTAssertTrue(recording.operations.contains(.add(layer: 0, key: "spin", animation: {
            var a = ScriptAnimation(kind: .basic); a.keyPath = "transform.rotation.z"; a.to = .scalar(Double.pi); return a
        }())), "\(recording.operations)")
        XCTAssertTrue(recording.operations.contains { if case .setCompletion = $0 { return true }; return false })
        XCTAssertGreaterThanOrEqual(recording.reads.count, 3)
        let outcome = RecordingCheck.check(recording)
        XCTAssertNil(outcome.difference, "\(outcome.difference.map { "\($0)" } ?? "")")
        XCTAssertEqual(outcome.compared, recording.reads.count)
    }

    func test_recordingOffRecordsNothingAndEndWithoutBeginIsNil() throws {
        XCTAssertFalse(StrataRecording.isRecording)
        XCTAssertNil(try StrataRecording.end())
        let l = CALayer()
        l.opacity = 0.5
        XCTAssertNil(try StrataRecording.end())
    }
}
