import Foundation

/// The shape of a property value. Interpolatable values are kept as arrays of `Double`
/// components (a nil colour is four NaNs) in the layers' dictionaries, and boxed back into
/// their Swift type when read.
enum ValueKind: Equatable {
    case cgFloat, float, bool, point, size, rect, color, transform
    /// Not interpolated: contents, mask, paths, filters. Switched at progress 0.5.
    case object
    /// A layer timing field (beginTime, speed ...): stored, never animated.
    case timing
    /// A custom key's array of numbers (a component each) or of colours (four each): as
    /// many components as the value has.
    case array

    /// Number of components of one value (0: it varies, objects and arrays).
    var width: Int {
        switch self {
        case .cgFloat, .float, .bool, .timing: return 1
        case .point, .size: return 2
        case .rect, .color: return 4
        case .transform: return 16
        case .object, .array: return 0
        }
    }
}

/// What a property change runs when nothing in the lookup chain answers (step 5).
enum ImplicitAction {
    case none
    /// A CABasicAnimation from the old to the new value.
    case basic
    /// A fade CATransition.
    case transition
}

/// One built-in property of CALayer / CAShapeLayer.
struct PropertySpec {
    let name: String
    let kind: ValueKind
    let defaultValue: [Double]
    let implicitAction: ImplicitAction
    let shapeOnly: Bool
}

/// The built-in properties: names, kinds, Apple's defaults and implicit actions (SEMANTICS.md).
enum PropertyCatalog {
    static let nilColor: [Double] = [.nan, .nan, .nan, .nan]
    static let black: [Double] = [0, 0, 0, 1]
    static let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

    static let all: [PropertySpec] = [
        PropertySpec(name: "anchorPoint", kind: .point, defaultValue: [0.5, 0.5], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "backgroundColor", kind: .color, defaultValue: nilColor, implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "borderColor", kind: .color, defaultValue: black, implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "borderWidth", kind: .cgFloat, defaultValue: [0], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "bounds", kind: .rect, defaultValue: [0, 0, 0, 0], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "contentsRect", kind: .rect, defaultValue: [0, 0, 1, 1], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "cornerRadius", kind: .cgFloat, defaultValue: [0], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "hidden", kind: .bool, defaultValue: [0], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "masksToBounds", kind: .bool, defaultValue: [0], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "opacity", kind: .float, defaultValue: [1], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "position", kind: .point, defaultValue: [0, 0], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "shadowColor", kind: .color, defaultValue: black, implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "shadowOffset", kind: .size, defaultValue: [0, -3], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "shadowOpacity", kind: .float, defaultValue: [0], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "shadowRadius", kind: .cgFloat, defaultValue: [3], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "sublayerTransform", kind: .transform, defaultValue: identity, implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "transform", kind: .transform, defaultValue: identity, implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "zPosition", kind: .cgFloat, defaultValue: [0], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "anchorPointZ", kind: .cgFloat, defaultValue: [0], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "doubleSided", kind: .bool, defaultValue: [1], implicitAction: .none, shapeOnly: false),
        // CAShapeLayer
        PropertySpec(name: "strokeStart", kind: .cgFloat, defaultValue: [0], implicitAction: .basic, shapeOnly: true),
        PropertySpec(name: "strokeEnd", kind: .cgFloat, defaultValue: [1], implicitAction: .basic, shapeOnly: true),
        PropertySpec(name: "lineWidth", kind: .cgFloat, defaultValue: [1], implicitAction: .basic, shapeOnly: true),
        PropertySpec(name: "fillColor", kind: .color, defaultValue: black, implicitAction: .basic, shapeOnly: true),
        PropertySpec(name: "strokeColor", kind: .color, defaultValue: nilColor, implicitAction: .basic, shapeOnly: true),
        PropertySpec(name: "miterLimit", kind: .cgFloat, defaultValue: [10], implicitAction: .basic, shapeOnly: true),
        PropertySpec(name: "lineDashPhase", kind: .cgFloat, defaultValue: [0], implicitAction: .basic, shapeOnly: true),
        // Object values
        PropertySpec(name: "contents", kind: .object, defaultValue: [], implicitAction: .transition, shapeOnly: false),
        PropertySpec(name: "mask", kind: .object, defaultValue: [], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "shadowPath", kind: .object, defaultValue: [], implicitAction: .basic, shapeOnly: false),
        PropertySpec(name: "path", kind: .object, defaultValue: [], implicitAction: .basic, shapeOnly: true),
        PropertySpec(name: "filters", kind: .object, defaultValue: [], implicitAction: .transition, shapeOnly: false),
        PropertySpec(name: "backgroundFilters", kind: .object, defaultValue: [], implicitAction: .transition, shapeOnly: false),
        PropertySpec(name: "compositingFilter", kind: .object, defaultValue: [], implicitAction: .transition, shapeOnly: false),
        PropertySpec(name: "sublayers", kind: .object, defaultValue: [], implicitAction: .transition, shapeOnly: false),
        // Layer timing (CAMediaTiming of the layer): stored, never animated
        PropertySpec(name: "beginTime", kind: .timing, defaultValue: [0], implicitAction: .none, shapeOnly: false),
        PropertySpec(name: "duration", kind: .timing, defaultValue: [0], implicitAction: .none, shapeOnly: false),
        PropertySpec(name: "speed", kind: .timing, defaultValue: [1], implicitAction: .none, shapeOnly: false),
        PropertySpec(name: "timeOffset", kind: .timing, defaultValue: [0], implicitAction: .none, shapeOnly: false),
        PropertySpec(name: "repeatCount", kind: .timing, defaultValue: [0], implicitAction: .none, shapeOnly: false),
        PropertySpec(name: "repeatDuration", kind: .timing, defaultValue: [0], implicitAction: .none, shapeOnly: false),
        PropertySpec(name: "autoreverses", kind: .timing, defaultValue: [0], implicitAction: .none, shapeOnly: false),
        PropertySpec(name: "fillMode", kind: .timing, defaultValue: [0], implicitAction: .none, shapeOnly: false),
        // Derived from bounds, position, anchorPoint and transform: never stored, never animated.
        PropertySpec(name: "frame", kind: .object, defaultValue: [], implicitAction: .none, shapeOnly: false),
    ]

