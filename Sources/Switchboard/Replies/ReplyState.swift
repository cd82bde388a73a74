import Dispatch
import Foundation

/// The storage of one request's reply: runs its ``ReplyStateMachine`` under a
/// lock stripe and performs the actions the machine returns after unlocking.
///
/// One object per request, shared by the caller's side (the completion given to
/// `receive`), the router (delivery, buffers, the end of the middleware chain),
/// the responder's ``Reply`` handle and the deadline timer. The completion runs
/// exactly once, whichever of them resolves the request first.
///
/// The critical sections only read and write the machine and move values out
/// (`take()`): the completion, a deadline action and everything else a user gave
/// are called or released after the stripe is unlocked (a stripe is shared and
/// not recursive, and a reply's `deinit` takes its stripe).
final class ReplyState: @unchecked Sendable {
    // `@unchecked`: the `nonisolated(unsafe)` properties are read and written only
    // under this object's lock stripe.
    typealias Completion = @Sendable (Result<ReplyValue, RequestFailure>) -> Void

    /// The channel the request was sent on.
    let channel: Channel
    // Guarded by `LockStripes` for this object (one per request: no lock of its own to
    // set up). Not in a generic `Locked`, where a closure is re-wrapped (an allocation)
    // every time it is taken out.
    nonisolated(unsafe) private var machine = ReplyStateMachine()
    nonisolated(unsafe) private var completion: Completion?
    nonisolated(unsafe) private var recorded: Result<ReplyValue, RequestFailure>?
    nonisolated(unsafe) private var onDeadline: (@Sendable () -> Void)?
    /// Set when a responder claims the request.
    nonisolated(unsafe) private var fallback: ReplyValue?
    nonisolated(unsafe) private var report: DiagnosticSink?

    /// - Parameters:
    ///   - channel: the request's channel.
    ///   - completion: the caller's completion, or `nil` when nobody waits for the reply
    ///     (a responder still gets a handle; its reply becomes the message's outcome).
    init(channel: Channel, completion: Completion?) {
        self.channel = channel
        self.completion = completion
    }

    deinit {
        // A safety net: a caller is never left waiting because every reference went away.
        let stripe = lock()
        let completion = machine.answer(by: .any) == .resolveCaller ? takeCompletion() : nil
        pthread_mutex_unlock(stripe)
        completion?(.failure(.dropped(channel)))
    }

    /// Runs `body` under this reply's lock stripe.
    @inline(__always)
    private func withLock<R>(_ body: () -> R) -> R {
        LockStripes.withLock(for: self, body)
    }

    // The methods that take a closure out (the completion, the deadline action) lock and
    // unlock by hand, and take it with a method of this class, not the generic
    // `Optional.take()`: a closure that passes through a generic parameter or result (`withLock`'s
    // `R`) comes out wrapped in a reabstraction thunk, an allocation per reply, through which
    // the completion would then be called. Nothing between `lock()` and its unlock can throw.

    /// Locks this reply's lock stripe and returns it, for `pthread_mutex_unlock`.
    @inline(__always)
    private func lock() -> UnsafeMutablePointer<pthread_mutex_t> {
        let stripe = LockStripes.mutex(for: self)
        pthread_mutex_lock(stripe)
        return stripe
    }

    /// The completion, leaving `nil` (called under the lock).
    private func takeCompletion() -> Completion? {
        let taken = completion
        completion = nil
        return taken
    }

    /// The deadline action, leaving `nil` (called under the lock).
    private func takeOnDeadline() -> (@Sendable () -> Void)? {
        let taken = onDeadline
        onDeadline = nil
        return taken
    }

    /// Releases a deadline action taken out under the lock, once unlocked (a request resolved
    /// before its deadline needs it no more). `withExtendedLifetime` would do, but it is generic:
    /// it would look the closure type's metadata up at run time on every reply.
    @inline(never)
    private static func release(_ action: consuming (@Sendable () -> Void)?) {}

    /// Whether the caller has been resolved (answered, dropped or timed out).
    var isResolved: Bool { withLock { machine.isResolved } }

    /// How the request was resolved, or `nil` while it is pending.
    var result: Result<ReplyValue, RequestFailure>? { withLock { recorded } }

    // MARK: The router's side

    /// Hands the request to a responder with its fallback; `false` (nothing changes)
    /// when it is resolved already or a responder has it already.
    func claimForResponder(fallback: ReplyValue?, report: DiagnosticSink) -> Bool {
        withLock {
            guard machine.claimForResponder() else { return false }
            // Both were `nil`: nothing is released here.
            self.fallback = fallback
            self.report = report
            return true
        }
    }

    /// Whether the request may still go to a responder (it is pending and no responder has it).
    var mayGoToResponder: Bool {
        withLock { !machine.isResolved && machine.holder != .responder }
    }

    /// Marks that a buffer keeps the request.
    func markKept() {
        withLock { machine.markKept() }
    }

