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

/// Core Animation's transactions: a per-thread stack that batches layer changes. A change
/// with no transaction open opens an implicit one, committed at the next frame
/// (`CARenderer.beginFrame(atTime:)`) or `flush()`.
///
///     CATransaction.begin()
///     CATransaction.setAnimationDuration(1.0)
///     layer.backgroundColor = blue            // animates over 1 s
///     CATransaction.commit()
open class CATransaction: NSObject {
    /// Pushes a transaction, inheriting the enclosing one's settings.
    open class func begin() { ReferenceEngine.current.begin() }

    /// Pops the innermost transaction; the outermost commit starts its animations at the
    /// current media time. Without a matching `begin()`: a diagnostic naming the call site,
    /// and no effect.
    open class func commit(file: StaticString = #fileID, line: UInt = #line) {
        ReferenceEngine.current.commit(file: file, line: line)
    }

    /// Commits the implicit transaction, if it is the only one open.
    open class func flush() { ReferenceEngine.current.flush() }

    /// Core Animation's transaction lock (a no-op: engines are per thread).
    open class func lock() {}
    /// See `lock()`.
    open class func unlock() {}

    /// Duration of the innermost transaction's implicit animations (0.25 s by default).
    open class func animationDuration() -> Double {
        ReferenceEngine.current.transactions.last?.animationDuration ?? 0.25
    }

    /// Sets the innermost transaction's animation duration. Negative or non-finite values
    /// are refused with a diagnostic.
    open class func setAnimationDuration(_ dur: Double) {
        guard dur.isFinite && dur >= 0 else {
            StrataDiagnostics.emit(.nonFiniteValue, "setAnimationDuration(\(dur)): a duration must be finite and >= 0; ignored")
            return
        }
        ReferenceEngine.current.topTransaction().animationDuration = dur
    }

    /// Timing function of the innermost transaction's implicit animations (nil: each
    /// action's own; built-in actions use `.default`).
    open class func animationTimingFunction() -> CAMediaTimingFunction? {
        ReferenceEngine.current.transactions.last?.timingFunction
    }

    /// Sets the innermost transaction's timing function.
    open class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        ReferenceEngine.current.topTransaction().timingFunction = function
    }

    /// Whether property changes run no action in the innermost transaction.
    open class func disableActions() -> Bool {
        ReferenceEngine.current.transactions.last?.disableActions ?? false
    }

    /// Turns actions off (or on) for the innermost transaction.
    open class func setDisableActions(_ flag: Bool) {
        ReferenceEngine.current.topTransaction().disableActions = flag
    }

    /// The innermost transaction's completion block.
    open class func completionBlock() -> (() -> Void)? {
        ReferenceEngine.current.transactions.last?.completionBlock
    }

    /// Sets a block run once every animation added to this transaction from now on (and to
    /// its nested transactions) has completed or been removed; at commit if there is none.
    open class func setCompletionBlock(_ block: (() -> Void)?) {
        let top = ReferenceEngine.current.topTransaction()
        // Replaced before commit: the old block never runs.
        top.completion?.isSpent = true
        top.completionBlock = block
        top.completion = block.map { CompletionGroup($0) }
    }

    /// A transaction property: `"animationDuration"` and `"disableActions"` (NSNumber),
    /// `"animationTimingFunction"`, `"completionBlock"`, or any custom key (inherited).
    open class func value(forKey key: String) -> Any? {
        switch key {
        case "animationDuration": return NSNumber(value: animationDuration())
        case "disableActions": return NSNumber(value: disableActions())
        case "animationTimingFunction": return animationTimingFunction()
        case "completionBlock": return completionBlock()
        default: return ReferenceEngine.current.transactions.last?.values[key]
        }
    }

    /// Sets a transaction property (see `value(forKey:)`). A value of the wrong type for a
    /// known key is refused with a diagnostic.
    open class func setValue(_ anObject: Any?, forKey key: String) {
        switch key {
        case "animationDuration":
            guard let v = anObject.flatMap(Boxing.number) else {
                StrataDiagnostics.emit(.wrongValueType, "CATransaction \"animationDuration\" takes a number; got \(String(describing: anObject))")
                return
            }
            setAnimationDuration(v)
        case "disableActions":
            guard let v = anObject.flatMap(Boxing.number) else {
                StrataDiagnostics.emit(.wrongValueType, "CATransaction \"disableActions\" takes a number or Bool; got \(String(describing: anObject))")
                return
            }
            setDisableActions(v != 0)
        case "animationTimingFunction":
            guard anObject == nil || anObject is CAMediaTimingFunction else {
                StrataDiagnostics.emit(.wrongValueType, "CATransaction \"animationTimingFunction\" takes a CAMediaTimingFunction")
                return
            }
            setAnimationTimingFunction(anObject as? CAMediaTimingFunction)
        case "completionBlock":
            guard anObject == nil || anObject is () -> Void else {
                StrataDiagnostics.emit(.wrongValueType, "CATransaction \"completionBlock\" takes a () -> Void block")
                return
            }
            setCompletionBlock(anObject as? () -> Void)
        default:
            ReferenceEngine.current.topTransaction().values[key] = anObject
        }
    }
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

    func commit(file: StaticString, line: UInt) {
        guard let top = transactions.last, !top.isImplicit else {
            StrataDiagnostics.emit(.unbalancedCommit,
                "CATransaction.commit() without a matching begin() at \(file):\(line); ignored",
                file: file, line: line)
            return
        }
        commitTop()
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
