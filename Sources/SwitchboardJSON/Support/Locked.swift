import Foundation

/// A value protected by a lock that ThreadSanitizer understands.
///
/// `Synchronization.Mutex` hands off through a futex that TSan on Linux cannot
/// see, so it reports false races; a pthread mutex is what TSan models (and
/// what `NSLock` wraps). The mutex is used directly: `NSLock` would add an
/// object and a dynamically dispatched call on every lock and unlock, and this
/// type guards every message's route lookup and every reply. Every access to
/// `state` happens inside `withLock`, which is what makes the
/// `@unchecked Sendable` conformance sound.
package final class Locked<State>: @unchecked Sendable {
    // Both `@usableFromInline` (and so not `private`), for `withLock` to be `@inlinable`:
    // other modules of the package (the stores, the wire session) lock once or more per
    // message, and a generic call across modules is not specialized otherwise. Nothing
    // but `init`, `deinit` and `withLock` touches them.

    /// Allocated once and never moved (a pthread mutex must keep its address).
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // `@exclusivity(unchecked)`: the lock makes every access exclusive, so the
    // runtime check a class's stored `var` otherwise costs on each access is redundant.
    @usableFromInline @exclusivity(unchecked) var state: State

    package init(_ state: State) {
        self.state = state
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Never call back into
    /// user code from `body`: collect what to do and do it after unlocking.
    @inlinable
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
