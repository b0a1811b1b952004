import Foundation

/// `frame`, derived from bounds, position, anchor point and transform: one source for both
/// engines (Layers/Toolbox is compiled into StrataReference too), each `frame` forwarding here.
extension CALayer {
    /// `frame`'s getter: derived from bounds, position, anchor point and transform.
    func frameFromGeometry() -> CGRect {
        let b = bounds, p = position, a = anchorPoint
        let local = CGRect(x: -a.x * b.width, y: -a.y * b.height, width: b.width, height: b.height)
        let t = transform
        let r: CGRect
        if CATransform3DIsIdentity(t) {
            r = local
        } else {
            r = local.applying(CATransform3DGetAffineTransform(t))
        }
        return CGRect(x: p.x + r.origin.x, y: p.y + r.origin.y, width: r.width, height: r.height)
    }

    /// `frame`'s setter: writes bounds size and position (refused when not finite).
    func setFrameThroughGeometry(_ newValue: CGRect) {
        guard [newValue.origin.x, newValue.origin.y, newValue.width, newValue.height].allSatisfy({ $0.isFinite }) else {
            StrataDiagnostics.emit(.nonFiniteValue, "frame = \(newValue): coordinates must be finite; ignored")
            return
        }
        let a = anchorPoint
        var b = bounds
        b.size = newValue.size
        let p = CGPoint(x: newValue.origin.x + a.x * newValue.width, y: newValue.origin.y + a.y * newValue.height)
        position = p
        bounds = b
    }
}
