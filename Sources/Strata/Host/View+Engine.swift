import Foundation
import Synchronization
import StrataOverrides

/// The fast engine's part of `View` (Vocabulary/View.swift): its thread's animation blocks,
/// and what lets the lookup skip asking views.
extension View {
    /// A layer that outlives its view has no delegate (the reference is weak): its lookup
    /// must not stop at a view. Cleared on the layer's thread; a view released on another
    /// thread leaves the flag, and from then on every view is asked (`askViews`).
    func viewWillDeinit() {
        if layer.delegate == nil && !layer.clearHostViewFlag() { View.askViews.add(1 << 32, ordering: .relaxed) }
    }

    /// Whether a block animates `event` (the properties whose built-in action is basic).
    static func animatesInBlocks(_ event: String) -> Bool {
        guard let p = PropertyTable.idsByName[event] else { return false }
        return PropertyTable[p].action == .basic
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
