import Foundation

/// Runs `body` on a thread of its own and waits for it: a fresh engine (engines are per
/// thread), so what it measures is not shaped by stores an earlier fixture of the calling
/// thread left behind. Errors `body` throws are rethrown here.
func onFreshEngine<T>(named name: String, _ body: @escaping () throws -> T) throws -> T {
    var outcome: Result<T, Error>?
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome = Result { try body() }
        done.signal()
    }
    thread.stackSize = 16 << 20
    thread.name = name
    thread.start()
    done.wait()
    return try outcome!.get()
}
