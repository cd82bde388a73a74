#if canImport(Synchronization)
    import Synchronization
#endif

/// Whether one registration (a handler, responder, middleware or observer) has
/// been cancelled, read right before every call of what it registered.
///
/// This is what makes "once `cancel()` returns, the handler is not invoked again"
/// true: cancelling sets the flag before it returns, and delivery checks it after
/// it has read a route and decoded the body, immediately before the call. A call
/// that had already started may finish; none starts afterwards. Nothing waits:
/// a handler may cancel its own registration.
///
/// An atomic where the system has `Synchronization.Atomic` (Linux, macOS 15,
/// iOS 18); before that, a lock stripe.
final class CancelFlag: @unchecked Sendable {
    // `@unchecked`: `lockedValue` is read and written only under this object's lock stripe;
    // `atomic` is immutable and itself Sendable.
    private let atomic: AnyObject?
    nonisolated(unsafe) private var lockedValue = false

    init() {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            atomic = AtomicFlag()
        } else {
            atomic = nil
        }
    }

    /// Whether ``cancel()`` has run.
    @inline(__always)
    var isCancelled: Bool {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let atomic {
            return unsafeDowncast(atomic, to: AtomicFlag.self).value.load(ordering: .acquiring)
        }
        return LockStripes.withLock(for: self) { lockedValue }
    }

    /// Marks the registration cancelled; every later ``isCancelled`` is `true`.
    func cancel() {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let atomic {
            unsafeDowncast(atomic, to: AtomicFlag.self).value.store(true, ordering: .sequentiallyConsistent)
            return
        }
        LockStripes.withLock(for: self) { lockedValue = true }
    }
}

/// The atomic storage of a ``CancelFlag``.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class AtomicFlag: Sendable {
    let value = Atomic<Bool>(false)
}
