import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWebKit
import Testing
import WebKit

/// The manifest user script the adapter keeps on the controller and applies to the loaded page.
@MainActor
@Suite struct AdapterScriptTests {
    @Test func publishesTheManifestAtDocumentStartInAllFramesOfItsWorld() throws {
        let router = Router()
        router.declare(Feature("freeProductRewards", needs: AddCartLine.channel))
        let add = router.on(AddCartLine.self) { _ in }
        let controller = WKUserContentController()
        let bridge = RouterBridge(router: router, userContentController: controller)

        let script = try #require(controller.userScripts.first)
        #expect(controller.userScripts.count == 1)
        #expect(script.injectionTime == .atDocumentStart)
        #expect(!script.isForMainFrameOnly)
        #expect(script._contentWorld === WKContentWorld.page)
        #expect(script.source == ManifestScript.source(for: router.manifest))
        #expect(script.source == bridge.userScriptSource)
        _ = add
    }

    @Test func updatesTheScriptOnChangeKeepingTheAppsScriptsAndEvaluatesItInTheLoadedPage() async {
        let router = Router()
        let configuration = WKWebViewConfiguration()
        let controller = configuration.userContentController
        let appScript = WKUserScript(source: "window.app = 1;", injectionTime: .atDocumentEnd, forMainFrameOnly: true)
        controller.addUserScript(appScript)
        let webView = WKWebView(frame: .zero, configuration: configuration)
        let world = WKContentWorld.world(name: "bridge")
        let bridge = RouterBridge(
            router: router, userContentController: controller, webView: webView, contentWorld: world)
        #expect(webView._evaluated.count == 1)

        let ping = router.on(Ping.self) { _ in }
        #expect(await eventually { controller.userScripts.contains { $0.source.contains(#""ping""#) } })
        #expect(controller.userScripts.count == 2)
        #expect(controller.userScripts.contains { $0 === appScript })
        #expect(webView._evaluated.count == 2)
        #expect(webView._evaluated.last?.source == bridge.userScriptSource)
        #expect(webView._evaluated.allSatisfy { $0.world === world })

        bridge.stop()
        #expect(controller.userScripts.map(\.source) == ["window.app = 1;"])
        _ = ping
    }
}
