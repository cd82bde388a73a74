import Dispatch
import Switchboard

/// Waits for the reply of the message being processed. A session reuses one
/// while every message's reply handler has run before the message is done (a
/// reply handler runs once at most), and starts a new one when a message's has
/// not, so a reply that comes after its wait gave up is never read as the reply
/// of a later message.
///
/// One lock round trip records the reply and one ends the message. The reply is kept
/// as its two halves: a value is one reference, and the failure (a large enum, copied
/// through its value witnesses) is touched only when there is one.
final class ReplyWaiter: Sendable {
    private struct State {
        var value: ReplyValue?
        var failure: Failure?
        /// Whether the reply came (a `Bool` is cheaper to test than the optionals).
        var resolved = false
        var waiting = false

        var result: Result<ReplyValue, RequestFailure>? {
            guard resolved else { return nil }
            if let failure { return .failure(failure.failure) }
            return value.map { .success($0) }
        }
    }

    /// A failure in a box: one reference to move in and out, made only when there is one.
    private final class Failure: Sendable {
        let failure: RequestFailure

        init(_ failure: RequestFailure) {
            self.failure = failure
        }
    }

    private let semaphore = DispatchSemaphore(value: 0)
    private let state = Locked(State())

    /// The reply handler to give the router: records the reply here. Made once per
    /// waiter (a closure capturing only the waiter needs no context of its own).
    var handler: @Sendable (Result<ReplyValue, RequestFailure>) -> Void {
        { [self] result in resolve(result) }
    }

    /// Records the reply (the first one only); wakes the waiter if there is one.
    func resolve(_ result: Result<ReplyValue, RequestFailure>) {
        let wake = state.withLock { state -> Bool in
            guard !state.resolved else { return false }
            switch result {
            case .success(let value):
                state.value = value
            case .failure(let failure):
                state.failure = Failure(failure)
            }
            state.resolved = true
            return state.waiting
        }
        if wake { semaphore.signal() }
    }

    /// The reply, if it has come.
    func result() -> Result<ReplyValue, RequestFailure>? {
        state.withLock { $0.result }
    }

    /// Ends the message: whether its reply came (then the waiter is emptied for
    /// the next message; otherwise it must not be used again).
    func finish() -> Bool {
        // The reply (it may hold the last reference to a user's reply value) is taken out
        // under the lock and released after it.
        let (finished, value, failure) = state.withLock { state -> (Bool, ReplyValue?, Failure?) in
            guard state.resolved else { return (false, nil, nil) }
            state.resolved = false
            return (true, state.value.take(), state.failure.take())
        }
        withExtendedLifetime(value) {}
        withExtendedLifetime(failure) {}
        return finished
    }

    /// Waits up to `limit` for the reply; `nil` if none came.
    func wait(upTo limit: Duration) -> Result<ReplyValue, RequestFailure>? {
        let ready = state.withLock { state -> Result<ReplyValue, RequestFailure>? in
            if !state.resolved { state.waiting = true }
            return state.result
        }
        if let ready { return ready }
        let timedOut = semaphore.wait(timeout: .now() + .nanoseconds(limit.nanosecondsClamped)) == .timedOut
        let result = state.withLock { state -> Result<ReplyValue, RequestFailure>? in
            state.waiting = false
            return state.result
        }
        // A reply that raced the time-out has signalled (or is about to): consume it.
        if timedOut && result != nil { semaphore.wait() }
        return result
    }
}

extension Optional {
    /// Returns the wrapped value and leaves `nil` behind.
    fileprivate mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
