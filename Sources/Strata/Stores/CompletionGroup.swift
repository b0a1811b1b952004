/// A transaction's completion block and the number of its timing entries still running.
/// Made by the `TransactionStack` (a level holds its group, and the stack queues it to fire
/// once it is committed and its last entry is done); the timing store's entries count toward
/// it, so it lives with the stores.
final class CompletionGroup {
    @exclusivity(unchecked) var pending = 0
    @exclusivity(unchecked) var committed = false
    @exclusivity(unchecked) var fired = false
    let block: () -> Void
    init(_ block: @escaping () -> Void) { self.block = block }
}
