import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWebKit
import Testing
import WebKit

/// The page's hello through the real adapter: `messageHandlers.switchboard.postMessage({contracts})`.
@MainActor
@Suite struct AdapterHelloTests {
    @Test func aHelloPostedByThePageIsAnsweredWithTheDifferingChannels() async throws {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        let skews = Locked<[String]>([])
        let observing = router.observeDiagnostics { diagnostic in
            if case .contractSkew(let channel, _, _) = diagnostic { skews.withLock { $0.append(channel.name) } }
        }
        let ours = router.manifest.contracts["ping"] ?? ""
        let body: [String: Any] = ["contracts": ["ping": ours, "giftWrap": "sha256:new"]]
        let post = try #require(controller._deliver(name: "switchboard", body: body, frameInfo: frame()))
        #expect(await eventually { !post.isPending })
        let answer = post.value.flatMap { $0 } as? [String: Any]
        #expect(answer?["differing"] as? [String] == ["giftWrap"])
        #expect(skews.withLock { $0 } == ["giftWrap"])

        let bad = try #require(controller._deliver(name: "switchboard", body: "hello", frameInfo: frame()))
        #expect(await eventually { !bad.isPending })
        #expect(bad.envelope?.kind == "invalid")
        _ = (ping, bridge, observing)
    }
}
