import Foundation
import Switchboard

/// What one fixture message did when replayed: the router's outcome and, for a
/// request, the reply it resolved with.
public struct ReplayedMessage: Sendable, CustomStringConvertible {
    /// The message replayed.
    public let message: FixtureMessage
    /// What `Router.receive(name:body:id:sender:isolation:replyHandler:)` returned.
    public let outcome: Outcome
    /// How the message's reply resolved: the reply of a request, `ReplyValue.none`
    /// for a handled event, or the failure. `nil` when it did not resolve within
    /// the replay's reply timeout, and for a kept message (it resolves when delivered).
    public let reply: Result<ReplyValue, RequestFailure>?

    /// Creates a result.
    package init(message: FixtureMessage, outcome: Outcome, reply: Result<ReplyValue, RequestFailure>?) {
        self.message = message
        self.outcome = outcome
        self.reply = reply
    }

    /// The outcome's kind once the reply is in, as the CLI names it: `handled`, `replied`,
    /// `failed`, `invalid`, `unhandled`, `kept`, `stopped`, `invalidChannel`, `rejected` (the
    /// channel's origin policy refused the sender), or `awaitingReply` when no reply came in time.
    public var kind: Outcome.Kind {
        guard case .awaitingReply = outcome else { return outcome.kind }
        switch reply {
        case .success?: return .replied
        case .failure?: return .failed
        case nil: return .awaitingReply
        }
    }

    /// The reply value, when the message was answered with one.
    public var replyValue: ReplyValue? {
        if case .success(let value)? = reply { return value }
        return nil
    }

    /// The failure, when the message's reply failed.
    public var failure: RequestFailure? {
        if case .failure(let failure)? = reply { return failure }
        return nil
    }

    /// `line N name: kind`.
    public var description: String { "line \(message.line) \(message.name): \(kind)" }
}

extension Router {
    /// Replays fixture messages through this router, one at a time, in order.
    ///
    /// Each message is received as the web side would send it; when a request's
    /// reply is pending, replay waits for it (up to `replyTimeout`) before the
    /// next message, as the `switchboard` CLI does, so state changes apply in order.
    /// It keeps the caller's isolation: from the main actor, main-actor handlers run at once.
    /// - Parameters:
    ///   - messages: the messages.
    ///   - replyTimeout: the longest wait for one pending reply.
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    /// - Returns: one result per message, in order.
    public func replay(
        _ messages: [FixtureMessage], replyTimeout: Duration = .seconds(5),
        isolation: isolated (any Actor)? = #isolation
    ) async -> [ReplayedMessage] {
        var results: [ReplayedMessage] = []
        results.reserveCapacity(messages.count)
        for message in messages {
            let pending = PendingReply()
            let outcome = receive(
                name: message.name, body: message.body, id: message.id, sender: message.sender, isolation: isolation
            ) { pending.resolve($0) }
            let reply: Result<ReplyValue, RequestFailure>?
            if case .kept = outcome {
                reply = nil
            } else {
                reply = await pending.wait(timeout: replyTimeout)
            }
            results.append(ReplayedMessage(message: message, outcome: outcome, reply: reply))
        }
        return results
    }

    /// Replays a fixture's messages. See ``replay(_:replyTimeout:isolation:)-([FixtureMessage],_,_)``.
    public func replay(
        _ fixture: Fixture, replyTimeout: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation
    ) async -> [ReplayedMessage] {
        await replay(fixture.messages, replyTimeout: replyTimeout, isolation: isolation)
    }

    /// Loads a `.json` / `.ndjson` fixture file and replays it.
    /// - Throws: ``FixtureError`` when the file cannot be loaded.
    public func replay(
        contentsOf url: URL, replyTimeout: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation
    ) async throws(FixtureError) -> [ReplayedMessage] {
        let fixture = try Fixture(contentsOf: url)
        return await replay(fixture.messages, replyTimeout: replyTimeout, isolation: isolation)
    }
}

/// A reply that resolves once, which one task can wait for with a time limit.
final class PendingReply: Sendable {
    typealias Value = Result<ReplyValue, RequestFailure>

    private struct State {
        var result: Value?
        var waiter: CheckedContinuation<Value?, Never>?
    }

    private let state = Locked(State())

    /// Whether the reply has resolved.
    var result: Value? { state.withLock { $0.result } }

    /// Records the result and wakes the waiter. Later calls are ignored.
    func resolve(_ value: Value) {
        let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            guard state.result == nil else { return nil }
            state.result = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    /// Waits for the result, at most `timeout`; `nil` when it did not come in time.
    /// Keeps the caller's isolation (no hop to the global executor and back).
    func wait(timeout: Duration, isolation: isolated (any Actor)? = #isolation) async -> Value? {
        await withCheckedContinuation(isolation: isolation) { (continuation: CheckedContinuation<Value?, Never>) in
            let ready = state.withLock { state -> Value? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            // Holds this reply weakly: one that came in time is freed when its waiter is done
            // with it, not when the timeout passes (the waiter holds it while it waits).
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(timeout.wholeNanoseconds)) {
                [weak self] in
                guard let self else { return }
                let waiter = self.state.withLock { state -> CheckedContinuation<Value?, Never>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(returning: nil)
            }
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to a range `DispatchTime` accepts.
    var wholeNanoseconds: Int {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        if seconds >= 1_000_000_000 { return 1_000_000_000 * 1_000_000_000 }
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}
