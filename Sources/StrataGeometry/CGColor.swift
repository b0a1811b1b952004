import Foundation

/// A colour, spelled as Core Graphics' `CGColor`: an immutable RGBA or gray-plus-alpha value.
///
/// ```swift
/// let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
/// blue.components            // [0, 0, 1, 1]
/// CGColor(gray: 0.5, alpha: 1).components   // [0.5, 1]
/// ```
///
/// Every colour is also kept as unpremultiplied RGBA (`rgba`), which is what
/// the engine interpolates; gray colours remember they were gray so `components` and
/// `numberOfComponents` answer as Apple's do (two components). Components are not clamped.
/// Two colours are equal when their RGBA values are equal, so `CGColor(gray: 1, alpha: 1)`
/// equals `CGColor(red: 1, green: 1, blue: 1, alpha: 1)` (Apple compares colour spaces too).
public final class CGColor: Equatable, Hashable, CustomStringConvertible, Sendable {
    /// Red, green, blue and alpha; a gray `g` is stored as `(g, g, g, a)`.
    package let rgba: SIMD4<Double>
    /// Whether the colour was made in the gray space (two components).
    private let isGray: Bool

    /// Creates an RGB colour with the given components and alpha.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        rgba = SIMD4(Double(red), Double(green), Double(blue), Double(alpha))
        isGray = false
    }

    /// Creates an sRGB colour (the same space as `init(red:green:blue:alpha:)` here).
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Creates a gray colour; its `components` are `[gray, alpha]`.
    public init(gray: CGFloat, alpha: CGFloat) {
        let g = Double(gray)
        rgba = SIMD4(g, g, g, Double(alpha))
        isGray = true
    }

    /// Creates an RGB colour from red, green, blue and alpha lanes.
    package init(rgba: SIMD4<Double>) {
        self.rgba = rgba
        isGray = false
    }

    private init(rgba: SIMD4<Double>, isGray: Bool) {
        self.rgba = rgba
        self.isGray = isGray
    }

    /// The colour's components followed by alpha: `[r, g, b, a]`, or `[gray, a]` for gray colours.
    public var components: [CGFloat]? {
        if isGray { return [CGFloat(rgba.x), CGFloat(rgba.w)] }
        return [CGFloat(rgba.x), CGFloat(rgba.y), CGFloat(rgba.z), CGFloat(rgba.w)]
    }

    /// The number of components including alpha: 4 for RGB, 2 for gray.
    public var numberOfComponents: Int { isGray ? 2 : 4 }

    /// The alpha component.
    public var alpha: CGFloat { CGFloat(rgba.w) }

    /// A copy of this colour with a different alpha, in the same colour space.
    public func copy(alpha: CGFloat) -> CGColor? {
        var lanes = rgba
        lanes.w = Double(alpha)
        return CGColor(rgba: lanes, isGray: isGray)
    }

    /// Opaque black in the gray space (`[0, 1]`), as Apple's `CGColor.black`.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white in the gray space (`[1, 1]`), as Apple's `CGColor.white`.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Fully transparent black in the gray space (`[0, 0]`), as Apple's `CGColor.clear`.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// Whether two colours have the same red, green, blue and alpha.
    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs === rhs || lhs.rgba == rhs.rgba
    }

    /// Hashes the red, green, blue and alpha values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rgba)
    }

    /// A Core Graphics style description, e.g. `<CGColor> [sRGB] ( 0 0 1 1 )`.
    public var description: String {
        let space = isGray ? "Generic Gray" : "sRGB"
        let parts = (components ?? []).map { value -> String in
            let d = Double(value)
            if d.rounded() == d, abs(d) < 1e15 { return String(Int64(d)) }
            return String(d)
        }
        return "<CGColor> [\(space)] ( \(parts.joined(separator: " ")) )"
    }
}
