import Dispatch

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
        let completion = withLock { () -> Completion? in
            guard machine.answer(by: .any) == .resolveCaller else { return nil }
            return self.completion.take()
        }
        completion?(.failure(.dropped(channel)))
    }

    /// Runs `body` under this reply's lock stripe.
    private func withLock<R>(_ body: () -> R) -> R {
        LockStripes.withLock(for: self, body)
    }

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
        let completion = withLock { () -> Completion?? in
            guard machine.answer(by: answerer) == .resolveCaller else { return nil }
            return .some(self.completion.take())
        }
        guard let completion else { return false }
        let result = result()
        withLock { recorded = result }
        announce()
        completion?(result)
        return true
    }

    // MARK: The responder's side (through `Reply`)

    /// The responder replied with a value or a failure; returns whether this call resolved the caller.
    @discardableResult
    func reply(_ result: Result<ReplyValue, RequestFailure>) -> Bool {
        let (action, completion, report) = withLock {
            () -> (ReplyStateMachine.Action, Completion?, DiagnosticSink?) in
            let action = machine.reply()
            guard action == .resolveCaller else { return (action, nil, self.report) }
            recorded = result
            return (action, self.completion.take(), self.report)
        }
        switch action {
        case .resolveCaller:
            if case .failure(.responderFailed(_, let message)) = result {
                report?.emit(.responderFailed(channel, message: message))
            }
            completion?(result)
            return true
        case .reportIgnoredReply(let after):
            report?.emit(after == .timedOut ? .lateReply(channel) : .duplicateReply(channel))
            return false
        case .none:
            return false
        }
    }

    /// The reply handle was released; resolves the caller with ``RequestFailure/dropped(_:)`` if still pending.
    func handleReleased() {
        let (resolved, completion, report) = withLock { () -> (Bool, Completion?, DiagnosticSink?) in
            guard machine.handleReleased() == .resolveCaller else { return (false, nil, nil) }
            recorded = .failure(.dropped(channel))
            return (true, self.completion.take(), self.report)
        }
        guard resolved else { return }
        report?.emit(.replyDropped(channel))
        completion?(.failure(.dropped(channel)))
    }

    /// Sets what to do when the deadline passes (cancel the task of an `async` responder).
    /// Runs `action` at once if the deadline has passed already.
    func onDeadline(_ action: @escaping @Sendable () -> Void) {
        let (runNow, replaced) = withLock { () -> (Bool, (@Sendable () -> Void)?) in
            guard machine.phase != .timedOut else { return (true, nil) }
            defer { onDeadline = action }
            return (false, onDeadline.take())
        }
        withExtendedLifetime(replaced) {}
        if runNow { action() }
    }

    /// The deadline passed; resolves the caller with the fallback or ``RequestFailure/timedOut(_:after:)``.
    func deadlinePassed(after deadline: Duration) {
        let taken = withLock {
            () -> (Completion?, (@Sendable () -> Void)?, ReplyValue?, DiagnosticSink?)? in
            guard machine.deadlinePassed() == .resolveCaller else { return nil }
            recorded = fallback.map { .success($0) } ?? .failure(.timedOut(channel, after: deadline))
            return (completion.take(), onDeadline.take(), fallback, report)
        }
        guard let (completion, action, fallback, report) = taken else { return }
        action?()
        report?.emit(.deadlinePassed(channel, after: deadline, usedFallback: fallback != nil))
        if let fallback {
            completion?(.success(fallback))
        } else {
            completion?(.failure(.timedOut(channel, after: deadline)))
        }
    }

    /// Starts the deadline clock, unless the reply is already resolved.
    func armDeadline(_ deadline: Duration) {
        guard !isResolved else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(deadline.nanosecondsClamped)) { [self] in
            self.deadlinePassed(after: deadline)
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
