import Dispatch

/// The storage that runs one ``ReplyStateMachine`` behind a lock and resolves
/// the caller outside it. Shared by the ``Reply`` handle, the deadline timer
/// and the router; the caller's completion runs exactly once.
final class ReplyState: @unchecked Sendable {
    // `@unchecked`: `state` is read and written only under this object's lock stripe.
    typealias Completion = @Sendable (Result<ReplyValue, RequestFailure>) -> Void

    private struct Inner {
        var machine = ReplyStateMachine()
        var completion: Completion?
        var result: Result<ReplyValue, RequestFailure>?
        var onDeadline: (@Sendable () -> Void)?
    }

    let channel: Channel
    private let fallback: ReplyValue?
    private let report: DiagnosticSink
    // Guarded by `LockStripes` for this object (one per request: no lock of its own to
    // set up), and not in a generic `Locked`, where a closure is re-wrapped (allocated)
    // each time it is taken out.
    nonisolated(unsafe) private var state: Inner

    init(channel: Channel, fallback: ReplyValue?, report: DiagnosticSink, completion: Completion?) {
        self.channel = channel
        self.fallback = fallback
        self.report = report
        self.state = Inner(completion: completion)
    }

    /// Runs `body` with the state, under this object's lock stripe.
    private func withLock<R>(_ body: (inout Inner) -> R) -> R {
        LockStripes.withLock(for: self) { body(&state) }
    }

    /// Whether the caller has been resolved (replied, dropped or timed out).
    var isResolved: Bool {
        withLock { $0.machine.phase != .pending }
    }

    /// How the request was resolved, or `nil` while it is pending.
    var result: Result<ReplyValue, RequestFailure>? {
        withLock { $0.result }
    }

    /// Resolves the caller with a reply or a failure; returns whether this call won.
    @discardableResult
    func resolve(_ result: Result<ReplyValue, RequestFailure>) -> Bool {
        let (action, completion) = withLock { inner -> (ReplyStateMachine.Action, Completion?) in
            let action = inner.machine.reply()
            if action == .resolveCaller { inner.result = result }
            return (action, action == .resolveCaller ? inner.completion.take() : nil)
        }
        switch action {
        case .resolveCaller:
            if case .failure(.responderFailed(_, let message)) = result {
                report.emit(.responderFailed(channel, message: message))
            }
            completion?(result)
            return true
        case .reportIgnoredReply(let after):
            report.emit(after == .timedOut ? .lateReply(channel) : .duplicateReply(channel))
            return false
        case .none:
            return false
        }
    }

    /// The reply handle was released; resolves the caller with ``RequestFailure/dropped(_:)`` if still pending.
    func handleReleased() {
        let completion = withLock { inner -> Completion? in
            guard inner.machine.handleReleased() == .resolveCaller else { return nil }
            inner.result = .failure(.dropped(channel))
            return inner.completion.take()
        }
        guard let completion else { return }
        report.emit(.replyDropped(channel))
        completion(.failure(.dropped(channel)))
    }

    /// Sets what to do when the deadline passes (cancel the task of an `async` responder).
    /// Runs `action` at once if the deadline has passed already.
    func onDeadline(_ action: @escaping @Sendable () -> Void) {
        let runNow = withLock { inner -> Bool in
            guard inner.machine.phase != .timedOut else { return true }
            inner.onDeadline = action
            return false
        }
        if runNow { action() }
    }

    /// The deadline passed; resolves the caller with the fallback or ``RequestFailure/timedOut(_:after:)``.
    func deadlinePassed(after deadline: Duration) {
        let (completion, action) = withLock { inner -> (Completion?, (@Sendable () -> Void)?) in
            guard inner.machine.deadlinePassed() == .resolveCaller else { return (nil, nil) }
            inner.result = fallback.map { .success($0) } ?? .failure(.timedOut(channel, after: deadline))
            return (inner.completion.take(), inner.onDeadline.take())
        }
        guard let completion else { return }
        action?()
        report.emit(.deadlinePassed(channel, after: deadline, usedFallback: fallback != nil))
        if let fallback {
            completion(.success(fallback))
        } else {
            completion(.failure(.timedOut(channel, after: deadline)))
        }
    }

    /// Starts the deadline clock, unless the reply is already resolved.
    func armDeadline(_ deadline: Duration) {
        guard !isResolved else { return }
        let nanoseconds = deadline.nanosecondsClamped
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [self] in
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
