#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif

// Ported patterns: layers with animatable state of their own, as progress rings and charts
// write them (MKRingProgressView, KDCircularProgress, XYPieChart; MIT), written anew:
// - an `@NSManaged var progress` becomes a computed property over `value(forKey:)` and
//   `setValue(_:forKey:)` (the porting article's replacement), redrawn through
//   `needsDisplay(forKey:)`, animated implicitly by an `action(forKey:)` override that
//   re-targets the action `super` finds for `opacity`;
// - a layer that copies its fourteen stored properties in `init(layer:)`, whose `angle`
//   animation is paused by reading the presentation and writing it to the model;
// - pie slices whose animations leave `duration` at 0 and take the transaction's.

final class RingProgressLayer: CALayer {
    // `@NSManaged var progress: CGFloat` on Apple's platforms.
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }
    var ringWidth: CGFloat = 20
    var drawnProgress: [CGFloat] = []

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }

    override func action(forKey event: String) -> CAAction? {
        guard event == "progress" else { return super.action(forKey: event) }
        if let template = super.action(forKey: "opacity") as? CABasicAnimation,
           let animation = template.copy() as? CABasicAnimation {
            animation.keyPath = "progress"
            animation.fromValue = presentation()?.value(forKey: "progress") ?? progress
            animation.toValue = nil
            return animation
        }
        let animation = CABasicAnimation(keyPath: "progress")
        animation.duration = 0.001
        return animation
    }

    override func draw(in ctx: CGContext) {
        model().drawnProgress.append(progress)
        ctx.setLineWidth(ringWidth)
        ctx.setLineCap(.round)
        ctx.addArc(center: CGPoint(x: bounds.midX, y: bounds.midY), radius: bounds.width / 2 - ringWidth / 2,
                   startAngle: -.pi / 2, endAngle: -.pi / 2 + 2 * .pi * progress, clockwise: false)
        ctx.strokePath()
    }
}

final class CircularProgressLayer: CALayer {
    var angle: Double {
        get { value(forKey: "angle") as? Double ?? 0 }
        set { setValue(newValue, forKey: "angle") }
    }
    var startAngle: CGFloat = 0
    var clockwise = true
    var roundedCorners = true
    var lerpColorMode = false
    var gradientRotateSpeed: CGFloat = 0
    var glowAmount: CGFloat = 1
    var glowMode = 0
    var progressThickness: CGFloat = 0.5
    var trackThickness: CGFloat = 0.5
    var trackColor = UIColor.black
    var progressInsideFillColor = UIColor.clear
    var colorsArray: [UIColor] = []
    var radius: CGFloat = 50

    override init() { super.init() }

    override init(layer: Any) {
        super.init(layer: layer)
        guard let l = layer as? CircularProgressLayer else { return }
        startAngle = l.startAngle
        clockwise = l.clockwise
        roundedCorners = l.roundedCorners
        lerpColorMode = l.lerpColorMode
        gradientRotateSpeed = l.gradientRotateSpeed
        glowAmount = l.glowAmount
        glowMode = l.glowMode
        progressThickness = l.progressThickness
        trackThickness = l.trackThickness
        trackColor = l.trackColor
        colorsArray = l.colorsArray
        progressInsideFillColor = l.progressInsideFillColor
        radius = l.radius
        angle = l.angle
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "angle" || super.needsDisplay(forKey: key)
    }
}

/// The view-side code: animate to an angle, pause where it stands.
final class CircularProgress: NSObject, CAAnimationDelegate {
    let progressLayer = CircularProgressLayer()
    var completions: [Bool] = []

    func animate(fromAngle: Double, toAngle: Double, duration: TimeInterval) {
        progressLayer.removeAllAnimations()
        let animation = CABasicAnimation(keyPath: "angle")
        animation.fromValue = fromAngle
        animation.toValue = toAngle
        animation.duration = duration
        animation.delegate = self
        animation.isRemovedOnCompletion = false
        progressLayer.angle = toAngle
        progressLayer.add(animation, forKey: "angle")
    }

    func pauseAnimation() {
        guard let presentation = progressLayer.presentation() else { return }
        let current = presentation.angle
        progressLayer.removeAllAnimations()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        progressLayer.angle = current
        CATransaction.commit()
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { completions.append(flag) }
}

final class PieSliceLayer: CAShapeLayer {
    var startAngle: Double {
        get { value(forKey: "startAngle") as? Double ?? 0 }
        set { setValue(newValue, forKey: "startAngle") }
    }
    var endAngle: Double {
        get { value(forKey: "endAngle") as? Double ?? 0 }
        set { setValue(newValue, forKey: "endAngle") }
    }

    override init() { super.init() }
    override init(layer: Any) {
        super.init(layer: layer)
        if let slice = layer as? PieSliceLayer {
            startAngle = slice.startAngle
            endAngle = slice.endAngle
        }
    }
    required init?(coder: NSCoder) { super.init(coder: coder) }

    override class func needsDisplay(forKey key: String) -> Bool {
        key == "startAngle" || key == "endAngle" || super.needsDisplay(forKey: key)
    }

    func createArcAnimation(forKey key: String, fromValue: Double, toValue: Double) {
        let from = presentation()?.value(forKey: key) ?? fromValue
        let arc = CABasicAnimation(keyPath: key)
        arc.fromValue = from
        arc.toValue = toValue
        arc.timingFunction = CAMediaTimingFunction(name: kCAMediaTimingFunctionDefault)
        add(arc, forKey: key)
        setValue(toValue, forKey: key)
    }
}

/// The porting article's example of an `@NSManaged` property written for Linux, as it stands
/// there (PortingFromQuartzCore.md, "Edits only Linux asks for").
final class RingLayer: CALayer {
    // On Apple's platforms: @NSManaged var progress: CGFloat
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? 0 }
        set { setValue(newValue, forKey: "progress") }
    }
    override class func needsDisplay(forKey key: String) -> Bool {
        key == "progress" || super.needsDisplay(forKey: key)
    }
    override class func defaultValue(forKey key: String) -> Any? {
        key == "progress" ? CGFloat(0) : super.defaultValue(forKey: key)
    }
    var drawn: [CGFloat] = []
    override func draw(in ctx: CGContext) { model().drawn.append(progress) }
}
