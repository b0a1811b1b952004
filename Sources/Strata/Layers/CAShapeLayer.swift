import Foundation

/// A layer that draws a path: adds the stroke and fill properties, all animatable.
open class CAShapeLayer: CALayer {
    /// The shape (animatable).
    open var path: CGPath? {
        get { readObject(.path) as? CGPath }
        set { setObject(.path, newValue, in: context) }
    }
    /// Fill colour (opaque black by default).
    open var fillColor: CGColor? {
        get { color(.fillColor) }
        set { setColor(.fillColor, newValue) }
    }
    /// Stroke colour (nil by default).
    open var strokeColor: CGColor? {
        get { color(.strokeColor) }
        set { setColor(.strokeColor, newValue) }
    }
    /// Stroke width (1 by default).
    open var lineWidth: CGFloat {
        get { CGFloat(readScalar(.lineWidth)) }
        set { writeScalar(.lineWidth, Double(newValue)) }
    }
    /// Relative start of the stroked part, 0...1 (0 by default).
    open var strokeStart: CGFloat {
        get { CGFloat(readScalar(.strokeStart)) }
        set { writeScalar(.strokeStart, Double(newValue)) }
    }
    /// Relative end of the stroked part, 0...1 (1 by default).
    open var strokeEnd: CGFloat {
        get { CGFloat(readScalar(.strokeEnd)) }
        set { writeScalar(.strokeEnd, Double(newValue)) }
    }
    /// Miter limit (10 by default).
    open var miterLimit: CGFloat {
        get { CGFloat(readScalar(.miterLimit)) }
        set { writeScalar(.miterLimit, Double(newValue)) }
    }
    /// Dash phase (0 by default).
    open var lineDashPhase: CGFloat {
        get { CGFloat(readScalar(.lineDashPhase)) }
        set { writeScalar(.lineDashPhase, Double(newValue)) }
    }
}