    static let byName: [String: PropertySpec] = {
        var table: [String: PropertySpec] = [:]
        for spec in all { table[spec.name] = spec }
        // Apple's KVC spellings of the Bool properties.
        table["isHidden"] = table["hidden"]
        table["isDoubleSided"] = table["doubleSided"]
        return table
    }()

    /// The property named `name` (including the `isHidden` / `isDoubleSided` spellings).
    static func spec(_ name: String) -> PropertySpec? { byName[name] }

    /// The spec of a property the engine itself names (a programming error if missing).
    static func builtIn(_ name: String) -> PropertySpec { byName[name]! }
}

/// Conversions between Core Animation's boxed values and components.
enum Boxing {
    /// A number from any of the numeric types the API accepts.
    static func number(_ value: Any) -> Double? {
        switch value {
        case let x as CGFloat: return Double(x)
        case let x as Double: return x
        case let x as Float: return Double(x)
        case let x as Int: return Double(x)
        case let x as Bool: return x ? 1 : 0
        case let x as NSNumber: return x.doubleValue
        case let x as StrataValue where x.lanes.count == 1: return x.lanes[0]
        default: return nil
        }
    }

    /// Red, green, blue and alpha of a colour (a gray `g` is `(g, g, g, a)`).
    static func rgba(_ color: CGColor) -> [Double] {
        let c = (color.components ?? []).map { Double($0) }
        if c.count == 2 { return [c[0], c[0], c[0], c[1]] }
        if c.count == 4 { return c }
        return [0, 0, 0, 0]
    }

