import Switchboard
import Testing

private struct AddCartLine: Event {
    static let channel: Channel = "addCartLine"
    let quantity: Int
}

private struct PlaceOrder: Request, Encodable {
    typealias Reply = String
    static let channel: Channel = "placeOrder"
    let item: String
}

/// A message middleware moves to another channel meets that channel's origin policy.
@Suite struct ReroutedPolicyTests {
    static let ads = MessageSender(originText: "https://ads.example.net", isMainFrame: true)
    static let shop = MessageSender(originText: "https://shop.example.com", isMainFrame: true)

    /// A router where `v1.<name>` is an alias of `<name>`: the alias is open, the targets are
    /// restricted to the shop.
    func aliasingRouter() throws -> (Router, Registration) {
        let router = Router()
        let restricted = try OriginPolicy(allowing: ["https://shop.example.com"])
        router.setOriginPolicy(restricted, for: AddCartLine.channel)
        router.setOriginPolicy(restricted, for: PlaceOrder.channel)
        let alias = router.use(
            Middleware { message, next in
                guard message.channel.name.hasPrefix("v1.") else { return next(message) }
                var moved = message
                guard let target = try? Channel(validating: String(message.channel.name.dropFirst(3))) else {
                    return next(message)
                }
                moved.channel = target
                return next(moved)
            })
        return (router, alias)
    }

    @Test func anOpenAliasCannotReachARestrictedChannel() throws {
        let (router, alias) = try aliasingRouter()
        let seen = RouterRecorder<Int>()
        let handler = router.on(AddCartLine.self) { seen.append($0.quantity) }
        let (diagnostics, observing) = router.recordDiagnostics()
        let outcome = router.receive(name: "v1.addCartLine", body: MessageBody(["quantity": 1]), sender: Self.ads)
        guard case .rejected(let rejection) = outcome else {
            Issue.record("expected rejected, got \(outcome)")
            return
        }
        #expect(rejection.channel == AddCartLine.channel)
        #expect(rejection.reason == .originNotAllowed)
        #expect(diagnostics.kinds.contains("rejected"))
        #expect(seen.all.isEmpty)
        let admitted = router.receive(
            name: "v1.addCartLine", body: MessageBody(["quantity": 2]), sender: Self.shop)
        #expect(admitted.kind == .handled)
        #expect(seen.all == [2])
        withExtendedLifetime((alias, handler, observing)) {}
    }

    @Test func aRequestThroughAnOpenAliasFailsAsRejected() async throws {
        let (router, alias) = try aliasingRouter()
        let responder = try router.respond(to: PlaceOrder.self) { request, reply in
            if request.item != "b" { Issue.record("the responder ran for \(request.item)") }
            reply(.success("ok"))
        }
        let result = await router.request(name: "v1.placeOrder", body: ["item": "a"], sender: Self.ads)
        guard case .failure(.rejected(let channel, let rejection)) = result else {
            Issue.record("expected rejected, got \(result)")
            return
        }
        #expect(channel == PlaceOrder.channel)
        #expect(rejection.message.hasPrefix("placeOrder: rejected: "))
        let admitted = await router.request(name: "v1.placeOrder", body: ["item": "b"], sender: Self.shop)
        #expect(admitted.kind == "success")
        withExtendedLifetime((alias, responder)) {}
    }
}
