import Foundation

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
    open class func begin() {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.begin) }
        c.begin()
    }

    /// Pops the innermost transaction; the outermost commit starts its animations at the
    /// current media time. Without a matching `begin()`: a diagnostic naming the call site,
    /// and no effect.
    open class func commit(file: StaticString = #fileID, line: UInt = #line) {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.commit) }
        c.commit(file: file, line: line)
    }

    /// Commits the implicit transaction, if it is the only one open.
    open class func flush() {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.flush) }
        c.flush()
    }

    /// Core Animation's transaction lock (a no-op: engines are per thread).
    open class func lock() {}
    /// See `lock()`.
    open class func unlock() {}

    /// Duration of the innermost transaction's implicit animations (0.25 s by default).
    open class func animationDuration() -> Double {
        EngineContext.current.transactions.last?.duration ?? 0.25
    }

    /// Sets the innermost transaction's animation duration. Negative or non-finite values
    /// are refused with a diagnostic.
    open class func setAnimationDuration(_ dur: Double) {
        guard dur.isFinite && dur >= 0 else {
            StrataDiagnostics.emit(.nonFiniteValue, "setAnimationDuration(\(dur)): a duration must be finite and >= 0; ignored")
            return
        }
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.setAnimationDuration(dur)) }
        c.ensureTransaction()
        c.transactions[c.transactions.count - 1].duration = dur
        c.transactions[c.transactions.count - 1].invalidateEntries()
    }

    /// Timing function of the innermost transaction's implicit animations (nil: each
    /// action's own; built-in actions use `.default`).
    open class func animationTimingFunction() -> CAMediaTimingFunction? {
        EngineContext.current.transactions.last?.timingFunction
    }

    /// Sets the innermost transaction's timing function.
    open class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.setTimingFunction(r.curve(function))) }
        c.ensureTransaction()
        c.transactions[c.transactions.count - 1].timingFunction = function
        c.transactions[c.transactions.count - 1].invalidateEntries()
    }

    /// Whether property changes run no action in the innermost transaction.
    open class func disableActions() -> Bool {
        EngineContext.current.transactions.last?.disableActions ?? false
    }

    /// Turns actions off (or on) for the innermost transaction.
    open class func setDisableActions(_ flag: Bool) {
        let c = EngineContext.current
        if let r = c.recorder { r.transaction(.setDisableActions(flag)) }
        c.ensureTransaction()
        c.transactions[c.transactions.count - 1].disableActions = flag
    }

    /// The innermost transaction's completion block.
    open class func completionBlock() -> (() -> Void)? {
        EngineContext.current.transactions.last?.completionBlock
    }

    /// Sets a block run once every animation added to this transaction from now on (and to
    /// its nested transactions) has completed or been removed; at commit if there is none.
    open class func setCompletionBlock(_ block: (() -> Void)?) {
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

    /// A transaction property: `"animationDuration"` and `"disableActions"` (NSNumber),
    /// `"animationTimingFunction"`, `"completionBlock"`, or any custom key (inherited).
    open class func value(forKey key: String) -> Any? {
        switch key {
        case "animationDuration": return NSNumber(value: animationDuration())
        case "disableActions": return NSNumber(value: disableActions())
        case "animationTimingFunction": return animationTimingFunction()
        case "completionBlock": return completionBlock()
        default: return EngineContext.current.transactions.last?.values[key]
        }
    }

    /// Sets a transaction property (see `value(forKey:)`). A value of the wrong type for a
    /// known key is refused with a diagnostic.
    open class func setValue(_ anObject: Any?, forKey key: String) {
        switch key {
        case "animationDuration":
            guard let v = anObject.flatMap(LaneValue.scalar) else {
                StrataDiagnostics.emit(.wrongValueType, "CATransaction \"animationDuration\" takes a number; got \(String(describing: anObject))")
                return
            }
            setAnimationDuration(v)
        case "disableActions":
            guard let v = anObject.flatMap(LaneValue.scalar) else {
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
            let c = EngineContext.current
            c.ensureTransaction()
            c.transactions[c.transactions.count - 1].values[key] = anObject
        }
    }
}
