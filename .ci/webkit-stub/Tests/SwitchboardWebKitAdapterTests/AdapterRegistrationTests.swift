import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWebKit
import Testing
import WebKit

/// The real adapter (SwitchboardWebKit.swift) driving the stub WKUserContentController.
@MainActor
@Suite struct AdapterRegistrationTests {
    @Test func registersAReplyHandlerForEachLiveChannelInThePageWorld() {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let add = router.on(AddCartLine.self) { _ in }
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)

        #expect(controller._handlerNames(in: .page) == ["addCartLine", "ping", "switchboard"])
        #expect(controller._handlerNames(in: .defaultClient).isEmpty)
        #expect(controller._handler(named: "ping") is any WKScriptMessageHandlerWithReply)
        #expect(bridge.registeredNames == ["addCartLine", "ping", "switchboard"])
        // The page's hello handler (named after the global) answers with a reply too.
        #expect(controller._handler(named: "switchboard") is any WKScriptMessageHandlerWithReply)
        _ = (ping, add)
    }

    @Test func followsTheRouterAsHandlersComeAndGo() async throws {
        let router = Router()
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)
        #expect(controller._handlerNames() == ["switchboard"])

        let add = router.on(AddCartLine.self) { _ in }
        #expect(await eventually { controller._handlerNames() == ["addCartLine", "switchboard"] })
        let total = try router.respond(to: CartTotal.self) { request, reply in
            reply(.success(Total(amount: "0", currency: request.currency)))
        }
        #expect(await eventually { controller._handlerNames() == ["addCartLine", "cartTotal", "switchboard"] })
        add.cancel()
        #expect(await eventually { controller._handlerNames() == ["cartTotal", "switchboard"] })
        total.cancel()
        #expect(await eventually { controller._handlerNames() == ["switchboard"] })
        #expect(!bridge.isStopped)
    }

    @Test func usesTheContentWorldItIsGiven() {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = WKUserContentController()
        let world = WKContentWorld.world(name: "switchboard")
        let bridge = RouterBridge(router: router, userContentController: controller, contentWorld: world)

        #expect(controller._handlerNames(in: world) == ["ping", "switchboard"])
        #expect(controller._handlerNames(in: .page).isEmpty)
        #expect(controller.userScripts.map(\._contentWorld) == [world])
        bridge.stop()
        #expect(controller._handlerNames(in: world).isEmpty)
        _ = ping
    }

    @Test func stopAndReleaseRemoveTheHandlersAndTheScript() async {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = WKUserContentController()
        do {
            let bridge = RouterBridge(router: router, userContentController: controller)
            #expect(controller._handlerNames() == ["ping", "switchboard"])
            #expect(controller.userScripts.count == 1)
            _ = bridge
        }
        #expect(await eventually { controller._handlerNames().isEmpty && controller.userScripts.isEmpty })

        let stopped = RouterBridge(router: router, userContentController: controller)
        stopped.stop()
        #expect(controller._handlerNames().isEmpty)
        #expect(controller.userScripts.isEmpty)
        _ = ping
    }

    @Test func theControllerRetainsTheProxyButNotTheBridgeNorTheWebView() async {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let configuration = WKWebViewConfiguration()
        let controller = configuration.userContentController
        weak var weakBridge: RouterBridge?
        weak var weakWebView: WKWebView?
        var proxy: AnyObject?
        do {
            let webView = WKWebView(frame: .zero, configuration: configuration)
            let bridge = RouterBridge(router: router, userContentController: controller, webView: webView)
            weakBridge = bridge
            weakWebView = webView
            proxy = controller._handler(named: "ping")
            #expect(proxy != nil)
        }
        #expect(weakBridge == nil)
        #expect(weakWebView == nil)
        // The released bridge removed its handler; the proxy it had registered is now only ours.
        #expect(await eventually { controller._handler(named: "ping") == nil })
        #expect(proxy != nil)
        _ = ping
    }

    @Test func theStubTrapsOnADuplicateNameAsWebKitDoes() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let controller = WKUserContentController()
                controller.add(AppHandler(), name: "ping")
                controller.add(AppHandler(), contentWorld: .page, name: "ping")
            }
        }
    }

    @Test func theSameNameInAnotherWorldIsNotADuplicate() {
        let controller = WKUserContentController()
        controller.add(AppHandler(), name: "ping")
        controller.add(AppHandler(), contentWorld: .defaultClient, name: "ping")
        #expect(controller._handlerNames(in: .page) == ["ping"])
        #expect(controller._handlerNames(in: .defaultClient) == ["ping"])
        controller.removeAllScriptMessageHandlers(from: .page)
        #expect(controller._handlerNames(in: .page).isEmpty)
        controller.removeAllScriptMessageHandlers()
        #expect(controller._handlerNames(in: .defaultClient).isEmpty)
    }
}
