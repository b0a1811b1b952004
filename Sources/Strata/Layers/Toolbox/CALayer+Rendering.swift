import Foundation

// `render(in:)` (both engines): the layer tree drawn into a recording `CGContext`, in the
// order Core Animation composites a layer: background, contents, a shape layer's path,
// sublayers, border. The values drawn are the receiver's own: a model layer draws its model
// values ("ignoring any animations added to the render tree", Apple's documentation), a
// presentation copy its presented ones.

extension CALayer {
    /// Draws this layer (`alpha`: the opacity of its ancestors, multiplied) and its sublayers
    /// into `ctx`, whose current transformation maps this layer's bounds coordinates.
    func renderTree(in ctx: CGContext, alpha: CGFloat) {
        guard !isHidden else { return }
        let opacity = alpha * CGFloat(opacity)
        guard opacity > 0 else { return }
        let b = bounds
        ctx.saveGState()
        if opacity < 1 { ctx.setAlpha(opacity) }
        let outline = renderOutline(b)
        if let bg = backgroundColor, bg.alpha > 0 {
            ctx.setFillColor(bg)
            ctx.record(outline, .fillPath(evenOdd: false))
        }
        if masksToBounds { ctx.record(outline, .clip(evenOdd: false)) }
        if let drawing = contents as? CGContext {
            // The recorded drawing fills the bounds (gravity `resize`).
            ctx.saveGState()
            ctx.translateBy(x: b.minX, y: b.minY)
            if drawing.size.width > 0, drawing.size.height > 0, drawing.size != b.size {
                ctx.scaleBy(x: b.width / drawing.size.width, y: b.height / drawing.size.height)
            }
            ctx.replay(drawing)
            ctx.restoreGState()
        }
        if let shape = self as? CAShapeLayer { shape.renderPath(in: ctx) }
        if let text = self as? CATextLayer, let s = text.string as? String, !s.isEmpty {
            if let c = text.foregroundColor { ctx.setFillColor(c) }
            ctx.draw(text: s, at: CGPoint(x: b.minX, y: b.minY))
        }
        renderSublayers(in: ctx, alpha: opacity)
        if borderWidth > 0, let c = borderColor, c.alpha > 0 {
            ctx.setStrokeColor(c)
            ctx.setLineWidth(borderWidth)
            let inset = b.insetBy(dx: borderWidth / 2, dy: borderWidth / 2)
            ctx.record(renderOutline(inset, radius: max(0, cornerRadius - borderWidth / 2)), .strokePath)
        }
        ctx.restoreGState()
    }

    /// The bounds' outline: a rectangle, with rounded corners for a corner radius.
    private func renderOutline(_ r: CGRect, radius: CGFloat? = nil) -> [PathElement] {
        let radius = min(radius ?? cornerRadius, r.width / 2, r.height / 2)
        guard radius > 0 else { return CGPath(rect: r, transform: nil).elements }
        return CGPath(roundedRect: r, cornerWidth: radius, cornerHeight: radius, transform: nil).elements
    }

    /// Each visible sublayer in its place: moved to its position, turned by the
    /// `sublayerTransform` (about this layer's anchor point) and its own affine transform
    /// (about its anchor point), in ascending `zPosition` (sublayer order among equals).
    private func renderSublayers(in ctx: CGContext, alpha: CGFloat) {
        guard let subs = sublayers, !subs.isEmpty else { return }
        let order = subs.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
        let b = bounds
        let pivot = CGPoint(x: b.minX + anchorPoint.x * b.width, y: b.minY + anchorPoint.y * b.height)
        let outer = sublayerTransform
        for (_, sub) in order where !sub.isHidden {
            let t = sub.transform
            // Apple draws no layer with a 3-D transform (nor under one).
            guard CATransform3DIsAffine(t), CATransform3DIsAffine(outer) else { continue }
            let sb = sub.bounds
            ctx.saveGState()
            if !CATransform3DIsIdentity(outer) {
                ctx.translateBy(x: pivot.x, y: pivot.y)
                ctx.concatenate(CATransform3DGetAffineTransform(outer))
                ctx.translateBy(x: -pivot.x, y: -pivot.y)
            }
            ctx.translateBy(x: sub.position.x, y: sub.position.y)
            if !CATransform3DIsIdentity(t) { ctx.concatenate(CATransform3DGetAffineTransform(t)) }
            ctx.translateBy(x: -sub.anchorPoint.x * sb.width - sb.minX, y: -sub.anchorPoint.y * sb.height - sb.minY)
            sub.renderTree(in: ctx, alpha: alpha)
            ctx.restoreGState()
        }
    }
}

extension CAShapeLayer {
    /// The path filled (fill rule, fill colour), then stroked between `strokeStart` and
    /// `strokeEnd` with the line's width, cap, join and dashes.
    func renderPath(in ctx: CGContext) {
        guard let path else { return }
        if let fill = fillColor, fill.alpha > 0 {
            ctx.setFillColor(fill)
            ctx.record(path.elements, .fillPath(evenOdd: fillRule == .evenOdd))
        }
        guard let stroke = strokeColor, stroke.alpha > 0, lineWidth > 0 else { return }
        let trimmed = path.trimmedElements(from: strokeStart, to: strokeEnd)
        guard !trimmed.isEmpty else { return }
        ctx.setStrokeColor(stroke)
        ctx.setLineWidth(lineWidth)
        ctx.record(.setLineCap(lineCap))
        ctx.record(.setLineJoin(lineJoin))
        if let dashes = lineDashPattern, !dashes.isEmpty {
            ctx.setLineDash(phase: lineDashPhase, lengths: dashes.map { CGFloat($0.doubleValue) })
        }
        ctx.record(trimmed, .strokePath)
    }
}
