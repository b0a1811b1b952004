import CCairo
import Foundation
import StrataGeometry
import StrataSnapshot

/// How a snapshot is drawn.
public struct PictureOptions: Sendable {
    /// The rectangle of the target space (the root layer's superlayer space) drawn; nil:
    /// the items' bounds, with a margin of 8 points.
    public var viewport: CGRect?
    /// Pixels per point.
    public var scale: Double = 1
    /// The largest picture side, pixels (a larger viewport is drawn at a smaller scale).
    public var maxSide = 4_096
    /// Behind everything (straight RGBA, 0...1).
    public var background: SIMD4<Float> = SIMD4(1, 1, 1, 1)
    /// Snapshots with more items are refused (`PictureError.tooManyItems`).
    public var maxItems = 2_000_000

    public init(viewport: CGRect? = nil, scale: Double = 1) {
        self.viewport = viewport
        self.scale = scale
    }
}

/// What a picture drew, and what it could only approximate.
public struct PictureNotes: Equatable, Sendable {
    /// Items drawn (all of the snapshot's).
    public var items = 0
    /// Items with perspective: backgrounds and borders drawn as their projected corners,
    /// corner radii and shape paths by the affine part of their transform.
    public var perspectiveItems = 0
    /// Items whose `contents` or `mask` were not drawn (the snapshot carries no images).
    public var contentsNotDrawn = 0
    public var masksNotDrawn = 0
    /// The rectangle drawn (target space) and the picture's size in pixels.
    public var viewport: CGRect = .zero
    public var width = 0
    public var height = 0

    public init() {}

    /// One line per approximation, for the terminal and the SVG's description.
    public var caveats: [String] {
        var out: [String] = []
        if perspectiveItems > 0 {
            out.append("\(perspectiveItems) item(s) with perspective: drawn by their projected corners (backgrounds, borders) and the affine part of their transform (corner radii, paths)")
        }
        if contentsNotDrawn > 0 { out.append("\(contentsNotDrawn) item(s) have contents, not drawn (the snapshot carries no images)") }
        if masksNotDrawn > 0 { out.append("\(masksNotDrawn) item(s) have a mask layer, not applied") }
        return out
    }
}

/// Why a picture was not drawn.
public enum PictureError: Error, CustomStringConvertible, Equatable {
    case tooManyItems(Int, limit: Int)
    case emptyViewport(CGRect)
    case cairo(String)

    public var description: String {
        switch self {
        case let .tooManyItems(n, limit):
            return "the snapshot has \(n) items; pictures draw at most \(limit) (PictureOptions.maxItems): draw a subtree, or raise the limit"
        case let .emptyViewport(r): return "the viewport \(r) is empty or not finite: nothing to draw"
        case let .cairo(s): return "cairo: \(s)"
        }
    }
}

/// Pictures of a `RenderSnapshot`, drawn with cairo: each item in painter's order, clipped by
/// its masking ancestors (their bounds and corner radii), with its shadow, background, shape
/// (fill, stroke, strokeStart/strokeEnd) and border (above its sublayers, as Core Animation
/// draws it), at its world opacity. The y axis points down (UIKit's convention).
///
///     let frame = renderer.snapshot()
///     let notes = try Picture.writePNG(frame, to: "frame.png")
///     notes.caveats   // what was approximated
public enum Picture {
    /// Writes a PNG of `snapshot`.
    @discardableResult
    public static func writePNG(_ snapshot: RenderSnapshot, to path: String, options: PictureOptions = PictureOptions()) throws -> PictureNotes {
        let (image, notes) = try image(snapshot, options: options)
        try image.writePNG(to: path)
        return notes
    }

