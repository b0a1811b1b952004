import Foundation

/// The Swift type of a custom key's value, so an animated custom value is handed back as
/// the type the model holds (a Double stays a Double).
enum CustomValueType {
    case double, cgFloat, float, int, nsNumber, point, size, rect, color, transform
    /// Points, sizes and rectangles wrapped in NSValue: boxed back the same way.
    case pointValue, sizeValue, rectValue
    /// A transform wrapped by `NSValue(caTransform3D:)`, boxed back so.
    case transformValue
    /// Arrays of numbers, boxed back as the array type the model holds (`[NSNumber]` for
    /// arrays of NSNumber, Int or a mix), and arrays of colours.
    case doubleArray, cgFloatArray, floatArray, numberArray, colorArray

    /// The type, lane kind and width of `v`, or nil when it cannot be interpolated.
    static func of(_ v: Any) -> (CustomValueType, ValueKind, Int)? {
        // Before the cast to CATransform3D, which an NSValue of one passes (it bridges).
        if NSValueShape.transform3D(v) != nil { return (.transformValue, .transform, 16) }
        switch v {
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
            if NSValueShape.point(v) != nil { return (.pointValue, .point, 2) }
            if NSValueShape.size(v) != nil { return (.sizeValue, .size, 2) }
            if NSValueShape.rect(v) != nil { return (.rectValue, .rect, 4) }
            guard let width = LaneValue.arrayWidth(v) else { return nil }
            let type: CustomValueType
            switch v {
            case is [CGFloat]: type = .cgFloatArray
            case is [Double]: type = .doubleArray
            case is [Float]: type = .floatArray
            case is [CGColor]: type = .colorArray
            default: type = (v as? [Any])?.allSatisfy({ $0 is CGColor }) == true ? .colorArray : .numberArray
            }
            return (type, .array, width)
        }
    }

    /// Lanes boxed as this type.
    func box(_ l: [Double]) -> Any { l.withUnsafeBufferPointer { box($0.baseAddress!, width: l.count) } }

    /// `width` lanes at `l` boxed as this type (the width matters for arrays only).
    func box(_ l: UnsafePointer<Double>, width: Int) -> Any {
        switch self {
        case .doubleArray: return Array(UnsafeBufferPointer(start: l, count: width))
        case .cgFloatArray: return (0..<width).map { CGFloat(l[$0]) }
        case .floatArray: return (0..<width).map { Float(l[$0]) }
        case .numberArray: return (0..<width).map { NSNumber(value: l[$0]) }
        case .colorArray: return stride(from: 0, to: width - 3, by: 4).map { CGColor(rgba: SIMD4(l[$0], l[$0 + 1], l[$0 + 2], l[$0 + 3])) }
        default: return box(l)
        }
    }

    /// Lanes at `l` boxed as this type (not an array type).
    func box(_ l: UnsafePointer<Double>) -> Any {
        switch self {
        case .double: return l[0]
        case .cgFloat: return CGFloat(l[0])
        case .float: return Float(l[0])
        case .int: return Int(l[0].rounded())
        case .nsNumber: return NSNumber(value: l[0])
        case .point: return CGPoint(x: l[0], y: l[1])
        case .size: return CGSize(width: l[0], height: l[1])
        case .rect: return CGRect(x: l[0], y: l[1], width: l[2], height: l[3])
        case .color: return CGColor(rgba: SIMD4(l[0], l[1], l[2], l[3]))
        case .transform: return LaneValue.transform(l)
        case .transformValue: return NSValue(caTransform3D: LaneValue.transform(l))
        case .pointValue: return NSValue(point: CGPoint(x: l[0], y: l[1]))
        case .sizeValue: return NSValue(size: CGSize(width: l[0], height: l[1]))
        case .rectValue: return NSValue(rect: CGRect(x: l[0], y: l[1], width: l[2], height: l[3]))
        case .doubleArray, .cgFloatArray, .floatArray, .numberArray, .colorArray:
            preconditionFailure("arrays box with their width: box(_:width:)")
        }
    }
}

/// A custom key's animated value as lanes, boxed as its type when read: values that would
/// not box inline in `Any` (arrays, colours, rectangles, transforms) are kept this way frame
/// after frame in one reused buffer, so evaluating them allocates nothing.
final class CustomLanes {
    private(set) var capacity: Int
    private(set) var width: Int
    private(set) var type: CustomValueType
    private let lanes: Slab<Double>

    init(_ value: UnsafeMutablePointer<Double>, width: Int, type: CustomValueType) {
        capacity = max(width, 4)
        lanes = .allocate(capacity: capacity)
        self.width = 0
        self.type = type
        set(value, width: width, type: type)
    }

    deinit { lanes.free() }

    func set(_ value: UnsafeMutablePointer<Double>, width: Int, type: CustomValueType) {
        precondition(width <= capacity)
        lanes.base.update(from: value, count: width)
        self.width = width
        self.type = type
    }

    /// The lanes themselves, lent: a custom track's direct slot writes its value here each
    /// frame (the slot retains this holder for as long as it holds the span).
    var lanesSpan: ColumnSpan<Double> { lanes.span }

    /// The value boxed as its type.
    var boxed: Any { type.box(UnsafePointer(lanes.base), width: width) }

    /// `v` itself, or its value when it is a `CustomLanes`.
    static func value(_ v: Any?) -> Any? {
        if let l = v as? CustomLanes { return l.boxed }
        return v
    }

    /// Whether a value of this type and width boxes inline in `Any` (no allocation).
    static func boxesInline(_ type: CustomValueType, _ width: Int) -> Bool {
        switch type {
        case .double, .cgFloat, .float, .int, .point, .size: return true
        default: return false
        }
    }
}
