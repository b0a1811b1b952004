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
        /// Shadow of what is drawn next (`color` empty: none).
        case setShadow(offset: CGSize, blur: CGFloat, color: [CGFloat])
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
    /// Sets how lines end (recorded as the shape layer's equivalent cap).
    public func setLineCap(_ cap: CGLineCap) { operations.append(.setLineCap(cap.shapeLayerCap)) }
    /// Sets how lines join (recorded as the shape layer's equivalent join).
    public func setLineJoin(_ join: CGLineJoin) { operations.append(.setLineJoin(join.shapeLayerJoin)) }
    /// Sets the fill colour from its components.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        operations.append(.setFillColor([red, green, blue, alpha]))
    }
    /// Sets the stroke colour from its components.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        operations.append(.setStrokeColor([red, green, blue, alpha]))
    }
    /// Sets the fill colour to a grey.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { operations.append(.setFillColor([gray, alpha])) }
    /// Sets the stroke colour to a grey.
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { operations.append(.setStrokeColor([gray, alpha])) }
    /// Sets the shadow of what is drawn next (`color` nil: no shadow).
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        operations.append(.setShadow(offset: offset, blur: blur, color: color?.components ?? []))
    }
    /// Sets a shadow of a third of black's opacity (Core Graphics' default colour).
    public func setShadow(offset: CGSize, blur: CGFloat) {
        operations.append(.setShadow(offset: offset, blur: blur, color: [0, 0, 0, 1.0 / 3]))
    }
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
    /// Adds an arc of the circle about `center` to the current path (`CGMutablePath.addArc`'s
    /// angles and direction).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }
    /// Adds the arc tangent to the lines through the current point, `tangent1End` and
    /// `tangent2End` (a rounded corner).
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        path.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius)
    }
    /// Adds straight lines through `points` (a move to the first).
    public func addLines(between points: [CGPoint]) { path.addLines(between: points) }
    /// Adds rectangles, each a closed subpath.
    public func addRects(_ rects: [CGRect]) { path.addRects(rects) }
    /// Whether the current path has no elements.
    public var isPathEmpty: Bool { path.isEmpty }

    /// Fills the current path (`evenOdd`: the even-odd rule) and starts a new one.
    public func fillPath(using rule: CAShapeLayerFillRule = .nonZero) { usePath(.fillPath(evenOdd: rule == .evenOdd)) }
    public func strokePath() { usePath(.strokePath) }
    public func clip(using rule: CAShapeLayerFillRule = .nonZero) { usePath(.clip(evenOdd: rule == .evenOdd)) }
    /// Fills, strokes or both (fill first) the current path, as `mode` says, and starts a new one.
    public func drawPath(using mode: CGPathDrawingMode) {
        let elements = path.elements
        let evenOdd = mode == .eoFill || mode == .eoFillStroke
        if mode != .stroke {
            operations.append(.addPath(elements))
            operations.append(.fillPath(evenOdd: evenOdd))
        }
        if mode == .stroke || mode == .fillStroke || mode == .eoFillStroke {
            operations.append(.addPath(elements))
            operations.append(.strokePath)
        }
        path = CGMutablePath()
    }
    /// Restricts drawing to `rect` (a clip of the rectangle's path).
    public func clip(to rect: CGRect) {
        let r = CGMutablePath()
        r.addRect(rect)
        operations.append(.addPath(r.elements))
        operations.append(.clip(evenOdd: false))
    }

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

    /// Draws what `other` recorded into this context, under this context's current
    /// transformation (`render(in:)` draws a layer's recorded contents so).
    package func replay(_ other: CGContext) {
        saveGState()
        for op in other.operations {
            switch op {
            case .saveGState: saveGState()
            case .restoreGState: restoreGState()
            case .concatenate(let t): concatenate(t)
            default: operations.append(op)
            }
        }
        restoreGState()
    }

    /// Records a fill or stroke of `elements` (a path built elsewhere) at once.
    package func record(_ elements: [PathElement], _ op: Operation) {
        operations.append(.addPath(elements))
        operations.append(op)
    }

    /// Records one operation as it is (a shape layer's own line cap and join).
    package func record(_ op: Operation) { operations.append(op) }
}

/// How `CGContext.drawPath(using:)` paints the current path.
public enum CGPathDrawingMode: Int32, Sendable {
    /// Fills with the non-zero winding rule.
    case fill
    /// Fills with the even-odd rule.
    case eoFill
    /// Strokes.
    case stroke
    /// Fills (non-zero), then strokes.
    case fillStroke
    /// Fills (even-odd), then strokes.
    case eoFillStroke
}

/// Core Graphics' line ends.
public enum CGLineCap: Int32, Sendable {
    /// Squared off at the end point.
    case butt
    /// A half circle past the end point.
    case round
    /// A half square past the end point.
    case square

    var shapeLayerCap: CAShapeLayerLineCap {
        switch self {
        case .butt: return .butt
        case .round: return .round
        case .square: return .square
        }
    }
}

/// Core Graphics' line joins.
public enum CGLineJoin: Int32, Sendable {
    /// A sharp corner.
    case miter
    /// A rounded corner.
    case round
    /// A cut-off corner.
    case bevel

    var shapeLayerJoin: CAShapeLayerLineJoin {
        switch self {
        case .miter: return .miter
        case .round: return .round
        case .bevel: return .bevel
        }
    }
}
