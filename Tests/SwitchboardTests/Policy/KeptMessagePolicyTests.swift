import Switchboard
import SwitchboardTestSupport
import Testing

/// A kept message is checked again, against the policy current when it is delivered.
@Suite struct KeptMessagePolicyTests {
    static let shop = MessageSender(originText: "https://shop.example.com", isMainFrame: true)
    static let ads = MessageSender(originText: "https://ads.example.net", isMainFrame: true)

    @Test func messagesKeptBeforeAPolicyAreCheckedWhenAHandlerRegisters() throws {
        let router = Router(options: RouterOptions(defaultBufferPolicy: .keep(max: 10, for: .seconds(60))))
        #expect(router.receive(name: "ping", body: ["count": 1], sender: Self.ads).kind == .kept)
        #expect(router.receive(name: "ping", body: ["count": 2], sender: Self.shop).kind == .kept)
        #expect(router.receive(name: "ping", body: ["count": 3]).kind == .kept)
        #expect(router.keptCount(for: "ping") == 3)
        router.setDefaultOriginPolicy(try OriginPolicy(allowing: ["https://shop.example.com"]))
        let (diagnostics, observing) = router.recordDiagnostics()
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        #expect(seen.all == [2])
        #expect(router.keptCount(for: "ping") == 0)
        let rejected = diagnostics.all.compactMap { diagnostic -> PolicyRejection? in
            if case .rejected(let rejection) = diagnostic { return rejection }
            return nil
        }
        #expect(rejected.map(\.reason) == [.originNotAllowed, .unknownOrigin])
        withExtendedLifetime((token, observing)) {}
    }

    @Test func aKeptRequestRefusedAtDeliveryIsAnsweredAsRejected() async throws {
        let router = Router(options: RouterOptions(defaultBufferPolicy: .keep(max: 10, for: .seconds(60))))
        let answers = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        let outcome = router.receive(
            name: "echo", body: MessageBody(["text": "hi"]), sender: Self.ads, replyHandler: { answers.append($0) })
        #expect(outcome.kind == .kept)
        router.setOriginPolicy(try OriginPolicy(allowing: ["https://shop.example.com"]), for: Echo.channel)
        let responder = try router.respond(to: Echo.self) { request, reply in
            Issue.record("a refused kept request reached the responder: \(request.text)")
            reply(.success(request.text))
        }
        #expect(await eventually { answers.all.count == 1 })
        guard case .failure(.rejected(let channel, let rejection))? = answers.all.first else {
            Issue.record("expected rejected, got \(answers.all)")
            return
        }
        #expect(channel == Echo.channel)
        #expect(rejection.reason == .originNotAllowed)
        withExtendedLifetime(responder) {}
    }
}
