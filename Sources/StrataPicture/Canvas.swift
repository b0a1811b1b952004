import CCairo
import Foundation
import StrataGeometry
import StrataSnapshot

/// Draws a snapshot's items on a cairo context.
final class Canvas {
    let cr: OpaquePointer
    let s: RenderSnapshot
    let g: Picture.Geometry

    init(cr: OpaquePointer, snapshot: RenderSnapshot, geometry: Picture.Geometry) {
        self.cr = cr
        s = snapshot
        g = geometry
    }

    func drawAll() -> PictureNotes {
        var notes = PictureNotes()
        notes.items = s.count
        // Borders are drawn above an item's sublayers: pending ones (each item's slot and the
        // draw position after its subtree), innermost last.
        var borders: [(slot: Int, end: Int)] = []
        let order = s.drawOrder, sizes = s.subtreeSizes
        for k in 0..<s.count {
            let i = Int(order[k])
            while let b = borders.last, b.end <= k { drawBorder(b.slot); borders.removeLast() }
            let f = s.flags[i]
            if f.contains(.perspective) { notes.perspectiveItems += 1 }
            if f.contains(.contents) { notes.contentsNotDrawn += 1 }
            if f.contains(.mask) { notes.masksNotDrawn += 1 }
            guard s.opacities[i] > 0 else { continue }
            cairo_save(cr)
            clip(i)
            if f.contains(.shadow) { drawShadow(i) }
            if f.contains(.background) { fillBounds(i, s.backgroundColors[i] * SIMD4(1, 1, 1, s.opacities[i])) }
            if f.contains(.shape) { drawShape(i) }
            cairo_restore(cr)
            if f.contains(.border) { borders.append((i, k + Int(sizes[i]))) }
        }
        while let b = borders.popLast() { drawBorder(b.slot) }
        return notes
    }

    // MARK: coordinates

    /// The viewport's transform (target points to pixels), then `t`'s affine part.
    func setTransform(_ t: RenderTransform) {
        cairo_identity_matrix(cr)
        cairo_scale(cr, g.scale, g.scale)
        cairo_translate(cr, -Double(g.viewport.origin.x), -Double(g.viewport.origin.y))
        var m = cairo_matrix_t()
        let a = t.affine
        cairo_matrix_init(&m, Double(a.a), Double(a.b), Double(a.c), Double(a.d), Double(a.tx), Double(a.ty))
        cairo_transform(cr, &m)
    }

