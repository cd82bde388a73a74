import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWebKit
import Testing
import WebKit

/// A push the app sends the page.
struct PointsChanged: Push, Codable {
    static let channel: Channel = "pointsChanged"
    let points: Int
}

/// Pushes and manifest changes reach the loaded page through `callAsyncJavaScript`, with their
/// values as arguments, in the frames the channel's origin policy admits.
@MainActor
@Suite struct AdapterPushTests {
    @Test func aPushReachesTheMainFrameAndTheAdmittedSubFramesThatPosted() throws {
        let router = Router(
            options: RouterOptions(
                originPolicy: OriginPolicy(
                    allowed: [try OriginPattern(parsing: "https://shop.example.com")], allowsSubframes: true)))
        let ping = router.on(Ping.self) { _ in }
        let configuration = WKWebViewConfiguration()
        let controller = configuration.userContentController
        let webView = WKWebView(frame: .zero, configuration: configuration)
        webView._url = URL(string: "https://shop.example.com/cart")
        let bridge = RouterBridge(router: router, userContentController: controller, webView: webView)
        // Two sub-frames post: one the policy admits, one it refuses (an ad).
        let widget = frame("https://shop.example.com/widget", mainFrame: false)
        let ad = frame("https://ads.example.net/banner", mainFrame: false)
        controller._deliver(name: "ping", body: [String: Any](), frameInfo: widget, webView: webView)
        controller._deliver(name: "ping", body: [String: Any](), frameInfo: ad, webView: webView)
        let before = webView._called.count

        bridge.push(PointsChanged(points: 120))
        let calls = webView._called.dropFirst(before)
        #expect(calls.count == 2)
        #expect(calls.contains { $0.frame == nil })
        #expect(calls.contains { $0.frame === widget })
        #expect(!calls.contains { $0.frame === ad })
        for call in calls {
            #expect(call.arguments["name"] as? String == "pointsChanged")
            #expect((call.arguments["body"] as? [String: Any])?["points"] as? Int == 120)
            #expect(!call.body.contains("120"), "values are arguments, never script text")
            // The script runs only in a document of the origin it was admitted for.
            #expect(call.arguments["switchboardAdmittedOrigin"] as? String == "https://shop.example.com")
            #expect(call.body.hasPrefix("if (location.origin !== switchboardAdmittedOrigin) { return; }"))
        }
        _ = ping
    }

    @Test func aBridgeMadeBeforeItsWebViewUpdatesThePageOnceAMessageArrives() async {
        let router = Router()
        let configuration = WKWebViewConfiguration()
        let controller = configuration.userContentController
        let bridge = RouterBridge(router: router, userContentController: controller)
        let ping = router.on(Ping.self) { _ in }
        #expect(await eventually { bridge.registeredNames == ["ping", "switchboard"] })
        let webView = WKWebView(frame: .zero, configuration: configuration)
        webView._url = URL(string: "https://shop.example.com/")
        controller._deliver(name: "ping", body: [String: Any](), frameInfo: frame(), webView: webView)
        let ready = router.on(AddCartLine.self) { _ in }
        #expect(
            await eventually {
                webView._called.contains {
                    (($0.arguments["manifest"] as? [String: Any])?["channels"] as? [String])?.contains("addCartLine")
                        == true
                }
            })
        _ = (ping, ready)
    }
}
