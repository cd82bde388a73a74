import Foundation

/// A fixed set of pthread mutexes shared by many small, short-lived objects
/// (one reply per message), each object using the one its address selects.
///
/// A lock of its own would cost such an object an allocation and a mutex set-up
/// and tear-down per message; a stripe costs neither. Two objects may share a
/// stripe, and stripes are not recursive, so a body must be short, must not block,
/// must never take another lock, and must not release the last reference to
/// anything (a reply's `deinit` takes its stripe, perhaps the same one): move a
/// value out (`take()`) and let it go after the body. The same rules as
/// ``Locked/withLock(_:)``, plus the last. Like `Locked`, a pthread mutex is what
/// ThreadSanitizer understands.
enum LockStripes {
    /// A power of two; enough that unrelated replies on a few threads rarely meet.
    private static let count = 64

    /// Made once and never freed (they live as long as the process). `nonisolated(unsafe)`:
    /// the pointer itself never changes after its one-time initialisation, and what it
    /// points to is the mutexes, which are made to be shared between threads.
    nonisolated(unsafe) private static let mutexes: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutexes = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: count)
        for index in 0..<count {
            (mutexes + index).initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutexes + index, nil)
        }
        return mutexes
    }()

    /// The stripe of `object`, for a caller that locks and unlocks it itself around a few
    /// stores that cannot throw (``ReplyState``, which takes closures out).
    @inline(__always)
    static func mutex(for object: AnyObject) -> UnsafeMutablePointer<pthread_mutex_t> {
        // Objects are at least 16-byte aligned: the bits above those pick the stripe.
        mutexes + Int((UInt(bitPattern: ObjectIdentifier(object)) >> 4) & UInt(count - 1))
    }

    /// Runs `body` holding the stripe of `object`.
    static func withLock<R>(for object: AnyObject, _ body: () throws -> R) rethrows -> R {
        let mutex = mutex(for: object)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
