#if canImport(Synchronization)
    import Synchronization
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether one registration (a handler, responder, middleware or observer) has
/// been cancelled, checked right before every call of what it registered.
///
/// This is what makes "once `cancel()` returns, the handler is not invoked again"
/// true. A token's `cancel()` first takes the registration out of where callers find it
/// (a message, change or push that begins afterwards cannot reach it), then sets this
/// flag, which every caller reads right before the call (``isCancelled``, with nothing
/// between the read and the call): a caller that took the registration from a snapshot
/// made before the cancel skips it from then on.
///
/// Where a caller does work between its check and the call (a responder's caller claims
/// the request's reply state and makes its handle), it announces the call and reads the
/// flag in one atomic step (``enter()``) and withdraws right before the call (``leave()``);
/// ``cancel()`` sets the flag, then waits until no caller is between the two. No user code
/// runs there, so the wait is bounded and cannot deadlock, and it never waits for a call
/// under way: a closure may cancel its own registration, and two may cancel each other's.
///
/// What no flag can close without waiting for running calls: a caller whose check passed
/// before the flag was set may be preempted between its last instruction and the closure's
/// first, so that first step may come a moment after `cancel()` returned. Such a call was
/// admitted before the cancel; no call is admitted after it.
///
/// An atomic where the system has `Synchronization.Atomic` (Linux, macOS 15,
/// iOS 18); before that, a lock stripe.
final class CancelFlag: @unchecked Sendable {
    // `@unchecked`: `lockedValue` is read and written only under this object's lock stripe;
    // `atomic` is immutable and itself Sendable.
    private let atomic: AnyObject?
    /// Bit 0: cancelled; the bits above: how many callers are between announcing and calling.
    nonisolated(unsafe) private var lockedValue = 0

    init() {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            atomic = AtomicFlag()
        } else {
            atomic = nil
        }
    }

    /// Whether ``cancel()`` has run (or is running): read right before each call, with nothing
    /// between the read and the call.
    @inline(__always)
    var isCancelled: Bool {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let atomic {
            return unsafeDowncast(atomic, to: AtomicFlag.self).value.load(ordering: .acquiring) & 1 != 0
        }
        return LockStripes.withLock(for: self) { lockedValue & 1 != 0 }
    }

    /// Announces a call and reads the flag in one atomic step: `false` (nothing announced) once
    /// cancelled. After `true`, the caller runs no user code until ``leave()``, which it calls
    /// immediately before the call.
    @inline(__always)
    func enter() -> Bool {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let atomic {
            let flag = unsafeDowncast(atomic, to: AtomicFlag.self)
            // Once the flag is set, callers no longer touch the count, so a `cancel()` waits only
            // for those that announced before (or while) it set the flag: its wait is bounded
            // however much traffic goes on.
            if flag.value.load(ordering: .acquiring) & 1 != 0 { return false }
            let before = flag.value.wrappingAdd(2, ordering: .acquiringAndReleasing).oldValue
            if before & 1 == 0 { return true }
            flag.value.wrappingSubtract(2, ordering: .acquiringAndReleasing)
            return false
        }
        return LockStripes.withLock(for: self) {
            if lockedValue & 1 != 0 { return false }
            lockedValue += 2
            return true
        }
    }

    /// Withdraws the announcement of ``enter()``.
    @inline(__always)
    func leave() {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let atomic {
            unsafeDowncast(atomic, to: AtomicFlag.self).value.wrappingSubtract(2, ordering: .acquiringAndReleasing)
            return
        }
        LockStripes.withLock(for: self) { lockedValue -= 2 }
    }

    /// Marks the registration cancelled, then waits for the callers that announced a call before
    /// (they are past their check, between announcing and calling: no user code, a few
    /// instructions; never a call under way). Every later ``isCancelled`` is `true` and every
    /// later ``enter()`` `false`.
    func cancel() {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let atomic {
            let flag = unsafeDowncast(atomic, to: AtomicFlag.self)
            flag.value.bitwiseOr(1, ordering: .acquiringAndReleasing)
            while flag.value.load(ordering: .acquiring) >> 1 != 0 { sched_yield() }
            return
        }
        LockStripes.withLock(for: self) { lockedValue |= 1 }
        while LockStripes.withLock(for: self, { lockedValue >> 1 }) != 0 { sched_yield() }
    }
}

/// The atomic storage of a ``CancelFlag``.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class AtomicFlag: Sendable {
    let value = Atomic<Int>(0)
}
