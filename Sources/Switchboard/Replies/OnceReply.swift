import Dispatch

/// The caller's side of one message's reply: a completion that runs exactly
/// once, whichever path resolves it first (the responder, the outcome of
/// middleware, a buffer discarding the message, a deadline).
final class OnceReply: Sendable {
    typealias Completion = @Sendable (Result<ReplyValue, RequestFailure>) -> Void

    private struct Inner {
        var completion: Completion?
        var held = false
    }

    private let inner: Locked<Inner>

    init(_ completion: @escaping Completion) {
        inner = Locked(Inner(completion: completion))
    }

    /// Whether the completion has run.
    var isResolved: Bool { inner.withLock { $0.completion == nil } }

    /// Whether a responder's ``ReplyState`` has taken over resolving this reply.
    var isHeld: Bool { inner.withLock { $0.held } }

    /// Marks that a responder's ``ReplyState`` now resolves this reply.
    func hold() {
        inner.withLock { $0.held = true }
    }

    /// Runs the completion with `result` if it has not run yet.
    @discardableResult
    func resolve(_ result: Result<ReplyValue, RequestFailure>) -> Bool {
        let completion = inner.withLock { inner -> Completion? in
            defer { inner.completion = nil }
            return inner.completion
        }
        completion?(result)
        return completion != nil
    }

    /// Times the reply out after `deadline` if nothing resolved it (for requests kept before a responder exists).
    func armDeadline(_ deadline: Duration, channel: Channel) {
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(deadline.nanosecondsClamped)) { [self] in
            self.resolve(.failure(.timedOut(channel, after: deadline)))
        }
    }
}
