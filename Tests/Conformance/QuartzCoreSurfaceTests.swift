import Foundation
#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif
import XCTest

/// What `import QuartzCore` brings on Apple's platforms, brought by the engine's module:
/// Foundation's types and the C library through it, `CFTimeInterval`, NSValue's
/// `init(caTransform3D:)` / `caTransform3DValue` (accepted wherever a transform is), the
/// transform's bridging to `NSValue`, QuartzCore's older constant names and CATransaction's
/// keys, and the Core Graphics drawing calls real `draw(in:)` code makes.
final class QuartzCoreSurfaceTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
        StrataEngine.actionLookupStrategy = .interned
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    func test_foundationAndTheCLibraryComeWithTheEngine() {
        // This file's only module import is the engine's (Foundation above is for the other
        // suites); these compile through it as they do through QuartzCore.
        let interval: CFTimeInterval = 0.25
        let seconds: TimeInterval = interval
        let angle: CGFloat = .pi / 3
        XCTAssertEqual(Double(cos(angle)), 0.5, accuracy: 1e-12)
        XCTAssertEqual(sin(Double.pi / 2), 1, accuracy: 1e-12)
        XCTAssertEqual(NSNumber(value: seconds).doubleValue, 0.25)
        XCTAssertEqual(M_PI, Double.pi)
        let scene = Scene(CALayer())
        scene.frame(at: 1.5)
        let now: CFTimeInterval = CACurrentMediaTime()
        XCTAssertEqual(now, 1.5, "the media time is the frame's")
    }

    func test_transformWrappedInNSValueRoundTripsAndBridges() throws {
        let t = CATransform3DRotate(CATransform3DMakeTranslation(3, 4, 5), 0.7, 0, 1, 0)
        let wrapped = NSValue(caTransform3D: t)
        assertTransform(wrapped.caTransform3DValue, t)
        XCTAssertEqual(wrapped, NSValue(caTransform3D: t), "equal values are equal")
        XCTAssertNotEqual(wrapped, NSValue(caTransform3D: CATransform3DIdentity))
        assertTransform(NSValue(cgPoint: .zero).caTransform3DValue, CATransform3DIdentity, "not a transform: the identity")
        // Bridging, as Apple's: a boxed transform is an NSValue, and back.
        let boxed: Any = t
        let asValue = try XCTUnwrap(boxed as? NSValue)
        assertTransform(asValue.caTransform3DValue, t)
        let anyValue: Any = wrapped
        assertTransform(try XCTUnwrap(anyValue as? CATransform3D), t)
        XCTAssertNil(NSValue(cgPoint: .zero) as Any as? CATransform3D, "a point is no transform")
        let affine = CGAffineTransform(rotationAngle: 0.3).translatedBy(x: 2, y: 1)
        XCTAssertEqual(NSValue(cgAffineTransform: affine).cgAffineTransformValue, affine)
        XCTAssertEqual(NSValue(cgPoint: CGPoint(x: 1, y: 2)).cgPointValue, CGPoint(x: 1, y: 2))
        XCTAssertEqual(NSValue(cgSize: CGSize(width: 3, height: 4)).cgSizeValue, CGSize(width: 3, height: 4))
        XCTAssertEqual(NSValue(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)).cgRectValue, CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    func test_wrappedTransformsAreAcceptedWhereverATransformIs() throws {
        let turn = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let half = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        // fromValue / toValue.
        var scene = Scene(CALayer())
        let basic = CABasicAnimation(keyPath: "transform")
        basic.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
        basic.toValue = NSValue(caTransform3D: turn)
        basic.duration = 1
        inTransaction { scene.layer.add(basic, forKey: "turn") }
        scene.frame(at: 0.5)
        assertTransform(try scene.presented().transform, half, "basic, half-way: a quarter turn's half", accuracy: 1e-9)
        // byValue (concatenated onto the start).
        scene = Scene(CALayer()) { $0.transform = half }
        let by = CABasicAnimation(keyPath: "transform")
        by.byValue = NSValue(caTransform3D: half)
        by.duration = 1
        inTransaction { scene.layer.add(by, forKey: "by") }
        scene.frame(at: 1 - 1e-9)
        assertTransform(try scene.presented().transform, turn, "byValue ends at by concatenated with from", accuracy: 1e-6)
        // Keyframe values.
        scene = Scene(CALayer())
        let keyframes = CAKeyframeAnimation(keyPath: "transform")
        keyframes.values = [NSValue(caTransform3D: CATransform3DIdentity), NSValue(caTransform3D: CATransform3DMakeScale(3, 3, 1))]
        keyframes.duration = 1
        inTransaction { scene.layer.add(keyframes, forKey: "k") }
        scene.frame(at: 0.5)
        assertTransform(try scene.presented().transform, CATransform3DMakeScale(2, 2, 1), "keyframes, half-way", accuracy: 1e-9)
        // setValue(_:forKey:) of the property.
        withActionsDisabled { scene.layer.setValue(NSValue(caTransform3D: turn), forKey: "sublayerTransform") }
        assertTransform(scene.layer.sublayerTransform, turn)
        // A custom key holding one animates and reads back as an NSValue.
        scene = Scene(CALayer()) { $0.setValue(NSValue(caTransform3D: CATransform3DIdentity), forKey: "tilt") }
        let custom = CABasicAnimation(keyPath: "tilt")
        custom.toValue = NSValue(caTransform3D: CATransform3DMakeScale(3, 3, 1))
        custom.duration = 1
        inTransaction { scene.layer.add(custom, forKey: "tilt") }
        scene.frame(at: 0.5)
        let shown = try XCTUnwrap(try scene.presented().value(forKey: "tilt"))
        XCTAssertTrue(type(of: shown) is NSValue.Type, "boxed as the model's type, an NSValue: \(type(of: shown))")
        assertTransform((shown as? NSValue)?.caTransform3DValue, CATransform3DMakeScale(2, 2, 1), accuracy: 1e-9)
        // One holding a transform itself stays a transform (it bridges to NSValue, but is none).
        scene = Scene(CALayer()) { $0.setValue(CATransform3DIdentity, forKey: "tilt") }
        inTransaction { scene.layer.add(custom, forKey: "tilt") }
        scene.frame(at: 0.5)
        let plain = try XCTUnwrap(try scene.presented().value(forKey: "tilt"))
        XCTAssertTrue(type(of: plain) == CATransform3D.self, "\(type(of: plain))")
        assertTransform(plain as? CATransform3D, CATransform3DMakeScale(2, 2, 1), accuracy: 1e-9)
    }

    func test_olderConstantNamesAreTheTypedValues() {
        // QuartzCore's Objective-C names, as Swift code before 4.2 spells them.
        let a = CABasicAnimation(keyPath: "opacity")
        a.fillMode = kCAFillModeForwards
        a.timingFunction = CAMediaTimingFunction(name: kCAMediaTimingFunctionEaseInEaseOut)
        XCTAssertEqual(a.fillMode, .forwards)
        XCTAssertEqual(controlPoints(of: a.timingFunction), controlPoints(of: CAMediaTimingFunction(name: .easeInEaseOut)))
        let k = CAKeyframeAnimation(keyPath: "position")
        k.calculationMode = kCAAnimationPaced
        k.rotationMode = kCAAnimationRotateAuto
        XCTAssertEqual(k.calculationMode, .paced)
        let t = CATransition()
        t.type = kCATransitionPush
        t.subtype = kCATransitionFromTop
        XCTAssertEqual(t.type, .push)
        XCTAssertEqual(t.subtype, .fromTop)
        let shape = CAShapeLayer()
        shape.lineCap = kCALineCapRound
        shape.lineJoin = kCALineJoinBevel
        shape.fillRule = kCAFillRuleEvenOdd
        XCTAssertEqual([shape.lineCap.rawValue, shape.lineJoin.rawValue, shape.fillRule.rawValue], ["round", "bevel", "even-odd"])
        XCTAssertEqual(kCAGravityResizeAspectFill, .resizeAspectFill)
        XCTAssertEqual(kCAAlignmentCenter, .center)
    }

    func test_transactionKeysSetTheTransactionsValues() {
        CATransaction.begin()
        CATransaction.setValue(NSNumber(value: 0.75), forKey: kCATransactionAnimationDuration)
        CATransaction.setValue(NSNumber(value: true), forKey: kCATransactionDisableActions)
        XCTAssertEqual(CATransaction.animationDuration(), 0.75)
        XCTAssertTrue(CATransaction.disableActions())
        CATransaction.commit()
    }

    func test_coreGraphicsDrawingCallsRecordWhatTheyDraw() {
        let ctx = CGContext(size: CGSize(width: 20, height: 20))
        ctx.setLineCap(CGLineCap.round)
        ctx.setLineJoin(CGLineJoin.bevel)
        ctx.setShadow(offset: CGSize(width: 0, height: 2), blur: 4, color: CGColor(gray: 0, alpha: 0.5))
        ctx.addArc(center: CGPoint(x: 10, y: 10), radius: 5, startAngle: 0, endAngle: .pi, clockwise: false)
        ctx.drawPath(using: .fillStroke)
        ctx.addLines(between: [.zero, CGPoint(x: 4, y: 0)])
        ctx.strokePath()
        let arc = CGMutablePath()
        arc.addArc(center: CGPoint(x: 10, y: 10), radius: 5, startAngle: 0, endAngle: .pi, clockwise: false)
        let line = CGMutablePath()
        line.addLines(between: [.zero, CGPoint(x: 4, y: 0)])
        XCTAssertEqual(ctx.operations, [
            .setLineCap(.round), .setLineJoin(.bevel),
            .setShadow(offset: CGSize(width: 0, height: 2), blur: 4, color: [0, 0.5]),
            .addPath(arc.elements), .fillPath(evenOdd: false), .addPath(arc.elements), .strokePath,
            .addPath(line.elements), .strokePath,
        ])
    }
}
