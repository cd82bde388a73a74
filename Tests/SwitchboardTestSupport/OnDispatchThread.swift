import Dispatch
import Foundation

/// Runs blocking `work` on a thread of its own, off Swift's cooperative pool.
///
/// Not on `DispatchQueue.global()`: on Linux, Swift's tasks run on Dispatch's global
/// threads, which are as many as the processors; two tests blocked there waiting for an
/// `async` responder's task would leave that task no thread until the reply deadline.
public func onDispatchThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
