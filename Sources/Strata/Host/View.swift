import Foundation
import Synchronization
import StrataOverrides

/// A host view: the UIView role of seed 004. It is its backing layer's delegate and returns
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

    deinit {
        // A layer that outlives its view has no delegate (the reference is weak): its lookup
        // must not stop at a view. Cleared on the layer's thread; a view released on another
        // thread leaves the flag, and from then on every view is asked (`askViews`).
        if layer.delegate == nil && !layer.clearHostViewFlag() { View.askViews.add(1 << 32, ordering: .relaxed) }
    }

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
        guard let block = View.animationBlocks.last else { return NSNull() }
        guard let p = PropertyTable.idsByName[event], PropertyTable[p].action == .basic else { return NSNull() }
        return View.blockAction(block, for: layer, forKey: event)
    }

    nonisolated(unsafe) private static var animationBlocksStorage: [UInt: [ViewAnimationBlock]] = [:]
    private static let blocksLock = NSLock()
    /// This thread's open animation blocks, innermost last.
    private static var animationBlocks: [ViewAnimationBlock] {
        get {
            blocksLock.lock(); defer { blocksLock.unlock() }
            return animationBlocksStorage[threadID()] ?? []
        }
        set {
            blocksLock.lock(); defer { blocksLock.unlock() }
            animationBlocksStorage[threadID()] = newValue.isEmpty ? nil : newValue
        }
    }
    private static func threadID() -> UInt { UInt(bitPattern: Int(pthread_self())) }

    static var currentAnimationBlock: ViewAnimationBlock? { animationBlocks.last }
    static func pushAnimationBlock(_ block: ViewAnimationBlock) {
        askViews.add(1, ordering: .relaxed)
        animationBlocks.append(block)
    }
    static func popAnimationBlock() {
        animationBlocks.removeLast()
        askViews.subtract(1, ordering: .relaxed)
    }

    /// Why views must be asked: the animation blocks open on all threads (low 32 bits), and
    /// 2^32 per view released on another thread than its layer's (whose layer may keep
    /// `LayerFlags.hostView` with no delegate). While it is 0, every view whose class keeps
    /// `action(for:forKey:)` answers NSNull and the lookup need not ask it. A block open on
    /// another thread only costs the call.
    fileprivate static let askViews = Atomic<Int>(0)

    /// Whether a layer flagged `LayerFlags.hostView` gets NSNull from its view, known without
    /// asking it: no block is open, and the view is there (only looked at, with a weak load,
    /// once a view was released on another thread).
    @inline(__always)
    static func answersNSNull(_ layer: CALayer) -> Bool {
        let ask = askViews.load(ordering: .relaxed)
        if _fastPath(ask == 0) { return true }
        return ask & 0xFFFF_FFFF == 0 && layer.delegate != nil
    }
}

/// Which `View` classes override `action(for:forKey:)`, decided once per class from the
/// vtables (`MethodOverrideProbe`, as `ActionOverride` does for layers): the others answer as
/// View does, which the lookup knows without calling them outside animation blocks.
enum ViewActionOverride {
    /// Overrides `action(for:forKey:)` and nothing else (never made).
    private final class Overriding: View {
        override func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    }
    /// Overrides nothing (never made).
    private final class Plain: View {}

    /// Nil when the class metadata could not be read: then every view class is asked.
    static let probe = MethodOverrideProbe(base: View.self, overriding: Overriding.self, plain: Plain.self)
    private static let memo = OverrideMemo(probe)

    /// Whether views of `cls` answer `action(for:forKey:)` with code of their own.
    static func overrides(_ cls: View.Type) -> Bool { memo.overrides(cls) }
}
