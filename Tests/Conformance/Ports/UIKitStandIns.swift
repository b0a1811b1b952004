#if STRATA_REFERENCE
import StrataReference
#else
import Strata
#endif

// The application's side of a port: the two UIKit types Core Animation code reaches for, in
// the few lines a developer writes on Linux (there is no UIKit here). Everything else the
// ported code below uses comes from the engine's module alone, as from QuartzCore.

/// UIKit's colour, for its `cgColor`.
final class UIColor {
    let cgColor: CGColor
    init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        cgColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }
    init(white: CGFloat, alpha: CGFloat) { cgColor = CGColor(gray: white, alpha: alpha) }
    init(cgColor: CGColor) { self.cgColor = cgColor }
    static var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    static var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
    static var white: UIColor { UIColor(white: 1, alpha: 1) }
    static var black: UIColor { UIColor(white: 0, alpha: 1) }
    static var clear: UIColor { UIColor(white: 0, alpha: 0) }
    func withAlphaComponent(_ alpha: CGFloat) -> UIColor { UIColor(cgColor: cgColor.copy(alpha: alpha) ?? cgColor) }
}

/// UIKit's path builder, over a CGMutablePath. UIKit's y axis points down, so its
/// `clockwise` arc turns toward growing angles: Core Graphics' `clockwise: false`.
final class UIBezierPath {
    private let path = CGMutablePath()
    var cgPath: CGPath { path }

    init() {}
    init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }
    init(ovalIn rect: CGRect) { path.addEllipse(in: rect) }
    init(rect: CGRect) { path.addRect(rect) }
    init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        path.addRoundedRect(in: rect, cornerWidth: cornerRadius, cornerHeight: cornerRadius)
    }

    func move(to point: CGPoint) { path.move(to: point) }
    func addLine(to point: CGPoint) { path.addLine(to: point) }
    func addQuadCurve(to point: CGPoint, controlPoint: CGPoint) { path.addQuadCurve(to: point, control: controlPoint) }
    func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }
    func close() { path.closeSubpath() }
}
