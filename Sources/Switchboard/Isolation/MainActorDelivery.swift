import Foundation

/// Whether the calling thread runs on the main actor right now, as far as delivery can tell, and
/// the two ways of calling a main-actor handler: at once (on the main actor) or through a hop.
///
/// Decided by isolation, not by thread: on Linux, main-actor code in a test process may run on a
/// worker thread. Every synchronous entry point takes the caller's isolation (`#isolation`); when
/// it is the main actor, the entry point marks the thread for the duration of the call (a
/// thread-specific value, set and restored around the synchronous delivery, so nothing after the
/// call, no task it starts and no other thread sees it). A thread the system runs as the main
/// thread counts too: on Apple platforms the main actor runs there (WebKit's callbacks).
///
/// Nonisolated handlers never look at any of this: only main-actor entries read the mark.
enum MainActorDelivery {
    /// The thread-specific mark: non-nil while a thread delivers for a caller on the main actor.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Any non-nil pointer: only its presence is read.
    private static var mark: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }

    /// Whether `isolation` is the main actor.
    @inline(__always)
    static func isMainActor(_ isolation: (any Actor)?) -> Bool {
        guard let isolation else { return false }
        return ObjectIdentifier(isolation) == ObjectIdentifier(MainActor.shared)
    }

    /// Runs `body` (synchronous delivery) with the calling thread marked as running on the main
    /// actor when `isolation` is the main actor; otherwise just runs it.
    @inline(__always)
    static func deliver<T>(isolation: (any Actor)?, _ body: () throws -> T) rethrows -> T {
        guard isMainActor(isolation) else { return try body() }
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, mark)
        defer { pthread_setspecific(key, previous) }
        return try body()
    }

    /// Whether the calling thread runs on the main actor now: inside a delivery for a caller on the
    /// main actor, or on the main thread.
    static var isCurrent: Bool {
        pthread_getspecific(key) != nil || Thread.isMainThread
    }
}
