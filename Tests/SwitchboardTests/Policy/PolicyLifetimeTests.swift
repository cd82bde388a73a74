import Foundation
import Switchboard
import Testing

/// A channel's policy is the channel's, not its handler's: it holds while handlers come
/// and go, and a page's scoped manifest carries the digest of exactly what it may call.
@Suite struct PolicyLifetimeTests {
    static let shop = MessageSender(originText: "https://shop.example.com", isMainFrame: true)
    static let ad = MessageSender(originText: "https://ads.example.net", isMainFrame: true)

    func isRejected(_ outcome: Outcome) -> Bool {
        if case .rejected = outcome { return true }
        return false
    }

    @Test func aChannelsPolicyHoldsWhileItsHandlersComeAndGo() throws {
        let router = Router()
        router.setOriginPolicy(try OriginPolicy(allowing: ["https://shop.example.com"]), for: "ping")
        let seen = Locked(0)
        var token = router.on(Ping.self) { _ in seen.withLock { $0 += 1 } }
        token.cancel()
        // No handler now: the ad is still rejected (not merely unhandled), before any buffering.
        #expect(isRejected(router.receive(name: "ping", body: MessageBody(["count": 1]), sender: Self.ad)))
        token = router.on(Ping.self) { _ in seen.withLock { $0 += 1 } }
        #expect(isRejected(router.receive(name: "ping", body: MessageBody(["count": 2]), sender: Self.ad)))
        #expect(
            "\(router.receive(name: "ping", body: MessageBody(["count": 3]), sender: Self.shop))"
                == "\(Outcome.handled(count: 1))")
        #expect(seen.withLock { $0 } == 1)
        #expect(router.originPolicy(for: "ping") != nil)
        // Removing the channel's policy removes it, handler or not.
        token.cancel()
        router.setOriginPolicy(nil, for: "ping")
        #expect(router.originPolicy(for: "ping") == nil)
        #expect(
            "\(router.receive(name: "ping", body: MessageBody(["count": 4]), sender: Self.ad))"
                == "\(Outcome.unhandled)")
    }

    @Test func aScopedManifestCarriesTheDigestOfWhatTheSenderMayCall() throws {
        let router = Router(
            options: RouterOptions(originPolicy: try OriginPolicy(allowing: ["https://shop.example.com"])))
        router.setOriginPolicy(try OriginPolicy(allowing: ["https://ads.example.net"]), for: "echo")
        let ping = router.on(Ping.self) { _ in }
        let echo = try router.respond(to: Echo.self) { request, reply in reply(.success(request.text)) }
        let contract = Contract(router: router)
        for (sender, channels) in [(Self.shop, ["ping"]), (Self.ad, ["echo"]), (MessageSender.unknown, [])] {
            let manifest = router.manifest(for: sender)
            #expect(manifest.channels.map(\.name) == channels)
            #expect(manifest.contract == contract.restricted(to: Set(manifest.channels)).digest)
        }
        #expect(router.manifest(for: Self.shop).contract != router.manifest.contract)
        withExtendedLifetime((ping, echo)) {}
    }
}
