import Foundation
import Strata
import StrataPicture
import XCTest

/// What pictures draw: rounded corners, borders above sublayers, clipping by masking
/// ancestors, shadows, shape fills and trimmed strokes, world opacity, perspective caveats,
/// SVG output, and refusal of snapshots too large to draw.
final class PictureTests: XCTestCase {
    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> CGColor { CGColor(red: r, green: g, blue: b, alpha: a) }

    /// A root (300 x 300 at the origin) with `build` adding layers, rendered once.
    private func snapshot(_ build: (CALayer) -> Void) -> RenderSnapshot {
        let root = CALayer()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        root.bounds = CGRect(x: 0, y: 0, width: 300, height: 300)
        root.position = CGPoint(x: 150, y: 150)
        build(root)
        CATransaction.commit()
        let r = CARenderer(layer: root)
        r.renderFrame(atTime: 0)
        return r.snapshot()
    }

    private func layer(_ frame: CGRect, _ c: CGColor?) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.backgroundColor = c
        return l
    }

    private func rgb(_ image: PixelImage, _ x: Int, _ y: Int) -> SIMD3<Int> {
        let c = image.channels(x: x, y: y)
        return SIMD3(c[1], c[2], c[3])
    }

    private func assertNear(_ got: SIMD3<Int>, _ expected: SIMD3<Int>, _ what: String, tolerance: Int = 6,
                            file: StaticString = #filePath, line: UInt = #line) {
        let d = got &- expected
        XCTAssertLessThanOrEqual(max(abs(d.x), abs(d.y), abs(d.z)), tolerance, "\(what): \(got) expected \(expected)", file: file, line: line)
    }

    let white = SIMD3(255, 255, 255)

    func test_roundedCornersBordersAboveSublayersAndClipping() throws {
        let s = snapshot { root in
            let card = layer(CGRect(x: 50, y: 50, width: 200, height: 200), color(0, 0, 1))
            card.cornerRadius = 40
            card.borderWidth = 10
            card.borderColor = color(0, 0, 0)
            card.masksToBounds = true
            // A sublayer hanging out to the right: clipped by the card, under its border.
            card.addSublayer(layer(CGRect(x: 100, y: 80, width: 200, height: 40), color(1, 0, 0)))
            root.addSublayer(card)
        }
        let (image, notes) = try Picture.image(s, options: PictureOptions(viewport: CGRect(x: 0, y: 0, width: 300, height: 300)))
        XCTAssertEqual(notes.items, 3)
        XCTAssertEqual(image.width, 300)
        assertNear(rgb(image, 150, 200), SIMD3(0, 0, 255), "inside the card")
        assertNear(rgb(image, 53, 53), white, "the rounded corner is cut off")
        assertNear(rgb(image, 55, 150), SIMD3(0, 0, 0), "the border, inside the bounds")
        assertNear(rgb(image, 200, 150), SIMD3(255, 0, 0), "the sublayer inside the card")
        assertNear(rgb(image, 245, 150), SIMD3(0, 0, 0), "the border is drawn above the sublayer")
        assertNear(rgb(image, 280, 150), white, "the sublayer is clipped at the card's bounds")
    }

    func test_opacityMultipliesAndShadowsOffsetInTheLayersSpace() throws {
        let s = snapshot { root in
            let faded = layer(CGRect(x: 20, y: 20, width: 100, height: 100), nil)
            faded.opacity = 0.5
            faded.addSublayer(layer(CGRect(x: 0, y: 0, width: 100, height: 100), color(0, 0, 0)))
            root.addSublayer(faded)
            let shadowed = layer(CGRect(x: 150, y: 150, width: 100, height: 100), color(0, 1, 0))
            shadowed.shadowOpacity = 1
            shadowed.shadowRadius = 0
            shadowed.shadowOffset = CGSize(width: 20, height: 20)
            shadowed.shadowColor = color(1, 0, 1)
            root.addSublayer(shadowed)
        }
        let (image, _) = try Picture.image(s, options: PictureOptions(viewport: CGRect(x: 0, y: 0, width: 300, height: 300)))
        assertNear(rgb(image, 70, 70), SIMD3(128, 128, 128), "black at half the parent's opacity over white", tolerance: 3)
        assertNear(rgb(image, 200, 200), SIMD3(0, 255, 0), "the layer over its shadow")
        assertNear(rgb(image, 260, 260), SIMD3(255, 0, 255), "the shadow, offset by (20, 20)")
        assertNear(rgb(image, 160, 140), white, "nothing above the layer: the shadow went down and right")
    }

    func test_shapesFillAndStrokeBetweenStrokeStartAndStrokeEnd() throws {
        let s = snapshot { root in
            let shape = CAShapeLayer()
            shape.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
            let p = CGMutablePath()
            p.move(to: CGPoint(x: 20, y: 150))
            p.addLine(to: CGPoint(x: 280, y: 150))
            shape.path = p
            shape.fillColor = nil
            shape.strokeColor = color(1, 0, 0)
            shape.lineWidth = 10
            shape.strokeStart = 0.25
            shape.strokeEnd = 0.75
            root.addSublayer(shape)
            let triangle = CAShapeLayer()
            triangle.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
            let t = CGMutablePath()
            t.move(to: CGPoint(x: 100, y: 200))
            t.addQuadCurve(to: CGPoint(x: 200, y: 200), control: CGPoint(x: 150, y: 300))
            t.closeSubpath()
            triangle.path = t
            triangle.fillColor = color(0, 0, 1)
            root.addSublayer(triangle)
        }
        let (image, _) = try Picture.image(s, options: PictureOptions(viewport: CGRect(x: 0, y: 0, width: 300, height: 300)))
        assertNear(rgb(image, 150, 150), SIMD3(255, 0, 0), "the middle of the line is stroked")
        assertNear(rgb(image, 40, 150), white, "before strokeStart (a quarter of 260 from 20 is 85)")
        assertNear(rgb(image, 260, 150), white, "after strokeEnd (215)")
        assertNear(rgb(image, 100, 150), SIMD3(255, 0, 0), "just after strokeStart")
        assertNear(rgb(image, 150, 230), SIMD3(0, 0, 255), "inside the curved fill")
        assertNear(rgb(image, 110, 260), white, "outside the curve")
    }

    func test_perspectiveIsDrawnByProjectedCornersAndSaidSo() throws {
        let s = snapshot { root in
            let card = layer(CGRect(x: 100, y: 100, width: 100, height: 100), color(0, 0, 0))
            var m = CATransform3DIdentity
            m.m34 = -1.0 / 300
            card.transform = CATransform3DRotate(m, .pi / 4, 0, 1, 0)
            root.addSublayer(card)
        }
        let (image, notes) = try Picture.image(s, options: PictureOptions(viewport: CGRect(x: 0, y: 0, width: 300, height: 300)))
        XCTAssertEqual(notes.perspectiveItems, 1)
        XCTAssertTrue(notes.caveats.first?.contains("perspective") ?? false, "\(notes.caveats)")
        // The card's projected corners: its centre is drawn, its far edge moved in.
        let i = 1
        let corner = s.transforms[i].apply(to: CGPoint(x: 100, y: 0))
        assertNear(rgb(image, 150, 150), SIMD3(0, 0, 0), "the centre of the turned card")
        XCTAssertLessThan(corner.x, 200, "the far edge comes nearer the centre")
        assertNear(rgb(image, Int(corner.x) + 4, 150), white, "beyond the projected far edge")
    }

    func test_svgIsWrittenWithTheSameItems() throws {
        let s = snapshot { root in root.addSublayer(layer(CGRect(x: 10, y: 10, width: 50, height: 50), color(1, 0, 0))) }
        let path = NSTemporaryDirectory() + "strata-picture-\(getpid()).svg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let notes = try Picture.writeSVG(s, to: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("<?xml") && text.contains("<svg"), String(text.prefix(100)))
        XCTAssertTrue(text.contains("rgb(100%, 0%, 0%)") || text.contains("rgb(100%,0%,0%)"), "the red fill is in the SVG")
        XCTAssertEqual(notes.items, 2)
        XCTAssertEqual(notes.viewport, CGRect(x: -8, y: -8, width: 316, height: 316), "the items' bounds (the root's 300 x 300) with an 8-point margin")
    }

    func test_tooLargeSnapshotsAreRefused() throws {
        let s = snapshot { root in for k in 0..<20 { root.addSublayer(layer(CGRect(x: k, y: k, width: 5, height: 5), color(0, 0, 0))) } }
        var options = PictureOptions()
        options.maxItems = 10
        XCTAssertThrowsError(try Picture.image(s, options: options)) { error in
            XCTAssertEqual(error as? PictureError, .tooManyItems(21, limit: 10))
            XCTAssertTrue("\(error)".contains("at most 10"))
        }
    }

    func test_pngsRoundTripAndDifferencesAreCounted() throws {
        let s = snapshot { root in root.addSublayer(layer(CGRect(x: 10, y: 10, width: 50, height: 50), color(1, 0, 0))) }
        let (image, _) = try Picture.image(s)
        let path = NSTemporaryDirectory() + "strata-picture-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try image.writePNG(to: path)
        let back = try PixelImage(contentsOfPNG: path)
        XCTAssertEqual(back, image)
        var pixels = image.pixels
        pixels[0] = 0xff00_0000
        let changed = PixelImage(width: image.width, height: image.height, pixels: pixels)
        let d = changed.difference(from: image, tolerance: 8)
        XCTAssertEqual(d.pixels, 1)
        XCTAssertEqual(d.largestChannelDelta, 255)
        XCTAssertThrowsError(try PixelImage(contentsOfPNG: "/nonexistent/x.png"))
    }
}

