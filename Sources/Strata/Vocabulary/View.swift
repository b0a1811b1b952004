import Foundation

/// A host view: the UIView role of seed 004. Written once for both engines (Vocabulary/ is
/// compiled into StrataReference too); each engine's part is its View+Engine.swift.
///
/// The UIView role of seed 004: It is its backing layer's delegate and returns
/// `NSNull()` for every key outside an animation block (so changes to `view.layer` do not
/// animate) and a `CABasicAnimation` (easeInEaseOut, the block's duration) inside one.
///
///     let view = View(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
///     view.layer.opacity = 0                                   // no animation
///     View.animate(withDuration: 1, animations: { view.layer.opacity = 1 })  // animates
open class View: NSObject, CALayerDelegate {
    /// The backing layer (the view is its delegate).
    public let layer: CALayer
    /// The parent view.
    open private(set) weak var superview: View?
    /// The child views, in order.
    open private(set) var subviews: [View] = []

    /// The class of the backing layer (override to use a CAShapeLayer, say).
    open class var layerClass: CALayer.Type { CALayer.self }

    /// Each engine's own (`viewWillDeinit`, in its View+Engine.swift).
    deinit { viewWillDeinit() }

    /// A view whose layer has the given frame.
    public init(frame: CGRect) {
        layer = Self.layerClass.init(_strataLayer: nil)
        super.init()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.delegate = self
        layer.frame = frame
        CATransaction.commit()
    }

    /// The layer's frame.
    open var frame: CGRect {
        get { layer.frame }
        set { layer.frame = newValue }
    }
    /// The layer's bounds.
    open var bounds: CGRect {
        get { layer.bounds }
        set { layer.bounds = newValue }
    }
    /// The layer's position.
    open var center: CGPoint {
        get { layer.position }
        set { layer.position = newValue }
    }
    /// The layer's opacity.
    open var alpha: CGFloat {
        get { CGFloat(layer.opacity) }
        set { layer.opacity = Float(newValue) }
    }
    /// The layer's visibility.
    open var isHidden: Bool {
        get { layer.isHidden }
        set { layer.isHidden = newValue }
    }
    /// The layer's background colour.
    open var backgroundColor: CGColor? {
        get { layer.backgroundColor }
        set { layer.backgroundColor = newValue }
    }

    /// Adds `view` as the last subview (its layer as the last sublayer).
    open func addSubview(_ view: View) {
        guard view !== self else {
            StrataDiagnostics.emit(.layerCycle, "a view cannot be its own subview; tree unchanged")
            return
        }
        let before = layer.sublayers?.count ?? 0
        layer.addSublayer(view.layer)
        guard view.layer.superlayer === layer, (layer.sublayers?.count ?? 0) >= before else { return }
        view.superview?.subviews.removeAll { $0 === view }
        subviews.append(view)
        view.superview = self
    }

    /// Removes the view (and its layer) from its parent.
    open func removeFromSuperview() {
        superview?.subviews.removeAll { $0 === self }
        superview = nil
        layer.removeFromSuperlayer()
    }

    /// The view's answer in the lookup chain: NSNull outside an animation block; inside one,
    /// the block's animation for animatable properties (NSNull for other keys; see
    /// View+Animation.swift).
    open func action(for layer: CALayer, forKey event: String) -> CAAction? {
        guard let block = View.currentAnimationBlock, View.animatesInBlocks(event) else { return NSNull() }
        return View.blockAction(block, for: layer, forKey: event)
    }
}
