import Foundation
import Switchboard
import SwitchboardCommerce
import SwitchboardTestSupport
import SwitchboardWire
import Testing

struct SlowRequest: Request {
    static let channel: Channel = "slowRequest"
    typealias Reply = [String: Int]
}

struct NaNRequest: Request {
    static let channel: Channel = "nanRequest"
    typealias Reply = Double
}

@Suite struct WireSessionTests {
    /// Replays NDJSON through `router`. A session blocks while it waits for a reply,
    /// so it runs on a Dispatch thread, never on the cooperative pool.
    func replay(_ ndjson: String, router: Router, source: String? = nil) async throws -> WireOutcomeCollector {
        try await onDispatchThread {
            var session = WireSession(router: router)
            var collector = WireOutcomeCollector()
            try WirePipeline().run([.bytes(Array(ndjson.utf8), source: source)], session: &session, into: &collector)
            return collector
        }
    }

    @Test func outcomeLinesHaveTheirKeysInOrder() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let commerce = try router.installReferenceCommerce()
        let result = try await replay(
            #"{"id":7,"body":null,"name":"productCartGetState"}"# + "\n", router: router, source: "x.ndjson")
        #expect(
            result.ndjson
                == #"{"line":1,"source":"x.ndjson","id":7,"name":"productCartGetState","outcome":"replied","reply":{"offers":[],"price":"0","priceCurrency":""}}"#
                + "\n")
        _ = commerce
    }

    /// A number id is echoed with its exact text, even beyond Double's range
    /// (JSONSerialization cannot read such an outcome line, nor the input line; the wire
    /// format keeps the id as given).
    @Test func aNumberIdBeyondDoubleIsEchoedExactly() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let commerce = try router.installReferenceCommerce()
        let result = try await replay(#"{"name":"sdkReady","id":1e400}"# + "\n", router: router)
        #expect(result.ndjson == #"{"line":1,"id":1e400,"name":"sdkReady","outcome":"handled"}"# + "\n")
        _ = commerce
    }

    @Test func aPendingReplyIsWaitedForBeforeTheNextMessage() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let order = Locked<[String]>([])
        let slow = try router.respond(to: SlowRequest.self) { _, reply in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                order.withLock { $0.append("replied") }
                reply.succeed(["n": 1])
            }
        }
        let ready = router.on(SDKReady.self) { _, _ in order.withLock { $0.append("sdkReady") } }
        let result = try await replay(
            #"{"name":"slowRequest"}"# + "\n" + #"{"name":"sdkReady"}"# + "\n", router: router)
        #expect(result.outcomes.map(\.kind) == [.replied, .handled])
        #expect(result.outcomes.first?.replyJSON == Array(#"{"n":1}"#.utf8))
        #expect(order.withLock { $0 } == ["replied", "sdkReady"])
        slow.cancel()
        ready.cancel()
    }

    @Test func aReplyHandleDroppedWithoutReplyingIsAFailureNamingTheKind() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let dropping = try router.respond(to: SlowRequest.self) { _, _ in }
        let result = try await replay(#"{"name":"slowRequest"}"#, router: router)
        #expect(result.outcomes.map(\.kind) == [.failed])
        #expect(result.outcomes.first?.error?.message.hasPrefix("dropped: ") == true)
        dropping.cancel()
    }

    @Test func aRequestPastItsDeadlineFailsAsTimedOut() async throws {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(30)))
        let holder = Locked<[Reply<[String: Int]>]>([])
        let stuck = try router.respond(to: SlowRequest.self) { _, reply in holder.withLock { $0.append(reply) } }
        let result = try await replay(#"{"name":"slowRequest","id":"s"}"#, router: router)
        #expect(result.outcomes.map(\.kind) == [.failed])
        #expect(result.outcomes.first?.error?.message.hasPrefix("timed out: ") == true)
        stuck.cancel()
    }

    /// A reply that comes after the session stopped waiting for it (the responder's own
    /// deadline is longer than the session's wait) is not taken for the reply of the
    /// message being processed when it comes.
    @Test func aReplyAfterItsWaitGaveUpIsNotALaterMessagesReply() async throws {
        // The session waits 2 s + 10 ms for the first reply and gives up. The second request's
        // responder sends the first reply (late), then its own, 10 ms later (well within its
        // own wait even when parallel suites keep Dispatch's threads busy).
        let router = Router(options: RouterOptions(defaultDeadline: .seconds(2)))
        let held = Locked<[Reply<[String: Int]>]>([])
        let slow = try router.respond(to: SlowRequest.self, deadline: .seconds(60)) { _, reply in
            held.withLock { $0.append(reply) }
        }
        let late = try router.respond(to: NaNRequest.self) { _, reply in
            held.withLock { $0.first }?.succeed(["n": 1])
            // On a thread of its own: Dispatch's global threads are the test runner's, and a
            // loaded run keeps them busy past the session's wait.
            Thread {
                usleep(10_000)
                reply.succeed(2)
            }.start()
        }
        let result = try await onDispatchThread {
            var session = WireSession(router: router, options: WireSession.Options(replyGrace: .milliseconds(10)))
            var collector = WireOutcomeCollector()
            let ndjson = #"{"name":"slowRequest"}"# + "\n" + #"{"name":"nanRequest"}"# + "\n"
            try WirePipeline().run([.bytes(Array(ndjson.utf8))], session: &session, into: &collector)
            return collector
        }
        #expect(result.outcomes.map(\.kind) == [.failed, .replied])
        #expect(result.outcomes.first?.error?.message.hasPrefix("timed out: ") == true)
        #expect(result.outcomes.last?.replyJSON == Array("2".utf8))
        slow.cancel()
        late.cancel()
    }

    @Test func aReplyThatCannotBeEncodedFails() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let nan = try router.respond(to: NaNRequest.self) { _, reply in reply.succeed(.nan) }
        let result = try await replay(#"{"name":"nanRequest"}"# + "\n" + #"{"name":"sdkReady"}"#, router: router)
        #expect(result.outcomes.map(\.kind) == [.failed, .unhandled], "the next message is still processed")
        #expect(result.outcomes.first?.error?.message.hasPrefix("the reply could not be encoded") == true)
        nan.cancel()
    }

    @Test func invalidBodiesGiveThePathAndMessage() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let commerce = try router.installReferenceCommerce()
        let line =
            #"{"name":"productCartUpdate","body":{"offer":{"offerId":"a","imageUrls":[],"availability":1,"quantity":"2"}}}"#
        let result = try await replay(line, router: router)
        #expect(
            result.outcomes.first?.error
                == WireError(
                    kind: .invalid, channel: "productCartUpdate", path: "body.offer.quantity",
                    message: "expected an integer, found a string"))
        _ = commerce
    }

    @Test func theSummaryCountsEachOutcomeAndGivesTheExitStatus() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let commerce = try router.installReferenceCommerce()
        var session = WireSession(router: router)
        var collector = WireOutcomeCollector()
        let input = "{\"name\":\"sdkReady\"}\n\n{\"name\":\"nope\"}\nnot json\n"
        try WirePipeline().run([.bytes(Array(input.utf8))], session: &session, into: &collector)
        #expect(session.summary.total == 3)
        #expect(session.summary[.handled] == 1)
        #expect(session.summary[.unhandled] == 1)
        #expect(session.summary[.malformed] == 1)
        #expect(session.summary.exitStatus == 1)
        #expect(
            session.summary.description.hasPrefix(
                "3 messages: 1 handled, 0 replied, 0 failed, 0 invalid, 1 unhandled, 1 malformed ("))
        _ = commerce
    }

    @Test func customDataPassesThroughAndDecodesTyped() async throws {
        struct CustomWishlistData: Decodable, Sendable { let isPersonalisable: Bool }
        let router = Router(options: .init(defaultDeadline: .patient))
        let commerce = try router.installReferenceCommerce()
        let personalised = Locked<[String]>([])
        let tracker = router.on(WishlistEntryUpdate.self) { update, context in
            if update.isWishlisted,
                try context.decode(CustomWishlistData?.self, at: "customData")?.isPersonalisable == true
            {
                personalised.withLock { $0.append(update.id.productId) }
            }
        }
        let input = [
            #"{"name":"wishlistEntryUpdate","body":{"id":{"productId":"1234"},"isWishlisted":true,"customData":{"isPersonalisable":true,"n":1.50}}}"#,
            #"{"name":"wishlistEntryUpdate","body":{"id":{"productId":"5678"},"isWishlisted":true}}"#,
            #"{"name":"wishlistGetState"}"#,
        ].joined(separator: "\n")
        let result = try await replay(input, router: router)
        #expect(result.outcomes.map(\.kind) == [.handled, .handled, .replied])
        #expect(personalised.withLock { $0 } == ["1234"])
        #expect(
            commerce.wishlist.entries.first?.customData
                == .object([
                    "isPersonalisable": .bool(true), "n": .number(JSONNumber(unchecked: "1.50")),
                ]))
        tracker.cancel()
    }

    @Test func messagesParseStrictly() async throws {
        func parse(_ text: String) -> Result<WireMessage, WireMalformed> {
            Array(text.utf8).withUnsafeBufferPointer { WireMessage.parse($0) }
        }
        #expect(try parse(#"{"name":"sdkReady","id":"a"}"#).get() == WireMessage(channel: "sdkReady", id: .string("a")))
        #expect(try parse(#"{"name":"sdkReady","body":null}"#).get().body == .null)
        #expect(try parse(#"{"name":"sdkReady"}"#).get().body == nil)
        #expect(throws: WireMalformed.self) { try parse(#"{"name":"sdkReady",}"#).get() }
        #expect(throws: WireMalformed.self) { try parse(#"{"name":"a","name":"b"}"#).get() }
        #expect(throws: WireMalformed(message: "invalid \"name\": channel name is empty", name: "")) {
            try parse(#"{"name":""}"#).get()
        }
    }
}