extension PictureTests {
    /// Writes the features picture for a look (`STRATA_PICTURE_OUT=DIR`).
    func test_featuresPicture() throws {
        let s = snapshot { root in
            let card = layer(CGRect(x: 30, y: 30, width: 240, height: 160), color(0.95, 0.95, 1))
            card.cornerRadius = 24
            card.borderWidth = 4
            card.borderColor = color(0.2, 0.2, 0.5)
            card.masksToBounds = true
            card.shadowOpacity = 0.4
            card.shadowOffset = CGSize(width: 6, height: 8)
            card.shadowRadius = 6
            let ring = CAShapeLayer()
            ring.frame = CGRect(x: 20, y: 20, width: 120, height: 120)
            let p = CGMutablePath()
            p.addEllipse(in: CGRect(x: 10, y: 10, width: 100, height: 100))
            ring.path = p
            ring.fillColor = nil
            ring.strokeColor = color(0.1, 0.6, 0.3)
            ring.lineWidth = 12
            ring.strokeEnd = 0.7
            card.addSublayer(ring)
            let bar = layer(CGRect(x: 160, y: 40, width: 120, height: 30), color(1, 0.5, 0))
            bar.transform = CATransform3DMakeRotation(.pi / 12, 0, 0, 1)
            card.addSublayer(bar)
            root.addSublayer(card)
        }
        let (image, notes) = try Picture.image(s, options: PictureOptions(viewport: CGRect(x: 0, y: 0, width: 300, height: 230)))
        XCTAssertEqual(notes.items, 4)
        if let dir = ProcessInfo.processInfo.environment["STRATA_PICTURE_OUT"] {
            try image.writePNG(to: dir + "/features.png")
        }
        // The ring's stroke at its start (3 o'clock) and its gap before the end (12 o'clock
        // comes at 75%, past strokeEnd 0.7): the card's fill shows there.
        assertNear(rgb(image, 30 + 20 + 110 - 1, 30 + 20 + 60), SIMD3(26, 153, 77), "the ring at its start", tolerance: 20)
        assertNear(rgb(image, 30 + 20 + 60, 30 + 20 + 10), SIMD3(242, 242, 255), "the ring's gap at the top", tolerance: 8)
    }
}
