import Foundation

/// Lanes of one property value on the stack (at most 16: a transform).
typealias Lanes = SIMD16<Double>

extension SIMD16 where Scalar == Double {
    /// `width` doubles from `p` in the first lanes, 0 in the others. The usual widths take
    /// constant lane indices (a transform, one load): a loop over a variable lane index was
    /// lowered to a store of the whole vector, the lane, and a reload of the whole vector for
    /// each lane, a store-forwarding stall each (45% of the opacity setter's own time).
    @inline(__always)
    init(loading p: UnsafePointer<Double>, width w: Int) {
        self.init()
        switch w {
        case 1: self[0] = p[0]
        case 2: self[0] = p[0]; self[1] = p[1]
        case 4: self[0] = p[0]; self[1] = p[1]; self[2] = p[2]; self[3] = p[3]
        case 16: self = UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Double>.self)
        default: for c in 0..<w { self[c] = p[c] }
        }
    }

    /// `width` doubles of `values` from `offset` (a presentation copy's lanes, a property's
    /// defaults), read as `init(loading:width:)` reads a column.
    @inline(__always)
    init(_ values: [Double], from offset: Int = 0, width w: Int) {
        self = values.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress, w > 0 else { return SIMD16() }
            return SIMD16(loading: base + offset, width: w)
        }
    }

    /// Stores the first `width` lanes at `p`, with the constant lane indices of
    /// `init(loading:width:)` (a loop over a variable lane index spills the whole vector for
    /// each lane).
    @inline(__always)
    func store(to p: UnsafeMutablePointer<Double>, width w: Int) {
        switch w {
        case 1: p[0] = self[0]
        case 2: p[0] = self[0]; p[1] = self[1]
        case 4: p[0] = self[0]; p[1] = self[1]; p[2] = self[2]; p[3] = self[3]
        case 16: UnsafeMutableRawPointer(p).storeBytes(of: self, as: SIMD16<Double>.self)
        default: for c in 0..<w { p[c] = self[c] }
        }
    }

    /// Whether the first `width` lanes are all finite (constant lane indices, as above).
    @inline(__always)
    func isFinite(width w: Int) -> Bool {
        switch w {
        case 1: return self[0].isFinite
        case 2: return self[0].isFinite && self[1].isFinite
        case 4: return self[0].isFinite && self[1].isFinite && self[2].isFinite && self[3].isFinite
        default:
            for c in 0..<w where !self[c].isFinite { return false }
            return true
        }
    }
}
