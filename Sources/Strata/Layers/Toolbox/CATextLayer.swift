import Foundation

/// A layer that shows a string (Apple's `CATextLayer`): `fontSize` and `foregroundColor`
/// are animatable, implicitly too. No text is laid out or drawn here; the values are kept,
/// presented and animated for a renderer to use.
open class CATextLayer: CALayer {
    /// The text: a `String` or an attributed string (nil by default).
    open var string: Any? {
        get { value(forKey: "string") }
        set { setValue(newValue, forKey: "string") }
    }
    /// The font: a font object or a font name (Helvetica by default).
    open var font: Any? {
        get { value(forKey: "font") }
        set { setValue(newValue, forKey: "font") }
    }
    /// The font size in points (36 by default).
    open var fontSize: CGFloat {
        get { ToolboxValues.cgFloat(value(forKey: "fontSize"), 36) }
        set { setValue(newValue, forKey: "fontSize") }
    }
    /// The text colour (opaque white by default).
    open var foregroundColor: CGColor? {
        get { ToolboxValues.color(value(forKey: "foregroundColor")) }
        set { setValue(newValue, forKey: "foregroundColor") }
    }
    /// Whether the text wraps to the bounds (false by default; key "wrapped").
    open var isWrapped: Bool {
        get { ToolboxValues.bool(value(forKey: "wrapped"), false) }
        set { setValue(newValue, forKey: "wrapped") }
    }
    /// Where text that does not fit is truncated (`.none` by default).
    open var truncationMode: CATextLayerTruncationMode {
        get { CATextLayerTruncationMode(rawValue: ToolboxValues.name(value(forKey: "truncationMode")) ?? "none") }
        set { setValue(newValue.rawValue, forKey: "truncationMode") }
    }
    /// How lines are aligned (`.natural` by default).
    open var alignmentMode: CATextLayerAlignmentMode {
        get { CATextLayerAlignmentMode(rawValue: ToolboxValues.name(value(forKey: "alignmentMode")) ?? "natural") }
        set { setValue(newValue.rawValue, forKey: "alignmentMode") }
    }
    /// Whether glyphs may be placed at sub-pixel positions (false by default).
    open var allowsFontSubpixelQuantization: Bool {
        get { ToolboxValues.bool(value(forKey: "allowsFontSubpixelQuantization"), false) }
        set { setValue(newValue, forKey: "allowsFontSubpixelQuantization") }
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "fontSize": return CGFloat(36)
        case "foregroundColor": return CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        case "font": return "Helvetica"
        case "wrapped", "allowsFontSubpixelQuantization": return false
        case "truncationMode": return CATextLayerTruncationMode.none.rawValue
        case "alignmentMode": return CATextLayerAlignmentMode.natural.rawValue
        default: return super.defaultValue(forKey: key)
        }
    }

    open override class func defaultAction(forKey event: String) -> CAAction? {
        switch event {
        case "fontSize", "foregroundColor": return ToolboxImplicitAction.shared
        default: return super.defaultAction(forKey: event)
        }
    }
}
