import Foundation

/// A drawing context that records what is drawn into it, in order (Core Graphics' `CGContext`
/// spelling; there is no rasteriser here). A layer's `display()` hands one to `draw(in:)` and
/// keeps it as the layer's `contents`, where a renderer (or a test) reads `operations`.
///
///     override func draw(in ctx: CGContext) {
///         ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
///         ctx.fill(bounds)
///     }
public final class CGContext {
    /// One recorded call.
    public enum Operation: Equatable, Sendable {
        case saveGState, restoreGState
        case concatenate(CGAffineTransform)
        case setFillColor([CGFloat]), setStrokeColor([CGFloat])
        case setLineWidth(CGFloat), setAlpha(CGFloat)
        case setLineCap(CAShapeLayerLineCap), setLineJoin(CAShapeLayerLineJoin)
        case setLineDash(phase: CGFloat, lengths: [CGFloat])
        case addPath([PathElement])
        case fillPath(evenOdd: Bool), strokePath, clip(evenOdd: Bool)
        case fill(CGRect), stroke(CGRect), fillEllipse(CGRect), strokeEllipse(CGRect), clear(CGRect)
        case drawText(String, at: CGPoint)
    }

    /// The size of the drawing, in points.
    public let size: CGSize
    /// Pixels per point (the layer's `contentsScale`).
    public let scale: CGFloat
    /// What has been drawn, in order.
    public private(set) var operations: [Operation] = []
    /// The current transformation matrix (user space to the context's points).
    public private(set) var ctm: CGAffineTransform = .identity
    private var saved: [CGAffineTransform] = []
    private var path = CGMutablePath()

    /// A context of `size` points at `scale` pixels per point.
    public init(size: CGSize, scale: CGFloat = 1) {
        self.size = size
        self.scale = scale
    }

    public func saveGState() { saved.append(ctm); operations.append(.saveGState) }
    public func restoreGState() {
        if let m = saved.popLast() { ctm = m }
        operations.append(.restoreGState)
    }
    public func concatenate(_ transform: CGAffineTransform) {
        ctm = transform.concatenating(ctm)
        operations.append(.concatenate(transform))
    }
    public func translateBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(translationX: x, y: y)) }
    public func scaleBy(x: CGFloat, y: CGFloat) { concatenate(CGAffineTransform(scaleX: x, y: y)) }
    public func rotate(by angle: CGFloat) { concatenate(CGAffineTransform(rotationAngle: angle)) }

    public func setFillColor(_ color: CGColor) { operations.append(.setFillColor(color.components ?? [])) }
    public func setStrokeColor(_ color: CGColor) { operations.append(.setStrokeColor(color.components ?? [])) }
    public func setLineWidth(_ width: CGFloat) { operations.append(.setLineWidth(width)) }
    public func setAlpha(_ alpha: CGFloat) { operations.append(.setAlpha(alpha)) }
    public func setLineCap(_ cap: CAShapeLayerLineCap) { operations.append(.setLineCap(cap)) }
    public func setLineJoin(_ join: CAShapeLayerLineJoin) { operations.append(.setLineJoin(join)) }
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) { operations.append(.setLineDash(phase: phase, lengths: lengths)) }

    /// Path construction: the current path, used up by the next fill, stroke or clip.
    public func beginPath() { path = CGMutablePath() }
    public func move(to p: CGPoint) { path.move(to: p) }
    public func addLine(to p: CGPoint) { path.addLine(to: p) }
    public func addCurve(to p: CGPoint, control1: CGPoint, control2: CGPoint) { path.addCurve(to: p, control1: control1, control2: control2) }
    public func addQuadCurve(to p: CGPoint, control: CGPoint) { path.addQuadCurve(to: p, control: control) }
    public func addRect(_ rect: CGRect) { path.addRect(rect) }
    public func addEllipse(in rect: CGRect) { path.addEllipse(in: rect) }
    public func addPath(_ p: CGPath) { path.addPath(p) }
    public func closePath() { path.closeSubpath() }

    /// Fills the current path (`evenOdd`: the even-odd rule) and starts a new one.
    public func fillPath(using rule: CAShapeLayerFillRule = .nonZero) { usePath(.fillPath(evenOdd: rule == .evenOdd)) }
    public func strokePath() { usePath(.strokePath) }
    public func clip(using rule: CAShapeLayerFillRule = .nonZero) { usePath(.clip(evenOdd: rule == .evenOdd)) }

    public func fill(_ rect: CGRect) { operations.append(.fill(rect)) }
    public func stroke(_ rect: CGRect) { operations.append(.stroke(rect)) }
    public func fillEllipse(in rect: CGRect) { operations.append(.fillEllipse(rect)) }
    public func strokeEllipse(in rect: CGRect) { operations.append(.strokeEllipse(rect)) }
    public func clear(_ rect: CGRect) { operations.append(.clear(rect)) }
    /// Records text drawn at a point (the text layer's and applications' labels).
    public func draw(text: String, at point: CGPoint) { operations.append(.drawText(text, at: point)) }

    private func usePath(_ op: Operation) {
        operations.append(.addPath(path.elements))
        operations.append(op)
        path = CGMutablePath()
    }
}
