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
final class OnceReply: Sendable {
    typealias Completion = @Sendable (Result<ReplyValue, RequestFailure>) -> Void

    enum Claim: Sendable {
        /// No delivery path took the reply: whoever finishes the chain resolves it.
        case unclaimed
        /// A buffer keeps the message; the keep deadline resolves it unless a responder claims it.
        case kept
        /// A responder's ``ReplyState`` resolves it.
        case responder
    }

    private struct Inner {
        var completion: Completion?
        var claim = Claim.unclaimed
    }

    /// The channel the message was sent on (for the failure given on release).
    let channel: Channel
    private let inner: Locked<Inner>

    init(channel: Channel, _ completion: @escaping Completion) {
        self.channel = channel
        inner = Locked(Inner(completion: completion))
    }

    deinit {
        // A safety net: a caller is never left waiting because every reference went away.
        inner.withLock { $0.completion.take() }?(.failure(.dropped(channel)))
    }

    /// Whether the completion has run.
    var isResolved: Bool { inner.withLock { $0.completion == nil } }

    /// Hands the reply to a responder. Returns `false` (and changes nothing) when the
    /// reply is resolved already or a responder has it already: the request must not
    /// reach a responder again (a middleware called `next` twice, or late).
    func claimForResponder() -> Bool {
        inner.withLock { inner in
            guard inner.completion != nil, inner.claim != .responder else { return false }
            inner.claim = .responder
            return true
        }
    }

    /// Marks that a buffer keeps the message.
    func markKept() {
        inner.withLock { inner in
            if inner.claim == .unclaimed { inner.claim = .kept }
        }
    }

    /// Runs the completion with `result` if it has not run yet; returns whether this call ran it.
    @discardableResult
    func resolve(_ result: Result<ReplyValue, RequestFailure>) -> Bool {
        guard let completion = inner.withLock({ $0.completion.take() }) else { return false }
        completion(result)
        return true
    }

    /// Resolves with `result` only when no delivery path claimed the reply
    /// (the message was stopped before delivery). Returns whether it resolved.
    @discardableResult
    func resolveIfUnclaimed(_ result: () -> Result<ReplyValue, RequestFailure>) -> Bool {
        let completion = inner.withLock { inner -> Completion? in
            guard inner.claim == .unclaimed else { return nil }
            return inner.completion.take()
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
        let completion = inner.withLock { inner -> Completion? in
            guard inner.claim != .responder else { return nil }
            return inner.completion.take()
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
