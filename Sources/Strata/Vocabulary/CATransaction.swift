import Foundation

/// Core Animation's transactions: a per-thread stack that batches layer changes. A change
/// with no transaction open opens an implicit one, committed at the next frame
/// (`CARenderer.beginFrame(atTime:)`) or `flush()`.
///
///     CATransaction.begin()
///     CATransaction.setAnimationDuration(1.0)
///     layer.backgroundColor = blue            // animates over 1 s
///     CATransaction.commit()
///
/// Written once for both engines (Vocabulary/ is compiled into StrataReference too): the
/// checks of what callers pass are here; each engine's `TransactionFront` does the work on its
/// own transaction stack.
open class CATransaction: NSObject {
    /// Pushes a transaction, inheriting the enclosing one's settings.
    open class func begin() { TransactionFront.begin() }

    /// Pops the innermost transaction; the outermost commit starts its animations at the
    /// current media time. Without a matching `begin()`: a diagnostic naming the call site,
    /// and no effect.
    open class func commit(file: StaticString = #fileID, line: UInt = #line) {
        guard TransactionFront.commit() else {
            StrataDiagnostics.emit(.unbalancedCommit,
                "CATransaction.commit() without a matching begin() at \(file):\(line); ignored",
                file: file, line: line)
            return
        }
    }

    /// Commits the implicit transaction, if it is the only one open.
    open class func flush() { TransactionFront.flush() }

    /// Core Animation's transaction lock (a no-op: engines are per thread).
    open class func lock() {}
    /// See `lock()`.
    open class func unlock() {}

    /// Duration of the innermost transaction's implicit animations (0.25 s by default).
    open class func animationDuration() -> Double { TransactionFront.animationDuration() }

    /// Sets the innermost transaction's animation duration. Negative or non-finite values
    /// are refused with a diagnostic.
    open class func setAnimationDuration(_ dur: Double) {
        guard dur.isFinite && dur >= 0 else {
            StrataDiagnostics.emit(.nonFiniteValue, "setAnimationDuration(\(dur)): a duration must be finite and >= 0; ignored")
            return
        }
        TransactionFront.setAnimationDuration(dur)
    }

    /// Timing function of the innermost transaction's implicit animations (nil: each
    /// action's own; built-in actions use `.default`).
    open class func animationTimingFunction() -> CAMediaTimingFunction? { TransactionFront.animationTimingFunction() }

    /// Sets the innermost transaction's timing function.
    open class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        TransactionFront.setAnimationTimingFunction(function)
    }

    /// Whether property changes run no action in the innermost transaction.
    open class func disableActions() -> Bool { TransactionFront.disableActions() }

    /// Turns actions off (or on) for the innermost transaction.
    open class func setDisableActions(_ flag: Bool) { TransactionFront.setDisableActions(flag) }

    /// The innermost transaction's completion block.
    open class func completionBlock() -> (() -> Void)? { TransactionFront.completionBlock() }

    /// Sets a block run once every animation added to this transaction from now on (and to
    /// its nested transactions) has completed or been removed; at commit if there is none.
    open class func setCompletionBlock(_ block: (() -> Void)?) { TransactionFront.setCompletionBlock(block) }

    /// A transaction property: `"animationDuration"` and `"disableActions"` (NSNumber),
    /// `"animationTimingFunction"`, `"completionBlock"`, or any custom key (inherited).
    open class func value(forKey key: String) -> Any? {
        switch key {
        case "animationDuration": return NSNumber(value: animationDuration())
        case "disableActions": return NSNumber(value: disableActions())
        case "animationTimingFunction": return animationTimingFunction()
        case "completionBlock": return completionBlock()
        default: return TransactionFront.value(forKey: key)
        }
    }

    /// Sets a transaction property (see `value(forKey:)`). A value of the wrong type for a
    /// known key is refused with a diagnostic.
    open class func setValue(_ anObject: Any?, forKey key: String) {
        switch key {
        case "animationDuration":
            guard let v = anObject.flatMap(TransactionFront.number) else {
                StrataDiagnostics.emit(.wrongValueType, "CATransaction \"animationDuration\" takes a number; got \(String(describing: anObject))")
                return
            }
            setAnimationDuration(v)
        case "disableActions":
            guard let v = anObject.flatMap(TransactionFront.number) else {
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
            TransactionFront.setValue(anObject, forKey: key)
        }
    }
}
