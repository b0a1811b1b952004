import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// Core Graphics' arcs, rounded rectangles, path initialisers and the element walk.
final class PathConstructionTests: XCTestCase {
    private func elements(_ p: CGPath) -> [(CGPathElementType, [CGPoint])] {
        var out: [(CGPathElementType, [CGPoint])] = []
        p.applyWithBlock { e in
            let n: Int
            switch e.pointee.type {
            case .moveToPoint, .addLineToPoint: n = 1
            case .addQuadCurveToPoint: n = 2
            case .addCurveToPoint: n = 3
            case .closeSubpath: n = 0
            }
            out.append((e.pointee.type, (0..<n).map { e.pointee.points[$0] }))
        }
        return out
    }

    private func assertNear(_ p: CGPoint, _ x: Double, _ y: Double, _ m: String = "", file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(p.x, x, accuracy: 1e-9, m, file: file, line: line)
        XCTAssertEqual(p.y, y, accuracy: 1e-9, m, file: file, line: line)
    }

    func test_quarterArc_isOneCubicWithCoreGraphicsControlPoints() {
        let p = CGMutablePath()
        p.addArc(center: CGPoint(x: 10, y: 20), radius: 5, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let e = elements(p)
        XCTAssertEqual(e.map(\.0), [.moveToPoint, .addCurveToPoint])
        assertNear(e[0].1[0], 15, 20)
        let k = 4.0 / 3 * tan(Double.pi / 8) * 5
        assertNear(e[1].1[0], 15, 20 + k)
        assertNear(e[1].1[1], 10 + k, 25)
        assertNear(e[1].1[2], 10, 25)
    }

    func test_arcDirections_andWholeCircles() {
        let ccw = CGMutablePath()
        ccw.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: -.pi / 2, clockwise: false)
        XCTAssertEqual(elements(ccw).count, 1 + 3, "toward growing angles: three quarters of a turn")
        assertNear(ccw.currentPoint, 0, -1)
        let cw = CGMutablePath()
        cw.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: -.pi / 2, clockwise: true)
        XCTAssertEqual(elements(cw).count, 2, "toward shrinking angles: a quarter")
        assertNear(elements(cw)[1].1[2], 0, -1)
        let circle = CGMutablePath()
        circle.addArc(center: CGPoint(x: 5, y: 5), radius: 2, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        XCTAssertEqual(elements(circle).count, 5)
        assertNear(circle.currentPoint, 7, 5)
        XCTAssertEqual(circle.boundingBoxOfPath.width, 4, accuracy: 1e-3)
        let relative = CGMutablePath()
        relative.move(to: .zero)
        relative.addRelativeArc(center: CGPoint(x: 10, y: 0), radius: 3, startAngle: .pi, delta: -.pi)
        let r = elements(relative)
        XCTAssertEqual(r.map(\.0), [.moveToPoint, .addLineToPoint, .addCurveToPoint, .addCurveToPoint], "a line to the arc's start")
        assertNear(r[1].1[0], 7, 0)
        assertNear(relative.currentPoint, 13, 0)
        assertNear(r[2].1[2], 10, 3, "a negative delta turns toward shrinking angles: pi -> pi/2")
    }

    func test_tangentArc_roundsACorner() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 2)
        let e = elements(p)
        XCTAssertEqual(e.map(\.0), [.moveToPoint, .addLineToPoint, .addCurveToPoint])
        assertNear(e[1].1[0], 8, 0)
        assertNear(e[2].1[2], 10, 2)
        let straight = CGMutablePath()
        straight.move(to: .zero)
        straight.addArc(tangent1End: CGPoint(x: 5, y: 0), tangent2End: CGPoint(x: 9, y: 0), radius: 2)
        XCTAssertEqual(elements(straight).map(\.0), [.moveToPoint, .addLineToPoint], "collinear: a line")
    }

    func test_roundedRect_andInitialisers() {
        let r = CGRect(x: 0, y: 0, width: 40, height: 20)
        let p = CGPath(roundedRect: r, cornerWidth: 5, cornerHeight: 4, transform: nil)
        let e = elements(p)
        XCTAssertEqual(e.map(\.0), [.moveToPoint, .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint,
                                    .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint, .closeSubpath])
        assertNear(e[0].1[0], 5, 0)
        assertNear(e[2].1[2], 40, 4)
        XCTAssertEqual(p.boundingBoxOfPath, r)
        let plain = CGPath(roundedRect: r, cornerWidth: 0, cornerHeight: 0, transform: nil)
        XCTAssertEqual(plain, CGPath(rect: r, transform: nil), "no corners: a rectangle")
        var shift = CGAffineTransform(translationX: 10, y: 0)
        let moved = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: &shift)
        XCTAssertEqual(moved.boundingBox.minX, 10, accuracy: 1e-9)
        let m = CGMutablePath()
        m.addRoundedRect(in: r, cornerWidth: 100, cornerHeight: 100)
        XCTAssertEqual(m.boundingBoxOfPath.width, 40, accuracy: 1e-9, "corners clamped to half the sides")
    }

    func test_applyWithBlock_walksEveryElementKind() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 2))
        p.addLine(to: CGPoint(x: 3, y: 4))
        p.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: 7, y: 8))
        p.addCurve(to: CGPoint(x: 9, y: 10), control1: CGPoint(x: 11, y: 12), control2: CGPoint(x: 13, y: 14))
        p.closeSubpath()
        let e = elements(p)
        XCTAssertEqual(e.map(\.0), [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        XCTAssertEqual(e[2].1, [CGPoint(x: 7, y: 8), CGPoint(x: 5, y: 6)], "the control point first")
        XCTAssertEqual(e[3].1, [CGPoint(x: 11, y: 12), CGPoint(x: 13, y: 14), CGPoint(x: 9, y: 10)])
    }

    func test_arcsAnimateAsPaths_onAShapeLayer() throws {
        let a = CGMutablePath(), b = CGMutablePath()
        a.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
        b.addArc(center: CGPoint(x: 50, y: 50), radius: 30, startAngle: 0, endAngle: .pi, clockwise: false)
        let scene = Scene(CAShapeLayer()) { $0.path = a }
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        scene.layer.path = b
        CATransaction.commit()
        scene.frame(at: 0.5)
        let shown = try XCTUnwrap(try scene.presented().path)
        assertNear(shown.currentPoint, 30, 50, "the same structure morphs point by point: radius 20 half-way")
    }
}