    /// Item i's bounds in its own space, its corner radius clamped to half its shorter side.
    func roundedBounds(_ i: Int, inset: Float = 0) {
        let b = s.bounds[i]
        let x = Double(b.x + inset), y = Double(b.y + inset)
        let w = Double(max(0, b.z - 2 * inset)), h = Double(max(0, b.w - 2 * inset))
        let r = min(Double(max(0, s.cornerRadii[i] - inset)), w / 2, h / 2)
        cairo_new_path(cr)
        if r <= 0 {
            cairo_rectangle(cr, x, y, w, h)
        } else {
            cairo_new_sub_path(cr)
            cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, 0)
            cairo_arc(cr, x + w - r, y + h - r, r, 0, Double.pi / 2)
            cairo_arc(cr, x + r, y + h - r, r, Double.pi / 2, Double.pi)
            cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
            cairo_close_path(cr)
        }
    }

    /// Item i's bounds as a path in the device space: its projected corners (perspective),
    /// or its rounded bounds under its affine transform.
    func boundsPath(_ i: Int, inset: Float = 0) {
        let t = s.transforms[i]
        if t.isAffine {
            setTransform(t)
            roundedBounds(i, inset: inset)
            return
        }
        let b = s.bounds[i]
        let x0 = b.x + inset, y0 = b.y + inset, x1 = b.x + b.z - inset, y1 = b.y + b.w - inset
        setTransform(.identity)
        cairo_new_path(cr)
        for (k, (x, y)) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].enumerated() {
            let p = t.apply(to: CGPoint(x: Double(x), y: Double(y)))
            if k == 0 { cairo_move_to(cr, Double(p.x), Double(p.y)) } else { cairo_line_to(cr, Double(p.x), Double(p.y)) }
        }
        cairo_close_path(cr)
    }

    /// Clips to every masking ancestor of item i, outermost first.
    func clip(_ i: Int) {
        var chain: [Int] = []
        var c = Int(s.clips[i])
        while c >= 0 { chain.append(c); c = Int(s.clips[c]) }
        for a in chain.reversed() {
            boundsPath(a)
            cairo_clip(cr)
        }
    }

    func setColor(_ c: SIMD4<Float>) {
        cairo_set_source_rgba(cr, Double(c.x), Double(c.y), Double(c.z), Double(c.w))
    }

    // MARK: the parts of an item

    func fillBounds(_ i: Int, _ color: SIMD4<Float>) {
        boundsPath(i)
        setColor(color)
        cairo_fill(cr)
    }

    /// The shadow: the bounds (or the shadow path) offset, in the shadow colour at the
    /// shadow opacity; a radius is drawn as rings fading out to it (cairo has no blur).
    func drawShadow(_ i: Int) {
        let sh = s.shadows[i]
        var color = s.shadowColors[i]
        color.w *= sh.w * s.opacities[i]
        let t = s.transforms[i]
        let offset = RenderTransform(row1: SIMD4(1, 0, 0, 0), row2: SIMD4(0, 1, 0, 0), row3: SIMD4(0, 0, 1, 0),
                                     row4: SIMD4(sh.x, sh.y, 0, 1)).concatenating(t)
        setTransform(offset)
        let radius = Double(max(0, sh.z))
        let rings = radius > 0 ? 4 : 1
        for k in 0..<rings {
            roundedBounds(i)
            var c = color
            c.w /= Float(rings)
            setColor(c)
            if k > 0 {
                cairo_set_line_width(cr, radius * Double(k) / Double(rings - 1) * 2)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                cairo_stroke_preserve(cr)
            }
            cairo_fill(cr)
        }
    }

    /// Core Animation draws the border inside the bounds, above the sublayers.
    func drawBorder(_ i: Int) {
        let w = s.borderWidths[i]
        guard w > 0, s.opacities[i] > 0 else { return }
        cairo_save(cr)
        clip(i)
        boundsPath(i, inset: w / 2)
        setColor(s.borderColors[i] * SIMD4(1, 1, 1, s.opacities[i]))
        cairo_set_line_width(cr, Double(w))
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// A shape layer's path: filled, then stroked between strokeStart and strokeEnd.
    func drawShape(_ i: Int) {
        let k = Int(s.shapeIndices[i])
        guard k >= 0, let path = s.path(ofShape: k) else { return }
        let opacity = s.opacities[i]
        setTransform(s.transforms[i])
        let fill = s.fillColors[k]
        if fill.w > 0 {
            addPath(path)
            setColor(fill * SIMD4(1, 1, 1, opacity))
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
            cairo_fill(cr)
        }
        let stroke = s.strokeColors[k], st = s.strokes[k]
        guard stroke.w > 0, st.x > 0 else { return }
        let start = Double(min(max(st.y, 0), 1)), end = Double(min(max(st.z, 0), 1))
        guard end > start else { return }
        addPath(path)
        if start > 0 || end < 1 { trimPath(from: start, to: end) }
        setColor(stroke * SIMD4(1, 1, 1, opacity))
        cairo_set_line_width(cr, Double(st.x))
        cairo_set_miter_limit(cr, Double(st.w))
        cairo_stroke(cr)
    }

    /// `path` as cairo's current path (quadratic curves raised to cubic ones).
    func addPath(_ path: CGPath) {
        cairo_new_path(cr)
        var current = CGPoint.zero
        for e in path.elements {
            switch e {
            case let .moveTo(p):
                cairo_move_to(cr, Double(p.x), Double(p.y)); current = p
            case let .addLine(p):
                cairo_line_to(cr, Double(p.x), Double(p.y)); current = p
            case let .addQuadCurve(p, c):
                let c1 = CGPoint(x: current.x + 2 / 3 * (c.x - current.x), y: current.y + 2 / 3 * (c.y - current.y))
                let c2 = CGPoint(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
                cairo_curve_to(cr, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p.x), Double(p.y))
                current = p
            case let .addCurve(p, c1, c2):
                cairo_curve_to(cr, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p.x), Double(p.y))
                current = p
            case .closeSubpath:
                cairo_close_path(cr)
                var x = 0.0, y = 0.0
                cairo_get_current_point(cr, &x, &y)
                current = CGPoint(x: x, y: y)
            }
        }
    }

    /// Replaces the current path by its part between fractions `start` and `end` of its
    /// length (over every subpath, as strokeStart and strokeEnd measure it), flattened.
    func trimPath(from start: Double, to end: Double) {
        guard let flat = cairo_copy_path_flat(cr) else { return }
        defer { cairo_path_destroy(flat) }
        // Segments (x0, y0, x1, y1) in order, with their lengths.
        var segments: [(SIMD2<Double>, SIMD2<Double>, Bool)] = []   // (from, to, starts a subpath)
        var first = SIMD2<Double>.zero, last = SIMD2<Double>.zero, fresh = true
        var k = 0
        let data = flat.pointee.data!
        while k < Int(flat.pointee.num_data) {
            let h = data[k].header
            switch h.type {
            case CAIRO_PATH_MOVE_TO:
                last = SIMD2(data[k + 1].point.x, data[k + 1].point.y); first = last; fresh = true
            case CAIRO_PATH_LINE_TO:
                let p = SIMD2(data[k + 1].point.x, data[k + 1].point.y)
                segments.append((last, p, fresh)); fresh = false; last = p
            case CAIRO_PATH_CLOSE_PATH:
                segments.append((last, first, fresh)); fresh = false; last = first
            default:
                break
            }
            k += Int(h.length)
        }
        let lengths = segments.map { (($0.1 - $0.0) * ($0.1 - $0.0)).sum().squareRoot() }
        let total = lengths.reduce(0, +)
        cairo_new_path(cr)
        guard total > 0 else { return }
        let a = start * total, b = end * total
        var at = 0.0, drawing = false
        for (j, seg) in segments.enumerated() {
            let len = lengths[j], s0 = at, s1 = at + len
            at = s1
            if seg.2 { drawing = false }
            guard s1 > a && s0 < b, len > 0 else { continue }
            let u0 = max(0, (a - s0) / len), u1 = min(1, (b - s0) / len)
            let p0 = seg.0 + (seg.1 - seg.0) * u0, p1 = seg.0 + (seg.1 - seg.0) * u1
            if !drawing || u0 > 0 { cairo_move_to(cr, p0.x, p0.y); drawing = true }
            cairo_line_to(cr, p1.x, p1.y)
        }
    }
}
