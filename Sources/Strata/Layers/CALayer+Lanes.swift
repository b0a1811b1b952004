import Foundation

extension CALayer {
    @inline(__always) func point(_ p: PropertyID) -> CGPoint {
        // A live copy's two lanes, read in place (`presentation()?.position`: through
        // `readLanes` every read built the 16-lane vector in an out-of-line call).
        if _slowPath(row < 0), let v = liveCopyLanes(p, width: 2) { return CGPoint(x: v[0], y: v[1]) }
        let l = readLanes(p); return CGPoint(x: l[0], y: l[1])
    }
    @inline(__always) func setPoint(_ p: PropertyID, _ v: CGPoint) {
        var l = Lanes(); l[0] = Double(v.x); l[1] = Double(v.y); writeLanes(p, l)
    }
    @inline(__always) func rect(_ p: PropertyID) -> CGRect {
        if _slowPath(row < 0), let v = liveCopyLanes(p, width: 4) { return CGRect(x: v[0], y: v[1], width: v[2], height: v[3]) }
        let l = readLanes(p); return CGRect(x: l[0], y: l[1], width: l[2], height: l[3])
    }
    @inline(__always) func setRect(_ p: PropertyID, _ v: CGRect) {
        var l = Lanes()
        l[0] = Double(v.origin.x); l[1] = Double(v.origin.y); l[2] = Double(v.size.width); l[3] = Double(v.size.height)
        writeLanes(p, l)
    }
    @inline(__always) func color(_ p: PropertyID) -> CGColor? {
        let l = readLanes(p)
        if l[0].isNaN { return nil }
        return CGColor(rgba: SIMD4(l[0], l[1], l[2], l[3]))
    }
    @inline(__always) func setColor(_ p: PropertyID, _ v: CGColor?) {
        var l = Lanes()
        if let v { let c = v.rgba; l[0] = c[0]; l[1] = c[1]; l[2] = c[2]; l[3] = c[3] } else {
            l[0] = .nan; l[1] = .nan; l[2] = .nan; l[3] = .nan
        }
        writeLanes(p, l)
    }
    @inline(__always) func transform3D(_ p: PropertyID) -> CATransform3D {
        var l = readLanes(p)
        return withUnsafePointer(to: &l) { $0.withMemoryRebound(to: Double.self, capacity: 16) { LaneValue.transform($0) } }
    }
    @inline(__always) func setTransform3D(_ p: PropertyID, _ t: CATransform3D) {
        var l = Lanes()
        let v = LaneValue.transformLanes(t)
        for c in 0..<16 { l[c] = v[c] }
        writeLanes(p, l)
    }
}
