import Foundation

/// The fast engine's side of `CATransaction` (Vocabulary/CATransaction.swift): the work on this
/// thread's transaction stack, with the recorder's hooks. Callers' values are checked by the
/// face before they come here.
enum TransactionFront {
    static func begin() {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.begin) }
        c.begin()
    }

    /// Pops the innermost explicit transaction; false when none is open (nothing done).
    static func commit() -> Bool {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.commit) }
        return c.commit()
    }

    static func flush() {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.flush) }
        c.flush()
    }

    static func animationDuration() -> Double {
        EngineContext.current.transactions.last?.duration ?? 0.25
    }

    static func setAnimationDuration(_ dur: Double) {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.setAnimationDuration(dur)) }
        c.ensureTransaction()
        c.transactions[c.transactions.count - 1].duration = dur
        c.transactions[c.transactions.count - 1].invalidateEntries()
    }

    static func animationTimingFunction() -> CAMediaTimingFunction? {
        EngineContext.current.transactions.last?.timingFunction
    }

    static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.setTimingFunction(r.curve(function))) }
        c.ensureTransaction()
        c.transactions[c.transactions.count - 1].timingFunction = function
        c.transactions[c.transactions.count - 1].invalidateEntries()
    }

    static func disableActions() -> Bool {
        EngineContext.current.transactions.last?.disableActions ?? false
    }

    static func setDisableActions(_ flag: Bool) {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.setDisableActions(flag)) }
        c.ensureTransaction()
        c.transactions[c.transactions.count - 1].disableActions = flag
    }

    static func completionBlock() -> (() -> Void)? {
        EngineContext.current.transactions.last?.completionBlock
    }

    static func setCompletionBlock(_ block: (() -> Void)?) {
        let c = EngineContext.current
        if let r = c.recorder {
            if block != nil { r.completion() } else { r.note("a completion block set to nil (not replayed)") }
        }
        c.ensureTransaction()
        let top = c.transactions.count - 1
        if let old = c.transactions[top].group, !old.committed {
            // Replaced before commit: the old block never runs.
            old.fired = true
        }
        c.transactions[top].completionBlock = block
        c.transactions[top].group = block.map { CompletionGroup($0) }
        c.transactions[top].invalidateEntries()
    }

    /// A custom key's value (inherited from enclosing transactions).
    static func value(forKey key: String) -> Any? { EngineContext.current.transactions.last?.values[key] }

    static func setValue(_ anObject: Any?, forKey key: String) {
        let c = EngineContext.current
        c.ensureTransaction()
        c.transactions[c.transactions.count - 1].values[key] = anObject
    }

    /// A number or Bool as a Double (nil for anything else).
    static func number(_ value: Any) -> Double? { LaneValue.scalar(value) }
}
