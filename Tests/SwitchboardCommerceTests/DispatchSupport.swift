import Dispatch
import Foundation

/// Runs blocking `work` on a thread of its own, off Swift's cooperative pool.
func onDispatchThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        // A thread of its own: on Linux, Dispatch's global threads are the ones Swift's tasks
        // run on (as many as the processors), so blocking one starves the tasks too.
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
