/// A transaction's completion block and the number of its timing entries still running.
/// Owned by the `TransactionStack`: a level holds its group, timing entries count toward it,
/// and the stack queues it to fire once it is committed and its last entry is done.
final class CompletionGroup {
    @exclusivity(unchecked) var pending = 0
    @exclusivity(unchecked) var committed = false
    @exclusivity(unchecked) var fired = false
    let block: () -> Void
    init(_ block: @escaping () -> Void) { self.block = block }
}
