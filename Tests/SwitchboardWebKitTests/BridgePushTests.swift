import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// A push the app sends the page in these tests.
struct LoyaltyPointsChanged: Push, Codable {
    static let channel: Channel = "loyaltyPointsChanged"
    let points: Int
}

@MainActor
@Suite struct BridgePushTests {
    @Test func aPushReachesThePageAsArgumentsNeverAsScriptText() async {
        let router = Router()
        router.declare(push: LoyaltyPointsChanged.self)
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        let before = registry.ran.count
        router.push(LoyaltyPointsChanged(points: 120))
        #expect(await eventually { registry.ran.count == before + 1 })
        let script = registry.ran.last
        #expect(script?.arguments["name"] == "loyaltyPointsChanged")
        #expect(script?.arguments["body"] == ["points": 120])
        #expect(script?.arguments["globalName"] == "switchboard")
        #expect(script?.source.contains("120") == false)
        #expect(script?.source.contains(":push") == true)
        _ = bridge
    }

    @Test func aPushGoesOnlyToAPageTheChannelsPolicyAdmits() async throws {
        let router = Router(
            options: RouterOptions(
                originPolicy: OriginPolicy(allowed: [try OriginPattern(parsing: "https://shop.example.com")])))
        let registry = FakeRegistry()
        registry.page = MessageSender(
            securityOriginProtocol: "https", host: "ads.example.net", port: 0, isMainFrame: true)
        let bridge = RouterBridge(router: router, registry: registry)
        let before = registry.ran.count
        bridge.push(LoyaltyPointsChanged(points: 1))
        #expect(registry.ran.count == before)
        registry.page = MessageSender(
            securityOriginProtocol: "https", host: "shop.example.com", port: 0, isMainFrame: true)
        bridge.push(LoyaltyPointsChanged(points: 2))
        #expect(registry.ran.count == before + 1)
    }

    @Test func manifestChangesAreSentToTheLoadedPage() async {
        let router = Router()
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        let token = router.on(AddCartLine.self) { _ in }
        #expect(
            await eventually {
                registry.ran.contains { $0.arguments["manifest"]?.objectValue?["channels"] == ["addCartLine"] }
            })
        _ = (bridge, token)
    }

    @Test func aChannelThatKeepsMessagesIsRegisteredBeforeItHasAHandler() {
        let router = Router()
        router.setBufferPolicy(.keepLast, for: AddCartLine.channel)
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        #expect(registry.handlers.contains("addCartLine"))
        #expect(router.bufferingChannels == [AddCartLine.channel])
        _ = bridge
    }
}