    /// Writes an SVG of `snapshot` (cairo's vector output; the caveats in its description).
    @discardableResult
    public static func writeSVG(_ snapshot: RenderSnapshot, to path: String, options: PictureOptions = PictureOptions()) throws -> PictureNotes {
        let geometry = try layout(snapshot, options)
        guard let surface = cairo_svg_surface_create(path, Double(geometry.width), Double(geometry.height)) else {
            throw PictureError.cairo("cannot create an SVG surface at \(path)")
        }
        defer { cairo_surface_destroy(surface) }
        var notes = try draw(snapshot, on: surface, geometry, options)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw PictureError.cairo("writing \(path): \(String(cString: cairo_status_to_string(status)))") }
        notes.width = geometry.width
        notes.height = geometry.height
        return notes
    }

    /// The picture in memory.
    public static func image(_ snapshot: RenderSnapshot, options: PictureOptions = PictureOptions()) throws -> (PixelImage, PictureNotes) {
        let geometry = try layout(snapshot, options)
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(geometry.width), Int32(geometry.height)) else {
            throw PictureError.cairo("cannot create a \(geometry.width) x \(geometry.height) image")
        }
        defer { cairo_surface_destroy(surface) }
        var notes = try draw(snapshot, on: surface, geometry, options)
        cairo_surface_flush(surface)
        notes.width = geometry.width
        notes.height = geometry.height
        return (PixelImage(surface: surface), notes)
    }

    /// What a screen would show: the root's bounds when it has any (a window, a scroll view's
    /// frame), else every item's bounds cut to the layers that mask it (`masksToBounds`), as
    /// a feed 30,000 points long in a 390 x 844 clipping container shows 390 x 844. Items
    /// with no masking ancestor count whole, as `contentBounds` counts them.
    public static func visibleBounds(_ snapshot: RenderSnapshot) -> CGRect {
        let order = snapshot.drawOrder
        guard let first = order.first else { return .zero }
        func world(_ slot: Int) -> CGRect? {
            let b = snapshot.bounds[slot], t = snapshot.transforms[slot]
            var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
            for (x, y) in [(b.x, b.y), (b.x + b.z, b.y), (b.x, b.y + b.w), (b.x + b.z, b.y + b.w)] {
                let p = t.apply(to: CGPoint(x: Double(x), y: Double(y)))
                guard p.x.isFinite && p.y.isFinite else { continue }
                lo = SIMD2(min(lo.x, Double(p.x)), min(lo.y, Double(p.y)))
                hi = SIMD2(max(hi.x, Double(p.x)), max(hi.y, Double(p.y)))
            }
            guard lo.x <= hi.x && lo.y <= hi.y else { return nil }
            return CGRect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
        }
        let root = Int(first)
        if snapshot.parents[root] < 0, let r = world(root), r.width > 0, r.height > 0 { return r }
        // Each item's rectangle cut to its masking ancestors' (an ancestor comes first in
        // draw order, so its own cut rectangle is known).
        var cut = [CGRect?](repeating: nil, count: snapshot.bounds.count)
        var visible: CGRect?
        for s in order {
            let slot = Int(s)
            guard var r = world(slot) else { continue }
            let clip = Int(snapshot.clips[slot])
            if clip >= 0 {
                guard let c = cut[clip] else { continue }
                r = r.intersection(c)
                if r.isNull || r.isEmpty { cut[slot] = .zero; continue }
            }
            cut[slot] = r
            if r.width > 0 || r.height > 0 { visible = visible.map { $0.union(r) } ?? r }
        }
        return visible ?? .zero
    }

    /// The union of every item's bounds in the target space (projected corners).
    public static func contentBounds(_ snapshot: RenderSnapshot) -> CGRect {
        var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
        for slot in snapshot.drawOrder {
            let b = snapshot.bounds[Int(slot)], t = snapshot.transforms[Int(slot)]
            for (x, y) in [(b.x, b.y), (b.x + b.z, b.y), (b.x, b.y + b.w), (b.x + b.z, b.y + b.w)] {
                let p = t.apply(to: CGPoint(x: Double(x), y: Double(y)))
                guard p.x.isFinite && p.y.isFinite else { continue }
                lo = pointwiseMin(lo, SIMD2(Double(p.x), Double(p.y)))
                hi = pointwiseMax(hi, SIMD2(Double(p.x), Double(p.y)))
            }
        }
        guard lo.x <= hi.x && lo.y <= hi.y else { return .zero }
        return CGRect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
    }

    struct Geometry {
        var viewport: CGRect
        var scale: Double
        var width: Int
        var height: Int
    }

    static func layout(_ snapshot: RenderSnapshot, _ options: PictureOptions) throws -> Geometry {
        guard snapshot.count <= options.maxItems else { throw PictureError.tooManyItems(snapshot.count, limit: options.maxItems) }
        var viewport = options.viewport ?? contentBounds(snapshot).insetBy(dx: -8, dy: -8)
        if viewport.width <= 0 || viewport.height <= 0 { viewport = CGRect(x: viewport.origin.x, y: viewport.origin.y, width: max(viewport.width, 16), height: max(viewport.height, 16)) }
        guard [viewport.origin.x, viewport.origin.y, viewport.width, viewport.height].allSatisfy({ $0.isFinite }) else {
            throw PictureError.emptyViewport(viewport)
        }
        var scale = options.scale > 0 && options.scale.isFinite ? options.scale : 1
        let longest = Double(max(viewport.width, viewport.height)) * scale
        if longest > Double(options.maxSide) { scale *= Double(options.maxSide) / longest }
        let w = max(1, Int((Double(viewport.width) * scale).rounded(.up)))
        let h = max(1, Int((Double(viewport.height) * scale).rounded(.up)))
        return Geometry(viewport: viewport, scale: scale, width: w, height: h)
    }

    static func draw(_ snapshot: RenderSnapshot, on surface: OpaquePointer, _ g: Geometry, _ options: PictureOptions) throws -> PictureNotes {
        guard let cr = cairo_create(surface) else { throw PictureError.cairo("cannot create a context") }
        defer { cairo_destroy(cr) }
        let canvas = Canvas(cr: cr, snapshot: snapshot, geometry: g)
        let bg = options.background
        cairo_set_source_rgba(cr, Double(bg.x), Double(bg.y), Double(bg.z), Double(bg.w))
        cairo_paint(cr)
        var notes = canvas.drawAll()
        notes.viewport = g.viewport
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw PictureError.cairo(String(cString: cairo_status_to_string(status))) }
        return notes
    }
}
