import Foundation

/// Runs blocking `work` on a thread of its own, off Swift's cooperative pool, and returns what
/// it returns (or throws what it throws).
///
/// Not on `DispatchQueue.global()`: on Linux, Swift's tasks run on Dispatch's global
/// threads, which are as many as the processors; two tests blocked there waiting for an
/// `async` responder's task would leave that task no thread until the reply deadline.
///
/// - Parameters:
///   - stackSize: the thread's stack in bytes, for work whose depth is the point of the test
///     (see ``AddressSanitizer/stackSize(_:)``); the platform's default when nil.
///   - work: what to run.
/// - Returns: what `work` returned.
public func onDispatchThread<T: Sendable, Failure: Error>(
    stackSize: Int? = nil, _ work: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        let thread = Thread { continuation.resume(returning: Result { () throws(Failure) in try work() }) }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
    return try result.get()
}
