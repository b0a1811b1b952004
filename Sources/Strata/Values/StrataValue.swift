import Foundation

/// Conversions between Core Animation's boxed values and lanes, done once at the boundary.
enum LaneValue {
    /// A scalar from any of the numeric types the API accepts.
    static func scalar(_ v: Any) -> Double? {
        // The exact types first, by metatype: a failed cast of `Any` searches the runtime's
        // conformance cache for a bridge, hundreds of instructions, and `values: [1, 0.2]`
        // holds an Int and a Double, each tried after the types above it in the switch.
        let t = type(of: v)
        if t == Double.self { return v as? Double }
        if t == Int.self { return (v as? Int).map(Double.init) }
        if t == CGFloat.self { return (v as? CGFloat).map(Double.init) }
        if t == Float.self { return (v as? Float).map(Double.init) }
        switch v {
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

    /// Lanes of `v` for a value of `kind` (`width` lanes), or nil if the type does not fit.
    /// A nil colour becomes NaN lanes (the model's "no colour").
    static func lanes(_ v: Any?, kind: ValueKind, width: Int) -> [Double]? {
        guard let v else { return kind == .color ? PropertyTable.nilColor : nil }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: max(16, width)) { buffer in
            write(v, kind: kind, width: width, into: buffer.baseAddress!).map { Array(buffer[0..<$0]) }
        }
    }

    static func transformLanes(_ t: CATransform3D) -> [Double] {
        [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
         t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map { Double($0) }
    }

    /// Writes `t`'s 16 lanes at `l` (no array: the frame's paths allocate nothing).
    @inline(__always)
    static func store(_ t: CATransform3D, into l: UnsafeMutablePointer<Double>) {
        l[0] = Double(t.m11); l[1] = Double(t.m12); l[2] = Double(t.m13); l[3] = Double(t.m14)
        l[4] = Double(t.m21); l[5] = Double(t.m22); l[6] = Double(t.m23); l[7] = Double(t.m24)
        l[8] = Double(t.m31); l[9] = Double(t.m32); l[10] = Double(t.m33); l[11] = Double(t.m34)
        l[12] = Double(t.m41); l[13] = Double(t.m42); l[14] = Double(t.m43); l[15] = Double(t.m44)
    }

    /// Writes the lanes of `v` (a value of `kind`) at `l`, which has room for 16 (for arrays:
    /// `width`), and returns
    /// how many (the kind's own count; a `StrataValue` fits only with `width` lanes), or nil,
    /// with nothing written, when the type does not fit. The allocation-free form of
    /// `lanes(_:kind:width:)`.
    static func write(_ v: Any, kind: ValueKind, width: Int, into l: UnsafeMutablePointer<Double>) -> Int? {
        let t = type(of: v)
        // An optional in an `Any` (`values = xs.map { $0 as Any }` of optionals): the casts
        // below see through it, so its payload is the value.
        if t == Optional<Any>.self, let wrapped = v as? OptionalInAny, let payload = wrapped.payload {
            return write(payload, kind: kind, width: width, into: l)
        }
        // A value of one of the kinds' own types, known by its metatype, is no StrataValue:
        // it skips that cast, which fails through a search of the runtime's conformance
        // cache, and the switch below takes it with its first cast.
        let ownType = t == Double.self || t == Int.self || t == CGFloat.self || t == Float.self
            || t == CGPoint.self || t == CGSize.self || t == CGRect.self || t == CATransform3D.self
        if !ownType, let s = v as? StrataValue {
            guard s.lanes.count == width else { return nil }
            for c in 0..<width { l[c] = s.lanes[c] }
            return width
        }
        switch kind {
        case .cgFloat, .float, .bool, .timing:
            guard let x = scalar(v) else { return nil }
            l[0] = x
            return 1
        case .point:
            guard let p = v as? CGPoint ?? NSValueShape.point(v) else { return nil }
            l[0] = Double(p.x); l[1] = Double(p.y)
            return 2
        case .size:
            guard let s = v as? CGSize ?? NSValueShape.size(v) else { return nil }
            l[0] = Double(s.width); l[1] = Double(s.height)
            return 2
        case .rect:
            guard let r = v as? CGRect ?? NSValueShape.rect(v) else { return nil }
            l[0] = Double(r.origin.x); l[1] = Double(r.origin.y); l[2] = Double(r.size.width); l[3] = Double(r.size.height)
            return 4
        case .color:
            guard let c = v as? CGColor else { return nil }
            let x = c.rgba
            l[0] = x[0]; l[1] = x[1]; l[2] = x[2]; l[3] = x[3]
            return 4
        case .transform:
            if let t = v as? CATransform3D { store(t, into: l); return 16 }
            if let a = v as? CGAffineTransform { store(CATransform3DMakeAffineTransform(a), into: l); return 16 }
            return nil
        case .array:
            return arrayLanes(v, width: width, into: l)
        case .object:
            return nil
        }
    }

    /// Writes the lanes of an array of numbers (one each) or of colours (four each) when it
    /// has `width` of them, and returns how many; nil for anything else (an empty array too).
    static func arrayLanes(_ v: Any, width: Int, into l: UnsafeMutablePointer<Double>) -> Int? {
        guard let items = v as? [Any], !items.isEmpty else { return nil }
        if items.allSatisfy({ $0 is CGColor }) {
            guard items.count * 4 == width else { return nil }
            for (i, c) in items.enumerated() {
                let x = (c as! CGColor).rgba
                l[4 * i] = x[0]; l[4 * i + 1] = x[1]; l[4 * i + 2] = x[2]; l[4 * i + 3] = x[3]
            }
            return width
        }
        guard items.count == width else { return nil }
        for (i, item) in items.enumerated() {
            guard let x = scalar(item) else { return nil }
            l[i] = x
        }
        return width
    }

    /// Lanes an array of numbers or colours has (see `arrayLanes`), or nil.
    static func arrayWidth(_ v: Any) -> Int? {
        guard let items = v as? [Any], !items.isEmpty else { return nil }
        if items.allSatisfy({ $0 is CGColor }) { return 4 * items.count }
        for item in items { guard scalar(item) != nil else { return nil } }
        return items.count
    }

    static func transform(_ l: UnsafePointer<Double>) -> CATransform3D {
        CATransform3D(m11: l[0], m12: l[1], m13: l[2], m14: l[3], m21: l[4], m22: l[5], m23: l[6], m24: l[7],
                      m31: l[8], m32: l[9], m33: l[10], m34: l[11], m41: l[12], m42: l[13], m43: l[14], m44: l[15])
    }

    /// The typed Swift value of lanes of `kind` (the value `value(forKeyPath:)` returns).
    static func box(_ l: UnsafePointer<Double>, kind: ValueKind) -> Any? {
        switch kind {
        case .cgFloat, .timing: return CGFloat(l[0])
        case .float: return Float(l[0])
        case .bool: return l[0] >= 0.5
        case .point: return CGPoint(x: l[0], y: l[1])
        case .size: return CGSize(width: l[0], height: l[1])
        case .rect: return CGRect(x: l[0], y: l[1], width: l[2], height: l[3])
        case .color: return l[0].isNaN ? nil : CGColor(rgba: SIMD4(l[0], l[1], l[2], l[3]))
        case .transform: return transform(l)
        case .object, .array: return nil
        }
    }

    /// Are all lanes finite (colours: NaN is "nil" only when every lane is)?
    static func finite(_ l: [Double], kind: ValueKind) -> Bool {
        if kind == .color && l.allSatisfy({ $0.isNaN }) { return true }
        return l.allSatisfy { $0.isFinite }
    }
}

/// An optional held in an `Any`, seen through: its payload, or nil.
private protocol OptionalInAny {
    var payload: Any? { get }
}

extension Optional: OptionalInAny {
    fileprivate var payload: Any? { map { $0 as Any } }
}
