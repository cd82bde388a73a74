import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

@MainActor
@Suite struct ReplyMappingTests {
    let channel: Channel = "cartTotal"

    @Test func aReplyBecomesItsFoundationTreeAndNoError() {
        let (value, error) = ScriptReply.arguments(
            for: .success(ReplyValue(Total(amount: "31.50", currency: "EUR"))), on: channel)
        #expect(value.map(jsonText) == #"{"amount":"31.50","currency":"EUR"}"#)
        #expect(error == nil)
    }

    @Test func anEventsEmptyReplyBecomesNull() {
        let (value, error) = ScriptReply.arguments(for: .success(.none), on: channel)
        #expect(value is NSNull)
        #expect(error == nil)
    }

    @Test(arguments: [
        RequestFailure.noResponder("cartTotal"),
        .invalidChannel(name: "", .empty),
        .invalidBody(
            "cartTotal",
            BodyDecodingError(
                DecodingError.keyNotFound(
                    AnyKey("currency"), .init(codingPath: [], debugDescription: "No value associated with key currency")
                ))),
        .responderFailed("cartTotal", message: "the cart is locked"),
        .dropped("cartTotal"),
        .timedOut("cartTotal", after: .milliseconds(50)),
        .stopped("cartTotal", .unhandled),
        .unencodableReply("cartTotal", BodyEncodingError(message: "not finite")),
    ])
    func everyFailureBecomesNoValueAndItsMessage(failure: RequestFailure) {
        let (value, error) = ScriptReply.arguments(for: .failure(failure), on: channel)
        #expect(value == nil)
        #expect(envelope(error) == ErrorEnvelope(failure))
        #expect(envelope(error)?.message == failure.message)
    }

    @Test func anUnencodableReplyBecomesAnUnencodableReplyFailure() {
        let (value, error) = ScriptReply.arguments(for: .success(ReplyValue(Double.nan)), on: "brokenTotal")
        #expect(value == nil)
        #expect(envelope(error)?.message.hasPrefix("brokenTotal: the reply could not be encoded") == true)
        #expect(envelope(error)?.kind == .failed)
    }

    // MARK: Through the bridge, as WebKit calls it

    func bridgeWithCart() throws -> (Router, RouterBridge, [Registration]) {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(50)))
        var tokens: [Registration] = []
        tokens.append(
            try router.respond(to: CartTotal.self) { request, reply in
                if request.currency == "XXX" {
                    reply(.failure(CartError()))
                } else {
                    reply(.success(Total(amount: "10.50", currency: request.currency)))
                }
            })
        tokens.append(try router.respond(to: BrokenTotal.self) { _, reply in reply(.success(.infinity)) })
        tokens.append(router.on(AddCartLine.self) { _ in })
        return (router, RouterBridge(router: router, registry: FakeRegistry()), tokens)
    }

    @Test func aRequestPostedByThePageIsAnsweredWithTheReply() async throws {
        let (_, bridge, tokens) = try bridgeWithCart()
        let box = ReplyBox()
        let outcome = bridge.handle(name: "cartTotal", body: ["currency": "EUR"], replyHandler: box.handler)
        #expect(outcome.kind == .replied)
        #expect(await eventually { box.calls == 1 })
        #expect(box.valueJSON == #"{"amount":"10.50","currency":"EUR"}"#)
        #expect(box.error == nil)
        _ = tokens
    }

    @Test func anEventPostedByThePageResolvesWithNull() async throws {
        let (_, bridge, tokens) = try bridgeWithCart()
        let box = ReplyBox()
        bridge.handle(name: "addCartLine", body: ["productId": "p1", "quantity": 2], replyHandler: box.handler)
        #expect(await eventually { box.calls == 1 })
        #expect(box.valueJSON == "null")
        #expect(box.error == nil)
        _ = tokens
    }

    @Test func failuresRejectThePagesPromiseWithTheirMessage() async throws {
        let (_, bridge, tokens) = try bridgeWithCart()
        let cases: [(String, Any?, String)] = [
            ("cartTotal", ["currency": "XXX"], "cartTotal: "),
            ("cartTotal", ["currency": 3], "cartTotal"),
            ("nobodyHome", nil, "nobodyHome"),
            ("brokenTotal", nil, "brokenTotal: the reply could not be encoded"),
            ("", nil, "invalid channel name"),
        ]
        for (name, body, prefix) in cases {
            let box = ReplyBox()
            bridge.handle(name: name, body: body, replyHandler: box.handler)
            #expect(await eventually { box.calls == 1 }, "\(name)")
            #expect(box.valueJSON == nil, "\(name)")
            #expect(envelope(box.error)?.message.hasPrefix(prefix) == true, "\(name): \(box.error ?? "nil")")
        }
        _ = tokens
    }

    @Test func theReplyHandlerIsCalledExactlyOnceEvenWhenTheResponderRepliesTwice() async throws {
        let router = Router()
        let token = try router.respond(to: CartTotal.self) { request, reply in
            reply(.success(Total(amount: "1", currency: request.currency)))
            reply(.success(Total(amount: "2", currency: request.currency)))
        }
        let bridge = RouterBridge(router: router, registry: FakeRegistry())
        let box = ReplyBox()
        bridge.handle(name: "cartTotal", body: ["currency": "EUR"], replyHandler: box.handler)
        #expect(await eventually { box.calls == 1 })
        try? await Task.sleep(for: .milliseconds(10))
        #expect(box.calls == 1)
        #expect(box.valueJSON == #"{"amount":"1","currency":"EUR"}"#)
        _ = token
    }

    @Test func aPendingReplyThatTimesOutRejectsWithTheTimeOut() async throws {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(20)))
        let held = Locked<[Reply<Total>]>([])
        let token = try router.respond(to: CartTotal.self) { _, reply in held.withLock { $0.append(reply) } }
        let bridge = RouterBridge(router: router, registry: FakeRegistry())
        let box = ReplyBox()
        #expect(
            bridge.handle(name: "cartTotal", body: ["currency": "EUR"], replyHandler: box.handler).kind
                == .awaitingReply)
        #expect(await eventually { box.calls == 1 })
        #expect(envelope(box.error) == ErrorEnvelope(RequestFailure.timedOut("cartTotal", after: .milliseconds(20))))
        #expect(envelope(box.error)?.kind == .timedOut)
        _ = token
    }
}
