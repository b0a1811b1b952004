import Foundation
import Strata
import StrataPicture
import XCTest

/// The scene player: what the recorder keeps (a sample, the slowest frames, within a byte
/// budget, and says so), the frames' encoding, the page; and in headless Chromium
/// (`scripts/lib/check-player`, with STRATA_BROWSER_TEST=1 as CI sets it) that its frames
/// differ, its scrubber, play and timeline move the picture, with no error and no request.
final class PlayerTests: XCTestCase {
    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// `n` layers sliding right (linear, 1 s), rendered at frame f of 60 per second; `body`
    /// gets each frame's snapshot.
    private func slidingLayers(_ n: Int, frames: Int, _ body: (Int, RenderSnapshot) -> Void) {
        let root = CALayer()
        var layers: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for k in 0..<n {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            l.position = CGPoint(x: 10, y: 10 + Double(k) * 12)
            l.backgroundColor = CGColor(red: Double(k % 3) / 2, green: 0.4, blue: 0.8, alpha: 1)
            root.addSublayer(l)
            layers.append(l)
        }
        CATransaction.commit()
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        for l in layers { l.position = CGPoint(x: 200, y: l.position.y) }
        CATransaction.commit()
        for f in 0..<frames {
            r.beginFrame(atTime: Double(f + 1) / 60)
            r.render()
            body(f, r.snapshot())
            r.endFrame()
        }
    }

