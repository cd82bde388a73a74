import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// A newer `addCartLine` than the app's: what a page built against a later contract sends.
private struct AddCartLineV2: Event {
    static let channel: Channel = "addCartLine"
    let productId: String
    let quantity: Int
    let giftWrap: Bool
}

@MainActor
@Suite struct BridgeHelloTests {
    private func digest(_ type: any Event.Type) -> String {
        Contract(types: [type]).restricted(to: [type.channel]).digest
    }

    @Test func theHelloHandlerIsRegisteredUnderTheGlobalNameWithoutChannels() {
        let router = Router()
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry, globalName: "shopBridge")
        #expect(registry.handlers == ["shopBridge"])
        #expect(bridge.registeredNames == ["shopBridge"])
        bridge.stop()
        #expect(registry.handlers.isEmpty)
        #expect(registry.misuses.isEmpty)
    }

    @Test func aHelloIsAnsweredWithTheDifferingChannelsAndReportedOnce() async {
        let router = Router()
        let add = router.on(AddCartLine.self) { _ in }
        let ping = router.on(Ping.self) { _ in }
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        let skews = Locked<[String]>([])
        let observing = router.observeDiagnostics { diagnostic in
            if case .contractSkew(let channel, _, _) = diagnostic { skews.withLock { $0.append(channel.name) } }
        }
        let contracts = ["addCartLine": digest(AddCartLineV2.self), "ping": digest(Ping.self)]
        let box = ReplyBox()
        let outcome = bridge.handle(name: "switchboard", body: ["contracts": contracts], replyHandler: box.handler)
        #expect(outcome.kind == .handled)
        #expect(await eventually { box.calls == 1 })
        #expect(box.valueJSON == #"{"differing":["addCartLine"]}"#)
        #expect(box.error == nil)

        // Messages after the hello: no further report.
        for _ in 0..<3 {
            let reply = ReplyBox()
            bridge.handle(
                name: "addCartLine", body: ["productId": "p1", "quantity": 1, "giftWrap": true],
                replyHandler: reply.handler)
        }
        #expect(skews.withLock { $0 } == ["addCartLine"])
        _ = (add, ping, observing)
    }

    @Test func aBodyThatIsNotAHelloIsAnsweredAsInvalid() async {
        let router = Router()
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        for body in [nil, "hello", ["contracts": ["ping": 1]], ["name": "ping"]] as [Any?] {
            let box = ReplyBox()
            #expect(bridge.handle(name: "switchboard", body: body, replyHandler: box.handler).kind == .invalid)
            #expect(await eventually { box.calls == 1 })
            #expect(box.valueJSON == nil)
            let error = envelope(box.error)
            #expect(error?.kind == .invalid)
            #expect(error?.channel == nil)
            #expect(error?.message.hasPrefix("switchboard: not a hello") == true, "\(String(describing: box.error))")
        }
    }

    @Test func aLiveChannelNamedLikeTheGlobalIsAConflict() async {
        struct Clash: BodylessEvent { static let channel: Channel = "switchboard" }
        let router = Router()
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        let clash = router.on(Clash.self) { _ in }
        #expect(await eventually { bridge.conflictingNames == ["switchboard"] })
        #expect(registry.handlers == ["switchboard"])
        // The hello handler stays when the channel goes.
        clash.cancel()
        #expect(await eventually { bridge.conflictingNames.isEmpty })
        #expect(registry.handlers == ["switchboard"])
        bridge.synchronize()
        #expect(registry.handlers == ["switchboard"])
        #expect(registry.misuses.isEmpty)

        let made = router.on(Clash.self) { _ in }
        bridge.synchronize()
        #expect(bridge.conflictingNames == ["switchboard"])
        #expect(registry.calls == ["add switchboard"])
        _ = made
    }

    @Test func aReservedGlobalNameIsLeftToTheApp() async {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry, reservedNames: ["switchboard"])
        #expect(registry.handlers == ["ping"])
        let box = ReplyBox()
        // Routed as a message: the app's own handler would take it in WebKit.
        #expect(
            bridge.handle(name: "switchboard", body: ["contracts": [:]], replyHandler: box.handler).kind == .unhandled)
        _ = ping
    }

    @Test func aFrameTheChannelsPolicyRefusesLearnsNothingAboutIt() async throws {
        let router = Router()
        router.setOriginPolicy(try OriginPolicy(allowing: ["https://shop.example.com"]), for: AddCartLine.channel)
        let add = router.on(AddCartLine.self) { _ in }
        let bridge = RouterBridge(router: router, registry: FakeRegistry())
        let contracts = ["addCartLine": digest(AddCartLineV2.self)]
        let ad = ReplyBox()
        let adFrame = MessageSender(
            securityOriginProtocol: "https", host: "ads.example.net", port: 0, isMainFrame: false)
        bridge.handle(name: "switchboard", body: ["contracts": contracts], sender: adFrame, replyHandler: ad.handler)
        #expect(await eventually { ad.calls == 1 })
        #expect(ad.valueJSON == #"{"differing":[]}"#)
        let shop = ReplyBox()
        let shopFrame = MessageSender(
            securityOriginProtocol: "https", host: "shop.example.com", port: 0, isMainFrame: true)
        bridge.handle(
            name: "switchboard", body: ["contracts": contracts], sender: shopFrame, replyHandler: shop.handler)
        #expect(await eventually { shop.calls == 1 })
        #expect(shop.valueJSON == #"{"differing":["addCartLine"]}"#)
        _ = add
    }
}