    static func components(of t: CATransform3D) -> [Double] {
        [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
         t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map { Double($0) }
    }

    static func transform(_ c: [Double]) -> CATransform3D {
        CATransform3D(m11: CGFloat(c[0]), m12: CGFloat(c[1]), m13: CGFloat(c[2]), m14: CGFloat(c[3]),
                      m21: CGFloat(c[4]), m22: CGFloat(c[5]), m23: CGFloat(c[6]), m24: CGFloat(c[7]),
                      m31: CGFloat(c[8]), m32: CGFloat(c[9]), m33: CGFloat(c[10]), m34: CGFloat(c[11]),
                      m41: CGFloat(c[12]), m42: CGFloat(c[13]), m43: CGFloat(c[14]), m44: CGFloat(c[15]))
    }

    static func color(_ c: [Double]) -> CGColor? {
        if c[0].isNaN { return nil }
        return CGColor(red: CGFloat(c[0]), green: CGFloat(c[1]), blue: CGFloat(c[2]), alpha: CGFloat(c[3]))
    }

    /// The components of `value` as a value of `kind` with `width` components, or nil when
    /// its type does not fit. A nil colour is four NaNs; nil fits nothing else.
    static func components(_ value: Any?, kind: ValueKind, width: Int) -> [Double]? {
        guard let value else { return kind == .color ? PropertyCatalog.nilColor : nil }
        if let raw = value as? StrataValue { return raw.lanes.count == width ? raw.lanes : nil }
        switch kind {
        case .cgFloat, .float, .bool, .timing:
            return number(value).map { [$0] }
        case .point:
            guard let p = value as? CGPoint ?? wrapped(value, "{CGPoint")?.pointValue else { return nil }
            return [Double(p.x), Double(p.y)]
        case .size:
            guard let s = value as? CGSize ?? wrapped(value, "{CGSize")?.sizeValue else { return nil }
            return [Double(s.width), Double(s.height)]
        case .rect:
            guard let r = value as? CGRect ?? wrapped(value, "{CGRect")?.rectValue else { return nil }
            return [Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)]
        case .color:
            guard let c = value as? CGColor else { return nil }
            return rgba(c)
        case .transform:
            if let t = value as? CATransform3D { return components(of: t) }
            if let a = value as? CGAffineTransform { return components(of: CATransform3DMakeAffineTransform(a)) }
            return nil
        case .array:
            guard let c = arrayComponents(value), c.count == width else { return nil }
            return c
        case .object:
            return nil
        }
    }

    /// The components of an array of numbers (one each) or of colours (four each); nil for
    /// anything else, an empty array included.
    static func arrayComponents(_ value: Any) -> [Double]? {
        guard let items = value as? [Any], !items.isEmpty else { return nil }
        if items.allSatisfy({ $0 is CGColor }) { return items.flatMap { rgba($0 as! CGColor) } }
        var c: [Double] = []
        for item in items {
            guard let x = number(item) else { return nil }
            c.append(x)
        }
        return c
    }

    /// `value` as an NSValue wrapping a point, size or rectangle (`NSValue(point:)` ...)
    /// whose type encoding starts with `prefix`; numbers are not.
    static func wrapped(_ value: Any, _ prefix: String) -> NSValue? { NSValueShape.wrapped(value, prefix) }

    /// The Swift value of components of `kind` (what `value(forKeyPath:)` returns).
    static func box(_ c: [Double], kind: ValueKind) -> Any? {
        switch kind {
        case .cgFloat, .timing: return CGFloat(c[0])
        case .float: return Float(c[0])
        case .bool: return c[0] >= 0.5
        case .point: return CGPoint(x: c[0], y: c[1])
        case .size: return CGSize(width: c[0], height: c[1])
        case .rect: return CGRect(x: c[0], y: c[1], width: c[2], height: c[3])
        case .color: return color(c)
        case .transform: return transform(c)
        case .object, .array: return nil
        }
    }

    /// Are the components usable: all finite (a nil colour, all NaN, is fine)?
    static func isFinite(_ c: [Double], kind: ValueKind) -> Bool {
        if kind == .color && c.allSatisfy({ $0.isNaN }) { return true }
        return c.allSatisfy { $0.isFinite }
    }
}

