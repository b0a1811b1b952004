/// One open transaction of a thread's stack. Settings are copied from the enclosing level at
/// `begin`, so reading the effective value is O(1).
struct TransactionLevel {
    /// Opened by a change with no transaction open; committed at the next frame or flush.
    var implicit: Bool
    var duration: Double = 0.25
    var timingFunction: CAMediaTimingFunction? = nil
    var disableActions = false
    var completionBlock: (() -> Void)? = nil
    /// The completion group of this level's block (nil without a block).
    var group: CompletionGroup? = nil
    var values: [String: Any] = [:]
    /// The timing entry shared by this level's built-in implicit animations (-1: none yet).
    var implicitEntry: Int32 = -1
    /// Timing entries made at this level for explicit animations, reused for equal timing.
    var entryCache: [(TimingParameters, Int32)] = []
    /// The entries of this level's built-in implicit animations in layer time spaces, by
    /// space (`LayerStore.timeSpace`), and the last one asked for (consecutive changes are
    /// mostly in one space).
    var spaceEntries: [Int32: Int32] = [:]
    var lastSpace: Int32 = -1
    var lastSpaceEntry: Int32 = -1

    init(implicit: Bool) { self.implicit = implicit }

    /// A nested level inheriting this one's settings (not its completion block).
    func nested() -> TransactionLevel {
        var l = TransactionLevel(implicit: false)
        l.duration = duration
        l.timingFunction = timingFunction
        l.disableActions = disableActions
        l.values = values
        return l
    }

    /// Forget shared timing entries: settings they were made with have changed.
    mutating func invalidateEntries() {
        implicitEntry = -1
        entryCache.removeAll()
        spaceEntries.removeAll()
        lastSpace = -1
        lastSpaceEntry = -1
    }
}
