import Foundation

/// Runs `body` on a thread of its own and waits for it: a fresh engine (engines are per
/// thread), so what it measures is not shaped by stores an earlier fixture of the calling
/// thread left behind. Errors `body` throws are rethrown here.
func onFreshEngine<T>(named name: String, _ body: @escaping () throws -> T) throws -> T {
    let outcome = FreshEngineOutcome<T>(body)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome.result = Result { try outcome.body() }
        done.signal()
    }
    thread.stackSize = 16 << 20
    thread.name = name
    thread.start()
    done.wait()
    return try outcome.result!.get()
}

/// The body and its outcome, handed to the thread and back (the semaphore orders them).
private final class FreshEngineOutcome<T>: @unchecked Sendable {
    let body: () throws -> T
    var result: Result<T, Error>?
    init(_ body: @escaping () throws -> T) { self.body = body }
}
