// The named constants of Core Animation's layer classes (Apple's spellings and raw values):
// gradient types, text alignment and truncation, shape strokes and fills, contents gravity,
// corner curves and masks.

/// The style of a `CAGradientLayer`'s gradient.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    /// The type's name.
    public let rawValue: String
    /// Creates a type from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Along the line from `startPoint` to `endPoint` (the default).
    public static let axial = CAGradientLayerType(rawValue: "axial")
    /// Ellipses centred on `startPoint`, reaching `endPoint`.
    public static let radial = CAGradientLayerType(rawValue: "radial")
    /// Around `startPoint`, starting toward `endPoint`.
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

/// How a `CATextLayer` aligns its text.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name.
    public let rawValue: String
    /// Creates a mode from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The script's natural alignment (the default).
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    /// Left edges aligned.
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    /// Right edges aligned.
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    /// Centred.
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    /// Both edges aligned.
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

/// Where a `CATextLayer` truncates text that does not fit.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    /// The mode's name.
    public let rawValue: String
    /// Creates a mode from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// No truncation (the default).
    public static let none = CATextLayerTruncationMode(rawValue: "none")
    /// At the start.
    public static let start = CATextLayerTruncationMode(rawValue: "start")
    /// At the end.
    public static let end = CATextLayerTruncationMode(rawValue: "end")
    /// In the middle.
    public static let middle = CATextLayerTruncationMode(rawValue: "middle")
}

/// The ends of a `CAShapeLayer`'s stroked lines.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    /// The cap's name.
    public let rawValue: String
    /// Creates a cap from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Squared off at the end point (the default).
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    /// A half circle past the end point.
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    /// A half square past the end point.
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// The corners of a `CAShapeLayer`'s stroked joins.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    /// The join's name.
    public let rawValue: String
    /// Creates a join from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Sharp corners up to `miterLimit` (the default).
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    /// Rounded corners.
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    /// Cut-off corners.
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}

/// Which points a `CAShapeLayer`'s fill covers.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    /// The rule's name.
    public let rawValue: String
    /// Creates a rule from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A non-zero winding number (the default).
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    /// An odd crossing count.
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// How a layer's contents are placed in its bounds.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    /// The gravity's name.
    public let rawValue: String
    /// Creates a gravity from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Centred, unscaled.
    public static let center = CALayerContentsGravity(rawValue: "center")
    /// Top edge centred, unscaled.
    public static let top = CALayerContentsGravity(rawValue: "top")
    /// Bottom edge centred, unscaled.
    public static let bottom = CALayerContentsGravity(rawValue: "bottom")
    /// Left edge centred, unscaled.
    public static let left = CALayerContentsGravity(rawValue: "left")
    /// Right edge centred, unscaled.
    public static let right = CALayerContentsGravity(rawValue: "right")
    /// In the top-left corner, unscaled.
    public static let topLeft = CALayerContentsGravity(rawValue: "topLeft")
    /// In the top-right corner, unscaled.
    public static let topRight = CALayerContentsGravity(rawValue: "topRight")
    /// In the bottom-left corner, unscaled.
    public static let bottomLeft = CALayerContentsGravity(rawValue: "bottomLeft")
    /// In the bottom-right corner, unscaled.
    public static let bottomRight = CALayerContentsGravity(rawValue: "bottomRight")
    /// Stretched to the bounds (the default).
    public static let resize = CALayerContentsGravity(rawValue: "resize")
    /// Scaled to fit, aspect kept.
    public static let resizeAspect = CALayerContentsGravity(rawValue: "resizeAspect")
    /// Scaled to fill, aspect kept.
    public static let resizeAspectFill = CALayerContentsGravity(rawValue: "resizeAspectFill")
}

/// The curve of a layer's rounded corners.
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable {
    /// The curve's name.
    public let rawValue: String
    /// Creates a curve from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Quarter circles (the default).
    public static let circular = CALayerCornerCurve(rawValue: "circular")
    /// Continuous curvature (Apple's "squircle").
    public static let continuous = CALayerCornerCurve(rawValue: "continuous")
}

/// The corners `cornerRadius` rounds (Apple's bit values).
public struct CACornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The corner at the bounds' minimum x and minimum y.
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    /// The corner at the bounds' maximum x and minimum y.
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    /// The corner at the bounds' minimum x and maximum y.
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    /// The corner at the bounds' maximum x and maximum y.
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
}
