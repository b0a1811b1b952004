import Foundation

/// A transaction's completion block and how many of the animations added under it are
/// still running.
final class CompletionGroup {
    let block: () -> Void
    var pending = 0
    /// The transaction that set it has committed.
    var isCommitted = false
    /// Ran already, or was replaced before its transaction committed.
    var isSpent = false
    init(_ block: @escaping () -> Void) { self.block = block }
}

/// One open transaction of a thread's stack. Settings are inherited from the enclosing
/// level when it begins.
final class TransactionLevel {
    /// Opened by a change with no transaction open; committed at the next frame or flush.
    let isImplicit: Bool
    var animationDuration: Double = 0.25
    var timingFunction: CAMediaTimingFunction?
    var disableActions = false
    var completionBlock: (() -> Void)?
    var completion: CompletionGroup?
    var values: [String: Any] = [:]

    init(isImplicit: Bool) { self.isImplicit = isImplicit }

    /// A nested level inheriting this one's settings (not its completion block).
    func nested() -> TransactionLevel {
        let level = TransactionLevel(isImplicit: false)
        level.animationDuration = animationDuration
        level.timingFunction = timingFunction
        level.disableActions = disableActions
        level.values = values
        return level
    }
}

/// The reference engine's side of `CATransaction` (Sources/Strata/Vocabulary/CATransaction.swift,
/// shared): the work on its engine's transaction stack. Callers' values are checked by the face.
enum TransactionFront {
    static func begin() { ReferenceEngine.current.begin() }
    static func commit() -> Bool { ReferenceEngine.current.commit() }
    static func flush() { ReferenceEngine.current.flush() }

    static func animationDuration() -> Double { ReferenceEngine.current.transactions.last?.animationDuration ?? 0.25 }
    static func setAnimationDuration(_ dur: Double) { ReferenceEngine.current.topTransaction().animationDuration = dur }

    static func animationTimingFunction() -> CAMediaTimingFunction? { ReferenceEngine.current.transactions.last?.timingFunction }
    static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        ReferenceEngine.current.topTransaction().timingFunction = function
    }

    static func disableActions() -> Bool { ReferenceEngine.current.transactions.last?.disableActions ?? false }
    static func setDisableActions(_ flag: Bool) { ReferenceEngine.current.topTransaction().disableActions = flag }

    static func completionBlock() -> (() -> Void)? { ReferenceEngine.current.transactions.last?.completionBlock }
    static func setCompletionBlock(_ block: (() -> Void)?) {
        let top = ReferenceEngine.current.topTransaction()
        // Replaced before commit: the old block never runs.
        top.completion?.isSpent = true
        top.completionBlock = block
        top.completion = block.map { CompletionGroup($0) }
    }

    static func value(forKey key: String) -> Any? { ReferenceEngine.current.transactions.last?.values[key] }
    static func setValue(_ anObject: Any?, forKey key: String) { ReferenceEngine.current.topTransaction().values[key] = anObject }

    /// A number or Bool as a Double (nil for anything else).
    static func number(_ value: Any) -> Double? { Boxing.number(value) }
}

extension ReferenceEngine {
    /// The innermost open transaction, opening an implicit one if none is open.
    @discardableResult
    func topTransaction() -> TransactionLevel {
        if let top = transactions.last { return top }
        let implicit = TransactionLevel(isImplicit: true)
        transactions.append(implicit)
        return implicit
    }

    func begin() {
        transactions.append(transactions.last?.nested() ?? TransactionLevel(isImplicit: false))
    }

    /// Pops the innermost explicit transaction; false when none is open (the face reports it).
    func commit() -> Bool {
        guard let top = transactions.last, !top.isImplicit else { return false }
        commitTop()
        return true
    }

    /// Commits the implicit transaction when it is the only one open.
    func flush() {
        if transactions.count == 1 && transactions[0].isImplicit { commitTop() }
    }

    /// Pops the innermost level; at the bottom of the stack this is the real commit.
    func commitTop() {
        // The outermost commit displays marked layers first (their drawing joins it).
        if transactions.count == 1 && (displayQueue.hasMarked || displayQueue.watchesKeys || displayQueue.watchesBounds) {
            if displayQueue.watchesKeys || displayQueue.watchesBounds {
                for (ref, keys) in changedProperties.values {
                    let custom = type(of: ref.layer) != CALayer.self && type(of: ref.layer) != CAShapeLayer.self
                    for key in keys where custom || (displayQueue.watchesBounds && key == "bounds") {
                        ref.layer.noteDisplayChange(key)
                    }
                }
            }
            if displayQueue.hasMarked { displayQueue.displayMarked() }
        }
        guard let top = transactions.popLast() else { return }
        if let group = top.completion {
            group.isCommitted = true
            if group.pending == 0 { groupsToFire.append(group) }
        }
        if transactions.isEmpty { commitToScreen() }
        fireCompletionBlocks()
    }

    /// The outermost commit: animations begin (beginTime 0 = now, in their layer's time),
    /// changed properties without animation show their model value, new layers become
    /// presentable.
    private func commitToScreen() {
        let added = uncommittedAnimations
        uncommittedAnimations = []
        for animation in added {
            if animation.isAttached {
                animation.commit(localNow: localTime(of: animation.layer, at: now))
            } else {
                // Removed before it ever ran: it no longer holds back completion blocks.
                animation.isCommitted = true
                releaseCompletion(of: animation)
            }
        }
        let changed = changedProperties
        changedProperties = [:]
        for (ref, keys) in changed.values {
            for key in keys where !ref.layer.hasAnimation(affecting: key) { ref.layer.showModelValue(of: key) }
        }
        let created = uncommittedLayers
        uncommittedLayers = [:]
        for ref in created.values { ref.layer.isCommitted = true }
    }

    /// Completion groups of every open level, innermost first.
    func openCompletionGroups() -> [CompletionGroup] {
        transactions.reversed().compactMap { $0.completion }
    }

    /// An animation stopped holding its completion blocks back (it completed or was removed).
    func releaseCompletion(of animation: AnimationRuntime) {
        let groups = animation.completionGroups
        animation.completionGroups = []
        for group in groups {
            group.pending -= 1
            if group.pending == 0 && group.isCommitted { groupsToFire.append(group) }
        }
    }

    /// Runs the completion blocks that are ready (they may open transactions themselves).
    func fireCompletionBlocks() {
        while !groupsToFire.isEmpty {
            let group = groupsToFire.removeFirst()
            guard !group.isSpent else { continue }
            group.isSpent = true
            group.block()
        }
    }
}
