import Foundation
import XCTest
@testable import Strata

/// Pins the value types' Apple semantics with values computed by hand.
final class ValueTypeTests: XCTestCase {
    private let accuracy: CGFloat = 1e-12

    private func assertEqual(_ a: CATransform3D, _ b: CATransform3D, accuracy: CGFloat = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        var x = [Double](repeating: 0, count: 16), y = x
        a.store(to: &x); b.store(to: &y)
        for i in 0..<16 {
            XCTAssertEqual(x[i], y[i], accuracy: Double(accuracy), "entry \(i)", file: file, line: line)
        }
    }

    private func assertEqual(_ a: CGPoint, _ b: CGPoint, accuracy: CGFloat = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.x, b.x, accuracy: accuracy, "x", file: file, line: line)
        XCTAssertEqual(a.y, b.y, accuracy: accuracy, "y", file: file, line: line)
    }

    private func assertEqual(_ a: CGRect, _ b: CGRect, accuracy: CGFloat = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.minX, b.minX, accuracy: accuracy, "minX", file: file, line: line)
        XCTAssertEqual(a.minY, b.minY, accuracy: accuracy, "minY", file: file, line: line)
        XCTAssertEqual(a.width, b.width, accuracy: accuracy, "width", file: file, line: line)
        XCTAssertEqual(a.height, b.height, accuracy: accuracy, "height", file: file, line: line)
    }

    /// Maps a point (z = 0, w = 1) through a 3D transform as a row vector, with the w divide.
    private func apply(_ t: CATransform3D, _ p: (Double, Double, Double)) -> (Double, Double, Double) {
        let x = p.0 * Double(t.m11) + p.1 * Double(t.m21) + p.2 * Double(t.m31) + Double(t.m41)
        let y = p.0 * Double(t.m12) + p.1 * Double(t.m22) + p.2 * Double(t.m32) + Double(t.m42)
        let z = p.0 * Double(t.m13) + p.1 * Double(t.m23) + p.2 * Double(t.m33) + Double(t.m43)
        let w = p.0 * Double(t.m14) + p.1 * Double(t.m24) + p.2 * Double(t.m34) + Double(t.m44)
        return (x / w, y / w, z / w)
    }

    // MARK: CATransform3D

    func test_defaultInit_isAllZeros_identityIsDiagonalOnes() {
        let zero = CATransform3D()
        XCTAssertEqual(zero.m11, 0); XCTAssertEqual(zero.m44, 0)
        XCTAssertFalse(CATransform3DIsIdentity(zero))
        let i = CATransform3DIdentity
        XCTAssertEqual([i.m11, i.m22, i.m33, i.m44], [1, 1, 1, 1])
        XCTAssertEqual([i.m12, i.m21, i.m41, i.m34], [0, 0, 0, 0])
        XCTAssertTrue(CATransform3DIsIdentity(i))
    }

    func test_rotationAboutZ_matchesCosSin() {
        let angle = 0.3
        let r = CATransform3DMakeRotation(CGFloat(angle), 0, 0, 1)
        XCTAssertEqual(r.m11, CGFloat(cos(angle)), accuracy: accuracy)
        XCTAssertEqual(r.m12, CGFloat(sin(angle)), accuracy: accuracy)
        XCTAssertEqual(r.m21, CGFloat(-sin(angle)), accuracy: accuracy)
        XCTAssertEqual(r.m22, CGFloat(cos(angle)), accuracy: accuracy)
        XCTAssertEqual(r.m33, 1, accuracy: accuracy)
        XCTAssertEqual(r.m44, 1)
        XCTAssertEqual(r.m13, 0, accuracy: accuracy)
        XCTAssertEqual(r.m31, 0, accuracy: accuracy)
    }

    func test_rotationByHalfPiAboutZ_mapsXAxisToYAxis() {
        let r = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let p = apply(r, (1, 0, 0))
        XCTAssertEqual(p.0, 0, accuracy: 1e-12)
        XCTAssertEqual(p.1, 1, accuracy: 1e-12)
        XCTAssertEqual(p.2, 0, accuracy: 1e-12)
    }

    func test_rotationAxis_isNormalised() {
        assertEqual(CATransform3DMakeRotation(0.7, 0, 0, 5), CATransform3DMakeRotation(0.7, 0, 0, 1))
        assertEqual(CATransform3DMakeRotation(0.7, 2, 2, 0), CATransform3DMakeRotation(0.7, 1, 1, 0))
    }

    func test_rotationAboutZeroAxis_isIdentity() {
        XCTAssertTrue(CATransform3DIsIdentity(CATransform3DMakeRotation(1.0, 0, 0, 0)))
        let t = CATransform3DMakeTranslation(3, 4, 5)
        XCTAssertEqual(CATransform3DRotate(t, 1.0, 0, 0, 0), t)
    }

    func test_rotationAboutX_and_Y_followRightHandRule() {
        // About x by pi/2: y -> z.  About y by pi/2: z -> x.
        let rx = CATransform3DMakeRotation(.pi / 2, 1, 0, 0)
        let py = apply(rx, (0, 1, 0))
        XCTAssertEqual(py.0, 0, accuracy: 1e-12); XCTAssertEqual(py.1, 0, accuracy: 1e-12)
        XCTAssertEqual(py.2, 1, accuracy: 1e-12)
        let ry = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        let pz = apply(ry, (0, 0, 1))
        XCTAssertEqual(pz.0, 1, accuracy: 1e-12); XCTAssertEqual(pz.1, 0, accuracy: 1e-12)
        XCTAssertEqual(pz.2, 0, accuracy: 1e-12)
    }

    func test_rotationAboutArbitraryAxis_matchesRodrigues() {
        // Axis (1,1,1)/sqrt3 by 2pi/3 cycles the axes: x -> y -> z -> x.
        let r = CATransform3DMakeRotation(2 * .pi / 3, 1, 1, 1)
        let p = apply(r, (1, 0, 0))
        XCTAssertEqual(p.0, 0, accuracy: 1e-12)
        XCTAssertEqual(p.1, 1, accuracy: 1e-12)
        XCTAssertEqual(p.2, 0, accuracy: 1e-12)
    }

    func test_makeTranslation_putsOffsetInFourthRow() {
        let t = CATransform3DMakeTranslation(3, 4, 5)
        XCTAssertEqual([t.m41, t.m42, t.m43, t.m44], [3, 4, 5, 1])
        XCTAssertEqual([t.m11, t.m22, t.m33], [1, 1, 1])
        XCTAssertEqual([t.m14, t.m24, t.m34], [0, 0, 0])
    }

    func test_makeScale_putsFactorsOnDiagonal() {
        let s = CATransform3DMakeScale(2, 3, 4)
        XCTAssertEqual([s.m11, s.m22, s.m33, s.m44], [2, 3, 4, 1])
        XCTAssertEqual(s.m41, 0)
    }

    func test_concat_appliesFirstArgumentFirst() {
        // Scale by 2 then translate by (10, 0): (1, 0) -> (2, 0) -> (12, 0).
        let s = CATransform3DMakeScale(2, 2, 1)
        let t = CATransform3DMakeTranslation(10, 0, 0)
        let st = apply(CATransform3DConcat(s, t), (1, 0, 0))
        XCTAssertEqual(st.0, 12, accuracy: 1e-12)
        // Translate then scale: (1, 0) -> (11, 0) -> (22, 0).
        let ts = apply(CATransform3DConcat(t, s), (1, 0, 0))
        XCTAssertEqual(ts.0, 22, accuracy: 1e-12)
        XCTAssertEqual(CATransform3DConcat(s, t).m41, 10)
        XCTAssertEqual(CATransform3DConcat(t, s).m41, 20)
    }

    func test_concat_withIdentity_isUnchanged() {
        let r = CATransform3DMakeRotation(0.4, 1, 2, 3)
        XCTAssertEqual(CATransform3DConcat(r, CATransform3DIdentity), r)
        XCTAssertEqual(CATransform3DConcat(CATransform3DIdentity, r), r)
    }

    func test_translateScaleRotate_prependToExistingTransform() {
        let base = CATransform3DMakeRotation(0.5, 0, 0, 1)
        assertEqual(CATransform3DTranslate(base, 1, 2, 3),
                    CATransform3DConcat(CATransform3DMakeTranslation(1, 2, 3), base))
        assertEqual(CATransform3DScale(base, 2, 3, 4),
                    CATransform3DConcat(CATransform3DMakeScale(2, 3, 4), base))
        assertEqual(CATransform3DRotate(base, 0.25, 1, 0, 0),
                    CATransform3DConcat(CATransform3DMakeRotation(0.25, 1, 0, 0), base))
        // Translating a scale: the translation is scaled too.
        let scaled = CATransform3DTranslate(CATransform3DMakeScale(2, 2, 2), 5, 0, 0)
        XCTAssertEqual(scaled.m41, 10)
    }

    func test_invert_roundTripsToIdentity() {
        var t = CATransform3DMakeRotation(0.8, 1, -2, 0.5)
        t = CATransform3DScale(t, 2, 0.5, 3)
        t = CATransform3DTranslate(t, 10, -20, 7)
        t.m34 = -1.0 / 500
        let inverse = CATransform3DInvert(t)
        assertEqual(CATransform3DConcat(t, inverse), CATransform3DIdentity, accuracy: 1e-12)
        assertEqual(CATransform3DConcat(inverse, t), CATransform3DIdentity, accuracy: 1e-12)
    }

    func test_invert_ofTranslationAndScale_isHandComputed() {
        let inverse = CATransform3DInvert(CATransform3DMakeTranslation(3, -4, 5))
        XCTAssertEqual([inverse.m41, inverse.m42, inverse.m43], [-3, 4, -5])
        let s = CATransform3DInvert(CATransform3DMakeScale(2, 4, 8))
        XCTAssertEqual([s.m11, s.m22, s.m33], [0.5, 0.25, 0.125])
    }

    func test_invert_ofSingularMatrix_returnsItUnchanged() {
        let singular = CATransform3DMakeScale(1, 0, 1)
        XCTAssertEqual(CATransform3DInvert(singular), singular)
        XCTAssertEqual(CATransform3DInvert(CATransform3D()), CATransform3D())
    }

    func test_lanes_roundTripInRowMajorOrder() {
        var t = CATransform3D()
        t.m11 = 1; t.m12 = 2; t.m14 = 4; t.m21 = 5; t.m34 = 12; t.m41 = 13; t.m44 = 16
        var lanes = [Double](repeating: -1, count: 16)
        t.store(to: &lanes)
        XCTAssertEqual(lanes, [1, 2, 0, 4, 5, 0, 0, 0, 0, 0, 0, 12, 13, 0, 0, 16])
        let back = lanes.withUnsafeBufferPointer { CATransform3D(lanes: $0.baseAddress!) }
        XCTAssertEqual(back, t)
    }

    func test_isAffine_detectsZAndPerspective() {
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DIdentity))
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeRotation(0.3, 0, 0, 1)))
        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeRotation(0.3, 1, 0, 0)))
        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeTranslation(0, 0, 1)))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        XCTAssertFalse(CATransform3DIsAffine(perspective))
        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeScale(1, 1, 2)))
    }

    /// A render transform's perspective terms left by rounding (1e-18) are no perspective;
    /// a real one (the smallest `m34` that moves a point by a pixel on a phone) is.
    func test_renderTransformIsAffineUpToRoundingOfItsPerspectiveTerms() {
        var t = CATransform3DMakeRotation(0.3, 0, 0, 1)
        t.m24 = -1.7e-18
        t.m14 = 4e-34
        XCTAssertTrue(RenderTransform(t).isAffine)
        t.m24 = 1e-6
        XCTAssertFalse(RenderTransform(t).isAffine)
        t.m24 = 0
        t.m44 = 2
        XCTAssertFalse(RenderTransform(t).isAffine)
    }

    func test_affineTo3DAndBack_roundTrips() {
        let affine = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = CATransform3DMakeAffineTransform(affine)
        XCTAssertEqual([t.m11, t.m12, t.m21, t.m22, t.m41, t.m42], [1, 2, 3, 4, 5, 6])
        XCTAssertEqual([t.m33, t.m44], [1, 1])
        XCTAssertEqual([t.m13, t.m31, t.m34, t.m43], [0, 0, 0, 0])
        XCTAssertTrue(CATransform3DIsAffine(t))
        XCTAssertEqual(CATransform3DGetAffineTransform(t), affine)
    }

    func test_affineRotation_equals3DRotationAboutZ() {
        let affine = CATransform3DMakeAffineTransform(CGAffineTransform(rotationAngle: 0.6))
        assertEqual(affine, CATransform3DMakeRotation(0.6, 0, 0, 1), accuracy: 1e-15)
    }

    func test_equalToTransform_comparesEveryEntry() {
        var a = CATransform3DIdentity
        XCTAssertTrue(CATransform3DEqualToTransform(a, CATransform3DIdentity))
        a.m43 = 1e-9
        XCTAssertFalse(CATransform3DEqualToTransform(a, CATransform3DIdentity))
        XCTAssertEqual(Set([CATransform3DIdentity, CATransform3DIdentity, a]).count, 2)
    }

    // MARK: CGAffineTransform

    func test_affineDefaultInit_isZero_identityIsIdentity() {
        XCTAssertEqual(CGAffineTransform(), CGAffineTransform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0))
        XCTAssertTrue(CGAffineTransform.identity.isIdentity)
        XCTAssertFalse(CGAffineTransform().isIdentity)
        XCTAssertEqual(CGAffineTransform(1, 0, 0, 1, 0, 0), .identity)
    }

    func test_affineRotationByHalfPi_mapsXAxisToYAxis() {
        let r = CGAffineTransform(rotationAngle: .pi / 2)
        XCTAssertEqual(r.a, 0, accuracy: accuracy)
        XCTAssertEqual(r.b, 1, accuracy: accuracy)
        XCTAssertEqual(r.c, -1, accuracy: accuracy)
        XCTAssertEqual(r.d, 0, accuracy: accuracy)
        assertEqual(CGPoint(x: 1, y: 0).applying(r), CGPoint(x: 0, y: 1))
    }

    func test_affineConcatenating_appliesSelfFirst() {
        let s = CGAffineTransform(scaleX: 2, y: 3)
        let t = CGAffineTransform(translationX: 10, y: 20)
        assertEqual(CGPoint(x: 1, y: 1).applying(s.concatenating(t)), CGPoint(x: 12, y: 23))
        assertEqual(CGPoint(x: 1, y: 1).applying(t.concatenating(s)), CGPoint(x: 22, y: 63))
    }

    func test_affineRotatedScaledTranslated_prependToSelf() {
        let base = CGAffineTransform(translationX: 5, y: 7)
        XCTAssertEqual(base.rotated(by: 0.3), CGAffineTransform(rotationAngle: 0.3).concatenating(base))
        XCTAssertEqual(base.scaledBy(x: 2, y: 3), CGAffineTransform(scaleX: 2, y: 3).concatenating(base))
        XCTAssertEqual(base.translatedBy(x: 1, y: 2), CGAffineTransform(translationX: 1, y: 2).concatenating(base))
        // Translating a scale: the offset is scaled; scaling a translation: it is not.
        XCTAssertEqual(CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 5, y: 0).tx, 10)
        XCTAssertEqual(base.scaledBy(x: 2, y: 2).tx, 5)
    }

    func test_affineRotatedByQuarterTwice_isHalfTurn() {
        // Seed 003: transform = CGAffineTransformRotate(transform, M_PI_2), applied twice.
        let t = CGAffineTransform.identity.rotated(by: .pi / 2).rotated(by: .pi / 2)
        assertEqual(CGPoint(x: 1, y: 0).applying(t), CGPoint(x: -1, y: 0))
    }

    func test_affineInverted_roundTrips_andSingularIsUnchanged() {
        let t = CGAffineTransform(a: 2, b: 1, c: -1, d: 3, tx: 4, ty: -5)
        let product = t.concatenating(t.inverted())
        XCTAssertEqual(product.a, 1, accuracy: accuracy); XCTAssertEqual(product.b, 0, accuracy: accuracy)
        XCTAssertEqual(product.c, 0, accuracy: accuracy); XCTAssertEqual(product.d, 1, accuracy: accuracy)
        XCTAssertEqual(product.tx, 0, accuracy: accuracy); XCTAssertEqual(product.ty, 0, accuracy: accuracy)
        let singular = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 1, ty: 1)
        XCTAssertEqual(singular.inverted(), singular)
    }

    func test_sizeApplying_ignoresTranslation() {
        let t = CGAffineTransform(a: 2, b: 0, c: 1, d: 3, tx: 100, ty: 100)
        XCTAssertEqual(CGSize(width: 1, height: 2).applying(t), CGSize(width: 4, height: 6))
    }

    func test_rectApplying_returnsBoundingBoxOfCorners() {
        let rect = CGRect(x: 0, y: 0, width: 2, height: 1)
        assertEqual(rect.applying(CGAffineTransform(rotationAngle: .pi / 2)),
                    CGRect(x: -1, y: 0, width: 1, height: 2))
        assertEqual(rect.applying(CGAffineTransform(translationX: 3, y: 4).scaledBy(x: 2, y: 2)),
                    CGRect(x: 3, y: 4, width: 4, height: 2))
        XCTAssertTrue(CGRect.null.applying(CGAffineTransform(scaleX: 2, y: 2)).isNull)
    }

    // MARK: CGColor

    func test_rgbColor_hasFourComponents() {
        let c = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        XCTAssertEqual(c.components, [0.1, 0.2, 0.3, 0.4])
        XCTAssertEqual(c.numberOfComponents, 4)
        XCTAssertEqual(c.alpha, 0.4)
        XCTAssertEqual(c.rgba, SIMD4(0.1, 0.2, 0.3, 0.4))
    }

    func test_grayColor_hasTwoComponents_andExpandsToRGBA() {
        let g = CGColor(gray: 0.25, alpha: 0.5)
        XCTAssertEqual(g.components, [0.25, 0.5])
        XCTAssertEqual(g.numberOfComponents, 2)
        XCTAssertEqual(g.alpha, 0.5)
        XCTAssertEqual(g.rgba, SIMD4(0.25, 0.25, 0.25, 0.5))
    }

    func test_namedColors_areGray() {
        XCTAssertEqual(CGColor.black.components, [0, 1])
        XCTAssertEqual(CGColor.white.components, [1, 1])
        XCTAssertEqual(CGColor.clear.components, [0, 0])
        XCTAssertEqual(CGColor.black.rgba, SIMD4(0, 0, 0, 1))
    }

    func test_copyWithAlpha_keepsColorSpace() {
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1).copy(alpha: 0.5)
        XCTAssertEqual(red?.components, [1, 0, 0, 0.5])
        let gray = CGColor(gray: 0.3, alpha: 1).copy(alpha: 0.2)
        XCTAssertEqual(gray?.components, [0.3, 0.2])
    }

    func test_colorEquality_comparesRGBA() {
        XCTAssertEqual(CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        XCTAssertNotEqual(CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5))
        XCTAssertEqual(CGColor(rgba: SIMD4(0.5, 0.5, 0.5, 1)), CGColor(gray: 0.5, alpha: 1))
        let set: Set<CGColor> = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 0, blue: 0, alpha: 1)]
        XCTAssertEqual(set.count, 1)
    }

    func test_colorDescription_listsComponents() {
        XCTAssertEqual(CGColor(red: 0, green: 0, blue: 1, alpha: 1).description, "<CGColor> [sRGB] ( 0 0 1 1 )")
        XCTAssertEqual(CGColor(gray: 0.5, alpha: 1).description, "<CGColor> [Generic Gray] ( 0.5 1 )")
    }

    // MARK: CGPath

    func test_emptyPath_hasNullBoundsAndZeroCurrentPoint() {
        let path = CGMutablePath()
        XCTAssertTrue(path.isEmpty)
        XCTAssertTrue(path.boundingBox.isNull)
        XCTAssertTrue(path.boundingBoxOfPath.isNull)
        XCTAssertEqual(path.currentPoint, .zero)
    }

    func test_pathBuilding_recordsElementsWithApplesLabels() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 3, y: 4))
        path.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: 7, y: 8))
        path.addCurve(to: CGPoint(x: 9, y: 10), control1: CGPoint(x: 11, y: 12), control2: CGPoint(x: 13, y: 14))
        path.closeSubpath()
        XCTAssertEqual(path.elements, [
            .moveTo(CGPoint(x: 1, y: 2)),
            .addLine(CGPoint(x: 3, y: 4)),
            .addQuadCurve(CGPoint(x: 5, y: 6), control: CGPoint(x: 7, y: 8)),
            .addCurve(CGPoint(x: 9, y: 10), control1: CGPoint(x: 11, y: 12), control2: CGPoint(x: 13, y: 14)),
            .closeSubpath,
        ])
        XCTAssertFalse(path.isEmpty)
    }

    func test_lineWithoutCurrentPoint_isIgnored() {
        let path = CGMutablePath()
        path.addLine(to: CGPoint(x: 1, y: 1))
        path.closeSubpath()
        XCTAssertTrue(path.isEmpty)
    }

    func test_currentPoint_followsLastElement_andSubpathStartAfterClose() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 1))
        path.addLine(to: CGPoint(x: 5, y: 1))
        XCTAssertEqual(path.currentPoint, CGPoint(x: 5, y: 1))
        path.addCurve(to: CGPoint(x: 9, y: 9), control1: .zero, control2: .zero)
        XCTAssertEqual(path.currentPoint, CGPoint(x: 9, y: 9))
        path.closeSubpath()
        XCTAssertEqual(path.currentPoint, CGPoint(x: 1, y: 1))
    }

    func test_cubicBoundingBox_includesControlPoints_pathBoxIsTight() {
        // Seed 003's bezier: (0,150) -> (300,150) with controls (75,0), (225,300).
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 150))
        path.addCurve(to: CGPoint(x: 300, y: 150), control1: CGPoint(x: 75, y: 0), control2: CGPoint(x: 225, y: 300))
        assertEqual(path.boundingBox, CGRect(x: 0, y: 0, width: 300, height: 300))
        // y(t) = 150 - 450 t + 1350 t^2 - 900 t^3; y'(t) = 0 at t = (3 ± sqrt 3) / 6.
        func y(_ t: Double) -> Double { 150 - 450 * t + 1350 * t * t - 900 * t * t * t }
        let yMin = y((3 - 3.0.squareRoot()) / 6), yMax = y((3 + 3.0.squareRoot()) / 6)
        assertEqual(path.boundingBoxOfPath, CGRect(x: 0, y: yMin, width: 300, height: yMax - yMin), accuracy: 1e-9)
        XCTAssertLessThan(path.boundingBoxOfPath.height, 300)
    }

    func test_quadBoundingBox_tightBoxReachesHalfwayToControl() {
        // (0,0) -> (2,0) with control (1,2): apex at t = 1/2, y = 1.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addQuadCurve(to: CGPoint(x: 2, y: 0), control: CGPoint(x: 1, y: 2))
        assertEqual(path.boundingBox, CGRect(x: 0, y: 0, width: 2, height: 2))
        assertEqual(path.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 2, height: 1))
    }

    func test_addRect_isClosedCounterClockwiseFromOrigin() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(path.elements, [
            .moveTo(CGPoint(x: 1, y: 2)), .addLine(CGPoint(x: 4, y: 2)),
            .addLine(CGPoint(x: 4, y: 6)), .addLine(CGPoint(x: 1, y: 6)), .closeSubpath,
        ])
        XCTAssertEqual(path.boundingBox, CGRect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(CGPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4), transform: nil), path)
    }

    func test_addLines_movesThenLines() {
        let path = CGMutablePath()
        path.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1)])
        XCTAssertEqual(path.elements, [.moveTo(.zero), .addLine(CGPoint(x: 1, y: 0)), .addLine(CGPoint(x: 1, y: 1))])
    }

    func test_addEllipse_isFourCubicArcsWithKappa() {
        let rect = CGRect(x: 0, y: 0, width: 200, height: 100)
        let path = CGMutablePath()
        path.addEllipse(in: rect)
        XCTAssertEqual(path.elements.count, 6)
        XCTAssertEqual(path.elements.first, .moveTo(CGPoint(x: 200, y: 50)))
        XCTAssertEqual(path.elements.last, .closeSubpath)
        guard case .addCurve(let end, let c1, let c2) = path.elements[1] else { return XCTFail("not a curve") }
        assertEqual(end, CGPoint(x: 100, y: 100))
        assertEqual(c1, CGPoint(x: 200, y: 50 + 50 * 0.5522847498))
        assertEqual(c2, CGPoint(x: 100 + 100 * 0.5522847498, y: 100))
        assertEqual(path.boundingBox, rect)
        assertEqual(path.boundingBoxOfPath, rect)
    }

    func test_transformParameter_mapsPoints() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 0), transform: CGAffineTransform(translationX: 10, y: 0))
        XCTAssertEqual(path.currentPoint, CGPoint(x: 11, y: 0))
        var t = CGAffineTransform(scaleX: 2, y: 2)
        let rectPath = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: &t)
        XCTAssertEqual(rectPath.boundingBox, CGRect(x: 0, y: 0, width: 2, height: 2))
    }

    func test_copies_areEqualAndIndependent() {
        let path = CGMutablePath()
        path.move(to: .zero); path.addLine(to: CGPoint(x: 1, y: 1))
        let frozen = path.copy()!
        let mutable = path.mutableCopy()!
        XCTAssertEqual(frozen, path)
        XCTAssertFalse(frozen is CGMutablePath)
        mutable.addLine(to: CGPoint(x: 2, y: 0))
        XCTAssertNotEqual(mutable, path)
        XCTAssertEqual(frozen.elements.count, 2)
        XCTAssertTrue(frozen.copy()! === frozen)
    }
}
