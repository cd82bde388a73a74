/// A token for one registration (handler, responder, middleware, observer).
///
/// Cancelling the token, or releasing its last reference, unregisters. Once
/// ``cancel()`` returns (or the release that cancels), on any thread, what the token
/// registered (a handler, responder, middleware or observer) is not called again:
/// no delivery, diagnostic or manifest change that begins afterwards calls it. A call
/// that had already started on another thread may finish. Nothing waits for such a
/// call, so a handler may cancel its own registration (and two may cancel each other's)
/// without deadlock. Keep the token for as long as the registration should live:
/// ```swift
/// var tokens: [Registration] = []
/// tokens.append(router.on(SDKReady.self) { _, _ in print("ready") })
/// ```
public final class Registration: Sendable, Hashable {
    private let cancellation: Locked<(@Sendable () -> Void)?>
    /// The router's own tokens: an unregistration that is safe to repeat, run again by
    /// every later ``cancel()``. A `cancel()` that finds the first one still under way
    /// on another thread so returns only once the entry is gone and its flag is set,
    /// without waiting for that thread (which may be running a user's deinit or observer).
    private let repeatable: (@Sendable () -> Void)?

    /// Creates a token that runs `cancel` once, on ``cancel()`` or on release.
    ///
    /// A later ``cancel()``, or one on another thread while `cancel` is still running,
    /// returns at once without running it again (nor waiting for it).
    public convenience init(_ cancel: @escaping @Sendable () -> Void) {
        self.init(once: cancel, repeatable: nil)
    }

    private init(once: @escaping @Sendable () -> Void, repeatable: (@Sendable () -> Void)?) {
        cancellation = Locked(once)
        self.repeatable = repeatable
    }

    /// A token whose `unregister` runs on the first ``cancel()`` (or release) and again
    /// on every later one; `unregister` must be idempotent and run no user code.
    static func repeatable(_ unregister: @escaping @Sendable () -> Void) -> Registration {
        Registration(once: unregister, repeatable: unregister)
    }

    /// The token of every registration the library makes (handlers, responders, middleware,
    /// manifest and diagnostics observers): the one mechanism behind "once ``cancel()``
    /// returns, what it registered is not called again".
    ///
    /// Every caller of what was registered reads `cancelled` immediately before each call
    /// (no user code in between) and skips the call once it is set. Cancelling runs `remove`
    /// (which takes the registration out of where callers find it; idempotent, no user code
    /// under a lock) and then sets `cancelled`, on the first ``cancel()`` and again on every
    /// later one: a `cancel()` that races the first on another thread, or that finds the first
    /// still under way, so returns only once the flag is set too, without waiting for that
    /// thread. Nothing waits for a call under way, so a closure may cancel its own token.
    static func unregistering(
        _ cancelled: CancelFlag, _ remove: @escaping @Sendable () -> Void
    ) -> Registration {
        repeatable {
            remove()
            cancelled.cancel()
        }
    }

    /// A token that unregisters nothing.
    public static var inert: Registration { Registration {} }

    deinit {
        cancel()
    }

    /// Unregisters; once this returns, what was registered is not called again.
    ///
    /// Calling it again does nothing more. For the library's own tokens, every call (a
    /// second one, or two at once on two threads) returns only once what was registered
    /// can no longer be called, even while the first is still under way on another thread.
    public func cancel() {
        let action = cancellation.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        if let action {
            action()
        } else {
            repeatable?()
        }
    }

    /// Whether ``cancel()`` has run.
    public var isCancelled: Bool { cancellation.withLock { $0 == nil } }

    /// Tokens are equal when they are the same token.
    public static func == (lhs: Registration, rhs: Registration) -> Bool { lhs === rhs }

    /// Hashes the token's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Keeps this token alive in `set` (`router.on(…).store(in: &tokens)`).
    public func store(in set: inout Set<Registration>) {
        set.insert(self)
    }
}
