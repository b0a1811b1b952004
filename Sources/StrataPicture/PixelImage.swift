import CCairo
import Foundation

/// A picture's pixels: cairo's ARGB32 (premultiplied alpha, one UInt32 per pixel, rows
/// top to bottom). Read from and written to PNG files; compared pixel by pixel.
public struct PixelImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height, "PixelImage: \(pixels.count) pixels for \(width) x \(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixels of an image surface (flushed).
    init(surface: OpaquePointer) {
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        var px = [UInt32](repeating: 0, count: w * h)
        if let data = cairo_image_surface_get_data(surface) {
            for y in 0..<h {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<w { px[y * w + x] = row[x] }
            }
        }
        self.init(width: w, height: h, pixels: px)
    }

    /// A PNG file's pixels.
    public init(contentsOfPNG path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw PictureError.cairo("no PNG at \(path)") }
        guard let surface = cairo_image_surface_create_from_png(path) else { throw PictureError.cairo("cannot read \(path)") }
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PictureError.cairo("reading \(path): \(String(cString: cairo_status_to_string(status)))")
        }
        cairo_surface_flush(surface)
        if cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32 {
            self.init(surface: surface)
        } else {
            // Draw other formats (RGB24 ...) into ARGB32.
            let w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface)
            guard let argb = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h), let cr = cairo_create(argb) else {
                throw PictureError.cairo("cannot convert \(path)")
            }
            defer { cairo_destroy(cr); cairo_surface_destroy(argb) }
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_paint(cr)
            cairo_surface_flush(argb)
            self.init(surface: argb)
        }
    }

    /// Writes the pixels as a PNG file.
    public func writePNG(to path: String) throws {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw PictureError.cairo("cannot create a \(width) x \(height) image")
        }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        if let data = cairo_image_surface_get_data(surface) {
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width { row[x] = pixels[y * width + x] }
            }
        }
        cairo_surface_mark_dirty(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PictureError.cairo("writing \(path): \(String(cString: cairo_status_to_string(status)))")
        }
    }

    /// The channels (a, r, g, b, 0...255) of the pixel at (x, y).
    public func channels(x: Int, y: Int) -> SIMD4<Int> {
        let p = pixels[y * width + x]
        return SIMD4(Int(p >> 24), Int((p >> 16) & 0xff), Int((p >> 8) & 0xff), Int(p & 0xff))
    }

    /// How this picture differs from `other`: pixels whose channels differ by more than
    /// `tolerance` (0...255), and the largest difference. Different sizes differ everywhere.
    public func difference(from other: PixelImage, tolerance: Int) -> PixelDifference {
        guard width == other.width && height == other.height else {
            return PixelDifference(pixels: max(pixels.count, other.pixels.count), of: max(pixels.count, other.pixels.count),
                                   largestChannelDelta: 255, sizes: "\(width) x \(height) vs \(other.width) x \(other.height)")
        }
        var differing = 0, largest = 0
        for k in 0..<pixels.count where pixels[k] != other.pixels[k] {
            let a = pixels[k], b = other.pixels[k]
            var d = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                d = max(d, abs(Int((a >> UInt32(shift)) & 0xff) - Int((b >> UInt32(shift)) & 0xff)))
            }
            largest = max(largest, d)
            if d > tolerance { differing += 1 }
        }
        return PixelDifference(pixels: differing, of: pixels.count, largestChannelDelta: largest, sizes: nil)
    }
}

/// The outcome of `PixelImage.difference(from:tolerance:)`.
public struct PixelDifference: Equatable, Sendable, CustomStringConvertible {
    /// Pixels beyond the tolerance, of all.
    public var pixels: Int
    public var of: Int
    public var largestChannelDelta: Int
    /// Set when the sizes differ.
    public var sizes: String?

    public var fraction: Double { of == 0 ? 0 : Double(pixels) / Double(of) }

    public var description: String {
        if let sizes { return "sizes differ: \(sizes)" }
        return "\(pixels) of \(of) pixels differ beyond the tolerance (largest channel difference \(largestChannelDelta))"
    }
}
