import Foundation
import Strata
@testable import StrataPicture
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
    private func slidingLayers(_ n: Int, frames: Int, shift: Double = 0, _ body: (Int, RenderSnapshot) throws -> Void) rethrows {
        let root = CALayer()
        var layers: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for k in 0..<n {
            let l = CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            l.position = CGPoint(x: 10, y: 10 + Double(k) * 12 + shift)
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
            try body(f, r.snapshot())
            r.endFrame()
        }
    }

    /// The player's items for a snapshot, decoded: what a key frame of it draws.
    private func keyItems(_ s: RenderSnapshot) throws -> (order: [Int32], items: [PlayerItem]) {
        let bytes = PlayerEncoder().encode(s, index: 0, time: 0, milliseconds: 0, key: true)
        let state = PlayerState()
        try state.apply(bytes)
        return (state.order, state.items)
    }

    func test_aKeyFrameHoldsEachItemQuantized() throws {
        var bytes: [UInt8] = []
        var decoded: (index: Int, time: Double, milliseconds: Double)?
        let state = PlayerState()
        try slidingLayers(10, frames: 1) { f, s in
            bytes = PlayerEncoder().encode(s, index: 7, time: 1.0 / 60, milliseconds: 2.5, key: true)
            decoded = try? state.apply(bytes)
        }
        XCTAssertEqual(decoded?.index, 7)
        XCTAssertEqual(decoded?.time, 1.0 / 60)
        XCTAssertEqual(decoded?.milliseconds, 2.5)
        let items = state.items
        XCTAssertEqual(items.count, 11, "the root and ten layers")
        // Layer k: 10 x 10, at (10, 10 + 12k) plus 1/60 of the linear slide to x = 200, drawn
        // from its bounds' origin (the position less half the size), in 1/64 px.
        for k in 0..<10 {
            let x = 10 + (200 - 10) * (1.0 / 60) - 5, y = 10 + Double(k) * 12 - 5
            XCTAssertEqual(Double(items[k + 1].x), (x * 64).rounded(), accuracy: 1, "layer \(k) x")
            XCTAssertEqual(items[k + 1].y, Int32(y * 64), "layer \(k) y")
            XCTAssertEqual(items[k + 1].w, 640)
            XCTAssertEqual(items[k + 1].h, 640)
            XCTAssertEqual(items[k + 1].opacity, 255)
            XCTAssertEqual(items[k + 1].a, 65536, "no rotation or scale")
            XCTAssertEqual(items[k + 1].background, UInt32(k % 3 == 0 ? 0 : (k % 3 == 1 ? 128 : 255)) | 102 << 8 | 204 << 16 | 255 << 24)
        }
        XCTAssertEqual(items[0].background, 0, "the root has no background")
        XCTAssertLessThan(bytes.count, 11 * 20, "about 20 bytes an item at most: \(bytes.count)")
    }

    func test_deltasHoldOnlyTheChangesAndDecodeToEachFrame() throws {
        let encoder = PlayerEncoder(), player = PlayerState()
        var deltas: [Int] = [], still = 0
        try slidingLayers(10, frames: 90) { f, s in
            let bytes = encoder.encode(s, index: f, time: Double(f + 1) / 60, milliseconds: 1, key: f == 0)
            try? player.apply(bytes)
            let expected = try? keyItems(s)
            XCTAssertEqual(player.order, expected?.order, "frame \(f)")
            XCTAssertEqual(player.items, expected?.items, "frame \(f): the changes lead to the frame's items")
            if f > 0 { deltas.append(bytes.count) }
            if f > 62 { still = bytes.count }
        }
        // Ten layers move a little each frame: their x changes, nothing else.
        XCTAssertLessThan(deltas[10], 10 * 6 + 30, "ten items of x changes: \(deltas[10]) bytes")
        // Header (index 1 byte, time 8, frame time 4, kind 1) and two counts of 4 bytes, both 0.
        XCTAssertEqual(still, 1 + 8 + 4 + 1 + 4 + 4, "after the slide ends, a frame changes nothing")
    }

    /// Layers come and go, move between parents, change z order, and a replicator copies its
    /// sublayers; the changes applied frame after frame draw what a key frame of each draws.
    func test_deltasFollowATreeThatChanges() throws {
        var seed: UInt64 = 0x5eed
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        var layers: [CALayer] = []
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for k in 0..<40 {
            let l = k % 7 == 3 ? CAShapeLayer() : CALayer()
            l.bounds = CGRect(x: 0, y: 0, width: 8 + Double(k % 5), height: 8)
            l.position = CGPoint(x: Double(k * 9 % 390), y: Double(k * 13 % 390))
            l.backgroundColor = CGColor(red: 0.2, green: Double(k % 4) / 3, blue: 0.5, alpha: 1)
            if let s = l as? CAShapeLayer { s.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 8, height: 8), transform: nil) }
            if k % 6 == 0 { l.borderWidth = 1; l.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1) }
            if k % 9 == 0 { l.masksToBounds = true }
            (layers.isEmpty || k % 4 == 0 ? root : layers[next(layers.count)]).addSublayer(l)
            layers.append(l)
        }
        let replicator = CAReplicatorLayer()
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        let copied = CALayer()
        copied.bounds = CGRect(x: 0, y: 0, width: 6, height: 6)
        copied.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        replicator.addSublayer(copied)
        root.addSublayer(replicator)
        CATransaction.commit()
        let r = CARenderer(layer: root)
        let encoder = PlayerEncoder(), player = PlayerState()
        var orderChanges = 0
        for f in 0..<120 {
            CATransaction.begin()
            CATransaction.setDisableActions(f % 2 == 0)
            for _ in 0..<3 {
                let l = layers[next(layers.count)]
                switch next(9) {
                case 0: l.removeFromSuperlayer()
                case 1: if l.superlayer == nil { root.insertSublayer(l, at: UInt32(next((root.sublayers?.count ?? 0) + 1))) }
                case 2:
                    let p = layers[next(layers.count)]
                    var a: CALayer? = p
                    while let x = a, x !== l { a = x.superlayer }
                    if a == nil { p.addSublayer(l) }   // not l itself nor inside it
                case 3: l.zPosition = Double(next(3))
                case 4: l.opacity = Float(next(5)) / 4
                case 5: l.position = CGPoint(x: Double(next(400)), y: Double(next(400)))
                case 6: l.transform = CATransform3DMakeRotation(Double(next(8)) * .pi / 8, 0, 0, 1)
                case 7: replicator.instanceCount = 1 + next(4)
                default: l.cornerRadius = Double(next(4))
                }
            }
            CATransaction.commit()
            r.beginFrame(atTime: Double(f + 1) / 60)
            r.render()
            let s = r.snapshot()
            let before = player.order
            let bytes = encoder.encode(s, index: f, time: Double(f + 1) / 60, milliseconds: 1, key: f == 0)
            try player.apply(bytes)
            if player.order != before { orderChanges += 1 }
            let expected = try keyItems(s)
            XCTAssertEqual(player.order, expected.order, "frame \(f)")
            XCTAssertEqual(player.items, expected.items, "frame \(f)")
            XCTAssertEqual(Set(player.order).count, player.order.count, "frame \(f): each item once (replicas have ids of their own)")
            r.endFrame()
        }
        XCTAssertGreaterThan(orderChanges, 30, "the order changed often")
    }

    func test_aFrameThatDoesNotParseIsRefused() {
        let state = PlayerState()
        XCTAssertThrowsError(try state.apply([1, 2, 3]))
        var bytes = PlayerBytes()
        bytes.header(index: 0, time: 0, milliseconds: 0, key: false)
        bytes.u32(1); bytes.varint(5 << 2 | 0)   // keeps five items of an empty order
        bytes.u32(0)
        XCTAssertThrowsError(try state.apply(bytes.bytes)) { XCTAssertTrue("\($0)".contains("past the order"), "\($0)") }
    }

    /// Frames 0..<n, slow at `slow`, then the replay of the window the recorder asks for (the
    /// same frames again, as `SceneRun` replays a scene); each frame's key items kept to compare
    /// the window with.
    private func recordSliding(_ recorder: PlayerRecorder, layers: Int = 10, frames: Int, slow: [Int: Double],
                               replayShift: Double = 0) throws -> [Int: [PlayerItem]] {
        var truth: [Int: [PlayerItem]] = [:]
        try slidingLayers(layers, frames: frames) { f, s in
            let ms = slow[f] ?? 1.0 + Double(f % 7) / 10
            recorder.frameDone(index: f, time: Double(f + 1) / 60, milliseconds: ms) { s }
            truth[f] = try? keyItems(s).items
        }
        if let window = recorder.replayWindow {
            var going = true
            try slidingLayers(layers, frames: window.upperBound + 1, shift: replayShift) { f, s in
                if going && f >= window.lowerBound { going = recorder.replayed(index: f, time: Double(f + 1) / 60, snapshot: s) }
            }
        }
        return truth
    }

    /// Decodes the document's frames as the page does: a key frame from nothing, a delta from
    /// the frame before.
    private func decode(_ doc: PlayerDocument) throws -> [Int: [PlayerItem]] {
        let state = PlayerState()
        var out: [Int: [PlayerItem]] = [:]
        for (k, f) in doc.frames.enumerated() {
            if !f.isKey {
                XCTAssertGreaterThan(k, 0)
                XCTAssertEqual(doc.frames[k - 1].index, f.index - 1, "a delta frame follows the frame before it")
            }
            try state.apply(f.bytes)
            out[f.index] = state.items
        }
        return out
    }

    func test_theWindowHoldsTwoSecondsOfMotionAroundTheSlowestFrame() throws {
        let recorder = PlayerRecorder(scene: "sliding", description: "", expectedFrames: 600, sampleTarget: 20, windowFrames: 120)
        var asked = 0
        try slidingLayers(10, frames: 600) { f, s in
            recorder.frameDone(index: f, time: Double(f + 1) / 60, milliseconds: f == 40 ? 30 : (f == 400 ? 50 : 1)) { asked += 1; return s }
        }
        XCTAssertLessThan(asked, 60, "during the run only the overview's frames are asked for")
        XCTAssertEqual(recorder.replayWindow, 340...459, "60 frames before the slowest frame (400) and 60 from it")
        let truth = try recordSliding(PlayerRecorder(scene: "x", description: "", expectedFrames: 0), frames: 600, slow: [:])
        try slidingLayers(10, frames: 460) { f, s in
            if f >= 340 { XCTAssertTrue(recorder.replayed(index: f, time: Double(f + 1) / 60, snapshot: s) == (f < 459), "frame \(f)") }
        }
        XCTAssertNil(recorder.replayWindow, "replayed")
        let doc = recorder.document()
        XCTAssertEqual(doc.window, 340...459)
        let inWindow = doc.frames.filter { doc.window!.contains($0.index) }
        XCTAssertEqual(inWindow.map(\.index), Array(340...459), "every frame of the window, in a row")
        XCTAssertTrue(inWindow[0].isKey)
        XCTAssertTrue(inWindow.dropFirst().allSatisfy { !$0.isKey }, "then only changes")
        XCTAssertEqual(inWindow.first { $0.index == 400 }?.frameMilliseconds, 50, "with the run's frame times")
        XCTAssertTrue(doc.slowFrames.contains(400))
        let decoded = try decode(doc)
        for f in doc.frames { XCTAssertEqual(decoded[f.index], truth[f.index], "frame \(f.index) draws what the run showed") }
        XCTAssertGreaterThan(doc.frames.count, 120, "and the overview besides")
        XCTAssertEqual(doc.notes.count, 2, "\(doc.notes)")
        XCTAssertTrue(doc.notes[0].hasPrefix("Motion: frames 340–459 in a row (1.98 s at 60 frames a second) around the slowest frame, 400 (50.00 ms)"), "\(doc.notes)")
        XCTAssertLessThanOrEqual(doc.recordedBytes, 4_000_000)
    }

    func test_aFrameOfChangesCostsLessThanAKeyFrame() throws {
        let recorder = PlayerRecorder(scene: "sliding", description: "", expectedFrames: 200, windowFrames: 60)
        _ = try recordSliding(recorder, layers: 100, frames: 200, slow: [30: 20])
        let doc = recorder.document()
        let inWindow = doc.frames.filter { doc.window!.contains($0.index) }
        let keyBytes = inWindow[0].byteCount, deltaBytes = inWindow.dropFirst().map(\.byteCount).max()!
        XCTAssertLessThan(deltaBytes * 3, keyBytes, "a frame's changes (100 layers moving) cost under a third of a key frame (\(deltaBytes) vs \(keyBytes))")
    }

    func test_aReplayThatDrawsOtherwiseIsSaid() throws {
        let recorder = PlayerRecorder(scene: "sliding", description: "", expectedFrames: 200, windowFrames: 60)
        _ = try recordSliding(recorder, frames: 200, slow: [100: 20], replayShift: 3)
        let doc = recorder.document()
        XCTAssertEqual(doc.window, 70...129)
        XCTAssertTrue(doc.notes.contains { $0.hasPrefix("the replay drew the slowest frame, 100, unlike the run (10 of 11 items differ)") }, "\(doc.notes)")
    }

    func test_aWindowAtTheStartOfTheRunStartsWithItsFirstFrame() throws {
        let recorder = PlayerRecorder(scene: "sliding", description: "", expectedFrames: 300, windowFrames: 60)
        let truth = try recordSliding(recorder, frames: 300, slow: [5: 80])
        let doc = recorder.document()
        XCTAssertEqual(doc.window, 0...59, "all 60 frames, though only 5 come before the slowest")
        let decoded = try decode(doc)
        for i in 0..<60 { XCTAssertEqual(decoded[i], truth[i], "frame \(i)") }
    }

    func test_theWindowShrinksToItsShareOfTheBudgetAndSaysSo() throws {
        var snapshot: RenderSnapshot?
        try slidingLayers(100, frames: 1) { _, s in snapshot = s }
        let key = PlayerEncoder().encode(snapshot!, index: 0, time: 0, milliseconds: 0, key: true).count
        // Room in the window (5/8 of the budget) for a key frame and about 20 frames of changes of
        // 100 sliding layers (5 bytes each: gap, mask and the x and y moves), and the slowest frame
        // in the middle of the slide, which lasts 60 frames.
        let budget = (key + 20 * 100 * 5) * 8 / 5
        let recorder = PlayerRecorder(scene: "sliding", description: "", expectedFrames: 400, byteBudget: budget, windowFrames: 120)
        let truth = try recordSliding(recorder, layers: 100, frames: 400, slow: [30: 40])
        let doc = recorder.document()
        let window = try XCTUnwrap(doc.window)
        XCTAssertTrue(window.contains(30))
        XCTAssertGreaterThan(window.upperBound - 30, 3, "frames after the slowest too: \(window)")
        XCTAssertGreaterThan(30 - window.lowerBound, 3, "and before it: \(window)")
        XCTAssertLessThan(window.count, 120)
        XCTAssertGreaterThan(window.count, 5)
        XCTAssertLessThanOrEqual(doc.recordedBytes, budget, "within the budget")
        XCTAssertTrue(doc.notes.first?.contains("of the 120 frames asked for fit") ?? false, "\(doc.notes)")
        let decoded = try decode(doc)
        for i in window { XCTAssertEqual(decoded[i], truth[i], "frame \(i)") }
    }

    func test_theRecorderKeepsASampleAndTheSlowestWithinItsBudgetAndSaysSo() throws {
        let recorder = PlayerRecorder(scene: "sliding", description: "ten layers", expectedFrames: 600, byteBudget: 20 * 250,
                                      sampleTarget: 100, slowTarget: 3, windowFrames: 0)
        try slidingLayers(10, frames: 600) { f, s in
            let ms = [101, 333, 457].contains(f) ? 40.0 : 1.0 + Double(f % 7) / 10
            recorder.frameDone(index: f, time: Double(f + 1) / 60, milliseconds: ms) { s }
        }
        let doc = recorder.document()
        XCTAssertNil(doc.window)
        let bytes = doc.frames.reduce(0) { $0 + $1.byteCount }
        XCTAssertLessThanOrEqual(bytes, 20 * 250, "within the byte budget")
        XCTAssertGreaterThanOrEqual(doc.frames.count, 10)
        XCTAssertEqual(doc.slowFrames, [101, 333, 457], "the three slow frames are kept")
        XCTAssertTrue([101, 333, 457].allSatisfy { i in doc.frames.contains { $0.index == i } })
        XCTAssertTrue(doc.frames.allSatisfy(\.isKey))
        XCTAssertEqual(doc.frames.map(\.index), doc.frames.map(\.index).sorted(), "in order")
        XCTAssertEqual(doc.frameTimes.count, 600, "the timeline has every frame")
        XCTAssertGreaterThanOrEqual(recorder.heldBytes, 600 * 4 + bytes, "what the scene's memory readings take out: the times, the kept frames, the encoder")
        XCTAssertTrue(doc.notes.first?.hasPrefix("Overview: \(doc.frames.count) more of the 600 frames") ?? false, "\(doc.notes)")
        // The sample is spread over the run, not only its start.
        XCTAssertGreaterThan(doc.frames.filter { !doc.slowFrames.contains($0.index) }.map(\.index).max() ?? 0, 400)
    }

    func test_aMillionFramesAreDecimatedAndTheNoteSaysSo() throws {
        var snapshot: RenderSnapshot?
        try slidingLayers(3, frames: 1) { _, s in snapshot = s }
        let recorder = PlayerRecorder(scene: "long", description: "", expectedFrames: 1_000_000, windowFrames: 0)
        var asked = 0
        for f in 0..<1_000_000 {
            recorder.frameDone(index: f, time: Double(f) / 60, milliseconds: 1) { asked += 1; return snapshot! }
        }
        let doc = recorder.document()
        XCTAssertLessThanOrEqual(doc.frames.count, 120 + 12)
        XCTAssertLessThanOrEqual(asked, 2_000, "without a window, snapshots are asked for only for the frames kept")
        XCTAssertTrue(doc.notes.first?.contains("of the 1000000 frames, every 8334th frame") ?? false, "\(doc.notes)")
        XCTAssertLessThan(doc.html().utf8.count, 6_000_000, "the page stays a few MB with a million frame times")
    }

    func test_framesTheBudgetCannotKeepAreNotEncoded() throws {
        // Frames of 100 layers against a budget of about eight of them: the slowest frames get
        // room for two, so after two are kept only a slower frame is asked for.
        var snapshot: RenderSnapshot?
        try slidingLayers(100, frames: 1) { _, s in snapshot = s }
        let frameBytes = PlayerEncoder().encode(snapshot!, index: 0, time: 0, milliseconds: 1, key: true).count
        // (A few bytes more: a later frame's index takes up to two more bytes than frame 0's.)
        let recorder = PlayerRecorder(scene: "big frames", description: "", expectedFrames: 20_000, byteBudget: 8 * frameBytes + 16,
                                      sampleTarget: 100, slowTarget: 12, windowFrames: 0)
        var asked = 0
        for f in 0..<20_000 {
            let ms = f == 15_000 ? 50.0 : 1 + Double(f % 3) / 10
            recorder.frameDone(index: f, time: Double(f) / 60, milliseconds: ms) { asked += 1; return snapshot! }
        }
        let doc = recorder.document()
        XCTAssertLessThanOrEqual(doc.frames.reduce(0) { $0 + $1.byteCount }, 8 * frameBytes + 16)
        XCTAssertEqual(doc.slowFrames.count, 2)
        XCTAssertTrue(doc.slowFrames.contains(15_000), "the one slow frame is kept")
        XCTAssertLessThanOrEqual(asked, 30, "asked for the sample, the first slow candidates and the slower ones only")
    }

    func test_thePageIsSelfContained() {
        let recorder = PlayerRecorder(scene: "sliding <&>", description: "ten \"layers\"", expectedFrames: 30, windowFrames: 10)
        slidingLayers(10, frames: 30) { f, s in recorder.frameDone(index: f, time: Double(f + 1) / 60, milliseconds: 1) { s } }
        let html = recorder.document().html()
        XCTAssertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;") ||
                      html.contains("content=\"default-src 'none'"), "a policy forbidding fetches")
        XCTAssertTrue(html.contains("<title>sliding &lt;&amp;&gt; · Strata scene player</title>"), "the name escaped")
        XCTAssertFalse(html.contains("src=\"http") || html.contains("href=\"http"), "no external resource")
        XCTAssertEqual(html.components(separatedBy: "<script").count - 1, 3, "meta, data and one script")
        XCTAssertTrue(html.contains("name=\"strata-player-frames\" content=\"30\""))
    }

    /// The page shows what a screen would: a 390 x 30,000 pt feed inside a 390 x 844 container
    /// that masks to bounds is shown as the container, not as a strip 14 px wide; a root with
    /// bounds is shown as the root; `--viewport` (fixedViewport) wins over both.
    func test_theViewportIsWhatIsVisibleTheRootOrTheMaskedArea() {
        let root = CALayer()
        let screen = CALayer(), feed = CALayer()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        screen.frame = CGRect(x: 0, y: 0, width: 390, height: 844)
        screen.masksToBounds = true
        feed.frame = CGRect(x: 0, y: -2_000, width: 390, height: 30_000)
        feed.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
        root.addSublayer(screen)
        screen.addSublayer(feed)
        CATransaction.commit()
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        let snapshot = r.snapshot()
        XCTAssertEqual(Picture.contentBounds(snapshot).height, 30_000, accuracy: 0.5)
        let visible = Picture.visibleBounds(snapshot)
        XCTAssertEqual(visible.width, 390, accuracy: 0.5)
        XCTAssertEqual(visible.height, 844, accuracy: 0.5)
        XCTAssertEqual(visible.minY, 0, accuracy: 0.5)
        let recorder = PlayerRecorder(scene: "feed", description: "", expectedFrames: 1, windowFrames: 0)
        recorder.frameDone(index: 0, time: 1 / 60, milliseconds: 1) { snapshot }
        XCTAssertEqual(recorder.document().viewport.height, 844, accuracy: 0.5)
        let fixed = PlayerRecorder(scene: "feed", description: "", expectedFrames: 1, windowFrames: 0)
        fixed.fixedViewport = CGRect(x: 0, y: 0, width: 390, height: 200)
        fixed.frameDone(index: 0, time: 1 / 60, milliseconds: 1) { snapshot }
        XCTAssertEqual(fixed.document().viewport, CGRect(x: 0, y: 0, width: 390, height: 200))
        // A root with bounds (a window): the root.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 320, height: 480)
        root.position = CGPoint(x: 160, y: 240)
        CATransaction.commit()
        r.renderFrame(atTime: 1 / 60)
        let windowed = Picture.visibleBounds(r.snapshot())
        XCTAssertEqual(windowed.width, 320, accuracy: 0.5)
        XCTAssertEqual(windowed.height, 480, accuracy: 0.5)
    }

    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func test_thePlayerWorksInHeadlessChromium() throws {
        let script = repository.appendingPathComponent("scripts/lib/check-player").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: script), "\(script) missing or not executable")
        guard ProcessInfo.processInfo.environment["STRATA_BROWSER_TEST"] == "1" else { return }
        // 240 frames: the slide takes the first 60, the slowest is frame 30, so the window is
        // frames 0-119 (30 before it, the rest after) and the overview samples the rest.
        let recorder = PlayerRecorder(scene: "sliding", description: "ten layers sliding right", expectedFrames: 240, sampleTarget: 24)
        slidingLayers(10, frames: 240) { f, s in
            recorder.frameDone(index: f, time: Double(f + 1) / 60, milliseconds: f == 30 ? 20 : 1 + Double(f % 5)) { s }
        }
        XCTAssertEqual(recorder.replayWindow, 0...119)
        slidingLayers(10, frames: 120) { f, s in recorder.replayed(index: f, time: Double(f + 1) / 60, snapshot: s) }
        XCTAssertEqual(recorder.document().window, 0...119)
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
        XCTAssertTrue(output.contains("distinct pictures at the first, middle and last frames: 2"), output)
        XCTAssertTrue(output.contains("motion window: 120 frames in a row; 59 of 119 steps change the picture"), output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/player.png"))
    }
}
