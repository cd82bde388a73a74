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
/// true. A caller announces that it is about to call (a count) and, in the same atomic
/// step, reads the flag; it withdraws its announcement right before the call
/// (``admit()``). ``cancel()`` sets the flag, then waits until no caller is between its
/// announcement and its call. No user code runs there (the caller only reads the flag and
/// steps on), so the wait is bounded and cannot deadlock, and it never waits for a call
/// under way: a handler may cancel its own registration, and two may cancel each other's.
/// A caller that announces after the flag is set sees it and calls nothing. One that
/// announced before has passed its check: its call may still begin just after `cancel()`
/// returns (a thread preempted between withdrawing and calling), the narrow window left.
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

    /// Whether ``cancel()`` has run (or is running).
    @inline(__always)
    var isCancelled: Bool {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let atomic {
            return unsafeDowncast(atomic, to: AtomicFlag.self).value.load(ordering: .acquiring) & 1 != 0
        }
        return LockStripes.withLock(for: self) { lockedValue & 1 != 0 }
    }

    /// For a caller about to call what was registered: announces the call and reads the flag in
    /// one atomic step, then withdraws the announcement. Call it immediately before the call,
    /// with nothing in between.
    /// - Returns: `true` when the caller may call (a ``cancel()`` that began meanwhile waits for
    ///   this to return); `false` once cancelled.
    @inline(__always)
    func admit() -> Bool {
        guard enter() else { return false }
        leave()
        return true
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
