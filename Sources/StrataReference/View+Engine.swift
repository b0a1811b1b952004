import Foundation

/// The reference engine's part of `View` (Sources/Strata/Vocabulary/View.swift, shared): its
/// engine's animation blocks.
extension View {
    /// Nothing to clear: the reference lookup asks the delegate, whatever it is.
    func viewWillDeinit() {}

    /// Whether a block animates `event` (the properties whose built-in action is basic).
    static func animatesInBlocks(_ event: String) -> Bool {
        PropertyCatalog.spec(event)?.implicitAction == .basic
    }

    static var currentAnimationBlock: ViewAnimationBlock? { ReferenceEngine.current.viewAnimationBlocks.last }
    static func pushAnimationBlock(_ block: ViewAnimationBlock) { ReferenceEngine.current.viewAnimationBlocks.append(block) }
    static func popAnimationBlock() { ReferenceEngine.current.viewAnimationBlocks.removeLast() }
}
