import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWebKit
import Testing
import WebKit

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLRequest on Linux
#endif

/// Messages posted by the page through the stub reach the router; the reply handler
/// gets `(value, nil)` or `(nil, message)`, exactly once.
@MainActor
@Suite struct AdapterMessageTests {
    final class Received: @unchecked Sendable {
        let lines = Locked<[String]>([])
    }

    func cartRouter() throws -> (Router, Received, [Registration]) {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(100)))
        let received = Received()
        var tokens: [Registration] = []
        tokens.append(
            try router.respond(to: CartTotal.self) { request, reply in
                if request.currency == "XXX" {
                    reply(.failure(CartLocked()))
                } else {
                    reply(.success(Total(amount: "10.50", currency: request.currency)))
                }
            })
        tokens.append(
            router.on(AddCartLine.self) { event in
                received.lines.withLock { $0.append("\(event.productId)×\(event.quantity)") }
            })
        return (router, received, tokens)
    }

    @Test func aRequestResolvesThePagesPromiseWithTheReply() async throws {
        let (router, _, tokens) = try cartRouter()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)

        let post = try #require(controller._deliver(name: "cartTotal", body: ["currency": "EUR"], frameInfo: frame()))
        #expect(await eventually { !post.isPending })
        #expect(jsonText(post.value ?? nil) == #"{"amount":"10.50","currency":"EUR"}"#)
        #expect(post.replyCalls == 1)
        _ = (bridge, tokens)
    }

    @Test func anEventIsDeliveredAndResolvesWithNull() async throws {
        let (router, received, tokens) = try cartRouter()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)

        let post = try #require(
            controller._deliver(
                name: "addCartLine", body: ["productId": "p1", "quantity": 2],
                frameInfo: frame("https://cdn.example.net/widget", mainFrame: false)))
        #expect(await eventually { !post.isPending })
        #expect(received.lines.withLock { $0 } == ["p1×2"])
        #expect(post.value.map { $0 is NSNull } == true)
        #expect(post.replyCalls == 1)
        _ = (bridge, tokens)
    }

    @Test func failuresRejectThePagesPromiseWithTheirMessage() async throws {
        let (router, _, tokens) = try cartRouter()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller, alsoRegistering: ["nobodyHome"])
        let cases: [(String, Any, String)] = [
            ("cartTotal", ["currency": "XXX"], "cartTotal: "),
            ("cartTotal", ["currency": 3], "cartTotal"),
            ("addCartLine", ["productId": "p1"], "addCartLine"),
            ("nobodyHome", NSNull(), "nobodyHome"),
        ]
        for (name, body, prefix) in cases {
            let post = try #require(controller._deliver(name: name, body: body, frameInfo: frame()), "\(name)")
            #expect(await eventually { !post.isPending }, "\(name)")
            #expect(post.value == nil, "\(name)")
            #expect(post.envelope?.message.hasPrefix(prefix) == true, "\(name): \(post.errorMessage ?? "nil")")
            #expect(post.replyCalls == 1, "\(name)")
        }
        _ = (bridge, tokens)
    }

    @Test func aNameWithoutAHandlerIsNotReachableFromThePage() throws {
        let (router, _, tokens) = try cartRouter()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        #expect(controller._deliver(name: "removeCartLine", body: NSNull(), frameInfo: frame()) == nil)
        _ = (bridge, tokens)
    }

    @Test func aMessageReachingAStoppedBridgeIsRejected() async throws {
        let (router, received, tokens) = try cartRouter()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        // Hold on to the proxy as WebKit does while a message is in flight.
        let proxy = try #require(controller._handler(named: "addCartLine") as? any WKScriptMessageHandlerWithReply)
        bridge.stop()
        let message = WKScriptMessage(
            _body: ["productId": "p1", "quantity": 1], webView: nil, frameInfo: frame(), name: "addCartLine",
            world: .page)
        let reply = Locked<(Int, String?)>((0, nil))
        proxy.userContentController(controller, didReceive: message) { _, error in
            reply.withLock { $0 = ($0.0 + 1, error) }
        }
        #expect(await eventually { reply.withLock { $0.0 } == 1 })
        #expect(
            reply.withLock { $0.1 }
                == #"{"kind":"unavailable","channel":"addCartLine","message":"addCartLine: the Switchboard bridge is stopped"}"#
        )
        #expect(received.lines.withLock { $0 }.isEmpty)
        _ = tokens
    }

    @Test func aReplyThatIsNeverSentTimesOutInsteadOfLeavingThePromisePending() async throws {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(20)))
        let held = Locked<[Reply<Total>]>([])
        let token = try router.respond(to: CartTotal.self) { _, reply in held.withLock { $0.append(reply) } }
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        let post = try #require(controller._deliver(name: "cartTotal", body: ["currency": "EUR"], frameInfo: frame()))
        #expect(await eventually { !post.isPending })
        #expect(post.envelope?.message == RequestFailure.timedOut("cartTotal", after: .milliseconds(20)).message)
        #expect(post.envelope?.kind == "timedOut")
        #expect(post.replyCalls == 1)
        _ = (bridge, token)
    }

    @Test func theStubCarriesTheSendersFrameOriginAndWorld() throws {
        let controller = WKUserContentController()
        let app = AppHandler()
        let world = WKContentWorld.world(name: "widget")
        controller.add(app, contentWorld: world, name: "probe")
        let webView = WKWebView(frame: .zero, configuration: WKWebViewConfiguration())
        let sender = WKFrameInfo(_url: URL(string: "https://ads.example.org:8443/frame")!, isMainFrame: false)
        try #require(
            controller._deliver(name: "probe", body: "x", frameInfo: sender, world: world, webView: webView) != nil)

        let message = try #require(app.received.first)
        #expect(message.name == "probe")
        #expect(message.body as? String == "x")
        #expect(message.world === world)
        #expect(message.webView === webView)
        #expect(message.frameInfo.isMainFrame == false)
        #expect(message.frameInfo.securityOrigin.protocol == "https")
        #expect(message.frameInfo.securityOrigin.host == "ads.example.org")
        #expect(message.frameInfo.securityOrigin.port == 8443)
        #expect(message.frameInfo.request.url?.path == "/frame")
    }
}
