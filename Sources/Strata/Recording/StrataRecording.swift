import Foundation
import StrataScript

/// Records what a program does with the engine into a file `strata-bench` runs as a scene
/// and checks on both engines (`strata-bench scene check FILE`).
///
/// With no code change: run the program with `STRATA_RECORD=out.json` in its environment;
/// the first thread to use Strata is recorded from then on and the file is written when the
/// process exits (or the thread ends). Or record a stretch explicitly:
///
///     StrataRecording.begin()                       // this thread's engine
///     ... the program's layers, transactions, frames, presentation reads ...
///     let recording = try StrataRecording.end(writingTo: "out.json")
///
/// Recording off costs one predictable branch on the change paths.
public enum StrataRecording {
    /// Starts recording this thread's engine (a recording already running is ended first
    /// and discarded).
    public static func begin() {
        let e = EngineContext.current
        let r = EngineRecorder(path: nil)
        r.introduceExisting(e)
        e.recorder = r
    }

    /// Whether this thread's engine is being recorded.
    public static var isRecording: Bool { EngineContext.current.recorder != nil }

    /// Stops recording this thread's engine and returns the recording (nil: none was
    /// running); with a path, also writes it there as JSON.
    @discardableResult
    public static func end(writingTo path: String? = nil) throws -> Recording? {
        let e = EngineContext.current
        guard let r = e.recorder else { return nil }
        e.recorder = nil
        let recording = r.recording()
        if let p = path ?? r.path { try write(recording, to: p) }
        return recording
    }

    /// `recording` as the JSON file `strata-bench` reads.
    public static func write(_ recording: Recording, to path: String) throws {
        try Recording.encoder.encode(recording).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The environment's `STRATA_RECORD`: the first engine made records itself into that file.
    nonisolated(unsafe) static var environmentClaimed = false

    static func startFromEnvironment(_ e: EngineContext) {
        guard !environmentClaimed, let p = getenv("STRATA_RECORD"), let path = String(validatingCString: p), !path.isEmpty else { return }
        environmentClaimed = true
        e.recorder = EngineRecorder(path: path)
        recordedFromEnvironment = e
        atexit {
            guard let e = StrataRecording.recordedFromEnvironment else { return }
            StrataRecording.finish(e)
        }
    }

    nonisolated(unsafe) static weak var recordedFromEnvironment: EngineContext?

    /// Writes an engine's environment recording (at exit, or when its thread ends).
    static func finish(_ e: EngineContext) {
        guard let r = e.recorder, let path = r.path else { return }
        e.recorder = nil
        FileHandle.standardError.write(Data(("strata: " + writeKeepingWhatItCan(r.recording(), to: path) + "\n").utf8))
    }

    /// Writes `recording` to `path`, keeping what it can when it cannot: the operations up to
    /// the first that cannot be encoded, marked (`Recording.truncatedAtFirstUnencodable`), and
    /// when `path` cannot be written, the file in the temporary folder instead. Returns what
    /// happened, in a sentence that says what to do.
    static func writeKeepingWhatItCan(_ recording: Recording, to path: String) -> String {
        var recording = recording
        var cut = ""
        if let t = recording.truncatedAtFirstUnencodable() {
            recording = t.recording
            cut = " (truncated: operation \(t.index) could not be encoded, \(t.error); the file keeps the \(t.index) before it and says so in its notes, which `strata-bench scene info` prints)"
        }
        let what = "\(recording.operations.count) operations and \(recording.frames) frames"
        do {
            try write(recording, to: path)
            return "recorded \(what) into \(path)" + cut
        } catch {
            let fallback = NSTemporaryDirectory() + "/strata-recording-\(getpid()).json"
            do {
                try write(recording, to: fallback)
                return "could not write the recording to \(path) (\(error.localizedDescription)): kept \(what) in \(fallback) instead"
                    + cut + "; make \(path)'s folder exist and be writable, or move the file there"
            } catch {
                return "could not write the recording to \(path) nor to \(fallback) (\(error.localizedDescription)): \(what) lost"
                    + "; set STRATA_RECORD to a writable file"
            }
        }
    }
}
