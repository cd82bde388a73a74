import Foundation

/// One spare object per thread, kept between uses in a thread-specific slot
/// (a pthread key), so a hot path can reuse an object instead of allocating one
/// per call. The spare is released when its thread ends.
///
/// ``take()`` empties the slot (a nested use on the same thread then makes its
/// own object); ``keep(_:)`` fills it unless it is full. Only objects nobody
/// else holds may be kept.
package struct ThreadSpare<Object: AnyObject>: Sendable {
    /// The thread-specific slot; `nil` if the system had no key to give (then nothing is kept).
    private let key: pthread_key_t?

    init() {
        var key = pthread_key_t()
        // On thread exit, the spare is released (by any type: the key holds one retained reference).
        #if canImport(Darwin)
            let created = pthread_key_create(&key) { Unretained<AnyObject>.release($0) }
        #else
            let created = pthread_key_create(&key) { pointer in
                guard let pointer else { return }
                Unretained<AnyObject>.release(pointer)
            }
        #endif
        self.key = created == 0 ? key : nil
    }

    /// Takes the calling thread's spare, if it has one.
    func take() -> Object? {
        guard let key, let pointer = pthread_getspecific(key) else { return nil }
        pthread_setspecific(key, nil)
        return Unretained<Object>.take(pointer)
    }

    /// Calls `body` with the calling thread's spare (`nil` when it has none), lent for the
    /// call: it stays in the slot. For a slot filled with ``keep(_:)`` and never emptied with
    /// ``take()``, and a `body` that does not use the slot again.
    func withSpare<Result>(_ body: (Object?) -> Result) -> Result {
        guard let key, let pointer = pthread_getspecific(key) else { return body(nil) }
        return Unretained<Object>.borrow(pointer, body)
    }

    /// Keeps `object` as the calling thread's spare, unless it has one.
    func keep(_ object: consuming Object) {
        guard let key, pthread_getspecific(key) == nil else { return }
        pthread_setspecific(key, Unretained.retainedPointer(object))
    }
}
