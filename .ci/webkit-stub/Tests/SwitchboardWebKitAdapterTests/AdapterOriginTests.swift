import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWebKit
import Testing
import WebKit

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLRequest on Linux
#endif

/// The adapter reads the sender from `WKScriptMessage.frameInfo` (security origin and
/// main frame) and the router's origin policy decides, before any handler runs.
@MainActor
@Suite struct AdapterOriginTests {
    final class Seen: @unchecked Sendable {
        let lines = Locked<[String]>([])
    }

    func shopRouter() throws -> (Router, Seen, [Registration]) {
        let policy = try OriginPolicy(allowing: ["https://shop.example.com", "https://*.shop.example.com"])
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(100), originPolicy: policy))
        let seen = Seen()
        var tokens: [Registration] = []
        tokens.append(router.on(AddCartLine.self) { line in seen.lines.withLock { $0.append(line.productId) } })
        tokens.append(
            try router.respond(to: CartTotal.self) { request, reply in
                reply(.success(Total(amount: "10.50", currency: request.currency)))
            })
        return (router, seen, tokens)
    }

    @Test func theShopsMainFramePageIsHandled() async throws {
        let (router, seen, tokens) = try shopRouter()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        let post = try #require(
            controller._deliver(
                name: "addCartLine", body: ["productId": "p1", "quantity": 1],
                frameInfo: frame("https://shop.example.com/cart", mainFrame: true)))
        #expect(await eventually { !post.isPending })
        #expect(post.value.map { $0 is NSNull } == true)
        #expect(seen.lines.withLock { $0 } == ["p1"])
        let total = try #require(
            controller._deliver(
                name: "cartTotal", body: ["currency": "EUR"],
                frameInfo: frame("https://checkout.shop.example.com:443/pay", mainFrame: true)))
        #expect(await eventually { !total.isPending })
        #expect(jsonText(total.value ?? nil) == #"{"amount":"10.50","currency":"EUR"}"#)
        _ = (bridge, tokens)
    }

    @Test func anAdInASubFrameIsRejectedBeforeTheHandler() async throws {
        let (router, seen, tokens) = try shopRouter()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        let post = try #require(
            controller._deliver(
                name: "addCartLine", body: ["productId": "p1", "quantity": 1],
                frameInfo: frame("https://ads.example.net/banner", mainFrame: false)))
        #expect(await eventually { !post.isPending })
        #expect(post.value == nil)
        #expect(post.envelope?.message.hasPrefix("addCartLine: rejected: origin https://ads.example.net") == true)
        #expect(post.envelope?.kind == "rejected")
        #expect(post.replyCalls == 1)
        // The shop's own origin in a sub-frame is refused too: the policy admits the main frame only.
        let framed = try #require(
            controller._deliver(
                name: "addCartLine", body: ["productId": "p2", "quantity": 1],
                frameInfo: frame("https://shop.example.com/embed", mainFrame: false)))
        #expect(await eventually { !framed.isPending })
        #expect(framed.errorMessage?.contains("sub-frame") == true)
        #expect(seen.lines.withLock { $0 }.isEmpty)
        _ = (bridge, tokens)
    }

    @Test func aLookAlikeOriginIsRejected() async throws {
        let (router, seen, tokens) = try shopRouter()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        for url in [
            "https://shop.example.com.evil.net/", "https://evilshop.example.com/", "http://shop.example.com/",
            "https://shop.example.com:8443/",
        ] {
            let post = try #require(
                controller._deliver(
                    name: "cartTotal", body: ["currency": "EUR"], frameInfo: frame(url, mainFrame: true)))
            #expect(await eventually { !post.isPending }, "\(url)")
            #expect(post.envelope?.message.hasPrefix("cartTotal: rejected: ") == true, "\(url)")
            #expect(post.envelope?.kind == "rejected", "\(url)")
        }
        #expect(seen.lines.withLock { $0 }.isEmpty)
        _ = (bridge, tokens)
    }

    @Test func anOpaqueOriginIsRejected() async throws {
        let (router, _, tokens) = try shopRouter()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        let sandboxed = WKFrameInfo(
            _isMainFrame: true, request: URLRequest(url: URL(string: "about:blank")!),
            securityOrigin: WKSecurityOrigin(_protocol: "", host: "", port: 0))
        let post = try #require(controller._deliver(name: "cartTotal", body: ["currency": "EUR"], frameInfo: sandboxed))
        #expect(await eventually { !post.isPending })
        #expect(post.errorMessage?.contains("origin is unknown") == true)
        _ = (bridge, tokens)
    }

    @Test func withoutAPolicyEveryFrameIsAdmittedAsBefore() async throws {
        let router = Router()
        let seen = Seen()
        let token = router.on(AddCartLine.self) { line in seen.lines.withLock { $0.append(line.productId) } }
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        let post = try #require(
            controller._deliver(
                name: "addCartLine", body: ["productId": "p9", "quantity": 1],
                frameInfo: frame("https://ads.example.net/banner", mainFrame: false)))
        #expect(await eventually { !post.isPending })
        #expect(seen.lines.withLock { $0 } == ["p9"])
        _ = (bridge, token)
    }
}
