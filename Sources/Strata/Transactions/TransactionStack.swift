/// A thread's open transactions, innermost last, and the completion groups waiting to fire.
/// The stack knows nesting, settings, completion and its levels' timing entries
/// (`TransactionStack+Entries.swift`); what a commit does to the stores is the change log's
/// (`ChangeLog+Commit.swift`), which the owner's `commitTop` runs.
struct TransactionStack: RandomAccessCollection, MutableCollection {
    private var levels: [TransactionLevel] = []
    /// Groups whose animations are all done and whose level is committed, in the order they
    /// became ready.
    private var ready: [CompletionGroup] = []

    init() { levels.reserveCapacity(8) }

    var startIndex: Int { @inline(__always) get { 0 } }
    var endIndex: Int { @inline(__always) get { levels.count } }

    /// A level in place: reading one setting neither copies the level nor retains its
    /// block, function or values (a `get` would, on the change path).
    subscript(i: Int) -> TransactionLevel {
        @inline(__always) _read { yield levels[i] }
        @inline(__always) _modify { yield &levels[i] }
    }

    /// Opens an implicit transaction when none is open.
    @inline(__always)
    mutating func ensureOpen() {
        if levels.isEmpty { levels.append(TransactionLevel(implicit: true)) }
    }

    /// `begin()`: a level nested in the innermost one, inheriting its settings.
    mutating func begin() {
        levels.append(levels.last?.nested() ?? TransactionLevel(implicit: false))
    }

    /// Whether an explicit (`begin()`) transaction is open.
    var hasExplicit: Bool { levels.contains { !$0.implicit } }

    /// Pops the innermost level; its completion group is committed (and queued when its
    /// animations are already done).
    @discardableResult
    mutating func pop() -> TransactionLevel? {
        guard let top = levels.popLast() else { return nil }
        if let g = top.group {
            g.committed = true
            if g.pending == 0 { ready.append(g) }
        }
        return top
    }

    /// Completion groups of every open level, innermost first (a new timing entry counts
    /// toward each).
    func openGroups() -> [CompletionGroup] {
        var g: [CompletionGroup] = []
        for l in levels.reversed() { if let x = l.group { g.append(x) } }
        return g
    }

    /// A timing entry counting toward `groups` completed or lost its last animation.
    mutating func entryDone(_ groups: [CompletionGroup]) {
        for group in groups {
            group.pending -= 1
            if group.pending == 0 && group.committed { ready.append(group) }
        }
    }

    /// Whether a completion group waits to fire.
    var hasReadyGroups: Bool { @inline(__always) get { !ready.isEmpty } }

    /// The next group to fire, marked fired (its block may open transactions itself, so the
    /// caller runs it with the stack free).
    mutating func nextReadyGroup() -> CompletionGroup? {
        while !ready.isEmpty {
            let g = ready.removeFirst()
            if g.fired { continue }
            g.fired = true
            return g
        }
        return nil
    }
}
