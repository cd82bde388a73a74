import Foundation

/// A value protected by a lock that ThreadSanitizer understands.
///
/// `Synchronization.Mutex` hands off through a futex that TSan on Linux cannot
/// see, so it reports false races; `NSLock` is built on pthread mutexes, which
/// TSan models. Every access to `state` happens inside `withLock`, which is
/// what makes the `@unchecked Sendable` conformance sound.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    // `@exclusivity(unchecked)`: the lock makes every access exclusive, so the
    // runtime check a class's stored `var` otherwise costs on each access is redundant.
    @exclusivity(unchecked) private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state. Never call back into
    /// user code from `body`: collect what to do and do it after unlocking.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