    /// Resolves the caller with `result` if `answerer` may (see ``ReplyStateMachine/Answerer``)
    /// and the request is pending. `announce` runs first when this call wins, so a
    /// diagnostic is reported before the caller resumes.
    /// - Returns: whether this call resolved the caller.
    @discardableResult
    func answer(
        _ result: @autoclosure () -> Result<ReplyValue, RequestFailure>,
        by answerer: ReplyStateMachine.Answerer = .any, announce: () -> Void = {}
    ) -> Bool {
        var stripe = lock()
        guard machine.answer(by: answerer) == .resolveCaller else {
            pthread_mutex_unlock(stripe)
            return false
        }
        let completion = takeCompletion()
        let deadlineAction = takeOnDeadline()
        pthread_mutex_unlock(stripe)
        ReplyState.release(deadlineAction)
        let result = result()
        stripe = lock()
        recorded = result
        pthread_mutex_unlock(stripe)
        announce()
        completion?(result)
        return true
    }

    // MARK: The responder's side (through `Reply`)

    /// The responder replied with a value or a failure; returns whether this call resolved the caller.
    /// `reportUnhandled`: the responder was never called (an `async` responder cancelled before
    /// its task could call it): the request is reported as ``Diagnostic/unhandled(_:)`` when this
    /// call resolves it, and nothing is reported when it is resolved already (its deadline
    /// passed first: a late reply would be one nobody made).
    /// `reportIfIgnored`: `false` for a failure that means nothing once the request is resolved
    /// (an `async` responder's task cancelled by the deadline throws): ignored without a diagnostic.
    @discardableResult
    func reply(
        _ result: Result<ReplyValue, RequestFailure>, reportUnhandled: Bool = false, reportIfIgnored: Bool = true
    ) -> Bool {
        let stripe = lock()
        let action = machine.reply()
        var completion: Completion?
        var deadlineAction: (@Sendable () -> Void)?
        if action == .resolveCaller {
            recorded = result
            completion = takeCompletion()
            deadlineAction = takeOnDeadline()
        }
        let report = self.report
        pthread_mutex_unlock(stripe)
        ReplyState.release(deadlineAction)
        switch action {
        case .resolveCaller:
            if case .failure(.responderFailed(_, let message, _)) = result {
                report?.emit(.responderFailed(channel, message: message))
            } else if reportUnhandled {
                report?.emit(.unhandled(channel))
            }
            completion?(result)
            return true
        case .reportIgnoredReply(let after):
            guard !reportUnhandled, reportIfIgnored else { return false }
            report?.emit(after == .timedOut ? .lateReply(channel) : .duplicateReply(channel))
            return false
        case .none:
            return false
        }
    }

    /// The reply handle was released; resolves the caller with ``RequestFailure/dropped(_:)`` if still pending.
    func handleReleased() {
        let stripe = lock()
        guard machine.handleReleased() == .resolveCaller else {
            pthread_mutex_unlock(stripe)
            return
        }
        recorded = .failure(.dropped(channel))
        let completion = takeCompletion()
        let deadlineAction = takeOnDeadline()
        let report = self.report
        pthread_mutex_unlock(stripe)
        ReplyState.release(deadlineAction)
        report?.emit(.replyDropped(channel))
        completion?(.failure(.dropped(channel)))
    }

    /// Sets what to do when the deadline passes (cancel the task of an `async` responder).
    /// Runs `action` at once if the deadline has passed already; keeps it only while the
    /// request is pending (resolving the request releases it).
    func onDeadline(_ action: @escaping @Sendable () -> Void) {
        let stripe = lock()
        let runNow = machine.phase == .timedOut
        var replaced: (@Sendable () -> Void)?
        if !runNow && !machine.isResolved {
            replaced = takeOnDeadline()
            onDeadline = action
        }
        pthread_mutex_unlock(stripe)
        withExtendedLifetime(replaced) {}
        if runNow { action() }
    }

    /// The deadline passed; resolves the caller with the fallback or ``RequestFailure/timedOut(_:after:)``.
    func deadlinePassed(after deadline: Duration) {
        let stripe = lock()
        guard machine.deadlinePassed() == .resolveCaller else {
            pthread_mutex_unlock(stripe)
            return
        }
        recorded = fallback.map { .success($0) } ?? .failure(.timedOut(channel, after: deadline))
        let completion = takeCompletion()
        let action = takeOnDeadline()
        let fallback = self.fallback
        let report = self.report
        pthread_mutex_unlock(stripe)
        action?()
        report?.emit(.deadlinePassed(channel, after: deadline, usedFallback: fallback != nil))
        if let fallback {
            completion?(.success(fallback))
        } else {
            completion?(.failure(.timedOut(channel, after: deadline)))
        }
    }

    /// Starts the deadline clock, unless the reply is already resolved.
    ///
    /// The timer (which Dispatch cannot cancel) holds this state only weakly: a request
    /// answered before its deadline is freed at once, with everything it holds (the reply,
    /// the `async` responder's task), not when the timer fires. A pending request is kept
    /// alive by whoever can still answer it (the responder's ``Reply`` handle, a buffer);
    /// when the last of them goes, the request is resolved as dropped (`deinit`), so the
    /// timer finding it gone has nothing left to do.
    func armDeadline(_ deadline: Duration) {
        guard !isResolved else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(deadline.nanosecondsClamped)) {
            [weak self] in
            self?.deadlinePassed(after: deadline)
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to what `DispatchTimeInterval` holds.
    package var nanosecondsClamped: Int {
        let (seconds, attoseconds) = components
        if seconds <= 0 && attoseconds <= 0 { return 0 }
        if seconds >= Int64(Int.max / 1_000_000_000) - 1 { return Int.max / 2 }
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}

extension Optional {
    /// Returns the wrapped value and leaves `nil` behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
