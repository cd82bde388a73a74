import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// A middleware that passes every message on.
private struct PassOn: MessageMiddleware {
    func handle(_ message: Message, next: MiddlewareNext) -> Outcome { next(message) }
}

/// `Router.receiveAnsweringRequests(_:replyHandler:)`, the wire session's way in: the reply handler is
/// left out only when handlers alone take the message, and resolved exactly once otherwise.
@Suite struct RequestReplyHandlerTests {
    private func receive(
        _ router: Router, _ message: Message
    ) -> (outcome: Outcome, handlersOnly: Bool, replies: RouterRecorder<Result<ReplyValue, RequestFailure>>) {
        let replies = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        let (outcome, handlersOnly) = router.receiveAnsweringRequests(message, replyHandler: { replies.append($0) })
        return (outcome, handlersOnly, replies)
    }

    @Test func anEventTakenByHandlersAloneLeavesTheReplyHandlerUncalled() {
        let router = Router()
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { ping, _ in seen.append(ping.count) }
        let (outcome, handlersOnly, replies) = receive(router, Message(channel: Ping.channel, body: ["count": 3]))
        #expect(outcome.kind == .handled)
        #expect(handlersOnly)
        #expect(replies.count == 0)
        #expect(seen.all == [3])
        withExtendedLifetime(token) {}
    }

    @Test func aFailingOrInvalidEventIsStillReportedByItsOutcome() {
        let router = Router()
        let token = router.on(Ping.self) { _, _ in throw RouterTestError(text: "no") }
        let failed = receive(router, Message(channel: Ping.channel, body: ["count": 1]))
        #expect(failed.handlersOnly && failed.replies.count == 0)
        guard case .failed(let failure) = failed.outcome else {
            Issue.record("expected failed, got \(failed.outcome)")
            return
        }
        #expect(failure.message.contains("no"))
        let invalid = receive(router, Message(channel: Ping.channel, body: ["count": "x"]))
        #expect(invalid.handlersOnly && invalid.replies.count == 0)
        #expect(invalid.outcome.kind == .invalid)
        withExtendedLifetime(token) {}
    }

    @Test func aRequestResolvesTheReplyHandlerExactlyOnce() throws {
        let router = Router()
        let token = try router.respond(to: Echo.self) { echo, reply in reply.succeed(echo.text) }
        let (outcome, handlersOnly, replies) = receive(router, Message(channel: Echo.channel, body: ["text": "hi"]))
        #expect(outcome.kind == .replied)
        #expect(!handlersOnly)
        #expect(replies.count == 1)
        #expect(replies.all.first?.reply(as: String.self) == "hi")
        withExtendedLifetime(token) {}
    }

    @Test func anEventThroughMiddlewareOrWithoutHandlersResolvesTheReplyHandlerExactlyOnce() {
        let router = Router()
        let unhandled = receive(router, Message(channel: Ping.channel, body: ["count": 1]))
        #expect(!unhandled.handlersOnly && unhandled.replies.count == 1)
        let handler = router.on(Ping.self) { _, _ in }
        let middleware = router.use(PassOn())
        let passed = receive(router, Message(channel: Ping.channel, body: ["count": 1]))
        #expect(passed.outcome.kind == .handled)
        #expect(!passed.handlersOnly && passed.replies.count == 1)
        withExtendedLifetime((handler, middleware)) {}
    }

    @Test func aChannelKeyRoutesAsItsChannelWhetherMadeBeforeOrAfterTheChannelsRegistration() {
        let router = Router()
        let early = router.key(for: Ping.channel)
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { ping, _ in seen.append(ping.count) }
        let late = router.key(for: Channel(stringLiteral: "pi" + "ng"))
        #expect(early.channel == Ping.channel && late.channel == Ping.channel)
        for (count, key) in [(1, early), (2, late)] {
            let message = Message(channel: key.channel, body: ["count": count])
            let (outcome, handlersOnly) = router.receiveAnsweringRequests(message, key: key, replyHandler: { _ in })
            #expect(outcome.kind == .handled && handlersOnly)
        }
        #expect(seen.all == [1, 2])
        let other = router.key(for: Echo.channel)
        let (outcome, _) = router.receiveAnsweringRequests(
            Message(channel: other.channel, body: ["text": "x"]), key: other, replyHandler: { _ in })
        #expect(outcome.kind == .unhandled)
        withExtendedLifetime(token) {}
    }
}
