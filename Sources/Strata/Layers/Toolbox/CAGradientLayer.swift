import Foundation

/// A layer that fills its bounds with a gradient of `colors` at `locations` (Apple's
/// `CAGradientLayer`). `colors`, `locations`, `startPoint` and `endPoint` are animatable,
/// implicitly too: arrays of the same count interpolate element by element (colours
/// component by component), as any array-valued key does (SEMANTICS.md, custom keys).
///
///     let g = CAGradientLayer()
///     g.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
///     g.locations = [0, 1]
///     g.startPoint = CGPoint(x: 0, y: 0.5); g.endPoint = CGPoint(x: 1, y: 0.5)
open class CAGradientLayer: CALayer {
    /// The gradient's colours (`CGColor`s), nil by default.
    open var colors: [Any]? {
        get { value(forKey: "colors") as? [Any] }
        set { setValue(newValue, forKey: "colors") }
    }
    /// Where each colour stops, 0...1 (nil: evenly spaced).
    open var locations: [NSNumber]? {
        get {
            guard let v = value(forKey: "locations") else { return nil }
            if let n = v as? [NSNumber] { return n }
            return (v as? [Any])?.map { NSNumber(value: Double(ToolboxValues.cgFloat($0, 0))) }
        }
        set { setValue(newValue, forKey: "locations") }
    }
    /// Where the gradient starts, in the unit square of the bounds ((0.5, 0) by default).
    open var startPoint: CGPoint {
        get { ToolboxValues.point(value(forKey: "startPoint"), CGPoint(x: 0.5, y: 0)) }
        set { setValue(newValue, forKey: "startPoint") }
    }
    /// Where the gradient ends ((0.5, 1) by default).
    open var endPoint: CGPoint {
        get { ToolboxValues.point(value(forKey: "endPoint"), CGPoint(x: 0.5, y: 1)) }
        set { setValue(newValue, forKey: "endPoint") }
    }
    /// Axial (the default), radial or conic.
    open var type: CAGradientLayerType {
        get { CAGradientLayerType(rawValue: ToolboxValues.name(value(forKey: "type")) ?? "axial") }
        set { setValue(newValue.rawValue, forKey: "type") }
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "startPoint": return CGPoint(x: 0.5, y: 0)
        case "endPoint": return CGPoint(x: 0.5, y: 1)
        case "type": return CAGradientLayerType.axial.rawValue
        default: return super.defaultValue(forKey: key)
        }
    }

    open override class func defaultAction(forKey event: String) -> CAAction? {
        switch event {
        case "colors", "locations", "startPoint", "endPoint": return ToolboxImplicitAction.shared
        default: return super.defaultAction(forKey: event)
        }
    }
}
