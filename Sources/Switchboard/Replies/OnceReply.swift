import Dispatch

/// The caller's side of one message's reply: a completion that runs exactly
/// once, whichever path resolves it first (delivery, the outcome of middleware,
/// a buffer discarding the message, a deadline, or the handle's own release).
///
/// Besides the completion it records who is responsible for resolving it, so
/// that the router never resolves a request twice and never hands one request
/// to a responder twice:
///
/// ```
///   unclaimed ──keep()──▶ kept ──claimForResponder()──▶ responder
///       │                                                   ▲
///       └──────────────claimForResponder()──────────────────┘
/// ```
/// Any state may be resolved; once resolved, nothing runs the completion again.
final class OnceReply: @unchecked Sendable {
    // `@unchecked`: the two `var`s are read and written only under this object's lock stripe.
    typealias Completion = @Sendable (Result<ReplyValue, RequestFailure>) -> Void

    enum Claim: Sendable {
        /// No delivery path took the reply: whoever finishes the chain resolves it.
        case unclaimed
        /// A buffer keeps the message; the keep deadline resolves it unless a responder claims it.
        case kept
        /// A responder's ``ReplyState`` resolves it.
        case responder
    }

    /// The channel the message was sent on (for the failure given on release).
    let channel: Channel
    // Guarded by `LockStripes` for this object. Stored here, not in a generic
    // `Locked`: a closure kept in generic storage is re-wrapped (an allocation)
    // every time it is taken out.
    nonisolated(unsafe) private var completion: Completion?
    nonisolated(unsafe) private var claim = Claim.unclaimed

    init(channel: Channel, _ completion: @escaping Completion) {
        self.channel = channel
        self.completion = completion
    }

    deinit {
        // A safety net: a caller is never left waiting because every reference went away.
        withLock { completion.take() }?(.failure(.dropped(channel)))
    }

    /// Runs `body` under this reply's lock (one of `LockStripes`: a reply takes no lock of its own).
    private func withLock<R>(_ body: () -> R) -> R {
        LockStripes.withLock(for: self, body)
    }

    /// Whether the completion has run.
    var isResolved: Bool { withLock { completion == nil } }

    /// Hands the reply to a responder. Returns `false` (and changes nothing) when the
    /// reply is resolved already or a responder has it already: the request must not
    /// reach a responder again (a middleware called `next` twice, or late).
    func claimForResponder() -> Bool {
        withLock {
            guard completion != nil, claim != .responder else { return false }
            claim = .responder
            return true
        }
    }

    /// Marks that a buffer keeps the message.
    func markKept() {
        withLock {
            if claim == .unclaimed { claim = .kept }
        }
    }

    /// Runs the completion with `result` if it has not run yet; returns whether this call ran it.
    @discardableResult
    func resolve(_ result: Result<ReplyValue, RequestFailure>) -> Bool {
        guard let completion = withLock({ self.completion.take() }) else { return false }
        completion(result)
        return true
    }

    /// Resolves with `result` only when no delivery path claimed the reply
    /// (the message was stopped before delivery). Returns whether it resolved.
    @discardableResult
    func resolveIfUnclaimed(_ result: () -> Result<ReplyValue, RequestFailure>) -> Bool {
        let completion = withLock { () -> Completion? in
            guard claim == .unclaimed else { return nil }
            return self.completion.take()
        }
        guard let completion else { return false }
        completion(result())
        return true
    }

    /// Resolves with `result` unless a responder claimed the reply; for the deadline
    /// of a kept message, which must not cut short the responder's own deadline.
    /// `announce` runs first when this call wins, so a diagnostic is reported before
    /// the caller resumes (as on every other path).
    @discardableResult
    func resolveUnlessAtResponder(_ result: Result<ReplyValue, RequestFailure>, announce: () -> Void = {}) -> Bool {
        let completion = withLock { () -> Completion? in
            guard claim != .responder else { return nil }
            return self.completion.take()
        }
        guard let completion else { return false }
        announce()
        completion(result)
        return true
    }
}

extension Optional {
    /// Returns the wrapped value and leaves `nil` behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
