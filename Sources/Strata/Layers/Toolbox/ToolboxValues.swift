import Foundation

// Shared by both engines (this folder is compiled into StrataReference too, through its
// `shared-sources`): the properties of Core Animation's layer classes that live as keyed
// values of the layer (the custom-key store both engines keep, model and presentation, with
// their animations evaluated like any custom key's), so a layer of a class that does not use
// them pays nothing for them.

/// Reading and writing the toolbox's keyed values with their Swift types.
enum ToolboxValues {
    static func cgFloat(_ v: Any?, _ fallback: CGFloat) -> CGFloat {
        switch v {
        case let x as CGFloat: return x
        case let x as Double: return CGFloat(x)
        case let x as Float: return CGFloat(x)
        case let x as Int: return CGFloat(x)
        case let x as NSNumber: return CGFloat(x.doubleValue)
        default: return fallback
        }
    }

    static func double(_ v: Any?, _ fallback: Double) -> Double { Double(cgFloat(v, CGFloat(fallback))) }

    static func float(_ v: Any?, _ fallback: Float) -> Float { Float(cgFloat(v, CGFloat(fallback))) }

    static func int(_ v: Any?, _ fallback: Int) -> Int {
        switch v {
        case let x as Int: return x
        case let x as NSNumber: return x.intValue
        default:
            let d = double(v, .nan)
            return d.isFinite ? Int(d.rounded()) : fallback
        }
    }

    static func bool(_ v: Any?, _ fallback: Bool) -> Bool {
        switch v {
        case let x as Bool: return x
        case let x as NSNumber: return x.boolValue
        default: return fallback
        }
    }

    static func point(_ v: Any?, _ fallback: CGPoint) -> CGPoint {
        guard let v else { return fallback }
        return v as? CGPoint ?? NSValueShape.point(v) ?? fallback
    }

    static func rect(_ v: Any?, _ fallback: CGRect) -> CGRect {
        guard let v else { return fallback }
        return v as? CGRect ?? NSValueShape.rect(v) ?? fallback
    }

    static func transform(_ v: Any?) -> CATransform3D {
        (v as? CATransform3D) ?? CATransform3DIdentity
    }

    static func color(_ v: Any?) -> CGColor? { v.flatMap { $0 as? CGColor } }

    /// A named constant stored as its raw string (as Apple's KVC hands them back), read from
    /// either spelling.
    static func name(_ v: Any?) -> String? {
        if let s = v as? String { return s }
        if let r = v as? any RawRepresentable, let s = r.rawValue as? String { return s }
        return nil
    }
}

/// The implicit action of the toolbox's animatable keys (what `defaultAction(forKey:)` of
/// their classes returns): run, it adds a `CABasicAnimation` of the key with the
/// transaction's duration and timing function (`.default` when none is set), from the value
/// shown to the new one, as the built-in action of a built-in property does. Stateless, so
/// a memoised lookup may keep it.
final class ToolboxImplicitAction: NSObject, CAAction {
    static let shared = ToolboxImplicitAction()

    /// The implicit action of a key of every layer kept as a keyed value: Apple documents
    /// `contentsCenter` and `rasterizationScale` as animatable; the others have none.
    static func forLayerKey(_ key: String) -> CAAction? {
        key == "contentsCenter" || key == "rasterizationScale" ? shared : nil
    }

    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        let a = CABasicAnimation(keyPath: event)
        a.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        a.run(forKey: event, object: anObject, arguments: dict)
    }
}

extension CALayer {
    /// Whether `value` has the type the layer class's key `key` holds (nil always fits):
    /// keys of Core Animation's layer classes and the rest of CALayer refuse other types
    /// (and numbers that are not finite) with a diagnostic, through `setValue(_:forKey:)` too.
    /// Keys of no class here are custom keys: anything fits.
    func toolboxAccepts(_ key: String, _ value: Any?) -> Bool {
        guard let value else { return true }
        func number(_ v: Any) -> Bool {
            let d: Double
            switch v {
            case let x as CGFloat: d = Double(x)
            case let x as Double: d = x
            case let x as Float: d = Double(x)
            case let x as Int: d = Double(x)
            case let x as NSNumber: d = x.doubleValue
            default: return false
            }
            return d.isFinite
        }
        func point(_ v: Any) -> Bool {
            if let p = v as? CGPoint { return p.x.isFinite && p.y.isFinite }
            return ToolboxValues.point(v, CGPoint(x: CGFloat.nan, y: 0)).x.isFinite
        }
        func name(_ v: Any) -> Bool { ToolboxValues.name(v) != nil }
        switch key {
        case "contentsScale", "rasterizationScale": return number(value)
        case "contentsGravity", "cornerCurve": return name(value)
        case "contentsCenter":
            let r = ToolboxValues.rect(value, CGRect(x: CGFloat.nan, y: 0, width: 0, height: 0))
            return r.origin.x.isFinite && r.origin.y.isFinite && r.width.isFinite && r.height.isFinite
        case "shouldRasterize", "opaque", "needsDisplayOnBoundsChange", "allowsEdgeAntialiasing", "allowsGroupOpacity":
            return value is Bool || value is NSNumber
        case "maskedCorners": return number(value)
        default: break
        }
        switch self {
        case is CAGradientLayer:
            switch key {
            case "colors": return (value as? [Any])?.allSatisfy { $0 is CGColor } ?? false
            case "locations": return (value as? [Any])?.allSatisfy(number) ?? false
            case "startPoint", "endPoint": return point(value)
            case "type": return name(value)
            default: return true
            }
        case is CATextLayer:
            switch key {
            case "fontSize": return number(value)
            case "foregroundColor": return value is CGColor
            case "alignmentMode", "truncationMode": return name(value)
            case "wrapped", "allowsFontSubpixelQuantization": return value is Bool || value is NSNumber
            default: return true
            }
        case is CAReplicatorLayer:
            switch key {
            case "instanceCount", "instanceDelay", "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset",
                 "instanceAlphaOffset": return number(value)
            case "instanceTransform": return value is CATransform3D
            case "instanceColor": return value is CGColor
            case "preservesDepth": return value is Bool || value is NSNumber
            default: return true
            }
        case is CAShapeLayer:
            switch key {
            case "lineCap", "lineJoin", "fillRule": return name(value)
            case "lineDashPattern": return (value as? [Any])?.allSatisfy(number) ?? false
            default: return true
            }
        default: return true
        }
    }
}