/// The Swift type of a custom key's value, so an animated custom value is handed back as the
/// type the model holds (a Double stays a Double).
enum CustomValueType {
    case double, cgFloat, float, int, nsNumber, point, size, rect, color, transform
    /// NSValue-wrapped points, sizes and rectangles, boxed back as NSValue.
    case pointValue, sizeValue, rectValue
    /// A transform wrapped by `NSValue(caTransform3D:)`, boxed back so.
    case transformValue
    /// Arrays of numbers, boxed back as the array type the model holds (`[NSNumber]` for
    /// arrays of NSNumber, Int or a mix), and arrays of colours.
    case doubleArray, cgFloatArray, floatArray, numberArray, colorArray

    /// The type, value kind and width of `value`, or nil when it cannot be interpolated.
    static func of(_ value: Any) -> (CustomValueType, ValueKind, Int)? {
        // Before the cast to CATransform3D, which an NSValue of one passes (it bridges).
        if NSValueShape.transform3D(value) != nil { return (.transformValue, .transform, 16) }
        switch value {
        case is CGFloat: return (.cgFloat, .cgFloat, 1)
        case is Double: return (.double, .cgFloat, 1)
        case is Float: return (.float, .float, 1)
        case is Int: return (.int, .cgFloat, 1)
        case is NSNumber: return (.nsNumber, .cgFloat, 1)
        case is CGPoint: return (.point, .point, 2)
        case is CGSize: return (.size, .size, 2)
        case is CGRect: return (.rect, .rect, 4)
        case is CGColor: return (.color, .color, 4)
        case is CATransform3D: return (.transform, .transform, 16)
        default:
            if Boxing.wrapped(value, "{CGPoint") != nil { return (.pointValue, .point, 2) }
            if Boxing.wrapped(value, "{CGSize") != nil { return (.sizeValue, .size, 2) }
            if Boxing.wrapped(value, "{CGRect") != nil { return (.rectValue, .rect, 4) }
            guard let c = Boxing.arrayComponents(value) else { return nil }
            let type: CustomValueType
            switch value {
            case is [CGFloat]: type = .cgFloatArray
            case is [Double]: type = .doubleArray
            case is [Float]: type = .floatArray
            case is [CGColor]: type = .colorArray
            default: type = (value as? [Any])?.allSatisfy({ $0 is CGColor }) == true ? .colorArray : .numberArray
            }
            return (type, .array, c.count)
        }
    }

    /// Components boxed as this type.
    func box(_ c: [Double]) -> Any {
        switch self {
        case .double: return c[0]
        case .cgFloat: return CGFloat(c[0])
        case .float: return Float(c[0])
        case .int: return Int(c[0].rounded())
        case .nsNumber: return NSNumber(value: c[0])
        case .point: return CGPoint(x: c[0], y: c[1])
        case .size: return CGSize(width: c[0], height: c[1])
        case .rect: return CGRect(x: c[0], y: c[1], width: c[2], height: c[3])
        case .color: return CGColor(red: CGFloat(c[0]), green: CGFloat(c[1]), blue: CGFloat(c[2]), alpha: CGFloat(c[3]))
        case .transform: return Boxing.transform(c)
        case .transformValue: return NSValue(caTransform3D: Boxing.transform(c))
        case .pointValue: return NSValue(point: CGPoint(x: c[0], y: c[1]))
        case .sizeValue: return NSValue(size: CGSize(width: c[0], height: c[1]))
        case .rectValue: return NSValue(rect: CGRect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .doubleArray: return c
        case .cgFloatArray: return c.map { CGFloat($0) }
        case .floatArray: return c.map { Float($0) }
        case .numberArray: return c.map { NSNumber(value: $0) }
        case .colorArray:
            return stride(from: 0, to: c.count - 3, by: 4).map {
                CGColor(red: CGFloat(c[$0]), green: CGFloat(c[$0 + 1]), blue: CGFloat(c[$0 + 2]), alpha: CGFloat(c[$0 + 3]))
            }
        }
    }
}
