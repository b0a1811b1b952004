import Foundation

// The rest of CALayer's and CAShapeLayer's properties, kept as keyed values of the layer
// (nothing for layers that leave them at their defaults). `contentsCenter` and
// `rasterizationScale` animate implicitly (Apple documents them as animatable, see
// `ToolboxImplicitAction.forLayerKey`); the others do not.

extension CALayer {
    /// The scale of the contents' pixels to points (1 by default).
    public var contentsScale: CGFloat {
        get { ToolboxValues.cgFloat(value(forKey: "contentsScale"), 1) }
        set { setValue(newValue, forKey: "contentsScale") }
    }
    /// How the contents are placed in the bounds (`.resize` by default).
    public var contentsGravity: CALayerContentsGravity {
        get { CALayerContentsGravity(rawValue: ToolboxValues.name(value(forKey: "contentsGravity")) ?? "resize") }
        set { setValue(newValue.rawValue, forKey: "contentsGravity") }
    }
    /// The stretchable part of the contents, in the unit square ((0, 0, 1, 1) by default).
    public var contentsCenter: CGRect {
        get { ToolboxValues.rect(value(forKey: "contentsCenter"), CGRect(x: 0, y: 0, width: 1, height: 1)) }
        set { setValue(newValue, forKey: "contentsCenter") }
    }
    /// Whether the layer is drawn to a bitmap once and composited from it (false).
    public var shouldRasterize: Bool {
        get { ToolboxValues.bool(value(forKey: "shouldRasterize"), false) }
        set { setValue(newValue, forKey: "shouldRasterize") }
    }
    /// The scale of that bitmap (1 by default).
    public var rasterizationScale: CGFloat {
        get { ToolboxValues.cgFloat(value(forKey: "rasterizationScale"), 1) }
        set { setValue(newValue, forKey: "rasterizationScale") }
    }
    /// The corners `cornerRadius` rounds (all four by default).
    public var maskedCorners: CACornerMask {
        get { CACornerMask(rawValue: UInt(max(0, ToolboxValues.int(value(forKey: "maskedCorners"), 15)))) }
        set { setValue(Int(newValue.rawValue), forKey: "maskedCorners") }
    }
    /// The curve of the rounded corners (`.circular` by default).
    public var cornerCurve: CALayerCornerCurve {
        get { CALayerCornerCurve(rawValue: ToolboxValues.name(value(forKey: "cornerCurve")) ?? "circular") }
        set { setValue(newValue.rawValue, forKey: "cornerCurve") }
    }
    /// Whether the layer promises to draw every pixel opaquely (false; key "opaque").
    public var isOpaque: Bool {
        get { ToolboxValues.bool(value(forKey: "opaque"), false) }
        set { setValue(newValue, forKey: "opaque") }
    }
    /// Whether a change of the bounds marks the layer as needing display (false).
    public var needsDisplayOnBoundsChange: Bool {
        get { ToolboxValues.bool(value(forKey: "needsDisplayOnBoundsChange"), false) }
        set {
            if newValue { displayQueue.watchesBounds = true }
            setValue(newValue, forKey: "needsDisplayOnBoundsChange")
        }
    }
    /// Whether edges are antialiased (false by default).
    public var allowsEdgeAntialiasing: Bool {
        get { ToolboxValues.bool(value(forKey: "allowsEdgeAntialiasing"), false) }
        set { setValue(newValue, forKey: "allowsEdgeAntialiasing") }
    }
    /// Whether opacity applies to the layer and its sublayers as one group (true).
    public var allowsGroupOpacity: Bool {
        get { ToolboxValues.bool(value(forKey: "allowsGroupOpacity"), true) }
        set { setValue(newValue, forKey: "allowsGroupOpacity") }
    }

    /// Apple's defaults of the keys above (what an unset key reads as).
    static func toolboxDefault(forKey key: String) -> Any? {
        switch key {
        case "contentsScale", "rasterizationScale": return CGFloat(1)
        case "contentsGravity": return CALayerContentsGravity.resize.rawValue
        case "contentsCenter": return CGRect(x: 0, y: 0, width: 1, height: 1)
        case "shouldRasterize", "opaque", "needsDisplayOnBoundsChange", "allowsEdgeAntialiasing": return false
        case "allowsGroupOpacity": return true
        case "maskedCorners": return 15
        case "cornerCurve": return CALayerCornerCurve.circular.rawValue
        case "lineCap": return CAShapeLayerLineCap.butt.rawValue
        case "lineJoin": return CAShapeLayerLineJoin.miter.rawValue
        case "fillRule": return CAShapeLayerFillRule.nonZero.rawValue
        default: return nil
        }
    }
}

extension CAShapeLayer {
    /// The ends of stroked open subpaths (`.butt` by default).
    public var lineCap: CAShapeLayerLineCap {
        get { CAShapeLayerLineCap(rawValue: ToolboxValues.name(value(forKey: "lineCap")) ?? "butt") }
        set { setValue(newValue.rawValue, forKey: "lineCap") }
    }
    /// The corners of stroked joins (`.miter` by default).
    public var lineJoin: CAShapeLayerLineJoin {
        get { CAShapeLayerLineJoin(rawValue: ToolboxValues.name(value(forKey: "lineJoin")) ?? "miter") }
        set { setValue(newValue.rawValue, forKey: "lineJoin") }
    }
    /// Which points the fill covers (`.nonZero` by default).
    public var fillRule: CAShapeLayerFillRule {
        get { CAShapeLayerFillRule(rawValue: ToolboxValues.name(value(forKey: "fillRule")) ?? "non-zero") }
        set { setValue(newValue.rawValue, forKey: "fillRule") }
    }
    /// Lengths of the stroke's dashes and gaps, in turn (nil: a solid stroke).
    public var lineDashPattern: [NSNumber]? {
        get {
            guard let v = value(forKey: "lineDashPattern") else { return nil }
            if let n = v as? [NSNumber] { return n }
            return (v as? [Any])?.map { NSNumber(value: Double(ToolboxValues.cgFloat($0, 0))) }
        }
        set { setValue(newValue, forKey: "lineDashPattern") }
    }
}
