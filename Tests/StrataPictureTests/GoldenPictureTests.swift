import Foundation
import StrataPicture
import StrataScript
import StrataScriptFast
import StrataScriptReference
import XCTest

/// Golden pictures of the seed examples (Tests/Fixtures/pictures/): each example is a script
/// run on both engines; the snapshot each takes at the end is drawn, compared with the golden
/// file, and with the other engine's picture. `STRATA_UPDATE_GOLDENS=1` writes the goldens
/// from the fast engine (look at them before committing).
final class GoldenPictureTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/pictures").standardizedFileURL

    /// Channel difference (0...255) a pixel may show (antialiased edges of single- and
    /// double-precision geometry), and the share of pixels that may exceed it.
    static let tolerance = 8
    static let allowedFraction = 0.002

    static let viewport = CGRect(x: 0, y: 0, width: 300, height: 300)
    static let red: ScriptValue = .color([0.9, 0.1, 0.1, 1])
    static let blue: ScriptValue = .color([0.1, 0.2, 0.9, 1])
    static let green: ScriptValue = .color([0.1, 0.7, 0.2, 1])

    /// A layer (id 0) under the script's root with `bounds`, `position` and `color`, set
    /// without animation, and the first frame.
    static func setUp(_ bounds: ScriptValue, _ position: ScriptValue, _ color: ScriptValue) -> [Op] {
        [.makeLayer(id: 0, shape: false), .addSublayer(parent: -1, child: 0),
         .begin, .setDisableActions(true),
         .set(layer: 0, keyPath: "bounds", value: bounds), .set(layer: 0, keyPath: "position", value: position),
         .set(layer: 0, keyPath: "backgroundColor", value: color),
         .commit, .frame(time: 0)]
    }

    /// Seed 001/004: the colour change inside begin / setAnimationDuration(1.0) / commit,
    /// half-way through its second.
    static let colourFade = Script(setUp(.rect(0, 0, 200, 120), .point(150, 150), red) + [
        .begin, .setAnimationDuration(1), .set(layer: 0, keyPath: "backgroundColor", value: blue), .commit,
        .frame(time: 0.25), .frame(time: 0.5),
    ])

    /// Seed 003: a one-second colour change whose completion block turns the layer 90
    /// degrees; shown once the turn (an implicit animation of 0.25 s) has ended.
    static let rotationAfterCompletion = Script(setUp(.rect(0, 0, 220, 70), .point(150, 150), red) + [
        .begin, .setAnimationDuration(1),
        .setCompletion(tag: 1, ops: [.set(layer: 0, keyPath: "transform",
                                          value: .transform([0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))]),
        .set(layer: 0, keyPath: "backgroundColor", value: blue), .commit,
        .frame(time: 0.5), .frame(time: 1.0), .frame(time: 1.1), .frame(time: 1.25), .frame(time: 1.5),
    ])

    /// Seed 004: a host view's backing layer (its delegate answers NSNull outside an
    /// animation block) changes colour at once, with no animation.
    static let hostViewInstantChange = Script(setUp(.rect(0, 0, 200, 120), .point(150, 150), red) + [
        .setDelegate(layer: 0, actions: ["backgroundColor": .null]),
        .set(layer: 0, keyPath: "backgroundColor", value: green),
        .frame(time: 1.0 / 60),
    ])

    private func check(_ name: String, _ script: Script, sample: (PixelImage) -> Void) throws {
        let options = PictureOptions(viewport: Self.viewport)
        let (fastSnapshot, _) = StrataScriptFast.ScriptRunner.snapshot(after: script)
        let (referenceSnapshot, _) = StrataScriptReference.ScriptRunner.snapshot(after: script)
        let (fast, notes) = try Picture.image(fastSnapshot, options: options)
        let (reference, _) = try Picture.image(referenceSnapshot, options: options)
        XCTAssertEqual(notes.caveats, [], name)
        let golden = Self.fixtures.appendingPathComponent("\(name).png").path
        if ProcessInfo.processInfo.environment["STRATA_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
            try fast.writePNG(to: golden)
        }
        let expected = try PixelImage(contentsOfPNG: golden)
        for (engine, image) in [("fast", fast), ("reference", reference)] {
            let d = image.difference(from: expected, tolerance: Self.tolerance)
            XCTAssertLessThanOrEqual(d.fraction, Self.allowedFraction, "\(name), \(engine) engine vs golden: \(d)")
        }
        let between = fast.difference(from: reference, tolerance: Self.tolerance)
        XCTAssertLessThanOrEqual(between.fraction, Self.allowedFraction, "\(name): the engines' pictures differ: \(between)")
        sample(fast)
    }

    /// Channels (a, r, g, b) of a pixel, at least 40 away from antialiased edges.
    private func assertColour(_ image: PixelImage, _ x: Int, _ y: Int, _ rgb: SIMD3<Double>, _ what: String,
                              file: StaticString = #filePath, line: UInt = #line) {
        let c = image.channels(x: x, y: y)
        let got = SIMD3(Double(c[1]), Double(c[2]), Double(c[3])) / 255
        XCTAssertEqual(c[0], 255, "\(what): alpha", file: file, line: line)
        let d = got - rgb
        XCTAssertLessThan(max(abs(d.x), abs(d.y), abs(d.z)), 0.02, "\(what): \(got) expected \(rgb)", file: file, line: line)
    }

    func test_seedColourFadeHalfWay() throws {
        try check("seed-colour-fade-half-way", Self.colourFade) { image in
            // The default timing function is nil for a transaction's implicit animations: the
            // built-in curve (0.25, 0.1, 0.25, 1) at half time is 0.8024 of the way.
            let p = 0.80240017
            let mid = SIMD3(0.9, 0.1, 0.1) + (SIMD3(0.1, 0.2, 0.9) - SIMD3(0.9, 0.1, 0.1)) * p
            assertColour(image, 150, 150, mid, "the layer's centre")
            assertColour(image, 20, 20, SIMD3(1, 1, 1), "outside the layer")
        }
    }

    func test_seedRotationAfterTheCompletionBlock() throws {
        try check("seed-rotation-after-completion", Self.rotationAfterCompletion) { image in
            // 220 x 70 turned upright: blue above and below the centre, white beside it.
            assertColour(image, 150, 60, SIMD3(0.1, 0.2, 0.9), "above the centre, inside the turned bar")
            assertColour(image, 150, 240, SIMD3(0.1, 0.2, 0.9), "below the centre")
            assertColour(image, 60, 150, SIMD3(1, 1, 1), "left of the centre: no longer covered")
        }
    }

    func test_seedHostViewChangesAtOnce() throws {
        try check("seed-host-view-instant-change", Self.hostViewInstantChange) { image in
            assertColour(image, 150, 150, SIMD3(0.1, 0.7, 0.2), "the new colour one frame later")
        }
    }
}