    func test_framesEncodeTheSnapshotCompactly() {
        var frame: PlayerFrame?
        slidingLayers(10, frames: 1) { f, s in frame = PlayerFrame(index: f, time: 1.0 / 60, frameMilliseconds: 2.5, snapshot: s) }
        let data = frame!.data
        XCTAssertEqual(frame!.items, 11, "the root and ten layers")
        func u32(_ o: Int) -> UInt32 { data.subdata(in: o..<(o + 4)).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } }
        XCTAssertEqual(u32(0), 0, "frame index")
        XCTAssertEqual(data.subdata(in: 4..<12).withUnsafeBytes { $0.loadUnaligned(as: Double.self) }, 1.0 / 60, "media time")
        XCTAssertEqual(data.subdata(in: 12..<16).withUnsafeBytes { $0.loadUnaligned(as: Float.self) }, 2.5, "frame time")
        XCTAssertEqual(u32(16), 11, "items")
        XCTAssertEqual(u32(20), 0, "paths")
        // The root: no background (flags 0), origin, size, opacity: 1 + 8 + 8 + 1 bytes; each
        // layer with a background: 4 more.
        XCTAssertEqual(data.count, 24 + 18 + 10 * 22)
    }

    func test_theRecorderKeepsASampleAndTheSlowestWithinItsBudgetAndSaysSo() {
        let recorder = PlayerRecorder(scene: "sliding", description: "ten layers", expectedFrames: 600, byteBudget: 20 * 250,
                                      sampleTarget: 100, slowTarget: 3)
        slidingLayers(10, frames: 600) { f, s in
            let ms = [101, 333, 457].contains(f) ? 40.0 : 1.0 + Double(f % 7) / 10
            recorder.frameDone(index: f, time: Double(f + 1) / 60, milliseconds: ms) { s }
        }
        let doc = recorder.document()
        let bytes = doc.frames.reduce(0) { $0 + $1.data.count }
        XCTAssertLessThanOrEqual(bytes, 20 * 250, "within the byte budget")
        XCTAssertGreaterThanOrEqual(doc.frames.count, 10)
        XCTAssertEqual(doc.slowFrames, [101, 333, 457], "the three slow frames are kept")
        XCTAssertTrue([101, 333, 457].allSatisfy { i in doc.frames.contains { $0.index == i } })
        XCTAssertEqual(doc.frames.map(\.index), doc.frames.map(\.index).sorted(), "in order")
        XCTAssertEqual(doc.frameTimes.count, 600, "the timeline has every frame")
        XCTAssertEqual(recorder.heldBytes, 600 * 4 + bytes, "what the scene's memory readings take out: the times and the kept frames")
        XCTAssertTrue(doc.notes.first?.contains("of 600 frames kept") ?? false, "\(doc.notes)")
        // The sample is spread over the run, not only its start.
        XCTAssertGreaterThan(doc.frames.filter { !doc.slowFrames.contains($0.index) }.map(\.index).max() ?? 0, 400)
    }

    func test_aMillionFramesAreDecimatedAndTheNoteSaysSo() {
        var snapshot: RenderSnapshot?
        slidingLayers(3, frames: 1) { _, s in snapshot = s }
        let recorder = PlayerRecorder(scene: "long", description: "", expectedFrames: 1_000_000)
        var asked = 0
        for f in 0..<1_000_000 {
            recorder.frameDone(index: f, time: Double(f) / 60, milliseconds: 1) { asked += 1; return snapshot! }
        }
        let doc = recorder.document()
        XCTAssertLessThanOrEqual(doc.frames.count, 120 + 12)
        XCTAssertLessThanOrEqual(asked, 2_000, "snapshots are asked for only for the frames kept")
        XCTAssertTrue(doc.notes.first?.contains("of 1000000 frames kept: every 8334th frame") ?? false, "\(doc.notes)")
        XCTAssertLessThan(doc.html().utf8.count, 6_000_000, "the page stays a few MB with a million frame times")
    }

    func test_framesTheBudgetCannotKeepAreNotEncoded() {
        // Frames of 100 layers against a budget of about eight of them: the slowest frames get
        // room for two, so after two are kept only a slower frame is asked for.
        var snapshot: RenderSnapshot?
        slidingLayers(100, frames: 1) { _, s in snapshot = s }
        let frameBytes = PlayerFrame(index: 0, time: 0, frameMilliseconds: 1, snapshot: snapshot!).data.count
        let recorder = PlayerRecorder(scene: "big frames", description: "", expectedFrames: 20_000, byteBudget: 8 * frameBytes,
                                      sampleTarget: 100, slowTarget: 12)
        var asked = 0
        for f in 0..<20_000 {
            let ms = f == 15_000 ? 50.0 : 1 + Double(f % 3) / 10
            recorder.frameDone(index: f, time: Double(f) / 60, milliseconds: ms) { asked += 1; return snapshot! }
        }
        let doc = recorder.document()
        XCTAssertLessThanOrEqual(doc.frames.reduce(0) { $0 + $1.data.count }, 8 * frameBytes)
        XCTAssertEqual(doc.slowFrames.count, 2)
        XCTAssertTrue(doc.slowFrames.contains(15_000), "the one slow frame is kept")
        XCTAssertLessThanOrEqual(asked, 30, "asked for the sample, the first slow candidates and the slower ones only")
    }

    func test_thePageIsSelfContained() {
        let recorder = PlayerRecorder(scene: "sliding <&>", description: "ten \"layers\"", expectedFrames: 30)
        slidingLayers(10, frames: 30) { f, s in recorder.frameDone(index: f, time: Double(f + 1) / 60, milliseconds: 1) { s } }
        let html = recorder.document().html()
        XCTAssertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;") ||
                      html.contains("content=\"default-src 'none'"), "a policy forbidding fetches")
        XCTAssertTrue(html.contains("<title>sliding &lt;&amp;&gt; · Strata scene player</title>"), "the name escaped")
        XCTAssertFalse(html.contains("src=\"http") || html.contains("href=\"http"), "no external resource")
        XCTAssertEqual(html.components(separatedBy: "<script").count - 1, 3, "meta, data and one script")
        XCTAssertTrue(html.contains("name=\"strata-player-frames\" content=\"30\""))
    }

    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func test_thePlayerWorksInHeadlessChromium() throws {
        let script = repository.appendingPathComponent("scripts/lib/check-player").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: script), "\(script) missing or not executable")
        guard ProcessInfo.processInfo.environment["STRATA_BROWSER_TEST"] == "1" else { return }
        let recorder = PlayerRecorder(scene: "sliding", description: "ten layers sliding right", expectedFrames: 60)
        slidingLayers(10, frames: 60) { f, s in recorder.frameDone(index: f, time: Double(f + 1) / 60, milliseconds: 1 + Double(f % 5)) { s } }
        let dir = NSTemporaryDirectory() + "strata-player-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = dir + "/player.html"
        try recorder.document().write(to: page)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: script)
        p.arguments = [page, dir + "/player.png"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, output)
        XCTAssertTrue(output.contains("distinct pictures at the first, middle and last frames: 3"), output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/player.png"))
    }
}
